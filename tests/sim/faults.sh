#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdma-sim --fault, judged by what programs see and by the sim's own
# accounting (the --trace fault lines, the engine counters line).
# Usage: faults.sh SIM TRAFFIC CASE
#   TRAFFIC: tests/sim_faults_traffic (faults_traffic.c); for judge-*
#            the base TCP port of the program's server
#   CASE: rc-KIND-RATE  our RC data check under --fault KIND:rate=RATE
#         ud            UD under 10 % loss: what arrives is what was sent
#                       minus exactly what the trace says was dropped
#         seed          the same seed gives the same fault lines, another
#                       seed others (UD: the packets each QP receives
#                       come in the same order in every run; RC's ACKs
#                       and retransmissions depend on timing)
#         flap-ok|flap-exc, event, cqe, midmsg   (see faults_traffic.c)
#         gone          a peer process killed (and not reaped) once
#                       connected: RETRY_EXC_ERR, no endless wait
#         judge-PROG-KIND-RATE  Debian's PROG (ib_write_bw, ib_send_bw,
#                       ibv_rc_pingpong) through debian_datapath.sh
# FAULTS_SIM_OPTS in the environment: more rdma-sim options (--driver rxe:
# the same over soft-RoCE, the traffic addressed by RoCE v2 GIDs).
# FAULTS_LIBS: run the traffic program on the libraries in that directory
# (ours) instead of Debian's.
SIM=$1
PROG=$2
CASE=$3
here=$(dirname "$0")
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# run OUT SIM-OPTIONS... -- ARGS: the traffic program under the sim
run() {
	out=$1
	shift
	# shellcheck disable=SC2086 # FAULTS_SIM_OPTS is a list of options
	env -u LD_LIBRARY_PATH ${FAULTS_LIBS:+LD_LIBRARY_PATH=$FAULTS_LIBS} \
		RDMA_SIM_HCA_STATS="$w/stats" \
		timeout 120 "$SIM" --devices 2 ${FAULTS_SIM_OPTS:-} \
		--trace "$w/trace" "$@" >"$out" 2>&1
	rc=$?
	cat "$out"
	grep '^\[[0-9]*\] engine' "$w/trace" | sed 's/^\[[0-9]*\] //'
	return $rc
}

# counter NAME: its sum over the processes' counters lines
counter() {
	awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) s += $(i + 1) }
		END { print s + 0 }' "$w/stats"
}

# The transport's work must show: faults were applied and, for a lost
# packet, answered by a retransmission. (A repeated ACK or response needs
# no answer; a packet reordered or delayed behind nothing needs none.)
retries_shown() {
	f=$(counter faults)
	r=$(($(counter retransmits) + $(counter duplicates) + $(counter seq-naks)))
	echo "faults $f, retransmits+duplicates+seq-naks $r, ack-timeouts $(counter ack-timeouts)"
	[ "$f" -gt 0 ] || fail "no fault was applied"
	case $1 in
	drop | corrupt) [ "$r" -gt 0 ] ||
		fail "faults, but no retransmission or duplicate answered" ;;
	esac
	[ "$(grep -c '\] fault ' "$w/trace")" -gt 0 ] || fail "no fault lines in the trace"
}

# The flap is timed from the world's start, which comes before the netns
# (RoCE, rxe) and the program's own start-up: on a loaded host that took
# over 400 ms, and the program then met a port that was already back.
flap=at=2000,for=400
case $CASE in
rc-*)
	kind=$(echo "$CASE" | cut -d- -f2)
	rate=$(echo "$CASE" | cut -d- -f3)
	run "$w/out" --fault "$kind:rate=$rate" -- "$PROG" rc 60 ||
		fail "exit status"
	grep -q '^rc ok: 60 rounds' "$w/out" || fail "not every round passed"
	retries_shown "$kind" ;;
ud)
	run "$w/out" --fault drop:rate=0.1 -- "$PROG" ud 1000 || fail "exit status"
	got=$(sed -n 's/^ud received \([0-9]*\) of 1000$/\1/p' "$w/out")
	drops=$(grep -c '\] fault drop ' "$w/trace")
	echo "received $got, dropped $drops"
	[ -n "$got" ] && [ "$drops" -gt 0 ] || fail "no result or nothing dropped"
	[ $((got + drops)) = 1000 ] || fail "$got received + $drops dropped != 1000" ;;
seed)
	for s in 7 7 8; do
		rm -f "$w/trace"
		run "$w/out" --seed $s --fault drop:rate=0.05 \
			--fault corrupt:rate=0.05 -- "$PROG" ud 1000 >/dev/null ||
			fail "seed $s: exit status"
		grep '\] fault ' "$w/trace" | sed 's/^\[[0-9]*\] //' | sort >"$w/f.$s.$(ls "$w" | grep -c '^f\.')"
	done
	echo "seed 7: $(wc -l <"$w/f.7.0") fault lines, again $(wc -l <"$w/f.7.1"), seed 8: $(wc -l <"$w/f.8.2")"
	[ -s "$w/f.7.0" ] || fail "no faults with seed 7"
	cmp -s "$w/f.7.0" "$w/f.7.1" || { diff "$w/f.7.0" "$w/f.7.1" | head; fail "seed 7 twice: different faults"; }
	cmp -s "$w/f.7.0" "$w/f.8.2" && fail "seeds 7 and 8 gave the same faults"
	;;
flap-ok)
	run "$w/out" --fault "link-flap:$flap" -- "$PROG" flap ok ||
		fail "exit status"
	grep -q 'link-flap port down' "$w/trace" && grep -q 'link-flap port up' "$w/trace" ||
		fail "no link-flap lines in the trace" ;;
flap-exc)
	run "$w/out" --fault "link-flap:$flap" -- "$PROG" flap exc ||
		fail "exit status"
	grep -q 'RETRY_EXC_ERR' "$w/trace" || fail "no RETRY_EXC_ERR CQE in the trace" ;;
event)
	# at 1.5 s: the pair must be connected first (a QP the event moved
	# to ERR cannot go to RTR: EINVAL), which at 300 ms a host at load
	# 16 missed; the program waits 5 s for the event
	run "$w/out" --fault event:type=QP_FATAL,at=1500 -- "$PROG" event ||
		fail "exit status"
	grep -q '\] fault event QP_FATAL' "$w/trace" || fail "no event line" ;;
cqe)
	run "$w/out" --fault cqe-error:wqe=3,status=REM_ACCESS_ERR -- "$PROG" cqe ||
		fail "exit status"
	grep -q '\] fault cqe-error .* wqe 3 status REM_ACCESS_ERR' "$w/trace" ||
		fail "no cqe-error line" ;;
gone)
	run "$w/out" -- "$PROG" rc2 0 10 || fail "exit status"
	grep -q '^gone: RETRY_EXC_ERR' "$w/out" || fail "no RETRY_EXC_ERR" ;;
midmsg)
	run "$w/out" --fault drop:packet=2,dev=1 -- "$PROG" midmsg ||
		fail "exit status" ;;
judge-*)
	p=$(echo "$CASE" | cut -d- -f2)
	kind=$(echo "$CASE" | cut -d- -f3)
	rate=$(echo "$CASE" | cut -d- -f4)
	window=
	case $p in
	ibv_*)
		args="-n 300"
		# ibv_rc_pingpong exits at its last completion, with no final
		# handshake: a lost last ACK meets a peer that is gone (on
		# hardware too). Loss stops after 400 of each QP's ~600
		# packets; perftest syncs over TCP and needs no window.
		case $kind in drop | corrupt) window=,upto=400 ;; esac ;;
	*) args="-n 500" ;;
	esac
	# shellcheck disable=SC2086 # args is a list
	RDMA_SIM_HCA_STATS="$w/stats" \
		DP_SIM_OPTS="--trace $w/trace --fault $kind:rate=$rate$window" \
		sh "$here/debian_datapath.sh" "$SIM" 1 "$PROG" "$p" $args ||
		fail "$p under $kind $rate"
	retries_shown "$kind" ;;
*)
	fail "unknown case $CASE" ;;
esac
echo "ok: $CASE"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Traffic beside other traffic: a real HCA answers in microseconds whatever
# its host's CPUs do, so a simulated one must not time out because the
# host is busy. While two other rdma-sim worlds run ib_write_bw in a loop
# and a busy loop spins on every CPU, one world runs Debian's
# ibv_rc_pingpong, ib_send_bw, ib_write_bw, DAPL's `dtest -D` (RDMA
# WRITE ping-pong of 4 MiB with a data check) and our two-process RC
# check with a 262 us ACK timeout (faults_traffic rc2: the peer's
# scheduling delay is far longer than that). Everything must finish
# with its result lines, and that world's engine counters must show no
# ACK timeout and no retransmission: on a lossless wire none is due.
# Usage: busy_world.sh SIM PORT TRAFFIC (tests/sim_faults_traffic)
SIM=$1
PORT=$(($2 + ($$ % 400) * 32))
TRAFFIC=$3
here=$(dirname "$0")
for p in ibv_rc_pingpong ib_send_bw ib_write_bw dtest; do
	command -v $p >/dev/null 2>&1 || { echo "SKIP: no $p"; exit 77; }
done
w=$(mktemp -d)
pids=
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$w"
}
trap cleanup EXIT
# A timeout or ^C must not leave the busy loops spinning.
trap "exit 1" HUP INT TERM
fail() { echo "FAIL: $*"; exit 1; }

# the neighbours: two worlds with traffic, a spinning loop per CPU
for i in 1 2; do
	(
		p=$((PORT + 10 + i))
		while :; do
			env -u LD_LIBRARY_PATH timeout 30 "$SIM" -- sh -c \
				"ib_write_bw -p $p -n 20000 >/dev/null 2>&1 & sleep 0.3;
				 ib_write_bw -p $p -n 20000 localhost >/dev/null 2>&1; wait"
		done
	) &
	pids="$pids $!"
done
for i in $(seq "$(nproc)"); do
	sh -c 'while :; do :; done' &
	pids="$pids $!"
done
sleep 1

export RDMA_SIM_HCA_STATS="$w/stats"
n=0
for prog in "ibv_rc_pingpong -n 300" "ib_send_bw -n 1000" "ib_write_bw -n 1000"; do
	n=$((n + 1))
	# shellcheck disable=SC2086 # prog is a command line
	sh "$here/debian_datapath.sh" "$SIM" 1 $((PORT + n)) $prog >"$w/out" 2>&1 ||
		{ cat "$w/out"; fail "$prog beside other traffic"; }
	tail -1 "$w/out"
done

# BUSY_RC2_ROUNDS, BUSY_RC2_SECS: fewer rounds and more wall time in a
# sanitized build, whose rounds are slower beside the busy loops (and
# beside the outer suite, which CI runs at the same time)
rounds=${BUSY_RC2_ROUNDS:-60}
env -u LD_LIBRARY_PATH timeout "${BUSY_RC2_SECS:-60}" "$SIM" --devices 2 -- "$TRAFFIC" rc2 \
	"$rounds" 6 >"$w/out" 2>&1
cat "$w/out"
grep -q "^rc2 ok: $rounds rounds" "$w/out" || fail "rc2 beside other traffic"

# dtest: socket CM (provider ofa-v2-mlx5_0-1s of Debian's /etc/dat.conf),
# 10 round trips of 4 MiB, every byte checked (-D)
cat >"$w/dtest" <<EOS
#!/bin/sh
dtest -P ofa-v2-mlx5_0-1s -s -D -B 10 >"$w/ds" 2>&1 &
s=\$!
sleep 1
timeout 50 dtest -P ofa-v2-mlx5_0-1s -h 127.0.0.1 -D -B 10 >"$w/dc" 2>&1
c=\$?
i=0
while kill -0 \$s 2>/dev/null && [ \$i -lt 100 ]; do sleep 0.1; i=\$((i + 1)); done
kill \$s 2>/dev/null
wait \$s
echo "\$c \$?" >"$w/drc"
EOS
chmod +x "$w/dtest"
env -u LD_LIBRARY_PATH timeout 60 "$SIM" -- "$w/dtest"
read -r c s <"$w/drc" || fail "dtest did not finish"
grep -E 'PingPong|PASSED|FAIL|ERR' "$w/dc" "$w/ds"
[ "$c" = 0 ] && [ "$s" = 0 ] || { tail -20 "$w/dc" "$w/ds"; fail "dtest -D: client $c server $s"; }
grep -q 'DAPL Test Complete. PASSED' "$w/dc" && grep -q 'DAPL Test Complete. PASSED' "$w/ds" ||
	fail "dtest -D did not pass"

cat "$w/stats"
sum() {
	awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) s += $(i + 1) }
		END { print s + 0 }' "$w/stats"
}
echo "ack-timeouts $(sum ack-timeouts) retransmits $(sum retransmits) timer-waits $(sum timer-waits)"
[ "$(sum ack-timeouts)" = 0 ] && [ "$(sum retransmits)" = 0 ] ||
	fail "spurious ACK timeouts or retransmissions on a lossless wire"
echo "ok: traffic beside other traffic"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The RoCE v2 UDP source port each QP sends from, as --trace says it
# ("roce v2 dev D qp Q udp sport P"), against the kernel's rules computed
# here from the QPNs the programs print:
#  - mlx5 RC (mlx5_ib's QPC path): flow label 0 -> from lqpn * rqpn;
#  - rxe RC (rxe_modify_qp): the same; rxe UD: the QPN's hash at create;
#  - mlx5 UD: the port libmlx5 put in the AV (random when the flow label
#    is 0: only its range is known);
#  - with BINDIR (the current perftest, whose --flow_label Debian's 4.5
#    does not pass on for RC) only: a flow label's fold into 14 bits, on
#    RC (mlx5_ib's QPC) and UD (libmlx5's AV).
# Usage: udp_sport.sh SIM [CURRENT-PERFTEST-BINDIR]
SIM=$1
PT=${2:-}
fail() { echo "FAIL: $*"; exit 1; }
if [ -n "$PT" ]; then
	[ -x "$PT/ib_write_bw" ] ||
		{ echo "SKIP: no current perftest in $PT"; exit 77; }
else
	command -v ibv_rc_pingpong >/dev/null 2>&1 ||
		{ echo "SKIP: no ibv_rc_pingpong (ibverbs-utils)"; exit 77; }
fi
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
port=$((21000 + $$ % 2000))

# rdma_flow_label_to_udp_sport and rdma_calc_flow_label
fl_sport() { echo $(( (($1 & 0x3fff) ^ (($1 & 0xfc000) >> 14)) | 0xc000 )); }
qpn_sport() {
	v=$(($1 * $2))
	v=$((v ^ (v >> 20)))
	v=$((v ^ (v >> 40)))
	fl_sport $((v & 0xfffff))
}
# rxe's port for a new QP: 0xc000 + hash_32(qpn, 14)
rxe_sport() { echo $(( 0xc000 + ((($1 * 0x61c88647) & 0xffffffff) >> 18) )); }
# the QPN a pingpong's output (file) prints for "local" or "remote"
qpn_of() { sed -n "s/.*$2 address: .*QPN \(0x[0-9a-f]*\).*/\1/p" "$1"; }
# the port --trace said for QP qpn (numeric, or empty)
traced() {
	p=$(sed -n "s/.* qp $(printf '%#x' "$1") udp sport \(0x[0-9a-f]*\) .*/\1/p" \
		"$w/trace" | tail -1)
	[ -n "$p" ] && echo $((p))
}

# run DEV-OPTS PROGRAM ARGS...: server and client under one rdma-sim
run() {
	opts=$1
	shift
	port=$((port + 1))
	rm -f "$w/trace"
	cat >"$w/run" <<EOF
#!/bin/sh
$* -p $port >"$w/s" 2>&1 &
sleep 1
$* -p $port 192.168.1.1 >"$w/c" 2>&1
c=\$?
wait \$!
echo "\$c \$?" >"$w/rc"
EOF
	chmod +x "$w/run"
	# shellcheck disable=SC2086 # opts is a list of options
	timeout 90 "$SIM" $opts --trace "$w/trace" -- "$w/run"
	read -r c s <"$w/rc" || fail "$*: did not finish"
	[ "$c" = 0 ] && [ "$s" = 0 ] ||
		{ cat "$w/s" "$w/c"; fail "$*: exit $c/$s"; }
}

# expect SIDE-FILE WANT: the QP of that side sent from port WANT
expect() {
	q=$(($(qpn_of "$1" local)))
	got=$(traced "$q")
	[ "$got" = "$2" ] || fail "$what: qp $q sent from '$got', want $2"
	printf 'ok: %s qp %#x udp sport %#x\n' "$what" "$q" "$2"
}

if [ -n "$PT" ]; then
	want=$(fl_sport 0x12345)
	for p in "ib_write_bw" "ib_send_bw -c UD -s 512"; do
		what="mlx5 $p --flow_label=0x12345"
		run "--link-layer eth" "$PT/$p" -d mlx5_0 -x 3 -n 20 \
			--flow_label=0x12345
		# the client sends; perftest prints its QPN as "QPN 0x..."
		q=$(sed -n 's/.*local address: .*QPN \(0x[0-9a-f]*\).*/\1/p' \
			"$w/c" | head -1)
		got=$(traced $((q)))
		[ "$got" = "$want" ] ||
			fail "$what: qp $q sent from '$got', want $want"
		printf 'ok: %s qp %s udp sport %#x\n' "$what" "$q" "$want"
	done
	echo "ok: RoCE v2 UDP source ports from flow labels"
	exit 0
fi
for m in "mlx5 --link-layer=eth mlx5_0 3" "rxe --driver=rxe rxe0 1"; do
	set -- $m
	opts=$(echo "$2" | tr = ' ')
	what="$1 RC"
	run "$opts" ibv_rc_pingpong -d "$3" -g "$4" -n 20
	for f in "$w/s" "$w/c"; do
		expect "$f" "$(qpn_sport $(($(qpn_of "$f" local))) \
			$(($(qpn_of "$f" remote))))"
	done
done

what="rxe UD"
run "--driver rxe" ibv_ud_pingpong -d rxe0 -g 1 -n 20
for f in "$w/s" "$w/c"; do
	expect "$f" "$(rxe_sport $(($(qpn_of "$f" local))))"
done

what="mlx5 UD"
run "--link-layer eth" ibv_ud_pingpong -d mlx5_0 -g 3 -n 20
for f in "$w/s" "$w/c"; do
	q=$(($(qpn_of "$f" local)))
	got=$(traced "$q")
	[ -n "$got" ] && [ "$got" -ge $((0xc000)) ] && [ "$got" -le $((0xffff)) ] ||
		fail "$what: qp $q sent from '$got', want 0xc000..0xffff"
	printf 'ok: %s qp %#x udp sport %#x (libmlx5 random)\n' "$what" "$q" "$got"
done

echo "ok: RoCE v2 UDP source ports"

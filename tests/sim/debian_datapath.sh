#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Debian's unmodified data-path programs (ibverbs-utils pingpongs, perftest
# 4.5) on Debian's own libibverbs + libmlx5, server and client as two
# processes under ONE rdma-sim. The result lines must be there, not just a
# zero exit status.
# Usage: debian_datapath.sh SIM DEVICES PORT PROGRAM [ARGS...]
#   DEVICES 1: both on mlx5_0; 2: server on mlx5_0, client on mlx5_1.
#   DP_SIM_OPTS in the environment: more rdma-sim options (--static-uar).
#   DP_LIBS: run on the libraries in that directory (ours) instead.
#   DP_DEV: the devices' name prefix (rxe with DP_SIM_OPTS=--driver rxe).
#   DP_ROW="BYTES ITERATIONS": perftest's result row on BOTH sides must
#   start with these (a receiver that got them all says so too).
SIM=$1
NDEV=$2
PORT=$3
shift 3
PROG=$1
shift
# Several trees' suites may run at once: spread the port by pid and step
# over ports that are in use.
PORT=$((PORT + ($$ % 400) * 32))
while command -v ss >/dev/null 2>&1 && ss -ltn 2>/dev/null |
	grep -q ":$PORT "; do
	PORT=$((PORT + 1))
done
command -v "$PROG" >/dev/null 2>&1 || { echo "SKIP: no $PROG"; exit 77; }
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
dev=${DP_DEV:-mlx5_}
cdev=${dev}0
[ "$NDEV" = 2 ] && cdev=${dev}1
cat >"$w/run" <<EOF
#!/bin/sh
"$PROG" -d ${dev}0 -p $PORT $* >"$w/s" 2>&1 &
spid=\$!
# the server listens once its devices are open
i=0
while [ \$i -lt 100 ] && ! grep -q . "$w/s" 2>/dev/null; do
	if command -v ss >/dev/null && ss -ltn 2>/dev/null | grep -q ":$PORT "; then
		break
	fi
	sleep 0.05
	i=\$((i + 1))
done
sleep 0.3
"$PROG" -d $cdev -p $PORT $* localhost >"$w/c" 2>&1
c=\$?
wait \$spid
s=\$?
echo "\$c \$s" >"$w/rc"
EOF
chmod +x "$w/run"
# shellcheck disable=SC2086 # DP_SIM_OPTS is a list of options
env -u LD_LIBRARY_PATH ${DP_LIBS:+LD_LIBRARY_PATH=$DP_LIBS} \
	timeout 60 "$SIM" --devices "$NDEV" ${DP_SIM_OPTS:-} \
	-- "$w/run"
echo "--- server"; cat "$w/s"
echo "--- client"; cat "$w/c"
read -r c s <"$w/rc" 2>/dev/null || { echo "FAIL: did not finish"; exit 1; }
[ "$c" = 0 ] && [ "$s" = 0 ] || { echo "FAIL: exit client $c server $s"; exit 1; }
case $PROG in
ibv_*)
	# "<bytes> bytes in <t> seconds = <r> Mbit/sec" and "<n> iters in ..."
	for f in "$w/s" "$w/c"; do
		grep -Eq '^[0-9]+ bytes in [0-9.]+ seconds = [0-9.]+ Mbit/sec' "$f" &&
			grep -Eq '^[0-9]+ iters in [0-9.]+ seconds = [0-9.]+ usec/iter' "$f" ||
			{ echo "FAIL: no result lines in $f"; exit 1; }
	done ;;
*_bw)
	# the row under "#bytes #iterations BW peak BW average MsgRate"
	grep -Eq '^[[:space:]]*[0-9]+([[:space:]]+[0-9.]+){4}' "$w/c" ||
		{ echo "FAIL: no bandwidth row"; exit 1; } ;;
*_lat)
	# the row under "#bytes #iterations t_min t_max t_typical ...";
	# perftest 4.5 prints t_stdev "-nan" when a scheduling outlier of a
	# loaded host makes its variance negative in floating point
	grep -Eq '^[[:space:]]*[0-9]+([[:space:]]+(-?nan|[0-9.]+)){8}' "$w/c" ||
		{ echo "FAIL: no latency row"; exit 1; } ;;
esac
if [ -n "${DP_ROW:-}" ]; then
	b=${DP_ROW% *} n=${DP_ROW#* }
	for f in "$w/s" "$w/c"; do
		grep -Eq "^[[:space:]]*$b[[:space:]]+$n[[:space:]]+[0-9.]+" "$f" ||
			{ echo "FAIL: no row of $b bytes x $n iterations in $f"; exit 1; }
	done
fi
echo "ok: $PROG $* on $NDEV device(s)"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Debian's UCX (ucx_perftest, libucx0 1.13) over Debian's libibverbs +
# libmlx5 under rdma-sim, with UCX's defaults (its memory hooks included):
# server and client in one world on one verbs transport. The client's
# "Final:" line must be there. UCX reports that it could not patch the
# sim's mmap (boundary/self_guard.c) and runs without those hooks.
# On the ConnectX transports (*_mlx5), UCX rings the doorbells itself,
# from a thread with an alternate signal stack: the engine's counters
# (RDMA_SIM_HCA_STATS) must show passes run in the storing thread in each
# process that posted (before, every such doorbell was left to the engine
# thread).
# LINK, when given, is the ports' link layer (eth: RoCE).
# Usage: ucx_perftest.sh SIM PORT TRANSPORT TEST [LINK]
SIM=$1
PORT=$2
TL=$3
TEST=$4
LINK=${5:-ib}
PORT=$((PORT + ($$ % 400) * 32))
while command -v ss >/dev/null 2>&1 && ss -ltn 2>/dev/null |
	grep -q ":$PORT "; do
	PORT=$((PORT + 1))
done
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cat >"$w/run" <<EOS
#!/bin/sh
ucx_perftest -p $PORT -d mlx5_0:1 -x $TL >"$w/s" 2>&1 &
spid=\$!
# the server listens once its transport is up
i=0
while [ \$i -lt 100 ] && ! ss -ltn 2>/dev/null | grep -q ":$PORT "; do
	sleep 0.05
	i=\$((i + 1))
done
timeout 60 ucx_perftest -p $PORT -d mlx5_0:1 -x $TL -t $TEST -n 1000 \
	localhost >"$w/c" 2>&1
rc=\$?
wait \$spid
exit \$rc
EOS
RDMA_SIM_HCA_STATS=$w/stats "$SIM" --link-layer "$LINK" -- sh "$w/run"
rc=$?
cat "$w/c"
grep -q '^Final:' "$w/c" || { echo "FAIL: no Final line (rc $rc)"; exit 1; }
[ $rc -eq 0 ] || { echo "FAIL: client rc $rc"; cat "$w/s"; exit 1; }
case $TL in
*_mlx5)
	# "engine passes P (B with work, A in the application's calls) ..."
	cat "$w/stats"
	# ... wqes W ...": every process that posted ran passes itself
	awk '$1 == "engine" && $20 == "wqes" && $21 > 0 {
			n++; if ($7 + 0 == 0) bad++ }
		END { exit !(n >= 1 && !bad) }' "$w/stats" ||
		{ echo "FAIL: a process ran no pass at its doorbells"; exit 1; }
	;;
esac

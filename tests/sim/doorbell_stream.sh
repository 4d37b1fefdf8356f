#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Doorbells a streaming sender rings without a trap (hca_doorbell.c), run
# through tests/sim/debian_stream.c:
#  - stream: 128 WRITEs posted back to back to another process (stopped
#    meanwhile, so none is answered before the last is posted) all
#    complete and read back, the page is left open, and at most 4 of the
#    posts trapped and ran their own pass (the first two do, the second
#    leaves the page open; with the page protected all 128 trap). A post
#    whose trap found the sim held by another thread for 100 ms (on a
#    loaded host the engine thread, descheduled in a pass) leaves its pass
#    and the decision to that thread, and posts trap until it runs: those
#    are counted apart (uar-busy) and allowed;
#  - late: a doorbell rung while the engine thread is about to protect
#    the page again is taken by its look after that (within 10 s, where
#    the thread's idle sleeps last 30 s);
#  - dereg: 32 WRITEs of 64 KiB posted the same way, half of them still
#    unsent (the stopped receiver's ring is full) when the sender
#    deregisters its MR: those sent succeed and read back, the next one
#    completes with a local protection error, the rest are flushed;
#  - a ping-pong (Debian's ib_send_lat, whose reply may come before the
#    ACK of its request) never leaves the page open: each post traps and
#    runs its pass at once.
# Usage: doorbell_stream.sh RDMA_SIM DEBIAN_STREAM PORT
set -e
SIM=$1
PROG=$2
PORT=$3
here=$(dirname "$0")
N=128
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
fail() {
	echo "FAIL: $*"
	exit 1
}

RDMA_SIM_HCA_STATS="$w/stats" "$SIM" -- "$PROG" stream $N ||
	fail "the stream did not complete"
# the sender's line: the one that took the N WQEs
line=$(grep " wqes $N " "$w/stats") || { cat "$w/stats"; fail "no sender stats"; }
traps=$(echo "$line" | sed -n 's/.* uar-traps \([0-9]*\).*/\1/p')
opens=$(echo "$line" | sed -n 's/.* uar-opens \([0-9]*\).*/\1/p')
busy=$(echo "$line" | sed -n 's/.* uar-busy \([0-9]*\).*/\1/p')
echo "stream: $N posts trapped $traps times ($busy with the sim busy)," \
	"the page was left open $opens times"
[ "$opens" -ge 1 ] || fail "the UAR page was never left open"
[ $((traps - busy)) -le 4 ] ||
	fail "$traps of $N posts trapped, $busy of them with the sim busy"

RDMA_SIM_TEST_LATE_CLOSE=1000 "$SIM" -- "$PROG" late ||
	fail "a doorbell rung as the page was protected again was lost"
"$SIM" -- "$PROG" dereg ||
	fail "WRITEs meeting a deregistered MR: wrong completions or bytes"

if command -v ib_send_lat >/dev/null; then
	rm -f "$w/stats"
	RDMA_SIM_HCA_STATS="$w/stats" sh "$here/debian_datapath.sh" "$SIM" 1 \
		"$PORT" ib_send_lat -s 2 -n 2000 >"$w/out" 2>&1 ||
		{ cat "$w/out"; fail "ib_send_lat"; }
	opens=$(sed -n 's/.* uar-opens \([0-9]*\).*/\1/p' "$w/stats" |
		awk '{n += $1} END {print n + 0}')
	echo "ib_send_lat: the page was left open $opens times"
	[ "$opens" = 0 ] || fail "a ping-pong left its UAR page open"
else
	echo "SKIP (ping-pong part): no ib_send_lat"
fi
echo "PASS"

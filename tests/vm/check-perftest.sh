#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The perftest part of a lane run, judged from its serial log: every
# perftest program must have run server + client and printed its result
# table (LANE-STEP perftest-* rc=0, see guest-traffic.sh).
#
# usage: check-perftest.sh SERIAL_LOG
# Exit 0 all ran, 1 one failed or is missing, 77 (ctest SKIP) when the lane
# had no perftest programs (neither built from source nor Debian's binary).
set -uo pipefail
log=$1
want=7

[ -s "$log" ] || { echo "no lane log $log (did the vm test run?)"; exit 1; }
if grep -q '^LANE-SKIP perftest' "$log"; then
	grep '^LANE-SKIP perftest' "$log"
	exit 77
fi
grep '^LANE-INFO perftest' "$log"
# The client's result table: header and data lines.
awk '/^--- perftest-.* client:$/ { name = $2; next }
     /^--- / { name = "" }
     name && /#bytes|^ *[0-9]+ +[0-9]+ / { print name ": " $0 }' "$log"
ok=$(grep -cE '^LANE-STEP perftest-[a-z_-]+ rc=0$' "$log")
bad=$(grep -E '^LANE-STEP perftest-' "$log" | grep -v ' rc=0$')
[ -z "$bad" ] || echo "$bad"
echo "[check-perftest] $ok of $want perftest runs passed"
[ "$ok" = "$want" ] && [ -z "$bad" ]

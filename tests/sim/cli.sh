#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdma-sim command line: help, bad options, exit status, cleanup, children.
SIM=$1
fail() { echo "FAIL: $*" >&2; exit 1; }

"$SIM" --help | grep -q 'usage: rdma-sim' || fail "--help"
for bad in "--devices 0" "--devices 1025" "--devices x" "--dm-size 100" \
	"--driver foo" \
	"--fail NOPE:1:EINVAL" "--fail DM_ALLOC:0:EINVAL" \
	"--fail DM_ALLOC:1:EWHAT" "--bogus" \
	"--fault drop" "--fault drop:rate=0.1,packet=2" "--fault drop:rate=2" \
	"--fault drop:rate=0" "--fault drop:ms=3" "--fault nope:rate=0.1" \
	"--fault link-flap:at=10" "--fault event:type=NOPE,at=1" \
	"--fault cqe-error:wqe=1,status=WR_FLUSH_ERR" \
	"--fault drop:packet=1,qp=0x1000000" "--fault drop:rate=0.1,upto=0" \
	"--seed x"; do
	# shellcheck disable=SC2086
	out=$("$SIM" $bad -- true 2>&1) && fail "accepted '$bad'"
	"$SIM" $bad -- true >/dev/null 2>&1
	[ $? -eq 2 ] || fail "'$bad' must exit 2"
	echo "$out" | grep -q 'rdma-sim' || fail "no message for '$bad'"
done
# more MEMIC than the kernel's 256-page bitmap: refused, saying why
out=$("$SIM" --dm-size $((257 * $(getconf PAGESIZE))) -- true 2>&1) &&
	fail "accepted a --dm-size above 256 pages"
echo "$out" | grep -q '256 MEMIC pages' || fail "no reason for --dm-size: $out"
"$SIM" --dm-size $((256 * $(getconf PAGESIZE))) -- true ||
	fail "--dm-size of 256 pages refused"
"$SIM" 2>/dev/null && fail "no PROGRAM accepted"
"$SIM" -- sh -c 'exit 7'
[ $? -eq 7 ] || fail "exit status not propagated"
"$SIM" -- sh -c 'kill -TERM $$'
[ $? -eq 143 ] || fail "signal status not 128+SIGTERM"

tmp=$(mktemp -d)
TMPDIR=$tmp "$SIM" --devices 2 -- sh -c \
	'ls /sys/class/infiniband; cat /sys/class/infiniband_verbs/uverbs1/ibdev' \
	>"$tmp.out" || fail "child run"
grep -qx mlx5_1 "$tmp.out" || fail "children do not see the world"
# --fault rules the launcher takes
for good in "drop:rate=0.01" "dup:rate=1%,dev=1" "reorder:packet=5,qp=0x12" \
	"delay:rate=0.5,ms=3,upto=9" "corrupt:packet=1" \
	"link-flap:at=10,for=5,dev=0" \
	"event:type=DEVICE_FATAL,at=0" "cqe-error:wqe=2,status=REM_OP_ERR"; do
	"$SIM" --seed 3 --fault "$good" -- true || fail "refused --fault $good"
done
[ -z "$(ls -A "$tmp")" ] || fail "temp dir left behind: $(ls -A "$tmp")"
rmdir "$tmp"
rm -f "$tmp.out"
echo "cli: ok"

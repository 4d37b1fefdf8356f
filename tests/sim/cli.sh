#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdma-sim command line: help, bad options, exit status, cleanup, children.
SIM=$1
fail() { echo "FAIL: $*" >&2; exit 1; }

"$SIM" --help | grep -q 'usage: rdma-sim' || fail "--help"
for bad in "--devices 0" "--devices 1025" "--devices x" "--dm-size 100" \
	"--driver foo" \
	"--fail NOPE:1:EINVAL" "--fail DM_ALLOC:0:EINVAL" \
	"--fail DM_ALLOC:1:EWHAT" "--bogus"; do
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
[ -z "$(ls -A "$tmp")" ] || fail "temp dir left behind: $(ls -A "$tmp")"
rmdir "$tmp"
rm -f "$tmp.out"
echo "cli: ok"

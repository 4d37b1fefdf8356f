#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# PROGRAM under rdma-sim --static-uar (an mlx5 kernel without dynamic
# UARs): it must pass, and the trace must show the legacy path: UAR pages
# mapped at open (mmap command 0 or 3: offsets 0 to 0xff000, 0x300000 to 0x3ff000) and no
# UAR_OBJ_ALLOC at all.
# Usage: static_uar.sh SIM PROGRAM [ARGS...]
SIM=$1
shift
fail() { echo "FAIL: $*" >&2; exit 1; }
t=$(mktemp)
trap 'rm -f "$t"' EXIT
"$SIM" --static-uar --trace "$t" -- "$@" || fail "$* exited $?"
grep -q 'UAR_OBJ_ALLOC' "$t" && fail "a dynamic UAR was asked for"
n=$(grep -Ec 'mmap fd [0-9]+ len [0-9]+ off (0|0x[0-9a-f]{1,2}000|0x3[0-9a-f]{2}000) -> 0x' "$t")
[ "$n" -gt 0 ] || fail "no static UAR page was mapped"
echo "static_uar: $n static UAR page mappings, no dynamic UAR"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The simulated kernel and HCA meet programs at system calls and device
# pages only: librdmasim.so neither defines nor needs a libibverbs or
# provider symbol, and no sim source includes <infiniband/*.h> (the kernel
# uAPI of <rdma/*.h> is what it speaks).
LIB=$1
SRC=$2
fail() { echo "FAIL: $*" >&2; exit 1; }

syms=$(nm -D "$LIB") || fail "nm $LIB"
[ -n "$syms" ] || fail "no dynamic symbols in $LIB"
echo "$syms" | grep -E ' (ibv|_ibv|__ibv|verbs|mlx5dv|mlx5)_' &&
	fail "libibverbs/provider symbols in $LIB (above)"
grep -rnE '#[[:space:]]*include[[:space:]]*[<"]infiniband/' "$SRC" &&
	fail "sim sources include <infiniband/*.h> (above)"
echo "$(echo "$syms" | wc -l) dynamic symbols, none of libibverbs or a provider"

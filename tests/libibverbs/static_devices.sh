#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# ENABLE_STATIC: ibv_devices linked with libibverbs.a finds mlx5_0 on
# rdma-sim through the provider linked into the archive - no shared
# libibverbs, no plug-in dlopen()ed.
#   static_devices.sh RDMA_SIM IBV_DEVICES_STATIC
set -eu
sim=$1 prog=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
	echo "static_devices: $*" >&2
	cat "$work"/* >&2
	exit 1
}

! ldd "$prog" | grep -q libibverbs || fail "$prog uses a shared libibverbs"
VERBS_LOG_LEVEL=4 "$sim" -- "$prog" >"$work/out" 2>"$work/err" ||
	fail "the static ibv_devices failed"
grep -Eq '^ +mlx5_0 +0c42a10300b3d0e0 +131072$' "$work/out" ||
	fail "mlx5_0 with 131072 DM bytes not listed"
! grep -q 'loading provider' "$work/err" || fail "a plug-in was loaded"
echo "static_devices: ok"

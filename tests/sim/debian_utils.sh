#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Debian's unmodified ibverbs-utils (rdma-core 44) under rdma-sim.
SIM=$1
fail() { echo "FAIL: $*" >&2; exit 1; }

out=$("$SIM" -- ibv_devices) || fail "ibv_devices exit"
echo "$out" | grep -Eq 'mlx5_0[[:space:]]+0c42a10300b3d0e0' || fail "ibv_devices: $out"
out=$("$SIM" -- ibv_devinfo -v) || fail "ibv_devinfo -v exit"
echo "$out" | grep -q 'PORT_ACTIVE' || fail "no active port"
echo "$out" | grep -q 'node_guid:.*0c42:a103:00b3:d0e0' || fail "node_guid"
echo "$out" | grep -q 'maximum available device memory:.*131072' ||
	fail "max_dm_size"
out=$("$SIM" --devices 3 -- ibv_devices) || fail "--devices 3"
[ "$(echo "$out" | grep -Ec 'mlx5_[0-2][[:space:]]')" -eq 3 ] || fail "three: $out"
out=$("$SIM" --devices 3 -- ibv_devinfo -d mlx5_2) || fail "devinfo mlx5_2"
echo "$out" | grep -q 'node_guid:.*d0e2' || fail "mlx5_2 guid"
out=$("$SIM" --driver rxe -- ibv_devinfo) || fail "rxe devinfo"
echo "$out" | grep -q 'hca_id:.*rxe0' || fail "rxe0 missing: $out"
echo "$out" | grep -q 'link_layer:.*Ethernet' || fail "rxe link layer"
echo "debian_utils: ok"

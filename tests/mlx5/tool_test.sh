#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The ibv_dm_export tool under rdma-sim: the full job passes, and each
# missing feature fails with a message a person can act on.
# usage: tool_test.sh RDMA_SIM IBV_DM_EXPORT
set -u
sim="$1"
tool="$2"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
status=0

# expect RC PATTERN SIM_OPTIONS... -- TOOL_OPTIONS...
expect() {
	want_rc="$1"
	pattern="$2"
	shift 2
	"$sim" "$@" >"$out" 2>&1
	rc=$?
	if [ "$rc" -ne "$want_rc" ] || ! grep -q -- "$pattern" "$out"; then
		echo "FAIL: rdma-sim $* -> rc $rc (want $want_rc), output:"
		cat "$out"
		status=1
	else
		echo "ok: rdma-sim $* -> rc $rc, '$pattern'"
	fi
}

expect 0 "0 failed, 0 skipped" -- "$tool"
expect 0 "0 failed, 0 skipped" --devices 2 -- "$tool" -n 3 -s 8193
expect 0 "peer read the" -- "$tool" -d mlx5_0 -s 100
# RDMA into the dma-buf and back, across devices.
expect 0 "RDMA READ them back and compare .* ok" --devices 2 -- "$tool" -s 65536
expect 1 "cannot export device memory as a dma-buf" --no-dmabuf -- "$tool"
# -u: a doorbell page of its own is allocated, its export refused in words.
expect 1 "doorbell (UAR) page of its own .* ok" --no-dmabuf -- "$tool" -u
expect 1 "cannot export a doorbell page as a dma-buf" --no-dmabuf -- "$tool" -u
# -b: a provider buffer; a dma-buf (checked by the peer) on a CoCo guest,
# whose kernel pins no ordinary memory for the main job's QP pair.
expect 0 "export the buffer as a dma-buf .* skipped .*needs no bounce" \
	-- "$tool" -b
expect 1 "check the buffer through a peer device .* ok" --cc-guest -- \
	"$tool" -b
expect 1 "connect an RC QP pair .* FAILED .*pins no ordinary memory" \
	--cc-guest -- "$tool" -b
expect 1 "kernel has no DMA-buf heap" --cc-guest --no-dma-heap -- \
	"$tool" -b
expect 1 "no device has device memory" --no-dm -- "$tool"
expect 1 "cannot use mlx5_0: it has no device memory" --no-dm -- "$tool" -d mlx5_0
expect 1 "permission denied" --fail open:1:EACCES -- "$tool"
expect 1 "no device with device memory could be opened" \
	--fail open:1:EACCES -- "$tool"
expect 1 "larger than mlx5_0's max_dm_size" --dm-size 4096 -- "$tool" -s 8192
expect 1 "no device named 'mlx5_9'" -- "$tool" -d mlx5_9
expect 2 "bad size" -- "$tool" -s 0
expect 2 "at least 4" -- "$tool" -s 3
expect 0 "Usage:" -- "$tool" -h
# Outside the simulator there is no device: say so and how to try it.
"$tool" >"$out" 2>&1
rc=$?
if [ "$rc" -ne 1 ] || ! grep -q "rdma-sim --" "$out"; then
	echo "FAIL: without rdma-sim -> rc $rc:"
	cat "$out"
	status=1
else
	echo "ok: without rdma-sim -> rc 1 with a hint"
fi
exit $status

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The current perftest built on our tree creates its RC and DC QPs with
# MLX5DV_QP_CREATE_OOO_DP (its banner: "Using Enhanced Reorder : ON") now
# that mlx5dv_query_device reports MLX5DV_CONTEXT_MASK_OOO_RECV_WRS, and
# without it under --no_enhanced_reorder: three runs of current.runs, each
# passing with the state expected.
# usage: check-reorder-current.sh RDMA_SIM BINDIR RUNS XFAIL
set -u
here=$(dirname "$0")
out=$("$here/run-perftest-current.sh" "$1" 1 "$2" rdma-dm "$3" "$4" \
	'^(send_bw|send_bw_dc|send_bw_no_reorder)$')
rc=$?
echo "$out"
[ $rc -eq 77 ] && exit 77
status=$rc
for want in "send_bw ON" "send_bw_dc ON" "send_bw_no_reorder OFF"; do
	set -- $want
	if ! grep -q "^ok *$1 (.*): reorder $2:" <<< "$out"; then
		echo "FAIL: $1 did not pass with Enhanced Reorder $2"
		status=1
	fi
done
exit $status

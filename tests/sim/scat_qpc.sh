#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Scatter to CQE in the QP context: each QP debian_scat_qpc makes says
# what cs_res / cs_req mlx5_ib would give it; the CREATE_QP the driver
# sent the HCA must carry exactly that (--trace's "rings qp" line). The
# library stack and MLX5_SCATTER_TO_CQE are the caller's.
# Usage: scat_qpc.sh SIM PROGRAM
SIM=$1
PROG=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
trace=$(mktemp)
out=$(mktemp)
trap 'rm -f "$trace" "$out"' EXIT

"$SIM" --trace "$trace" -- "$PROG" >"$out" || fail "debian_scat_qpc failed"
n=0
while read -r _ _ qpn _ res _ req name; do
	grep -q "rings qp $qpn .* cs_res $res cs_req $req\$" "$trace" ||
		fail "qp $qpn $name: want cs_res $res cs_req $req, the" \
			"HCA got: $(grep -o "rings qp $qpn .*" "$trace")"
	n=$((n + 1))
done <"$out"
[ "$n" -eq 9 ] || fail "$n QPs, want 9"
echo "PASS: $n QPs (MLX5_SCATTER_TO_CQE=${MLX5_SCATTER_TO_CQE-unset})"

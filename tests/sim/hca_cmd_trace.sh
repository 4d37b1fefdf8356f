#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The mlx5 driver programs the HCA with its firmware commands, and the
# HCA answers through its event queue: --trace shows each command with
# its status, each EQE with its type. sim_verbs makes, moves and destroys
# CQs, QPs, SRQs and an MW; its QPs that the HCA took to ERR are read
# back (EQE QP_STATE, then QUERY_QP).
SIM=$1
VERBS=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
trace=$(mktemp)
trap 'rm -f "$trace"' EXIT

"$SIM" --trace "$trace" -- "$VERBS" >/dev/null || fail "sim_verbs failed"
for cmd in CREATE_EQ CREATE_CQ DESTROY_CQ CREATE_QP DESTROY_QP RST2INIT_QP \
	INIT2INIT_QP INIT2RTR_QP RTR2RTS_QP RTS2RTS_QP SQD_RTS_QP 2ERR_QP \
	2RST_QP QUERY_QP CREATE_SRQ ARM_RQ DESTROY_SRQ CREATE_MKEY \
	DESTROY_MKEY; do
	grep -q "hca cmd $cmd -> OK syndrome 0\$" "$trace" ||
		fail "no $cmd -> OK in the trace"
done
grep -q 'hca cmd .* -> [A-Z_]*ERR' "$trace" &&
	fail "a command failed: $(grep -m1 'hca cmd .* -> [A-Z_]*ERR' "$trace")"
# one event queue per process that made objects
[ "$(grep -c 'hca cmd CREATE_EQ' "$trace")" -le \
	"$(grep -o '^\[[0-9]*\]' "$trace" | sort -u | wc -l)" ] ||
	fail "more event queues than processes"
# a state the HCA chose is read back at once
grep -A1 'hca eqe type 0xf0 ' "$trace" | grep -q 'hca cmd QUERY_QP -> OK' ||
	fail "no QUERY_QP after a QP_STATE EQE"
# every SRQ and memory key made is destroyed again
for kind in SRQ MKEY; do
	made=$(grep -c "hca cmd CREATE_$kind -> OK" "$trace")
	gone=$(grep -c "hca cmd DESTROY_$kind -> OK" "$trace")
	[ "$made" -gt 0 ] && [ "$made" = "$gone" ] ||
		fail "$kind: $made made, $gone destroyed"
done
echo "hca_cmd_trace: $(grep -c 'hca cmd' "$trace") commands, $(grep -c 'hca eqe' "$trace") EQEs"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# A fork child's HCA starts with empty command tables (the engine's fork
# handler): when the child destroys its copies of the parent's CQ, SRQ,
# QP and MR (sim_verbs --fork-destroy), its HCA finds none of them
# (BAD_RES_ERR) and frees nothing of the parent's; the parent's own
# destroys afterwards find every one (OK).
SIM=$1
VERBS=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
trace=$(mktemp)
trap 'rm -f "$trace"' EXIT

"$SIM" --trace "$trace" -- "$VERBS" --fork-destroy ||
	fail "sim_verbs --fork-destroy failed"
parent=$(grep -m1 'hca cmd CREATE_CQ -> OK' "$trace" | sed 's/^\[\([0-9]*\)\].*/\1/')
[ -n "$parent" ] || fail "no CREATE_CQ in the trace"
for kind in QP SRQ MKEY CQ; do
	n=$(grep -v "^\[$parent\]" "$trace" | grep -c "hca cmd DESTROY_$kind ")
	bad=$(grep -v "^\[$parent\]" "$trace" |
		grep -c "hca cmd DESTROY_$kind -> BAD_RES_ERR")
	[ "$n" -ge 1 ] && [ "$n" = "$bad" ] ||
		fail "the child's DESTROY_$kind: $bad of $n found nothing"
	grep -q "^\[$parent\] hca cmd DESTROY_$kind -> OK" "$trace" ||
		fail "the parent's DESTROY_$kind did not find its $kind"
done
echo "fork_tables: the child's HCA had none of the parent's objects"

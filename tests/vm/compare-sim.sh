#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Compare a real kernel's conformance table with the one rdma-sim produces.
#
# usage: compare-sim.sh KERNEL_TABLE RDMA_SIM KNOWN_DIFFS PROGRAM [ARG...]
# Every row of scope "all" must have the same answer (got column) under
# `rdma-sim --driver rxe -- PROGRAM ARG...`; rows of scope "kver" differ by
# kernel version by design and are skipped; rows of scope "kmod" differ by
# version too and are compared with `rdma-sim --kernel MAJOR.MINOR` of the
# kernel named by LANE_KVER (its uname -r; without it, the sim's default).
# KNOWN_DIFFS (may be empty) lists check names whose disagreement is known
# and routed (reported as KNOWN; one that agrees again is reported as
# FIXED, to be dropped from the list); every other row must agree.
# env LANE_SIM_ADDR: the sim's address for device 0 (default none: the
# conformance table runs before the lane gives dummy0 an address).
set -uo pipefail

kernel_table=$1
sim=$2
known=$3
program=$4
shift 4
out=${kernel_table%.txt}-sim.txt
kernel_opt=()
case ${LANE_KVER:-} in
6.1.* | 6.1) kernel_opt=(--kernel 6.1) ;;
6.12.* | 6.12) kernel_opt=(--kernel 6.12) ;;
esac

# The lane's rxe0 sits on a dummy0 without addresses while the table is
# made: the sim's eth0 has none either (only the default GID).
addr=${LANE_SIM_ADDR:-none}
"$sim" --driver rxe "${kernel_opt[@]}" --addr "0=$addr" -- "$program" \
	"$@" > "$out" 2>&1
sim_rc=$?
# A crash (signal) loses the rest of the table; say where it stopped.
if [ "$sim_rc" -ge 128 ]; then
	echo "[compare-sim] $program died with status $sim_rc under rdma-sim" \
		"after row: $(grep -E '^(all|kver) ' "$out" | tail -n1 |
			awk '{ print $2 }')"
fi

known_list=
[ -n "$known" ] && [ -f "$known" ] && known_list=$(grep -v '^#' "$known")
awk -v known="$known_list" '
	BEGIN {
		n = split(known, k, /[ \t\n]+/)
		for (i = 1; i <= n; i++) {
			if (k[i] ~ /\*$/)
				prefix[substr(k[i], 1, length(k[i]) - 1)] = 0
			else if (k[i] != "")
				allow[k[i]] = 1
		}
	}
	# A known row: listed by name, or under a listed "prefix*" (which
	# counts its disagreeing rows, to say FIXED when none is left).
	function known_row(r, differs,    p) {
		if (r in allow)
			return 1
		for (p in prefix)
			if (index(r, p) == 1) {
				prefix[p] += differs
				seen[p] = 1
				return 1
			}
		return 0
	}
	function compared(scope) { return scope == "all" || scope == "kmod" }
	FNR == NR { if (compared($1)) { want[$2] = $4; order[++rows] = $2 }; next }
	compared($1) { have[$2] = $4 }
	END {
		bad = 0
		missing = 0
		for (i = 1; i <= rows; i++) {
			r = order[i]
			if (!(r in have)) {
				missing++
				continue
			}
			got = have[r]
			if (got == want[r]) {
				known_row(r, 0)
				if (r in allow)
					printf "FIXED  %-46s kernel %-16s sim %s (remove it from the known list)\n", r, want[r], got
				continue
			}
			kn = known_row(r, 1)
			printf "%-6s %-46s kernel %-16s sim %s\n", kn ? "KNOWN" : "DIFFER", r, want[r], got
			if (!kn)
				bad++
		}
		for (p in prefix)
			if (p in seen && prefix[p] == 0)
				printf "FIXED  %s* (every row agrees: remove it from the known list)\n", p
		if (missing)
			printf "MISSING %d row(s) absent from the sim table\n", missing
		exit bad != 0 || missing != 0
	}' "$kernel_table" "$out"
rc=$?
echo "[compare-sim] reproduce: $sim --driver rxe ${kernel_opt[*]}" \
	"--addr 0=$addr -- $program $*"
exit $rc

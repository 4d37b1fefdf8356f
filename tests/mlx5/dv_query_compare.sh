#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# mlx5dv_query_device on this stack and on Debian's libmlx5 44, both under
# rdma-sim: every line rdma-core 44 can print must be the same; the
# rdma-core 65 lines ("v65 ...") exist only here and are checked apart.
# Usage: dv_query_compare.sh RDMA_SIM OURS_PROGRAM DEBIAN_PROGRAM [SIM_OPT...]
SIM=$1
OURS=$2
DEB=$3
shift 3
fail() { echo "FAIL: $*" >&2; exit 1; }

ours=$("$SIM" "$@" -- "$OURS") || fail "ours exited $?"
deb=$("$SIM" "$@" -- "$DEB") || fail "Debian's exited $?"
common=$(echo "$ours" | grep -v '^v65 ')
[ "$common" = "$deb" ] || {
	echo "--- Debian libmlx5 44 / +++ ours" >&2
	printf '%s\n' "$deb" >/tmp/dvq.$$.deb
	printf '%s\n' "$common" >/tmp/dvq.$$.ours
	diff -u /tmp/dvq.$$.deb /tmp/dvq.$$.ours >&2
	rm -f /tmp/dvq.$$.deb /tmp/dvq.$$.ours
	fail "outputs differ"
}
# The comparison means something only if the sim's caps got through.
for want in 'flags 0x79' 'cqe_comp_caps 64 0x7' 'striding_rq_caps 6 13 3 16' \
	'tunnel_offloads_caps 0x1f' 'tso_caps 262144 0x100' \
	'hca_core_clock page_offset 0x0 readable' 'comp_mask 0x3dff' \
	'max_clock_info_update_nsec 4294' \
	'clock_info ret 0 nsec recent 1 cycles set 1 frac 0 mult 3435973837 shift 29' \
	'ask 0x0 -> comp_mask 0x0 untouched 1'; do
	echo "$deb" | grep -qx "$want.*" || fail "Debian's output lacks '$want'"
done
# rdma-core 65: the members 44 lacks are not claimed (no DEVX to learn
# them) but OOO_RECV_WRS (0x10000, the kernel's OOO_DP flag: half the
# largest RQ for every type), and asking for everything changes nothing
# of the rest.
asks=$(echo "$ours" | grep '^v65 ask')
[ "$asks" = 'v65 ask 0x10000 -> comp_mask 0x10000' ] ||
	fail "v65-only bits claimed: $asks"
echo "$ours" | grep -qx 'v65 ooo_recv_wrs_caps 16384 16384 16384 16384 16384' ||
	fail "ooo_recv_wrs_caps"
v65=$(echo "$ours" | sed -n 's/^v65 //p' | grep -v '^max_dc\|^reg_c0\|^ooo\|^ask' |
	sed 's/^comp_mask 0x1\(....\)$/comp_mask 0x\1/')
first=$(echo "$deb" | sed -n '1,/^crypto_caps/p')
[ "$v65" = "$first" ] || fail "asking for every bit changed the answer"
echo "$ours" | grep -qx 'v65 max_dc_rd_atom 0 0' || fail "max_dc_rd_atom"
echo "dv_query_compare: $(echo "$deb" | wc -l) lines identical"

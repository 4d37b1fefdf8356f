#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Statements the man pages must (or must not) make, each one a promise the
# library keeps or a promise it once made and could not keep.
#
# usage: check-contracts.sh MAN_SOURCE_DIR
cd "$1" || exit 1
bad=0

# section FILE NAME: the lines of section "# NAME" of FILE.
section() {
	awk -v s="# $2" '$0 == s { on = 1; next } /^# / { on = 0 } on' "$1"
}

# rule FILE SECTION must|must-not EXTENDED-REGEX WHY
rule() {
	if section "$1" "$2" | tr '\n' ' ' | grep -Eq "$4"; then
		found=yes
	else
		found=no
	fi
	case "$3:$found" in
	must:no | must-not:yes)
		echo "FAIL: $1 ($2) $3 match /$4/: $5"
		bad=1
		;;
	esac
}

rule ibv_dm_export_dmabuf_fd.3.md ERRORS must-not 'concurrent' \
	'a DM freed while in use is a use-after-free, not an EINVAL'
rule ibv_dm_export_dmabuf_fd.3.md LIFETIME must 'undefined' \
	'using a DM during or after its free is undefined behaviour'
rule ibv_alloc_dm.3.md ARGUMENTS must 'refused, the \*\*IBV_ACCESS_OPTIONAL_RANGE' \
	'the OPTIONAL_RANGE bits are refused for DM MRs'
rule ibv_reg_dmabuf_mr.3.md ERRORS must 'ENODEV' \
	'a revoked dma-buf (exporter freed it) gives ENODEV'
rule mlx5dv_init_obj.3.md DESCRIPTION must 'MLX5DV_OBJ_PD :' \
	'the PD (pdn) is answered'
rule mlx5dv_init_obj.3.md DESCRIPTION must 'MLX5DV_OBJ_RWQ.*EOPNOTSUPP' \
	'raw WQs are not answered: EOPNOTSUPP'
[ $bad = 0 ] && echo "man page contracts: ok"
exit $bad

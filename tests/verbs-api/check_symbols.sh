#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Symbol versions of our libibverbs.so.1:
#  - every public symbol rdma-core 44's libibverbs exports (default
#    version) exists in ours with the same default version node;
#  - the symbols newer than 44 sit at upstream's nodes;
#  - the private node is IBVERBS_PRIVATE_<PABI> and carries the
#    provider entry points;
#  - nothing is exported without a version (local: * holds), apart from
#    the one v44-private symbol Debian's own tools bind by version, and
#    each public node inherits the one before it; rdma-core 44's
#    provider-interface names exist only as non-default PRIVATE_34 compat,
#    rdma-core 65's as PRIVATE_65 compat (check_symbols_65.sh has the
#    list);
#  - rdma-core 44's non-default compat symbols (the IBVERBS_1.0 verbs,
#    ibv_register_driver@IBVERBS_1.1) are non-default here too.
# usage: check_symbols.sh OUR_LIB PABI [DEBIAN_LIB]
set -u
lib="$1"
pabi="$2"
deb="${3:-}"
fail=0

ours=$(nm -D --defined-only --with-symbol-versions "$lib" |
	awk '$2 ~ /^[TDBRVWi]$/ {print $3}')
if [ -z "$ours" ]; then
	echo "FAIL: no dynamic symbols in $lib"
	exit 1
fi

has() {
	printf '%s\n' "$ours" | grep -qx "$1"
}

need() {
	if ! has "$1"; then
		echo "FAIL: $1 missing"
		fail=1
	fi
}

for sym in ibv_dm_export_dmabuf_fd@@IBVERBS_1.16 \
	ibv_query_port_speed@@IBVERBS_1.16 \
	ibv_reg_mr_ex@@IBVERBS_1.15 ibv_alloc_dmah@@IBVERBS_1.15 \
	ibv_dealloc_dmah@@IBVERBS_1.15 \
	ibv_query_qp_data_in_order@@IBVERBS_1.14 \
	ibv_import_dm@@IBVERBS_1.13 ibv_unimport_dm@@IBVERBS_1.13 \
	ibv_is_fork_initialized@@IBVERBS_1.13 \
	ibv_reg_dmabuf_mr@@IBVERBS_1.12 ibv_reg_mr_iova2@@IBVERBS_1.8 \
	ibv_qp_to_qp_ex@@IBVERBS_1.6 ibv_query_device@@IBVERBS_1.1 \
	ibv_rate_to_mult@@IBVERBS_1.0 \
	"verbs_set_ops@@IBVERBS_PRIVATE_$pabi" \
	"_verbs_init_and_alloc_context@@IBVERBS_PRIVATE_$pabi" \
	"verbs_register_driver_$pabi@@IBVERBS_PRIVATE_$pabi" \
	"ibv_cmd_export_dmabuf_fd@@IBVERBS_PRIVATE_$pabi"; do
	need "$sym"
done

# Everything exported has a version, and only ours.
printf '%s\n' "$ours" | while read -r sym; do
	case "$sym" in
	*@@IBVERBS_1.* | *@IBVERBS_1.* | *@@IBVERBS_PRIVATE_"$pabi") ;;
	IBVERBS_1.* | IBVERBS_PRIVATE_*) ;;
	# rdma-core's ibv_devinfo and pyverbs bind this by version.
	ibv_query_gid_type@@IBVERBS_PRIVATE_65) ;;
	# rdma-core 44's and 65's provider libraries bind these at load;
	# refusals (compat_providers_v*.c), never the default version.
	*@IBVERBS_PRIVATE_34 | *@IBVERBS_PRIVATE_65) ;;
	*) echo "FAIL: $sym exported outside the version nodes" ;;
	esac
done | grep . && fail=1

# Node chain: 1.0 <- 1.1 <- 1.5 <- ... <- 1.16, as upstream.
defs=$(objdump -p "$lib" | sed -n '/Version definitions/,/Version References/p')
prev=IBVERBS_1.0
for node in 1.1 1.5 1.6 1.7 1.8 1.9 1.10 1.11 1.12 1.13 1.14 1.15 1.16; do
	parent=$(printf '%s\n' "$defs" |
		awk -v n="IBVERBS_$node" '$4 == n {getline; print $1}')
	if [ "$parent" != "$prev" ]; then
		echo "FAIL: IBVERBS_$node inherits '$parent', want $prev"
		fail=1
	fi
	prev="IBVERBS_$node"
done

# counted MIN WHAT: at least MIN symbols of $deb were checked.
counted() {
	if [ "$count" -lt "$1" ]; then
		echo "FAIL: only $count $2 symbols read from $deb"
		fail=1
	fi
	echo "$count $2 symbols of $deb checked"
}

# Every public symbol of rdma-core 44 at its node, default or not as there.
if [ -n "$deb" ] && [ -r "$deb" ]; then
	count=0
	for entry in $(objdump -T "$deb" |
		awk 'NF >= 6 && $NF !~ /^\(/ && $(NF-1) ~ /^IBVERBS_1\./ &&
		     $NF != $(NF-1) {print $NF "@@" $(NF-1)}'); do
		need "$entry"
		count=$((count + 1))
	done
	counted 70 public
	count=0
	for entry in $(objdump -T "$deb" |
		awk 'NF >= 6 && $(NF-1) ~ /^\(IBVERBS_1\./ {
		     v = $(NF-1); gsub(/[()]/, "", v); print $NF "@" v}'); do
		need "$entry"
		has "$(echo "$entry" | sed 's/@/@@/')" &&
			echo "FAIL: $entry is a default version here" && fail=1
		count=$((count + 1))
	done
	counted 34 "non-default compat"
fi
exit $fail

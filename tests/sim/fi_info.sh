#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# libfabric 1.17's fi_info -p verbs -v (libfabric-bin) under rdma-sim,
# unmodified: the entries the verbs provider makes of each simulated
# device, with its address formats, link and PCI identity. LINK: eth (a
# RoCE port with its IPv4 and IPv6 addresses), ib (an InfiniBand port:
# AF_IB addresses) or rxe (soft-RoCE). LIBDIR, when given, puts our
# libibverbs under Debian's libfabric (LD_LIBRARY_PATH).
# Usage: fi_info.sh SIM LINK DEVICES [LIBDIR]
SIM=$1
LINK=$2
NDEV=$3
LIBDIR=$4
case $LINK in
eth) opts="--link-layer eth" ;;
ib) opts="--link-layer ib" ;;
rxe) opts="--driver rxe" ;;
*)
	echo "unknown link $LINK"
	exit 2 ;;
esac
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
[ -n "$LIBDIR" ] && export LD_LIBRARY_PATH="$LIBDIR"
fail() { echo "FAIL: $*"; exit 1; }

# shellcheck disable=SC2086 # opts is a list of options
timeout 120 "$SIM" $opts --devices "$NDEV" -- fi_info -p verbs -v \
	>"$w/out" 2>&1
rc=$?
cat "$w/out"
[ "$rc" = 124 ] && fail "fi_info still running after 120 s"
[ "$rc" = 0 ] || fail "fi_info exit $rc"
# one line per entry, each field as " key=value " (a nested key, like
# the domain's, fabric's and NIC's name, once per level)
awk '/^---/ { if (r != "") print r " "; r = ""; next }
	{ k = $1; sub(/:$/, "", k); $1 = ""; sub(/^ /, ""); r = r " " k "=" $0 }
	END { if (r != "") print r " " }' "$w/out" >"$w/entries"

# has WHAT FIELD...: some entry carries every FIELD
has() {
	what=$1
	shift
	cp "$w/entries" "$w/m"
	for f; do
		grep -F -- " $f " "$w/m" >"$w/n"
		mv "$w/n" "$w/m"
	done
	[ -s "$w/m" ] || fail "no $what entry with: $*"
}

d=0
while [ $d -lt "$NDEV" ]; do
	case $LINK in
	rxe) dev=rxe$d id="vendor_id=0xffffff" ;;
	*) dev=mlx5_$d id="vendor_id=0x02c9" ;;
	esac
	case $LINK in
	ib)
		# no IP on the port: the RDMA CM's AF_IB address (GID, P_Key)
		nt=network_type=InfiniBand mtu=mtu=4096
		has "MSG" name=$dev type=FI_EP_MSG addr_format=FI_SOCKADDR_IB \
			protocol=FI_PROTO_RDMA_CM_IB_RC "$nt" "$mtu"
		has "RDM" name=$dev prov_name=verbs\;ofi_rxm \
			addr_format=FI_SOCKADDR_IB protocol=FI_PROTO_RXM \
			"$nt" "$mtu" ;;
	*)
		# the port's address as the RDMA CM's (IPv4 and IPv6)
		nt=network_type=Ethernet mtu=mtu=1024
		ip=192.168.1.$((d + 1))
		has "MSG" name=$dev type=FI_EP_MSG addr_format=FI_SOCKADDR_IN \
			src_addr=fi_sockaddr_in://$ip:0 \
			protocol=FI_PROTO_RDMA_CM_IB_RC "$nt" "$mtu"
		has "MSG IPv6" name=$dev addr_format=FI_SOCKADDR_IN6 \
			"src_addr=fi_sockaddr_in6://[fd00::$((d + 1))]:0"
		has "RDM" name=$dev prov_name=verbs\;ofi_rxm \
			src_addr=fi_sockaddr_in://$ip:0 protocol=FI_PROTO_RXM \
			"$nt" "$mtu" ;;
	esac
	# UD: the IB UD address (GID, QPN, LID, Q_Key) in a -dgram domain
	has "DGRAM" name=$dev-dgram type=FI_EP_DGRAM addr_format=FI_ADDR_IB_UD \
		protocol=FI_PROTO_IB_UD "$id" state=FI_LINK_UP "$nt" "$mtu"
	has "RXD" name=$dev-dgram prov_name=verbs\;ofi_rxd protocol=FI_PROTO_RXD
	d=$((d + 1))
done
# no device the world does not have
n=$(grep -c ' name=[a-z0-9_]*-dgram ' "$w/entries")
[ "$n" = $((NDEV * 2)) ] || fail "$n UD entries for $NDEV device(s)"
echo PASS

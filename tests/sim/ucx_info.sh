#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Debian's UCX finds the simulated HCAs' PCI functions: `ucx_info -d`
# lists the ConnectX transports (rc_mlx5, ud_mlx5, and dc_mlx5 now that
# the sim has DC) next to the verbs ones for every device, each placed on its own system device (the PCI
# function UCX found through /sys/class/infiniband/<dev>).
# Usage: ucx_info.sh SIM NDEV
SIM=$1
NDEV=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$SIM" --devices "$NDEV" -- ucx_info -d >"$out" 2>&1 ||
	fail "ucx_info -d: $(tail -3 "$out")"
# one "transport device sysdev" line per transport of an mlx5 device
got=$(awk '/#      Transport:/ { tl = $3 }
	/#         Device: mlx5_/ { dev = $3 }
	/#  System device:/ && dev != "" { print tl, dev, $4, $5; dev = "" }' \
	"$out" | sort)
want=$(i=0; while [ $i -lt "$NDEV" ]; do
	for tl in rc_verbs rc_mlx5 ud_verbs ud_mlx5 dc_mlx5; do
		echo "$tl mlx5_$i:1 mlx5_$i ($i)"
	done
	i=$((i + 1))
done | sort)
[ "$got" = "$want" ] || fail "ucx_info transports:
got:
$got
want:
$want"
echo "ucx_info: $(echo "$got" | wc -l) transports on $NDEV device(s)"

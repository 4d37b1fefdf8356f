#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# perftest's RC (and UD send, XRC, ODP) benchmarks as server + client under
# one rdma-sim, on mlx5_0, or server on mlx5_0 and client on mlx5_1.
#
# usage: run-perftest.sh RDMA_SIM NDEV BINDIR [LIBPATH]
#   BINDIR   holds ib_write_bw & co.
#   LIBPATH  prepended to LD_LIBRARY_PATH of both sides (e.g. to run
#            Debian's prebuilt perftest on rdma-dm's libraries)
# Prints one line per run with the result perftest reports; exit 1 if a
# run failed, 77 if BINDIR has no perftest.
set -u
sim=$1
ndev=$2
bindir=$3
libpath=${4:-}
iters=${PERFTEST_ITERS:-2000}
port=$((18515 + RANDOM % 1000))
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

[ -x "$bindir/ib_write_bw" ] || { echo "no perftest in $bindir"; exit 77; }
client_dev=mlx5_$((ndev - 1))

# name: program and its options
runs=(
	"write_bw:ib_write_bw"
	"read_bw:ib_read_bw"
	"send_bw:ib_send_bw"
	"atomic_bw:ib_atomic_bw"
	"write_lat:ib_write_lat"
	"read_lat:ib_read_lat"
	"send_lat:ib_send_lat"
	"send_bw_ud:ib_send_bw -c UD"
	"send_lat_ud:ib_send_lat -c UD"
	"send_bw_xrc:ib_send_bw -c XRC"
	"write_bw_xrc:ib_write_bw -c XRC"
	"send_bw_odp:ib_send_bw --odp"
	"write_bw_odp:ib_write_bw --odp"
	"read_bw_odp:ib_read_bw --odp"
)

status=0
for r in "${runs[@]}"; do
	name=${r%%:*}
	cmd=${r#*:}
	port=$((port + 1))
	opts="-n $iters -p $port -F"
	case $name in *lat*) opts="$opts -s 64" ;; esac
	case $name in *_ud) opts="-n $iters -p $port -F -s 1024" ;; esac
	env ${libpath:+LD_LIBRARY_PATH=$libpath} timeout 300 "$sim" \
		--devices "$ndev" -- bash -c "
		$bindir/$cmd -d mlx5_0 $opts > $work/$name.server 2>&1 &
		spid=\$!
		sleep 0.5
		$bindir/$cmd -d $client_dev $opts 127.0.0.1 > $work/$name.client 2>&1
		crc=\$?
		wait \$spid
		src=\$?
		exit \$((crc | src))"
	rc=$?
	# The result line: the numbers under perftest's header.
	res=$(awk '/^ *[0-9]+ +[0-9]+/ { line = $0 } END { print line }' \
		"$work/$name.client" | tr -s ' ')
	if [ $rc -eq 0 ] && [ -n "$res" ]; then
		echo "ok   $name ($ndev device(s)):$res"
	else
		echo "FAIL $name ($ndev device(s)) rc $rc"
		sed 's/^/  client: /' "$work/$name.client" | tail -15
		sed 's/^/  server: /' "$work/$name.server" | tail -15
		status=1
	fi
done
exit $status

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Run perftest on rdma-dm under rdma-sim (run-perftest.sh): the programs
# built from Debian's source (build-perftest.sh) when they are there,
# otherwise Debian's prebuilt perftest 4.5 with rdma-dm's libraries first
# on LD_LIBRARY_PATH (Debian's libefa it links binds to our
# IBVERBS_PRIVATE_34 compat names). Says which it ran.
#
# usage: perftest-on-rdma-dm.sh RDMA_SIM NDEV CACHE_DIR LIB_DIR
set -u
here=$(dirname "$(realpath "$0")")
sim=$1 ndev=$2 cache=$3 lib=$4

if [ -x "$cache/bin/ib_write_bw" ]; then
	echo "perftest built from Debian's source against rdma-dm"
	exec "$here/run-perftest.sh" "$sim" "$ndev" "$cache/bin"
fi
if [ -x /usr/bin/ib_write_bw ]; then
	echo "Debian's prebuilt perftest on rdma-dm's libraries"
	echo "(the source package is not reachable from this machine)"
	exec "$here/run-perftest.sh" "$sim" "$ndev" /usr/bin "$lib"
fi
echo "no perftest: neither $cache/bin nor Debian's perftest package"
exit 77

# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Sourced by the bench/sim scripts: pair SIM PORT PROGRAM ARGS... runs a
# perftest-style server and its client (to localhost) under one rdma-sim
# (SIM), the client's output in $w/c, the server's in $w/s ($w: the
# caller's scratch directory).
pair() {
	sim=$1
	port=$2
	shift 2
	# shellcheck disable=SC2154 # w is the caller's
	cat >"$w/run" <<EOF
#!/bin/sh
$* -p $port >"$w/s" 2>&1 &
sleep 1
$* -p $port localhost >"$w/c" 2>&1
wait
EOF
	chmod +x "$w/run"
	env -u LD_LIBRARY_PATH "$sim" -- "$w/run"
}

load() { awk '{print $1, $2, $3}' /proc/loadavg; }

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Usage: bench/sim/syscall_trap.sh [BUILD_DIR] [N]  (default build/, 200000)
# The system-call boundary's cost in one run: the same calls under
# rdma-sim with its seccomp filter and with --no-seccomp (no filter), and
# the machine's load, so the numbers can be read as quiet or loaded.
set -e
B=${1:-build}
N=${2:-200000}
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
echo "== with the filter (rdma-sim)"
"$B/bin/rdma-sim" -- "$B/bin/sim_bench" "$N" --trap
echo "== without it (rdma-sim --no-seccomp)"
"$B/bin/rdma-sim" --no-seccomp -- "$B/bin/sim_bench" "$N" --trap-off

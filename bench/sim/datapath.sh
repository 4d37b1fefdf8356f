#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Usage: bench/sim/datapath.sh [BUILD_DIR]   (run it under nice)
# The simulated HCA against baselines measured in the same run (targets
# of issue 17):
#  - ib_write_bw 64 KiB BW average vs one thread's memcpy of 64 KiB
#    between two fixed buffers (target >= 50 %);
#  - ib_send_lat 2 B median (t_typical, one way) vs a two-process pipe
#    ping-pong median (a round trip; target <= 5 us and <= 1/2 of it);
#  - UCX ud_mlx5 and rc_mlx5 am_lat median (target <= 20 us);
#  - idle cost: CPU of a process holding a QP with nothing posted
#    (target < 1 %);
#  - instructions per posted WQE in the requester (callgrind).
# Debian's perftest and ibverbs-utils, server and client under one sim.
# The machine's load average is printed before and after: on the shared
# 2-core VM, say whether the figures were taken loaded or quiet.
set -e
B=${1:-build}
SIM="$B/bin/rdma-sim"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

# shellcheck source=bench/sim/pair.sh
. "$(dirname "$0")/pair.sh"
echo "load average before: $(load) ($(nproc) CPUs)"
mc=$("$B/bin/dp_baseline" memcpy 65536 2 | awk '{print $3}')
big=$("$B/bin/dp_baseline" memcpy 67108864 2 | awk '{print $3}')
pair "$SIM" 18601 ib_write_bw -d mlx5_0 -s 65536 -n 20000
bw=$(awk '$1 == 65536 {print $4}' "$w/c")
echo "ib_write_bw 64 KiB: $bw MB/s; memcpy 64 KiB (cache-hot): $mc MB/s," \
	"ratio $(echo "$bw $mc" | awk '{printf "%.1f %%", 100 * $1 / $2}')" \
	"(target >= 50 %);" \
	"memcpy 64 MiB: $big MB/s," \
	"ratio $(echo "$bw $big" | awk '{printf "%.1f %%", 100 * $1 / $2}')"

pp=$("$B/bin/dp_baseline" pipe 20000 | awk '{print $4}')
pair "$SIM" 18602 ib_send_lat -d mlx5_0 -s 2 -n 20000
lat=$(awk '$1 == 2 {print $5}' "$w/c")
echo "ib_send_lat 2 B median: $lat us; pipe ping-pong median: $pp us;" \
	"ratio $(echo "$lat $pp" | awk '{printf "%.2fx", $1 / $2}')" \
	"(targets: <= 5 us, <= 0.5x)"

# UCX's ConnectX transports (Debian's ucx_perftest, its defaults): am_lat
# median (the 50th percentile of the client's Final line)
if command -v ucx_perftest >/dev/null; then
	for tl in ud_mlx5 rc_mlx5; do
		port=$((18610 + ${#tl}))
		cat >"$w/ucx" <<EOF
#!/bin/sh
ucx_perftest -p $port -d mlx5_0:1 -x $tl >/dev/null 2>&1 &
i=0
while [ \$i -lt 100 ] && ! ss -ltn 2>/dev/null | grep -q ":$port "; do
	sleep 0.05
	i=\$((i + 1))
done
ucx_perftest -p $port -d mlx5_0:1 -x $tl -t am_lat -n 2000 localhost \
	>"$w/u" 2>&1
wait
EOF
		chmod +x "$w/ucx"
		env -u LD_LIBRARY_PATH "$SIM" -- "$w/ucx" || true
		echo "UCX $tl am_lat median: $(awk '$1 == "Final:" {print $3}' \
			"$w/u") us (target <= 20 us)"
	done
fi

# idle: a pingpong server has its QP and waits in accept() for 5 s
cat >"$w/idle" <<EOF
#!/bin/sh
ibv_rc_pingpong -d mlx5_0 -p 18603 >/dev/null 2>&1 &
pid=\$!
sleep 1
a=\$(awk '{print \$14 + \$15}' /proc/\$pid/stat)
sleep 5
b=\$(awk '{print \$14 + \$15}' /proc/\$pid/stat)
kill \$pid
echo "\$a \$b \$(getconf CLK_TCK)" >"$w/idle.out"
EOF
chmod +x "$w/idle"
env -u LD_LIBRARY_PATH "$SIM" -- "$w/idle" || true
read -r a b hz <"$w/idle.out"
echo "idle process with a QP: $(echo "$a $b $hz" |
	awk '{printf "%.2f %% of a core", 100 * ($2 - $1) / $3 / 5}')" \
	"(target < 1 %)"

if command -v valgrind >/dev/null; then
	out="$w/cg"
	cat >"$w/cgrun" <<EOF
#!/bin/sh
ibv_rc_pingpong -d mlx5_0 -p 18604 -n 2000 >/dev/null 2>&1 &
sleep 1
valgrind --tool=callgrind -q --callgrind-out-file=$out \
	--toggle-collect=hca_sq_process \
	ibv_rc_pingpong -d mlx5_0 -p 18604 -n 2000 localhost >/dev/null 2>&1
wait
EOF
	chmod +x "$w/cgrun"
	env -u LD_LIBRARY_PATH "$SIM" -- "$w/cgrun"
	ir=$(callgrind_annotate "$out" 2>/dev/null |
		awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
	echo "requester (hca_sq_process): $ir instructions for 2000 WQEs," \
		"$(echo "$ir" | awk '{printf "%d", $1 / 2000}') per WQE" \
		"(empty passes included)"
fi
echo "load average after: $(load)"

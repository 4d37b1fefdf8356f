#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Usage: nice bench/sim/engine_lat.sh [BUILD_DIR] [REPS] [ITERS]
# How the simulated HCA serves traffic that no verb call of the target
# drives: perftest 4.5 (Debian's binaries) on rdma-dm's libraries and on
# Debian's rdma-core 44, server and client under one rdma-sim, one device.
# Per run (median of REPS, default 3; ITERS messages, default 2000):
#  - the perftest figure: lat rows t_avg and t_typical (us), bw rows Mpps;
#  - the engine's counters of both processes (RDMA_SIM_HCA_STATS), per
#    message: passes of the engine threads (not the application's), their
#    wake-ups by a sender; and the local ACK timeouts of the run (each one
#    a go-back-N stall of 4.096 us << 14 = 67 ms);
#  - CPU (user + system) of both processes per message, in us.
# Then the idle cost of a process holding a QP: CPU and wake-ups in 5 s.
# Counters are deterministic enough to compare builds on a loaded
# machine; the times are not (2 cores: run it when the machine is quiet).
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
reps=${2:-3}
iters=${3:-2000}
sim="$build/bin/rdma-sim"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
port=$((21000 + RANDOM % 2000))

# one run: NAME STACK PROGRAM OPTS -> "figure typical cpu passes woken tmo"
run() {
	local name=$1 stack=$2 prog=$3 opts=$4 lp=
	port=$((port + 1))
	[ "$stack" = rdma-dm ] && lp=$build/lib
	: >"$w/stats"
	env ${lp:+LD_LIBRARY_PATH=$lp} RDMA_SIM_HCA_STATS="$w/stats" \
		timeout 300 "$sim" -- bash -c "
		/usr/bin/time -f '%U %S' -o $w/st /usr/bin/$prog -d mlx5_0 \
			$opts -p $port > $w/s 2>&1 &
		sleep 0.5
		/usr/bin/time -f '%U %S' -o $w/ct /usr/bin/$prog -d mlx5_0 \
			$opts -p $port 127.0.0.1 > $w/c 2>&1
		wait" || { echo "FAILED"; return; }
	awk -v n="$iters" -v bw="${name##*_}" '
		FILENAME ~ /\/c$/ && /^ *[0-9]+ +[0-9]+/ {
			if (bw == "bw") { fig = $NF; typ = "-" }
			else { fig = $6; typ = $5 }
		}
		FILENAME ~ /t$/ { cpu += $1 + $2 }
		FILENAME ~ /stats$/ { # passes P (B with work, A in the ...
			thr += $3 - $7
			for (i = 1; i < NF; i++) {
				if ($i == "woken")
					wok += $(i + 1)
				if ($i == "ack-timeouts")
					tmo += $(i + 1)
			}
		}
		END {
			printf "%s %s %.1f %.1f %.2f %d\n", fig, typ,
				cpu * 1e6 / n, thr / n, wok / n, tmo
		}' "$w/c" "$w/st" "$w/ct" "$w/stats"
}

median() { # column of lines on stdin
	sort -g | awk '{ v[NR] = $0 } END { print NR ? v[int((NR + 1) / 2)] : "-" }'
}

echo "## rdma-sim engine: perftest on $(uname -r), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
echo
echo "median of $reps runs, $iters messages each; counters per message, both processes"
echo
echo "| run | stack | result | t_typical us | CPU us/msg | engine passes/msg | wake-ups/msg | ACK timeouts |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
runs=("write_lat:ib_write_lat:-F -s 64" "read_bw:ib_read_bw:-F"
      "atomic_bw:ib_atomic_bw:-F" "write_bw:ib_write_bw:-F"
      "send_bw:ib_send_bw:-F")
for r in "${runs[@]}"; do
	IFS=: read -r name prog opts <<<"$r"
	for stack in rdma-dm debian; do
		: >"$w/rows"
		for i in $(seq "$reps"); do
			run "$name" "$stack" "$prog" "$opts -n $iters" >>"$w/rows"
		done
		row="| $name | $stack"
		for col in 1 2 3 4 5 6; do
			row="$row | $(awk -v c=$col '{print $c}' "$w/rows" | median)"
		done
		echo "$row |"
	done
done

# idle: a pingpong server holds its QP and waits in accept() for 5 s
cat >"$w/idle" <<EOF
#!/bin/bash
ibv_rc_pingpong -d mlx5_0 -p $((port + 1)) >/dev/null 2>&1 &
pid=\$!
sleep 2
cs() { cat /proc/\$pid/task/*/status | awk '/^voluntary_ctxt/ {s += \$2} END {print s}'; }
a=\$(awk '{print \$14 + \$15}' /proc/\$pid/stat); ca=\$(cs)
sleep 5
b=\$(awk '{print \$14 + \$15}' /proc/\$pid/stat); cb=\$(cs)
kill \$pid
echo "idle process holding a QP, 5 s: \$((b - a)) ticks of 1/\$(getconf CLK_TCK) s CPU, \$((cb - ca)) wake-ups"
EOF
chmod +x "$w/idle"
echo
env -u LD_LIBRARY_PATH "$sim" -- "$w/idle"

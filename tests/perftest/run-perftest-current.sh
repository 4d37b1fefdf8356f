#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The current perftest's runs (RUNS, see current.runs) as a server and a
# client process under one rdma-sim: both on mlx5_0, or the client on
# mlx5_1. A run passes when both exit 0 and the client's result line has a
# bandwidth or message rate (or average latency) above 0. Runs listed in
# XFAIL for this flavour must fail; one that passes is an error (delete
# its line).
#
# usage: run-perftest-current.sh RDMA_SIM NDEV BINDIR FLAVOUR RUNS XFAIL [RE]
#   BINDIR   the programs (build/perftest-current/bin-FLAVOUR)
#   FLAVOUR  rdma-dm or debian, the column of XFAIL that applies
#   RE       only the runs whose name matches this regular expression
# PERFTEST_ITERS (default 100) is each run's -n; PERFTEST_LIBPATH, when set,
# goes first on both sides' LD_LIBRARY_PATH (Debian's prebuilt perftest on
# our libraries, for bench/mlx5/perftest_current.sh).
# Prints one line per run; exit 1 if a run failed (or passed unexpectedly),
# 77 if BINDIR has no perftest.
set -u
sim=$1 ndev=$2 bindir=$3 flavour=$4 runs=$5 xfail=$6 only=${7:-}
iters=${PERFTEST_ITERS:-100}
port=$((20000 + RANDOM % 2000))
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

[ -x "$bindir/ib_write_bw" ] || { echo "no perftest in $bindir"; exit 77; }

# The reason RUN is expected to fail for this flavour, or nothing.
xfail_reason() {
	awk -v f="$flavour" -v n="$1" -v d="$ndev" '
		/^#/ || NF < 3 { next }
		($1 == f || $1 == "*" || $1 == f "/" d || $1 == "*/" d) &&
		$2 == n {
			$1 = $2 = ""; sub(/^ +/, ""); print; exit }' "$xfail"
}

# The last result line when its average bandwidth or message rate
# (columns 4, 5: 8-byte atomics round to 0.00 MiB/s under load) or its
# t_avg (column 6) is above 0.
result() {
	awk -v lat="$2" '/^ *[0-9]+ +[0-9]+ +[0-9.]+/ {
			v = lat ? $6 + 0 : $4 + $5; line = $0 }
		END { if (v > 0) { gsub(/[ \t]+/, " ", line); print line } }' "$1"
}

status=0
while read -r name link prog opts; do
	case $name in '' | '#'*) continue ;; esac
	[ -n "$only" ] && ! [[ $name =~ $only ]] && continue
	port=$((port + 1))
	server=127.0.0.1 simopts=()
	if [ "$link" = eth ]; then
		server=192.168.1.1 simopts=(--link-layer eth)
	fi
	side() { # DEV: one side's command line
		local o=${opts//@DEV@/$1}
		echo "$bindir/$prog -d $1 -p $port -F -n $iters ${o//@SERVER@/$server}"
	}
	lat=0
	case $prog in *_lat) lat=1 ;; esac
	# A run that exits 0 with every rate of its result line 0.00 is run
	# once more, saying so: seen once in the sanitized build under load
	# (atomic_bw, 100 of 100 iterations, 0 s), where the cause is not
	# established (perftest derives its rates from its own CPU clock
	# estimate); a second such run fails.
	for attempt in 1 2; do
		start=$SECONDS
		# Each side in its own process; the client starts once the server
		# listens on its TCP port (perftest's stdout is a file, so its
		# banner comes late); over RDMA CM after a second.
		ready="ss -ltnH 'sport = :$port' | grep -q ."
		case " $opts " in *" -R "* | *" -z "*) ready="sleep 1" ;; esac
		env ${PERFTEST_LIBPATH:+LD_LIBRARY_PATH=$PERFTEST_LIBPATH} \
			timeout 180 "$sim" --devices "$ndev" --dm-size 262144 \
			"${simopts[@]}" -- bash -c "
			$(side mlx5_0) > $work/$name.server 2>&1 &
			spid=\$!
			for i in \$(seq 300); do
				$ready && break
				kill -0 \$spid 2> /dev/null || break
				sleep 0.1
			done
			$(side mlx5_$((ndev - 1))) $server > $work/$name.client 2>&1
			crc=\$?
			wait \$spid
			exit \$((crc | \$?))" < /dev/null
		rc=$?
		res=$(result "$work/$name.client" $lat)
		if [ $rc -ne 0 ] || [ -n "$res" ] || [ $attempt = 2 ] ||
			! grep -Eq '^ *[0-9]+ +[0-9]+ +[0-9.]+' \
				"$work/$name.client"; then
			break
		fi
		echo "WORKAROUND: $name exited 0 with all rates 0.00: run again"
		port=$((port + 1))
	done
	# out-of-order receives (MLX5DV_QP_CREATE_OOO_DP), when it says
	reorder=$(sed -n 's/.*Using Enhanced Reorder *: *\([A-Z]*\).*/\1/p' \
		"$work/$name.client" | head -1)
	[ -n "$reorder" ] && [ -n "$res" ] && res=" reorder $reorder:$res"
	secs=$((SECONDS - start))
	why=$(xfail_reason "$name")
	if [ $rc -eq 0 ] && [ -n "$res" ]; then
		if [ -n "$why" ]; then
			echo "XPASS $name ($flavour, $ndev dev, ${secs}s):$res"
			echo "  listed in $xfail ($why): delete its line"
			status=1
		else
			echo "ok    $name ($flavour, $ndev dev, ${secs}s):$res"
		fi
		continue
	fi
	if [ -n "$why" ]; then
		echo "xfail $name ($flavour, $ndev dev): $why"
		continue
	fi
	echo "FAIL  $name ($flavour, $ndev dev) rc $rc, ${secs}s"
	sed 's/^/  client: /' "$work/$name.client" | tail -15
	sed 's/^/  server: /' "$work/$name.server" | tail -15
	status=1
done < "$runs"
exit $status

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The RDMA CM in the lane VM, once dummy0 holds $LANE_ADDR: the
# rdma-cm-conformance table (between LANE-CM-TABLE markers, compared with
# rdma-sim's on the host), then Debian's unmodified rdmacm-utils as judges,
# server and client over rxe0: on Debian's librdmacm + libibverbs (the
# reference) and on Debian's librdmacm over our libibverbs + rxe provider
# (LD_LIBRARY_PATH, as a user installs ours). Sourced by traffic.sh: uses
# step_end, $ours and $out; prints "LANE-STEP <name> rc=<n>" per run.
CM_IP=${LANE_ADDR%/*}
debian_lib=/usr/lib/x86_64-linux-gnu
uptime_s() { cut -d' ' -f1 /proc/uptime; }
echo "LANE-INFO rdma cm start at $(uptime_s)s"

for prog in $PROGRAMS; do
	case $prog in
	*/rdma-cm-conformance)
		echo "LANE-CM-TABLE-BEGIN"
		timeout 120 "$prog" "$CM_IP"
		r=$?
		echo "LANE-CM-TABLE-END"
		step_end cm-conformance $r
		;;
	esac
done

echo "LANE-INFO rdma cm judges from $(uptime_s)s"

# A server is ready once the RDMA CM lists its id in state LISTEN (RDMA CM
# listeners have no socket to look for).
wait_cm_listen() {
	n=0
	while [ $n -lt 400 ]; do
		rdma resource show cm_id 2>/dev/null | grep -q LISTEN &&
			return 0
		sleep 0.05
		n=$((n + 1))
	done
	return 1
}

# cm_pair NAME LIBDIR "SERVER CMD" "CLIENT CMD": both must exit 0; the
# verdict lines are checked by the caller on $out/NAME.{server,client}.
cm_pair() {
	name=$1 lib=$2 s=$out/$1.server c=$out/$1.client
	# shellcheck disable=SC2086 # the commands are word lists
	LD_LIBRARY_PATH=$lib timeout 60 $3 > "$s" 2>&1 &
	spid=$!
	r=0
	if wait_cm_listen; then
		# the listening server maps the libibverbs this run is about
		grep -qs " ${lib:-$debian_lib}/libibverbs" /proc/[0-9]*/maps ||
			r=93
		# shellcheck disable=SC2086
		LD_LIBRARY_PATH=$lib timeout 60 $4 > "$c" 2>&1
		crc=$?
		[ $r = 0 ] && r=$crc
	else
		echo "server never listened" > "$c"
		r=90
	fi
	# a client that failed leaves its server waiting
	[ $r = 0 ] || kill $spid 2> /dev/null
	wait $spid || { [ $r = 0 ] && r=91; }
	return $r
}

# has FILE COUNT PATTERN: exactly COUNT lines of FILE match PATTERN.
has() {
	[ "$(grep -c -- "$3" "$1")" = "$2" ]
}

# judge NAME: the verdict of the last cm_pair of NAME from its output.
judge() {
	s=$out/$1.server c=$out/$1.client
	case $1 in
	rping*)
		# -V verified every ping; -v prints each on both sides
		has "$c" 5 '^ping data: rdma-ping-' &&
			has "$s" 5 '^server ping data: rdma-ping-' &&
			grep -q '^ping data: rdma-ping-4: EFGHIJKLMNOPQRSTU' "$c"
		;;
	ucmatose* | udaddy*)
		for f in "$s" "$c"; do
			grep -q '^data transfers complete' "$f" &&
				grep -q '^return status 0' "$f" || return 1
		done
		;;
	rdma_server*)
		grep -q '^rdma_server: end 0' "$s" &&
			grep -q '^rdma_client: end 0' "$c"
		;;
	esac
}

# run_cm NAME SERVER CLIENT: on Debian's libibverbs and on ours, each a
# LANE-STEP whose rc is the pair's exit status, or 92 for a wrong verdict.
run_cm() {
	for side in debian ours; do
		lib=
		[ $side = ours ] && lib=$ours
		name=$1-$side
		for try in 1 2 3; do
			cm_pair "$name" "$lib" "$2" "$3"
			r=$?
			# rping's CM thread asks for its next event while its
			# main thread closes the channel; when main wins, the
			# write meets a closed fd and rping exits 255 after a
			# verified run (an rping race, on any kernel).
			grep -q '^rdma_get_cm_event: Bad file descriptor' \
				"$out/$name.server" "$out/$name.client" ||
				break
			echo "WORKAROUND: $name raced its own teardown; run" \
				"$((try + 1))"
		done
		[ "$r" = 0 ] && ! judge "$name" && r=92
		echo "--- $name client:"
		cat "$out/$name.client"
		if [ "$r" != 0 ]; then
			echo "--- $name server:"
			cat "$out/$name.server"
		fi
		step_end "rdmacm-$name" "$r"
	done
}

run_cm rping "rping -s -a $CM_IP -V -C 5 -v" "rping -c -a $CM_IP -V -C 5 -v"
run_cm ucmatose "ucmatose -b $CM_IP -c 2 -C 10" "ucmatose -s $CM_IP -c 2 -C 10"
run_cm udaddy "udaddy -b $CM_IP -c 2 -C 10" "udaddy -s $CM_IP -c 2 -C 10"
run_cm rdma_server "rdma_server -s $CM_IP" "rdma_client -s $CM_IP"
echo "LANE-INFO rdma cm done at $(uptime_s)s"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Traffic on rxe0 inside the lane VM, server and client over loopback on
# the RoCE v2 GID of dummy0's IPv4 address ($LANE_ADDR): our data-path checks, Debian's
# unmodified pingpongs on Debian's libibverbs (the reference) and on ours,
# then perftest built against rdma-dm. Sourced by tests.sh: uses step_end and $BUILD_DIR, and
# prints "LANE-STEP <name> rc=<n>" per run plus the result lines.
ours=$BUILD_DIR/lib
out=/tmp/traffic
mkdir -p $out

# The GID table entry of type "RoCE v2" holding an IPv4-mapped address
# (::ffff:a.b.c.d); the core fills it in shortly after the address is set.
roce_v2_gid() {
	p=/sys/class/infiniband/rxe0/ports/1
	for i in $(seq 0 15); do
		[ "$(cat $p/gid_attrs/types/$i 2>/dev/null)" = "RoCE v2" ] ||
			continue
		case $(cat $p/gids/$i) in
		0000:0000:0000:0000:0000:ffff:*) echo $i; return 0 ;;
		esac
	done
	return 1
}

# Only now: the conformance table has run on the bare link-local GID.
ip addr add "$LANE_ADDR" dev dummy0
n=0
while ! GID=$(roce_v2_gid) && [ $n -lt 100 ]; do
	sleep 0.05
	n=$((n + 1))
done
echo "LANE-INFO RoCE v2 GID index ${GID:-none}:" \
	"$(cat /sys/class/infiniband/rxe0/ports/1/gids/${GID:-0})"

# Wait until something listens on TCP port $1 (the servers' exchange).
wait_listen() {
	hex=$(printf '%04X' "$1")
	n=0
	while [ $n -lt 200 ]; do
		grep -q ":$hex [0-9A-F:]* 0A " /proc/net/tcp /proc/net/tcp6 \
			2>/dev/null && return 0
		sleep 0.05
		n=$((n + 1))
	done
	return 1
}

# run_pair NAME PATTERN LIBDIR PROGRAM ARGS...: server and client of
# PROGRAM on port 18515; both must exit 0 and the client must print a line
# matching PATTERN. Returns 0 or why not.
run_pair() {
	name=$1 pattern=$2 lib=$3
	shift 3
	s=$out/$name.server c=$out/$name.client
	LD_LIBRARY_PATH=$lib timeout 90 "$@" > "$s" 2>&1 &
	spid=$!
	r=0
	if wait_listen 18515; then
		LD_LIBRARY_PATH=$lib timeout 90 "$@" 127.0.0.1 > "$c" 2>&1 ||
			r=$?
	else
		echo "server never listened" > "$c"
		r=90
	fi
	wait $spid || { [ $r = 0 ] && r=91; }
	grep -qE "$pattern" "$c" || { [ $r = 0 ] && r=92; }
	echo "--- $name client:"
	cat "$c"
	if [ $r != 0 ]; then
		echo "--- $name server:"
		cat "$s"
	fi
	return $r
}

pair() {
	run_pair "$@"
	step_end "$1" $?
}

[ -n "$GID" ] || { step_end roce-v2-gid 1; return; }

# Our own data-path checks (tests/vm/datapath) on this GID.
for prog in $PROGRAMS; do
	case $prog in
	*/rxe-datapath)
		timeout 120 "$prog" "$GID"
		step_end datapath $?
		;;
	esac
done

# The RDMA CM rows and rdmacm-utils (guest-rdmacm.sh).
. /lane/rdmacm.sh

# ibverbs-utils 44: four transports, short runs (TCG is slow).
for t in rc uc ud srq; do
	args="-d rxe0 -g $GID -n 20"
	[ $t = ud ] && args="$args -s 512"
	pair pingpong-$t-debian "iters in" "" ibv_${t}_pingpong $args
	pair pingpong-$t-ours "iters in" "$ours" ibv_${t}_pingpong $args
done

# perftest 4.5 (PERFTEST_KIND: "source" = built by tests/perftest against
# rdma-dm, RPATH to ours; "debian-binary" = Debian's package, on ours through
# LD_LIBRARY_PATH). The client's result table has a data line starting with
# the message size and the iteration count.
pt=$PERFTEST_BIN
if [ ! -x "$pt/ib_write_bw" ]; then
	echo "LANE-SKIP perftest: no programs ($PERFTEST_KIND)"
	return
fi
echo "LANE-INFO perftest: $PERFTEST_KIND from $pt on $ours"
table='^ *[0-9]+ +[0-9]+ +[0-9.]+'
for t in "write_bw -s 65536 -n 200" "read_bw -s 65536 -n 200" \
	"send_bw -s 65536 -n 200" "atomic_bw -n 200" "write_lat -n 200" \
	"send_lat -n 200" "send_bw -c UD -s 512 -n 200"; do
	set -- $t
	name=perftest-$1$(echo "$*" | grep -q 'UD' && echo -ud)
	prog=$pt/ib_$1
	shift
	# perftest times itself with the TSC, which it calibrates first; under
	# TCG that calibration can miss its r^2 bar ("Can't produce a report").
	# That is about the emulated clock, not the data path: retry the pair
	# (either side may miss it).
	for try in 1 2 3; do
		run_pair "$name" "$table" "$ours" $prog -d rxe0 -x $GID "$@"
		r=$?
		grep -q "Correlation coefficient" "$out/$name.client" \
			"$out/$name.server" || break
		echo "LANE-INFO $name: perftest clock calibration failed (try $try)"
	done
	step_end "$name" $r
done

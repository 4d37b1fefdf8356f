#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Usage: bench/sim/roce_cm.sh [BUILD_DIR]   (run it under nice)
# RoCE and RDMA CM figures for issue 18, under rdma-sim, server and client
# on one device (mlx5_0) of one world, Debian's perftest 4.5 and rping:
#  - ib_send_lat -s 2 (t_typical, the median one-way time, and t_avg) on
#    IB (LID addressing), on RoCE v2 (-x GID) and on RoCE connected
#    through the RDMA CM (-R -x GID);
#  - ib_write_bw -s 65536 BW average on IB and on RoCE v2 (-x GID);
#  - rping on RoCE (RDMA CM): the client's wall time for -C RP1 and for
#    -C RP2 iterations with -V (data validated), 64-byte pings. The
#    difference over RP2 - RP1 is the cost of one rping iteration (a
#    SEND of the buffer's address, the server's RDMA READ, a SEND back,
#    a SEND of the sink's address, the server's RDMA WRITE, a SEND
#    back); -C RP1's time is dominated by address and route resolution,
#    connection setup and teardown.
# Nothing is asserted. The load average is printed first and last: on the
# shared 2-core VM say whether the figures were taken loaded or quiet.
set -e
B=${1:-build}
SIM="$B/bin/rdma-sim"
N=${N:-5000}  # perftest iterations
RP1=${RP1:-10}
RP2=${RP2:-510}
ADDR=192.168.1.1 # mlx5_0's netdev address on an eth world
GID=3		 # its RoCE v2 GID of that IPv4 address
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

load() { awk '{print $1, $2, $3}' /proc/loadavg; }

# Run $client (in a world's script, the server's pid in $spid) until it
# succeeds: one the RDMA CM rejected because the server's listener was not
# there yet (a loaded machine) tries again, up to 10 times, a second apart.
retry='i=0
until $client; do
	i=$((i + 1))
	[ $i -lt 10 ] && kill -0 $spid 2>/dev/null || break
	sleep 1
done
wait'

# WORLD_LINK SCRIPT: run it under rdma-sim, bounded in time
world() {
	chmod +x "$2"
	timeout 600 env -u LD_LIBRARY_PATH "$SIM" --link-layer "$1" -- "$2" >&2 ||
		echo "  (failed: $2)" >&2
}

# LINK PORT WAIT PROGRAM ARGS...: a server and a client (to ADDR on eth,
# localhost on ib) in one world; the client's output in $w/c. WAIT: how
# the client knows the server is up (tcp: its TCP port listens; cm: its
# first attempts may be rejected, an RDMA CM listener has no socket).
pair() {
	link=$1 port=$2 wait=$3
	shift 3
	to=localhost
	[ "$link" = eth ] && to=$ADDR
	ready="ss -ltnH 'sport = :$port' | grep -q ."
	[ "$wait" = cm ] && ready=true
	cat >"$w/run" <<EOF
#!/bin/sh
$* -p $port >"$w/s" 2>&1 &
spid=\$!
client='$* -p $port $to'
i=0
while [ \$i -lt 300 ]; do
	$ready && break
	sleep 0.1
	i=\$((i + 1))
done
sleep 1
{
$retry
} >"$w/c" 2>&1
EOF
	world "$link" "$w/run"
}

# LINK PORT WAIT ARGS...: "t_typical t_avg" of ib_send_lat -s 2
lat() {
	link=$1 port=$2 wait=$3
	shift 3
	pair "$link" "$port" "$wait" ib_send_lat -d mlx5_0 -s 2 -n "$N" "$@"
	awk '$1 == 2 {print $5, $6}' "$w/c"
}

# LINK PORT ARGS...: BW average of ib_write_bw -s 65536, MB/s
bw() {
	link=$1 port=$2
	shift 2
	pair "$link" "$port" tcp ib_write_bw -d mlx5_0 -s 65536 -n "$N" "$@"
	awk '$1 == 65536 {print $4}' "$w/c"
}

# COUNT: the rping client's wall time in ms for COUNT validated pings
rping_ms() {
	cat >"$w/rp" <<EOF
#!/bin/sh
rping -s -a $ADDR -p 18720 -C $1 -S 64 >/dev/null 2>&1 &
spid=\$!
timed() {
	a=\$(date +%s%N)
	rping -c -a $ADDR -p 18720 -C $1 -S 64 -V >/dev/null 2>&1 || return 1
	b=\$(date +%s%N)
	echo \$(((b - a) / 1000000)) >"$w/rp.out"
}
client=timed
sleep 1
$retry
EOF
	echo "?" >"$w/rp.out"
	world eth "$w/rp"
	cat "$w/rp.out"
}

echo "load average before: $(load) ($(nproc) CPUs)"
ib=$(lat ib 18701 tcp)
roce=$(lat eth 18702 tcp -x $GID)
cm=$(lat eth 18703 cm -R -x $GID)
bib=$(bw ib 18704)
broce=$(bw eth 18705 -x $GID)
r1=$(rping_ms "$RP1")
r2=$(rping_ms "$RP2")

row() { printf '| %-34s | %12s | %12s | %12s |\n' "$@"; }
row measure IB "RoCE v2 -x $GID" "RoCE + RDMA CM"
row --- ---: ---: ---:
row "ib_send_lat 2 B t_typical, us" "${ib% *}" "${roce% *}" "${cm% *}"
row "ib_send_lat 2 B t_avg, us" "${ib#* }" "${roce#* }" "${cm#* }"
row "ib_write_bw 64 KiB BW avg, MB/s" "$bib" "$broce" "-"
row "rping -C $RP1 -V client, ms" "-" "-" "$r1"
row "rping -C $RP2 -V client, ms" "-" "-" "$r2"
row "rping one iteration, us" "-" "-" \
	"$(echo "$r1 $r2" | awk -v n=$((RP2 - RP1)) \
		'{printf "%.0f", 1000 * ($2 - $1) / n}')"
echo "perftest: -n $N, one device, server and client in one world"
echo "load average after: $(load)"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# iproute2's `rdma link delete` as a user runs it under rdma-sim: an rxe
# device leaves every listing (rdma dev/link/resource, sysfs, /dev, the
# verbs device list), a second delete finds no device, CAP_NET_ADMIN is
# needed (EPERM), and mlx5 refuses (EINVAL: no IBK_ALLOW_USER_UNREG).
# `rdma link add` answers as nldev_newlink/rxe_newlink check, and adds
# back rxe0 on eth0 after its delete: listed again everywhere, its GID
# table rebuilt from eth0's addresses, and ibv_rc_pingpong runs data
# between it and rxe1.
SIM=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v rdma >/dev/null || { echo "SKIP: no rdma (iproute2)"; exit 77; }
command -v setpriv >/dev/null || { echo "SKIP: no setpriv"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# shellcheck disable=SC2016
TMPDIR=$tmp "$SIM" --driver rxe --devices 2 -- sh -c '
	fail() { echo "FAIL: $*" >&2; exit 1; }
	[ "$(rdma dev | grep -c "^[01]: rxe[01]:")" = 2 ] || fail "two devices"
	out=$(setpriv --bounding-set=-net_admin --inh-caps=-net_admin \
		rdma link delete rxe0 2>&1) && fail "deleted without CAP_NET_ADMIN"
	[ "$out" = "error: Operation not permitted" ] || fail "no EPERM: $out"
	rdma dev | grep -q "^0: rxe0:" || fail "rxe0 gone after EPERM"

	add() { # expected message, then the arguments of rdma link add
		want=$1
		shift
		out=$(rdma link add "$@" 2>&1) && fail "link add $* worked"
		[ "$out" = "error: $want" ] || fail "link add $*: $out"
	}
	add "File exists" rxe9 type rxe netdev eth0
	add "Too many open files in system" rxe1 type rxe netdev lo
	add "No such device" rxe9 type rxe netdev nope0
	add "Invalid argument" rxe9 type foo netdev lo
	add "Invalid argument" "rxe%d" type rxe netdev lo
	add "Operation not supported" rxe9 type rxe netdev lo

	rdma link delete rxe0 || fail "rdma link delete rxe0"
	[ "$(rdma dev | cut -d" " -f1,2)" = "1: rxe1:" ] ||
		fail "rdma dev after delete: $(rdma dev)"
	[ "$(rdma link show | cut -d" " -f1,2)" = "link rxe1/1" ] ||
		fail "rdma link show: $(rdma link show)"
	[ "$(rdma resource show | cut -d" " -f1,2)" = "1: rxe1:" ] ||
		fail "rdma resource show: $(rdma resource show)"
	[ "$(ls /sys/class/infiniband)" = rxe1 ] || fail "sysfs: rxe0 stays"
	[ ! -e /sys/class/infiniband_verbs/uverbs0 ] || fail "uverbs0 in sysfs"
	[ ! -e /dev/infiniband/uverbs0 ] || fail "/dev/infiniband/uverbs0 stays"
	[ ! -e /dev/infiniband/umad0 ] || fail "/dev/infiniband/umad0 stays"
	ibv_devices | grep -q rxe0 && fail "ibv_devices lists rxe0"
	ibv_devices | grep -q rxe1 || fail "ibv_devices lost rxe1"
	out=$(rdma link delete rxe0 2>&1) && fail "deleted rxe0 twice"
	[ "$out" = "Wrong device name - rxe0" ] || fail "second delete: $out"

	add "File exists" rxe0 type rxe netdev eth1
	add "Too many open files in system" rxe1 type rxe netdev eth0
	rdma link add rxe0 type rxe netdev eth0 || fail "link add rxe0"
	add "File exists" rxe0 type rxe netdev eth0
	rdma dev | grep -q "^[0-9]*: rxe0: node_type ca" ||
		fail "rdma dev after add: $(rdma dev)"
	rdma link show rxe0/1 | grep -q "^link rxe0/1 state ACTIVE" ||
		fail "rdma link show rxe0/1: $(rdma link show rxe0/1)"
	[ "$(ls /sys/class/infiniband | tr "\n" " ")" = "rxe0 rxe1 " ] ||
		fail "sysfs after add: $(ls /sys/class/infiniband)"
	[ -e /dev/infiniband/uverbs0 ] || fail "no /dev/infiniband/uverbs0"
	[ "$(cat /sys/class/infiniband_verbs/uverbs0/ibdev)" = rxe0 ] ||
		fail "uverbs0 is not rxe0"
	ibv_devices | grep -q rxe0 || fail "ibv_devices lacks rxe0"
	g=/sys/class/infiniband/rxe0/ports/1
	[ "$(cat $g/gids/0)" = fe80:0000:0000:0000:5054:00ff:fe12:3400 ] ||
		fail "default GID: $(cat $g/gids/0)"
	[ "$(cat $g/gids/1) $(cat $g/gid_attrs/types/1)" = \
		"0000:0000:0000:0000:0000:ffff:c0a8:0101 RoCE v2" ] ||
		fail "GID 1: $(cat $g/gids/1) $(cat $g/gid_attrs/types/1)"
	ibv_rc_pingpong -d rxe0 -g 1 -p 18515 -n 100 >"$TMPDIR/s" 2>&1 &
	srv=$!
	sleep 1
	ibv_rc_pingpong -d rxe1 -g 1 -p 18515 -n 100 localhost \
		>"$TMPDIR/c" 2>&1 || fail "pingpong client: $(cat "$TMPDIR/c")"
	wait $srv || fail "pingpong server: $(cat "$TMPDIR/s")"
	grep -q "^100 iters in" "$TMPDIR/s" &&
		grep -q "^100 iters in" "$TMPDIR/c" ||
		fail "pingpong data: $(cat "$TMPDIR/s" "$TMPDIR/c")"
	rm -f "$TMPDIR/s" "$TMPDIR/c"
	rdma link delete rxe0 || fail "delete the re-added rxe0"
	rdma link delete rxe1 || fail "rdma link delete rxe1"
	[ -z "$(rdma dev)" ] || fail "rdma dev not empty: $(rdma dev)"
	[ -z "$(ls /sys/class/infiniband)" ] || fail "sysfs not empty"
' || fail "rxe world"

# Debian's rping as a server on rxe0: the delete tells its listener
# (DEVICE_REMOVAL), rping gives up and exits, and so the delete, which
# waits for rping's verbs context, returns.
if command -v rping >/dev/null; then
	# shellcheck disable=SC2016
	TMPDIR=$tmp "$SIM" --driver rxe -- sh -c '
	fail() { echo "FAIL: $*" >&2; exit 1; }
	out=$TMPDIR/rping.out
	rping -s -a 192.168.1.1 >"$out" 2>&1 &
	pid=$!
	i=0
	while [ $i -lt 600 ] && ! rdma resource show | grep -q " ctx 1 "; do
		sleep 0.1
		i=$((i + 1))
	done
	rdma resource show | grep -q " ctx 1 " || fail "rping has no context"
	timeout 120 rdma link delete rxe0 || fail "delete under rping"
	wait $pid && fail "rping exits 0 after the removal"
	grep -q "cma detected device removal" "$out" ||
		fail "rping: $(cat "$out")"
	[ -z "$(rdma dev)" ] || fail "rdma dev: $(rdma dev)"
	rm "$out"
	' || fail "rping world"
else
	echo "SKIP (rping part): no rping (rdmacm-utils)"
fi

# shellcheck disable=SC2016
TMPDIR=$tmp "$SIM" --netns -- sh -c '
	fail() { echo "FAIL: $*" >&2; exit 1; }
	out=$(rdma link delete mlx5_0 2>&1) && fail "mlx5_0 deleted"
	[ "$out" = "error: Invalid argument" ] || fail "mlx5: $out"
	rdma dev | grep -q "^0: mlx5_0:" || fail "mlx5_0 gone"
' || fail "mlx5 world"
[ -z "$(ls "$tmp")" ] || fail "world directory left: $(ls "$tmp")"
echo "rdma_link: all checks passed"

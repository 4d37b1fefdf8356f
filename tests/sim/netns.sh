#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The world's network: its own namespace with one netdev per Ethernet port
# (addresses, MAC, the IB port without one), --link-layer and --addr, as
# root and (when we are root, through setpriv) as an unprivileged user in
# a user namespace; nothing left in the caller's namespace afterwards.
# Usage: netns.sh SIM
SIM=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v ip >/dev/null 2>&1 || { echo "SKIP: no ip (iproute2)"; exit 77; }

links_before=$(ip -o link | awk -F': ' '{print $2}' | sort)

for bad in "--link-layer roce" "--link-layer 1025=eth" "--addr 10.0.0.1/8" \
	"--addr 0=10.0.0.1" "--driver rxe --link-layer ib" \
	"--link-layer eth --no-netns"; do
	# shellcheck disable=SC2086
	"$SIM" $bad -- true >/dev/null 2>&1
	[ $? -eq 2 ] || fail "'$bad' must exit 2"
done

# device 0 InfiniBand, device 1 Ethernet with an address of our choosing
out=$("$SIM" --devices 2 --link-layer 1=eth --addr 1=10.20.30.40/16 -- sh -c '
	ip -o link | awk -F": " "{print \$2}"
	ip -o addr show dev eth1
	cat /sys/class/infiniband/mlx5_0/ports/1/link_layer
	cat /sys/class/infiniband/mlx5_1/ports/1/link_layer
	cat /sys/class/infiniband/mlx5_1/ports/1/gids/3
	cat /sys/class/infiniband/mlx5_1/ports/1/gid_attrs/ndevs/3') ||
	fail "mixed world: $out"
echo "$out" | grep -q '^eth1@' || fail "no eth1 for the Ethernet port: $out"
echo "$out" | grep -q '^eth0' && fail "an Ethernet netdev for the IB port: $out"
echo "$out" | grep -q '^ib0@' || fail "no IPoIB netdev for the IB port: $out"
echo "$out" | grep -q 'inet 10.20.30.40/16' || fail "--addr: $out"
echo "$out" | grep -q '192.168' && fail "default address beside --addr"
echo "$out" | grep -qx 'InfiniBand' || fail "mlx5_0 not IB: $out"
echo "$out" | grep -qx 'Ethernet' || fail "mlx5_1 not Ethernet: $out"
echo "$out" | grep -qx '0000:0000:0000:0000:0000:ffff:0a14:1e28' ||
	fail "GID 3 is not ::ffff:10.20.30.40: $out"
echo "$out" | grep -qx 'eth1' || fail "ndevs/3: $out"

# --addr 0=none: the default GID alone
out=$("$SIM" --driver rxe --addr 0=none -- sh -c 'ip -o -4 addr show dev eth0
	cat /sys/class/infiniband/rxe0/ports/1/gids/1') || fail "--addr 0=none"
[ "$out" = "0000:0000:0000:0000:0000:0000:0000:0000" ] ||
	fail "--addr 0=none: $out"

# rxe: Ethernet without asking; the MAC is the one its GUID says, and
# /sys/class/net is the world's
out=$("$SIM" --driver rxe -- sh -c 'ls /sys/class/net
	cat /sys/class/net/eth0/address
	readlink /proc/self/ns/net') || fail "rxe world"
echo "$out" | grep -qx '52:54:00:12:34:00' || fail "rxe MAC: $out"
[ "$(echo "$out" | grep -c '^eth0$\|^lo$')" = 2 ] &&
	[ "$(echo "$out" | grep -c '^[a-z]')" = 3 ] ||
	fail "/sys/class/net is not the world's: $out"
world=$(echo "$out" | sed -n 's/^net:\[\([0-9]*\)\]$/\1/p')
[ -n "$world" ] || fail "no namespace inode: $out"
# when that world had ended, in clock ticks since boot (/proc/PID/stat)
ended=$(awk '{printf "%d", $1 * 100}' /proc/uptime)

# an IB-only world stays in our namespace unless asked
[ "$("$SIM" -- readlink /proc/self/ns/net)" = "$(readlink /proc/self/ns/net)" ] ||
	fail "an IB-only world left our network namespace"
out=$("$SIM" --netns -- sh -c 'readlink /proc/self/ns/net; ip -o link')
[ "$(echo "$out" | head -1)" != "$(readlink /proc/self/ns/net)" ] &&
	[ "$(echo "$out" | grep -c ': lo:')" = 1 ] &&
	[ "$(echo "$out" | grep -c ': ib0@.* mtu 2044 ')" = 1 ] &&
	[ "$(echo "$out" | wc -l)" = 3 ] || fail "--netns: $out"

# the IB port's IPoIB interface: its addresses (the IPv6 link-local from
# the port GUID 0c42:a103:00b3:d0e0) and what sysfs says of it
out=$("$SIM" --netns -- sh -c 'ip -o addr show dev ib0
	cd /sys/class/net/ib0 && cat type addr_len address broadcast')
for want in 'inet 192.168.2.1/24' 'inet6 fd02::1/64' \
	'inet6 fe80::e42:a103:b3:d0e0/64'; do
	echo "$out" | grep -q "$want" || fail "ib0 lacks $want: $out"
done
echo "$out" | grep -q 'fe80::c42:a1ff' && fail "ib0 has a MAC-made link-local"
echo "$out" | tail -4 | tr '\n' ' ' | grep -qx '32 20 80:00:00:48:fe:80:00:00:00:00:00:00:0c:42:a1:03:00:b3:d0:e0 00:ff:ff:ff:ff:12:40:1b:ff:ff:00:00:00:00:00:00:ff:ff:ff:ff ' ||
	fail "ib0's sysfs type/addr_len/address/broadcast: $out"

# an unprivileged user gets a user namespace and may administer its world
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 &&
	setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$SIM"; then
	out=$(cd / && TMPDIR=/tmp setpriv --reuid=65534 --regid=65534 \
		--clear-groups "$SIM" --link-layer eth -- sh -c '
		id -u
		ip addr add 10.9.9.9/24 dev eth0 && sleep 0.3 &&
		cat /sys/class/infiniband/mlx5_0/ports/1/gids/7') ||
		fail "unprivileged world: $out"
	echo "$out" | grep -qx 65534 || fail "uid changed: $out"
	echo "$out" | grep -qx '0000:0000:0000:0000:0000:ffff:0a09:0909' ||
		fail "unprivileged ip addr add gave no GID: $out"
else
	echo "note: not root (or no setpriv): the unprivileged case ran above"
fi

links_after=$(ip -o link | awk -F': ' '{print $2}' | sort)
[ "$links_before" = "$links_after" ] ||
	fail "netdevs left in the caller's namespace"
# nobody is left in the world's namespace
if command -v lsns >/dev/null 2>&1; then
	# a namespace's number is reused once it is gone (other worlds
	# start beside this test): only one whose process was already
	# running when the world ended outlived it
	pid=$(lsns -n -t net -o NS,PID 2>/dev/null |
		awk -v w="$world" '$1 == w { print $2 }')
	start=$(awk '{ print $22 }' "/proc/$pid/stat" 2>/dev/null)
	[ -n "$pid" ] && [ -n "$start" ] && [ "$start" -le "$ended" ] &&
		fail "the world's network namespace outlived rdma-sim"
fi
[ "$(readlink /proc/self/ns/net)" = "net:[$world]" ] &&
	fail "rdma-sim ran in the caller's namespace"
echo ok

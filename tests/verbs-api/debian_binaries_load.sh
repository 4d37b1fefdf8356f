#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Debian 12's unmodified RDMA programs (ibverbs-utils, perftest) must load
# on rdma-dm's libibverbs and libmlx5 with every symbol bound at once, as
# their BIND_NOW builds demand: each libibverbs.so.1 / libmlx5.so.1 they
# resolve must be ours, and the dynamic linker may report nothing missing.
#
# usage: debian_binaries_load.sh OUR_LIBDIR [ASAN_RUNTIME]
# (sanitizer builds: an uninstrumented program needs the runtime first)
set -u
libdir=$1
preload=${2:+LD_PRELOAD=$2 ASAN_OPTIONS=detect_leaks=0}
fail=0
count=0
for prog in /usr/bin/ibv_devices /usr/bin/ibv_devinfo /usr/bin/ibv_rc_pingpong \
	/usr/bin/ibv_uc_pingpong /usr/bin/ibv_ud_pingpong \
	/usr/bin/ibv_srq_pingpong /usr/bin/ib_write_bw /usr/bin/ib_read_bw \
	/usr/bin/ib_send_bw /usr/bin/ib_atomic_bw /usr/bin/ib_write_lat \
	/usr/bin/ib_read_lat /usr/bin/ib_send_lat /usr/bin/ib_atomic_lat; do
	if [ ! -x "$prog" ]; then
		echo "FAIL: $prog missing (Debian 12: ibverbs-utils, perftest)"
		fail=1
		continue
	fi
	out=$(LD_LIBRARY_PATH=$libdir ldd -r "$prog" 2>&1)
	bad=$(printf '%s\n' "$out" |
		grep -E 'undefined symbol|not found|version .* not found')
	if [ -n "$bad" ]; then
		echo "FAIL: $prog does not load on $libdir:"
		printf '%s\n' "$bad" | head -5
		fail=1
	fi
	for lib in libibverbs.so.1 libmlx5.so.1; do
		where=$(printf '%s\n' "$out" | awk -v l="$lib" '$1 == l { print $3 }')
		[ -z "$where" ] && continue
		case $where in
		"$libdir"/*) ;;
		*)
			echo "FAIL: $prog resolves $lib to $where, not $libdir"
			fail=1
			;;
		esac
	done
	count=$((count + 1))
done
# And one actually runs: perftest prints its version and exits 0.
ver=$(env $preload LD_LIBRARY_PATH=$libdir LD_BIND_NOW=1 \
	/usr/bin/ib_write_bw -V 2>&1)
case $ver in
"Version: "*) echo "ib_write_bw -V on our libraries: $ver" ;;
*)
	echo "FAIL: ib_write_bw -V on $libdir: $ver"
	fail=1
	;;
esac
[ $fail -eq 0 ] && echo "$count Debian programs load on rdma-dm's libraries"
exit $fail

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# "A program linked against rdma-core 65's libraries runs on ours": build
# stand-ins for rc65's libibverbs.so.1 and libmlx5.so.1 with its version
# nodes (stubs.py, from ../upstream-65-*.sym), an rc65-style provider
# (provider.c) and a program (program.c) linked against them with every
# symbol bound at load (-z now), then run the program on rdma-dm's
# libraries under rdma-sim.
# usage: run.sh CC PYTHON INCLUDE_DIR OUR_LIBDIR RDMA_SIM [ASAN_RUNTIME]
set -u
cc=$1
python=$2
inc=$3
libdir=$4
sim=$5
preload=${6:+LD_PRELOAD=$6 ASAN_OPTIONS=detect_leaks=0}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/stub" "$work/bin"
fail=0

die() {
	echo "FAIL: $*"
	exit 1
}

gen() {
	"$python" "$here/stubs.py" "$here/../upstream-65-$1.sym" "$work/$2" "$3" ||
		die "stubs.py $1"
}
gen libibverbs ibverbs 'PRIVATE_65'
gen libibverbs ibverbs_pub '^(?!.*PRIVATE)'
gen libmlx5 mlx5 '.'

for lib in ibverbs mlx5; do
	"$cc" -shared -fPIC -o "$work/stub/lib$lib.so.1" \
		-Wl,-soname,"lib$lib.so.1" "$work/$lib.c" \
		-Wl,--version-script="$work/$lib.map" ||
		die "stub lib$lib.so.1"
done
"$cc" -shared -fPIC -Wall -Werror -o "$work/bin/libfake65.so" \
	"$here/provider.c" "$work/ibverbs_refs.c" \
	"$work/stub/libibverbs.so.1" -Wl,-z,now || die "provider"
"$cc" -Wall -Werror -I"$inc" -o "$work/bin/program" "$here/program.c" \
	"$work/ibverbs_pub_refs.c" "$work/mlx5_refs.c" \
	"$work/bin/libfake65.so" "$work/stub/libibverbs.so.1" \
	"$work/stub/libmlx5.so.1" -Wl,-z,now -Wl,-rpath,'$ORIGIN' ||
	die "program"

# What the binaries need: the nodes only rdma-core 65 has, among others.
needs() {
	readelf -V "$work/bin/$1" | awk '$2 == "Name:" {print $3}'
}
for node in IBVERBS_1.0 IBVERBS_1.1 IBVERBS_1.16 IBVERBS_PRIVATE_65 \
	MLX5_1.0 MLX5_1.25.1 MLX5_1.27; do
	needs program | grep -qx "$node" ||
		{ echo "FAIL: the program does not need $node"; fail=1; }
done
needs libfake65.so | grep -qx IBVERBS_PRIVATE_65 ||
	{ echo "FAIL: the provider does not need IBVERBS_PRIVATE_65"; fail=1; }

out=$(env $preload IBV_SHOW_WARNINGS=1 LD_LIBRARY_PATH="$libdir" \
	"$sim" -- "$work/bin/program" 2>&1)
rc=$?
printf '%s\n' "$out"
[ $rc -eq 0 ] || { echo "FAIL: the program exited $rc"; fail=1; }
printf '%s\n' "$out" | grep -q "rdma-core 65 program ran" ||
	{ echo "FAIL: the program did not finish"; fail=1; }
printf '%s\n' "$out" |
	grep -q "ignoring a provider built for rdma-core's private ABI 65" ||
	{ echo "FAIL: no warning about the rc65 provider"; fail=1; }
exit $fail

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# One lane run against one real Debian kernel: fetch (cached), build the
# initramfs, boot under TCG with a hard timeout, parse the result line.
#
# usage: run-lane.sh CACHE_DIR PACKAGE BUILD_DIR [PROGRAM...]
# env:   LANE_TIMEOUT (s, default 300)  LANE_SIM (rdma-sim binary: compare the
#        conformance table with the one produced under `rdma-sim --driver rxe`)
# Exit 0 only if the guest printed "LANE-RESULT rc=0" (and the sim agrees).
set -uo pipefail

cache=$(realpath -m "$1")
pkg=$2
build=$3
shift 3
here=$(dirname "$(realpath "$0")")
dir=$cache/$pkg
t0=$(date +%s.%N)
# The one address of the lane: dummy0's in the guest once the conformance
# table ran (the RDMA CM rows and judges use it), the sim's in the
# comparison of the CM table.
export LANE_ADDR=10.77.0.1/24

fail() {
	echo "[lane $pkg] FAIL: $*"
	exit 1
}

# qemu is a hard requirement of this test (build.sh installs it).
command -v qemu-system-x86_64 > /dev/null ||
	fail "qemu-system-x86_64 not found (apt-get install qemu-system-x86)"

"$here/fetch-kernel.sh" "$cache" "$pkg" || fail "kernel fetch"
# shellcheck source=/dev/null
. "$dir/kernel.env"
initrd=$dir/initramfs.cpio
# perftest: the programs tests/perftest built from source against this
# tree, else Debian's binary package run on our libibverbs; none if the
# package cannot be fetched either (the guest then says LANE-SKIP).
if [ -x "$build/perftest/bin/ib_write_bw" ]; then
	export PERFTEST_BIN=$build/perftest/bin PERFTEST_KIND=source
elif PERFTEST_BIN=$("$here/fetch-perftest-deb.sh" "$cache"); then
	export PERFTEST_BIN PERFTEST_KIND=debian-binary
else
	export PERFTEST_BIN=/nonexistent PERFTEST_KIND=none
fi
"$here/make-initramfs.sh" "$dir/kernel.env" "$build" "$initrd" "$@" ||
	fail "initramfs build"

log=$dir/serial.log
t1=$(date +%s.%N)
# -accel tcg always: /dev/kvm on these machines cannot run a stock kernel.
# -no-reboot turns a panic (panic=-1) into qemu exiting. no_timer_check:
# under TCG on a loaded host the kernel's check that the IO-APIC timer
# ticks can miss its window and panic ("IO-APIC + timer doesn't work!",
# seen at 0.04 s of boot); the timer works, only the check is too tight.
timeout --kill-after=5 "${LANE_TIMEOUT:-300}" qemu-system-x86_64 \
	-accel tcg -cpu max -smp 1 -m 512M \
	-nodefaults -no-user-config -display none -monitor none \
	-serial stdio -no-reboot \
	-kernel "$VMLINUX" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 no_timer_check quiet loglevel=3" \
	< /dev/null 2>&1 | tr -d '\r' > "$log"
qrc=${PIPESTATUS[0]}
t2=$(date +%s.%N)
secs() { awk "BEGIN { printf \"%.1f\", $2 - $1 }"; }

result=$(sed -n 's/^LANE-RESULT rc=\([0-9]*\).*/\1/p' "$log" | tail -n1)
# table MARKER FILE: the rows the guest printed between MARKER-BEGIN/END.
table() {
	sed -n "/^$1-BEGIN\$/,/^$1-END\$/p" "$log" | sed '1d;$d' > "$2"
}
table LANE-TABLE "$dir/conformance.txt"
table LANE-CM-TABLE "$dir/conformance-cm.txt"

# the tables' headings and verdicts only (their rows: $dir/*.txt), so
# that what failed stands near the top of a log that is cut short
grep -h '^#' "$dir/conformance.txt" "$dir/conformance-cm.txt"
echo "[lane $pkg] kernel $KVER: prepare $(secs "$t0" "$t1")s," \
	"vm $(secs "$t1" "$t2")s, qemu rc $qrc, result ${result:-none}"
grep -E '^LANE-(STEP|INFO|ERROR)' "$log"
if [ "${result:-x}" != 0 ]; then
	echo "---- conformance rows that did not match:"
	grep -hE 'MISMATCH$' "$dir/conformance.txt" \
		"$dir/conformance-cm.txt"
	echo "---- serial log tail ($log):"
	tail -n 60 "$log"
	[ "$qrc" = 124 ] && fail "timeout after ${LANE_TIMEOUT:-300}s"
	fail "guest result ${result:-missing}"
fi

if [ -n "${LANE_SIM:-}" ]; then
	# Each table with the sim given the address the guest had then.
	for prog in "$@"; do
		case $prog in
		*/rdma-conformance) t=conformance.txt addr=none args=() ;;
		*/rdma-cm-conformance)
			t=conformance-cm.txt addr=$LANE_ADDR
			args=("${LANE_ADDR%/*}")
			;;
		*) continue ;;
		esac
		LANE_KVER=$KVER LANE_SIM_ADDR=$addr "$here/compare-sim.sh" \
			"$dir/$t" "$LANE_SIM" "${LANE_SIM_KNOWN:-}" "$prog" \
			"${args[@]}" ||
			fail "rdma-sim disagrees with kernel $KVER (${t%.txt})"
	done
fi
echo "[lane $pkg] PASS in $(secs "$t0" "$(date +%s.%N)")s"

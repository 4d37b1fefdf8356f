#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# --fail counts across the process tree; --trace decodes every call.
SIM=$1
RAW=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
trace=$(mktemp)

# ENOSPC is 28: the 2nd DM_ALLOC of the whole tree fails, the 1st and 3rd
# (separate processes) succeed.
"$SIM" --fail DM_ALLOC:2:ENOSPC --trace "$trace" -- sh -c \
	"$RAW --alloc 0 && $RAW --alloc 28 && $RAW --alloc 0" ||
	fail "DM_ALLOC:2 injection"
grep -q 'DM.DM_ALLOC attrs={.*} -> ENOSPC (injected)' "$trace" ||
	fail "trace lacks the injected DM_ALLOC"
grep -q 'DEVICE.GET_CONTEXT attrs={.*UHW_IN:len=32' "$trace" ||
	fail "trace lacks decoded GET_CONTEXT attrs"
grep -q 'open /dev/infiniband/uverbs0 .* -> fd' "$trace" || fail "open trace"

# syscall kinds: the first open of a uverbs node fails with EACCES
"$SIM" --fail open:1:EACCES -- "$RAW" --alloc 0 2>/dev/null &&
	fail "open injection ignored"
"$SIM" --fail ioctl:1:EIO -- "$RAW" --alloc 0 2>/dev/null &&
	fail "ioctl injection ignored"
# write-command names count on the INVOKE_WRITE path too
if [ -x /usr/bin/ibv_devinfo ]; then
	: >"$trace"
	"$SIM" --fail EX_QUERY_DEVICE:1:EIO --trace "$trace" -- \
		ibv_devinfo >/dev/null 2>&1
	grep -q 'INVOKE_WRITE.*-> EIO' "$trace" ||
		fail "EX_QUERY_DEVICE not injected through INVOKE_WRITE"
	grep -q 'netlink NLDEV_GET dump -> 1 device' "$trace" ||
		fail "trace does not show netlink discovery"
	# libmlx5 tolerates a failed UAR/clock mmap at open
	: >"$trace"
	"$SIM" --fail mmap:1:ENOMEM --trace "$trace" -- ibv_devinfo \
		>/dev/null 2>&1 || fail "mmap injection broke ibv_devinfo"
	grep -q '^\[[0-9]*\] mmap fd .* -> ENOMEM' "$trace" ||
		fail "mmap injection not traced"
	: >"$trace"
	"$SIM" --no-netlink --trace "$trace" -- ibv_devices | grep -q mlx5_0 ||
		fail "--no-netlink: no device"
	grep -q 'NETLINK_RDMA -> EPROTONOSUPPORT' "$trace" &&
		grep -q 'opendir /sys/class/infiniband_verbs (sysfs' "$trace" ||
		fail "--no-netlink: trace does not show the sysfs path"
fi
rm -f "$trace"
echo "fail_trace: ok"

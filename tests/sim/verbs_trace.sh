#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# --trace decodes the data-path commands (ioctl attrs and write results);
# --fail injects into their kinds.
SIM=$1
VERBS=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
trace=$(mktemp)
trap 'rm -f "$trace"' EXIT

"$SIM" --trace "$trace" -- "$VERBS" >/dev/null || fail "sim_verbs failed"
for want in \
	'QP\.QP_CREATE attrs={CREATE_QP_HANDLE:len=0.*CREATE_QP_TYPE:len=8,flags=0x1,data=0x2 .*} -> 0 handle=[0-9]* qpn=0x[0-9a-f]* type=2' \
	'CQ\.CQ_CREATE attrs={.*CREATE_CQ_CQE:len=4.*} -> 0 handle=' \
	'SRQ\.SRQ_CREATE attrs={.*} -> 0 handle=[0-9]* max_wr=' \
	'write CREATE_QP len 120 -> ok handle=[0-9]* qpn=0x[0-9a-f]* type=' \
	'write MODIFY_QP len 120 -> ok handle=[0-9]* mask=0x39 state 0->1' \
	'write MODIFY_QP len 120 -> EINVAL' \
	'write CREATE_COMP_CHANNEL len 16 -> ok fd=' \
	'write CREATE_SRQ len [0-9]* -> ok handle=' \
	'write CREATE_AH len [0-9]* -> ok handle='; do
	grep -q "$want" "$trace" || fail "trace lacks /$want/"
done
# the 2nd QP_CREATE of the run fails; the test sees EIO where it wants 0
: >"$trace"
"$SIM" --fail QP_CREATE:2:EIO --trace "$trace" -- "$VERBS" >/dev/null 2>&1 &&
	fail "QP_CREATE injection ignored"
grep -q 'QP\.QP_CREATE attrs={.*} -> EIO (injected)' "$trace" ||
	fail "injected QP_CREATE not traced"
"$SIM" --fail MODIFY_QP:1:EIO -- "$VERBS" >/dev/null 2>&1 &&
	fail "MODIFY_QP injection ignored"
echo "verbs_trace: ok"

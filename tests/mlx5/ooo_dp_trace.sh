#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The HCA's QP context gets out-of-order data-path ordering only at the
# INIT->RTR of a QP granted it (a DCT: as INIT->RTR creates it):
# ooo_dp_test (PROG) brings one RC pair and one DCT up with it, has it
# refused on UD QPs, and leaves one RC QP granted it in INIT: exactly
# three QPs in the trace.
# usage: ooo_dp_trace.sh RDMA_SIM PROG
trace=$(mktemp) || exit 1
"$1" --trace "$trace" -- "$2" >/dev/null
rc=$?
# each set by the INIT2RTR_QP (CREATE_DCT) command following it
n=$(awk '/hca qp 0x[0-9a-f]* dp_ordering ooo_all$/ { ooo = 1; next }
	ooo && /hca cmd (INIT2RTR_QP|CREATE_DCT) -> OK/ { n++ } { ooo = 0 }
	END { print n + 0 }' "$trace")
rm -f "$trace"
if [ "$rc" != 0 ] || [ "$n" != 3 ]; then
	echo "FAIL: ooo_dp_test exit $rc, $n QPs ordered ooo_all (expected 3)" >&2
	exit 1
fi
echo "ooo_dp_trace: ok"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Stand-in for a test this configuration cannot run (rdma_unavailable_test).
#
# usage: unavailable.sh WHY [DEBIAN_PACKAGE...]
# With packages named, the test needs them; on Debian 12, where build.sh
# installs them, their absence is a FAILURE. Elsewhere, and without
# packages, the test is a SKIP (exit 77), never a silent pass.
why=$1
shift
if [ $# -gt 0 ] && (
	. /etc/os-release 2>/dev/null &&
		[ "${ID:-}" = debian ] && [ "${VERSION_ID:-}" = 12 ]
); then
	echo "FAIL: $why"
	echo "Debian 12 must run this test: apt-get install $*" \
		"(./build.sh installs them)"
	exit 1
fi
echo "SKIP: $why"
exit 77

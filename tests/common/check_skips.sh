#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Lint of the skip convention (tests/common/skip.h) over the test tree:
# every way a test could be left out, or pass without running, is named.
#
# usage: check_skips.sh SOURCE_DIR
set -u
cd "$1/tests" || exit 1

{
	# cmocka's skip() counts as a pass; test_skip() records the skip.
	grep -rnE '(^|[^_[:alnum:]])skip\(\)' --include='*.c' \
		--include='*.h' . | grep -v '^\./common/skip\.h:' |
		sed 's/^/bare cmocka skip(), use test_skip: /'
	# A program that calls test_skip must turn it into its exit status.
	grep -rl 'test_skip(' --include='*.c' . |
		xargs -r grep -L 'test_exit_status(' |
		sed 's/^/test_skip without test_exit_status: /'
	# return() in a test folder drops its tests without a word.
	grep -rnE '^[[:space:]]*return\(\)' --include=CMakeLists.txt . |
		sed 's/^/return() drops tests, use rdma_unavailable_test: /'
	# The multiarch directory comes from CMAKE_LIBRARY_ARCHITECTURE.
	grep -rn 'x86_64-linux-gnu' --include=CMakeLists.txt . |
		sed 's/^/hard-coded multiarch directory: /'
} > "${TMPDIR:-/tmp}/check_skips.$$"
out=$(cat "${TMPDIR:-/tmp}/check_skips.$$")
rm -f "${TMPDIR:-/tmp}/check_skips.$$"
if [ -n "$out" ]; then
	echo "$out" | sed 's/^/FAIL: /'
	exit 1
fi
echo "skip convention: ok"

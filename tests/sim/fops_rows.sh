#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# What a kind of simulated fd does is its row of the file-operations table
# (sim/boundary/fops.c), close and dup included: every row takes (get) and
# drops (put) an fd's reference to its open file, and no other file of
# the sim chooses by fd kind how to take or drop one.
SIM=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
f=$SIM/boundary/fops.c
[ -f "$f" ] || fail "no $f"
rows=$(grep -cE '^static const struct sim_fops [a-z_]+ = \{' "$f")
[ "$rows" -gt 0 ] || fail "no file-operations rows in $f"
for op in get put; do
	n=$(grep -cE "^	\.$op = [a-z_]+,\$" "$f")
	[ "$n" -eq "$rows" ] || fail "$n of $rows rows have .$op"
done
# the fd table and the close/dup interposers go through the rows only:
# they name no kind's reference functions and no kind
for t in fd_table.c fd_wrap.c; do
	grep -nE 'sim_(uvfile|dmabuf|nlsock|devfile|evq)_(get|put)\b|->refs\b|SIM_FD_(UVERBS|EVENT|DMABUF|NETLINK|DEVNODE)\b' \
		"$SIM/boundary/$t" &&
		fail "$t takes or drops an fd's reference by kind (above)"
done
echo "fops: $rows kinds, close and dup through their get/put"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# A section-1 page documents exactly the options its program's help lists:
# an option added, renamed or removed on one side fails this test.
#
# usage: check-options.sh PAGE.md PROGRAM HELP-OPTION
page=$1 prog=$2 help=$3
t=${TMPDIR:-/tmp}/check-options.$$
trap 'rm -f "$t".*' EXIT

# The help's options: the first word of its indented "-x" / "--xyz" lines.
"$prog" "$help" 2>&1 | awk '/^[[:space:]]+-/ { print $1 }' | sort -u > "$t.help"
# The page's: the bold first word of each entry of its OPTIONS section.
awk '$0 == "# OPTIONS" { on = 1; next } /^# / { on = 0 }
     on && /^\*\*/ { w = $1; gsub(/\*|\\/, "", w); print w }' "$page" |
	sort -u > "$t.page"
[ -s "$t.help" ] || { echo "FAIL: $prog $help lists no options"; exit 1; }
if ! diff -u "$t.help" "$t.page" > "$t.diff"; then
	echo "FAIL: options of '$prog $help' (-) and of $page (+) differ:"
	cat "$t.diff"
	exit 1
fi
echo "$(basename "$page"): $(wc -l < "$t.page") options, as the help says"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# sim/README.md's --fail kinds are exactly the kinds rdma-sim accepts (which
# it derives from its method tables), and every one of them is accepted.
SIM=$1
README=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$SIM" --list-fail-kinds | sort >"$tmp/sim" || fail "--list-fail-kinds"
[ -s "$tmp/sim" ] || fail "no kinds listed"
# the backticked words between "`--fail` kinds" and "Trace lines"
sed -n '/^`--fail` kinds/,/^Trace lines/p' "$README" | tr '\n' ' ' |
	grep -o '`[^`]*`' | tr -d '`' | tr ' ' '\n' |
	grep -E "^[A-Za-z_]+$" |
	sort -u >"$tmp/readme"
[ -s "$tmp/readme" ] || fail "no kinds found in $README"
diff -u "$tmp/readme" "$tmp/sim" ||
	fail "README kinds (-) differ from rdma-sim's (+)"
# each listed kind is accepted by --fail (N large: nothing is injected)
while read -r k; do
	"$SIM" --fail "$k:1000000:EIO" -- true ||
		fail "--fail rejects listed kind $k"
done <"$tmp/sim"
echo "readme_kinds: $(wc -l <"$tmp/sim") kinds ok"

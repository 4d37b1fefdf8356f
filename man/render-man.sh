#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# render-man.sh IN.md OUT: markdown man page -> roff, via pandoc.
# Two fix-ups make pandoc 2.x output `mandoc -Tlint` clean: its \f[C]
# (not a font mandoc knows) becomes \f[CR], and the .PP it puts right after
# a heading (a no-op) is dropped.
set -e
in="$1"
out="$2"
pandoc -s -f markdown -t man "$in" |
	sed -e 's/\\f\[C\]/\\f[CR]/g' |
	awk '(prev ~ /^\.S[HS]/) && $0 == ".PP" { prev = $0; next }
	     { print; prev = $0 }' >"$out.tmp"
mv "$out.tmp" "$out"

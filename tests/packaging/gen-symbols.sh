#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Regenerate debian/<package>.symbols from a finished package build:
#   cd <built tree> && gen-symbols.sh PACKAGE LIBRARY-GLOB > debian/PACKAGE.symbols
# e.g. gen-symbols.sh rdma-dm-libibverbs1 'libibverbs.so.1.*'
# Every symbol gets the upstream version (first release that has it).
set -euo pipefail
pkg=$1 lib=$2
version=$(dpkg-parsechangelog -SVersion | sed 's/-[^-]*$//')
out=$(mktemp)
trap 'rm -f "$out"' EXIT
dpkg-gensymbols -q -p"$pkg" -P"debian/$pkg" -v"$version" \
	-e"debian/$pkg/usr/lib/*/rdma-dm/lib/$lib" -O"$out"
echo '# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB'
echo "# Every exported symbol with its version node. dpkg-gensymbols fails the"
echo "# build when one disappears; new ones must be added here (lintian flags"
echo "# them otherwise). Regenerate: tests/packaging/gen-symbols.sh."
head -1 "$out"
echo '* Build-Depends-Package: rdma-dm-dev'
tail -n +2 "$out" | grep -v '^\*'

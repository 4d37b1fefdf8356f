#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Regenerate debian/<package>.symbols from a finished package build:
#   cd <built tree>
#   gen-symbols.sh PACKAGE LIBRARY-GLOB [PRIVATE-NODE] > debian/PACKAGE.symbols
# e.g. gen-symbols.sh rdma-dm-libibverbs1 'libibverbs.so.1.*' \
#	IBVERBS_PRIVATE_100
# Every symbol gets the upstream version (first release that has it). The
# private node's symbols collapse into one (symver) pattern, as rdma-core
# does: only providers of the very same version use them (their Depends says
# =), and they change with every provider-interface change.
set -euo pipefail
pkg=$1 lib=$2 private=${3:-}
version=$(dpkg-parsechangelog -SVersion | sed 's/-[^-]*$//')
out=$(mktemp)
trap 'rm -f "$out"' EXIT
dpkg-gensymbols -q -p"$pkg" -P"debian/$pkg" -v"$version" \
	-e"debian/$pkg/usr/lib/*/rdma-dm/lib/$lib" -O"$out"
echo '# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB'
echo "# Every exported symbol with its version node (the provider-private node"
echo "# as one pattern). dpkg-gensymbols fails the build when one disappears;"
echo "# new ones must be added here. Regenerate: tests/packaging/gen-symbols.sh."
head -1 "$out"
echo '* Build-Depends-Package: rdma-dm-dev'
if [ -n "$private" ]; then
	tail -n +2 "$out" | grep -v -e '^\*' -e "@$private " || true
	echo " (symver)$private $version"
else
	tail -n +2 "$out" | grep -v '^\*'
fi

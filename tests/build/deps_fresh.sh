#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# deps_test.py as on a freshly debootstrapped Debian 12, whose dpkg
# database records each package's Priority from its own .deb: apt's says
# "important" there (the archive's override, which an installed image may
# carry, says "required"). apt-get and apt-cache, which scripts here run,
# must still count as present on every Debian system.
#
# usage: deps_fresh.sh SOURCE_DIR
set -e
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
real=$(command -v dpkg-query)
cat >"$tmp/dpkg-query" <<END
#!/bin/sh
"$real" "\$@" | sed 's/^apt required\$/apt important/'
END
chmod +x "$tmp/dpkg-query"
# The stand-in must change what the check sees, or this test proves nothing.
PATH="$tmp:$PATH" dpkg-query -W -f='${Package} ${Priority}\n' apt |
	grep -qx 'apt important'
PATH="$tmp:$PATH" python3 "$(dirname "$0")/deps_test.py" "$1"

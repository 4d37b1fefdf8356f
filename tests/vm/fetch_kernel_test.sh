#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# fetch-kernel.sh on a machine whose apt sources lack the kernel's suite
# (no bookworm-security) and whose fallback mirror is unreachable: it must
# fail (exit 1), try its private apt state first, and say which package and
# which suite are missing and how to add them. No network is used.
#
# usage: fetch_kernel_test.sh FETCH_KERNEL_SH
set -uo pipefail
fetch=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# An apt with no sources at all, standing in for the machine's.
mkdir -p "$t/state/lists/partial" "$t/cache/archives/partial"
: > "$t/sources.list"
: > "$t/state/status"
cat > "$t/apt.conf" <<CONF
Dir::Etc::SourceList "$t/sources.list";
Dir::Etc::SourceParts "$t/none";
Dir::State "$t/state";
Dir::Cache "$t/cache";
Dir::State::status "$t/state/status";
Debug::NoLocking "true";
APT::Sandbox::User "$(id -un)";
CONF

APT_CONFIG=$t/apt.conf KERNEL_SECURITY_MIRROR=file://$t/no-mirror \
	"$fetch" "$t/cache-dir" linux-image-6.12-amd64 > "$t/out" 2>&1
rc=$?
cat "$t/out"
bad=0
[ $rc = 1 ] || { echo "FAIL: exit status $rc, want 1"; bad=1; }
for want in \
	"private apt state with bookworm-security from file://$t/no-mirror" \
	"FAIL: linux-image-6.12-amd64 is in Debian 12's bookworm-security suite" \
	"deb http://deb.debian.org/debian-security bookworm-security main" \
	"then run: apt-get update"; do
	grep -qF -- "$want" "$t/out" || {
		echo "FAIL: output lacks: $want"
		bad=1
	}
done
[ -e "$t/cache-dir/linux-image-6.12-amd64/kernel.env" ] && {
	echo "FAIL: a kernel.env was written"
	bad=1
}
[ $bad = 0 ] && echo "fetch-kernel names the missing suite: ok"
exit $bad

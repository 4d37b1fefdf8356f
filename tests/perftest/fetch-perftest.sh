#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Fetch Debian 12's perftest source package into a cache dir, without touching
# the machine's apt configuration: a private sources list (deb-src bookworm
# from the mirror the machine's own sources use) and private apt state and
# cache dirs under CACHE_DIR/apt. Only the first run needs the network.
#
# usage: fetch-perftest.sh CACHE_DIR
# Prints the unpacked source directory on stdout. Exits 77 when the mirror
# does not serve the source archives (some mirrors carry binaries only).
set -euo pipefail

cache=$(realpath -m "$1")
version=${PERFTEST_VERSION:-4.5+0.17-1}
apt_dir=$cache/apt
stamp=$cache/source.dir

log() { echo "[fetch-perftest] $*" >&2; }

if [ -s "$stamp" ] && [ -d "$(cat "$stamp")" ]; then
	cat "$stamp"
	exit 0
fi

# The machine's Debian mirror, as apt itself resolved it (one-line or deb822
# sources alike); deb.debian.org when the machine has none configured.
mirror=$(apt-cache policy 2>/dev/null |
	awk '$3 ~ /^bookworm\/main$/ && $2 ~ /^(https?|file):/ { print $2; exit }')
mirror=${mirror:-http://deb.debian.org/debian}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

mkdir -p "$apt_dir"/{etc,state/lists/partial,cache/archives/partial}
printf 'deb-src [signed-by=%s] %s bookworm main\n' "$keyring" "$mirror" \
	> "$apt_dir/etc/sources.list"
apt_opts=(
	-o "Dir::Etc::SourceList=$apt_dir/etc/sources.list"
	-o "Dir::Etc::SourceParts=$apt_dir/etc/none"
	-o "Dir::State=$apt_dir/state"
	-o "Dir::Cache=$apt_dir/cache"
	-o "Dir::State::status=$apt_dir/state/status"
	-o "APT::Sandbox::User=$(id -un)"
	-o "Debug::NoLocking=true"
)
touch "$apt_dir/state/status"

if ! ls "$apt_dir"/state/lists/*Sources* > /dev/null 2>&1; then
	log "private apt-get update from $mirror"
	timeout 600 apt-get "${apt_opts[@]}" -qq update >&2
fi

src=$cache/src
rm -rf "$src.tmp"
mkdir -p "$src.tmp"
log "apt-get source perftest=$version"
if ! (cd "$src.tmp" && timeout 600 apt-get "${apt_opts[@]}" -q source \
	"perftest=$version" > "$cache/apt-source.log" 2>&1); then
	grep -E '^(E:|Err)' "$cache/apt-source.log" >&2 || true
	rm -rf "$src.tmp"
	if grep -q '404' "$cache/apt-source.log"; then
		log "$mirror does not serve the perftest source archives"
		exit 77
	fi
	log "apt-get source failed (log: $cache/apt-source.log)"
	exit 1
fi
dir=$(find "$src.tmp" -mindepth 1 -maxdepth 1 -type d -name 'perftest-*')
[ -n "$dir" ] && [ -f "$dir/configure.ac" ] || {
	log "no unpacked perftest source in $src.tmp"
	exit 1
}
rm -rf "$src"
mv "$src.tmp" "$src"
dir=$src/$(basename "$dir")
echo "$dir" > "$stamp"
echo "$dir"

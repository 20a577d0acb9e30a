#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A private apt setup for Debian suites this machine's sources do not
# list (trixie, trixie-backports, bookworm-backports and the latter's
# sources, for mk/qemu.sh), on the Debian mirror the machine's apt is
# configured with.  The system's sources,
# lists and cache are left alone: everything lives in build/dl/apt.
#   mk/apt-suites.sh mirror          print the mirror's URI
#   mk/apt-suites.sh lists           write the sources list, update lists
#   mk/apt-suites.sh apt-get ARGS    apt-get with the private setup
set -e
TOP=$(cd "$(dirname "$0")/.." && pwd)
DIR=${DL:-$TOP/build/dl}/apt
SUITES="trixie trixie-backports bookworm-backports"

# The URI of the first source that serves Debian 12's main suite, from
# one-line (.list) or deb822 (.sources) files.
mirror() {
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -r "$f" ] || continue
		awk '$1 == "deb" { u = ""; for (i = 2; i <= NF; i++) {
			if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; continue }
			if (u == "") { u = $i; continue }
			if ($i == "bookworm") { print u; exit } break } }' "$f"
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		awk 'BEGIN { RS = ""; FS = "\n" } {
			u = ""; s = ""
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^URIs:/) { u = $i; sub(/^URIs: */, "", u); sub(/ .*/, "", u) }
				if ($i ~ /^Suites:/) s = " " substr($i, 8) " "
			}
			if (u != "" && s ~ / bookworm /) { print u; exit } }' "$f"
	done
}

opts() {
	echo "-o Dir::Etc::SourceList=$DIR/sources.list -o Dir::Etc::SourceParts=/dev/null
	      -o Dir::State::Lists=$DIR/lists -o Dir::Cache=$DIR/cache
	      -o APT::Architectures::=amd64 -o APT::Architectures::=arm64
	      -o Debug::NoLocking=1"
}

case "$1" in
mirror)
	m=$(mirror | head -1)
	[ -n "$m" ] || { echo "apt-suites: no Debian 12 mirror in /etc/apt" >&2; exit 1; }
	echo "$m" ;;
lists)
	# Fresh lists at most once a day, or when the sources changed.
	stamp=$DIR/lists/.updated
	m=$("$0" mirror)
	mkdir -p "$DIR/lists/partial" "$DIR/cache/archives/partial"
	key=signed-by=/usr/share/keyrings/debian-archive-keyring.gpg
	{
		for s in $SUITES; do
			echo "deb [arch=amd64,arm64 $key] $m $s main"
		done
		# QEMU's source (mk/qemu.sh).
		echo "deb-src [$key] $m bookworm-backports main"
	} > "$DIR/sources.list.new"
	if cmp -s "$DIR/sources.list.new" "$DIR/sources.list" &&
	   [ -n "$(find "$stamp" -mmin -1440 2>/dev/null)" ]; then
		rm "$DIR/sources.list.new"
		exit 0
	fi
	mv "$DIR/sources.list.new" "$DIR/sources.list"
	apt-get $(opts) -q update >"$DIR/update.log" 2>&1 ||
		{ tail -5 "$DIR/update.log" >&2; exit 1; }
	touch "$stamp" ;;
apt-get)
	shift
	exec apt-get $(opts) "$@" ;;
*)
	echo "usage: $0 mirror|lists|apt-get ARGS" >&2; exit 2 ;;
esac

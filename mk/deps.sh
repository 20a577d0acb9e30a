#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Install what building and testing need, on Debian 12, as root.  Quiet
# and quick when everything is already there.
#
# Debian 12's own archive gives the toolchains, QEMU's libraries and the
# 6.12 source.  What Debian 12 lacks comes from newer suites of the same
# Debian mirror this machine's apt already uses (read from /etc/apt; no
# host name is written here), through a private sources list and lists
# directory under build/dl/apt, so that the system's sources stay as
# they are.  Those packages are downloaded, checked against the pins
# below and unpacked with dpkg -x, never installed:
#   linux-source-7.3   the default base tree (trixie-backports)
#   qemu-system-arm    QEMU 10.0 built for Debian 12 (bookworm-backports),
#                      run from build/dl/qemu for one boot per host mode;
#                      the others run the same version built from source
#                      with our patches (mk/qemu.sh, last below)
# Debian's arm64 perf for the guests comes from mk/initramfs.sh, which
# uses the same private sources (mk/apt-suites.sh).
set -e

TOP=$(cd "$(dirname "$0")/.." && pwd)
DL=${DL:-$TOP/build/dl}

PKGS="linux-source-6.12 gcc-aarch64-linux-gnu libc6-dev-arm64-cross
      qemu-system-arm ccache mmdebstrap make gcc flex bison bc libssl-dev
      libelf-dev xz-utils cpio kmod rsync patch python3 python3-docutils git
      perl gcc-arm-linux-gnueabihf qemu-efi-aarch64
      ninja-build python3-venv libglib2.0-dev libpixman-1-dev libfdt-dev
      zlib1g-dev pkg-config bzip2"

# name version sha256 of the .deb, for each pinned download.
PINS="
linux-source-7.3 7.3.4-1~bpo13+1 703e369ddd4cce971452f5a593ee55df3a5c10c83caf0fa0df039633ed181ee3
qemu-system-arm 1:10.0.2+ds-2+deb13u1~bpo12+1 edebbab09db3882c48ef9c00049c7c6a2d76d195cb88d830baadd1fb705bbc66
qemu-system-common 1:10.0.2+ds-2+deb13u1~bpo12+1 23a4672a138832d7173855e981aa8282c73ef5e04e080fa7ada9f82c6b34f507
qemu-system-data 1:10.0.2+ds-2+deb13u1~bpo12+1 2d831088187087013b3fcbd19bdfb955b182a2d5a08f6dafa0ad1c6d2007fb4e
"

need_root() {
	[ "$(id -u)" = 0 ] && return 0
	echo "deps: $1 (run as root, or install them)" >&2
	exit 1
}

apt_install() {	# packages...
	missing=""
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q "install ok installed" || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	need_root "missing packages:$missing"
	echo "deps: installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	apt-get install -y -q --no-install-recommends $missing
}

# Download one pinned package into $DL/debs and check it; unpack it into
# DIR unless it is there already (DIR/.NAME stamp).
fetch_pinned() {	# name dir
	line=$(echo "$PINS" | grep "^$1 ")
	ver=$(echo "$line" | cut -d' ' -f2) sum=$(echo "$line" | cut -d' ' -f3)
	[ -e "$2/.$1-$sum" ] && return 0
	mkdir -p "$DL/debs"
	deb=$(ls "$DL/debs/$1"_*.deb 2>/dev/null | head -1)
	if [ -z "$deb" ] || [ "$(sha256sum "$deb" | cut -d' ' -f1)" != "$sum" ]; then
		rm -f "$DL/debs/$1"_*.deb
		"$TOP/mk/apt-suites.sh" lists
		echo "deps: downloading $1 $ver"
		(cd "$DL/debs" && "$TOP/mk/apt-suites.sh" apt-get download "$1=$ver") ||
			{ echo "deps: $1 $ver is not in the archive any more" >&2; exit 1; }
		deb=$(ls "$DL/debs/$1"_*.deb | head -1)
	fi
	have=$(sha256sum "$deb" | cut -d' ' -f1)
	if [ "$have" != "$sum" ]; then
		echo "deps: $deb: sha256 $have, pinned $sum: the archive changed it" >&2
		exit 1
	fi
	mkdir -p "$2"
	dpkg -x "$deb" "$2"
	touch "$2/.$1-$sum"
}

apt_install $PKGS

# The 7.3 source: the tarball inside Debian's package.
fetch_pinned linux-source-7.3 "$DL/linux-source-7.3"

# QEMU 10 and the Debian 12 libraries it links (its Depends, less the
# QEMU packages unpacked beside it).
for p in qemu-system-arm qemu-system-common qemu-system-data; do
	fetch_pinned "$p" "$DL/qemu"
done
libs=$(dpkg-deb -f "$(ls "$DL/debs"/qemu-system-arm_*.deb)" Depends |
	tr ',' '\n' | sed 's/(.*//; s/|.*//; s/ //g' | grep -v '^qemu-system-')
apt_install $libs

# build/dl/bin/qemu-system-aarch64 (first on the Makefile's PATH) runs
# QEMU 10 with its own firmware, option ROMs and modules, not the
# system's 7.2 ones (which it would try to load, and refuse, at start).
mkdir -p "$DL/bin"
moddir=$(ls -d "$DL"/qemu/usr/lib/*/qemu)
cat > "$DL/bin/qemu-system-aarch64" <<WRAP
#!/bin/sh
QEMU_MODULE_DIR="$moddir" \\
	exec "$DL/qemu/usr/bin/qemu-system-aarch64" -L "$DL/qemu/usr/share/qemu" "\$@"
WRAP
chmod +x "$DL/bin/qemu-system-aarch64"

# The QEMU the boots run: the same 10.0.2 built from Debian's source with
# qemu/patches/ (mk/qemu.sh; its firmware is the one unpacked above).
"$TOP/mk/qemu.sh" build

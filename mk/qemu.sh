#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the QEMU that the boots run: Debian's qemu 10.0.2 source (the
# version of the qemu-system-arm that mk/deps.sh unpacks) with the
# patches of qemu/patches/, aarch64-softmmu only, with the devices of
# its "minimal" set (the virt machine: all the boots use), through ccache.
#
#   mk/qemu.sh build     fetch, patch, configure, build (quick when done)
#   mk/qemu.sh series    print the patch series
#   mk/qemu.sh check     QEMU's checkpatch.pl over the series (make
#                        qemu-patches)
#
# The source is Debian's orig tarball, fetched through the private apt
# lists of mk/apt-suites.sh (a deb-src line for bookworm-backports) and
# checked against the pin below.  Debian's packaging patches for that
# version are no longer on the mirror; none of them touches target/arm.
# meson >= 1.5 (QEMU 10's floor) and pycotap come from bookworm-backports
# the same way, unpacked with dpkg -x.  Output: build/qemu/bin/qemu-system-aarch64,
# whose --version names the series ("pmuv3-kvm-<hash>").
set -e

TOP=$(cd "$(dirname "$0")/.." && pwd)
DL=${DL:-$TOP/build/dl}
OUT=$TOP/build/qemu
PATCHES=$TOP/qemu/patches
# ccache's paths relative to build/qemu, whatever the clone's location.
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
export CCACHE_BASEDIR=$OUT CCACHE_NOHASHDIR=1

QEMU_SRCPKG="qemu 1:10.0.2+ds-2+deb13u1~bpo12+1"
QEMU_ORIG="qemu_10.0.2+ds.orig.tar.xz 0901da33844a331bf8b3602b9c1fbd178e60b737c8e3ade678255bd090c9b9f1"
# name version sha256: QEMU 10's meson floor is 1.5 (Debian 12 has 1.0)
# and it wants pycotap (not in Debian 12), both from bookworm-backports.
PYDEPS="
meson 1.7.0-1~bpo12+1 4b86d2f2cb4431d03826fa4b2c3a89508edeb8140509e7e4b285285ec3175bbe
python3-pycotap 1.3.1-2~bpo12+1 3774be6e79318192059aa72e7b7a701e8b99bba2147befcc715650a0da65ca96
"
BUILD_DEPS="ninja-build python3-venv libglib2.0-dev libpixman-1-dev
	    libfdt-dev zlib1g-dev pkg-config"

# A hash of the series: the build's name, and the key of its tree.
series_id() {
	cat "$PATCHES"/*.patch | sha256sum | cut -c1-8
}

# Download $2 (a URI apt printed) to $1 unless it is there with sum $3.
fetch_file() {	# file uri sha256
	if [ ! -e "$1" ] || [ "$(sha256sum "$1" | cut -d' ' -f1)" != "$3" ]; then
		rm -f "$1"
		echo "qemu: downloading $(basename "$1")"
		/usr/lib/apt/apt-helper download-file "$2" "$1" "SHA256:$3" >/dev/null
	fi
	[ "$(sha256sum "$1" | cut -d' ' -f1)" = "$3" ] || {
		echo "qemu: $1: not the pinned sha256 $3" >&2; exit 1; }
}

# The orig tarball's URI, from the Sources index of the private lists.
orig_uri() {
	"$TOP/mk/apt-suites.sh" lists
	set -- $QEMU_SRCPKG
	"$TOP/mk/apt-suites.sh" apt-get -qq --print-uris source "$1=$2" 2>/dev/null |
		awk -v f="${QEMU_ORIG%% *}" '$2 == f { gsub("\047", "", $1); print $1 }'
}

# Unpack the pinned Python packages QEMU's configure needs into
# $DL/pydeps (PYTHONPATH for configure and ninja).
fetch_pydeps() {
	echo "$PYDEPS" | while read -r name ver sum; do
		[ -n "$name" ] || continue
		[ -e "$DL/pydeps/.$sum" ] && continue
		mkdir -p "$DL/debs" "$DL/pydeps"
		deb=$(ls "$DL/debs/$name"_*.deb 2>/dev/null | head -1)
		if [ -z "$deb" ] || [ "$(sha256sum "$deb" | cut -d' ' -f1)" != "$sum" ]; then
			rm -f "$DL/debs/$name"_*.deb
			"$TOP/mk/apt-suites.sh" lists
			(cd "$DL/debs" && "$TOP/mk/apt-suites.sh" apt-get -q download \
				"$name=$ver" 2>&1 | grep -v unsandboxed >&2 || :)
			deb=$(ls "$DL/debs/$name"_*.deb | head -1)
		fi
		[ "$(sha256sum "$deb" | cut -d' ' -f1)" = "$sum" ] || {
			echo "qemu: $deb: not the pinned sha256 $sum" >&2; exit 1; }
		dpkg -x "$deb" "$DL/pydeps"
		touch "$DL/pydeps/.$sum"
	done
}

# build/qemu/src: the orig tree with the series applied by git am (the
# stamp names the series).
prepare_tree() {	# id
	src=$OUT/src stamp=$OUT/src/.applied-$1
	[ -e "$stamp" ] && return 0
	set -- $QEMU_ORIG
	tarball=$DL/src/$1
	mkdir -p "$DL/src"
	[ -e "$tarball" ] && [ "$(sha256sum "$tarball" | cut -d' ' -f1)" = "$2" ] ||
		fetch_file "$tarball" "$(orig_uri)" "$2"
	rm -rf "$src" "$OUT/obj"
	mkdir -p "$src"
	tar -xJf "$tarball" --no-same-owner --strip-components=1 -C "$src"
	git -C "$src" init -q
	git -C "$src" add -A
	git -C "$src" -c user.name=base -c user.email=base@localhost \
		commit -q -m "qemu 10.0.2+ds (Debian's orig tarball)"
	git -C "$src" -c user.name=pmuv3-kvm -c user.email=pmuv3-kvm@localhost \
		am -q "$PATCHES"/*.patch ||
		{ echo "qemu: the series does not apply" >&2; exit 1; }
	# Debian's orig tarball leaves out the EDK2 images that meson wants
	# to exist (we build only qemu-system-aarch64, never those targets,
	# and the boots take firmware from Debian's qemu-system-data).
	for f in $(sed -n "s/^ *'\(edk2-.*\.fd\)',\$/\1/p" "$src/pc-bios/meson.build"); do
		[ -e "$src/pc-bios/$f.bz2" ] || bzip2 </dev/null >"$src/pc-bios/$f.bz2"
	done
	touch "$stamp"
}

build() {
	for p in $BUILD_DEPS; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q "install ok installed" ||
			{ echo "qemu: $p is missing (make deps installs it)" >&2; exit 1; }
	done
	id=$(series_id)
	if [ -x "$OUT/bin/qemu-system-aarch64" ] && [ -e "$OUT/obj/.built-$id" ]; then
		return 0
	fi
	fetch_pydeps
	prepare_tree "$id"
	mkdir -p "$OUT/obj"
	cd "$OUT/obj"
	if [ ! -e build.ninja ]; then
		echo "qemu: configuring 10.0.2 + $(ls "$PATCHES" | wc -l) patches (pmuv3-kvm-$id)"
		PYTHONPATH=$DL/pydeps/usr/lib/python3/dist-packages \
		"$OUT/src/configure" --python=/usr/bin/python3 \
			--target-list=aarch64-softmmu --cc="ccache gcc" \
			--with-pkgversion="pmuv3-kvm-$id" \
			--without-default-features --enable-fdt=system \
			--without-default-devices \
			--with-devices-aarch64=minimal \
			--enable-tcg --disable-docs --disable-werror \
			--disable-install-blobs \
			>"$OUT/configure.log" 2>&1 ||
			{ tail -20 "$OUT/configure.log" >&2; exit 1; }
	fi
	echo "qemu: building (log: build/qemu/build.log)"
	PYTHONPATH=$DL/pydeps/usr/lib/python3/dist-packages \
		ninja -j"$(nproc)" qemu-system-aarch64 >"$OUT/build.log" 2>&1 ||
		{ tail -30 "$OUT/build.log" >&2; exit 1; }
	mkdir -p "$OUT/bin"
	# Firmware and option ROMs as Debian's build uses them (its -L).
	cat > "$OUT/bin/qemu-system-aarch64" <<WRAP
#!/bin/sh
exec "$OUT/obj/qemu-system-aarch64" -L "$DL/qemu/usr/share/qemu" "\$@"
WRAP
	chmod +x "$OUT/bin/qemu-system-aarch64"
	touch "$OUT/obj/.built-$id"
	"$OUT/bin/qemu-system-aarch64" --version | head -1
}

case "$1" in
build)	build ;;
series)	cat "$PATCHES"/*.patch ;;
check)
	id=$(series_id)
	prepare_tree "$id"
	fail=0
	for p in "$PATCHES"/*.patch; do
		out=$("$OUT/src/scripts/checkpatch.pl" "$p" 2>&1) || fail=1
		echo "$(basename "$p"): $(echo "$out" | grep '^total:')"
		echo "$out" | grep -q '^total: 0 errors, 0 warnings' || { echo "$out"; fail=1; }
	done
	exit $fail ;;
*)	echo "usage: $0 build|series|check" >&2; exit 2 ;;
esac

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the test initramfs: Debian's arm64 perf and busybox (fetched as
# arm64 packages, never installed on the host), the libraries perf needs,
# our static guest programs and scripts.  Output: $BUILD/initramfs.cpio
set -e

TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
CROSS_COMPILE=${CROSS_COMPILE:-aarch64-linux-gnu-}
ROOTFS_TAR=$BUILD/debian-arm64-perf.tar
STAGE=$BUILD/initramfs
OUT=$BUILD/initramfs.cpio

if [ ! -s "$ROOTFS_TAR" ]; then
	echo "  FETCH   linux-perf busybox-static (arm64)"
	mmdebstrap --quiet --variant=extract --arch=arm64 \
		--include=linux-perf,busybox-static bookworm "$BUILD/partial.tar"
	mv "$BUILD/partial.tar" "$ROOTFS_TAR"
fi

rm -rf "$STAGE" && mkdir -p "$STAGE/debian"
tar -xf "$ROOTFS_TAR" -C "$STAGE/debian"

R=$STAGE/root
mkdir -p "$R/bin" "$R/lib/aarch64-linux-gnu" "$R/proc" "$R/sys" "$R/dev" \
	 "$R/tmp" "$R/etc" "$R/tests" "$R/usr/bin"
cp "$STAGE/debian/usr/bin/perf" "$R/usr/bin/perf"
cp "$STAGE/debian/bin/busybox" "$R/bin/busybox"

# perf's shared-library closure, resolved inside the arm64 tree.
libdirs="$STAGE/debian/lib/aarch64-linux-gnu $STAGE/debian/usr/lib/aarch64-linux-gnu"
find_lib() {
	for d in $libdirs; do
		[ -e "$d/$1" ] && { echo "$d/$1"; return; }
	done
}
todo="$R/usr/bin/perf"
seen=" "
while [ -n "$todo" ]; do
	set -- $todo; f=$1; shift; todo="$*"
	for n in $(${CROSS_COMPILE}readelf -d "$f" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p'); do
		case "$seen" in *" $n "*) continue ;; esac
		seen="$seen$n "
		p=$(find_lib "$n")
		[ -n "$p" ] || { echo "initramfs: $n not found" >&2; exit 1; }
		cp -L "$p" "$R/lib/aarch64-linux-gnu/$n"
		todo="$todo $R/lib/aarch64-linux-gnu/$n"
	done
done
cp -L "$(find_lib ld-linux-aarch64.so.1)" "$R/lib/ld-linux-aarch64.so.1"

for c in "$TOP"/tests/guest/*.c; do
	${CROSS_COMPILE}gcc -static -O1 -Wall -pthread -o "$R/bin/$(basename "$c" .c)" "$c"
done
# KVM test programs, when mk/kvm-tests.sh has built them.
[ -d "$BUILD/kvm-bin" ] && cp "$BUILD"/kvm-bin/* "$R/bin/"
cp "$TOP"/tests/guest/*.sh "$R/tests/"
cp "$TOP/tests/guest/init" "$R/init"
chmod +x "$R/init" "$R"/tests/*.sh

(cd "$R" && find . | sort | cpio --quiet -o -H newc) > "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
echo "  CPIO    $OUT ($(du -h "$OUT" | cut -f1))"

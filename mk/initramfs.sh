#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the test initramfs: Debian's arm64 perf and busybox (fetched as
# arm64 packages, never installed on the host), the libraries perf needs,
# our static guest programs and scripts.  Output: $BUILD/initramfs.cpio
#
# And the initramfs of the boots that run a Linux guest under KVM:
# $BUILD/initramfs-vm.cpio, the same archive followed by a second one
# (the kernel unpacks both) with Debian's arm64 QEMU and its libraries,
# the guest's kernel (ours: the same Image, which runs at EL1 as a KVM
# guest) and the guest's initramfs (the first archive: perf, busybox and
# our programs).
set -e

TOP=$(cd "$(dirname "$0")/.." && pwd)
BASE=${BASE:-7.3}
BUILD=${BUILD:-$TOP/build/$BASE}
CROSS_COMPILE=${CROSS_COMPILE:-aarch64-linux-gnu-}
ROOTFS_TAR=$BUILD/debian-arm64-perf.tar
QEMU_TAR=$BUILD/debian-arm64-qemu.tar
STAGE=$BUILD/initramfs
OUT=$BUILD/initramfs.cpio
OUT_VM=$BUILD/initramfs-vm.cpio
IMAGE=${IMAGE:-$BUILD/kernel/arch/arm64/boot/Image}

# The guests' perf is the base's: Debian's linux-perf 7.3 (trixie-backports,
# on the mirror mk/apt-suites.sh finds) for the 7.3 base, Debian 12's for
# the 6.12 one.
PERF_73=7.3.4-1~bpo13+1
if [ ! -s "$ROOTFS_TAR" ]; then
	if [ "${BASE:-7.3}" = 7.3 ]; then
		echo "  FETCH   linux-perf $PERF_73 busybox-static (arm64, trixie)"
		m=$("$TOP/mk/apt-suites.sh" mirror)
		mmdebstrap --quiet --variant=extract --arch=arm64 \
			--include="linux-perf=$PERF_73,busybox-static" trixie \
			"$BUILD/partial.tar" "deb $m trixie main" \
			"deb $m trixie-backports main"
	else
		echo "  FETCH   linux-perf busybox-static (arm64, bookworm)"
		mmdebstrap --quiet --variant=extract --arch=arm64 \
			--include=linux-perf,busybox-static bookworm "$BUILD/partial.tar"
	fi
	mv "$BUILD/partial.tar" "$ROOTFS_TAR"
fi
if [ ! -s "$QEMU_TAR" ]; then
	echo "  FETCH   qemu-system-arm (arm64)"
	mmdebstrap --quiet --variant=extract --arch=arm64 \
		--include=qemu-system-arm bookworm "$BUILD/partial.tar"
	mv "$BUILD/partial.tar" "$QEMU_TAR"
fi

rm -rf "$STAGE" && mkdir -p "$STAGE/debian"
tar -xf "$ROOTFS_TAR" -C "$STAGE/debian"

R=$STAGE/root
mkdir -p "$R/bin" "$R/lib/aarch64-linux-gnu" "$R/proc" "$R/sys" "$R/dev" \
	 "$R/tmp" "$R/etc" "$R/tests" "$R/usr/bin"
cp "$STAGE/debian/usr/bin/perf" "$R/usr/bin/perf"
# Debian 13 has merged /usr: its programs and loader sit under usr/.
usr_or_root() {	# tree path
	if [ -e "$1/$2" ]; then echo "$1/$2"; else echo "$1/usr/$2"; fi
}
cp "$(usr_or_root "$STAGE/debian" bin/busybox)" "$R/bin/busybox"

# A program's shared-library closure, resolved inside an arm64 tree and
# copied into ROOT/lib/aarch64-linux-gnu; libraries already in HAVE (a
# root) are left out.
copy_libs() {	# program tree root [have]
	libdirs="$2/lib/aarch64-linux-gnu $2/usr/lib/aarch64-linux-gnu"
	root=$3
	have=${4:-/nonexistent}
	todo=$1
	seen=" "
	while [ -n "$todo" ]; do
		set -- $todo; f=$1; shift; todo="$*"
		for n in $(${CROSS_COMPILE}readelf -d "$f" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p'); do
			case "$seen" in *" $n "*) continue ;; esac
			seen="$seen$n "
			p=""
			for d in $libdirs; do
				[ -e "$d/$n" ] && { p=$d/$n; break; }
			done
			[ -n "$p" ] || { echo "initramfs: $n not found" >&2; exit 1; }
			[ -e "$have/lib/aarch64-linux-gnu/$n" ] ||
				cp -L "$p" "$root/lib/aarch64-linux-gnu/$n"
			todo="$todo $p"
		done
	done
}
copy_libs "$R/usr/bin/perf" "$STAGE/debian" "$R"
cp -L "$(usr_or_root "$STAGE/debian" lib/ld-linux-aarch64.so.1)" "$R/lib/ld-linux-aarch64.so.1"

for c in "$TOP"/tests/guest/*.c; do
	${CROSS_COMPILE}gcc -static -O1 -Wall -pthread -o "$R/bin/$(basename "$c" .c)" "$c"
done
# KVM test programs, when mk/kvm-tests.sh has built them.
[ -d "$BUILD/kvm-bin" ] && cp "$BUILD"/kvm-bin/* "$R/bin/"
cp "$TOP"/tests/guest/*.sh "$R/tests/"
cp "$TOP/tests/guest/init" "$R/init"
chmod +x "$R/init" "$R"/tests/*.sh

cp "$TOP/tests/scan-console.sh" "$R/tests/"
# Where spin() of /bin/loop lies ("start end", hex), for telling which
# samples of a guest's loop a host-side perf record caught.
set -- $(${CROSS_COMPILE}nm -S "$R/bin/loop" | awk '$4 == "spin" { print $1, $2 }')
[ $# = 2 ] || { echo "initramfs: no spin() in loop" >&2; exit 1; }
printf '%x %x\n' $((0x$1)) $((0x$1 + 0x$2)) > "$R/tests/loop.spin"

(cd "$R" && find . | sort | cpio --quiet -o -H newc) > "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
echo "  CPIO    $OUT ($(du -h "$OUT" | cut -f1))"

# The Linux-guest additions, as a second archive after the first.
V=$STAGE/vm
rm -rf "$STAGE/qemu" "$V" && mkdir -p "$STAGE/qemu" "$V/usr/bin" \
	"$V/lib/aarch64-linux-gnu" "$V/guest"
tar -xf "$QEMU_TAR" -C "$STAGE/qemu"
cp "$STAGE/qemu/usr/bin/qemu-system-aarch64" "$V/usr/bin/"
copy_libs "$V/usr/bin/qemu-system-aarch64" "$STAGE/qemu" "$V" "$R"
# An event filter for Debian's QEMU, which sets none (LD_PRELOAD).
${CROSS_COMPILE}gcc -shared -fPIC -O1 -Wall -o "$V/lib/pmu_filter.so" \
	"$TOP/tests/guest/preload/pmu_filter.c"
cp "$IMAGE" "$V/guest/Image"
# The guest kernel's symbols, for perf kvm --guestkallsyms (System.map
# has /proc/kallsyms' format).
cp "$(dirname "$IMAGE")/../../../System.map" "$V/guest/System.map"
cp "$OUT" "$V/guest/initramfs.cpio"
(cd "$V" && find . | sort | cpio --quiet -o -H newc) > "$OUT_VM.tmp"
cat "$OUT" "$OUT_VM.tmp" > "$OUT_VM"
rm "$OUT_VM.tmp"
echo "  CPIO    $OUT_VM ($(du -h "$OUT_VM" | cut -f1))"

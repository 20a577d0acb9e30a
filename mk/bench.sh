#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make bench: the stock kernel and ours, same base tree and config, both
# booted under the same QEMU in VHE, nVHE and protected modes, running
# the same static test programs; figures are PMU counts (QEMU -icount,
# deterministic), not time.  Writes BENCHMARKS.md.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
CROSS_COMPILE=${CROSS_COMPILE:-aarch64-linux-gnu-}
STOCK=$BUILD/stock
OUT=$BUILD/bench
MODES="vhe nvhe protected"
mkdir -p "$OUT"

# The stock kernel: base tree, no overlay, no glue, same config.  Its
# tree and build sit at the same relative paths as ours (src/, kernel/)
# so that ccache shares every object the overlay does not touch.
if [ ! -f "$STOCK/src/.stamp" ]; then
	rm -rf "$STOCK/src" && mkdir -p "$STOCK/src"
	rsync -a "$BUILD/base/" "$STOCK/src/"
	touch "$STOCK/src/.stamp"
fi
mkdir -p "$STOCK/kernel"
KMAKE="make -C $STOCK/src O=$STOCK/kernel ARCH=arm64 CROSS_COMPILE=$CROSS_COMPILE"
if [ ! -f "$STOCK/kernel/.config" ] ||
   [ "$TOP/arch/arm64/configs/pmuv3_kvm.config" -nt "$STOCK/kernel/.config" ]; then
	KCONFIG_ALLCONFIG="$TOP/arch/arm64/configs/pmuv3_kvm.config" \
		$KMAKE CC="ccache ${CROSS_COMPILE}gcc" allnoconfig >/dev/null
fi
echo "  BUILD   stock kernel"
$KMAKE CC="ccache ${CROSS_COMPILE}gcc" -j"$(nproc)" Image >"$OUT/stock-build.log" 2>&1 ||
	{ tail -20 "$OUT/stock-build.log"; exit 1; }

for kernel in stock ours; do
	img=$BUILD/kernel/arch/arm64/boot/Image
	[ $kernel = stock ] && img=$STOCK/kernel/arch/arm64/boot/Image
	for mode in $MODES; do
		echo "  BOOT    $kernel $mode"
		KERNEL=$img BOOT_TIMEOUT=600 "$TOP/tests/boot.sh" "$mode" bench \
			"$OUT/$kernel-$mode.log" || true
		grep '^BENCH ' "$OUT/$kernel-$mode.log" | cut -d' ' -f2- \
			> "$OUT/$kernel-$mode.txt" || true
	done
done

python3 "$TOP/mk/bench-report.py" "$OUT" \
	"$(sed -n 's/^\(VERSION\|PATCHLEVEL\|SUBLEVEL\) = //p' "$BUILD/base/Makefile" | paste -sd.)" \
	"$(qemu-system-aarch64 --version | head -1)" > "$TOP/BENCHMARKS.md"
echo "  WROTE   BENCHMARKS.md"
cat "$TOP/BENCHMARKS.md"

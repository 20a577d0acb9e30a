#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make bench: the stock kernel, stock with the stock fixes (fixes/) and
# ours, same base tree and config, all booted under the same QEMU in VHE,
# nVHE and protected modes, running the same static test programs;
# figures are PMU counts (QEMU -icount, deterministic), not time.  Writes
# BENCHMARKS.md.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
BASE=${BASE:-7.3}
BUILD=${BUILD:-$TOP/build/$BASE}
# QEMU 10.0.2 with qemu/patches/ (mk/qemu.sh), then Debian's, before the system's.
PATH=$TOP/build/qemu/bin:$TOP/build/dl/bin:$PATH
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
export CCACHE_BASEDIR="$STOCK"	# paths relative to stock/ as ours to $BUILD
KMAKE="make -C $STOCK/src O=$STOCK/kernel ARCH=arm64 CROSS_COMPILE=$CROSS_COMPILE"
if [ ! -f "$STOCK/kernel/.config" ] ||
   [ "$TOP/arch/arm64/configs/pmuv3_kvm.config" -nt "$STOCK/kernel/.config" ]; then
	KCONFIG_ALLCONFIG="$TOP/arch/arm64/configs/pmuv3_kvm.config" \
		$KMAKE CC="ccache ${CROSS_COMPILE}gcc" allnoconfig >/dev/null
fi
echo "  BUILD   stock kernel"
$KMAKE CC="ccache ${CROSS_COMPILE}gcc" -j"$(nproc)" Image >"$OUT/stock-build.log" 2>&1 ||
	{ tail -20 "$OUT/stock-build.log"; exit 1; }

# Stock with the stock fixes of fixes/<BASE>/ (mk/fixes.sh): the KVM
# switch rows only, for what each stock bug costs and what its fix buys.
echo "  BUILD   stock+fixes kernel"
"$TOP/mk/fixes.sh" kernel >"$OUT/fixes-build.log" 2>&1 ||
	{ tail -20 "$OUT/fixes-build.log"; exit 1; }

# Each host kernel boots each mode on one CPU, where QEMU's counts hold
# no other vCPU's work (with two, the exactness rows read thousands where
# the truth is 0), for the KVM switch figures (bench), a Linux guest's
# (vm_bench: the guest's kernel is ours on either host, the same guest)
# and perf's hot paths (hotpath); then the a57 PMU (32-bit counters:
# chained pairs) and VHE on 2 and 4 CPUs for how the context switch
# grows.  BENCH lines go to
# $OUT/<kernel>-<mode>.txt (a57 and the CPU counts into vhe's).
# A boot that fails (a timeout) leaves its figures out of the tables
# ("n/a"): it is named in $OUT/failed, and make bench fails after
# writing BENCHMARKS.md.  The protected boots' Linux guests pay the
# hypervisor's ~12,600 instructions an exit: 900 s ran out beside the
# other kernel's boot.
boot_bench() {	# kernel mode jobs txt [cpus]
	log=$OUT/$1-$2-$(echo "$3" | tr ',' '+')${5:+-smp$5}.log
	echo "  BOOT    $1 $2 $3${5:+ (-smp $5)}"
	case $2 in protected*) t=1800 ;; *) t=900 ;; esac
	KERNEL=$img BOOT_TIMEOUT=$t QEMU_SMP=${5:-2} "$TOP/tests/boot.sh" \
		"$2" "$3" "$log" || echo "$1 $2 $3${5:+ (-smp $5)}: see $log" >> "$OUT/failed"
	grep '^BENCH ' "$log" | cut -d' ' -f2- >> "$OUT/$1-$4.txt" || true
}
# Stock's boots, then stock+fixes', run beside ours, each kernel's in
# turn: under -icount each QEMU is one host thread counting instructions,
# not time, so the figures are those of boots one after another.
bench_kernel() {	# kernel
	img=$BUILD/kernel/arch/arm64/boot/Image
	[ $1 = stock ] && img=$STOCK/kernel/arch/arm64/boot/Image
	[ $1 = fixes ] && img=$BUILD/fixes/kernel/arch/arm64/boot/Image
	for mode in $MODES; do
		: > "$OUT/$1-$mode.txt"
		if [ $1 = fixes ]; then
			boot_bench $1 $mode-up bench $mode
		else
			boot_bench $1 $mode-up bench,vm_bench,hotpath $mode
		fi
	done
	[ $1 = fixes ] && return
	boot_bench $1 a57-up hotpath vhe
	boot_bench $1 vhe hotpath vhe 2
	boot_bench $1 vhe hotpath vhe 4
}
rm -f "$OUT/failed"
{ bench_kernel stock; bench_kernel fixes; } & stock_pid=$!
bench_kernel ours
wait $stock_pid

python3 "$TOP/mk/bench-report.py" "$OUT" \
	"$(sed -n 's/^\(VERSION\|PATCHLEVEL\|SUBLEVEL\) = //p' "$BUILD/base/Makefile" | paste -sd.)" \
	"$(qemu-system-aarch64 --version | head -1)" > "$TOP/BENCHMARKS.md"
echo "  WROTE   BENCHMARKS.md"
cat "$TOP/BENCHMARKS.md"
if [ -e "$OUT/failed" ]; then
	echo "make bench: boots that failed (their figures are n/a):" >&2
	sed 's/^/  /' "$OUT/failed" >&2
	exit 1
fi

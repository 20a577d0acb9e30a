#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Cross-build, statically, the KVM selftests the boots run: ours
# (tools/testing/selftests/kvm/arm64/, registered in the selftests
# Makefile by glue 0031) and the base tree's own for what we touch (the
# PMU, the hypercalls and their firmware registers, the SMCCC filter, the
# vGIC's interrupt injection and its initialisation), then on the same
# library our two helpers that are no selftests: pmu_bench (make bench's
# figures) and vpmu_pmceid (tests/kvm/).  Output: $BUILD/kvm-bin/ (each
# under its own name).
set -e
TOP=$(cd "$(dirname "$0")/.." && pwd)
BASE=${BASE:-7.3}
BUILD=${BUILD:-$TOP/build/$BASE}
CROSS_COMPILE=${CROSS_COMPILE:-aarch64-linux-gnu-}
# With arguments, another tree's selftests and none of tests/kvm/
# (mk/fixes.sh): mk/kvm-tests.sh SRC KOBJ OUT BIN "SELFTESTS".
SRC=${1:-$BUILD/src}
KOBJ=${2:-$BUILD/kernel}
HDR=$KOBJ/kvm-hdr
OUT=${3:-$BUILD/kvm-selftests}
BIN=${4:-$BUILD/kvm-bin}
KST=$SRC/tools/testing/selftests/kvm
SELFTESTS=${5:-}
if [ -z "$SELFTESTS" ]; then
	SELFTESTS="perfreg_abi pmu_concurrency pmu_split pmu_stress vpmu_hostile
		vpmu_self_count vpmu_counter_access hypercalls smccc_filter
		get-reg-list"
	# The direct PMU's and protected VMs' (ours), and the vGIC's, for
	# glue 0022 to 0024: 7.3 only (6.12's vGIC is stock).
	case $BASE in 6.*) ;; *) SELFTESTS="$SELFTESTS pmu_direct pvm_direct
		pvm_hidden vgic_irq vgic_init" ;; esac
fi
# The arm64 directory is aarch64/ up to 6.13.
A=arm64
[ -d "$KST/$A" ] || A=aarch64

make -s -C "$SRC" O="$KOBJ" ARCH=arm64 CROSS_COMPILE="$CROSS_COMPILE" \
	headers_install INSTALL_HDR_PATH="$HDR"
# The selftests library warns about the uapi headers' __BITS_PER_LONG;
# keep its output in a log unless it fails.
mkdir -p "$BUILD/logs"
log=$BUILD/logs/$(echo "${OUT#$BUILD/}" | tr / -).log
make -s -C "$KST" ARCH=arm64 CROSS_COMPILE="$CROSS_COMPILE" OUTPUT="$OUT" \
	KHDR_INCLUDES="-I$HDR/include" EXTRA_CFLAGS=-static LDFLAGS=-static \
	$(for t in $SELFTESTS; do
		if [ -e "$KST/$t.c" ]; then echo "$OUT/$t"; else echo "$OUT/$A/$t"; fi
	  done) >"$log" 2>&1 || { tail -30 "$log"; exit 1; }

[ $# -gt 0 ] || rm -rf "$BIN"
mkdir -p "$BIN"
for t in $SELFTESTS; do
	if [ -e "$KST/$t.c" ]; then cp "$OUT/$t" "$BIN/"; else cp "$OUT/$A/$t" "$BIN/"; fi
done
[ $# -gt 0 ] && exit 0
# The flags the selftests build uses for its own programs, and our
# selftests' directory for the headers the helpers share with them.
CFLAGS="-D_GNU_SOURCE -Wall -Werror=implicit-function-declaration -Wstrict-prototypes -O2 -std=gnu99 -DCONFIG_64BIT
	-fno-builtin-memcmp -fno-builtin-memcpy -fno-builtin-memset
	-fno-builtin-strnlen -fno-stack-protector -fno-PIE -fno-strict-aliasing
	-I$SRC/tools/include -I$SRC/tools/arch/arm64/include
	-I$SRC/tools/arch/arm64/include/generated -I$HDR/include
	-I$KST/include -I$KST/include/$A -I$KST/lib/$A -I$KST/$A
	-I$SRC/tools/testing/selftests"
LIBS=$(ls "$OUT"/lib/*.o "$OUT"/lib/$A/*.o)
for c in "$TOP"/tests/kvm/*.c; do
	p=$(basename "$c" .c)
	${CROSS_COMPILE}gcc $CFLAGS -static -no-pie -pthread "$c" $LIBS \
		-ldl -o "$BIN/$p"
	echo "  KVMTEST $BIN/$p"
done

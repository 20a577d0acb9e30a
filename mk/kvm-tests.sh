#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Cross-build, statically, the base tree's KVM selftests library with
# vpmu_counter_access, and our KVM test programs (tests/kvm/*.c) on top
# of it.  Output: $BUILD/kvm-bin/.
set -e
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
CROSS_COMPILE=${CROSS_COMPILE:-aarch64-linux-gnu-}
SRC=$BUILD/src
HDR=$BUILD/kvm-hdr
OUT=$BUILD/kvm-selftests
BIN=$BUILD/kvm-bin
KST=$SRC/tools/testing/selftests/kvm

make -s -C "$SRC" O="$BUILD/kernel" ARCH=arm64 CROSS_COMPILE="$CROSS_COMPILE" \
	headers_install INSTALL_HDR_PATH="$HDR"
# The selftests library warns about the uapi headers' __BITS_PER_LONG;
# keep its output in a log unless it fails.
mkdir -p "$BUILD/logs"
make -s -C "$KST" ARCH=arm64 CROSS_COMPILE="$CROSS_COMPILE" OUTPUT="$OUT" \
	KHDR_INCLUDES="-I$HDR/include" EXTRA_CFLAGS=-static LDFLAGS=-static \
	"$OUT/aarch64/vpmu_counter_access" >"$BUILD/logs/kvm-selftests.log" 2>&1 ||
	{ tail -30 "$BUILD/logs/kvm-selftests.log"; exit 1; }

mkdir -p "$BIN"
cp "$OUT/aarch64/vpmu_counter_access" "$BIN/"
# The flags the selftests build uses for its own programs.
CFLAGS="-D_GNU_SOURCE -Wall -Wstrict-prototypes -O2 -std=gnu99 -DCONFIG_64BIT
	-fno-builtin-memcmp -fno-builtin-memcpy -fno-builtin-memset
	-fno-builtin-strnlen -fno-stack-protector -fno-PIE -fno-strict-aliasing
	-I$SRC/tools/include -I$SRC/tools/arch/arm64/include
	-I$SRC/tools/arch/arm64/include/generated -I$HDR/include
	-I$KST/include -I$KST/include/aarch64 -I$KST/lib/aarch64
	-I$SRC/tools/testing/selftests"
LIBS=$(ls "$OUT"/lib/*.o "$OUT"/lib/aarch64/*.o)
for c in "$TOP"/tests/kvm/*.c; do
	p=$(basename "$c" .c)
	${CROSS_COMPILE}gcc $CFLAGS -static -no-pie -pthread "$c" $LIBS \
		-ldl -o "$BIN/$p"
	echo "  KVMTEST $BIN/$p"
done

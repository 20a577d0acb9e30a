#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Every commit of `make patches` builds and passes its KUnit suites:
# apply the series one patch at a time onto a copy of the base tree, and
# after each build the objects it touches (drivers/perf/, arch/arm64/kvm/)
# with our config plus the KUnit suites, then run the suites that exist
# by then with the tree's own kunit.py (the el1 QEMU setup, as make
# check's first KUnit run); Image once at the end.  Prints a line per
# patch; exits 1 at the first that does not build or fails a suite (log:
# build/logs/patches-check.log).  PATCHES_FROM=N applies patches 1 to
# N - 1 without building them, to check the rest of a series whose
# start was checked before.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
BASE=${BASE:-7.3}
BUILD=${BUILD:-$TOP/build/$BASE}
CROSS_COMPILE=${CROSS_COMPILE:-aarch64-linux-gnu-}
# The series tree and its KUnit build sit as src/ and kunit/ do in
# $BUILD, under a ccache base directory of their own, so that the KUnit
# kernel's unchanged objects come from make kunit's build, where one ran
# (make check runs the suites in its boot kernel and builds none).
# pmuv3_kvm.config builds the suites in.
SERIES=$BUILD/series
TREE=$SERIES/src
OBJ=$SERIES/kernel
export CCACHE_BASEDIR="$SERIES"
LOG=$BUILD/logs/patches-check.log
mkdir -p "$BUILD/logs"

rm -rf "$TREE" && mkdir -p "$TREE"
rsync -a "$BUILD/base/" "$TREE/"
mkdir -p "$OBJ"
cp "$TOP/arch/arm64/configs/pmuv3_kvm.config" "$OBJ/fragment.config"
k="make -C $TREE O=$OBJ ARCH=arm64 CROSS_COMPILE=$CROSS_COMPILE -j$(nproc)"
: > "$LOG"
FROM=${PATCHES_FROM:-1}
for p in "$BUILD"/patches/*.patch; do
	echo "== $(basename "$p")" >> "$LOG"
	patch -s -p1 -d "$TREE" < "$p" >> "$LOG" 2>&1
	nr=$(basename "$p" | sed 's/^0*\([0-9][0-9]*\)-.*/\1/')
	if [ "$nr" -lt "$FROM" ]; then
		echo "applied: $(basename "$p") (PATCHES_FROM=$FROM)"
		continue
	fi
	if KCONFIG_ALLCONFIG="$OBJ/fragment.config" $k CC="ccache ${CROSS_COMPILE}gcc" \
		allnoconfig >> "$LOG" 2>&1 &&
	   $k CC="ccache ${CROSS_COMPILE}gcc" drivers/perf/ arch/arm64/kvm/ >> "$LOG" 2>&1; then
		:
	else
		echo "DOES NOT BUILD: $(basename "$p") (see $LOG)"
		grep -m5 'error' "$LOG" || true
		exit 1
	fi
	if [ ! -f "$TREE/drivers/perf/tests/.kunitconfig" ]; then
		echo "builds: $(basename "$p") (no KUnit suite yet)"
		continue
	fi
	# mk/kunit.sh with the series as its build: $SERIES/src, kunit/, logs/.
	BUILD=$SERIES "$TOP/mk/kunit.sh" el1 > /dev/null || true
	cat "$SERIES/logs/kunit-el1.log" >> "$LOG"
	summary=$(grep -a 'Testing complete' "$SERIES/logs/kunit-el1.log" | tail -1)
	case "$summary" in
	*"passed: "[0-9]*)
		if echo "$summary" | grep -q -E '(failed|crashed|skipped|errors): [1-9]'; then
			echo "KUNIT FAILS: $(basename "$p"): ${summary#*] }"
			exit 1
		fi
		echo "builds, KUnit ${summary#*Ran }: $(basename "$p")" ;;
	*)	echo "KUNIT FAILS: $(basename "$p"): no result (see $LOG)"
		exit 1 ;;
	esac
done
if $k CC="ccache ${CROSS_COMPILE}gcc" Image >> "$LOG" 2>&1; then
	echo "builds: the whole series, Image"
else
	echo "DOES NOT BUILD: Image after the series (see $LOG)"
	exit 1
fi

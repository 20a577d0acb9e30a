#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Run the KUnit suites of drivers/perf/tests with the prepared tree's own
# tools/testing/kunit/kunit.py, unchanged, once per QEMU setup named on
# the command line (tests/kunit/arm64_<mode>.py).  The pure suites take
# the host mode as an argument, so they run once, in the el1 setup
# (KUNIT_ALL_MODE); the others run only the hardware suite
# (KUNIT_HW_SUITES), the one
# whose result depends on the EL the kernel runs at.  Each run's log goes
# to build/logs/kunit-<mode>.log; a summary line per run goes to stdout.
#
# Two ways to get the kernel:
#  - KUNIT_KERNEL unset: "kunit.py run --kunitconfig=drivers/perf/tests",
#    which configures and builds a kernel of its own in build/kunit, as
#    kernel CI runs the suites (make patches-check, make kunit);
#  - KUNIT_KERNEL=DIR: "kunit.py exec" on the kernel already built in DIR
#    (O=), whose config has the suites built in with
#    CONFIG_KUNIT_DEFAULT_ENABLED=n (pmuv3_kvm.config): make check, which
#    saves a kernel build per base that way.  "kunit.py config" checks
#    on the command line ("config", in seconds) whether the kunitconfig
#    still resolves against the tree (every option it names is set),
#    which is what kernel CI's run starts from.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BASE=${BASE:-7.3}
BUILD=${BUILD:-$TOP/build/$BASE}
# QEMU 10.0.2 with qemu/patches/ (mk/qemu.sh), then Debian's, before the system's.
PATH=$TOP/build/qemu/bin:$TOP/build/dl/bin:$PATH
CROSS_COMPILE=${CROSS_COMPILE:-aarch64-linux-gnu-}
JOBS=${JOBS:-$(nproc)}
KUNIT_KERNEL=${KUNIT_KERNEL:-}
# ccache's paths relative to this base's build, as the Makefile's builds
# (make check runs the 6.12 leg from within the 7.3 make).
export CCACHE_BASEDIR="$BUILD"
mkdir -p "$BUILD/logs"

HW_SUITES=${KUNIT_HW_SUITES:-arm_pmuv3_hw}
ALL_MODE=${KUNIT_ALL_MODE:-el1}

rc=0
for mode in "$@"; do
	# "config": does the kunitconfig resolve against this tree?
	if [ "$mode" = config ]; then
		log=$BUILD/logs/kunit-config.log
		# kunit.py reuses a .config it made from the same kunitconfig
		# without asking Kconfig again: ask it every time.
		rm -f "$BUILD/kunit-config/.config"
		if (cd "$BUILD/src" && ./tools/testing/kunit/kunit.py config \
			--kunitconfig=drivers/perf/tests \
			--qemu_config="$TOP/tests/kunit/arm64_$ALL_MODE.py" \
			--cross_compile="$CROSS_COMPILE" \
			--build_dir="$BUILD/kunit-config") >"$log" 2>&1; then
			echo "kunit config: drivers/perf/tests resolves"
		else
			echo "kunit config: drivers/perf/tests does not resolve (see $log)"
			rc=1
		fi
		continue
	fi
	log=$BUILD/logs/kunit-$mode.log
	filter=""
	[ "$mode" = "$ALL_MODE" ] || filter=$HW_SUITES
	if [ -n "$KUNIT_KERNEL" ]; then
		if ! [ -f "$KUNIT_KERNEL/arch/arm64/boot/Image" ]; then
			echo "kunit $mode: no kernel in $KUNIT_KERNEL"
			rc=1
			continue
		fi
		(cd "$BUILD/src" && ./tools/testing/kunit/kunit.py exec $filter \
			--qemu_config="$TOP/tests/kunit/arm64_$mode.py" \
			--build_dir="$KUNIT_KERNEL" --timeout=600) >"$log" 2>&1 || rc=1
	else
		(cd "$BUILD/src" && ./tools/testing/kunit/kunit.py run $filter \
			--kunitconfig=drivers/perf/tests \
			--qemu_config="$TOP/tests/kunit/arm64_$mode.py" \
			--cross_compile="$CROSS_COMPILE" \
			--make_options="CC=ccache ${CROSS_COMPILE}gcc" \
			--build_dir="$BUILD/kunit" --jobs="$JOBS" --timeout=600) \
			>"$log" 2>&1 || rc=1
	fi
	summary=$(grep -a 'Testing complete' "$log" | tail -1)
	echo "kunit $mode: ${summary:-no result (see $log)}"
	[ -n "$summary" ] || rc=1
done
exit $rc

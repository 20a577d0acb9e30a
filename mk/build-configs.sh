#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Compile, as object files only, the configurations the main build does
# not cover, so that they stay building:
#   arm64-kvm-no-pmu: CONFIG_KVM=y, CONFIG_ARM_PMU=n (arch/arm64/kvm/)
#   arm-pmuv3:        ARCH=arm with CONFIG_ARM_PMUV3=y (drivers/perf/)
#   arm64-pmu-no-brbe: CONFIG_ARM64_BRBE=n (drivers/perf/)
#   arm64-production: as a distribution builds the driver and KVM, no
#                     test option (arch/arm64/kvm/, drivers/perf/); its
#                     objects must define none of the test hooks' symbols
# Each is allnoconfig plus mk/configs/<name>.config in build/cfg-<name>
# (on 6.12, without what only 7.x has: CONFIG_KVM_ARM_PMU_DIRECT, and
# CONFIG_ARM64_BRBE=y).
# Prints "config NAME: ok|FAILED"; the log is build/logs/cfg-NAME.log.
# Exits 1 if any failed.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BASE=${BASE:-7.3}
BUILD=${BUILD:-$TOP/build/$BASE}
JOBS=${JOBS:-$(nproc)}
mkdir -p "$BUILD/logs"

# The fragment must have taken: a config that silently lost the option
# under test would test nothing.
config_took() {	# fragment .config
	for opt in $(grep -o '^CONFIG_[A-Z0-9_]*=[yn]' "$1"); do
		o=${opt%=*} v=${opt#*=}
		if [ "$v" = y ]; then
			grep -qx "$o=y" "$2"
		else
			! grep -q "^$o=" "$2"
		fi || { echo "$o is not $v in $2"; return 1; }
	done
}

build() {	# name arch cross_compile objects...
	name=$1 arch=$2 cross=$3; shift 3
	out=$BUILD/cfg-$name log=$BUILD/logs/cfg-$name.log
	frag=$TOP/mk/configs/$name.config
	mkdir -p "$out"
	case "$BASE" in 6.*)
		grep -v -e '^CONFIG_KVM_ARM_PMU_DIRECT=' -e '^CONFIG_ARM64_BRBE=y' \
			"$frag" > "$out/fragment.config"
		frag=$out/fragment.config ;;
	esac
	k="make -C $BUILD/src O=$out ARCH=$arch CROSS_COMPILE=$cross -j$JOBS"
	if { KCONFIG_ALLCONFIG="$frag" $k CC="ccache ${cross}gcc" allnoconfig &&
	     config_took "$frag" "$out/.config" &&
	     $k CC="ccache ${cross}gcc" "$@"; } >"$log" 2>&1 &&
	   ! grep -q 'warning:' "$log"; then
		echo "config $name: ok"
		return 0
	fi
	echo "config $name: FAILED (see $log)"
	grep -m5 -E 'error|Error|warning:| is not ' "$log"
	return 1
}

# The test hooks' symbols (the hostile-host seed and its debugfs file,
# the perf-register failure's parameter) in none of a production build's
# objects: prints "config arm64-production: no test hook: ok".
no_test_hooks() {
	out=$BUILD/cfg-arm64-production
	hooks=$(find "$out/arch/arm64/kvm" "$out/drivers/perf" -name '*.o' \
		-exec aarch64-linux-gnu-nm -A {} + 2>/dev/null |
		grep -E 'hostile|perfreg_fail')
	objs=$(find "$out/arch/arm64/kvm" "$out/drivers/perf" -name 'pmu*.o' -o \
		-name 'arm_pmuv3*.o' | wc -l)
	if [ -z "$hooks" ] && [ "$objs" -ge 4 ]; then
		echo "config arm64-production: no test hook: ok"
		return 0
	fi
	echo "config arm64-production: no test hook: FAILED ($objs objects)"
	echo "$hooks" | head -5
	return 1
}

rc=0
build arm64-kvm-no-pmu arm64 aarch64-linux-gnu- arch/arm64/kvm/ || rc=1
build arm-pmuv3 arm arm-linux-gnueabihf- drivers/perf/arm_pmuv3.o \
	drivers/perf/arm_pmuv3_events.o || rc=1
build arm64-pmu-no-brbe arm64 aarch64-linux-gnu- drivers/perf/arm_pmuv3.o \
	drivers/perf/arm_pmuv3_events.o || rc=1
if build arm64-production arm64 aarch64-linux-gnu- arch/arm64/kvm/ drivers/perf/; then
	no_test_hooks || rc=1
else
	rc=1
fi
exit $rc

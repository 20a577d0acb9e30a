#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The project's test run: KUnit suites (kunit.py, per QEMU setup) and the
# boot checks (tests/guest/check.sh under tests/boot.sh, per host mode).
# Usage: tests/check.sh all|docs|qemu|configs|kunit|boot|fixes|backport [MODE...]
# Ends with "N passed, N failed"; exits 1 if anything failed.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BASE=${BASE:-7.3}
BUILD=${BUILD:-$TOP/build/$BASE}
export BASE BUILD
what=${1:-all}
[ $# -gt 0 ] && shift
KUNIT_MODES=${KUNIT_MODES:-el1 vhe nvhe}
BOOT_MODES=${*:-${BOOT_MODES:-vhe nvhe protected el1 a57 acpi nokvm vhe-up nvhe-up protected-up vhe-debug nvhe-debug protected-debug vhe-nmi}}
passed=0
failed=0

count() {	# passed failed
	passed=$((passed + $1))
	failed=$((failed + $2))
}

# The boots' QEMU (mk/qemu.sh): the one built names our series, and every
# patch of qemu/patches/ passes QEMU's checkpatch.pl.
run_qemu() {
	if v=$("$TOP/build/qemu/bin/qemu-system-aarch64" --version 2>&1 | head -1) &&
	   case "$v" in *"(pmuv3-kvm-"*) true ;; *) false ;; esac; then
		echo "qemu: $v"
		count 1 0
	else
		echo "qemu: no build of ours (make deps): $v"
		count 0 1
	fi
	out=$("$TOP/mk/qemu.sh" check 2>&1)
	echo "$out" | grep ': total: ' | sed 's/^/qemu checkpatch: /'
	p=$(echo "$out" | grep -c ': total: 0 errors, 0 warnings')
	n=$(ls "$TOP"/qemu/patches/*.patch | wc -l)
	count "$p" $((n - p))
}

# The suites run in the kernel the boots run (built in, off unless
# kunit.py passes kunit.enable=1: pmuv3_kvm.config), after a check that
# drivers/perf/tests/.kunitconfig, kernel CI's way in, still resolves.
run_kunit() {
	if line=$("$TOP/mk/kunit.sh" config); then
		count 1 0
	else
		count 0 1
	fi
	echo "$line"
	for mode in $KUNIT_MODES; do
		line=$(KUNIT_KERNEL=$BUILD/kernel "$TOP/mk/kunit.sh" "$mode")
		echo "$line"
		p=$(echo "$line" | sed -n 's/.*passed: \([0-9]*\).*/\1/p')
		f=$(echo "$line" | sed -n 's/.*failed: \([0-9]*\).*/\1/p')
		e=$(echo "$line" | sed -n 's/.*errors: \([0-9]*\).*/\1/p')
		if [ -z "$p" ]; then
			count 0 1
			tail -20 "$BUILD/logs/kunit-$mode.log"
			continue
		fi
		count "$p" $(( ${f:-0} + ${e:-0} ))
		check_skips "$mode"
	done
}

# A skipped KUnit case tested nothing: it fails unless
# tests/kunit/allowed-skips lists it (mode, suite.case, reason).
check_skips() {	# mode
	log=$BUILD/logs/kunit-$1.log
	grep -a '# SKIP' "$log" | sed 's/^\[[0-9:]*\] *//' | while read -r line; do
		case_name=$(echo "$line" | sed -n 's/^\(not \)\{0,1\}ok [0-9]* \([^ ]*\).*/\2/p')
		if grep -q "^$1 [^ ]*$case_name " "$TOP/tests/kunit/allowed-skips" 2>/dev/null; then
			echo "kunit $1: skipped $case_name (allowed)"
		else
			echo "kunit $1: FAIL: $case_name skipped: $line"
			echo SKIPFAIL
		fi
	done > "$BUILD/logs/kunit-$1.skips"
	cat "$BUILD/logs/kunit-$1.skips" | grep -v '^SKIPFAIL$'
	count 0 "$(grep -c '^SKIPFAIL$' "$BUILD/logs/kunit-$1.skips")"
}

# The boots run CHECK_JOBS at a time (default: one per CPU).  Each QEMU
# runs its vCPUs on one host thread (-icount rules out multi-threaded
# TCG) and counts by instructions, not time, so side-by-side boots read
# the same figures as boots one after another.  The longest start first;
# the results print in BOOT_MODES order once all have finished.
LONGEST_FIRST="protected-debug protected-up protected vhe-nmi nvhe-debug nvhe-up vhe-up vhe-debug"
# BOOT_KIND=fixes boots the stock+fixes kernel instead (run_fixes).
run_boot() {	# modes...
	modes=${*:-$BOOT_MODES}
	kind=${BOOT_KIND:+$BOOT_KIND-}
	order=""
	for mode in $LONGEST_FIRST $modes; do
		case " $modes " in *" $mode "*) ;; *) continue ;; esac
		case " $order " in *" $mode "*) continue ;; esac
		order="$order $mode"
		rm -f "$BUILD/logs/$kind$mode-check.result"
	done
	printf '%s\n' $order |
		xargs -P "${CHECK_JOBS:-$(nproc)}" -I{} "$TOP/tests/check.sh" boot-one {}
	for mode in $modes; do
		result=$BUILD/logs/$kind$mode-check.result
		if [ -f "$result" ] && grep -q '^COUNT [0-9]* [0-9]*$' "$result"; then
			grep -v '^COUNT ' "$result"
			count $(sed -n 's/^COUNT //p' "$result")
		else
			echo "boot $kind$mode: no result (see $BUILD/logs/$kind$mode-check.log)"
			count 0 1
		fi
	done
}

# One boot, its KTAP tallied; what it prints goes to <mode>-check.result,
# ending with "COUNT passed failed".
boot_one() {	# mode
	mode=$1
	kind=${BOOT_KIND:+$BOOT_KIND-}
	log=$BUILD/logs/$kind$mode-check.log
	start=$(date +%s)
	case "$kind$mode" in
	fixes-*) jobs=stock_fixes	# the stock+fixes kernel (run_fixes)
		export KERNEL=$BUILD/fixes/kernel/arch/arm64/boot/Image
		export INITRD=$BUILD/fixes/initramfs.cpio ;;
	el1) jobs=check,fuzz ;;		# no EL2: no KVM
	acpi) jobs=check ;;		# UEFI + ACPI probe
	nokvm) jobs=nokvm ;;		# EL2 but KVM off
	a57) jobs=check,fuzz ;;		# the chained-counter PMU
	*-up) jobs=kvm,linux_guest ;;	# one CPU: QEMU's counts exact
	# pKVM under lockdep: ~12,600 EL2 instructions an exit make the
	# KVM programs too slow here; the plain protected boots run them.
	protected-debug) jobs=hostile_host,debug ;;
	*-debug) jobs=fuzz,kvm,debug ;;	# lockdep: no exact counts
	*-nmi) jobs=nmi,fuzz,kvm,debug ;;	# the PMU IRQ as an NMI
	*) jobs=check,fuzz,kvm ;;	# fuzz before KVM: README, Known limits
	esac
	# The two-CPU boots of each host mode run on Debian's unpatched QEMU,
	# the rest on ours (qemu/patches/): the difference stays visible.
	case "$kind$mode" in
	vhe|nvhe|protected) export QEMU=debian; qemu="Debian's QEMU" ;;
	*) export QEMU=ours; qemu="our QEMU" ;;
	esac
	{
		if "$TOP/tests/boot.sh" "$mode" "$jobs" "$log" 2>&1; then
			count 1 0
		else
			count 0 1
		fi
		ktap_tally "$log"
		echo "boot $kind$mode: $kp passed, $kf failed ($(( $(date +%s) - start ))s, $qemu)"
		grep -E '^ *not ok ' "$log" | sed 's/^ */  FAIL /'
		echo "COUNT $passed $failed"
	} > "$BUILD/logs/$kind$mode-check.result.tmp"
	mv "$BUILD/logs/$kind$mode-check.result.tmp" "$BUILD/logs/$kind$mode-check.result"
}

# The stock+fixes leg: the pristine base with the series of fixes/<BASE>/
# (mk/fixes.sh), the project's config, no overlay; its kernel, the
# series' selftests and its initramfs built, then one boot per host mode
# on one CPU running tests/guest/stock_fixes.sh.
FIXES_MODES=${FIXES_MODES:-vhe-up nvhe-up protected-up}
run_fixes() {
	mkdir -p "$BUILD/logs"
	log=$BUILD/logs/fixes-build.log
	if "$TOP/mk/fixes.sh" kernel >"$log" 2>&1 &&
	   "$TOP/mk/fixes.sh" initramfs >>"$log" 2>&1; then
		echo "fixes $BASE: stock+fixes kernel, selftests and initramfs built"
		count 1 0
	else
		echo "fixes $BASE: build FAILED (see $log)"
		tail -20 "$log"
		count 0 1
		return
	fi
	export BOOT_KIND=fixes
	run_boot $FIXES_MODES
	unset BOOT_KIND
}

# The boot's KTAP, read by the base tree's own parser (kunit.py parse):
# passed leaf tests count as passed; failed, crashed, skipped and missing
# ones (a plan not met is an error there) as failed.  Sets kp and kf.
ktap_tally() {	# log
	out=$(cd "$BUILD/src" && python3 tools/testing/kunit/kunit.py parse "$1" 2>&1)
	summary=$(echo "$out" | grep -a 'Ran [0-9]* tests' | tail -1)
	kp=$(echo "$summary" | sed -n 's/.*passed: \([0-9]*\).*/\1/p')
	kf=0
	for k in failed crashed skipped errors; do
		v=$(echo "$summary" | sed -n "s/.*$k: \([0-9]*\).*/\1/p")
		kf=$((kf + ${v:-0}))
	done
	if [ -z "$kp" ]; then
		kp=0 kf=1
		echo "$out" | tail -5
	fi
	[ "$kf" = 0 ] || echo "$out" | grep -a -E 'ERROR|FAILED|CRASHED|missing|Expected' | head -10
	count "$kp" "$kf"
}

# The documentation parses as reST with no warning.
run_docs() {
	py=/usr/bin/python3	# Debian's, with python3-docutils (mk/deps.sh)
	[ -x "$py" ] || py=python3
	if "$py" "$TOP/mk/rst-check.py" "$TOP"/Documentation/arch/arm64/perf.rst \
		"$TOP"/Documentation/arch/arm64/pmu-direct.rst \
		"$TOP"/Documentation/virt/kvm/arm/perf-registers.rst; then
		count 1 0
	else
		count 0 1
	fi
}

# The console scan every boot relies on flags each sample of a kernel
# error report in tests/console/bad-*.txt, and no line of a clean boot.
run_scan() {
	wrong=""
	for f in "$TOP"/tests/console/*.txt; do
		"$TOP/tests/scan-console.sh" "$f" >/dev/null
		rc=$?
		case "${f##*/}" in
		bad-*) [ $rc = 1 ] || wrong="$wrong ${f##*/}" ;;
		*) [ $rc = 0 ] || wrong="$wrong ${f##*/}" ;;
		esac
	done
	if [ -z "$wrong" ]; then
		count 1 0
	else
		echo "scan-console.sh misjudges:$wrong"
		count 0 1
	fi
}

# mk/check-base.sh passes the pinned base and stops on a changed one.
run_base_guard() {
	t=$BUILD/base-guard
	sums=$TOP/mk/base-replaced-${BASE:-7.3}.sha256
	files=$(sed -n 's/^[0-9a-f]\{64\}  //p' "$sums")
	rm -rf "$t" && mkdir -p "$t"
	(cd "$BUILD/base" && cp --parents $files "$t")
	"$TOP/mk/check-base.sh" "$t" 2>/dev/null; ok=$?
	echo "/* upstream fix */" >> "$t/drivers/perf/arm_pmuv3.c"
	"$TOP/mk/check-base.sh" "$t" 2>"$t/err"; bad=$?
	OVERLAY_FORCE=1 "$TOP/mk/check-base.sh" "$t" 2>/dev/null; forced=$?
	if [ $ok = 0 ] && [ $bad = 1 ] && [ $forced = 0 ] &&
	   grep -q 'drivers/perf/arm_pmuv3.c' "$t/err"; then
		count 1 0
	else
		echo "check-base.sh: pinned $ok, changed $bad, forced $forced (want 0 1 0)"
		count 0 1
	fi
}

# Configurations the main build does not cover still compile.
run_configs() {
	out=$("$TOP/mk/build-configs.sh")
	echo "$out"
	count "$(echo "$out" | grep -c ': ok$')" "$(echo "$out" | grep -c FAILED)"
}

# The 6.12 LTS backport (BASE=6.12), as a short leg of a 7.3 run: its
# kernel and initramfs build, its KUnit suites run, and one boot per host
# mode runs the KVM and Linux-guest checks (the -up boots); its tally is
# added to this one.  "tests/check.sh backport" runs it; "all" does not:
# make check BASE=6.12 tests the backport whole (every boot, its
# stock+fixes leg), and the default run keeps within CI's time.
BACKPORT_MODES=${BACKPORT_MODES:-vhe-up nvhe-up protected-up}
run_backport() {
	b=$TOP/build/6.12
	mkdir -p "$b/logs"
	if make -C "$TOP" --no-print-directory BASE=6.12 kernel initramfs \
		>"$b/logs/build.log" 2>&1; then
		echo "backport 6.12: kernel and initramfs built"
		count 1 0
	else
		echo "backport 6.12: build FAILED (see $b/logs/build.log)"
		tail -20 "$b/logs/build.log"
		count 0 1
		return
	fi
	out=$(BASE=6.12 BUILD=$b KUNIT_MODES=el1 "$TOP/tests/check.sh" kunit 2>&1;
	      BASE=6.12 BUILD=$b "$TOP/tests/check.sh" boot $BACKPORT_MODES 2>&1)
	echo "$out" | grep -E '^(kunit|boot) |FAIL' | sed 's/^/backport 6.12: /'
	tally=$(echo "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$')
	p=$(echo "$tally" | awk '{ s += $1 } END { print s + 0 }')
	f=$(echo "$tally" | awk '{ s += $3 } END { print s + 0 }')
	[ "$(echo "$tally" | wc -l)" = 2 ] || f=$((f + 1))
	count "$p" "$f"
}

case "$what" in
all) run_docs; run_scan; run_base_guard; run_qemu; run_configs; run_kunit; run_boot
	run_fixes ;;
backport) run_backport ;;
fixes) FIXES_MODES=${*:-$FIXES_MODES}; run_fixes ;;
docs) run_docs; run_scan; run_base_guard ;;
qemu) run_qemu ;;
configs) run_configs ;;
kunit) run_kunit ;;
boot) run_boot ;;
boot-one) boot_one "$1"; exit 0 ;;
*) echo "usage: $0 all|docs|qemu|configs|kunit|boot|fixes|backport [MODE...]" >&2; exit 2 ;;
esac

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The project's test run: KUnit suites (kunit.py, per QEMU setup) and the
# boot checks (tests/guest/check.sh under tests/boot.sh, per host mode).
# Usage: tests/check.sh all|docs|kunit|boot [MODE...]
# Ends with "N passed, N failed"; exits 1 if anything failed.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
what=${1:-all}
[ $# -gt 0 ] && shift
KUNIT_MODES=${KUNIT_MODES:-el1 vhe nvhe}
BOOT_MODES=${*:-${BOOT_MODES:-vhe nvhe protected el1 a57 vhe-up nvhe-up protected-up vhe-debug nvhe-debug protected-debug}}
passed=0
failed=0

count() {	# passed failed
	passed=$((passed + $1))
	failed=$((failed + $2))
}

run_kunit() {
	for mode in $KUNIT_MODES; do
		line=$("$TOP/mk/kunit.sh" "$mode")
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
	done
}

run_boot() {
	for mode in $BOOT_MODES; do
		log=$BUILD/logs/$mode-check.log
		start=$(date +%s)
		case "$mode" in
		el1) jobs=check,fuzz ;;		# no EL2: no KVM
		a57) jobs=check,fuzz ;;		# the chained-counter PMU
		*-up) jobs=kvm ;;		# one CPU: QEMU's counts exact
		*-debug) jobs=fuzz,kvm,debug ;;	# lockdep: no exact counts
		*) jobs=check,fuzz,kvm ;;	# fuzz before KVM: README, Known limits
		esac
		if "$TOP/tests/boot.sh" "$mode" "$jobs" "$log"; then
			count 1 0
		else
			count 0 1
		fi
		p=$(grep -c '^@@TEST .* PASS' "$log")
		f=$(grep -c '^@@TEST .* FAIL' "$log")
		count "$p" "$f"
		echo "boot $mode: $p passed, $f failed ($(( $(date +%s) - start ))s)"
		grep '^@@TEST .* FAIL' "$log" | sed 's/^@@TEST /  FAIL /'
	done
}

# The documentation parses as reST with no warning.
run_docs() {
	py=/usr/bin/python3	# Debian's, with python3-docutils (mk/deps.sh)
	[ -x "$py" ] || py=python3
	if "$py" "$TOP/mk/rst-check.py" "$TOP"/Documentation/arch/arm64/perf.rst; then
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

case "$what" in
all) run_docs; run_scan; run_kunit; run_boot ;;
docs) run_docs; run_scan ;;
kunit) run_kunit ;;
boot) run_boot ;;
*) echo "usage: $0 all|docs|kunit|boot [MODE...]" >&2; exit 2 ;;
esac

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]

# SPDX-License-Identifier: GPL-2.0-only
#
# KTAP (Documentation/dev-tools/ktap.rst), the format kunit.py and kernel
# CI parse, for the boot checks.  Sourced by /init.  The boot is the top
# level, one test a job; a job's checks are at the next level, and a
# program's own checks (its PASS/FAIL lines) one below.  Every level has
# a plan: a job that stops early, or a program that crashes or prints
# fewer checks than it planned, shows as missing results, never as a
# smaller tally.

# Seconds of this kernel's clock since boot, to the hundredth: under
# -icount shift=0 one second is 10^9 instructions, what a boot's time
# goes by.  Where time goes shows in "took" diagnostics.
ktap_now() {
	cut -d' ' -f1 /proc/uptime
}

# "took" from a ktap_now() reading to now.
ktap_took() {	# start
	awk -v a="$1" -v b="$(ktap_now)" 'BEGIN { printf "took %.1fs", b - a }'
}

# Start a job's results: its KTAP header.  The job then calls plan.
ktap_job_start() {	# job
	ktap_job_t0=$(ktap_now)
	ktap_n=0
	ktap_fail=0
	ktap_planned=""
	echo "    KTAP version 1"
	echo "    # Subtest: $mode/$1"
}

# A job's first line: how many results it will give.
plan() {	# N
	ktap_planned=$1
	echo "    1..$1"
}

# One result of the job.  KTAP result lines carry no free text: the
# detail goes on a diagnostic line before it.
result() {	# name ok(0/1) detail...
	name=$1; ok=$2; shift 2
	ktap_n=$((ktap_n + 1))
	[ $# -gt 0 ] && echo "    # $name: $(echo "$*" | tr '#' '_')"
	if [ "$ok" = 0 ]; then
		echo "    ok $ktap_n $name"
	else
		echo "    not ok $ktap_n $name"
		ktap_fail=$((ktap_fail + 1))
	fi
}

# Close the job: ok only if every planned result came, and passed.
ktap_job_end() {	# index job
	echo "# $mode/$2: $(ktap_took "$ktap_job_t0")"
	if [ -n "$ktap_planned" ] && [ "$ktap_n" = "$ktap_planned" ] &&
	   [ "$ktap_fail" = 0 ]; then
		echo "ok $1 $mode/$2"
	else
		echo "# $mode/$2: $ktap_n of ${ktap_planned:-no plan} results, $ktap_fail failed"
		echo "not ok $1 $mode/$2"
	fi
}

# Run one of our guest programs (tests/guest/*.c) as a subtest.  It
# prints "PLAN N" first, then a "PASS|FAIL what: detail" line per check;
# everything it prints is kept as diagnostics.  The result is ok only
# if it exits 0 and gave all N checks, all passed.
run_program() {	# name command...
	prog=$1; shift
	prog_t0=$(ktap_now)
	"$@" > "/tmp/$prog.out" 2>&1
	rc=$?
	sed 's/^/        # /' "/tmp/$prog.out"
	echo "        # $prog: $(ktap_took "$prog_t0")"
	planned=$(sed -n 's/^PLAN \([0-9][0-9]*\)$/\1/p' "/tmp/$prog.out" | head -1)
	echo "        KTAP version 1"
	echo "        # Subtest: $prog"
	echo "        1..${planned:-0}"
	n=0
	f=0
	grep -E '^(PASS|FAIL) ' "/tmp/$prog.out" > "/tmp/$prog.res"
	while read -r verdict what; do
		n=$((n + 1))
		check=$(echo "${what%%:*}" | sed 's/[^A-Za-z0-9_.-]/_/g')
		if [ "$verdict" = PASS ]; then
			echo "        ok $n $check"
		else
			echo "        not ok $n $check"
			f=$((f + 1))
		fi
	done < "/tmp/$prog.res"
	[ $rc = 0 ] && [ $f = 0 ] && [ -n "$planned" ] && [ $n = "$planned" ]
	result "$prog" $? "exit $rc, $n of ${planned:-no plan} checks, $f failed"
}

# A KVM selftest of the base tree's: exit 0 passes; a KSFT skip (4)
# tested nothing and fails like any other exit.  Its last lines are kept
# as diagnostics.
run_selftest() {	# program [name]
	t=${2:-${1##*/}}
	out=/tmp/$(echo "$t" | tr '/=' '__').out
	t0=$(ktap_now)
	"$1" > "$out" 2>&1
	rc=$?
	tail -3 "$out" | sed 's/^/    # /'
	echo "    # $t: $(ktap_took "$t0")"
	[ $rc = 0 ]; result "$t" $? "exit $rc"
}

# A KVM selftest that reports in KSFT's TAP (tools/testing/selftests/
# kselftest.h), as a subtest: its plan and results one level down, its
# other lines as diagnostics.  The result is ok only if it exits 0 (a
# skip, 4, fails) and met its plan with every result ok.  With one
# argument the program's path, named as the program; with more, the
# result's name, then the command.
run_ksft() {	# program | name command...
	if [ $# = 1 ]; then t=${1##*/}; else t=$1; shift; fi
	t0=$(ktap_now)
	"$@" > "/tmp/$t.out" 2>&1
	rc=$?
	echo "        # $t: $(ktap_took "$t0")"
	echo "        KTAP version 1"
	echo "        # Subtest: $t"
	# A '#' in a result's description would start a KTAP directive:
	# only SKIP, XFAIL and XPASS keep theirs.
	grep -v '^TAP version' "/tmp/$t.out" | sed -E \
		-e '/^(not )?ok [0-9]+ /{s/ # (SKIP|XFAIL|XPASS)/ @@\1/;s/#/_/g;s/ @@/ # /}' \
		-e '/^([0-9]+\.\.[0-9]+|(not )?ok [0-9]+ .*|# .*)$/!s/^/# /' \
		-e 's/^/        /'
	planned=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "/tmp/$t.out" | head -1)
	# A skipped, expected or unexpected pass tested nothing here.
	n=$(grep -E '^ok [0-9]+ ' "/tmp/$t.out" | grep -cvE ' # (SKIP|XFAIL|XPASS)')
	f=$(grep -c '^not ok [0-9]' "/tmp/$t.out")
	[ $rc = 0 ] && [ "$f" = 0 ] && [ -n "$planned" ] && [ "$n" = "$planned" ]
	result "$t" $? "exit $rc, $n of ${planned:-no plan} ok, $f failed"
}

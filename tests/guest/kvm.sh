# SPDX-License-Identifier: GPL-2.0-only
#
# KVM checks: our pmu_split test, the base tree's vpmu_counter_access
# selftest, and the real perf tool's view of a guest.  Sourced by /init.

mode=$(sed -n 's/.*pmuv3\.mode=\([a-z0-9]*\).*/\1/p' /proc/cmdline)

result() {	# name ok(0/1) detail...
	name=$1; ok=$2; shift 2
	if [ "$ok" = 0 ]; then echo "@@TEST $mode/$name PASS $*"
	else echo "@@TEST $mode/$name FAIL $*"; fi
}

if [ ! -e /dev/kvm ]; then
	result kvm_present 1 "no /dev/kvm"
	return 0 2>/dev/null || exit 0
fi

/bin/pmu_split > /tmp/split.out 2>&1
rc=$?
cat /tmp/split.out
grep -E '^(PASS|FAIL) ' /tmp/split.out | while read -r verdict what; do
	name=$(echo "${what%%:*}" | tr ' ()' '_--')
	[ "$verdict" = PASS ]; result "pmu_split/$name" $? "${what#*: }"
done
grep -q '^pmu_split: 0 failed' /tmp/split.out
result pmu_split_ran $? "exit $rc"

/bin/vpmu_counter_access > /tmp/vpmu.out 2>&1
rc=$?
tail -3 /tmp/vpmu.out
[ $rc = 0 ]; result vpmu_counter_access $? "exit $rc"

echo "== perf stat -e instructions:G,instructions:H,instructions -- pmu_split"
perf stat -x, -e instructions:G,instructions:H,instructions -o /tmp/gh.csv \
	-- /bin/pmu_split >/dev/null 2>&1
grep -v '^#' /tmp/gh.csv | grep -v '^$'
set -- $(grep -v '^#' /tmp/gh.csv | grep -v '^$' | cut -d, -f1 | tr '\n' ' ')
g=$1 h=$2 all=$3
[ -n "$all" ] && [ "$g" -gt 0 ] && [ "$h" -gt 0 ] && [ "$g" -lt "$all" ]
result perf_stat_guest_host $? "G=$g H=$h all=$all (perf's events are not a group: G+H-all=$((g + h - all)))"

# SPDX-License-Identifier: GPL-2.0-only
# Attr fuzzing: 100,000 random perf_event_attrs against our PMU, the raw
# and the generic types, with a fixed seed (printed).  Sourced by /init.
mode=$(sed -n 's/.*pmuv3\.mode=\([a-z0-9]*\).*/\1/p' /proc/cmdline)
type=$(cat /sys/bus/event_source/devices/armv8_pmuv3/type)
seed=20261202
count=$(sed -n 's/.*pmuv3\.fuzz=\([0-9]*\).*/\1/p' /proc/cmdline)
/bin/fuzz_attr "$type" "${count:-100000}" "$seed" > /tmp/fuzz.out 2>&1
cat /tmp/fuzz.out | head -20
grep -E '^(PASS|FAIL) ' /tmp/fuzz.out | while read -r verdict what; do
	name=$(echo "${what%%:*}" | sed 's/[^A-Za-z0-9_.-]/_/g')
	[ "$verdict" = PASS ] && v=PASS || v=FAIL
	echo "@@TEST $mode/fuzz_attr/$name $v ${what#*: }"
done

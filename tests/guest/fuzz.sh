# SPDX-License-Identifier: GPL-2.0-only
# Attr fuzzing: 100,000 random perf_event_attrs against our PMU, the raw
# and the generic types, with a fixed seed (printed).  Sourced by /init.
mode=$(sed -n 's/.*pmuv3\.mode=\([a-z0-9-]*\).*/\1/p' /proc/cmdline)
type=$(cat /sys/bus/event_source/devices/armv8_pmuv3/type)
seed=20261202
count=$(sed -n 's/.*pmuv3\.fuzz=\([0-9]*\).*/\1/p' /proc/cmdline)
# Debugging only, from the kernel command line (BOOT_APPEND=...):
#   pmuv3.fuzz=N                 attrs 0..N-1 (default 100,000)
#   pmuv3.fuzzargs=S,FIRST,TRACE an extra run first: sampling attrs on
#                                (S=1), from attr FIRST, each printed
#   pmuv3.nothrottle             kernel.perf_cpu_time_max_percent=0 for it
extra=$(sed -n 's/.*pmuv3\.fuzzargs=\([0-9,]*\).*/\1/p' /proc/cmdline | tr ',' ' ')
if [ -n "$extra" ]; then
	grep -q pmuv3.nothrottle /proc/cmdline && echo 0 > /proc/sys/kernel/perf_cpu_time_max_percent
	/bin/fuzz_attr "$type" "${count:-100000}" "$seed" $extra 2>&1
fi
/bin/fuzz_attr "$type" "${count:-100000}" "$seed" > /tmp/fuzz.out 2>&1
cat /tmp/fuzz.out | head -20
grep -E '^(PASS|FAIL) ' /tmp/fuzz.out | while read -r verdict what; do
	name=$(echo "${what%%:*}" | sed 's/[^A-Za-z0-9_.-]/_/g')
	[ "$verdict" = PASS ] && v=PASS || v=FAIL
	echo "@@TEST $mode/fuzz_attr/$name $v ${what#*: }"
done

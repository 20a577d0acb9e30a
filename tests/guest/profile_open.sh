# Not a make check job: where the kernel's instructions go while perf
# opens and closes events (hotpath open), by symbol.
plan 0
perf record -q -e instructions:k -c 997 -o /tmp/p.data -- /bin/hotpath open 2>&1 | tail -3
perf report -i /tmp/p.data --stdio --sort sym 2>/dev/null | grep -v '^#' | grep -v '^$' > /tmp/p.txt
head -3 /tmp/p.txt
grep -iE "armv8|armpmu|arm_pmu|pmu|validate|event_init|kvm|brbe|perf_try|perf_init" /tmp/p.txt
perf report -i /tmp/p.data --stdio 2>/dev/null | grep -m3 "Samples\|Event count"

# SPDX-License-Identifier: GPL-2.0-only
# make bench, inside the guest: pmu_bench's figures and the vPMU
# self-count error, as "BENCH name value" lines for mk/bench.sh.
plan 0	# shows figures; checks nothing
/bin/pmu_bench "$mode" 2>&1
/bin/vpmu_self_count > /tmp/vpmu.out 2>&1
line=$(grep '^vpmu_self_count: EL1 loop' /tmp/vpmu.out)
el0=$(echo "$line" | sed -n 's/.* el0=\([0-9]*\).*/\1/p')
el1=$(echo "$line" | sed -n 's/.* el1=\([0-9]*\).*/\1/p')
sumerr=$(echo "$line" | sed -n 's/.* sum_error=\([0-9]*\).*/\1/p')
if [ -n "$el0" ]; then
	echo "BENCH vpmu_el0_error $((el0 - 200001))"
	echo "BENCH vpmu_el1_overhead $((el1 - 200000))"
	echo "BENCH vpmu_sum_error $sumerr"
else
	echo "BENCH vpmu_el0_error n/a"
	tail -3 /tmp/vpmu.out
fi
# A counter the guest writes while it counts EL0: how many of the EL0
# loop's instructions after the write it missed (fixes/: VHE's vPMU
# event re-created with the vCPU loaded counted no EL0), and whether
# the overflow it was written to reach was seen (1) or lost (0).
set -- $(sed -n 's/.*counts from the written value: read \([0-9]*\) and [0-9]*, want \([0-9]*\) and.*/\1 \2/p' /tmp/vpmu.out)
[ $# = 2 ] && echo "BENCH vpmu_rewrite_missed $(($2 - $1))"
ovs=$(sed -n 's/.*overflow where written: run 0: .* after one [0-9]* short \([0-9]*\).*/\1/p' /tmp/vpmu.out)
echo "BENCH vpmu_rewrite_overflow ${ovs:-n/a}"
# A group of seven throttled at a period of 1,000 (tests/guest/lib.sh):
# how often the core restarted it, and the samples it took.
throttled_group_record
if [ "$nsamples" -gt 0 ]; then
	echo "BENCH group_unthrottles $unthr"
	echo "BENCH group_samples $nsamples"
else
	echo "BENCH group_unthrottles n/a"	# perf record took no sample
fi

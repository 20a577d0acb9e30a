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

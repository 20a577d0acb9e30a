# SPDX-License-Identifier: GPL-2.0-only
# make bench, on the host: boot a Linux guest that measures what its perf
# operations cost this host (tests/guest/vpmu_bench.sh) and pass its
# "BENCH name value" lines on to mk/bench.sh.  Twice on a host that has
# the perf-register service (kvm.perf_regs): once with the guest's driver
# using it, once with it kept on trapped accesses (arm_pmuv3.perfreg=0).
# The stock host has no service: its guest traps.  Where the host has the
# direct PMU (7.x), once more on it, with a share
# of 4 (the host keeps 2 counters, for its own counting): the group read
# of 6 does not fit there: in the guarded profile, and where the HPMN
# probe found the PMU enforces HPMN, once more in the unguarded one
# (pmu-direct.rst, What traps); each of those once more with an event
# filter set by the VMM.  Sourced by /init.
plan 0	# shows figures; checks nothing
vm_bench() {	# log [kernel args]
	log=$1; shift
	vm_run "$log" vpmu_bench "$@" > /tmp/vm_bench.out 2>&1 ||
		sed 's/^/    # /' /tmp/vm_bench.out
	grep -q '^@@DONE' "$log" || tail -20 "$log" | sed 's/^/    # guest: /'
	sed -n 's/^\(BENCH .*\)/\1/p' "$log"
}
vm_bench_filtered() {	# log [kernel args]
	export LD_PRELOAD=/lib/pmu_filter.so PMU_FILTER_DENY=0x24
	vm_bench "$@" > /tmp/vm_bench_filtered.out
	unset LD_PRELOAD PMU_FILTER_DENY
	# No figures from a run whose VMM did not get the filter set.
	if grep -q '^pmu_filter: vCPU fd [0-9]*: events 0x24 denied' /tmp/vm_bench.out; then
		cat /tmp/vm_bench_filtered.out
	else
		echo "    # vm_bench: $2: no event filter was set, no figures"
		sed 's/^/    # /' /tmp/vm_bench.out
	fi
}
if [ -w /sys/module/kvm/parameters/perf_regs ]; then
	echo 1 > /sys/module/kvm/parameters/perf_regs
	vm_bench /tmp/vm_bench_svc.log
fi
vm_bench /tmp/vm_bench.log arm_pmuv3.perfreg=0
if [ -w /sys/module/kvm/parameters/pmu_direct ]; then
	echo 2 > /sys/module/kvm/parameters/pmu_direct_host_counters
	echo 1 > /sys/module/kvm/parameters/pmu_direct
	# The guarded profile (kvm.pmu_direct_guard=on), then the one the
	# HPMN probe chose where it found the PMU enforces HPMN (our QEMU):
	# the unguarded profile hardware gets.
	# Each once more with an event filter (tests/guest/preload/pmu_filter.c:
	# event 0x24 denied, which the guest's events pass).
	echo on > /sys/module/kvm/parameters/pmu_direct_guard
	vm_bench /tmp/vm_bench_direct.log pmuv3.direct=1
	vm_bench_filtered /tmp/vm_bench_direct_filtered.log pmuv3.direct=filtered
	echo auto > /sys/module/kvm/parameters/pmu_direct_guard
	if [ "$(cat /sys/module/kvm/parameters/pmu_direct_hpmn_enforced)" = Y ]; then
		vm_bench /tmp/vm_bench_unguarded.log pmuv3.direct=unguarded
		vm_bench_filtered /tmp/vm_bench_unguarded_filtered.log \
			pmuv3.direct=unguarded-filtered
	fi
	echo 0 > /sys/module/kvm/parameters/pmu_direct
	echo 3 > /sys/module/kvm/parameters/pmu_direct_host_counters
fi

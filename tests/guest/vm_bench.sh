# SPDX-License-Identifier: GPL-2.0-only
# make bench, on the host: boot a Linux guest that measures what its perf
# operations cost this host (tests/guest/vpmu_bench.sh) and pass its
# "BENCH name value" lines on to mk/bench.sh.  Twice on a host that has
# the perf-register service (kvm.perf_regs): once with the guest's driver
# using it, once with it kept on trapped accesses (arm_pmuv3.perfreg=0).
# The stock host has no service: its guest traps.  Sourced by /init.
plan 0	# shows figures; checks nothing
vm_bench() {	# log [kernel args]
	log=$1; shift
	vm_run "$log" vpmu_bench "$@" > /tmp/vm_bench.out 2>&1 ||
		sed 's/^/    # /' /tmp/vm_bench.out
	grep -q '^@@DONE' "$log" || tail -20 "$log" | sed 's/^/    # guest: /'
	sed -n 's/^\(BENCH .*\)/\1/p' "$log"
}
if [ -w /sys/module/kvm/parameters/perf_regs ]; then
	echo 1 > /sys/module/kvm/parameters/perf_regs
	vm_bench /tmp/vm_bench_svc.log
fi
vm_bench /tmp/vm_bench.log arm_pmuv3.perfreg=0

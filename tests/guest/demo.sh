# SPDX-License-Identifier: GPL-2.0-only
# The demo: which PMU driver counts, perf stat and perf record on a
# workload of known length, perf counting host vs guest of a KVM VM, and a
# Linux guest's perf stat with its PMU trapped, then on the direct PMU
# (7.x), with the host's count of the guest's exits for each.
plan 0	# shows figures; checks nothing
echo "== driver"
dmesg | grep 'pmuv3-kvm:'
echo "== perf stat (workload: loop 2000000 2000 = 4,000,000 EL0 instructions in spin())"
perf stat -e instructions,instructions:u,instructions:k,cycles -- /bin/loop 2000000 2000 2>&1
echo "== perf stat, one group, exclusions side by side (all = u + k + h)"
perf stat -e '{instructions,instructions:u,instructions:k,instructions:h}' -- /bin/loop 2000000 2000 2>&1
echo "== perf record -e cycles -c 20000 / perf report"
# cycles: QEMU 7.2 raises INST_RETIRED overflow interrupts late
perf record -q -e cycles -c 20000 -o /tmp/perf.data -- /bin/loop 2000000 2000 2>&1
perf report -i /tmp/perf.data --stdio --sort comm,dso,sym 2>/dev/null | grep -v '^#' | grep -v '^$' | head -8
echo "== host vs guest: perf stat on a KVM VM whose guest retires a known loop"
echo "   (pmu_split run: 1,000 rounds of EL1 and EL0 loops and a hypercall)"
perf stat -e instructions:G,instructions:H,instructions:GH -- /bin/pmu_split run 2>&1 |
	grep -E 'instructions|elapsed'
echo "   G = guest only, H = host only, GH = both: G + H = GH"
demo_vm() {	# log
	vm_run "$1" demo_guest >/tmp/demo-vmhost.out 2>&1 ||
		cat /tmp/demo-vmhost.out
	sed -n '/^@@JOB demo_guest/,/^@@DONE/p' "$1" |
		grep -v -E '^@@|^ *(KTAP version|# Subtest|1\.\.[0-9]|ok [0-9]|not ok [0-9])'
}
echo "== a Linux guest: our kernel at EL1 under Debian's QEMU with KVM (-cpu host:"
echo "   a virtual PMU), Debian's perf inside; the host counts its vCPU thread"
echo "== 1. its PMU trapped: every PMU register access exits to KVM"
demo_vm /tmp/demo-guest.log
if [ -w /sys/module/kvm/parameters/pmu_direct ]; then
	echo "== 2. the same guest on the direct PMU (kvm.pmu_direct=1): hardware counters"
	echo "   of its own, $(dmesg | grep -m1 'HPMN probe' | sed 's/.*HPMN probe: //')"
	echo 1 > /sys/module/kvm/parameters/pmu_direct
	demo_vm /tmp/demo-guest-direct.log
	echo 0 > /sys/module/kvm/parameters/pmu_direct
fi

# SPDX-License-Identifier: GPL-2.0-only
# The demo: which PMU driver counts, perf stat and perf record on a
# workload of known length, and perf counting host vs guest of a KVM VM.
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
echo "== a Linux guest: our kernel at EL1 under Debian's QEMU with KVM (-cpu host:"
echo "   a virtual PMU), Debian's perf inside; the host counts its vCPU thread"
vm_run /tmp/demo-guest.log demo_guest >/tmp/demo-vmhost.out 2>&1 ||
	cat /tmp/demo-vmhost.out
sed -n '/^@@JOB demo_guest/,/^@@DONE/p' /tmp/demo-guest.log |
	grep -v -E '^@@|^ *(KTAP version|# Subtest|1\.\.[0-9]|ok [0-9]|not ok [0-9])'

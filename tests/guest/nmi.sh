# SPDX-License-Identifier: GPL-2.0-only
#
# Checks of a pseudo-NMI boot (irqchip.gicv3_pseudo_nmi=1, debug kernel):
# the PMU interrupt is an NMI, and sampling through it works, in user
# space and across the kernel, under lockdep.  Sourced by /init; the
# fuzzer (sampling attrs), the KVM stress programs and the lockdep check
# run as their own jobs in the same boot.

plan 3

line=$(dmesg | grep 'hw perfevents:')
echo "$line" | grep -q 'using NMIs'; result pmu_irq_is_nmi $? "$line"

# User-space samples land in the loop, as in the plain boots.
perf record -q -e cycles:u -c 10000 -o /tmp/nmi.data -- /bin/loop 1000000 0 >/dev/null 2>&1
perf report -i /tmp/nmi.data --stdio --sort sym 2>/dev/null > /tmp/nmi.report
samples=$(sed -n 's/^# Samples: \([0-9]*\).*/\1/p' /tmp/nmi.report | head -1)
[ "${samples:-0}" -ge 150 ] && grep '%' /tmp/nmi.report | head -1 | grep -q spin
result record_user_nmi $? "samples=$samples, top: $(grep '%' /tmp/nmi.report | head -1 | tr -s ' ')"

# Every CPU, kernel and user, at a high rate: the overflow NMI lands in
# IRQ-disabled kernel code too, and wakes perf through irq_work.  The
# samples are counted from perf script (perf report's header rounds a
# count of 1,000 or more to "1K").
perf record -q -a -e cycles -c 3000 -o /tmp/nmi-all.data -- /bin/loop 300000 3000 >/dev/null 2>&1
rc=$?
n=$(perf script -i /tmp/nmi-all.data -F event 2>/dev/null | grep -c cycles)
[ $rc = 0 ] && [ "${n:-0}" -ge 500 ]
result record_all_nmi $? "perf record -a exit $rc, samples=$n"

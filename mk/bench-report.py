#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Turn make bench's BENCH lines into BENCHMARKS.md (stdout).

Usage: bench-report.py OUTDIR BASE_VERSION QEMU_VERSION
OUTDIR holds {stock,ours}-{vhe,nvhe,protected}.txt, "name value [spread]"
lines (mk/bench.sh).
"""
import sys

MODES = [("vhe", "VHE host"), ("nvhe", "nVHE host (kvm-arm.mode=nvhe)"),
         ("protected", "protected host (kvm-arm.mode=protected)")]

ROWS = [
    ("partition_nohv", "partition error, exclude_hv events (per 1,000 entries)"),
    ("partition_hv", "partition error, !exclude_hv events (per 1,000 entries)"),
    ("guest_missed_nohv", "guest-only misses, of 2,000,000 more guest instructions"),
    ("host_leaked_nohv", "host-only counts, of 2,000,000 more guest instructions"),
    ("guest_missed_hv", "guest-only misses, same, !exclude_hv events"),
    ("host_leaked_hv", "host-only counts, same, !exclude_hv events"),
    ("switch_host_0", "world switch, no counter switching"),
    ("switch_host_1", "world switch, 1 host-only !exclude_hv counter"),
    ("switch_host_4", "world switch, 4 host-only !exclude_hv counters"),
    ("switch_host_6", "world switch, all 6 host-only !exclude_hv counters"),
    ("switch_guest_1", "world switch, 1 guest-only counter"),
    ("switch_guest_4", "world switch, 4 guest-only counters"),
    ("switch_guest_6", "world switch, all 6 guest-only counters"),
    ("loadput_0", "KVM_RUN round trip (vcpu_load/put), no counter switching"),
    ("loadput_1", "KVM_RUN round trip, 1 host-only counter switching"),
    ("loadput_4", "KVM_RUN round trip, 4 host-only counters switching"),
    ("loadput_6", "KVM_RUN round trip, all 6 host-only counters switching"),
    ("exitentry_0", "whole exit+entry, host kernel + EL2, no counter switching"),
    ("exitentry_1", "whole exit+entry, 1 host-only !exclude_hv counter"),
    ("exitentry_4", "whole exit+entry, 4 host-only !exclude_hv counters"),
    ("exitentry_6", "whole exit+entry, all 6 host-only !exclude_hv counters"),
    ("vpmu_el0_error", "vPMU: guest EL0 count minus its EL0 loop"),
    ("vpmu_sum_error", "vPMU: guest (EL0+EL1) against both-EL counter, worst difference of 3 runs"),
    ("vpmu_el1_overhead", "vPMU: guest EL1 count beyond its EL1 loop"),
]

# A row per stock bug (fixes/): its figure on stock, stock with the
# series and ours.  vpmu_price_0 is derived (load_kernel()).
BUG_ROWS = [
    ("partition_hv", "nVHE world switch: instructions all - host-only - "
     "guest-only, !exclude_hv events, per 1,000 guest entries (7.3 patch 2)"),
    ("guest_missed_nohv", "guest-only misses, of 2,000,000 more guest "
     "instructions (protected: patches 1 and 4)"),
    ("host_leaked_nohv", "host-only counts, of 2,000,000 more guest "
     "instructions (protected: patches 1 and 4)"),
    ("vpmu_rewrite_missed", "vPMU: guest EL0 instructions a counter misses "
     "after the guest writes it (VHE: patch 3)"),
    ("vpmu_rewrite_overflow", "vPMU: the overflow the guest wrote the "
     "counter to reach, seen (1) or lost (0) (protected: patch 5)"),
    ("group_unthrottles", "a group of 7 throttled at period 1,000 over "
     "40 ms: times it was restarted (patch 7)"),
    ("group_samples", "the same: samples taken"),
    ("vpmu_price_0", "a trapped-vPMU VM's exit+entry beyond a VM without "
     "a PMU, host instructions (patch 9)"),
]

FIXES_NOTE = ("*stock+fixes*: the same base tree with the series of "
              "`fixes/` (`make fixes`), the stock bugs we found as "
              "upstream-style patches on the stock code, and nothing else "
              "of ours.  Its exactness rows must equal ours.\n")

# One perf-register BATCH call's whole host work (tests/kvm/pmu_bench.c):
# BENCH batch_<row> per call, batch_worst_done the entries it carried out.
# Ours only: stock has no service, and pmu_bench prints no such line.
BATCH_ROWS = [
    ("worst", "256 writes of PMCR_EL0 with P and C (the worst list)"),
    ("one", "one read of PMCR_EL0"),
]

BATCH_NOTE = ("Ours only (stock has no perf-register service).  The worst "
              "call stops at its 1,024-unit work budget, N + 1 units a reset.\n")

# perf's hot paths on the host (tests/guest/hotpath.c): BENCH <row> least
# spread, instructions per operation from the -icount clock.
HOT_ROWS = [
    ("switch_0", "context switch, no events (pipe ping-pong, two threads, one CPU)"),
    ("switch_1", "context switch, 1 event a thread (cycles)"),
    ("switch_4", "context switch, 4 events a thread (cycles + 3 instructions)"),
    ("switch_7", "context switch, 7 events a thread (cycles + 6: the whole PMU)"),
    ("switch_12", "context switch, 12 events a thread (multiplexed)"),
    ("read_1", "read() of a group of 1 (cycles)"),
    ("read_4", "read() of a group of 4"),
    ("read_7", "read() of a group of 7"),
    ("enable_1", "PERF_EVENT_IOC_ENABLE, group of 1"),
    ("disable_1", "PERF_EVENT_IOC_DISABLE, group of 1"),
    ("reset_1", "PERF_EVENT_IOC_RESET, group of 1"),
    ("enable_7", "PERF_EVENT_IOC_ENABLE, group of 7"),
    ("disable_7", "PERF_EVENT_IOC_DISABLE, group of 7"),
    ("reset_7", "PERF_EVENT_IOC_RESET, group of 7"),
    ("open_1", "perf_event_open() + close(), one event"),
    ("open_7", "perf_event_open() + close(), a group of 7"),
] + [("overflow_%d" % k, "overflow interrupt, %d sampling event%s (per interrupt)"
      % (k, "s" if k > 1 else "")) for k in range(1, 8)] + [
    ("rdpmc", "user-space counter read through the mmap page (rdpmc)"),
]

# Throttling at a period of 1,000 with perf's default limits, per
# 1,000,000 cycles: counts, not costs (no ratio is a win or a loss).
THROTTLE_ROWS = [
    ("throttle_%d_%s" % (k, w), "%d event%s at period 1,000: %s per 1M cycles"
     % (k, "s" if k > 1 else "", w)) for k in (1, 7)
    for w in ("samples", "throttles", "lost")]

# VHE only: the context switch on more CPUs, and the a57's chained pairs.
SCALING_ROWS = [("switch_%d%s" % (k, sfx), "context switch, %d events a thread, %s"
                 % (k, cpus)) for k in (1, 4, 7)
                for sfx, cpus in (("", "1 CPU"), ("_smp2", "2 CPUs"),
                                  ("_smp4", "4 CPUs"))]
CHAINED_ROWS = [
    ("switch_long_1", "context switch, 1 long=1 event a thread (a chained pair)"),
    ("switch_long_3", "context switch, 3 long=1 events a thread (3 pairs)"),
    ("read_long_1", "read() of a group of 1 long=1 event"),
    ("read_long_3", "read() of a group of 3 long=1 events"),
]

# What each perf operation of a Linux guest costs the host through the
# virtual PMU (tests/guest/vpmu_bench.sh): BENCH vpmu_<op>_exits/_insns.
VPMU_ROWS = [
    ("read1", "group read (perf stat -I): 1 counter + cycle counter"),
    ("read4", "group read: 4 counters + cycle counter"),
    ("read6", "group read: 6 counters + cycle counter"),
    ("overflow", "one overflow interrupt, end to end (perf record -c)"),
    ("open", "one counter opened, enabled, closed"),
    ("switch0", "context switch, no events (baseline)"),
    ("switch1", "context switch, 1 task event a thread"),
    ("switch4", "context switch, 4 task events a thread"),
    ("switch7", "context switch, 7 task events a thread"),
]


def load(path):
    """name -> value, and name + "~" -> spread where a line gives one."""
    vals = {}
    try:
        for line in open(path):
            parts = line.split()
            if len(parts) in (2, 3):
                vals[parts[0]] = parts[1]
            if len(parts) == 3:
                vals[parts[0] + "~"] = parts[2]
    except OSError:
        pass
    return vals


def verdict(stock, ours, key):
    """Whether a cost row's difference stands out of its runs' spread."""
    try:
        s, o = float(stock[key]), float(ours[key])
        spread = max(float(stock[key + "~"]), float(ours[key + "~"]))
    except (KeyError, ValueError):
        return ""
    if abs(o - s) <= spread:
        return "within spread"
    return "ours lower" if o < s else "ours higher"


def spread_table(stock, ours, rows):
    print("| operation | stock | ours | spread, stock / ours | ours/stock | |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for key, label in rows:
        s, o = stock.get(key, "n/a"), ours.get(key, "n/a")
        sp = "%s / %s" % (stock.get(key + "~", "-"), ours.get(key + "~", "-"))
        print("| %s | %s | %s | %s | %s | %s |" % (
            label, s, o, sp, ratio(s, o), verdict(stock, ours, key)))
    print()
    higher = ["%s (%+.0f)" % (label, float(ours[key]) - float(stock[key]))
              for key, label in rows
              if verdict(stock, ours, key) == "ours higher"]
    print("Above stock beyond the spread: %s.\n" %
          ("; ".join(higher) if higher else "no row"))


def plain_table(stock, ours, rows, head="figure"):
    print("| %s | stock | ours | ours/stock |" % head)
    print("| --- | ---: | ---: | ---: |")
    for key, label in rows:
        s, o = stock.get(key, "n/a"), ours.get(key, "n/a")
        print("| %s | %s | %s | %s |" % (label, s, o, ratio(s, o)))
    print()


def load_kernel(path):
    """load(), with the derived figures BUG_ROWS shows."""
    vals = load(path)
    price_0 = price(vals.get("vpmu_exitentry_0", "n/a"),
                    vals.get("exitentry_0", "n/a"))
    if price_0 != "n/a":
        vals["vpmu_price_0"] = price_0.lstrip("+")
    return vals


def fixes_table(stock, fixes, ours, rows):
    """The KVM switch rows on stock, stock with the series of fixes/ (the
    stock bugs' upstream-style fixes, mk/fixes.sh) and ours."""
    print("| figure | stock | stock+fixes | ours | stock+fixes - stock "
          "| ours - stock+fixes |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for key, label in rows:
        s, f, o = (k.get(key, "n/a") for k in (stock, fixes, ours))
        print("| %s | %s | %s | %s | %s | %s |" % (
            label, s, f, o, price(f, s), price(o, f)))
    print()


def batch_table(stock, ours):
    """One BATCH call, and what each entry of the worst adds."""
    print("| BATCH call | stock | ours | entries carried out |")
    print("| --- | ---: | ---: | ---: |")
    for key, label in BATCH_ROWS:
        done = ours.get("batch_worst_done", "n/a") if key == "worst" else \
            ("1" if "batch_one" in ours else "n/a")
        print("| %s | %s | %s | %s |" % (
            label, stock.get("batch_" + key, "n/a (no service)"),
            ours.get("batch_" + key, "n/a"), done))
    try:
        per = "%.0f" % ((float(ours["batch_worst"]) - float(ours["batch_one"]))
                        / float(ours["batch_worst_done"]))
    except (KeyError, ValueError, ZeroDivisionError):
        per = "n/a"
    print("| the worst call less the one-read call, per entry carried out | "
          "n/a (no service) | %s | |" % per)
    print()


# The direct PMU's price per exit+entry (tests/kvm/pmu_bench.c): a VM
# with the direct PMU (ours only) against the same VM without a PMU and
# with the trapped vPMU, and what the trapped vPMU costs on stock.
DIRECT_ROWS = [
    ("switch_host_%d", "switch_%d",
     "world switch, %d host-only !exclude_hv counter%s"),
    ("exitentry_%d", "exitentry_%d",
     "whole exit+entry, host kernel + EL2, %d host-only counter%s"),
]


def price(a, b):
    try:
        return "%+.0f" % (float(a) - float(b))
    except ValueError:
        return "n/a"


def direct_table(stock, fixes, ours):
    print("| figure | stock: no PMU | stock: trapped vPMU | no PMU | "
          "trapped vPMU | direct PMU | stock: trapped - no PMU | "
          "stock+fixes: trapped - no PMU | "
          "trapped - no PMU | direct - no PMU | direct - trapped |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
          "| ---: | ---: |")
    for key, dkey, label in DIRECT_ROWS:
        for k in (0, 1):
            snone = stock.get(key % k, "n/a")
            strapped = stock.get("vpmu_" + dkey % k, "n/a")
            fnone = fixes.get(key % k, "n/a")
            ftrapped = fixes.get("vpmu_" + dkey % k, "n/a")
            none = ours.get(key % k, "n/a")
            trapped = ours.get("vpmu_" + dkey % k, "n/a")
            direct = ours.get("direct_" + dkey % k, "n/a")
            print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |"
                  % (label % (k, "" if k == 1 else "s"), snone, strapped,
                     none, trapped, direct, price(strapped, snone),
                     price(ftrapped, fnone), price(trapped, none),
                     price(direct, none), price(direct, trapped)))
    print()


def ratio(stock, ours):
    """ours / stock; none where either is below 0 (noise)."""
    try:
        s, o = float(stock), float(ours)
    except ValueError:
        return ""
    if s == 0:
        return "" if o == 0 else "-"
    if s < 0 or o < 0:
        return ""
    return "%.3f" % (o / s)


def main():
    out, base, qemu = sys.argv[1:4]
    series = ".".join(base.split(".")[:2])
    print("# Benchmarks: stock %s PMUv3 + KVM vs pmuv3-kvm\n" % series)
    print("Measured by `make bench` (`mk/bench.sh`): the kernels (stock, "
          "stock with the series of `fixes/`, ours) built from "
          "Linux %s (Debian `linux-source-%s`) with the same config "
          "(allnoconfig + `arch/arm64/configs/pmuv3_kvm.config`), booted "
          "side by side (one QEMU each, every figure an instruction count) under %s as `-M virt,virtualization=on,"
          "gic-version=3 -cpu max -icount shift=0 -smp 1` (`-smp` 2 and 4 "
          "for the scaling rows, `-cpu cortex-a57` for the chained ones), "
          "running the same static programs (`tests/kvm/pmu_bench.c`, "
          "`tools/testing/selftests/kvm/arm64/vpmu_self_count.c`, `tests/guest/hotpath.c`, "
          "`tests/guest/vpmu_ops.c`).\n" % (base, series, qemu))
    print("""Every figure is an instruction count taken with the PMU itself
(INST_RETIRED, deterministic under `-icount`), not a time:

- *partition error*: a group of instruction events (all, `exclude_guest`,
  `exclude_host`, with or without `exclude_hv`) on the vCPU thread around
  a guest making 1,000 in-kernel hypercalls; |all - host - guest|.
- *guest-only misses / host-only counts*: the same group around two runs
  whose guest EL1 loops differ by 2,000,000 instructions in all: how many
  of them the guest-only event fails to count, and how many the
  host-only event counts (both should be 0; a partition can hold while
  both are wrong, as the stock protected mode shows).
- *world switch*: instructions per guest exit+entry, counted at EL2 on
  nVHE and protected hosts (the hypervisor) and in the host kernel (EL2)
  on VHE, by an event that needs no switching itself; the difference
  between runs of 120 and 20 hypercalls, divided by 100, so fixed
  costs cancel; each run is the least of five (a run that a host
  interrupt landed in has a whole extra exit; runs of 600, about 8 ms
  in protected mode, were longer than a 4 ms timer tick).  Each VM
  first runs one round uncounted, so that the counted runs hold no
  first-run work (in protected mode the hypervisor's VM and vCPU, every
  stage-2 fault): counted, that work varied by hundreds to thousands of
  instructions between VMs and made protected mode's figures move by up
  to 60 per exit+entry between boots.  Every mode now repeats to the
  instruction.  With K other events on the vCPU thread that need
  switching.
- *KVM_RUN round trip*: the same with the guest exiting to user space
  every round, so each round is one `vcpu_load` and `vcpu_put`.
- *vPMU*: the guest counts its own 100,000-iteration EL1 and EL0 loops
  with its virtual PMU (EL0-only, EL1-only and both-EL counters).
- *perf-register BATCH*: one hypercall's whole host work, instructions
  at every EL but EL0 on the vCPU thread (host kernel and EL2, and the
  guest's few EL1 instructions around the call), per call: runs of 4
  and 1 worst calls, 120 and 20 one-read calls, each the least of five.
  The worst list is 256 writes of PMCR_EL0 with P and C to a stopped
  vPMU whose every counter has a host perf event: each entry releases
  and re-creates N + 1 of them (N event counters and the cycle counter)
  and costs N + 1 of the call's 1,024 work units, so the call stops at
  the budget after 1024 / (N + 1) entries.  It is sent without
  `PARTIAL` (such a call stops only at the budget; one with it may stop
  sooner), so this is the most one call does.
""")
    print(HOT_INTRO)
    print(VPMU_INTRO)
    for mode, title in MODES:
        stock = load_kernel("%s/stock-%s.txt" % (out, mode))
        ours = load_kernel("%s/ours-%s.txt" % (out, mode))
        fixes = load_kernel("%s/fixes-%s.txt" % (out, mode))
        print("## %s\n" % title)
        print("### Stock bugs\n")
        print(FIXES_NOTE)
        fixes_table(stock, fixes, ours, BUG_ROWS)
        print("### KVM switch\n")
        fixes_table(stock, fixes, ours, ROWS)
        print("### Perf-register BATCH: host work of one call\n")
        print(BATCH_NOTE)
        batch_table(stock, ours)
        print("### The direct PMU: its price per exit+entry\n")
        print("The same guest loop in a VM without a PMU, in one whose "
              "vCPU has the trapped vPMU (on every kernel), and in one with "
              "the direct PMU (ours only, the default share, 3 of 6 "
              "counters); the goal is the direct VM within +100 "
              "instructions of the VM without a PMU.  Stock 7.3 gives the "
              "vGIC the PMU's overflow level at every entry and exit; ours "
              "only when it changes (glue 0022).\n")
        direct_table(stock, fixes, ours)
        print("### perf's hot paths, instructions per operation (one CPU)\n")
        spread_table(stock, ours, HOT_ROWS)
        print("Throttling, counted:\n")
        plain_table(stock, ours, THROTTLE_ROWS)
        if mode == "vhe":
            print("### How the context switch grows with CPUs (VHE)\n")
            spread_table(stock, ours, SCALING_ROWS)
            print("### Chained pairs: the a57 PMU, 32-bit counters (nVHE, one CPU)\n")
            spread_table(stock, ours, CHAINED_ROWS)
        print("### vPMU: a Linux guest's perf operations, per operation\n")
        print("Exits and host instructions: the stock host (the guest's "
              "register accesses trap), ours with them trapped "
              "(`arm_pmuv3.perfreg=0`), ours with the perf-register "
              "service (of its exits, how many are its hypercalls), ours "
              "with the direct PMU (`kvm.pmu_direct=1`, a share of 4 "
              "counters: n/a where the guest's group does not fit) in the "
              "guarded trap profile (`kvm.pmu_direct_guard=on`; Debian's QEMU "
              "gets it), and in the unguarded one a PMU that enforces HPMN "
              "gets.\n")
        print("| operation | exits: stock | ours, trapped | ours, service "
              "| ours, direct | ours, unguarded | host instructions: stock "
              "| ours, trapped | ours, service | ours, direct "
              "| ours, unguarded | service/trapped | stock/direct "
              "| stock/unguarded |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
              "| ---: | ---: | ---: | ---: | ---: |")
        for key, label in VPMU_ROWS:
            cells = []
            for what in ("exits", "insns"):
                cells.append(stock.get("vpmu_%s_%s" % (key, what), "n/a"))
                cells.append(ours.get("vpmu_%s_%s" % (key, what), "n/a"))
                cells.append(ours.get("vpmu_svc_%s_%s" % (key, what), "n/a"))
                # A share of 4: the group of 6 and the cycle counter does not fit.
                for pfx in ("vpmu_direct", "vpmu_unguarded"):
                    cells.append("n/a" if key == "read6" else
                                 ours.get("%s_%s_%s" % (pfx, key, what), "n/a"))
            hvcs = ours.get("vpmu_svc_%s_hvcs" % key)
            if hvcs:
                cells[2] += " (%s hvc)" % hvcs
            print("| %s | %s | %s | %s | %s |" % (label, " | ".join(cells),
                                                   ratio(cells[6], cells[7]),
                                                   ratio(cells[8], cells[5]),
                                                   ratio(cells[9], cells[5])))
        print()
        filtered_table(ours)
    print(NOTES)


def filtered_table(ours):
    """The direct PMU's vPMU rows with an event filter next to without."""
    if not any(k.startswith("vpmu_direct_filtered_") for k in ours):
        return
    print("### vPMU: the direct PMU with an event filter\n")
    print("The same Linux guest on the direct PMU, its VMM (Debian's QEMU) "
          "given an event filter by `tests/guest/preload/pmu_filter.c` "
          "(`KVM_ARM_VCPU_PMU_V3_FILTER` denying event 0x24, which the "
          "guest's events pass), so that its type accesses and `PMCEID` "
          "reads trap (pmu-direct.rst, Event filters); in both trap "
          "profiles.  The goal: each filtered row within +10 % of the "
          "same row without.\n")
    print("| operation | exits: direct | direct, filtered | unguarded "
          "| unguarded, filtered | host instructions: direct "
          "| direct, filtered | unguarded | unguarded, filtered "
          "| filtered/direct | filtered/unguarded |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
          "| ---: | ---: |")
    for key, label in VPMU_ROWS:
        if key == "read6":
            continue
        cells = []
        for what in ("exits", "insns"):
            for pfx in ("vpmu_direct", "vpmu_direct_filtered", "vpmu_unguarded",
                        "vpmu_unguarded_filtered"):
                cells.append(ours.get("%s_%s_%s" % (pfx, key, what), "n/a"))
        print("| %s | %s | %s | %s |" % (label, " | ".join(cells),
                                         ratio(cells[4], cells[5]),
                                         ratio(cells[6], cells[7])))
    print()


HOT_INTRO = """The *hot paths* tables (`tests/guest/hotpath.c`, on one CPU unless
said) count what every perf user pays, per operation, in instructions at
every EL: under `-icount shift=0` QEMU's virtual clock advances exactly
one nanosecond per instruction retired, so `CLOCK_MONOTONIC` around a
loop counts its instructions without taking a PMU counter from the
workload (the 7-event rows need all seven); each boot checks that
premise against a CPU-wide instructions event over a known loop
(`clock_vs_pmu`, 0.99974 in every boot).  Each figure is the least run
of N2 operations minus the least of N1, over N2 - N1 (fixed costs
cancel), 7 runs each; *spread* is how far the N2 runs range, per
operation.  A row whose difference is within the larger spread says so
and claims nothing.  The ioctl rows time each call on its own (the
clock's own cost measured and taken off); the overflow rows take each
sampling run (K `cycles:u` events in one group at a period of 20,000, so
they overflow together; IP, TID, TIME and PERIOD into a ring buffer, as
`perf record -c` writes) less the least counting-only run of the same
loop, over that run's interrupts.  The events have no `exclude_*` bits
set, so neither kernel gives them to KVM's switch state.
"""


VPMU_INTRO = """The *vPMU* tables measure a Linux guest (our kernel at EL1 under
Debian's arm64 QEMU with `-accel kvm -cpu host`, one vCPU, on a host
booted with `-smp 1`) doing one perf operation over and over
(`tests/guest/vpmu_ops.c`), while the host counts, around each run, KVM's
exits (`/sys/kernel/debug/kvm/exits`) and host-only kernel and
hypervisor instructions on the vCPU thread (a pinned `exclude_user`,
`exclude_guest` instructions event: host kernel and EL2 on nVHE and
protected hosts, the EL2 kernel on VHE).  Per operation: the difference
between runs of 600 and 100 operations (for the overflow row, 250 and 50
sampling periods, less the same loops counting only, per sample taken),
each run the least of three; on the direct PMU, whose operations cost
so little that a run's own work (the process, the guest's ticks) would
move them by a few hundred, 2,600 and 100 (1,050 and 50 periods).  The
guest runs the trap-and-emulate path: every PMU register access it
makes is an exit.  With 7 guest counters in
use (6-counter reads, 7-event switches) the host's own pinned counter
leaves one of them without a host counter behind it; the guest's
accesses, and so its exits, are the same.  Same guest kernel and
programs on both hosts.
"""


NOTES = """## Reading the tables

Figures of the 7.3 run under QEMU 10.0.2 (every mode on one CPU); the
notes say where a figure is not understood yet.

- **The direct PMU column** (`kvm.pmu_direct=1`, every mode) runs the
  guarded profile (`kvm.pmu_direct_guard=on`), the one a PMU that does
  not enforce HPMN at EL1 gets (Debian's QEMU): every counter-indexed
  access and every `PMCR_EL0` access traps to EL2 and is served there
  without an exit, and those EL2 round trips are in its host
  instructions.  On a PMU that enforces HPMN only `PMINTEN` and
  `PMOVS` writes would trap.  Its guest has 4 counters (the host keeps
  2 for its own counting), so the 7-event context switch multiplexes
  and the 6-counter group read does not fit (n/a).  An overflow costs
  one exit, the physical interrupt's (the guest's end of interrupt
  takes no maintenance exit since glue 0023).  A trapped
  `PMEVCNTR0_EL0` read's EL2 round trip is about 205 host instructions
  on VHE (`exitcost`); QEMU's exec log of one shows 208, of which about
  150 are the vector, `__guest_exit`, the run loop, `__kvm_skip_instr`
  and `__guest_enter`, which no handler can shed.  An overflow costs at
  least an exit (a direct VM's: 1,389 on VHE, 2,049 on nVHE) plus the
  vGIC's injection and the guest handler's trapped accesses, against
  stock's 37,000 to 44,000: 20x of stock's trap path is out of reach
  for it under QEMU.  The direct column's per-operation figures are
  small differences of large counts: over 500 more operations they
  moved by a few hundred instructions between runs (VHE's 1-counter
  read -32 to 251 in three sets of one boot), over 2,500 more by a few
  tens (177 to 212 in six sets).  On a PMU that enforces HPMN the counter accesses
  do not trap: the next column.

- **The unguarded column** is the same direct PMU in the trap profile a
  PMU that enforces HPMN gets, which the HPMN probe chooses on the
  boots' QEMU (it enforces HPMN, qemu/patches/): only `PMINTEN`
  accesses and `PMOVS` writes trap (to EL2, the overflow's hold).  Group
  reads then cost the host at most about a hundred instructions, within
  the runs' spread (VHE 8 and -39, nVHE 12 and -21, protected 116 and
  17; no ratio is printed for a figure below 0), a counter's open
  and a context switch only their `PMINTENSET`/`PMINTENCLR` writes'
  EL2 round trips (on VHE host kernel code, about 200 instructions
  each), 45x to 4,200x fewer than stock's trap path in every mode.  The
  overflow takes its one exit: 1,913 (VHE) and 2,527 (nVHE) host
  instructions, 19.4x and 17.1x fewer than stock.  A twentieth of
  stock's is 1,855 and 2,160; a direct VM's exit+entry by hypercall is
  1,389 and 2,049 (the direct PMU's price table), which leaves 466 and
  111 for taking the physical interrupt, the host PMU handler, the
  vGIC's injection and the guest handler's `PMOVSCLR_EL0` round trip,
  which take 524 and 478: not reached, the exit alone being 75% and 95%
  of the budget.  Stock protected
  mode takes no sample in its guest (its vPMU counts nothing there:
  Exactness, below), so that row has no
  ratio there.

- **The event filter table** (`make bench` at 2fca398's successors).  In
  the guarded profile every type access trapped to EL2 already; the
  filter adds its lookup (`kvm_pmu_part_typer_filtered()`) and the
  vCPU's copy of the type: the context switch rows are +3 % to +9 %
  (1 event: VHE 1.090, nVHE 1.063, protected 1.094), the overflow
  -3 % to +10 %, the 4-counter read within 3 %.  The 1-counter read
  (VHE 238 -> 255, nVHE 222 -> 404, protected 343 -> 851) and VHE's
  open (4,822 -> 5,400) move by a few hundred instructions, as these
  small per-operation figures do between runs (the direct column's
  note); their exits rise by 0.01 to 0.03 an operation, which at a
  protected exit's ~12,600 instructions is most of protected's
  difference, and which the filter's own traps do not explain (they
  are served at EL2: `pmu_direct`'s `filter_no_exit`); not understood
  yet.  In the unguarded profile the filter adds what that profile
  otherwise saves: each type write (Linux's driver writes one per
  event at every schedule-in) and read becomes an EL2 round trip of
  about 200 host instructions, of which about 150 are the vector, the
  exit and the entry: +18 % to +41 % on the open and context switch
  rows, above the +10 % goal.  No trap-based filter reaches it there:
  one round trip a type write, with no handler at all, is already
  +18 % of the 1-event switch's 732 to 848; counting exactly under a
  filter needs every type write seen before it counts.

- **Exactness.** Stock nVHE loses the world switch from host-only
  events that count EL2: 983,897 instructions per 1,000 entries, about
  983 per entry (its counters are disabled and enabled inside the world
  switch; 998,999 while the VM's first run was counted too).  Stock protected mode never gives the hypervisor its switch
  state: guest-only events miss all 2,000,000 guest instructions, and
  the guest's own vPMU counts nothing (-200,000 and -200,001 against its
  loops), although all = host + guest still holds.  Ours: 0 in every
  mode.  The "host-only counts" rows (-6,300 to 21,500, both kernels,
  every mode) are host work that differs between the two runs -- the
  second run's guest loop takes 2 ms more of the -icount clock, so the
  host takes other timer interrupts and softirq work -- not guest
  instructions: the guest-only rows and the partitions, exact on one
  CPU, would show a leak.
- **VHE.**  The world switch (host kernel at EL2, per exit+entry) costs
  13 instructions more than stock, whatever is switched (1,248 against
  1,235; 27 more until glue 0014 stopped zeroing a 560-byte stack array
  on every exit): on VHE host-only and guest-only counters are switched at
  vcpu_load and vcpu_put, not per exit.  There, a KVM_RUN round trip
  costs ours 50 to 713 instructions less than stock with 0 to 6
  host-only counters switching.  (In the first run of this table the
  VHE switch and KVM_RUN rows read 0.0: make bench had started passing
  the boot's mode as "vhe-up", which pmu_bench took for nVHE and built
  a filter that counts no EL on VHE.  pmu_bench now takes the -up
  modes, refuses others and checks its event counted; the VHE rows
  above are a rerun of the bench job alone, same kernels, same day.)
- **The world switch, per type-switched counter (nVHE).**  With nothing
  to switch ours costs what stock does (1,122 and 1,124 EL2
  instructions per exit+entry).  A host-only event that counts EL2
  (!exclude_hv) has its type rewritten at entry and exit rather than
  being enabled on one side, which is what keeps the world switch in
  its count: 36, 48 and 57 more EL2 instructions than stock for 1, 4
  and 6 such counters (a fixed cost of the type path, then 3-4 per
  counter: `hyp/pmu_switch.h`); stock's 1,130 buys a count that misses
  the switch.  Guest-only (PMCNTEN) counters cost 10 more.  After the
  run the host kernel also checks that no counter the exit enabled
  lost its event to an NMI meanwhile (`kvm_pmu_vcpu_events_done()`):
  about 21 instructions per nVHE and protected exit+entry, VM with a
  PMU or not (no PMU, nVHE: 1,956 against 1,935 before it).
- **Protected mode.**  Stock 7.3's exit costs the hypervisor about
  11,750 EL2 instructions (README, Known limits: its per-register copy
  of the vCPU state, twice per trap exit).  Ours costs about 520 more
  with nothing to switch, and the whole exit+entry (host kernel and
  EL2) about 630 more (13,107 against 12,480).  Glue 0014 keeps the
  host's 70 vPMU registers across pKVM's state sync at every trap exit:
  with one memcpy each way since this run, through the per-register
  accessors before, when the whole exit+entry cost about 1,970 more
  than stock (14,470): the copy's cost fell by about 1,400.  Broken
  down with the stock fixes (protected-up `bench` boots, 7.3, of stock
  with parts of `fixes/7.3`, `FIXES_DROP`): stock 11,751 EL2
  instructions an exit+entry; with patch 4 alone (HPMN = N) 12,223,
  as the guest's MDCR_EL2 (HPMN = 0, HPME clear) had disabled the
  measuring counter for 472 of stock's own; with patches 1 to 4 12,265;
  with patch 5 too, which leaves the 70 vPMU registers out of pKVM's
  copy both ways, 10,595.  Ours keeps them on the host side (glue 0014)
  because a direct vCPU's are EL2's to sync, and so pays the copy.
- **perf's hot paths.**  Most rows are within their spread of stock,
  and ours is lower for a context switch with 7 or 12 events, group
  reads of 4 and 7, and enabling, disabling or resetting a group of 7;
  each table ends with the rows above stock beyond the spread.  A row
  differing by fewer instructions than its spread claims nothing: the
  least of 7 runs moves by about that much between boots of one kernel
  (ours' nVHE and protected rows, the same host code, differ so).  On the a57, a read
  of a chained pair costs about 19 more per pair: ours re-reads the high
  half of each pair until no carry happened between the halves, where
  stock's read can return a value torn by a carry (2^32 off); that read
  is the price of a right count.  Throttling at a
  period of 1,000 with 7 events: stock 7.3's handler goes on taking
  samples from the group's other members after the first has throttled
  the group, which wraps their throttle count, so the core never
  restarts the group and it samples for one tick only (perf core,
  `__perf_event_account_interrupt()`); ours skips a member the core has
  stopped (`armv8pmu_overflow_pending()`), and the group samples again
  after every tick.  The overflow rows' spread is large (QEMU delivers
  some overflow interrupts late, so runs take different numbers of
  them): a row whose least run sits at the top of the other kernel's
  range (a run that took fewer, later interrupts) says nothing of the
  handler.
- **vPMU, trapped and with the service.**  Trapped, every guest PMU
  register access is an exit costing the host about 2,500 (VHE) to
  15,000 (protected) instructions, ours as stock.  With the
  perf-register service a group read is one exit whatever its size
  (6 counters: 0.36 of the trapped path's host instructions on VHE,
  0.30 on nVHE, 0.18 in protected mode); opening and enabling an event
  3 calls, a context switch 2 to 3, an overflow interrupt 2 hypercalls
  plus the 2 exits that come with the interrupt (0.33, 0.34 and 0.26 of
  the trapped cost).  Stock protected mode has no overflow row: its
  guest counters never count, so the guest takes no samples.  In
  protected mode the trapped path's exit counts can vary with the run
  (an earlier run: 64 and 83 exits for 4 and 7 events against stock's
  43 and 97): each exit is long enough there for more timer interrupts
  to land in a run.
  What remains under the service is KVM's work behind each guest
  counter: a write of a running counter restarts its host perf event in
  place (glue 0008) and a read reads it in place (glue 0009), but a type
  write, or a value written while the counter is stopped, still replaces
  the event (a release and a create, several thousand instructions).
"""


main()

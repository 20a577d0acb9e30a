// SPDX-License-Identifier: GPL-2.0-only
/*
 * Perf driver for the Armv8/Armv9 PMUv3 CPU PMU, built on the arm_pmu
 * framework, with exact KVM host/guest filtering.
 *
 * The driver has two units, with arm_pmuv3_internal.h between them:
 *  - arm_pmuv3_events.c, the event ABI: config checks, the filters of
 *    an event's exclude_* bits, event maps, the cores and sysfs, all
 *    pure and driven by KUnit;
 *  - this file: thin register wrappers around <asm/arm_pmuv3.h>, owning
 *    the barriers; counter allocation, inline in the add and del
 *    callbacks; the arm_pmu callbacks, probe and registration, which
 *    glue the two together.
 */

#define pr_fmt(fmt) "pmuv3-kvm: " fmt

/* Before <linux/perf/arm_pmuv3.h>: its 32-bit accessors WARN on a bad index. */
#include <linux/bug.h>
#include <linux/perf/arm_pmuv3.h>

#include <asm/cputype.h>
#include <asm/hypervisor.h>
#include <asm/virt.h>
#include <clocksource/arm_arch_timer.h>

#include <kunit/static_stub.h>
#include <kvm/arm_pmu_direct.h>
#include <kvm/arm_pmu_hvc.h>
#include <kvm/arm_pmu_switch.h>
#include <kvm/arm_pmu_typer.h>
#include <kunit/visibility.h>
#include <linux/acpi.h>
#include <linux/arm-smccc.h>
#include <linux/bitfield.h>
#include <linux/bitmap.h>
#include <linux/clocksource.h>
#include <linux/gfp.h>
#include <linux/nmi.h>
#include <linux/of.h>
#include <linux/perf/arm_pmu.h>
#include <linux/perf/arm_pmuv3_filter.h>
#include <linux/platform_device.h>
#include <linux/sched_clock.h>
#include <linux/smp.h>
#include <linux/slab.h>
#include <linux/sysctl.h>

#include "arm_brbe.h"
#include "arm_pmuv3_hvc.h"
#include "arm_pmuv3_internal.h"

/* ------------------------------------------------------------------------
 * Asking the machine.  Wrapped so that KUnit can redirect it.
 */

VISIBLE_IF_KUNIT enum armv8pmu_host_mode armv8pmu_host_mode(void)
{
	KUNIT_STATIC_STUB_REDIRECT(armv8pmu_host_mode);

	return armv8pmu_running_mode();
}
EXPORT_SYMBOL_IF_KUNIT(armv8pmu_host_mode);

/*
 * Whether KVM can run guests here: KVM built and initialised, which
 * kvm-arm.mode=none (or no EL2) prevents.  Events are created long after
 * KVM's initcall, so asking at event creation is safe.
 */
VISIBLE_IF_KUNIT bool armv8pmu_kvm_active(void)
{
	KUNIT_STATIC_STUB_REDIRECT(armv8pmu_kvm_active);

#if IS_ENABLED(CONFIG_KVM) && defined(CONFIG_ARM64)
	return is_kvm_arm_initialised();
#else
	return false;
#endif
}
EXPORT_SYMBOL_IF_KUNIT(armv8pmu_kvm_active);

static const char *const armv8pmu_mode_names[ARMV8PMU_NR_MODES] = {
	[ARMV8PMU_MODE_VHE]	= "VHE host",
	[ARMV8PMU_MODE_NVHE]	= "nVHE host",
	[ARMV8PMU_MODE_PKVM]	= "protected-KVM host",
	[ARMV8PMU_MODE_GUEST]	= "EL1 (no EL2)",
};

/*
 * Whether the hypervisor under this EL1 kernel is KVM: it answered the
 * vendor-specific UID call with KVM's UID (kvm_init_hyp_services(), at
 * PSCI setup, long before the PMU probes).
 */
static bool armv8pmu_kvm_guest(void)
{
#if IS_ENABLED(CONFIG_HAVE_ARM_SMCCC_DISCOVERY)
	return kvm_arm_hyp_service_available(ARM_SMCCC_KVM_FUNC_FEATURES);
#else
	return false;
#endif
}

static const char *armv8pmu_mode_name(enum armv8pmu_host_mode mode)
{
	if (mode == ARMV8PMU_MODE_GUEST && armv8pmu_kvm_guest())
		return "KVM guest (EL1, no EL2)";
	return armv8pmu_mode_names[mode];
}

static int sysctl_perf_user_access __read_mostly;

/* ------------------------------------------------------------------------
 * Register access.  Only <asm/arm_pmuv3.h> touches the system registers;
 * these wrappers add the synchronisation each access needs, or, in a KVM
 * guest with the perf-register service, queue the access (arm_pmuv3_hvc.c).
 */

static void armv8pmu_pmcr_write(u64 val)
{
	val &= ARMV8_PMU_PMCR_MASK;
	if (armv8pmu_hvc())
		return armv8pmu_hvc_write_pmcr(val);
	isb();
	write_pmcr(val);
}

static u64 armv8pmu_pmcr_read(void)
{
	if (armv8pmu_hvc())
		return armv8pmu_hvc_pmcr();
	return read_pmcr();
}

static u64 armv8pmu_read_evcntr(int idx)
{
	if (idx == ARMV8_PMU_CYCLE_IDX)
		return read_pmccntr();
	if (idx == ARMV8_PMU_INSTR_IDX)
		return read_pmicntr();
	return read_pmevcntrn(idx);
}

static void armv8pmu_write_evcntr(int idx, u64 val)
{
	if (idx == ARMV8_PMU_CYCLE_IDX)
		write_pmccntr(val);
	else if (idx == ARMV8_PMU_INSTR_IDX)
		write_pmicntr(val);
	else
		write_pmevcntrn(idx, val);
}

/*
 * The same through the perf-register service, which covers the event
 * counters and the cycle counter (not the instruction counter).  The
 * callers test armv8pmu_hvc() once per event, not once per register, so
 * that a host's counter accesses carry no per-register test.
 */
static u64 armv8pmu_hvc_read_evcntr(int idx)
{
	if (idx > ARMV8_PMU_CYCLE_IDX)
		return armv8pmu_read_evcntr(idx);
	return armv8pmu_hvc_read_counter(idx);
}

static void armv8pmu_hvc_write_evcntr(int idx, u64 val)
{
	if (idx > ARMV8_PMU_CYCLE_IDX)
		armv8pmu_write_evcntr(idx, val);
	else
		armv8pmu_hvc_write_counter(idx, val);
}

/* The driver's type writes; KVM's VHE switch uses armv8pmu_write_typer(). */
static void armv8pmu_set_typer(int idx, u64 val)
{
	if (armv8pmu_hvc() && idx <= ARMV8_PMU_CYCLE_IDX)
		armv8pmu_hvc_write(KVM_PERFREG_PMEVTYPER(idx),
				   val & kvm_pmu_typer_mask(idx));
	else
		armv8pmu_write_typer(idx, val);
}

static void armv8pmu_enable_counters(u64 mask)
{
	if (armv8pmu_hvc())
		return armv8pmu_hvc_write(KVM_PERFREG_PMCNTENSET, mask);
	/* Counters must not start before their type and value are set. */
	isb();
	write_pmcntenset(mask);
}

static void armv8pmu_disable_counters(u64 mask)
{
	if (armv8pmu_hvc())
		return armv8pmu_hvc_write(KVM_PERFREG_PMCNTENCLR, mask);
	write_pmcntenclr(mask);
	/* Stop counting before the caller reads or reprograms them. */
	isb();
}

static void armv8pmu_enable_intens(u64 mask)
{
	if (armv8pmu_hvc())
		return armv8pmu_hvc_write(KVM_PERFREG_PMINTENSET, mask);
	write_pmintenset(mask);
}

static void armv8pmu_disable_intens(u64 mask)
{
	if (armv8pmu_hvc()) {
		armv8pmu_hvc_write(KVM_PERFREG_PMINTENCLR, mask);
		return armv8pmu_hvc_write(KVM_PERFREG_PMOVSCLR, mask);
	}
	write_pmintenclr(mask);
	isb();
	/* A pending overflow of a disabled counter must not fire later. */
	write_pmovsclr(mask);
	isb();
}

static u64 armv8pmu_getreset_flags(void)
{
	u64 value = read_pmovsclr() & ARMV8_PMU_OVERFLOWED_MASK;

	write_pmovsclr(value);
	return value;
}

static void armv8pmu_write_userenr(u32 val)
{
	if (armv8pmu_hvc())
		return armv8pmu_hvc_write(KVM_PERFREG_PMUSERENR, val);
	/* With a vCPU loaded on VHE, KVM owns PMUSERENR_EL0 until put. */
	if (kvm_set_pmuserenr(val))
		return;
	write_pmuserenr(val);
}

/* ------------------------------------------------------------------------
 * Per-event helpers.
 */

/* A 64-bit event on a PMU whose event counters are 32-bit asks for a pair. */
static bool armv8pmu_event_wants_pair(struct perf_event *event)
{
	struct arm_pmu *cpu_pmu = to_arm_pmu(event->pmu);

	return (event->hw.flags & ARMPMU_EVT_64BIT) &&
	       !armv8pmu_has_long_counters(cpu_pmu->pmuver);
}

/*
 * Whether the event holds a pair: it asked for one and got event
 * counters, not a 64-bit fixed counter (PMCCNTR, PMICNTR).  Read from the
 * event's own counter, never stored by get_event_idx(): arm_pmu's group
 * validation calls that on a scratch PMU for events that are running.
 */
static bool armv8pmu_event_is_chained(struct perf_event *event)
{
	int idx = event->hw.idx;

	return armv8pmu_event_wants_pair(event) &&
	       idx >= 0 && idx < ARMV8_PMU_CYCLE_IDX;
}

/*
 * The counters an event on counter @idx occupies, a pair if @chained, as
 * a PMCNTEN/PMINTEN-style mask.
 */
static u64 armv8pmu_cnten_mask(int idx, bool chained)
{
	return chained ? BIT_ULL(idx) | BIT_ULL(idx + 1) : BIT_ULL(idx);
}

/* The counter whose overflow ends the period of such an event. */
static int armv8pmu_irq_idx(int idx, bool chained)
{
	return chained ? idx + 1 : idx;
}

static int armv8pmu_event_irq_idx(struct perf_event *event)
{
	return armv8pmu_irq_idx(event->hw.idx, armv8pmu_event_is_chained(event));
}

/*
 * A 32-bit event on a 64-bit counter (PMCCNTR_EL0, which PMCR.LC makes
 * overflow at 64 bits, or PMICNTR_EL0, always 64-bit) is biased so that
 * it overflows at 2^32.
 */
static bool armv8pmu_event_needs_bias(struct perf_event *event)
{
	return !(event->hw.flags & ARMPMU_EVT_64BIT) &&
	       event->hw.idx >= ARMV8_PMU_CYCLE_IDX;
}

/* An event's value, from its counter or its pair, read by @read. */
static __always_inline u64 __armv8pmu_read_counter(struct perf_event *event,
						   u64 (*read)(int idx))
{
	int idx = event->hw.idx;
	u64 hi, lo;

	if (!armv8pmu_event_is_chained(event))
		return read(idx);

	/* Re-read the high half until the pair did not carry meanwhile. */
	do {
		hi = read(idx + 1);
		lo = read(idx);
	} while (hi != read(idx + 1));
	return (hi << 32) | lower_32_bits(lo);
}

static __always_inline void __armv8pmu_write_counter(struct perf_event *event,
						     u64 value,
						     void (*write)(int idx, u64 val))
{
	int idx = event->hw.idx;

	if (armv8pmu_event_needs_bias(event))
		value |= GENMASK_ULL(63, 32);

	if (armv8pmu_event_is_chained(event)) {
		write(idx, lower_32_bits(value));
		write(idx + 1, upper_32_bits(value));
		return;
	}
	write(idx, value);
}

static noinline u64 armv8pmu_hvc_read_event(struct perf_event *event)
{
	return __armv8pmu_read_counter(event, armv8pmu_hvc_read_evcntr);
}

static noinline void armv8pmu_hvc_write_event(struct perf_event *event, u64 value)
{
	__armv8pmu_write_counter(event, value, armv8pmu_hvc_write_evcntr);
}

static u64 armv8pmu_read_counter(struct perf_event *event)
{
	if (armv8pmu_hvc())
		return armv8pmu_hvc_read_event(event);
	return __armv8pmu_read_counter(event, armv8pmu_read_evcntr);
}

static void armv8pmu_write_counter(struct perf_event *event, u64 value)
{
	if (armv8pmu_hvc())
		return armv8pmu_hvc_write_event(event, value);
	__armv8pmu_write_counter(event, value, armv8pmu_write_evcntr);
}

/* The PMEVTYPER value of an event in host context and in guest context. */
static u64 armv8pmu_event_typer(struct perf_event *event, bool guest)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 filter = guest ? lower_32_bits(hwc->config) : hwc->config_base;

	return (hwc->config_base & ~(u64)ARMV8PMU_FILTER_MASK) |
	       (filter & ARMV8PMU_FILTER_MASK);
}

/*
 * Whether KVM must move the event between its host and guest types at
 * guest entry and exit: only when the two differ, which
 * armv8pmu_set_event_filter() found once.  Every other event is none of
 * KVM's business, and costs its switch state nothing.
 */
static bool armv8pmu_event_switches(struct perf_event *event)
{
	return event->hw.flags & ARMV8PMU_EVT_SWITCHES;
}

/*
 * The high counter of a pair counts the low one's overflows (CHAIN); it
 * has the same filter, so that every carry is kept, whatever EL it
 * occurs at, and switches with it.
 */
static u64 armv8pmu_chain_typer(u64 typer)
{
	return ARMV8_PMUV3_PERFCTR_CHAIN | (typer & ARMV8PMU_FILTER_MASK);
}

/*
 * Program the counter(s) of an event whose host and guest types differ:
 * each is registered with KVM, which says which type applies now (a vCPU
 * may be loaded) and whether to enable the event now (a guest-only
 * counter is enabled at guest entry on nVHE).
 */
static noinline bool armv8pmu_program_switching(struct perf_event *event,
						int idx, bool chained)
{
	u64 host = armv8pmu_event_typer(event, false);
	u64 guest = armv8pmu_event_typer(event, true);
	u64 typer;
	bool enable;

	if (chained) {
		kvm_pmu_counter_add(idx + 1, armv8pmu_chain_typer(host),
				    armv8pmu_chain_typer(guest), &typer);
		armv8pmu_set_typer(idx + 1, typer);
	}
	enable = kvm_pmu_counter_add(idx, host, guest, &typer);
	armv8pmu_set_typer(idx, typer);
	return enable;
}

/*
 * Start an event's counter.  Every path that stops a counter disables
 * it, but the counter is disabled here again first: one register write
 * per start stops a counter left enabled by someone else (a hypervisor
 * world switch that applied wrong switch state) before the new event's
 * type is programmed.  An event whose types are alike, every add's
 * common case, gets its one type here, KVM not involved.
 */
static void armv8pmu_enable(struct perf_event *event)
{
	bool chained = armv8pmu_event_is_chained(event);
	u64 typer = event->hw.config_base;
	int idx = event->hw.idx;
	u64 mask = armv8pmu_cnten_mask(idx, chained);
	bool enable = true;

	armv8pmu_disable_counters(mask);
	if (unlikely(armv8pmu_event_switches(event))) {
		enable = armv8pmu_program_switching(event, idx, chained);
	} else {
		if (chained)
			armv8pmu_set_typer(idx + 1, armv8pmu_chain_typer(typer));
		armv8pmu_set_typer(idx, typer);
	}
	armv8pmu_enable_intens(BIT_ULL(armv8pmu_irq_idx(idx, chained)));
	if (enable)
		armv8pmu_enable_counters(mask);
}

static void armv8pmu_disable(struct perf_event *event)
{
	bool chained = armv8pmu_event_is_chained(event);
	int idx = event->hw.idx;

	armv8pmu_disable_counters(armv8pmu_cnten_mask(idx, chained));
	armv8pmu_disable_intens(BIT_ULL(armv8pmu_irq_idx(idx, chained)));
	if (!armv8pmu_event_switches(event))
		return;
	kvm_pmu_counter_del(idx);
	if (chained)
		kvm_pmu_counter_del(idx + 1);
}

/* ------------------------------------------------------------------------
 * Counter allocation, on a used-counter bitmap (inlined into the
 * callbacks every event add and del runs).
 */

/* The event counters (not PMCCNTR, PMICNTR) that exist and are free. */
static __always_inline unsigned long
armv8pmu_free_evcntrs(const unsigned long *used_mask,
		      const unsigned long *cntr_mask)
{
	return *cntr_mask & ~*used_mask & GENMASK(ARMV8_PMU_CYCLE_IDX - 1, 0);
}

/*
 * The lowest free even/odd pair: not only from 0, as a direct-PMU vCPU
 * may own the low counters.  Bit n of @pairs: counters n and n + 1 free,
 * n even.
 */
static __always_inline int armv8pmu_alloc_pair(unsigned long *used_mask,
						const unsigned long *cntr_mask)
{
	unsigned long free = armv8pmu_free_evcntrs(used_mask, cntr_mask);
	unsigned long pairs = free & (free >> 1) & 0x55555555UL;
	int idx;

	if (!pairs)
		return -EAGAIN;
	idx = __ffs(pairs);
	*used_mask |= 3UL << idx;
	return idx;
}

static __always_inline int armv8pmu_alloc_single(unsigned long *used_mask,
						  const unsigned long *cntr_mask)
{
	unsigned long free = armv8pmu_free_evcntrs(used_mask, cntr_mask);
	int idx;

	if (!free)
		return -EAGAIN;
	idx = __ffs(free);
	__set_bit(idx, used_mask);
	return idx;
}

/* Take a fixed-function counter (PMCCNTR, PMICNTR) if it exists and is free. */
static __always_inline bool armv8pmu_alloc_fixed(unsigned long *used_mask,
						  const unsigned long *cntr_mask, int idx)
{
	return test_bit(idx, cntr_mask) && !__test_and_set_bit(idx, used_mask);
}

/*
 * Pick counters for an event.  CPU_CYCLES goes to PMCCNTR_EL0 and
 * INST_RETIRED to PMICNTR_EL0 (FEAT_PMUv3_ICNTR) when they are free and
 * no threshold is asked for (neither filter register has a TH field),
 * CPU_CYCLES only where PMCCNTR_EL0 may be used (@req->no_pmccntr).
 * An event that EL0 reads directly never gets a chained pair, which user
 * space would read as one 64-bit counter, nor PMICNTR_EL0, which it does
 * not know how to read.
 *
 * Return: the counter index (the low counter of a pair), or -EAGAIN.
 */
static __always_inline int __armv8pmu_alloc_counter(unsigned long *used_mask,
						     const unsigned long *cntr_mask,
						     const struct armv8pmu_alloc_req *req)
{
	if (req->evtype == ARMV8_PMUV3_PERFCTR_CPU_CYCLES && !req->threshold &&
	    !req->no_pmccntr &&
	    armv8pmu_alloc_fixed(used_mask, cntr_mask, ARMV8_PMU_CYCLE_IDX))
		return ARMV8_PMU_CYCLE_IDX;
	if (req->evtype == ARMV8_PMUV3_PERFCTR_INST_RETIRED && !req->threshold &&
	    !req->user_read &&
	    armv8pmu_alloc_fixed(used_mask, cntr_mask, ARMV8_PMU_INSTR_IDX))
		return ARMV8_PMU_INSTR_IDX;

	if (req->chained)
		return req->user_read ? -EAGAIN :
		       armv8pmu_alloc_pair(used_mask, cntr_mask);
	return armv8pmu_alloc_single(used_mask, cntr_mask);
}

#if IS_ENABLED(CONFIG_KUNIT)
/* For the allocation suite: the same, out of line. */
int armv8pmu_alloc_counter(unsigned long *used_mask, const unsigned long *cntr_mask,
			   const struct armv8pmu_alloc_req *req)
{
	return __armv8pmu_alloc_counter(used_mask, cntr_mask, req);
}
EXPORT_SYMBOL_IF_KUNIT(armv8pmu_alloc_counter);
#endif

/*
 * The counters host events may use while a direct-PMU vCPU loaded on this
 * CPU owns @owned (Documentation/arch/arm64/pmu-direct.rst): @avail =
 * @cntr_mask less those.
 */
VISIBLE_IF_KUNIT void armv8pmu_host_avail(unsigned long *avail,
					  const unsigned long *cntr_mask, u64 owned)
{
	DECLARE_BITMAP(own, ARMPMU_MAX_HWEVENTS);

	bitmap_from_u64(own, owned);
	bitmap_andnot(avail, cntr_mask, own, ARMPMU_MAX_HWEVENTS);
}
EXPORT_SYMBOL_IF_KUNIT(armv8pmu_host_avail);

/*
 * Whether the perf core must reschedule this CPU's host events as a vCPU
 * takes counters (@owned) or gives them back (@owned = 0): at load when a
 * host event sits on one it takes (@used), at put when a host event found
 * no counter while they were taken (@starved), so that it gets one now
 * rather than at the next multiplexing rotation.  A pinned event that
 * found none went to ERROR (the perf core's rule for a pinned event that
 * cannot be scheduled) and stays there until it is enabled again.
 */
VISIBLE_IF_KUNIT bool armv8pmu_own_resched(u64 owned, u64 used, bool starved)
{
	return owned ? (owned & used) != 0 : starved;
}
EXPORT_SYMBOL_IF_KUNIT(armv8pmu_own_resched);

static __always_inline void __armv8pmu_free_counter(unsigned long *used_mask,
						     int idx, bool chained)
{
	__clear_bit(idx, used_mask);
	if (chained)
		__clear_bit(idx + 1, used_mask);
}

#if IS_ENABLED(CONFIG_KUNIT)
void armv8pmu_free_counter(unsigned long *used_mask, int idx, bool chained)
{
	__armv8pmu_free_counter(used_mask, idx, chained);
}
EXPORT_SYMBOL_IF_KUNIT(armv8pmu_free_counter);
#endif

/* ------------------------------------------------------------------------
 * Counters a direct-PMU vCPU owns (Documentation/arch/arm64/pmu-direct.rst).
 */

/*
 * Per CPU: those of the vCPU loaded here, which host events must not use,
 * and whether a host event found no counter while it was (starved).
 */
static DEFINE_PER_CPU(u64, armv8pmu_guest_owned);
static DEFINE_PER_CPU(bool, armv8pmu_guest_starved);

/*
 * The counters this CPU's host events may use: cntr_mask itself while no
 * vCPU owns any (every event allocation asks), else @avail filled in.
 */
static const unsigned long *armv8pmu_host_counters(struct arm_pmu *cpu_pmu,
						   unsigned long *avail)
{
	u64 owned = __this_cpu_read(armv8pmu_guest_owned);

	if (!owned)
		return cpu_pmu->cntr_mask;
	armv8pmu_host_avail(avail, cpu_pmu->cntr_mask, owned);
	return avail;
}

/**
 * armv8pmu_guest_own() - give counters of this CPU to a vCPU, or take them back
 * @cpu_pmu: the PMU of this CPU
 * @mask:    the counters the vCPU loaded here owns, or 0 when it is put
 *
 * KVM calls this with IRQs disabled, at vcpu_load before it writes the
 * guest's counters and at vcpu_put after it saved them.  Host events that
 * sit on a counter given away are rescheduled by the perf core onto the
 * others, or wait for one (flexible events multiplex; a pinned event that
 * finds none goes to ERROR, as wherever pinned events outnumber the
 * counters).  Those that waited are rescheduled at put
 * (armv8pmu_own_resched()).
 */
void armv8pmu_guest_own(struct arm_pmu *cpu_pmu, u64 mask)
{
	struct pmu_hw_events *cpuc = this_cpu_ptr(cpu_pmu->hw_events);
	bool starved = __this_cpu_read(armv8pmu_guest_starved);
	u64 used;

	lockdep_assert_irqs_disabled();
	bitmap_to_arr64(&used, cpuc->used_mask, ARMPMU_MAX_HWEVENTS);
	__this_cpu_write(armv8pmu_guest_owned, mask);
	__this_cpu_write(armv8pmu_guest_starved, false);
	if (armv8pmu_own_resched(mask, used, starved))
		perf_pmu_resched(&cpu_pmu->pmu);
}

/* ------------------------------------------------------------------------
 * User-space counter access (kernel.perf_user_access).
 */

static bool armv8pmu_event_user_readable(struct perf_event *event)
{
	return event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT;
}

/*
 * Counters not in use may hold another task's counts: zero them before
 * EL0 may read any counter.
 */
static void armv8pmu_clear_unused_counters(struct arm_pmu *cpu_pmu)
{
	struct pmu_hw_events *cpuc = this_cpu_ptr(cpu_pmu->hw_events);
	DECLARE_BITMAP(avail, ARMPMU_MAX_HWEVENTS);
	const unsigned long *host = armv8pmu_host_counters(cpu_pmu, avail);
	int idx;

	for_each_andnot_bit(idx, host, cpuc->used_mask, ARMPMU_MAX_HWEVENTS)
		if (armv8pmu_hvc())
			armv8pmu_hvc_write_evcntr(idx, 0);
		else
			armv8pmu_write_evcntr(idx, 0);
}

/*
 * The counters EL0 may read under PMUv3p9's per-counter control
 * (PMUACR_EL1: P<n> at bit n, C at 31, F0 at 32): those of this CPU's
 * user-readable events.  The high half of a chained pair has no event.
 */
static u64 armv8pmu_user_counters(struct arm_pmu *cpu_pmu)
{
	struct pmu_hw_events *cpuc = this_cpu_ptr(cpu_pmu->hw_events);
	u64 mask = 0;
	int idx;

	for_each_set_bit(idx, cpuc->used_mask, ARMPMU_MAX_HWEVENTS) {
		struct perf_event *event = cpuc->events[idx];

		if (event && armv8pmu_event_user_readable(event))
			mask |= BIT_ULL(idx);
	}
	return mask;
}

/* Whether EL0 may read counters now: the sysctl allows it, the task asks. */
static bool armv8pmu_user_access_wanted(void)
{
	struct perf_event_context *ctx;

	/* The sysctl first: off by default, it needs no call to test. */
	if (!sysctl_perf_user_access)
		return false;
	ctx = perf_cpu_task_ctx();
	return ctx && ctx->nr_user;
}

/*
 * EL0 access for the task's user-readable events.  With PMUv3p9 only
 * those counters are readable (PMUSERENR_EL0.UEN with PMUACR_EL1), so
 * the others keep their values; before, every counter is, and those not
 * in use are zeroed first.  A KVM guest never sees PMUv3p9 (KVM caps the
 * guest's PMUVer at 3p5), so the perf-register path never gets here with
 * UEN.
 */
static void armv8pmu_update_user_access(struct arm_pmu *cpu_pmu)
{
	u32 userenr = ARMV8_PMU_USERENR_ER;

	if (!armv8pmu_user_access_wanted()) {
		armv8pmu_write_userenr(0);
		return;
	}
	if (!armv8pmu_avoid_pmccntr(cpu_pmu))
		userenr |= ARMV8_PMU_USERENR_CR;
	if (is_pmuv3p9(cpu_pmu->pmuver) && !armv8pmu_hvc()) {
		write_pmuacr(armv8pmu_user_counters(cpu_pmu));
		userenr |= ARMV8_PMU_USERENR_UEN;
	} else {
		armv8pmu_clear_unused_counters(cpu_pmu);
	}
	armv8pmu_write_userenr(userenr);
}

static int armv8pmu_user_event_idx(struct perf_event *event)
{
	if (!sysctl_perf_user_access || !armv8pmu_event_user_readable(event))
		return 0;
	/* perf_event_mmap_page.index is the counter number plus one. */
	return event->hw.idx + 1;
}

/* ------------------------------------------------------------------------
 * arm_pmu callbacks.
 */

static void armv8pmu_start(struct arm_pmu *cpu_pmu)
{
	struct pmu_hw_events *cpuc = this_cpu_ptr(cpu_pmu->hw_events);

	armv8pmu_update_user_access(cpu_pmu);
	if (cpuc->branch_users)
		brbe_enable(cpu_pmu);
	armv8pmu_pmcr_write(armv8pmu_pmcr_read() | ARMV8_PMU_PMCR_E);
}

static void armv8pmu_stop(struct arm_pmu *cpu_pmu)
{
	struct pmu_hw_events *cpuc = this_cpu_ptr(cpu_pmu->hw_events);

	if (cpuc->branch_users)
		brbe_disable();
	armv8pmu_pmcr_write(armv8pmu_pmcr_read() & ~ARMV8_PMU_PMCR_E);
}

/* BRBE's records, filtered for @event, into the sample (arm_brbe.c). */
static void armv8pmu_read_branch_records(struct arm_pmu *cpu_pmu,
					 struct perf_event *event,
					 struct perf_sample_data *data)
{
	struct pmu_hw_events *cpuc = this_cpu_ptr(cpu_pmu->hw_events);

	brbe_read_filtered_entries(cpuc->branch_stack, event);
	perf_sample_save_brstack(data, event, cpuc->branch_stack, NULL);
}

/*
 * @data is the caller's, one for all the events of an interrupt: the
 * kernel may zero every stack variable (CONFIG_INIT_STACK_ALL_ZERO),
 * 256 bytes for this one, which is not worth doing per event.
 */
static void armv8pmu_handle_overflow(struct arm_pmu *cpu_pmu,
				     struct perf_event *event,
				     struct perf_sample_data *data,
				     struct pt_regs *regs)
{
	armpmu_event_update(event);
	perf_sample_data_init(data, 0, event->hw.last_period);
	if (!armpmu_event_set_period(event))
		return;
	if (has_branch_stack(event))
		armv8pmu_read_branch_records(cpu_pmu, event, data);
	/*
	 * A throttled event has been stopped by the perf core already, with
	 * its group; one that reached its event_limit has not.
	 */
	if (perf_event_overflow(event, data, regs) &&
	    !(event->hw.state & PERF_HES_STOPPED))
		cpu_pmu->disable(event);
}

static void armv8pmu_handle_overflows(struct arm_pmu *cpu_pmu, u64 pmovsr,
				      struct pt_regs *regs)
{
	struct pmu_hw_events *cpuc = this_cpu_ptr(cpu_pmu->hw_events);
	struct perf_sample_data data;
	int idx;

	for_each_set_bit(idx, cpu_pmu->cntr_mask, ARMPMU_MAX_HWEVENTS) {
		struct perf_event *event = cpuc->events[idx];

		if (!event ||
		    !armv8pmu_overflow_pending(pmovsr,
					       armv8pmu_event_irq_idx(event),
					       event->hw.state))
			continue;
		armv8pmu_handle_overflow(cpu_pmu, event, &data, regs);
	}
}

/* With the perf-register service: two calls, no stop and start. */
static irqreturn_t armv8pmu_hvc_handle_irq(struct arm_pmu *cpu_pmu)
{
	u64 pmovsr = armv8pmu_hvc_irq_begin();

	if (pmovsr)
		armv8pmu_handle_overflows(cpu_pmu, pmovsr, get_irq_regs());
	armv8pmu_hvc_irq_end();
	return pmovsr ? IRQ_HANDLED : IRQ_NONE;
}

static irqreturn_t armv8pmu_handle_irq(struct arm_pmu *cpu_pmu)
{
	struct pt_regs *regs = get_irq_regs();
	u64 pmovsr;

	if (armv8pmu_hvc())
		return armv8pmu_hvc_handle_irq(cpu_pmu);

	pmovsr = armv8pmu_getreset_flags();
	if (!pmovsr)
		return IRQ_NONE;

	/* Freeze the counters so the events read consistently. */
	armv8pmu_stop(cpu_pmu);
	armv8pmu_handle_overflows(cpu_pmu, pmovsr, regs);
	armv8pmu_start(cpu_pmu);

	/*
	 * Wakeups and the like were queued as irq_work.  Not run here: with
	 * pseudo-NMI this handler is an NMI, where irq_work callbacks must
	 * not run; the irq_work IPI that queueing raised runs them.
	 */
	return IRQ_HANDLED;
}

/* What an event asks of the allocator. */
static __always_inline struct armv8pmu_alloc_req
armv8pmu_alloc_req_of(struct arm_pmu *cpu_pmu, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;

	return (struct armv8pmu_alloc_req) {
		.evtype = hwc->config_base & ARMV8_PMU_EVTYPE_EVENT,
		.chained = armv8pmu_event_wants_pair(event),
		.threshold = !!(hwc->config_base & ARMV8_PMU_EVTYPE_TH),
		.user_read = armv8pmu_event_user_readable(event),
		.no_pmccntr = armv8pmu_avoid_pmccntr(cpu_pmu) ||
			      has_branch_stack(event),
	};
}

/*
 * A vCPU loaded on this CPU owns @owned: the event gets one of the other
 * counters, or none, and then is rescheduled when the vCPU gives them
 * back (armv8pmu_guest_own()).  Out of line, so that the common path
 * needs no stack frame.
 */
static noinline int armv8pmu_get_event_idx_owned(struct pmu_hw_events *cpuc,
						 struct arm_pmu *cpu_pmu,
						 struct perf_event *event, u64 owned)
{
	struct armv8pmu_alloc_req req = armv8pmu_alloc_req_of(cpu_pmu, event);
	DECLARE_BITMAP(avail, ARMPMU_MAX_HWEVENTS);
	int idx;

	armv8pmu_host_avail(avail, cpu_pmu->cntr_mask, owned);
	idx = __armv8pmu_alloc_counter(cpuc->used_mask, avail, &req);
	if (idx < 0)
		__this_cpu_write(armv8pmu_guest_starved, true);
	return idx;
}

static int armv8pmu_get_event_idx(struct pmu_hw_events *cpuc,
				  struct perf_event *event)
{
	struct arm_pmu *cpu_pmu = to_arm_pmu(event->pmu);
	struct armv8pmu_alloc_req req;
	u64 owned = 0;

	/*
	 * arm_pmu's validate_group() asks on a scratch @cpuc, from any CPU
	 * and maybe preemptible: whether the group fits the PMU at all, not
	 * what a vCPU on this CPU owns just now.
	 */
	if (cpuc == raw_cpu_ptr(cpu_pmu->hw_events))
		owned = __this_cpu_read(armv8pmu_guest_owned);
	if (unlikely(owned))
		return armv8pmu_get_event_idx_owned(cpuc, cpu_pmu, event, owned);
	req = armv8pmu_alloc_req_of(cpu_pmu, event);
	return __armv8pmu_alloc_counter(cpuc->used_mask, cpu_pmu->cntr_mask, &req);
}

static void armv8pmu_clear_event_idx(struct pmu_hw_events *cpuc,
				     struct perf_event *event)
{
	__armv8pmu_free_counter(cpuc->used_mask, event->hw.idx,
				armv8pmu_event_is_chained(event));
}

/* BRBE records are stale after a task switch: invalidate them. */
static void armv8pmu_sched_task(struct perf_event_pmu_context *pmu_ctx,
				struct task_struct *task, bool sched_in)
{
	struct arm_pmu *cpu_pmu = to_arm_pmu(pmu_ctx->pmu);
	struct pmu_hw_events *cpuc = this_cpu_ptr(cpu_pmu->hw_events);

	if (cpuc->branch_users && sched_in)
		brbe_invalidate();
}

/*
 * Branch sampling needs BRBE and filters it can express (arm_brbe.c
 * refuses exclude_host, since it records no guest branches, and an
 * event excluding both EL0 and EL1); its sched_task then invalidates
 * the records on a task switch.
 */
static int armv8pmu_check_branch_stack(struct perf_event *event)
{
	struct arm_pmu *cpu_pmu = to_arm_pmu(event->pmu);

	if (!brbe_num_branch_records(cpu_pmu)) {
		pr_debug("branch sampling: no BRBE\n");
		return -EOPNOTSUPP;
	}
	if (!brbe_branch_attr_valid(event)) {
		pr_debug("branch sampling: filters BRBE cannot express\n");
		return -EOPNOTSUPP;
	}
	event->attach_state |= PERF_ATTACH_SCHED_CB;
	return 0;
}

static int armv8pmu_set_event_filter(struct hw_perf_event *hwc,
				     struct perf_event_attr *attr)
{
	struct perf_event *event = container_of(hwc, struct perf_event, hw);
	struct armv8pmu_filter filter;
	int ret;

	if (has_branch_stack(event)) {
		ret = armv8pmu_check_branch_stack(event);
		if (ret)
			return ret;
	}
	ret = armv8pmu_attr_to_filter(attr, armv8pmu_host_mode(), &filter);
	if (ret) {
		pr_debug("exclusions this PMU cannot express here (exclude_idle, or exclude_host with no EL2)\n");
		return ret;
	}
	/* Only guest-only counting needs KVM (ask the machine only then). */
	if (attr->exclude_host) {
		ret = armv8pmu_check_guests(attr, armv8pmu_kvm_active());
		if (ret) {
			pr_debug("exclude_host: KVM is not running here\n");
			return ret;
		}
	}

	/*
	 * arm_pmu ORs the event number in after this returns; the threshold
	 * fields do not fit its int, so they go in here.
	 */
	hwc->config_base = filter.host;
	if (attr->config1 & ARMV8PMU_CFG1_THRESHOLD)
		hwc->config_base |= armv8pmu_attr_to_evtyper(attr) &
				    (ARMV8_PMU_EVTYPE_TH | ARMV8_PMU_EVTYPE_TC);
	hwc->config = filter.guest;
	if (filter.host != filter.guest)
		hwc->flags |= ARMV8PMU_EVT_SWITCHES;
	return 0;
}

static void armv8pmu_reset(void *info)
{
	struct arm_pmu *cpu_pmu = info;
	u64 pmcr = ARMV8_PMU_PMCR_P | ARMV8_PMU_PMCR_C | ARMV8_PMU_PMCR_LC;

	/* Every counter: PMOVSR's P, C and F bits are PMCNTEN's and PMINTEN's. */
	u64 all = ARMV8_PMU_OVERFLOWED_MASK;

	armv8pmu_disable_counters(all);
	armv8pmu_disable_intens(all);
	kvm_pmu_cpu_reset();
	armv8pmu_write_userenr(0);
	if (brbe_num_branch_records(cpu_pmu)) {
		brbe_disable();
		brbe_invalidate();
	}

	if (armv8pmu_has_long_counters(cpu_pmu->pmuver))
		pmcr |= ARMV8_PMU_PMCR_LP;
	armv8pmu_pmcr_write(pmcr);
}

/* ------------------------------------------------------------------------
 * Probe.
 */

struct armv8pmu_probe_info {
	struct arm_pmu *pmu;
	bool present;
};

static void armv8pmu_read_pmceid(struct arm_pmu *cpu_pmu)
{
	u64 pmceid[2] = { read_pmceid0(), read_pmceid1() };
	u32 common[2] = { lower_32_bits(pmceid[0]), lower_32_bits(pmceid[1]) };
	u32 ext[2] = { upper_32_bits(pmceid[0]), upper_32_bits(pmceid[1]) };

	/* PMCEID0 describes events 0x00-0x1f (0x4000-0x401f in [63:32]), PMCEID1 the next 32. */
	bitmap_from_arr32(cpu_pmu->pmceid_bitmap, common,
			  ARMV8_PMUV3_MAX_COMMON_EVENTS);
	bitmap_from_arr32(cpu_pmu->pmceid_ext_bitmap, ext,
			  ARMV8_PMUV3_MAX_COMMON_EVENTS);
}

/*
 * Cores whose PMCCNTR_EL0 does not count what the CPU_CYCLES event does
 * (NVIDIA Olympus): CPU_CYCLES then takes an event counter.
 */
static bool armv8pmu_pmccntr_erratum(void)
{
#ifdef CONFIG_ARM64
	static const struct midr_range cpus[] = {
		MIDR_ALL_VERSIONS(MIDR_NVIDIA_OLYMPUS),
		{}
	};

	return is_midr_in_range_list(cpus);
#else
	return false;
#endif
}

static void __armv8pmu_probe_pmu(void *info)
{
	struct armv8pmu_probe_info *probe = info;
	struct arm_pmu *cpu_pmu = probe->pmu;
	int pmuver = read_pmuver();

	if (!pmuv3_implemented(pmuver))
		return;

	cpu_pmu->pmuver = pmuver;
	probe->present = true;

	bitmap_set(cpu_pmu->cntr_mask, 0,
		   FIELD_GET(ARMV8_PMU_PMCR_N, armv8pmu_pmcr_read()));
	set_bit(ARMV8_PMU_CYCLE_IDX, cpu_pmu->cntr_mask);
	if (pmuv3_has_icntr())
		set_bit(ARMV8_PMU_INSTR_IDX, cpu_pmu->cntr_mask);

	armv8pmu_read_pmceid(cpu_pmu);
	if (is_pmuv3p4(pmuver))
		cpu_pmu->reg_pmmir = read_pmmir();
	cpu_pmu->avoid_pmccntr |= armv8pmu_pmccntr_erratum();
	brbe_probe(cpu_pmu);
}

/* One BRBE record buffer per CPU, for the samples of its interrupt. */
static int armv8pmu_alloc_branch_stacks(struct arm_pmu *cpu_pmu)
{
	size_t size = struct_size_t(struct perf_branch_stack, entries,
				    brbe_num_branch_records(cpu_pmu));
	int cpu;

	for_each_cpu(cpu, &cpu_pmu->supported_cpus) {
		struct pmu_hw_events *cpuc = per_cpu_ptr(cpu_pmu->hw_events, cpu);

		cpuc->branch_stack = kzalloc(size, GFP_KERNEL);
		if (!cpuc->branch_stack)
			return -ENOMEM;
	}
	return 0;
}

static int armv8pmu_probe_pmu(struct arm_pmu *cpu_pmu)
{
	struct armv8pmu_probe_info probe = { .pmu = cpu_pmu };
	int ret;

	ret = smp_call_function_any(&cpu_pmu->supported_cpus,
				    __armv8pmu_probe_pmu, &probe, 1);
	if (ret)
		return ret;
	if (!probe.present)
		return -ENODEV;
	if (brbe_num_branch_records(cpu_pmu))
		return armv8pmu_alloc_branch_stacks(cpu_pmu);
	return 0;
}

/* Cleared when the sysctl is turned off, so no CPU keeps EL0 access. */
static void armv8pmu_disable_user_access_ipi(void *unused)
{
	armv8pmu_write_userenr(0);
}

static int armv8pmu_proc_user_access_handler(const struct ctl_table *table,
					     int write, void *buffer,
					     size_t *lenp, loff_t *ppos)
{
	int ret = proc_dointvec_minmax(table, write, buffer, lenp, ppos);

	if (ret || !write || sysctl_perf_user_access)
		return ret;
	on_each_cpu(armv8pmu_disable_user_access_ipi, NULL, 1);
	return 0;
}

static const struct ctl_table armv8_pmu_sysctl_table[] = {
	{
		.procname	= "perf_user_access",
		.data		= &sysctl_perf_user_access,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= armv8pmu_proc_user_access_handler,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
};

/* Once, whichever PMU probes first: ACPI probes may run concurrently. */
static void armv8pmu_register_sysctl(void)
{
	static atomic_t registered = ATOMIC_INIT(0);

	if (!atomic_cmpxchg(&registered, 0, 1))
		register_sysctl("kernel", armv8_pmu_sysctl_table);
}

static void armv8pmu_report(struct arm_pmu *cpu_pmu)
{
	pr_info("%s: PMUv3 (PMUVer %#x), %d event counters + cycle counter, %s, %s counters\n",
		cpu_pmu->name, cpu_pmu->pmuver,
		bitmap_weight(cpu_pmu->cntr_mask, ARMV8_PMU_MAX_GENERAL_COUNTERS),
		armv8pmu_mode_name(armv8pmu_host_mode()),
		armv8pmu_has_long_counters(cpu_pmu->pmuver) ?
		"64-bit" : "32-bit (chained for long)");
}

static int armv8_pmu_init(struct arm_pmu *cpu_pmu, const char *name,
			  int (*map_event)(struct perf_event *event))
{
	int ret = armv8pmu_probe_pmu(cpu_pmu);

	if (ret)
		return ret;

	cpu_pmu->handle_irq		= armv8pmu_handle_irq;
	cpu_pmu->enable			= armv8pmu_enable;
	cpu_pmu->disable		= armv8pmu_disable;
	cpu_pmu->read_counter		= armv8pmu_read_counter;
	cpu_pmu->write_counter		= armv8pmu_write_counter;
	cpu_pmu->get_event_idx		= armv8pmu_get_event_idx;
	cpu_pmu->clear_event_idx	= armv8pmu_clear_event_idx;
	cpu_pmu->start			= armv8pmu_start;
	cpu_pmu->stop			= armv8pmu_stop;
	cpu_pmu->reset			= armv8pmu_reset;
	cpu_pmu->set_event_filter	= armv8pmu_set_event_filter;
	cpu_pmu->map_event		= map_event;
	cpu_pmu->pmu.event_idx		= armv8pmu_user_event_idx;
	if (brbe_num_branch_records(cpu_pmu))
		cpu_pmu->pmu.sched_task	= armv8pmu_sched_task;
	cpu_pmu->name			= (char *)name;

	armv8pmu_init_attr_groups(cpu_pmu);

	armv8pmu_register_sysctl();
	armv8pmu_report(cpu_pmu);
	if (armv8pmu_host_mode() == ARMV8PMU_MODE_GUEST && armv8pmu_kvm_guest())
		armv8pmu_hvc_init(cpu_pmu);
	return 0;
}

/* Per core: a map_event with its cache map, and an init naming the PMU. */
#define ARMV8PMU_CORE(_name, ...)					\
static int _name##_map_event(struct perf_event *event)			\
{									\
	return armv8pmu_map_core_event(event,				\
				       &armv8pmu_cores[ARMV8PMU_CORE_##_name]); \
}									\
									\
static int _name##_pmu_init(struct arm_pmu *cpu_pmu)			\
{									\
	return armv8_pmu_init(cpu_pmu, #_name, _name##_map_event);	\
}

#include "arm_pmuv3_cores.h"

#define ARMV8PMU_CORE(_name, _compat, ...)				\
	{ .compatible = _compat, .data = _name##_pmu_init },

static const struct of_device_id armv8_pmu_of_device_ids[] = {
#include "arm_pmuv3_cores.h"
	{ }
};

static int armv8_pmu_device_probe(struct platform_device *pdev)
{
	return arm_pmu_device_probe(pdev, armv8_pmu_of_device_ids, NULL);
}

static struct platform_driver armv8_pmu_driver = {
	.driver		= {
		.name	= ARMV8_PMU_PDEV_NAME,
		.of_match_table = armv8_pmu_of_device_ids,
		.suppress_bind_attrs = true,
	},
	.probe		= armv8_pmu_device_probe,
};

static int __init armv8_pmu_driver_init(void)
{
	int ret;

	if (acpi_disabled)
		ret = platform_driver_register(&armv8_pmu_driver);
	else
		ret = arm_pmu_acpi_probe(armv8_pmuv3_pmu_init);

	/* The hard-lockup detector needs a PMU; retry it now that we have one. */
	if (!ret)
		lockup_detector_retry_init();
	return ret;
}
device_initcall(armv8_pmu_driver_init)

/* ------------------------------------------------------------------------
 * perf_event_mmap_page: counter width and the sched_clock parameters that
 * let user space turn counter timestamps into perf time.
 */

static void armv8pmu_userpage_time(struct perf_event_mmap_page *userpg, u64 now)
{
	struct clock_read_data *rd;
	unsigned int seq;

	do {
		rd = sched_clock_read_begin(&seq);
		if (rd->read_sched_clock != arch_timer_read_counter)
			return;
		userpg->time_mult = rd->mult;
		userpg->time_shift = rd->shift;
		userpg->time_cycles = rd->epoch_cyc;
		userpg->time_mask = rd->sched_clock_mask;
		/* time_zero is the clock's value at counter zero. */
		userpg->time_zero = rd->epoch_ns -
			mul_u64_u32_shr(rd->epoch_cyc, rd->mult, rd->shift);
	} while (sched_clock_read_retry(seq));

	userpg->time_offset = userpg->time_zero - now;
	/* The mmap ABI's conversion cannot shift by 32: halve instead. */
	if (userpg->time_shift == 32) {
		userpg->time_shift = 31;
		userpg->time_mult >>= 1;
	}
	userpg->cap_user_time = 1;
	userpg->cap_user_time_zero = 1;
	userpg->cap_user_time_short = 1;
}

void arch_perf_update_userpage(struct perf_event *event,
			       struct perf_event_mmap_page *userpg, u64 now)
{
	/* The same condition as the index: no EL0 reads while the sysctl is off. */
	userpg->cap_user_rdpmc = sysctl_perf_user_access &&
				 armv8pmu_event_user_readable(event);
	userpg->pmc_width = (event->hw.flags & ARMPMU_EVT_64BIT) ? 64 : 32;
	userpg->cap_user_time = 0;
	userpg->cap_user_time_zero = 0;
	userpg->cap_user_time_short = 0;
	armv8pmu_userpage_time(userpg, now);
}

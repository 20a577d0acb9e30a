/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * KVM's per-CPU PMU switch state, as pure functions that KUnit drives:
 * which of a counter's host and guest types applies when
 * (armv8pmu_switch_kind(), <linux/perf/arm_pmuv3_filter.h>), how the
 * state records it, the copy into a vCPU and the protected hypervisor's
 * sanitised copy.  For the structure see <kvm/arm_pmu_switch.h>.
 */
#ifndef __KVM_ARM_PMU_SWITCH_STATE_H
#define __KVM_ARM_PMU_SWITCH_STATE_H

#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/compiler.h>
#include <linux/perf/arm_pmuv3.h>
#include <linux/perf/arm_pmuv3_filter.h>
#include <kvm/arm_pmu_switch.h>

/*
 * The fields a type may hold: PMEVTYPER<n>_EL0's event number,
 * threshold and the P/U/NSH filter the driver programs, and for
 * PMCCFILTR_EL0/PMICFILTR_EL0 (whose event is fixed) the filter only.
 * This is also the one mask every writer of a type applies.
 */
static inline u64 kvm_pmu_typer_mask(int idx)
{
	if (idx == KVM_PMU_CYCLE_IDX || idx == KVM_PMU_INSTR_IDX)
		return ARMV8PMU_FILTER_MASK;
	return ARMV8_PMU_EVTYPE_EVENT | ARMV8_PMU_EVTYPE_TH |
	       ARMV8_PMU_EVTYPE_TC | ARMV8PMU_FILTER_MASK;
}

#ifdef CONFIG_ARM64

/*
 * Record a counter the driver is about to enable on this CPU, in
 * @mode, with a vCPU loaded (VHE) or not.  @typer is set to the type to
 * program now.  The table entries are written before the mask bits, so
 * that whoever sees a bit (the copy before entry, the VHE switch) sees
 * its values; they are masked to the fields the counter's register
 * takes, as every recorded type is, so that EL2 writes them as they are.
 *
 * Return: whether to enable the counter now.
 */
static inline bool kvm_pmu_events_add(struct kvm_pmu_events *ev,
				      enum armv8pmu_host_mode mode,
				      bool loaded, int idx, u64 typer_host,
				      u64 typer_guest, u64 *typer)
{
	struct armv8pmu_filter filter = {
		.host = typer_host & ARMV8PMU_FILTER_MASK,
		.guest = typer_guest & ARMV8PMU_FILTER_MASK,
	};

	*typer = typer_host;
	if (idx < 0 || idx >= KVM_PMU_SWITCH_COUNTERS)
		return true;

	switch (armv8pmu_switch_kind(mode, &filter)) {
	case ARMV8PMU_SWITCH_NONE:
		return true;
	case ARMV8PMU_SWITCH_TYPER:
		/* Masked here once: EL2 writes them as they are. */
		ev->typer_host[idx] = typer_host & kvm_pmu_typer_mask(idx);
		ev->typer_guest[idx] = typer_guest & kvm_pmu_typer_mask(idx);
		barrier();
		set_bit(idx, &ev->typer_switch);
		set_bit(idx, &ev->switching);
		if (loaded)
			*typer = typer_guest;
		return true;
	case ARMV8PMU_SWITCH_CNTEN_HOST:
		set_bit(idx, &ev->events_host);
		set_bit(idx, &ev->switching);
		return !loaded;
	case ARMV8PMU_SWITCH_CNTEN_GUEST:
		set_bit(idx, &ev->events_guest);
		set_bit(idx, &ev->switching);
		*typer = typer_guest;
		return loaded;
	}
	return true;
}

/* Forget a counter; safe against an NMI doing the same on this CPU. */
static inline void kvm_pmu_events_del(struct kvm_pmu_events *ev, int idx)
{
	if (idx < 0 || idx >= KVM_PMU_SWITCH_COUNTERS)
		return;
	clear_bit(idx, &ev->switching);
	clear_bit(idx, &ev->events_host);
	clear_bit(idx, &ev->events_guest);
	clear_bit(idx, &ev->typer_switch);
}

/*
 * Mark the state changed, after the change: @gen must be a value no copy
 * has seen (KVM takes it from one counter for all CPUs).  A copy taken
 * meanwhile has the old generation, and is taken again.
 */
static inline void kvm_pmu_events_changed(struct kvm_pmu_events *ev, u64 gen)
{
	barrier();
	WRITE_ONCE(ev->gen, gen);
}

/* After a PMU reset no counter is enabled: nothing to switch. */
static inline void kvm_pmu_events_reset(struct kvm_pmu_events *ev)
{
	WRITE_ONCE(ev->switching, 0);
	WRITE_ONCE(ev->events_host, 0);
	WRITE_ONCE(ev->events_guest, 0);
	WRITE_ONCE(ev->typer_switch, 0);
}

/*
 * Whether @src is a generation @dst does not hold yet; if so @dst takes
 * its number, read before anything else, so that a change during the
 * copy that follows makes the next one copy again.
 */
static inline bool kvm_pmu_events_new_gen(struct kvm_pmu_events *dst,
					  const struct kvm_pmu_events *src)
{
	u64 gen = READ_ONCE(src->gen);

	if (dst->gen == gen)
		return false;
	dst->gen = gen;
	barrier();
	return true;
}

/*
 * What the world switch will do with a copy's masks, worked out once when
 * the copy is taken: which PMCNTEN writes, which fixed counters' filters,
 * and from which event counter down it writes types (one more than the
 * highest, PMEVTYPER<n>_EL0 with n < 31).
 */
static inline unsigned long kvm_pmu_plan(const struct kvm_pmu_events *ev)
{
	unsigned long typer = ev->typer_switch;
	unsigned long plan = 0;

	if (ev->events_host)
		plan |= KVM_PMU_PLAN_CNTEN_HOST;
	if (ev->events_guest)
		plan |= KVM_PMU_PLAN_CNTEN_GUEST;
	if (typer & BIT(KVM_PMU_CYCLE_IDX))
		plan |= KVM_PMU_PLAN_CYCLE_TYPER;
	if (typer & BIT_ULL(KVM_PMU_INSTR_IDX))
		plan |= KVM_PMU_PLAN_INSTR_TYPER;
	return plan | FIELD_PREP(KVM_PMU_PLAN_EVTYPER_TOP,
				 fls(typer & GENMASK(KVM_PMU_CYCLE_IDX - 1, 0)));
}

/*
 * Take a copy of the switch state for a run, into the vCPU (nVHE,
 * before entry, IRQs off).  Nothing when the vCPU already holds this
 * generation (the usual case: nothing changed since its last entry);
 * else only what the run will read: nothing past @switching when it is
 * 0, and only the type entries in use.
 */
static inline void kvm_pmu_events_copy(struct kvm_pmu_events *dst,
				       const struct kvm_pmu_events *src)
{
	unsigned long typer;
	int idx;

	if (!kvm_pmu_events_new_gen(dst, src))
		return;
	dst->switching = READ_ONCE(src->switching);
	dst->plan = 0;
	if (!dst->switching)
		return;
	dst->events_host = READ_ONCE(src->events_host);
	dst->events_guest = READ_ONCE(src->events_guest);
	typer = READ_ONCE(src->typer_switch);
	dst->typer_switch = typer;
	for_each_set_bit(idx, &typer, KVM_PMU_SWITCH_COUNTERS) {
		dst->typer_host[idx] = src->typer_host[idx];
		dst->typer_guest[idx] = src->typer_guest[idx];
	}
	dst->plan = kvm_pmu_plan(dst);
}

/*
 * After a run (nVHE and protected, IRQs still off): the counters the
 * world switch enabled at exit from the vCPU's copy @copy that this
 * CPU's state @live no longer has.  Between the copy and here only an
 * NMI can change @live, and only by removing a counter (the overflow
 * handler stopping a throttled event): armv8pmu_disable() disabled it,
 * and the exit, going by the copy, enabled it again.
 */
static inline unsigned long kvm_pmu_events_stale(const struct kvm_pmu_events *copy,
						 const struct kvm_pmu_events *live)
{
	if (copy->gen == READ_ONCE(live->gen) ||
	    !(copy->plan & KVM_PMU_PLAN_CNTEN_HOST))
		return 0;
	return copy->events_host & ~READ_ONCE(live->events_host);
}

/*
 * Protected mode: the hypervisor's copy of host-provided state.  The host
 * is not trusted there, so every mask is read once and clamped to the
 * counters that exist (@counters: PMCR_EL0.N event counters, the cycle
 * counter, the instruction counter if implemented), @switching and @plan
 * are computed rather than taken, and every type is clamped to the fields
 * the driver may program: nothing indexes past the tables, and no
 * CONSTRAINED UNPREDICTABLE access to an unimplemented counter is made.
 * Called through kvm_pmu_events_take(), so that an unchanged state
 * costs neither the copy nor reading @counters from the PMU: a host that
 * lies about its generation only gets its own earlier state, already
 * sanitised, applied again.
 */
static inline void kvm_pmu_events_sanitise(struct kvm_pmu_events *dst,
					   const struct kvm_pmu_events *src,
					   unsigned long counters)
{
	unsigned long typer;
	int idx;

	dst->events_host = READ_ONCE(src->events_host) & counters;
	dst->events_guest = READ_ONCE(src->events_guest) & counters;
	typer = READ_ONCE(src->typer_switch) & counters;
	dst->typer_switch = typer;
	dst->switching = dst->events_host | dst->events_guest | typer;
	for_each_set_bit(idx, &typer, KVM_PMU_SWITCH_COUNTERS) {
		u64 mask = kvm_pmu_typer_mask(idx);

		dst->typer_host[idx] = READ_ONCE(src->typer_host[idx]) & mask;
		dst->typer_guest[idx] = READ_ONCE(src->typer_guest[idx]) & mask;
	}
	dst->plan = kvm_pmu_plan(dst);
}

/*
 * The protected hypervisor's take of the host's switch state at every
 * flush: a new generation is sanitised, an unchanged one costs nothing.
 * A macro so that @counters, which reads PMCR_EL0, is evaluated only for
 * a new generation (EL2 cannot call back through a host function
 * pointer).
 */
#define kvm_pmu_events_take(dst, src, counters)			\
	do {								\
		if (kvm_pmu_events_new_gen(dst, src))			\
			kvm_pmu_events_sanitise(dst, src, counters);	\
	} while (0)

/*
 * A protected VM's run hides it from every host counter: a type that
 * counts nothing, whatever the host asked (P and U set, and NSK and NSU
 * clear, which with EL3 present would otherwise turn P and U around for
 * Non-secure EL1 and EL0; NSH clear), keeping the event fields.  EL2
 * too: what the hypervisor does between the VM's entry and exit (the
 * traps it serves without an exit, their number and their paths) is the
 * VM's behaviour, and a host counting EL2 would read it.
 */
static inline u64 kvm_pmu_confidential_typer(u64 typer)
{
	return (typer & ~(u64)(ARMV8_PMU_EXCLUDE_NS_EL1 | ARMV8_PMU_EXCLUDE_NS_EL0 |
			       ARMV8_PMU_INCLUDE_EL2)) |
	       ARMV8_PMU_EXCLUDE_EL1 | ARMV8_PMU_EXCLUDE_EL0;
}

/*
 * Protected mode, a protected VM: the hypervisor's plan comes from the
 * PMU itself, not from the host's state.  @enabled are the counters the
 * host has enabled (PMCNTENSET_EL0, clamped to those that exist) and
 * @typer their types as read from the PMU.  Each enabled counter whose
 * type counts anything gets the confidential type for the run and its
 * own back at exit: host-only events keep counting the hypervisor's work
 * before the entry and after the exit, and no event counts inside the
 * VM's run, the hypervisor's part of it included.  Counters the host
 * enables only in guest context stay disabled.  Nothing of the host's
 * state is used, so a lying host changes nothing here.
 */
static inline void kvm_pmu_events_confidential(struct kvm_pmu_events *dst,
					       unsigned long enabled,
					       const u64 *typer)
{
	unsigned long typer_switch = 0;
	int idx;

	for_each_set_bit(idx, &enabled, KVM_PMU_SWITCH_COUNTERS) {
		u64 hidden = kvm_pmu_confidential_typer(typer[idx]);

		if (hidden == typer[idx])
			continue;
		dst->typer_host[idx] = typer[idx];
		dst->typer_guest[idx] = hidden;
		typer_switch |= BIT(idx);
	}
	dst->events_host = 0;
	dst->events_guest = 0;
	dst->typer_switch = typer_switch;
	dst->switching = typer_switch;
	dst->plan = kvm_pmu_plan(dst);
}

/* The counters a PMU has: @n event counters, PMCCNTR, maybe PMICNTR. */
static inline unsigned long kvm_pmu_counters_of(unsigned int n, bool icntr)
{
	unsigned long mask = BIT(KVM_PMU_CYCLE_IDX);

	if (n)
		mask |= GENMASK(min(n, 31U) - 1, 0);
	if (icntr)
		mask |= BIT(KVM_PMU_INSTR_IDX);
	return mask;
}

#endif /* CONFIG_ARM64 */

#endif /* __KVM_ARM_PMU_SWITCH_STATE_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host PMU counters across KVM guest entry and exit.
 *
 * The PMUv3 driver gives KVM, per counter, the PMEVTYPER<n>_EL0 (or
 * PMCCFILTR_EL0, PMICFILTR_EL0) value for host context and for guest
 * context.  KVM applies them: on VHE when a vCPU is loaded and put, on
 * nVHE and protected hosts in the world switch at EL2.  Which counters
 * need what is decided by armv8pmu_switch_kind()
 * (<linux/perf/arm_pmuv3_filter.h>); how the per-CPU state follows from
 * it is decided here, by pure functions that KUnit drives.
 */
#ifndef __KVM_ARM_PMU_SWITCH_H
#define __KVM_ARM_PMU_SWITCH_H

#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/compiler.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/perf/arm_pmuv3.h>
#include <linux/perf/arm_pmuv3_filter.h>
#include <asm/virt.h>

/*
 * PMEVCNTR0-30, PMCCNTR at 31 and, with FEAT_PMUv3_ICNTR, PMICNTR at 32:
 * the driver's counter indices, which are also the PMCNTEN bits.
 */
#define KVM_PMU_SWITCH_COUNTERS	33
#define KVM_PMU_CYCLE_IDX	31
#define KVM_PMU_INSTR_IDX	32

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
/* The switch state itself: KVM's, so arm64 only. */
/*
 * What the nVHE world switch applies; a copy is taken into the vCPU
 * before each entry (and, in protected mode, into the hypervisor's).
 * The masks are unsigned long so that they can be changed with atomic
 * bit operations: the PMU overflow handler, an NMI under pseudo-NMI,
 * removes counters while IRQ-disabled code adds others.
 *
 * @switching:    the three masks ORed, so that the world switch tests
 *                one word when nothing needs switching
 * @events_host:  counters enabled only while the host runs (PMCNTEN)
 * @events_guest: counters enabled only while the guest runs (PMCNTEN)
 * @typer_switch: counters whose type is rewritten: typer_guest[] at
 *                entry, typer_host[] at exit; only these entries are
 *                meaningful
 * @gen:          which state this is: a value never used before, written
 *                after every change (kvm_pmu_events_changed()), so that a
 *                copy whose @gen matches is of this very state and need
 *                not be taken again
 */
struct kvm_pmu_events {
	u64 gen;
	unsigned long switching;
	unsigned long events_host;
	unsigned long events_guest;
	unsigned long typer_switch;
	u64 typer_host[KVM_PMU_SWITCH_COUNTERS];
	u64 typer_guest[KVM_PMU_SWITCH_COUNTERS];
};

/*
 * Record a counter the driver is about to enable on this CPU, in
 * @mode, with a vCPU loaded (VHE) or not.  @typer is set to the type to
 * program now.  The table entries are written before the mask bits, so
 * that whoever sees a bit (the copy before entry, the VHE switch) sees
 * its values.
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
		ev->typer_host[idx] = typer_host;
		ev->typer_guest[idx] = typer_guest;
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
 * Take a copy of the switch state for a run, into the vCPU (nVHE,
 * before entry, IRQs off).  Nothing when the vCPU already holds this
 * generation (the usual case: nothing changed since its last entry);
 * else only what the run will read: nothing past @switching when it is
 * 0, and only the type entries in use.  The generation is read first,
 * so that a change during the copy makes the next entry copy again.
 */
static inline void kvm_pmu_events_copy(struct kvm_pmu_events *dst,
				       const struct kvm_pmu_events *src)
{
	u64 gen = READ_ONCE(src->gen);
	unsigned long typer;
	int idx;

	if (dst->gen == gen)
		return;
	dst->gen = gen;
	barrier();
	dst->switching = READ_ONCE(src->switching);
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
}

/*
 * Protected mode: the hypervisor's copy of host-provided state.  The host
 * is not trusted there, so every mask is read once and clamped to the
 * counters that exist (@counters: PMCR_EL0.N event counters, the cycle
 * counter, the instruction counter if implemented), @switching is
 * recomputed rather than taken, and every type is clamped to the fields
 * the driver may program: nothing indexes past the tables, and no
 * CONSTRAINED UNPREDICTABLE access to an unimplemented counter is made.
 * Nothing is taken when the host says its state is the generation the
 * hypervisor already holds: a host that lies about that only gets its
 * own earlier state, already sanitised, applied again.
 */
static inline void kvm_pmu_events_sanitise(struct kvm_pmu_events *dst,
					   const struct kvm_pmu_events *src,
					   unsigned long counters)
{
	u64 gen = READ_ONCE(src->gen);
	unsigned long typer;
	int idx;

	if (dst->gen == gen)
		return;
	dst->gen = gen;
	barrier();

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

struct kvm_vcpu;

#if IS_ENABLED(CONFIG_KVM) && IS_ENABLED(CONFIG_HW_PERF_EVENTS)
bool kvm_pmu_counter_add(int idx, u64 typer_host, u64 typer_guest,
			 u64 *typer);
void kvm_pmu_counter_del(int idx);
void kvm_pmu_cpu_reset(void);
void __kvm_pmu_update_vcpu_events(struct kvm_vcpu *vcpu);

/*
 * Before each guest entry: on VHE nothing to do, and the test stays
 * inline so that a VHE entry pays no call for it.
 */
static inline void kvm_pmu_update_vcpu_events(struct kvm_vcpu *vcpu)
{
	if (!has_vhe())
		__kvm_pmu_update_vcpu_events(vcpu);
}
#else
/* Without KVM there is no guest context: the host value always applies. */
static inline bool kvm_pmu_counter_add(int idx, u64 typer_host,
				       u64 typer_guest, u64 *typer)
{
	*typer = typer_host;
	return true;
}

static inline void kvm_pmu_counter_del(int idx) {}
static inline void kvm_pmu_cpu_reset(void) {}
/* kvm_pmu_update_vcpu_events(): <kvm/arm_pmu.h> has the stub. */
#endif

#endif /* __KVM_ARM_PMU_SWITCH_H */

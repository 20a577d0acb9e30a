/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host PMU counters across KVM guest entry and exit: the state KVM keeps
 * per CPU and per vCPU, and its entry points for the PMUv3 driver.
 *
 * The PMUv3 driver gives KVM, per counter, the PMEVTYPER<n>_EL0 (or
 * PMCCFILTR_EL0, PMICFILTR_EL0) value for host context and for guest
 * context.  KVM applies them: on VHE when a vCPU is loaded and put, on
 * nVHE and protected hosts in the world switch at EL2.  How the state
 * follows from the driver's requests is in <kvm/arm_pmu_switch_state.h>.
 *
 * This header is reached from <asm/arm_pmuv3.h> (through <asm/kvm_host.h>
 * and <kvm/arm_pmu.h>), so it includes nothing that leads back there.
 */
#ifndef __KVM_ARM_PMU_SWITCH_H
#define __KVM_ARM_PMU_SWITCH_H

#include <linux/types.h>
#include <asm/virt.h>

/*
 * PMEVCNTR0-30, PMCCNTR at 31 and, with FEAT_PMUv3_ICNTR, PMICNTR at 32:
 * the driver's counter indices, which are also the PMCNTEN bits
 * (ARMV8_PMU_CYCLE_IDX and ARMV8_PMU_INSTR_IDX, which this header cannot
 * take from <linux/perf/arm_pmuv3.h>: that includes <asm/arm_pmuv3.h>;
 * arch/arm64/kvm/pmu.c checks that they agree).
 */
#define KVM_PMU_SWITCH_COUNTERS	33
#define KVM_PMU_CYCLE_IDX	31
#define KVM_PMU_INSTR_IDX	32

/* struct kvm_pmu_events.plan */
#define KVM_PMU_PLAN_CNTEN_HOST		BIT(0)	/* events_host is not 0 */
#define KVM_PMU_PLAN_CNTEN_GUEST	BIT(1)	/* events_guest is not 0 */
#define KVM_PMU_PLAN_CYCLE_TYPER	BIT(2)	/* PMCCFILTR_EL0 switches */
#define KVM_PMU_PLAN_INSTR_TYPER	BIT(3)	/* PMICFILTR_EL0 switches */
/* One more than the highest event counter whose type switches, or 0. */
#define KVM_PMU_PLAN_EVTYPER_TOP	GENMASK(9, 4)

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
 * @plan:         in a vCPU's copy only: what the world switch does, in
 *                one word (KVM_PMU_PLAN_*), 0 for nothing, so that EL2
 *                neither tests each mask nor searches one
 */
struct kvm_pmu_events {
	u64 gen;
	unsigned long switching;
	unsigned long events_host;
	unsigned long events_guest;
	unsigned long typer_switch;
	unsigned long plan;
	u64 typer_host[KVM_PMU_SWITCH_COUNTERS];
	u64 typer_guest[KVM_PMU_SWITCH_COUNTERS];
};

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

void __kvm_pmu_vcpu_events_done(struct kvm_vcpu *vcpu);

/* After each run, IRQs still off: the same. */
static inline void kvm_pmu_vcpu_events_done(struct kvm_vcpu *vcpu)
{
	if (!has_vhe())
		__kvm_pmu_vcpu_events_done(vcpu);
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
/* kvm_pmu_update_vcpu_events(), kvm_pmu_vcpu_events_done(): <kvm/arm_pmu.h> has the stubs. */
#endif

#endif /* __KVM_ARM_PMU_SWITCH_H */

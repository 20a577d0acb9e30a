/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nVHE/protected world switch of the host's PMU counters.
 *
 * The host precomputes, per counter, whether it is switched by enabling
 * (PMCNTENSET/CLR) or by rewriting its type (PMEVTYPER<n>/PMCCFILTR), and
 * the values (include/kvm/arm_pmu_switch.h).  This only applies them:
 * no locks, no allocation, no printing, and no PMU access at all when no
 * counter needs switching.
 *
 * The writes need no ISB of their own: they happen at EL2, where every
 * switched counter counts the same way in both contexts, and the ERET to
 * the guest or host is the context synchronization event that makes them
 * take effect before the first instruction at EL1/EL0.
 */
#ifndef __ARM64_KVM_HYP_PMU_SWITCH_H__
#define __ARM64_KVM_HYP_PMU_SWITCH_H__

#include <linux/kvm_host.h>
#include <asm/arm_pmuv3.h>
#include <kvm/arm_pmu_switch.h>

#ifdef CONFIG_HW_PERF_EVENTS

/*
 * Through PMSELR_EL0/PMXEVTYPER_EL0 rather than PMEVTYPER<n>_EL0: no
 * jump table over 31 registers, and SEL == 31 reaches PMCCFILTR_EL0 too.
 * The ISB makes the selection visible to the PMXEVTYPER write (Arm ARM
 * D13.2, "PMSELR_EL0").  PMSELR_EL0 is not used by the host driver.
 */
static inline void __pmu_write_typers(u64 mask, const u64 *typer)
{
	while (mask) {
		int idx = __ffs64(mask);

		mask &= mask - 1;
		write_pmselr(idx);
		isb();
		write_sysreg(typer[idx], pmxevtyper_el0);
	}
}

/* Return: whether the exit path has anything to undo. */
static inline bool __pmu_switch_to_guest(struct kvm_vcpu *vcpu)
{
	struct kvm_pmu_events *pmu = &vcpu->arch.pmu.events;

	if (!pmu->switching)
		return false;
	if (pmu->events_host)
		write_pmcntenclr(pmu->events_host);
	if (pmu->events_guest)
		write_pmcntenset(pmu->events_guest);
	if (pmu->typer_switch)
		__pmu_write_typers(pmu->typer_switch, pmu->typer_guest);
	return true;
}

static inline void __pmu_switch_to_host(struct kvm_vcpu *vcpu)
{
	struct kvm_pmu_events *pmu = &vcpu->arch.pmu.events;

	if (pmu->events_guest)
		write_pmcntenclr(pmu->events_guest);
	if (pmu->events_host)
		write_pmcntenset(pmu->events_host);
	if (pmu->typer_switch)
		__pmu_write_typers(pmu->typer_switch, pmu->typer_host);
}

/* Protected mode: take the host's switch state into the hyp vCPU. */
static inline void __pmu_flush_events(struct kvm_pmu_events *dst,
				      const struct kvm_pmu_events *src)
{
	kvm_pmu_events_copy(dst, src);
}

#else
static inline bool __pmu_switch_to_guest(struct kvm_vcpu *vcpu) { return false; }
static inline void __pmu_switch_to_host(struct kvm_vcpu *vcpu) {}
static inline void __pmu_flush_events(struct kvm_pmu_events *dst,
				      const struct kvm_pmu_events *src) {}
#endif

#endif /* __ARM64_KVM_HYP_PMU_SWITCH_H__ */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nVHE/protected world switch of the host's PMU counters.
 *
 * The host precomputes, per counter, whether it is switched by enabling
 * (PMCNTENSET/CLR) or by rewriting its type (PMEVTYPER<n>, PMCCFILTR,
 * PMICFILTR), and the values (include/kvm/arm_pmu_switch_state.h).  This only
 * applies them: no locks, no allocation, no printing, and no PMU access
 * at all when no counter needs switching.
 *
 * The writes need no ISB of their own.  A direct write to a System
 * register takes effect for later instructions after a Context
 * synchronization event (Arm ARM, "Synchronization requirements for
 * AArch64 System registers"), and the ERET to the guest or host is one:
 * exception return is context synchronizing when SCTLR_EL2.EOS is 1,
 * which it is here (bit 11 of SCTLR_EL2_RES1, RES1 without FEAT_ExS).
 * Until then the writes happen at EL2, where every type-switched counter
 * counts the same way in both contexts, so when exactly each takes
 * effect changes no count.  Each counter's type is its own register
 * (PMEVTYPER<n>_EL0, not PMSELR_EL0 + PMXEVTYPER_EL0), so no write
 * depends on an earlier one being synchronized: one write per counter
 * per direction.
 */
#ifndef __ARM64_KVM_HYP_PMU_SWITCH_H__
#define __ARM64_KVM_HYP_PMU_SWITCH_H__

#include <linux/kvm_host.h>
#include <asm/arm_pmuv3.h>
#include <kvm/arm_pmu_switch_state.h>
#include <kvm/arm_pmu_typer.h>

#ifdef CONFIG_HW_PERF_EVENTS

static inline void __pmu_write_typers(unsigned long mask, const u64 *typer)
{
	while (mask) {
		int idx = __ffs(mask);

		mask &= mask - 1;
		armv8pmu_write_typer(idx, typer[idx]);
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

/* The counters this CPU implements, as the hypervisor reads them. */
static inline unsigned long __pmu_hyp_counters(void)
{
	return kvm_pmu_counters_of(FIELD_GET(ARMV8_PMU_PMCR_N, read_pmcr()),
				   pmuv3_has_icntr());
}

/*
 * Protected mode: take the host's switch state into the hyp vCPU,
 * sanitised, since the host is not trusted with what EL2 writes.
 */
static inline void __pmu_flush_events(struct kvm_vcpu *hyp_vcpu,
				      const struct kvm_vcpu *host_vcpu)
{
	struct kvm_pmu_events *dst = &hyp_vcpu->arch.pmu.events;
	const struct kvm_pmu_events *src = &host_vcpu->arch.pmu.events;

	/* Unchanged since the last entry: no PMCR_EL0 read, no copy. */
	if (kvm_pmu_events_new_gen(dst, src))
		kvm_pmu_events_sanitise(dst, src, __pmu_hyp_counters());
}

#else
static inline bool __pmu_switch_to_guest(struct kvm_vcpu *vcpu) { return false; }
static inline void __pmu_switch_to_host(struct kvm_vcpu *vcpu) {}
static inline void __pmu_flush_events(struct kvm_vcpu *hyp_vcpu,
				      const struct kvm_vcpu *host_vcpu) {}
#endif

#endif /* __ARM64_KVM_HYP_PMU_SWITCH_H__ */

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
 * write_pmevtypern() of <asm/arm_pmuv3.h> WARNs on a bad index, which hyp
 * cannot do; our indices come from a 31-bit mask, so the default case is
 * unreachable and does nothing.
 */
#define __HYP_WRITE_PMEVTYPERN(n)	write_sysreg(val, pmevtyper##n##_el0)

static inline void __hyp_write_pmevtypern(int n, u64 val)
{
	switch (n) {
	PMEVN_CASE(0, __HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(1, __HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(2, __HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(3, __HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(4, __HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(5, __HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(6, __HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(7, __HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(8, __HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(9, __HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(10, __HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(11, __HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(12, __HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(13, __HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(14, __HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(15, __HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(16, __HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(17, __HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(18, __HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(19, __HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(20, __HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(21, __HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(22, __HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(23, __HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(24, __HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(25, __HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(26, __HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(27, __HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(28, __HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(29, __HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(30, __HYP_WRITE_PMEVTYPERN);
	case ARMV8_PMU_CYCLE_IDX:
		write_pmccfiltr(val);
		break;
	default:
		break;
	}
}

static inline void __pmu_write_typers(u64 mask, const u64 *typer)
{
	while (mask) {
		int idx = __ffs64(mask);

		mask &= mask - 1;
		__hyp_write_pmevtypern(idx, typer[idx]);
	}
}

/* Return: whether the exit path has anything to undo. */
static inline bool __pmu_switch_to_guest(struct kvm_vcpu *vcpu)
{
	struct kvm_pmu_events *pmu = &vcpu->arch.pmu.events;

	if (pmu->events_host)
		write_pmcntenclr(pmu->events_host);
	if (pmu->events_guest)
		write_pmcntenset(pmu->events_guest);
	if (pmu->typer_switch)
		__pmu_write_typers(pmu->typer_switch, pmu->typer_guest);

	return pmu->events_host || pmu->events_guest || pmu->typer_switch;
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
	dst->events_host = src->events_host;
	dst->events_guest = src->events_guest;
	dst->typer_switch = src->typer_switch;
	if (src->typer_switch) {
		memcpy(dst->typer_host, src->typer_host, sizeof(dst->typer_host));
		memcpy(dst->typer_guest, src->typer_guest, sizeof(dst->typer_guest));
	}
}

#else
static inline bool __pmu_switch_to_guest(struct kvm_vcpu *vcpu) { return false; }
static inline void __pmu_switch_to_host(struct kvm_vcpu *vcpu) {}
static inline void __pmu_flush_events(struct kvm_pmu_events *dst,
				      const struct kvm_pmu_events *src) {}
#endif

#endif /* __ARM64_KVM_HYP_PMU_SWITCH_H__ */

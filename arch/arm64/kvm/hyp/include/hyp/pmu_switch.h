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
 * per direction, and nothing else but a bit test and a load.
 */
#ifndef __ARM64_KVM_HYP_PMU_SWITCH_H__
#define __ARM64_KVM_HYP_PMU_SWITCH_H__

#include <linux/kvm_host.h>
#include <asm/arm_pmuv3.h>
#include <kvm/arm_pmu_switch_state.h>

#include <hyp/pmu_evreg.h>

#ifdef CONFIG_HW_PERF_EVENTS

/*
 * One direction's types.  The event counters' go from the highest that
 * switches (the plan's EVTYPER_TOP) down to counter 0: entered with one
 * jump, then straight-line code that tests each counter's bit and, for a
 * switching one, loads its type and writes it with one MSR.  No search,
 * no loop and no dispatch per counter: a bit test, a load and a write
 * per switching counter (the limit is the write), a bit test per counter
 * skipped below the highest.  The types were masked to the fields each
 * register takes when they were recorded (kvm_pmu_events_add(), or the
 * protected hypervisor's sanitised copy), so they are written as they
 * are.
 */
#define __PMU_TYPER(n)							\
	do {								\
		if (likely(mask & BIT(n)))				\
			write_sysreg(typer[n], pmevtyper##n##_el0);	\
	} while (0)
#define __PMU_TYPER_CASE(n)						\
	case n + 1:							\
		__PMU_TYPER(n);						\
		fallthrough

static __always_inline void __pmu_write_typers(const struct kvm_pmu_events *pmu,
					       unsigned long plan,
					       const u64 *typer)
{
	unsigned long top = FIELD_GET(KVM_PMU_PLAN_EVTYPER_TOP, plan);
	unsigned long mask = pmu->typer_switch;

	if (plan & KVM_PMU_PLAN_CYCLE_TYPER)
		write_pmccfiltr(typer[KVM_PMU_CYCLE_IDX]);
	if (unlikely(plan & KVM_PMU_PLAN_INSTR_TYPER))
		write_pmicfiltr(typer[KVM_PMU_INSTR_IDX]);
	if (!top)
		return;
	/*
	 * Switching counters among the first eight, as the driver allocates
	 * them from 0 up: fewer bit tests than the jump costs.
	 */
	if (likely(top <= 8)) {
		__PMU_TYPER(7); __PMU_TYPER(6); __PMU_TYPER(5); __PMU_TYPER(4);
		__PMU_TYPER(3); __PMU_TYPER(2); __PMU_TYPER(1); __PMU_TYPER(0);
		return;
	}
	switch (top & 31) {
	__PMU_TYPER_CASE(30); __PMU_TYPER_CASE(29); __PMU_TYPER_CASE(28);
	__PMU_TYPER_CASE(27); __PMU_TYPER_CASE(26); __PMU_TYPER_CASE(25);
	__PMU_TYPER_CASE(24); __PMU_TYPER_CASE(23); __PMU_TYPER_CASE(22);
	__PMU_TYPER_CASE(21); __PMU_TYPER_CASE(20); __PMU_TYPER_CASE(19);
	__PMU_TYPER_CASE(18); __PMU_TYPER_CASE(17); __PMU_TYPER_CASE(16);
	__PMU_TYPER_CASE(15); __PMU_TYPER_CASE(14); __PMU_TYPER_CASE(13);
	__PMU_TYPER_CASE(12); __PMU_TYPER_CASE(11); __PMU_TYPER_CASE(10);
	__PMU_TYPER_CASE(9); __PMU_TYPER_CASE(8); __PMU_TYPER_CASE(7);
	__PMU_TYPER_CASE(6); __PMU_TYPER_CASE(5); __PMU_TYPER_CASE(4);
	__PMU_TYPER_CASE(3); __PMU_TYPER_CASE(2); __PMU_TYPER_CASE(1);
	__PMU_TYPER_CASE(0);
	case 0:
		break;
	}
}

/*
 * Return: whether the exit path has anything to undo.  The plan was
 * worked out when the state was copied for this vCPU (kvm_pmu_plan()):
 * one word says what to do.
 */
static inline bool __pmu_switch_to_guest(struct kvm_vcpu *vcpu)
{
	struct kvm_pmu_events *pmu = &vcpu->arch.pmu.events;
	unsigned long plan = pmu->plan;

	if (!plan)
		return false;
	if (plan & KVM_PMU_PLAN_CNTEN_HOST)
		write_pmcntenclr(pmu->events_host);
	if (plan & KVM_PMU_PLAN_CNTEN_GUEST)
		write_pmcntenset(pmu->events_guest);
	__pmu_write_typers(pmu, plan, pmu->typer_guest);
	return true;
}

static inline void __pmu_switch_to_host(struct kvm_vcpu *vcpu)
{
	struct kvm_pmu_events *pmu = &vcpu->arch.pmu.events;
	unsigned long plan = pmu->plan;

	if (plan & KVM_PMU_PLAN_CNTEN_GUEST)
		write_pmcntenclr(pmu->events_guest);
	if (plan & KVM_PMU_PLAN_CNTEN_HOST)
		write_pmcntenset(pmu->events_host);
	__pmu_write_typers(pmu, plan, pmu->typer_host);
}

/* The counters this CPU implements, as the hypervisor reads them. */
static inline unsigned long __pmu_hyp_counters(void)
{
	return kvm_pmu_counters_of(FIELD_GET(ARMV8_PMU_PMCR_N, read_pmcr()),
				   pmuv3_has_icntr());
}

/*
 * A protected VM: hide its run from every host counter, planned from
 * what the PMU holds now (the host cannot change it before the entry
 * that follows), at the cost of reading each enabled counter's type.
 */
static inline void __pmu_flush_confidential(struct kvm_pmu_events *dst)
{
	u64 typer[KVM_PMU_SWITCH_COUNTERS];
	unsigned long enabled = read_sysreg(pmcntenset_el0) & __pmu_hyp_counters();
	int idx;

	for_each_set_bit(idx, &enabled, KVM_PMU_SWITCH_COUNTERS)
		typer[idx] = __pmu_evreg_read(idx, true);
	kvm_pmu_events_confidential(dst, enabled, typer);
}

/*
 * Protected mode: take the host's switch state into the hyp vCPU,
 * sanitised, since the host is not trusted with what EL2 writes; for a
 * protected VM, make the VM's own plan instead.
 */
static inline void __pmu_flush_events(struct kvm_vcpu *hyp_vcpu,
				      const struct kvm_vcpu *host_vcpu)
{
	struct kvm_pmu_events *dst = &hyp_vcpu->arch.pmu.events;
	const struct kvm_pmu_events *src = &host_vcpu->arch.pmu.events;

	if (vcpu_is_protected(hyp_vcpu)) {
		__pmu_flush_confidential(dst);
		return;
	}
	/* Unchanged since the last entry: no PMCR_EL0 read, no copy. */
	kvm_pmu_events_take(dst, src, __pmu_hyp_counters());
}

#else
static inline bool __pmu_switch_to_guest(struct kvm_vcpu *vcpu) { return false; }
static inline void __pmu_switch_to_host(struct kvm_vcpu *vcpu) {}
static inline void __pmu_flush_events(struct kvm_vcpu *hyp_vcpu,
				      const struct kvm_vcpu *host_vcpu) {}
#endif

#endif /* __ARM64_KVM_HYP_PMU_SWITCH_H__ */

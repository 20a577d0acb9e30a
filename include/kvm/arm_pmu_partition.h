/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The direct guest PMU (Documentation/arch/arm64/pmu-direct.rst): the
 * decisions, as pure functions that KUnit drives.  MDCR_EL2.HPMN splits
 * the event counters: a direct-PMU guest owns [0, HPMN) and the cycle
 * counter, the host keeps [HPMN, N).  What follows decides how big the
 * guest's share is, which MDCR_EL2 bits and fine-grained traps give it,
 * what the guest reads as PMCR_EL0, which registers KVM switches where
 * in each host mode, and how a guest overflow is held until the guest
 * has seen it.  Nothing here reads or writes a register: the caller
 * passes the PMU's capabilities and the host mode in.
 *
 * The functions are arch/arm64/kvm/hyp/pmu_part.c's, built into the host
 * and the nVHE hypervisor alike.  Inline here are only those EL2 runs
 * for every counter or at every entry and exit (the guest's counters,
 * a guest type as the hardware gets it, the held enables and the
 * interrupt's level, the fast path's index checks), where a call would
 * cost more than the body, and kvm_pmu_part_swinc(), whose callbacks
 * must stay direct calls.
 *
 * The register fields are the base tree's generated definitions
 * (<asm/sysreg.h>, arch/arm64/tools/sysreg).
 */
#ifndef __KVM_ARM_PMU_PARTITION_H
#define __KVM_ARM_PMU_PARTITION_H

#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/types.h>
#include <linux/perf/arm_pmuv3.h>
#include <asm/kvm_arm.h>
#include <asm/sysreg.h>

/* Every MDCR_EL2 bit kvm_pmu_part_mdcr() decides; the caller keeps the rest. */
#define KVM_PMU_PART_MDCR_MASK	(MDCR_EL2_HPMN | MDCR_EL2_TPMCR | MDCR_EL2_TPM | \
				 MDCR_EL2_HPME | MDCR_EL2_HPMD | MDCR_EL2_HCCD | \
				 MDCR_EL2_HLP | MDCR_EL2_HPMFZO)

/* The HDFGRTR_EL2 and HDFGWTR_EL2 bits of the PMU's registers (FEAT_FGT). */
#define KVM_PMU_PART_HDFGRTR_MASK					\
	(HDFGRTR_EL2_PMEVCNTRn_EL0 | HDFGRTR_EL2_PMEVTYPERn_EL0 |	\
	 HDFGRTR_EL2_PMCCFILTR_EL0 | HDFGRTR_EL2_PMCCNTR_EL0 |		\
	 HDFGRTR_EL2_PMCNTEN | HDFGRTR_EL2_PMINTEN | HDFGRTR_EL2_PMOVS |	\
	 HDFGRTR_EL2_PMSELR_EL0 | HDFGRTR_EL2_PMMIR_EL1 |		\
	 HDFGRTR_EL2_PMUSERENR_EL0 | HDFGRTR_EL2_PMCEIDn_EL0)
#define KVM_PMU_PART_HDFGWTR_MASK					\
	(HDFGWTR_EL2_PMEVCNTRn_EL0 | HDFGWTR_EL2_PMEVTYPERn_EL0 |	\
	 HDFGWTR_EL2_PMCCFILTR_EL0 | HDFGWTR_EL2_PMCCNTR_EL0 |		\
	 HDFGWTR_EL2_PMCNTEN | HDFGWTR_EL2_PMINTEN | HDFGWTR_EL2_PMOVS |	\
	 HDFGWTR_EL2_PMSELR_EL0 | HDFGWTR_EL2_PMSWINC_EL0 |		\
	 HDFGWTR_EL2_PMCR_EL0 | HDFGWTR_EL2_PMUSERENR_EL0)

/* The HDFG{R,W}TR2_EL2 bits of the PMU's registers (FEAT_FGT2): trap when 0. */
#define KVM_PMU_PART_HDFGRTR2_MASK	(HDFGRTR2_EL2_nPMICNTR_EL0 | \
					 HDFGRTR2_EL2_nPMICFILTR_EL0)
#define KVM_PMU_PART_HDFGWTR2_MASK	(HDFGWTR2_EL2_nPMICNTR_EL0 | \
					 HDFGWTR2_EL2_nPMICFILTR_EL0 | \
					 HDFGWTR2_EL2_nPMZR_EL0)

/*
 * What the PMU of the CPUs a direct vCPU runs on can do.
 *
 * @nr_counters:   PMCR_EL0.N, the event counters implemented
 * @hpmn0:         FEAT_HPMN0: MDCR_EL2.HPMN may be 0 (otherwise 0 is
 *                 CONSTRAINED UNPREDICTABLE)
 * @pmuv3p1:       MDCR_EL2.HPMD stops the guest's event counters at EL2
 * @pmuv3p5:       MDCR_EL2.HCCD stops the cycle counter at EL2, and
 *                 MDCR_EL2.HLP sets the host's counters' overflow width
 * @pmuv3p9:       PMZR_EL0 exists
 * @icntr:         FEAT_PMUv3_ICNTR: PMICNTR_EL0 exists
 * @fgt, @fgt2:    FEAT_FGT, FEAT_FGT2
 * @hpmn_enforced: accesses from EL1 and EL0 to counters at or above HPMN
 *                 are refused (trapped or UNDEFINED by index, RAZ/WI by
 *                 bit) and a PMCR_EL0.P written there resets only
 *                 [0, HPMN), as the Arm ARM requires; found by the probe
 *                 at KVM init (kvm_pmu_part_probe_counter()).  On a PMU
 *                 that does not, every register that names a counter is
 *                 trapped and checked at EL2 (the guarded profile).
 */
struct kvm_pmu_part_caps {
	u8 nr_counters;
	bool hpmn0;
	bool pmuv3p1;
	bool pmuv3p5;
	bool pmuv3p9;
	bool icntr;
	bool fgt;
	bool fgt2;
	bool hpmn_enforced;
};

/*
 * kvm.pmu_direct_guard: which PMUs are trusted to enforce HPMN.  There is
 * no "off": a PMU that failed the probe is never trusted.
 */
enum kvm_pmu_part_guard {
	KVM_PMU_PART_GUARD_AUTO,	/* those that passed the probe */
	KVM_PMU_PART_GUARD_ON,		/* none: always the guarded profile */
	KVM_PMU_PART_GUARD_NR
};

#if IS_ENABLED(CONFIG_KUNIT) && defined(CONFIG_KVM_ARM_PMU_DIRECT)
/* The parameter's words (arch/arm64/kvm/pmu_direct.c), for its KUnit case. */
const char *kvm_pmu_direct_guard_name(enum kvm_pmu_part_guard guard);
int kvm_pmu_direct_guard_parse(const char *val);
#endif

/* No KVM_ARM_VCPU_PMU_V3_SET_NR_COUNTERS: the guest gets what the host leaves. */
#define KVM_PMU_PART_NO_REQUEST		(-1)

/*
 * The counters a direct guest owns: event counters [0, HPMN) and the
 * cycle counter, which HPMN does not partition: PMCR_EL0.E, the guest's
 * once its PMCR_EL0 is loaded, enables it.  Counter indices are the
 * PMCNTEN bits, as in <kvm/arm_pmu_switch.h>.
 */
static inline u64 kvm_pmu_part_guest_mask(unsigned int hpmn)
{
	/* Without a branch: EL2 computes it at every entry and exit. */
	hpmn = min_t(unsigned int, hpmn, ARMV8_PMU_MAX_GENERAL_COUNTERS);
	return (BIT_ULL(hpmn) - 1) | BIT_ULL(ARMV8_PMU_CYCLE_IDX);
}

/*
 * The guest's PMU registers, one bit each in struct kvm_pmu_part_traps.
 * PMEVCNTR and PMEVTYPER stand for all n and for the PMXEV* aliases,
 * as their fine-grained trap bits do.
 */
enum kvm_pmu_part_reg {
	KVM_PMU_PART_PMCR,
	KVM_PMU_PART_PMCNTEN,
	KVM_PMU_PART_PMINTEN,
	KVM_PMU_PART_PMOVS,
	KVM_PMU_PART_PMSELR,
	KVM_PMU_PART_PMUSERENR,
	KVM_PMU_PART_PMCCNTR,
	KVM_PMU_PART_PMCCFILTR,
	KVM_PMU_PART_PMEVCNTR,
	KVM_PMU_PART_PMEVTYPER,
	KVM_PMU_PART_PMSWINC,
	KVM_PMU_PART_PMCEID,
	KVM_PMU_PART_PMMIR,
	KVM_PMU_PART_PMICNTR,
	KVM_PMU_PART_PMICFILTR,
	KVM_PMU_PART_PMZR,
	KVM_PMU_PART_NR_REGS,
};

#define KVM_PMU_PART_REGS_ALL		GENMASK(KVM_PMU_PART_NR_REGS - 1, 0)
/* The registers that name counters, by index or by bit. */
#define KVM_PMU_PART_REGS_INDEXED	(BIT(KVM_PMU_PART_PMCNTEN) | \
					 BIT(KVM_PMU_PART_PMINTEN) | \
					 BIT(KVM_PMU_PART_PMOVS) | \
					 BIT(KVM_PMU_PART_PMEVCNTR) | \
					 BIT(KVM_PMU_PART_PMEVTYPER))
#define KVM_PMU_PART_REGS_ICNTR		(BIT(KVM_PMU_PART_PMICNTR) | \
					 BIT(KVM_PMU_PART_PMICFILTR))

/* Which accesses of which registers trap to EL2: BIT(enum kvm_pmu_part_reg). */
struct kvm_pmu_part_traps {
	u32 read;
	u32 write;
};

/*
 * The PMU fields of the four fine-grained trap registers, within their
 * KVM_PMU_PART_HDFG*_MASK: the caller replaces those bits of the vCPU's
 * values and keeps the rest (debug, SPE, trace).
 */
struct kvm_pmu_part_fgt {
	u64 hdfgrtr;
	u64 hdfgwtr;
	u64 hdfgrtr2;
	u64 hdfgwtr2;
};

/* arch/arm64/kvm/hyp/pmu_part.c, in the host and in the nVHE hypervisor. */
unsigned int kvm_pmu_part_pmuver(u64 dfr0);
int kvm_pmu_part_probe_counter(unsigned int n, bool hpmn0);
bool kvm_pmu_part_probe_enforced(int counter, u64 pmcntenset);
void kvm_pmu_part_caps_from(struct kvm_pmu_part_caps *caps,
			    u64 dfr0, u64 dfr1, u64 mmfr0,
			    bool probed, unsigned int n,
			    enum kvm_pmu_part_guard guard);
int kvm_pmu_part_size(const struct kvm_pmu_part_caps *caps,
		      int requested, unsigned int host_min);
u64 kvm_pmu_part_host_mask(const struct kvm_pmu_part_caps *caps,
			   unsigned int hpmn);
u64 kvm_pmu_part_vacate_mask(const struct kvm_pmu_part_caps *caps,
			     unsigned int hpmn);
u64 kvm_pmu_part_mdcr(const struct kvm_pmu_part_caps *caps,
		      unsigned int hpmn, bool tpm);
u64 kvm_pmu_part_guest_pmcr(u64 pmcr, unsigned int hpmn);
u64 kvm_pmu_part_pmcr_write(const struct kvm_pmu_part_caps *caps,
			    u64 val, bool *reset_events);
struct kvm_pmu_part_traps
kvm_pmu_part_traps(const struct kvm_pmu_part_caps *caps, bool event_filter,
		   bool held);
bool kvm_pmu_part_need_tpm(const struct kvm_pmu_part_caps *caps,
			   const struct kvm_pmu_part_traps *t);
bool kvm_pmu_part_pvm_fits(const struct kvm_pmu_part_caps *caps,
			   unsigned int hpmn);
u64 kvm_pmu_part_fgt_bit(enum kvm_pmu_part_reg reg, bool write);
u64 kvm_pmu_part_fgt2_bit(enum kvm_pmu_part_reg reg, bool write);
void kvm_pmu_part_fgt(const struct kvm_pmu_part_traps *t,
		      struct kvm_pmu_part_fgt *fgt);
bool kvm_pmu_part_inten_raises(u64 pmcr, u64 val, u64 pminten,
			       u64 pmovs, u64 guest);
bool kvm_pmu_part_swinc_counts(u64 type, bool el0);
u64 kvm_pmu_part_swinc_value(u64 cnt, bool lp, bool *overflow);

/*
 * The event numbers KVM's event filter covers (KVM_ARM_VCPU_PMU_V3_FILTER),
 * for a PMUv3p1 or later guest, as every direct one is: PMEVTYPER<n>_EL0's
 * 16-bit evtCount.
 */
#define KVM_PMU_PART_FILTER_EVENTS	(ARMV8_PMU_EVTYPE_EVENT + 1)
u64 kvm_pmu_part_typer_filtered(u64 typer, int idx, const unsigned long *filter);

/*
 * The guest overflows that raise the PMU interrupt: for counters below
 * HPMN and the cycle counter the request is PMCR_EL0.E && PMINTEN[n] &&
 * PMOVS[n] (Arm ARM D13.3, "Generating overflow interrupt requests").
 * @guest is the guest's counters, kvm_pmu_part_guest_mask() of its share
 * (here and below: EL2 keeps it, rather than compute it at every entry
 * and exit).
 */
static inline u64 kvm_pmu_part_overflow(u64 pmcr, u64 pmovs, u64 pminten,
					u64 guest)
{
	if (!(pmcr & ARMV8_PMU_PMCR_E))
		return 0;
	return pmovs & pminten & guest;
}

/*
 * A guest overflow with its interrupt enabled raises the physical PMU
 * interrupt while the guest runs (an exit).  Until the guest clears it,
 * the interrupt would be raised again at every entry, before the guest
 * could run its handler.  KVM holds it instead: the hardware's PMINTEN
 * is the guest's enables less its uncleared overflows, and the guest's
 * virtual interrupt stands for them (kvm_pmu_part_irq_level()).  The
 * held overflows are PMOVS itself, so there is no state to keep: the
 * guest reads PMOVS as the hardware has it and PMINTEN as it wrote it
 * (PMINTEN traps both ways, see kvm_pmu_part_traps()), and a write that
 * clears an overflow gives its enable back to the hardware.
 *
 * Return: PMINTENSET_EL1 for the hardware while the guest runs, from
 * the guest's enables @pminten and overflow flags @pmovs.
 */
static inline u64 kvm_pmu_part_hw_inten(u64 pminten, u64 pmovs, u64 guest)
{
	return pminten & ~pmovs & guest;
}

/*
 * The level of the guest's virtual PMU interrupt, from its registers as
 * it sees them (PMINTEN as it wrote it): what KVM gives the vGIC after
 * every exit (EL2) and every perf-register write (the host), so that a
 * guest that has cleared its overflow without exiting gets no spurious
 * interrupt.
 */
static inline bool kvm_pmu_part_irq_level(u64 pmcr, u64 pmovs, u64 pminten,
					  u64 guest)
{
	return kvm_pmu_part_overflow(pmcr, pmovs, pminten, guest) != 0;
}

/*
 * A PMSWINC_EL0 write of @incr (the guest's event counters it names
 * that count now) made at EL0 (@el0) or EL1: each counter below @hpmn
 * whose type counts SW_INCR at that EL goes up by one, read and written
 * through the caller's @rd and @wr (the hardware at EL2, the vCPU's
 * registers or the hardware on the host), with PMCR_EL0.LP @lp.
 * Inlined always, so that those are direct calls (EL2 cannot call back
 * into the host).
 *
 * Return: the counters that overflowed, for PMOVSSET_EL0.
 */
static __always_inline u64
kvm_pmu_part_swinc(u64 incr, unsigned int hpmn, bool el0, bool lp,
		   u64 (*rd)(void *arg, unsigned int idx, bool typer),
		   void (*wr)(void *arg, unsigned int idx, u64 val), void *arg)
{
	unsigned int i;
	bool overflow;
	u64 ovf = 0;

	for (i = 0; i < hpmn; i++) {
		if (!(incr & BIT_ULL(i)) ||
		    !kvm_pmu_part_swinc_counts(rd(arg, i, true), el0))
			continue;
		wr(arg, i, kvm_pmu_part_swinc_value(rd(arg, i, false), lp,
						    &overflow));
		if (overflow)
			ovf |= BIT_ULL(i);
	}
	return ovf;
}

/*
 * Guarded profile and TPM: the EL2 fast path serves trapped accesses
 * against the hardware, never past the guest's share.
 */

/*
 * The event counter a PMEVCNTR<n>_EL0 access (@sel = n) or a
 * PMXEVCNTR_EL0 access (@sel = PMSELR_EL0.SEL) names.
 *
 * Return: the index, or -EINVAL: the guest gets an UNDEF, as the Arm ARM
 * gives it for n at or above HPMN (SEL = 31 included: PMXEVCNTR_EL0
 * does not reach the cycle counter).
 */
static inline int kvm_pmu_part_evcntr_idx(unsigned int sel, unsigned int hpmn)
{
	return sel < hpmn ? (int)sel : -EINVAL;
}

/* As above for PMEVTYPER<n>_EL0 and PMXEVTYPER_EL0, where 31 is PMCCFILTR_EL0. */
static inline int kvm_pmu_part_evtyper_idx(unsigned int sel, unsigned int hpmn)
{
	if (sel == ARMV8_PMU_CYCLE_IDX)
		return ARMV8_PMU_CYCLE_IDX;
	return kvm_pmu_part_evcntr_idx(sel, hpmn);
}

/*
 * A guest type as the hardware gets it: the fields a guest may program
 * (event, threshold, P/U/NSK/NSU; the cycle counter's filter only), and
 * never NSH, since a guest has no EL2 and must not count the host's.
 */
static inline u64 kvm_pmu_part_typer_write(u64 val, int idx)
{
	u64 filter = ARMV8_PMU_EXCLUDE_EL1 | ARMV8_PMU_EXCLUDE_EL0 |
		     ARMV8_PMU_EXCLUDE_NS_EL1 | ARMV8_PMU_EXCLUDE_NS_EL0;

	if (idx == ARMV8_PMU_CYCLE_IDX)
		return val & filter;
	return val & (filter | ARMV8_PMU_EVTYPE_EVENT | ARMV8_PMU_EVTYPE_TH |
		      ARMV8_PMU_EVTYPE_TC);
}

#endif /* __KVM_ARM_PMU_PARTITION_H */

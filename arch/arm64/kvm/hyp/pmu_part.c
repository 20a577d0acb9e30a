// SPDX-License-Identifier: GPL-2.0-only
/*
 * The direct guest PMU's decisions (Documentation/arch/arm64/pmu-direct.rst),
 * built into the host and into the nVHE hypervisor alike, as pgtable.c
 * is: the host decides a vCPU's share, traps and MDCR_EL2 at INIT, and
 * the protected hypervisor checks the host's choice for a protected VM
 * with the same functions at every run.  Pure: the caller passes the
 * PMU's capabilities in, nothing here reads or writes a register, and
 * nothing calls into the host kernel.  <kvm/arm_pmu_partition.h>
 * declares them, and keeps inline the few that EL2's entry and exit
 * path runs for every counter or every exit.
 */
#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/types.h>
#include <kvm/arm_pmu_partition.h>

/*
 * PMUVer as a number that grows with the version: 0 for no PMUv3 and for
 * an IMPLEMENTATION DEFINED PMU, which has no PMUv3 registers to share.
 */
unsigned int kvm_pmu_part_pmuver(u64 dfr0)
{
	unsigned int ver = FIELD_GET(ID_AA64DFR0_EL1_PMUVer, dfr0);

	return ver == ID_AA64DFR0_EL1_PMUVer_IMP_DEF ? 0 : ver;
}

/*
 * The HPMN probe (arch/arm64/kvm/pmu_direct.c, at KVM init on every CPU):
 * with MDCR_EL2.HPMN set to the counter this returns, EL1 writes that
 * counter's bit to PMCNTENSET_EL0 and reads it back.  Where EL2 is
 * enabled, the bits of counters at or above HPMN are RAZ/WI at EL1 and
 * EL0 (Arm ARM, PMCNTENSET_EL0's P<m> fields): a PMU that lets the bit
 * read 1 does not enforce HPMN.  Return: the counter (HPMN = it, so that
 * it is the first one EL1 may not use), or -1 where no probe can be made:
 * no counter, or a single one and no FEAT_HPMN0 (HPMN = 0 is then
 * CONSTRAINED UNPREDICTABLE).
 */
int kvm_pmu_part_probe_counter(unsigned int n, bool hpmn0)
{
	n = min_t(unsigned int, n, ARMV8_PMU_MAX_GENERAL_COUNTERS);
	if (!n || (n == 1 && !hpmn0))
		return -1;
	return n - 1;
}

/* What the probe of @counter found, from the PMCNTENSET_EL0 EL1 read. */
bool kvm_pmu_part_probe_enforced(int counter, u64 pmcntenset)
{
	return counter >= 0 && !(pmcntenset & BIT_ULL(counter));
}

/*
 * The capabilities, from the sanitised ID registers, PMCR_EL0.N and the
 * HPMN probe's answer (@probed: the PMU enforces HPMN), which the guard
 * may overrule only towards the guarded profile.
 */
void kvm_pmu_part_caps_from(struct kvm_pmu_part_caps *caps,
			    u64 dfr0, u64 dfr1, u64 mmfr0,
			    bool probed, unsigned int n,
			    enum kvm_pmu_part_guard guard)
{
	unsigned int ver = kvm_pmu_part_pmuver(dfr0);
	unsigned int fgt = FIELD_GET(ID_AA64MMFR0_EL1_FGT, mmfr0);

	caps->nr_counters = min_t(unsigned int, n, ARMV8_PMU_MAX_GENERAL_COUNTERS);
	caps->hpmn0 = FIELD_GET(ID_AA64DFR0_EL1_HPMN0, dfr0) != 0;
	caps->pmuv3p1 = ver >= ID_AA64DFR0_EL1_PMUVer_V3P1;
	caps->pmuv3p5 = ver >= ID_AA64DFR0_EL1_PMUVer_V3P5;
	caps->pmuv3p9 = ver >= ID_AA64DFR0_EL1_PMUVer_V3P9;
	caps->icntr = FIELD_GET(ID_AA64DFR1_EL1_PMICNTR, dfr1) != 0;
	caps->fgt = fgt >= ID_AA64MMFR0_EL1_FGT_IMP;
	caps->fgt2 = fgt >= ID_AA64MMFR0_EL1_FGT_FGT2;
	caps->hpmn_enforced = probed && guard == KVM_PMU_PART_GUARD_AUTO;
}

/*
 * The guest's share, MDCR_EL2.HPMN, which is also its PMCR_EL0.N.  The
 * host keeps @host_min event counters (kvm.pmu_direct_host_counters, at
 * most all of them); a VMM may ask for fewer than the rest with
 * KVM_ARM_VCPU_PMU_V3_SET_NR_COUNTERS, never for more.
 *
 * Return: HPMN; -EINVAL for a request above PMCR_EL0.N (or negative),
 * -ENOSPC for one that would take counters the host keeps, -EOPNOTSUPP
 * for a share of 0 without FEAT_HPMN0 (HPMN = 0 is then CONSTRAINED
 * UNPREDICTABLE).
 */
int kvm_pmu_part_size(const struct kvm_pmu_part_caps *caps,
		      int requested, unsigned int host_min)
{
	unsigned int n = min_t(unsigned int, caps->nr_counters,
			       ARMV8_PMU_MAX_GENERAL_COUNTERS);
	unsigned int max = n - min(host_min, n);
	unsigned int hpmn = max;

	if (requested != KVM_PMU_PART_NO_REQUEST) {
		if (requested < 0 || requested > n)
			return -EINVAL;
		if (requested > max)
			return -ENOSPC;
		hpmn = requested;
	}
	if (!hpmn && !caps->hpmn0)
		return -EOPNOTSUPP;
	return hpmn;
}

/*
 * The counters host perf may use on a CPU where a direct vCPU is loaded:
 * [HPMN, N), which MDCR_EL2.HPME enables.  Neither fixed counter: the
 * guest's PMCR_EL0.E enables PMICNTR_EL0 as it does PMCCNTR_EL0, so the
 * instruction counter is nobody's while the guest's PMCR_EL0 is loaded.
 */
u64 kvm_pmu_part_host_mask(const struct kvm_pmu_part_caps *caps,
			   unsigned int hpmn)
{
	unsigned int n = min_t(unsigned int, caps->nr_counters,
			       ARMV8_PMU_MAX_GENERAL_COUNTERS);

	if (hpmn >= n)
		return 0;
	return GENMASK_ULL(n - 1, hpmn);
}

/*
 * The counters host perf must vacate when a direct vCPU is loaded: all
 * it could use otherwise (the event counters, PMCCNTR_EL0 and, if it
 * exists, PMICNTR_EL0) but its share.  They are also the bits EL2 clears
 * from PMCNTEN, PMINTEN and PMOVS as the vCPU's PMU is loaded and at
 * every exit: MDCR_EL2.HPMN partitions the event counters only, so where
 * those registers do not trap the guest reaches the instruction
 * counter's F0 (bit 32) too, and must neither find the host's overflow
 * of PMICNTR_EL0 there nor leave that counter running for the host.
 */
u64 kvm_pmu_part_vacate_mask(const struct kvm_pmu_part_caps *caps,
			     unsigned int hpmn)
{
	u64 all = kvm_pmu_part_guest_mask(caps->nr_counters);

	if (caps->icntr)
		all |= BIT_ULL(ARMV8_PMU_INSTR_IDX);
	return all & ~kvm_pmu_part_host_mask(caps, hpmn);
}

/*
 * The PMU fields of a direct vCPU's MDCR_EL2 (within
 * KVM_PMU_PART_MDCR_MASK), the same in every host mode: HPMN the guest's
 * share; HPME so that the host's counters count while the guest runs
 * (PMCR_EL0.E does not enable counters at or above HPMN); HPMD and HCCD,
 * where they exist, so that no guest counter counts at EL2, whatever
 * filter the guest writes; HLP as the host driver's PMCR_EL0.LP (set
 * wherever 64-bit event counters exist), since it sets the overflow
 * width of [HPMN, N); TPM when some PMU access must trap and FGT cannot
 * single it out (@tpm, from kvm_pmu_part_need_tpm()); TPMCR where the
 * PMU does not enforce HPMN (the guarded profile: PMCR_EL0 traps both
 * ways, so that its E stays 1 in the hardware for the host's counters
 * and is virtual for the guest's).  What differs per mode is when it is
 * written and by whom (VHE at vcpu_load, nVHE and protected mode at
 * every entry; the protected hypervisor derives TPMCR from its own copy
 * of the probe's answer).
 */
u64 kvm_pmu_part_mdcr(const struct kvm_pmu_part_caps *caps,
		      unsigned int hpmn, bool tpm)
{
	u64 mdcr = FIELD_PREP(MDCR_EL2_HPMN, hpmn) | MDCR_EL2_HPME;

	if (caps->pmuv3p1)
		mdcr |= MDCR_EL2_HPMD;
	if (caps->pmuv3p5)
		mdcr |= MDCR_EL2_HCCD | MDCR_EL2_HLP;
	if (tpm)
		mdcr |= MDCR_EL2_TPM;
	if (!caps->hpmn_enforced)
		mdcr |= MDCR_EL2_TPMCR;
	return mdcr;
}

/*
 * PMCR_EL0 as the guest and its VMM read it: the hardware's, with N the
 * guest's share.  At EL1 and EL0 the hardware reads N as HPMN by itself;
 * this is the value KVM keeps for the vCPU and gives to user space.
 */
u64 kvm_pmu_part_guest_pmcr(u64 pmcr, unsigned int hpmn)
{
	return (pmcr & ~(u64)ARMV8_PMU_PMCR_N) |
	       FIELD_PREP(ARMV8_PMU_PMCR_N, hpmn);
}

/*
 * A guest write of PMCR_EL0 that traps (guarded profile, or TPM): the
 * value for the hardware, and whether to reset the guest's event
 * counters.  PMCR_EL0.P is never passed on: the Arm ARM limits a P
 * written at EL1 or EL0 to counters [0, HPMN), but a PMU that does not
 * enforce HPMN may reset the host's counters [HPMN, N) too, so the
 * caller writes 0 to PMEVCNTR<n>_EL0, n < HPMN, instead.  C passes: the
 * cycle counter is the guest's.  LP only with PMUv3p5.
 */
u64 kvm_pmu_part_pmcr_write(const struct kvm_pmu_part_caps *caps,
			    u64 val, bool *reset_events)
{
	u64 mask = ARMV8_PMU_PMCR_E | ARMV8_PMU_PMCR_C | ARMV8_PMU_PMCR_D |
		   ARMV8_PMU_PMCR_X | ARMV8_PMU_PMCR_DP | ARMV8_PMU_PMCR_LC;

	if (caps->pmuv3p5)
		mask |= ARMV8_PMU_PMCR_LP;
	*reset_events = val & ARMV8_PMU_PMCR_P;
	return val & mask;
}

/*
 * What a direct vCPU traps, given the PMU and two per-vCPU conditions:
 * a KVM event filter is installed (@event_filter), or a guest overflow
 * is held (@held: see kvm_pmu_part_hw_inten()).  Everything else is the
 * guest's own and does not trap.
 *
 *  - A PMU that does not enforce HPMN at EL1/EL0: every register that
 *    names a counter, both ways, PMCR_EL0 and PMSWINC_EL0 writes (a
 *    PMCR_EL0.P or PMSWINC write would reach the host's counters) and,
 *    where PMUv3p9 has it, PMZR_EL0 writes; PMSELR_EL0 need not, as the
 *    PMXEV* accesses it selects trap.
 *  - No HPMD (PMUv3.0): PMEVTYPER writes, to clear NSH.  No HCCD
 *    (before PMUv3p5): PMCCFILTR_EL0 writes, likewise.  A guest has no
 *    EL2, so NSH is RES0 to it and a read needs no trap.
 *  - An event filter: PMEVTYPER and PMCCFILTR_EL0 both ways (the
 *    hardware gets a type that counts nothing for a denied event, the
 *    guest reads back its own), and PMCEID reads (the filter hides
 *    events).
 *  - A held overflow: PMINTEN both ways (the guest reads its enables
 *    with the held ones) and PMOVS writes (the write that clears a held
 *    overflow releases it).
 *  - PMICNTR_EL0 and PMICFILTR_EL0 always, where they exist: they are
 *    nobody's while the guest's PMCR_EL0 is loaded, and the guest gets
 *    an UNDEF.
 * PMUSERENR_EL0, PMCCNTR_EL0, PMCR_EL0 reads (N reads as HPMN at EL1)
 * and PMMIR_EL1 never trap for the partition's sake.
 */
struct kvm_pmu_part_traps
kvm_pmu_part_traps(const struct kvm_pmu_part_caps *caps, bool event_filter,
		   bool held)
{
	struct kvm_pmu_part_traps t = { };

	if (!caps->hpmn_enforced) {
		t.read |= KVM_PMU_PART_REGS_INDEXED;
		t.write |= KVM_PMU_PART_REGS_INDEXED | BIT(KVM_PMU_PART_PMCR) |
			   BIT(KVM_PMU_PART_PMSWINC);
		if (caps->pmuv3p9)
			t.write |= BIT(KVM_PMU_PART_PMZR);
	}
	if (!caps->pmuv3p1)
		t.write |= BIT(KVM_PMU_PART_PMEVTYPER);
	if (!caps->pmuv3p5)
		t.write |= BIT(KVM_PMU_PART_PMCCFILTR);
	if (event_filter) {
		t.read |= BIT(KVM_PMU_PART_PMEVTYPER) | BIT(KVM_PMU_PART_PMCCFILTR) |
			  BIT(KVM_PMU_PART_PMCEID);
		t.write |= BIT(KVM_PMU_PART_PMEVTYPER) | BIT(KVM_PMU_PART_PMCCFILTR);
	}
	if (held) {
		t.read |= BIT(KVM_PMU_PART_PMINTEN);
		t.write |= BIT(KVM_PMU_PART_PMINTEN) | BIT(KVM_PMU_PART_PMOVS);
	}
	if (caps->icntr) {
		t.read |= KVM_PMU_PART_REGS_ICNTR;
		t.write |= KVM_PMU_PART_REGS_ICNTR;
	}
	return t;
}

/*
 * Whether the traps need MDCR_EL2.TPM, which traps every PMU register:
 * some access must trap and FGT cannot single it out (no FEAT_FGT, or
 * an FGT2 register without FEAT_FGT2).  The EL2 fast path then serves
 * all the others too, against the hardware.
 */
bool kvm_pmu_part_need_tpm(const struct kvm_pmu_part_caps *caps,
			   const struct kvm_pmu_part_traps *t)
{
	u32 all = t->read | t->write;
	u32 fgt2 = KVM_PMU_PART_REGS_ICNTR | BIT(KVM_PMU_PART_PMZR);

	if (!all)
		return false;
	if (!caps->fgt)
		return true;
	return (all & fgt2) && !caps->fgt2;
}

/*
 * Whether a protected VM's share @hpmn can run on this CPU's PMU (@caps,
 * EL2's own reading of the ID registers and PMCR_EL0.N): PMUv3p5 (HCCD
 * keeps the guest's cycle counter off EL2), the share within the event
 * counters implemented, 0 only with FEAT_HPMN0 (otherwise HPMN = 0 is
 * CONSTRAINED UNPREDICTABLE), and traps that FGT can single out.  The
 * hypervisor checks it before every run of the VM, not only its first:
 * the host picks the CPU, and on one with fewer counters an index of
 * the share would be UNDEFINED at EL2 itself.
 */
bool kvm_pmu_part_pvm_fits(const struct kvm_pmu_part_caps *caps,
			   unsigned int hpmn)
{
	struct kvm_pmu_part_traps t = kvm_pmu_part_traps(caps, false, true);

	return caps->pmuv3p5 && hpmn <= ARMV8_PMU_MAX_GENERAL_COUNTERS &&
	       kvm_pmu_part_size(caps, (int)hpmn, 0) == (int)hpmn &&
	       !kvm_pmu_part_need_tpm(caps, &t);
}

/* The HDFGRTR_EL2 (@write false) or HDFGWTR_EL2 bit of a register, or 0. */
u64 kvm_pmu_part_fgt_bit(enum kvm_pmu_part_reg reg, bool write)
{
	switch (reg) {
	case KVM_PMU_PART_PMCR:
		return write ? HDFGWTR_EL2_PMCR_EL0 : 0;
	case KVM_PMU_PART_PMCNTEN:
		return write ? HDFGWTR_EL2_PMCNTEN : HDFGRTR_EL2_PMCNTEN;
	case KVM_PMU_PART_PMINTEN:
		return write ? HDFGWTR_EL2_PMINTEN : HDFGRTR_EL2_PMINTEN;
	case KVM_PMU_PART_PMOVS:
		return write ? HDFGWTR_EL2_PMOVS : HDFGRTR_EL2_PMOVS;
	case KVM_PMU_PART_PMSELR:
		return write ? HDFGWTR_EL2_PMSELR_EL0 : HDFGRTR_EL2_PMSELR_EL0;
	case KVM_PMU_PART_PMUSERENR:
		return write ? HDFGWTR_EL2_PMUSERENR_EL0 : HDFGRTR_EL2_PMUSERENR_EL0;
	case KVM_PMU_PART_PMCCNTR:
		return write ? HDFGWTR_EL2_PMCCNTR_EL0 : HDFGRTR_EL2_PMCCNTR_EL0;
	case KVM_PMU_PART_PMCCFILTR:
		return write ? HDFGWTR_EL2_PMCCFILTR_EL0 : HDFGRTR_EL2_PMCCFILTR_EL0;
	case KVM_PMU_PART_PMEVCNTR:
		return write ? HDFGWTR_EL2_PMEVCNTRn_EL0 : HDFGRTR_EL2_PMEVCNTRn_EL0;
	case KVM_PMU_PART_PMEVTYPER:
		return write ? HDFGWTR_EL2_PMEVTYPERn_EL0 : HDFGRTR_EL2_PMEVTYPERn_EL0;
	case KVM_PMU_PART_PMSWINC:
		return write ? HDFGWTR_EL2_PMSWINC_EL0 : 0;
	case KVM_PMU_PART_PMCEID:
		return write ? 0 : HDFGRTR_EL2_PMCEIDn_EL0;
	case KVM_PMU_PART_PMMIR:
		return write ? 0 : HDFGRTR_EL2_PMMIR_EL1;
	default:
		return 0;
	}
}

/* The HDFG{R,W}TR2_EL2 bit of a register (trapping when 0), or 0. */
u64 kvm_pmu_part_fgt2_bit(enum kvm_pmu_part_reg reg, bool write)
{
	switch (reg) {
	case KVM_PMU_PART_PMICNTR:
		return write ? HDFGWTR2_EL2_nPMICNTR_EL0 : HDFGRTR2_EL2_nPMICNTR_EL0;
	case KVM_PMU_PART_PMICFILTR:
		return write ? HDFGWTR2_EL2_nPMICFILTR_EL0 :
			       HDFGRTR2_EL2_nPMICFILTR_EL0;
	case KVM_PMU_PART_PMZR:
		return write ? HDFGWTR2_EL2_nPMZR_EL0 : 0;
	default:
		return 0;
	}
}

void kvm_pmu_part_fgt(const struct kvm_pmu_part_traps *t,
		      struct kvm_pmu_part_fgt *fgt)
{
	int reg;

	fgt->hdfgrtr = 0;
	fgt->hdfgwtr = 0;
	fgt->hdfgrtr2 = KVM_PMU_PART_HDFGRTR2_MASK;
	fgt->hdfgwtr2 = KVM_PMU_PART_HDFGWTR2_MASK;
	for (reg = 0; reg < KVM_PMU_PART_NR_REGS; reg++) {
		if (t->read & BIT(reg)) {
			fgt->hdfgrtr |= kvm_pmu_part_fgt_bit(reg, false);
			fgt->hdfgrtr2 &= ~kvm_pmu_part_fgt2_bit(reg, false);
		}
		if (t->write & BIT(reg)) {
			fgt->hdfgwtr |= kvm_pmu_part_fgt_bit(reg, true);
			fgt->hdfgwtr2 &= ~kvm_pmu_part_fgt2_bit(reg, true);
		}
	}
}

/*
 * A trapped PMINTENSET_EL1 write of @val raises the guest's interrupt
 * when it enables an overflow already held (PMOVS set, the enable clear
 * before): the Arm ARM makes the request as soon as PMCR_EL0.E,
 * PMINTEN[n] and PMOVS[n] all hold (D13.3).  The hardware cannot raise
 * it (a held overflow stays out of its PMINTEN), so such a write is not
 * served at EL2: it exits, and the host gives the vGIC the new level
 * before the guest runs again.
 */
bool kvm_pmu_part_inten_raises(u64 pmcr, u64 val, u64 pminten,
			       u64 pmovs, u64 guest)
{
	return kvm_pmu_part_overflow(pmcr, pmovs, val & ~pminten, guest) != 0;
}

/*
 * Whether an event counter of type @type counts a PMSWINC_EL0 write made
 * at the guest's EL0 (@el0) or EL1: it must count SW_INCR and its filter
 * must keep that Exception level (Arm ARM D13.4.4).  A guest runs in
 * Non-secure state, where EL1 counts while PMEVTYPER<n>_EL0.P equals
 * NSK, and EL0 while U equals NSU (NSK and NSU are RES0 without EL3).
 */
bool kvm_pmu_part_swinc_counts(u64 type, bool el0)
{
	if ((type & ARMV8_PMU_EVTYPE_EVENT) != ARMV8_PMUV3_PERFCTR_SW_INCR)
		return false;
	if (el0)
		return !(type & ARMV8_PMU_EXCLUDE_EL0) == !(type & ARMV8_PMU_EXCLUDE_NS_EL0);
	return !(type & ARMV8_PMU_EXCLUDE_EL1) == !(type & ARMV8_PMU_EXCLUDE_NS_EL1);
}

/*
 * An event counter's value @cnt after one SW_INCR, and (*@overflow)
 * whether it overflowed: at 32 bits, or at 64 with PMCR_EL0.LP (@lp).
 */
u64 kvm_pmu_part_swinc_value(u64 cnt, bool lp, bool *overflow)
{
	cnt++;
	*overflow = lp ? !cnt : !(u32)cnt;
	return cnt;
}

/*
 * The type the hardware gets for a guest's type @typer of counter @idx
 * (as kvm_pmu_part_typer_write() keeps it) under KVM's event filter
 * @filter (KVM_ARM_VCPU_PMU_V3_FILTER: a bitmap of the event numbers the
 * VM may count, KVM_PMU_PART_FILTER_EVENTS of them; NULL for none).  An
 * allowed event gets the guest's type.  A denied one gets a type that
 * counts nothing: P and U set with NSK, NSU, NSH and M clear exclude EL1
 * and EL0 in every Security state, EL2 and EL3 (Arm ARM D13.4.x,
 * PMEVTYPER<n>_EL0's filtering fields), so that it neither counts nor
 * overflows.  The cycle counter counts CPU_CYCLES.  SW_INCR and CHAIN
 * are not filtered: the trapped PMU counts them itself, filter or not.
 */
u64 kvm_pmu_part_typer_filtered(u64 typer, int idx, const unsigned long *filter)
{
	unsigned int event = typer & ARMV8_PMU_EVTYPE_EVENT;

	if (idx == ARMV8_PMU_CYCLE_IDX)
		event = ARMV8_PMUV3_PERFCTR_CPU_CYCLES;
	if (!filter || event == ARMV8_PMUV3_PERFCTR_SW_INCR ||
	    event == ARMV8_PMUV3_PERFCTR_CHAIN || test_bit(event, filter))
		return typer;
	return (typer & ARMV8_PMU_EVTYPE_EVENT) | ARMV8_PMU_EXCLUDE_EL1 |
	       ARMV8_PMU_EXCLUDE_EL0;
}

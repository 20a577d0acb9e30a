/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The direct guest PMU at EL2 (Documentation/arch/arm64/pmu-direct.rst):
 * the control registers' switch at every guest entry and exit, and the
 * fast path that serves the guest's trapped accesses to its own counters
 * against the hardware, for VHE and nVHE world switches alike.
 *
 * A direct vCPU owns event counters [0, hpmn) and the cycle counter; its
 * counters and types are loaded at vcpu_load (arch/arm64/kvm/pmu_direct.c)
 * and stay in the hardware until vcpu_put, disabled while the host runs.
 * The switch runs at every entry and exit in both modes (VHE's
 * __activate_traps(), not the vcpu_load-time __activate_traps_common()),
 * so the host always runs with its own PMCR_EL0 and MDCR_EL2.
 * Here, at entry: the guest's MDCR_EL2 first (HPMN, HPMD and HCCD: its
 * counters cannot count at EL2), then its overflow flags, interrupt
 * enables (less the overflows it has not cleared: those are held, and
 * raise the virtual interrupt instead), counter enables, PMSELR_EL0,
 * PMUSERENR_EL0 and PMCR_EL0.  At exit the reverse, saving each into
 * the vCPU: its counters stop, its flags and enables leave the hardware
 * (the host's overflow handler never sees them), and the host gets its
 * PMCR_EL0 and, on VHE, its MDCR_EL2 (HPMN = N) back.
 *
 * No locks, no allocation, no printing: this runs at EL2 with IRQs off.
 *
 * A header, as hyp/switch.h and hyp/sysreg-sr.h are: the VHE and nVHE
 * world switches (vhe/switch.c, nvhe/switch.c) each build it into their
 * own entry, exit and trap handlers, inline on the path every guest
 * entry and exit runs.  The decisions it takes are hyp/pmu_part.c's.
 */
#ifndef __ARM64_KVM_HYP_PMU_DIRECT_H__
#define __ARM64_KVM_HYP_PMU_DIRECT_H__

#include <linux/bitfield.h>
#include <linux/kvm_host.h>
#include <asm/arm_pmuv3.h>
#include <asm/kvm_emulate.h>
#include <hyp/adjust_pc.h>
#include <hyp/pmu_evreg.h>
#include <kvm/arm_pmu_direct.h>
#include <kvm/arm_pmu_partition.h>
#ifdef __KVM_NVHE_HYPERVISOR__
#include <nvhe/mem_protect.h>
#endif

#ifdef CONFIG_KVM_ARM_PMU_DIRECT

/* The guest's counters (kvm_pmu_part_guest_mask() of its share). */
static __always_inline u64 __pmu_direct_mask(struct kvm_vcpu *vcpu)
{
	return vcpu->arch.pmu.direct.mask;
}

/*
 * A PMU register of the vCPU, on the paths of every entry and exit.  None
 * of them is VNCR-backed, so it is the plain array: __vcpu_sys_reg() adds
 * a nested-virt check to every access (an alternative, and a call of
 * vcpu_has_nv() where the compiler keeps that out of line).
 */
#define __pmu_direct_vreg(vcpu, r)					\
	(*({								\
		BUILD_BUG_ON((r) >= __VNCR_START__);			\
		&(vcpu)->arch.ctxt.sys_regs[(r)];			\
	}))

/*
 * The guarded profile (a PMU that does not enforce HPMN) keeps the
 * guest's PMCR_EL0.E virtual (@virt_e): PMCR_EL0 traps both ways
 * (MDCR_EL2.TPMCR) and PMCNTEN does anyway, so the hardware's E stays 1
 * while the guest runs and the guest's E is applied to its counter
 * enables instead.  The Arm ARM gates the overflow interrupt of the
 * host's counters [HPMN, N) by MDCR_EL2.HPME (D13.3); a PMU that does
 * not enforce HPMN may gate it by PMCR_EL0.E instead, and with the
 * guest's E in the hardware a host sampling a guest whose PMU is idle
 * would get nearly no samples (pmu-direct.rst, "Known limits").
 * Return: the guest's counter enables (@mask: its counters) as the
 * hardware must have them.
 */
static __always_inline u64 __pmu_direct_hw_cnten(struct kvm_vcpu *vcpu, u64 mask)
{
	u64 cnten = __pmu_direct_vreg(vcpu, PMCNTENSET_EL0) & mask;

	if (vcpu->arch.pmu.direct.virt_e &&
	    !(__pmu_direct_vreg(vcpu, PMCR_EL0) & ARMV8_PMU_PMCR_E))
		return 0;
	return cnten;
}

/*
 * A protected VM's counters and types (switched at every entry and exit,
 * as everything of its PMU is, in the hypervisor's copy of the vCPU,
 * whose PMU registers never reach the host, __pmu_direct_pvm_ctxt_copy()).
 * At exit the hardware's are zeroed, so that the host, which runs next at
 * EL1 with every counter accessible, reads nothing of them.  The counters
 * are stopped here.
 */
static inline void __pmu_direct_pvm_load(struct kvm_vcpu *vcpu)
{
	u64 scrub = vcpu->arch.pmu.direct.vacate;
	unsigned int i;

	/*
	 * The host, not trusted here, may have left its own enables, flags
	 * and interrupt enables on these counters: none of them may act on
	 * the VM's counters (the guest's own are set after this).
	 */
	write_sysreg(scrub, pmcntenclr_el0);
	write_sysreg(scrub, pmintenclr_el1);
	write_sysreg(scrub, pmovsclr_el0);
	for (i = 0; i < vcpu->arch.pmu.direct.hpmn; i++) {
		u64 typer = __vcpu_sys_reg(vcpu, PMEVTYPER0_EL0 + i);

		__pmu_evreg_write(i, true, kvm_pmu_part_typer_write(typer, i));
		__pmu_evreg_write(i, false, __vcpu_sys_reg(vcpu, PMEVCNTR0_EL0 + i));
	}
	write_sysreg(kvm_pmu_part_typer_write(__vcpu_sys_reg(vcpu, PMCCFILTR_EL0),
					      ARMV8_PMU_CYCLE_IDX), pmccfiltr_el0);
	write_sysreg(__vcpu_sys_reg(vcpu, PMCCNTR_EL0), pmccntr_el0);
}

static inline void __pmu_direct_pvm_save_scrub(struct kvm_vcpu *vcpu)
{
	unsigned int i;

	for (i = 0; i < vcpu->arch.pmu.direct.hpmn; i++) {
		__vcpu_assign_sys_reg(vcpu, PMEVTYPER0_EL0 + i, __pmu_evreg_read(i, true));
		__vcpu_assign_sys_reg(vcpu, PMEVCNTR0_EL0 + i, __pmu_evreg_read(i, false));
		__pmu_evreg_write(i, true, 0);
		__pmu_evreg_write(i, false, 0);
	}
	__vcpu_assign_sys_reg(vcpu, PMCCFILTR_EL0, read_sysreg(pmccfiltr_el0));
	__vcpu_assign_sys_reg(vcpu, PMCCNTR_EL0, read_sysreg(pmccntr_el0));
	write_sysreg(0, pmccfiltr_el0);
	write_sysreg(0, pmccntr_el0);
}

static inline void __pmu_direct_to_guest(struct kvm_vcpu *vcpu)
{
	struct kvm_pmu_direct *d = &vcpu->arch.pmu.direct;
	u64 mask = __pmu_direct_mask(vcpu);
	u64 ovs = __pmu_direct_vreg(vcpu, PMOVSSET_EL0) & mask;

	/* nVHE wrote vcpu->arch.mdcr_el2 already, in __activate_traps(). */
	if (has_vhe())
		write_sysreg(vcpu->arch.mdcr_el2, mdcr_el2);
	d->pmcr_host = read_sysreg(pmcr_el0);
	/* The guest's counters must count under its MDCR_EL2 only. */
	isb();
	if (d->pvm)
		__pmu_direct_pvm_load(vcpu);
	write_sysreg(ovs, pmovsset_el0);
	write_sysreg(kvm_pmu_part_hw_inten(__pmu_direct_vreg(vcpu, PMINTENSET_EL1), ovs, mask),
		     pmintenset_el1);
	write_sysreg(__pmu_direct_hw_cnten(vcpu, mask), pmcntenset_el0);
	write_sysreg(__pmu_direct_vreg(vcpu, PMSELR_EL0) & PMSELR_EL0_SEL, pmselr_el0);
	write_sysreg(__pmu_direct_vreg(vcpu, PMUSERENR_EL0) & ARMV8_PMU_USERENR_MASK,
		     pmuserenr_el0);
	/* P and C reset counters when written: never from memory (userspace may set them). */
	write_sysreg((__pmu_direct_vreg(vcpu, PMCR_EL0) & ARMV8_PMU_PMCR_MASK &
		      ~(ARMV8_PMU_PMCR_P | ARMV8_PMU_PMCR_C)) |
		     (d->virt_e ? ARMV8_PMU_PMCR_E : 0), pmcr_el0);
}

static inline void __pmu_direct_to_host(struct kvm_vcpu *vcpu)
{
	struct kvm_pmu_direct *d = &vcpu->arch.pmu.direct;
	u64 mask = __pmu_direct_mask(vcpu);
	u64 ovs;

	/* Stop the guest's counters first, then take the rest out. */
	/* Virtual E: PMCNTEN and PMCR_EL0 trapped, and the vCPU has them. */
	if (!d->virt_e) {
		__pmu_direct_vreg(vcpu, PMCNTENSET_EL0) = read_sysreg(pmcntenset_el0) & mask;
		__pmu_direct_vreg(vcpu, PMCR_EL0) = read_sysreg(pmcr_el0);
	}
	/* The instruction counter's bits too (kvm_pmu_part_vacate_mask()). */
	write_sysreg(d->vacate, pmcntenclr_el0);
	if (d->pvm)
		__pmu_direct_pvm_save_scrub(vcpu);
	write_sysreg(d->pmcr_host, pmcr_el0);
	/*
	 * After the host's PMCR_EL0: on a PMU that gates the interrupt by
	 * PMCR_EL0.E alone (above), the PMOVS and PMINTEN writes below
	 * raise a host overflow that came while the guest's E was 0, at
	 * the latest (pmu-direct.rst, "Known limits").
	 */
	ovs = read_sysreg(pmovsclr_el0) & mask;
	write_sysreg(d->vacate, pmovsclr_el0);
	write_sysreg(d->vacate, pmintenclr_el1);
	__pmu_direct_vreg(vcpu, PMOVSSET_EL0) = ovs;
	__pmu_direct_vreg(vcpu, PMSELR_EL0) = read_sysreg(pmselr_el0);
	/* The host runs next at EL1, where it could read a protected VM's SEL. */
	if (d->pvm)
		write_sysreg(0, pmselr_el0);
	__pmu_direct_vreg(vcpu, PMUSERENR_EL0) = read_sysreg(pmuserenr_el0);
	/*
	 * What __activate_traps_common() left there (VHE: at vcpu_load;
	 * nVHE: just before __pmu_direct_to_guest()), and what
	 * __deactivate_traps_common() replaces with the host's own.
	 */
	write_sysreg(ARMV8_PMU_USERENR_MASK, pmuserenr_el0);
	/* nVHE writes the host's MDCR_EL2 back in __deactivate_traps(). */
	if (has_vhe())
		write_sysreg(d->mdcr_host, mdcr_el2);
	isb();
	/* The level of the guest's interrupt, from its view (held ones included). */
	d->irq_level = kvm_pmu_part_irq_level(__pmu_direct_vreg(vcpu, PMCR_EL0), ovs,
					      __pmu_direct_vreg(vcpu, PMINTENSET_EL1), mask);
}

/*
 * A protected VM, before every run: the partition's traps from the
 * hypervisor's own reading of the PMU of the CPU it is about to run on
 * (the same pure functions the host's decision uses, on this CPU's ID
 * registers and PMCR_EL0.N = @n), not from the host.  A host that
 * dropped a trap could otherwise, on a PMU that does not enforce HPMN,
 * let the VM's PMCR_EL0 or PMCNTEN writes start the host's own counters
 * while the VM runs, and read its execution in them.  A PMU its share
 * does not fit (kvm_pmu_part_pvm_fits(): fewer counters, no FEAT_HPMN0
 * for a share of 0, traps that need MDCR_EL2.TPM) gives the VM no PMU
 * for this run: its accesses trap and UNDEF, and its counters stay in
 * the hypervisor's copy of the vCPU until a run on a PMU that fits.
 */
static inline void __pmu_direct_pvm_traps(struct kvm_pmu_direct *d, unsigned int n)
{
	struct kvm_pmu_part_traps traps;
	struct kvm_pmu_part_caps caps;
	struct kvm_pmu_part_fgt fgt;

	kvm_pmu_part_caps_from(&caps, read_sysreg(id_aa64dfr0_el1),
			       read_sysreg_s(SYS_ID_AA64DFR1_EL1),
			       read_sysreg(id_aa64mmfr0_el1), kvm_pmu_hpmn_enforced, n,
			       KVM_PMU_PART_GUARD_AUTO);
	if (!kvm_pmu_part_pvm_fits(&caps, d->hpmn)) {
		d->enabled = false;
		return;
	}
	traps = kvm_pmu_part_traps(&caps, false, true);
	kvm_pmu_part_fgt(&traps, &fgt);
	d->hdfgrtr = fgt.hdfgrtr;
	d->hdfgwtr = fgt.hdfgwtr;
	d->hdfgrtr2 = fgt.hdfgrtr2;
	d->hdfgwtr2 = fgt.hdfgwtr2;
	d->vacate = kvm_pmu_part_vacate_mask(&caps, d->hpmn);
	d->virt_e = !caps.hpmn_enforced;
}

#ifdef __KVM_NVHE_HYPERVISOR__
/* The hypervisor's address of a VM's event filter (@end: of its end). */
static inline void *__pmu_direct_filter_hyp(const unsigned long *filter, bool end)
{
	size_t longs = end ? BITS_TO_LONGS(KVM_PMU_PART_FILTER_EVENTS) : 0;

	return (void *)(kern_hyp_va(filter) + longs);
}

/*
 * Protected mode: a non-protected VM's event filter is read in place,
 * where the host shared it with the hypervisor (kvm_pmu_direct_share_filter()
 * at INIT): pinned once, at the first run of each vCPU that has it, so
 * that the host cannot take the pages back while EL2 reads them, and
 * unpinned at the VM's teardown.  A range the host did not share fails
 * the pin, and the host serves that vCPU's type accesses instead.
 */
static inline void __pmu_direct_pkvm_pin_filter(struct kvm_pmu_direct *d,
						const unsigned long *filter)
{
	if (d->filter || !filter)
		return;
	if (!hyp_pin_shared_mem(__pmu_direct_filter_hyp(filter, false),
				__pmu_direct_filter_hyp(filter, true)))
		d->filter = filter;
}

/* At the VM's teardown (unpin_host_vcpus()). */
static inline void __pmu_direct_pkvm_unpin_filter(struct kvm_vcpu *vcpu)
{
	struct kvm_pmu_direct *d = &vcpu->arch.pmu.direct;

	if (d->filter)
		hyp_unpin_shared_mem(__pmu_direct_filter_hyp(d->filter, false),
				     __pmu_direct_filter_hyp(d->filter, true));
	d->filter = NULL;
}
#else
/* Only the protected hypervisor runs __pmu_direct_pkvm_flush(). */
static inline void __pmu_direct_pkvm_pin_filter(struct kvm_pmu_direct *d,
						const unsigned long *filter) {}
static inline void __pmu_direct_pkvm_unpin_filter(struct kvm_vcpu *vcpu) {}
#endif

/*
 * Protected mode, at every run (flush_hyp_vcpu()): the hypervisor's vCPU
 * takes the host's choice, which the host must not be able to turn
 * against EL2 or a protected VM.  The share is clamped to the counters
 * that exist (the fast path indexes them at EL2, where an access past
 * PMCR_EL0.N may UNDEF), the PMU must be PMUv3p5, and the guest's
 * MDCR_EL2, which the host wrote, gets the partition's HPMN and its EL2
 * exclusions (HPMD, HCCD) whatever the host put there: the guest's
 * counters never count the hypervisor.
 *
 * A protected VM (@protected_vm, the hypervisor's word) keeps the
 * choice it first ran with: the host can neither take its PMU away, nor
 * give it one it did not run with (whose registers would come from the
 * host's copy), nor change its share under it.  Its counters are
 * switched at EL2 (d->pvm), and its PMU registers stay in the
 * hypervisor's vCPU.  Its partition
 * traps (the fine-grained ones, and MDCR_EL2.TPMCR where the PMU does not
 * enforce HPMN) are the hypervisor's own, from its own reading of the
 * PMU (__pmu_direct_pvm_traps()), forced at every run.  A protected VM
 * without the direct PMU gets every PMU access trapped (and UNDEFed by
 * pKVM): the host's counters are not its to reach.
 */
static inline void __pmu_direct_pkvm_flush(struct kvm_vcpu *vcpu,
					   const struct kvm_vcpu *host_vcpu,
					   bool protected_vm)
{
	const struct kvm_pmu_direct *h = &host_vcpu->arch.pmu.direct;
	struct kvm_pmu_direct *d = &vcpu->arch.pmu.direct;
	unsigned int n = FIELD_GET(ARMV8_PMU_PMCR_N, read_sysreg(pmcr_el0));
	u64 fields = MDCR_EL2_HPMN | MDCR_EL2_HPMD |
		     MDCR_EL2_HCCD;

	/* A protected VM's first run decides for good, no PMU included. */
	if (!(protected_vm && d->pvm)) {
		d->pvm = protected_vm;
		d->chosen = READ_ONCE(h->enabled) &&
			    kvm_pmu_part_pmuver(read_sysreg(id_aa64dfr0_el1)) >=
			    ID_AA64DFR0_EL1_PMUVer_V3P5;
		d->hpmn = min_t(unsigned int, READ_ONCE(h->hpmn), n);
		d->mask = kvm_pmu_part_guest_mask(d->hpmn);
		d->vacate = d->mask | (READ_ONCE(h->vacate) & BIT_ULL(ARMV8_PMU_INSTR_IDX));
		d->virt_e = READ_ONCE(h->virt_e);
		d->pmuv3p5 = true;
		d->filtered = !protected_vm && READ_ONCE(h->filtered);
		if (d->filtered)
			__pmu_direct_pkvm_pin_filter(d, READ_ONCE(h->filter));
	}
	/* Its share and traps against this CPU's PMU, at every run. */
	d->enabled = d->chosen;
	if (protected_vm && d->enabled)
		__pmu_direct_pvm_traps(d, n);
	if (!d->enabled) {
		if (protected_vm)
			vcpu->arch.mdcr_el2 |= MDCR_EL2_TPM | MDCR_EL2_TPMCR;
		return;
	}
	vcpu->arch.mdcr_el2 &= ~fields;
	vcpu->arch.mdcr_el2 |= FIELD_PREP(MDCR_EL2_HPMN, d->hpmn) |
			       MDCR_EL2_HPMD | MDCR_EL2_HCCD;
	if (protected_vm) {
		/*
		 * The hypervisor's own traps (__pmu_direct_pvm_traps()),
		 * TPM and TPMCR included: a TPM the host set would send the
		 * accesses the fast path does not serve (PMCCNTR_EL0,
		 * PMSELR_EL0, ...) to pKVM, which UNDEFs them, and so would
		 * a TPMCR where the hypervisor's profile does not virtualise
		 * PMCR_EL0.
		 */
		*vcpu_fgt(vcpu, HDFGRTR_EL2) &= ~KVM_PMU_PART_HDFGRTR_MASK;
		*vcpu_fgt(vcpu, HDFGRTR_EL2) |= d->hdfgrtr;
		*vcpu_fgt(vcpu, HDFGWTR_EL2) &= ~KVM_PMU_PART_HDFGWTR_MASK;
		*vcpu_fgt(vcpu, HDFGWTR_EL2) |= d->hdfgwtr;
		/* FGT2's bits trap when clear: only add the partition's traps. */
		*vcpu_fgt(vcpu, HDFGRTR2_EL2) &= ~KVM_PMU_PART_HDFGRTR2_MASK | d->hdfgrtr2;
		*vcpu_fgt(vcpu, HDFGWTR2_EL2) &= ~KVM_PMU_PART_HDFGWTR2_MASK | d->hdfgwtr2;
		vcpu->arch.mdcr_el2 &= ~(MDCR_EL2_TPM | MDCR_EL2_TPMCR);
		if (d->virt_e)
			vcpu->arch.mdcr_el2 |= MDCR_EL2_TPMCR;
	}
}

/*
 * pKVM's copy of a protected VM's context between the host's vCPU and
 * the hypervisor's (@vcpu), at every run and back: once the VM has the
 * direct PMU, without its PMU registers (PKVM_VPMU_REGS from PMCR_EL0),
 * which stay the hypervisor's.
 */
static inline void __pmu_direct_pvm_ctxt_copy(struct kvm_cpu_context *to,
					      const struct kvm_cpu_context *from,
					      const struct kvm_vcpu *vcpu)
{
	/* Not the run's enabled: a run may give it no PMU, never its registers. */
	bool direct = vcpu->arch.pmu.direct.pvm && vcpu->arch.pmu.direct.chosen;
	size_t hi = PKVM_VPMU_OFFSET + PKVM_VPMU_BYTES;

	if (!direct) {
		*to = *from;
		return;
	}
	memcpy(to, from, PKVM_VPMU_OFFSET);
	memcpy((void *)to + hi, (const void *)from + hi, sizeof(*to) - hi);
}

/* Protected mode, after every run (sync_hyp_vcpu()): the interrupt's level. */
static inline void __pmu_direct_pkvm_sync(struct kvm_vcpu *host_vcpu,
					  const struct kvm_vcpu *vcpu)
{
	if (kvm_vcpu_pmu_is_direct(vcpu))
		WRITE_ONCE(host_vcpu->arch.pmu.direct.irq_level,
			   vcpu->arch.pmu.direct.irq_level);
}

/*
 * A trapped access is told apart by its ESR's ISS alone, under
 * ESR_ELx_SYS64_ISS_SYS_MASK: __PMU_DIRECT_ISS() is a register's
 * encoding as the ISS carries it.  PMEVCNTR<n>_EL0 (CRm 0b10xx) and
 * PMEVTYPER<n>_EL0 (0b11xx) are matched whatever n, under a mask that
 * leaves out CRm[1:0] and Op2.
 */
#define __PMU_DIRECT_ISS(r)						\
	ESR_ELx_SYS64_ISS_SYS_VAL(sys_reg_Op0(r), sys_reg_Op1(r),	\
				  sys_reg_Op2(r), sys_reg_CRn(r), sys_reg_CRm(r))
#define __PMU_DIRECT_ESR_EVREG_MASK					\
	(ESR_ELx_SYS64_ISS_OP0_MASK | ESR_ELx_SYS64_ISS_OP1_MASK |	\
	 ESR_ELx_SYS64_ISS_CRN_MASK | FIELD_PREP(ESR_ELx_SYS64_ISS_CRM_MASK, 0xc))
#define __PMU_DIRECT_ESR_EVCNTR		__PMU_DIRECT_ISS(SYS_PMEVCNTRn_EL0(0))
#define __PMU_DIRECT_ESR_EVTYPER	__PMU_DIRECT_ISS(SYS_PMEVTYPERn_EL0(0))

/* n of PMEVCNTR<n>_EL0 / PMEVTYPER<n>_EL0 from the ESR: CRm[1:0]:Op2. */
static __always_inline unsigned int __pmu_direct_esr_idx(u64 esr)
{
	return (FIELD_GET(ESR_ELx_SYS64_ISS_CRM_MASK, esr) & 3) << 3 |
	       FIELD_GET(ESR_ELx_SYS64_ISS_OP2_MASK, esr);
}

/*
 * One counter's value or type, by index, for an index the caller has
 * checked: below the share, or 31 for PMCCFILTR_EL0 through a type.
 */
static inline bool __pmu_direct_evreg(struct kvm_vcpu *vcpu, int idx, bool typer,
				      bool write, u64 *val)
{
	if (idx < 0)
		return false;	/* an UNDEF: the slow path injects it */
	if (!write)
		*val = __pmu_evreg_read(idx, typer);
	else
		__pmu_evreg_write(idx, typer,
				  typer ? kvm_pmu_part_typer_write(*val, idx) : *val);
	return true;
}

/*
 * A type access (PMEVTYPER<n>_EL0, PMXEVTYPER_EL0, PMCCFILTR_EL0) of a
 * vCPU under an event filter, which traps both ways: the guest reads
 * back the type it wrote, from the vCPU, and the hardware counts under
 * kvm_pmu_part_typer_filtered().  Where the hypervisor has no filter to
 * read (protected mode, before or without its pin), the host serves the
 * access (return false: the exit).
 */
static inline bool __pmu_direct_typer(struct kvm_vcpu *vcpu, int idx, bool write, u64 *val)
{
	const struct kvm_pmu_direct *d = &vcpu->arch.pmu.direct;
	enum vcpu_sysreg reg;
	u64 typer;

	if (!d->filtered || idx < 0)
		return __pmu_direct_evreg(vcpu, idx, true, write, val);
	if (!d->filter)
		return false;
	reg = idx == ARMV8_PMU_CYCLE_IDX ? PMCCFILTR_EL0 : PMEVTYPER0_EL0 + idx;
	if (!write) {
		*val = __vcpu_sys_reg(vcpu, reg);
		return true;
	}
	typer = kvm_pmu_part_typer_write(*val, idx);
	__vcpu_assign_sys_reg(vcpu, reg, typer);
	__pmu_evreg_write(idx, true,
			  kvm_pmu_part_typer_filtered(typer, idx, kern_hyp_va(d->filter)));
	return true;
}

/* The guest's PMCR_EL0 as it wrote it (virtual E: the vCPU has E). */
static inline u64 __pmu_direct_guest_pmcr(struct kvm_vcpu *vcpu)
{
	u64 pmcr = read_sysreg(pmcr_el0);

	if (!vcpu->arch.pmu.direct.virt_e)
		return pmcr;
	return (pmcr & ~ARMV8_PMU_PMCR_E) | (__vcpu_sys_reg(vcpu, PMCR_EL0) & ARMV8_PMU_PMCR_E);
}

/* The guest's counters that count now: PMCR_EL0.E and PMCNTEN, as it set them. */
static inline u64 __pmu_direct_counting(struct kvm_vcpu *vcpu, u64 mask)
{
	if (vcpu->arch.pmu.direct.virt_e)
		return __pmu_direct_hw_cnten(vcpu, mask);
	if (!(read_sysreg(pmcr_el0) & ARMV8_PMU_PMCR_E))
		return 0;
	return read_sysreg(pmcntenset_el0) & mask;
}

/* The hardware's counters, for kvm_pmu_part_swinc(). */
static inline u64 __pmu_direct_swinc_read(void *unused, unsigned int idx, bool typer)
{
	return __pmu_evreg_read(idx, typer);
}

static inline void __pmu_direct_swinc_write(void *unused, unsigned int idx, u64 val)
{
	__pmu_evreg_write(idx, false, val);
}

/*
 * A trapped PMSWINC_EL0 write (@val: the guest's counters it names),
 * made at the guest's EL0 or EL1.  Written again here it would count
 * nothing: MDCR_EL2.HPMD prohibits the guest's counters at EL2.  So each
 * counting event counter of @val whose type counts SW_INCR at the
 * writer's EL goes up by one here, and sets its overflow flag where it
 * wraps, as the write would have done at that EL (Arm ARM D13.4.4).
 */
static inline void __pmu_direct_swinc(struct kvm_vcpu *vcpu, u64 val)
{
	bool el0 = (*vcpu_cpsr(vcpu) & PSR_MODE_MASK) == PSR_MODE_EL0t;
	bool lp = read_sysreg(pmcr_el0) & ARMV8_PMU_PMCR_LP;
	u64 incr = val & __pmu_direct_counting(vcpu, __pmu_direct_mask(vcpu));
	u64 ovf;

	ovf = kvm_pmu_part_swinc(incr, vcpu->arch.pmu.direct.hpmn, el0, lp,
				 __pmu_direct_swinc_read,
				 __pmu_direct_swinc_write, NULL);
	if (ovf)
		write_sysreg(ovf, pmovsset_el0);
}

/*
 * The registers that name counters by bit, and PMCR_EL0 writes: the
 * guest's bits only.  A write to PMOVSCLR_EL0 releases the overflows it
 * clears (their interrupt enables go back into the hardware); a write to
 * PMINTEN changes the guest's view and, less its held overflows, the
 * hardware.  @iss: the trap's, under ESR_ELx_SYS64_ISS_SYS_MASK.
 */
static inline bool __pmu_direct_bits(struct kvm_vcpu *vcpu, u64 iss,
				     bool write, u64 *val)
{
	u64 mask = __pmu_direct_mask(vcpu);
	u64 v = *val & mask;
	u64 inten = __vcpu_sys_reg(vcpu, PMINTENSET_EL1);

	switch (iss) {
	case __PMU_DIRECT_ISS(SYS_PMCNTENSET_EL0):
	case __PMU_DIRECT_ISS(SYS_PMCNTENCLR_EL0):
		if (vcpu->arch.pmu.direct.virt_e) {
			u64 cnten = __vcpu_sys_reg(vcpu, PMCNTENSET_EL0) & mask;

			if (!write) {
				*val = cnten;
				return true;
			}
			if (iss == __PMU_DIRECT_ISS(SYS_PMCNTENSET_EL0))
				cnten |= v;
			else
				cnten &= ~v;
			__vcpu_assign_sys_reg(vcpu, PMCNTENSET_EL0, cnten);
			write_sysreg(mask, pmcntenclr_el0);
			write_sysreg(__pmu_direct_hw_cnten(vcpu, mask), pmcntenset_el0);
			return true;
		}
		if (!write)
			*val = read_sysreg(pmcntenset_el0) & mask;
		else if (iss == __PMU_DIRECT_ISS(SYS_PMCNTENSET_EL0))
			write_sysreg(v, pmcntenset_el0);
		else
			write_sysreg(v, pmcntenclr_el0);
		return true;
	case __PMU_DIRECT_ISS(SYS_PMINTENSET_EL1):
	case __PMU_DIRECT_ISS(SYS_PMINTENCLR_EL1):
		if (!write) {
			*val = inten & mask;
		} else if (iss == __PMU_DIRECT_ISS(SYS_PMINTENSET_EL1)) {
			/*
			 * One that raises the interrupt is the host's to serve
			 * (kvm_pmu_part_inten_raises()), but a protected VM's,
			 * which only the hypervisor may: its interrupt is raised
			 * at its next exit.
			 */
			if (!vcpu->arch.pmu.direct.pvm &&
			    kvm_pmu_part_inten_raises(__pmu_direct_guest_pmcr(vcpu), v, inten,
						      read_sysreg(pmovsclr_el0), mask))
				return false;
			__vcpu_assign_sys_reg(vcpu, PMINTENSET_EL1, (inten | v) & mask);
			write_sysreg(kvm_pmu_part_hw_inten(v, read_sysreg(pmovsclr_el0), mask),
				     pmintenset_el1);
		} else {
			__vcpu_assign_sys_reg(vcpu, PMINTENSET_EL1, inten & ~v & mask);
			write_sysreg(v, pmintenclr_el1);
		}
		return true;
	case __PMU_DIRECT_ISS(SYS_PMOVSSET_EL0):
	case __PMU_DIRECT_ISS(SYS_PMOVSCLR_EL0):
		if (!write) {
			*val = read_sysreg(pmovsclr_el0) & mask;
		} else if (iss == __PMU_DIRECT_ISS(SYS_PMOVSSET_EL0)) {
			write_sysreg(v, pmovsset_el0);
		} else {
			write_sysreg(v, pmovsclr_el0);
			write_sysreg(v & inten, pmintenset_el1);
		}
		return true;
	case __PMU_DIRECT_ISS(SYS_PMSWINC_EL0):
		if (write)
			__pmu_direct_swinc(vcpu, v);
		return write;
	case __PMU_DIRECT_ISS(SYS_PMCR_EL0): {
		const struct kvm_pmu_part_caps caps = {
			.pmuv3p5 = vcpu->arch.pmu.direct.pmuv3p5,
		};
		struct kvm_pmu_direct *d = &vcpu->arch.pmu.direct;
		bool reset;
		int i;

		if (!write) {
			/* Only with virtual E: the rest as the hardware has it, N the share. */
			*val = kvm_pmu_part_guest_pmcr(__pmu_direct_guest_pmcr(vcpu),
						       d->hpmn);
			return d->virt_e;
		}
		v = kvm_pmu_part_pmcr_write(&caps, *val, &reset);
		/* P resets the guest's event counters, never the host's. */
		for (i = 0; reset && i < d->hpmn; i++)
			__pmu_evreg_write(i, false, 0);
		if (d->virt_e) {
			__vcpu_assign_sys_reg(vcpu, PMCR_EL0, v & ~ARMV8_PMU_PMCR_C);
			write_sysreg(v | ARMV8_PMU_PMCR_E, pmcr_el0);
			write_sysreg(mask, pmcntenclr_el0);
			write_sysreg(__pmu_direct_hw_cnten(vcpu, mask), pmcntenset_el0);
		} else {
			write_sysreg(v, pmcr_el0);
		}
		return true;
	}
	}
	return false;
}

/*
 * A trapped access of a direct vCPU to its PMU, served here without an
 * exit.  Return: true if served; false for an access that takes an UNDEF
 * (an index at or above the share), left to the slow path, which injects
 * it as for any vCPU with that many counters.
 */
static __always_inline bool kvm_hyp_handle_pmu_direct(struct kvm_vcpu *vcpu)
{
	unsigned int hpmn, idx;
	bool write, done;
	u64 esr, iss, val;
	int rt;

	/* Every sysreg trap of every vCPU comes here first. */
	if (!kvm_vcpu_pmu_is_direct(vcpu))
		return false;
	esr = kvm_vcpu_get_esr(vcpu);
	iss = esr & ESR_ELx_SYS64_ISS_SYS_MASK;
	write = !(esr & ESR_ELx_SYS64_ISS_DIR_READ);
	hpmn = vcpu->arch.pmu.direct.hpmn;
	rt = kvm_vcpu_sys_get_rt(vcpu);
	val = write ? vcpu_get_reg(vcpu, rt) : 0;
	idx = __pmu_direct_esr_idx(esr);
	if ((iss & __PMU_DIRECT_ESR_EVREG_MASK) == __PMU_DIRECT_ESR_EVCNTR) {
		done = __pmu_direct_evreg(vcpu, kvm_pmu_part_evcntr_idx(idx, hpmn),
					  false, write, &val);
	} else if ((iss & __PMU_DIRECT_ESR_EVREG_MASK) == __PMU_DIRECT_ESR_EVTYPER) {
		/* n = 31 is PMCCFILTR_EL0, which traps under an event filter. */
		done = __pmu_direct_typer(vcpu, kvm_pmu_part_evtyper_idx(idx, hpmn),
					  write, &val);
	} else if (iss == __PMU_DIRECT_ISS(SYS_PMXEVCNTR_EL0) ||
		   iss == __PMU_DIRECT_ISS(SYS_PMXEVTYPER_EL0)) {
		unsigned int sel = read_sysreg(pmselr_el0) & PMSELR_EL0_SEL;

		if (iss == __PMU_DIRECT_ISS(SYS_PMXEVTYPER_EL0))
			done = __pmu_direct_typer(vcpu, kvm_pmu_part_evtyper_idx(sel, hpmn),
						  write, &val);
		else	/* SEL = 31: CONSTRAINED UNPREDICTABLE, RAZ/WI here */
			done = sel == ARMV8_PMU_CYCLE_IDX ||
			       __pmu_direct_evreg(vcpu, kvm_pmu_part_evcntr_idx(sel, hpmn),
						  false, write, &val);
	} else {
		done = __pmu_direct_bits(vcpu, iss, write, &val);
	}
	if (!done)
		return false;
	if (!write)
		vcpu_set_reg(vcpu, rt, val);
	__kvm_skip_instr(vcpu);
	return true;
}

#else

static inline void __pmu_direct_to_guest(struct kvm_vcpu *vcpu) {}
static inline void __pmu_direct_to_host(struct kvm_vcpu *vcpu) {}
static inline bool kvm_hyp_handle_pmu_direct(struct kvm_vcpu *vcpu) { return false; }
static inline void __pmu_direct_pkvm_flush(struct kvm_vcpu *vcpu,
					   const struct kvm_vcpu *host_vcpu,
					   bool protected_vm) {}
static inline void __pmu_direct_pkvm_sync(struct kvm_vcpu *host_vcpu,
					  const struct kvm_vcpu *vcpu) {}
static inline void __pmu_direct_pvm_ctxt_copy(struct kvm_cpu_context *to,
					      const struct kvm_cpu_context *from,
					      const struct kvm_vcpu *vcpu)
{
	*to = *from;
}
static inline void __pmu_direct_pkvm_unpin_filter(struct kvm_vcpu *vcpu) {}

#endif /* CONFIG_KVM_ARM_PMU_DIRECT */
#endif /* __ARM64_KVM_HYP_PMU_DIRECT_H__ */

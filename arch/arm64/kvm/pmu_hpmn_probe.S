/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The EL2 side of the HPMN probe (pmu_direct.c, kvm_pmu_direct_probe()):
 * whether this CPU's PMU refuses EL1 the event counters at or above
 * MDCR_EL2.HPMN.  It runs once per CPU at KVM init, before KVM installs
 * its hypervisor, with every exception masked.
 *
 * nVHE and protected mode: the kernel is at EL1 and EL2 runs the hyp
 * stub, whose HVC_SOFT_RESTART branches to a physical address at EL2
 * (MMU off) with the exception's ELR_EL2/SPSR_EL2 still live, so the
 * code it branches to returns to the caller with ERET.
 *
 * VHE: the kernel is at EL2 and has no EL1 of its own: the probe drops
 * to EL1 for three instructions, in the EL1&0 regime (HCR_EL2.TGE = 0)
 * with the EL1 MMU off and no stage 2, so that the code runs at its
 * physical address, and comes back by HVC.  Every exception is masked
 * at EL1 and routed nowhere else (HCR_EL2.{IMO,FMO,AMO} = 0).
 */
#include <linux/linkage.h>

#include <asm/assembler.h>
#include <asm/kvm_arm.h>
#include <asm/ptrace.h>
#include <asm/sysreg.h>
#include <asm/virt.h>

	.text

/*
 * u64 __pmu_hpmn_nvhe_mdcr(u64 val, u64 mask, phys_addr_t el2_code)
 *
 * MDCR_EL2's @mask bits set to @val through the hyp stub.  Return: the
 * old MDCR_EL2.  @el2_code: __pa_symbol(__pmu_hpmn_el2_mdcr).
 */
SYM_FUNC_START(__pmu_hpmn_nvhe_mdcr)
	mov	x3, x1
	mov	x1, x2
	mov	x2, x0
	mov	x0, #HVC_SOFT_RESTART
	hvc	#0
	ret
SYM_FUNC_END(__pmu_hpmn_nvhe_mdcr)

/*
 * At EL2, MMU off, from the stub's HVC_SOFT_RESTART, which passes
 * x0 = val, x1 = mask.
 */
SYM_CODE_START(__pmu_hpmn_el2_mdcr)
	mrs	x2, mdcr_el2
	bic	x3, x2, x1
	orr	x3, x3, x0
	msr	mdcr_el2, x3
	isb
	mov	x0, x2
	eret
SYM_CODE_END(__pmu_hpmn_el2_mdcr)

/*
 * u64 __pmu_hpmn_vhe_probe(u64 mdcr, u64 bit, phys_addr_t el1_code)
 *
 * VHE, at EL2: MDCR_EL2 = @mdcr for the excursion; at EL1, write @bit
 * to PMCNTENSET_EL0 and read it back.  Return: what EL1 read.
 * @el1_code: __pa_symbol(__pmu_hpmn_el1).  Clobbers x0-x15.
 */
SYM_FUNC_START(__pmu_hpmn_vhe_probe)
	mrs	x9, vbar_el2
	adr_l	x10, __pmu_hpmn_vectors
	msr	vbar_el2, x10
	isb
	hvc	#0			// to __pmu_hpmn_enter, back from __pmu_hpmn_leave
	msr	vbar_el2, x9
	isb
	ret
SYM_FUNC_END(__pmu_hpmn_vhe_probe)

/* EL2, from the HVC above: save what the excursion changes, go to EL1. */
SYM_CODE_START_LOCAL(__pmu_hpmn_enter)
	mrs	x10, elr_el2
	mrs	x11, spsr_el2
	mrs	x12, hcr_el2
	mrs	x13, mdcr_el2
	mrs_s	x14, SYS_SCTLR_EL12
	msr	mdcr_el2, x0
	mov	x0, #-1			// the answer if EL1 traps before its read: not enforced
	mov_q	x15, INIT_SCTLR_EL1_MMU_OFF
	msr_s	SYS_SCTLR_EL12, x15
	mov_q	x15, HCR_E2H | HCR_RW
	msr_hcr_el2 x15
	mov	x15, #(PSR_D_BIT | PSR_A_BIT | PSR_I_BIT | PSR_F_BIT | PSR_MODE_EL1h)
	msr	spsr_el2, x15
	msr	elr_el2, x2
	isb
	eret
SYM_CODE_END(__pmu_hpmn_enter)

/* EL1, MMU off, at its physical address. */
SYM_CODE_START(__pmu_hpmn_el1)
	msr	pmcntenset_el0, x1
	isb
	mrs	x0, pmcntenset_el0
	hvc	#0			// to __pmu_hpmn_leave
SYM_CODE_END(__pmu_hpmn_el1)

/*
 * EL2, from EL1's HVC (or a trap of its PMU accesses, which leaves x0 at
 * ~0): put back what __pmu_hpmn_enter changed.
 */
SYM_CODE_START_LOCAL(__pmu_hpmn_leave)
	msr	mdcr_el2, x13
	msr_s	SYS_SCTLR_EL12, x14
	msr_hcr_el2 x12
	msr	elr_el2, x10
	msr	spsr_el2, x11
	isb
	eret
SYM_CODE_END(__pmu_hpmn_leave)

/* Anything else has nowhere to go: stop here, where a debugger sees it. */
SYM_CODE_START_LOCAL(__pmu_hpmn_unexpected)
	wfe
	b	__pmu_hpmn_unexpected
SYM_CODE_END(__pmu_hpmn_unexpected)

	.macro	hpmn_vector, target
	.align	7
	b	\target
	.endm

	.align	11
SYM_CODE_START_LOCAL(__pmu_hpmn_vectors)
	hpmn_vector __pmu_hpmn_unexpected	// EL2t
	hpmn_vector __pmu_hpmn_unexpected
	hpmn_vector __pmu_hpmn_unexpected
	hpmn_vector __pmu_hpmn_unexpected
	hpmn_vector __pmu_hpmn_enter		// EL2h: the probe's HVC
	hpmn_vector __pmu_hpmn_unexpected
	hpmn_vector __pmu_hpmn_unexpected
	hpmn_vector __pmu_hpmn_unexpected
	hpmn_vector __pmu_hpmn_leave		// 64-bit EL1: its HVC back
	hpmn_vector __pmu_hpmn_unexpected
	hpmn_vector __pmu_hpmn_unexpected
	hpmn_vector __pmu_hpmn_unexpected
	hpmn_vector __pmu_hpmn_unexpected	// 32-bit EL1
	hpmn_vector __pmu_hpmn_unexpected
	hpmn_vector __pmu_hpmn_unexpected
	hpmn_vector __pmu_hpmn_unexpected
SYM_CODE_END(__pmu_hpmn_vectors)

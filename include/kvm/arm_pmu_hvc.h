/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The KVM perf-register service: a guest gets and sets the registers of
 * its virtual PMU by register ID, one at a time or in batches, through
 * KVM vendor hypercalls (Documentation/virt/kvm/arm/perf-registers.rst).
 *
 * This header holds the ABI both sides use (register IDs, statuses, the
 * batch entry) and the pure decisions: which register an ID names, and
 * what status an access gets before any register is touched.  KVM
 * (arch/arm64/kvm/pmu_hvc.c) and the PMUv3 driver in a guest use them;
 * KUnit drives them (drivers/perf/tests/arm_pmuv3_perfreg_kunit.c).
 */
#ifndef __KVM_ARM_PMU_HVC_H
#define __KVM_ARM_PMU_HVC_H

#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/types.h>

/* VERSION's a0: major in [31:16], minor in [15:0]; guests take major 1. */
#define KVM_PERFREG_VERSION_MAJOR	1
#define KVM_PERFREG_VERSION_MINOR	0
#define KVM_PERFREG_VERSION		((KVM_PERFREG_VERSION_MAJOR << 16) | \
					 KVM_PERFREG_VERSION_MINOR)

/*
 * Statuses, in a0 and in each batch entry.  SMCCC's own for success,
 * an unknown or hidden call, and a bad argument (the reference API's
 * EINVAL); for "no access" (its ENOACCESS) SMCCC has no code, so the
 * service uses one outside the -1..-9 that SMCCC and PSCI use.
 */
#define KVM_PERFREG_SUCCESS		0
#define KVM_PERFREG_NOT_SUPPORTED	(-1)
#define KVM_PERFREG_INVALID_PARAMETER	(-3)
#define KVM_PERFREG_NO_ACCESS		(-64)

/* Banks: 0 is the calling vCPU's virtual PMUv3; the others are reserved. */
#define KVM_PERFREG_BANK_PMU		0

/* Bank 0's register IDs. */
#define KVM_PERFREG_PMCR		0x000
#define KVM_PERFREG_PMCNTENSET		0x001
#define KVM_PERFREG_PMCNTENCLR		0x002
#define KVM_PERFREG_PMINTENSET		0x003
#define KVM_PERFREG_PMINTENCLR		0x004
#define KVM_PERFREG_PMOVSSET		0x005
#define KVM_PERFREG_PMOVSCLR		0x006
#define KVM_PERFREG_PMUSERENR		0x007
#define KVM_PERFREG_PMSWINC		0x008	/* write only */
#define KVM_PERFREG_PMCEID0		0x009	/* read only */
#define KVM_PERFREG_PMCEID1		0x00a	/* read only */
#define KVM_PERFREG_NR_CONTROL		11
/* Counter n < PMCR_EL0.N, or 31 for the cycle counter's. */
#define KVM_PERFREG_PMEVCNTR(n)		(0x100 + (n))
#define KVM_PERFREG_PMEVTYPER(n)	(0x200 + (n))
#define KVM_PERFREG_CYCLE		31
#define KVM_PERFREG_PMCCNTR		KVM_PERFREG_PMEVCNTR(KVM_PERFREG_CYCLE)
#define KVM_PERFREG_PMCCFILTR		KVM_PERFREG_PMEVTYPER(KVM_PERFREG_CYCLE)
#define KVM_PERFREG_COUNTER		GENMASK(7, 0)
#define KVM_PERFREG_KIND		GENMASK(15, 8)
#define KVM_PERFREG_KIND_CONTROL	0
#define KVM_PERFREG_KIND_COUNTER	1
#define KVM_PERFREG_KIND_TYPER		2

/*
 * One entry of a batch: the list is an array of these in one guest page
 * (page aligned, at most KVM_PERFREG_BATCH_MAX entries), which KVM reads
 * once and carries out in order, then writes back with each entry's
 * status and, for reads, value.
 */
struct kvm_perfreg_op {
	u16 id;
	u8 bank;
	u8 op;		/* KVM_PERFREG_OP_* */
	s32 status;	/* out */
	u64 value;	/* in: the value to write; out: the value read */
};

#define KVM_PERFREG_OP_READ		0
#define KVM_PERFREG_OP_WRITE		1
/*
 * Read, then write back the value read: clears exactly the bits seen of
 * a write-one-to-clear register (PMOVSCLR), in one step.
 */
#define KVM_PERFREG_OP_READ_CLEAR	2
#define KVM_PERFREG_BATCH_PAGE		4096
#define KVM_PERFREG_BATCH_MAX		(KVM_PERFREG_BATCH_PAGE / \
					 sizeof(struct kvm_perfreg_op))

/*
 * The functions, as SMCCC vendor-hypervisor (owner 6) fast HVC64 calls,
 * and their bits in KVM_REG_ARM_VENDOR_HYP_BMAP_2 (function - 64) and in
 * KVM_FEATURES' a2 (function - 64).  Each bit grants its function (a
 * call without it answers NOT_SUPPORTED); GET's and SET's bits also
 * grant a batch's reads and writes.
 */
#define KVM_PERFREG_FUNC_VERSION	80
#define KVM_PERFREG_FUNC_GET		81
#define KVM_PERFREG_FUNC_SET		82
#define KVM_PERFREG_FUNC_BATCH		83
#define KVM_PERFREG_BMAP_BIT(func)	BIT((func) - 64)
#define KVM_PERFREG_BMAP_ALL		GENMASK(KVM_PERFREG_FUNC_BATCH - 64, \
						KVM_PERFREG_FUNC_VERSION - 64)

/* What a vCPU may do: its grants and its PMU. */
struct kvm_perfreg_ctx {
	unsigned long bmap;	/* KVM_REG_ARM_VENDOR_HYP_BMAP_2 */
	bool has_pmu;
	unsigned int nr_counters;	/* PMCR_EL0.N */
};

/* A register an ID names, for the sysreg emulation. */
struct kvm_perfreg_reg {
	u32 encoding;	/* sys_reg(op0, op1, CRn, CRm, op2) */
	bool readable, writable;
};

/* How many register IDs bank 0 has for a vPMU of @n event counters. */
static inline unsigned int kvm_perfreg_nr_ids(unsigned int n)
{
	return KVM_PERFREG_NR_CONTROL + 2 * (n + 1);
}

#ifdef CONFIG_ARM64
#include <linux/bitfield.h>
#include <asm/sysreg.h>

/* The control registers' encodings, by ID (below KVM_PERFREG_NR_CONTROL). */
static inline u32 kvm_perfreg_control(unsigned int id)
{
	switch (id) {
	case KVM_PERFREG_PMCR:		return SYS_PMCR_EL0;
	case KVM_PERFREG_PMCNTENSET:	return SYS_PMCNTENSET_EL0;
	case KVM_PERFREG_PMCNTENCLR:	return SYS_PMCNTENCLR_EL0;
	case KVM_PERFREG_PMINTENSET:	return SYS_PMINTENSET_EL1;
	case KVM_PERFREG_PMINTENCLR:	return SYS_PMINTENCLR_EL1;
	case KVM_PERFREG_PMOVSSET:	return SYS_PMOVSSET_EL0;
	case KVM_PERFREG_PMOVSCLR:	return SYS_PMOVSCLR_EL0;
	case KVM_PERFREG_PMUSERENR:	return SYS_PMUSERENR_EL0;
	case KVM_PERFREG_PMSWINC:	return SYS_PMSWINC_EL0;
	case KVM_PERFREG_PMCEID0:	return SYS_PMCEID0_EL0;
	default:			return SYS_PMCEID1_EL0;
	}
}

/*
 * The register @id names for a vPMU of @n event counters.
 *
 * Return: 0, or -EINVAL for an ID that names nothing, or a counter at or
 * above @n (other than the cycle counter's).
 */
static inline int kvm_perfreg_decode(u16 id, unsigned int n,
				     struct kvm_perfreg_reg *reg)
{
	unsigned int idx = FIELD_GET(KVM_PERFREG_COUNTER, id);
	bool cycle = idx == KVM_PERFREG_CYCLE;

	reg->readable = true;
	reg->writable = true;
	switch (FIELD_GET(KVM_PERFREG_KIND, id)) {
	case KVM_PERFREG_KIND_CONTROL:
		if (idx >= KVM_PERFREG_NR_CONTROL)
			return -EINVAL;
		reg->encoding = kvm_perfreg_control(idx);
		reg->readable = idx != KVM_PERFREG_PMSWINC;
		reg->writable = idx != KVM_PERFREG_PMCEID0 &&
				idx != KVM_PERFREG_PMCEID1;
		return 0;
	case KVM_PERFREG_KIND_COUNTER:
		if (idx >= n && !cycle)
			return -EINVAL;
		reg->encoding = cycle ? SYS_PMCCNTR_EL0 : SYS_PMEVCNTRn_EL0(idx);
		return 0;
	case KVM_PERFREG_KIND_TYPER:
		if (idx >= n && !cycle)
			return -EINVAL;
		reg->encoding = cycle ? SYS_PMCCFILTR_EL0 :
					SYS_PMEVTYPERn_EL0(idx);
		return 0;
	}
	return -EINVAL;
}

/*
 * The status one access gets before any register is touched: no access
 * without a vPMU or without the function's grant (a read needs GET's, a
 * write SET's, a read-and-clear both); an invalid parameter for a bank
 * other than 0, an ID that names nothing here, or a direction the
 * register does not have.  @bank and @id are taken whole, as the guest
 * passed them.  On success @reg names the register.
 */
static inline int kvm_perfreg_check(const struct kvm_perfreg_ctx *ctx, u64 bank,
				    u64 id, u8 op, struct kvm_perfreg_reg *reg)
{
	bool read = op != KVM_PERFREG_OP_WRITE;
	bool write = op != KVM_PERFREG_OP_READ;

	if (op > KVM_PERFREG_OP_READ_CLEAR)
		return KVM_PERFREG_INVALID_PARAMETER;
	if (!ctx->has_pmu ||
	    (read && !(ctx->bmap & KVM_PERFREG_BMAP_BIT(KVM_PERFREG_FUNC_GET))) ||
	    (write && !(ctx->bmap & KVM_PERFREG_BMAP_BIT(KVM_PERFREG_FUNC_SET))))
		return KVM_PERFREG_NO_ACCESS;
	if (bank != KVM_PERFREG_BANK_PMU || id > U16_MAX ||
	    kvm_perfreg_decode(id, ctx->nr_counters, reg) ||
	    (read && !reg->readable) || (write && !reg->writable))
		return KVM_PERFREG_INVALID_PARAMETER;
	return KVM_PERFREG_SUCCESS;
}

/*
 * A batch call's arguments: a page-aligned guest address (whether it is
 * guest memory is found when it is read), 1 to KVM_PERFREG_BATCH_MAX
 * entries, no flags.
 */
static inline int kvm_perfreg_batch_args(u64 ipa, u64 nr, u64 flags)
{
	if (ipa & (KVM_PERFREG_BATCH_PAGE - 1) || !nr ||
	    nr > KVM_PERFREG_BATCH_MAX || flags)
		return KVM_PERFREG_INVALID_PARAMETER;
	return KVM_PERFREG_SUCCESS;
}
#endif /* CONFIG_ARM64 */

#if IS_ENABLED(CONFIG_KVM) && defined(CONFIG_ARM64)
struct kvm_vcpu;
/* arch/arm64/kvm/pmu_hvc.c, for the SMCCC handler (hypercalls.c). */
void kvm_perfreg_call(struct kvm_vcpu *vcpu, u32 func_num, u64 *val);
unsigned long kvm_perfreg_default_bmap(void);
#endif

#endif /* __KVM_ARM_PMU_HVC_H */

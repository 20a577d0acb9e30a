/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The KVM perf-register service: a guest gets and sets the registers of
 * its virtual PMU by register ID, one at a time or in batches, through
 * KVM vendor hypercalls (Documentation/virt/kvm/arm/perf-registers.rst).
 *
 * This header holds the ABI both sides use: register IDs, statuses, the
 * batch entry and the limits of a call.  KVM's service is
 * arch/arm64/kvm/pmu_hvc.c; the PMUv3 driver's client, in a guest, is
 * drivers/perf/arm_pmuv3_hvc.c.  Each side's decisions are its own, in
 * its .c file, with its KUnit suite (arch/arm64/kvm/tests/pmu_hvc_kunit.c,
 * drivers/perf/tests/arm_pmuv3_perfreg_kunit.c).
 */
#ifndef __KVM_ARM_PMU_HVC_H
#define __KVM_ARM_PMU_HVC_H

#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/types.h>

/*
 * VERSION's a0: a guest takes major 1, and any minor of it.  1.1 added
 * batches carried out in part (KVM_PERFREG_BATCH_PARTIAL), a2 of BATCH
 * (the entries carried out), a3 of VERSION (KVM_PERFREG_BATCH_BUDGET)
 * and lists that start anywhere 16-byte aligned in their page; it stops
 * any batch at its work budget.  1.2 serves a vCPU with the direct PMU
 * too, with the same values its own registers hold, and says so in bit
 * 31 of VERSION's a1 (KVM_PERFREG_IDS_DIRECT): its registers cost it no
 * exit, so a guest should use them instead.
 */
#define KVM_PERFREG_VERSION_MAJOR_MASK	GENMASK(31, 16)
#define KVM_PERFREG_VERSION_MINOR_MASK	GENMASK(15, 0)
#define KVM_PERFREG_VERSION_MAJOR	1
#define KVM_PERFREG_VERSION_MINOR	2
/* VERSION's a1 (1.2): the number of register IDs, and this flag. */
#define KVM_PERFREG_IDS_NR		GENMASK(15, 0)
#define KVM_PERFREG_IDS_DIRECT		BIT(31)
#define KVM_PERFREG_VERSION					\
	(FIELD_PREP(KVM_PERFREG_VERSION_MAJOR_MASK,		\
		    KVM_PERFREG_VERSION_MAJOR) |		\
	 FIELD_PREP(KVM_PERFREG_VERSION_MINOR_MASK,		\
		    KVM_PERFREG_VERSION_MINOR))

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
 * One entry of a batch: the list is an array of these within one 4K
 * guest page (at most KVM_PERFREG_BATCH_MAX entries), which KVM reads
 * once and carries out in order, then writes back with each entry's
 * status and, for reads, value; an entry a call does not carry out is
 * not written back.
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
 * BATCH's flags (a3).  PARTIAL (1.1): the caller takes a batch carried
 * out in part.  The call may then stop after any entry: when its work
 * budget is spent, when the host has other work for the vCPU thread (a
 * signal or a reschedule pending), or after an entry that failed; a2
 * says how many entries it carried out, and the caller calls again for
 * the rest.  Without it (a 1.0 caller) a call stops only at its budget,
 * and then fails.
 */
#define KVM_PERFREG_BATCH_PARTIAL	BIT(0)
#define KVM_PERFREG_BATCH_FLAGS		KVM_PERFREG_BATCH_PARTIAL

/*
 * The work one BATCH call may do, in units (kvm_perfreg_cost()): one an
 * entry, or, for an entry that may create, release, enable or disable
 * the host perf events of several counters, one a counter.  Four units
 * an entry of a full list.  A batch of the PMUv3 driver costs at most
 * 569: entries of one counter or a chained pair, and at most one reset
 * (PMCNTENCLR_EL0 and PMCR_EL0.P|C, 32 units each, and three entries of
 * one), so it is carried out in one call; a list of 256 resets of a
 * vPMU of 31 counters (8,192 perf event re-creations) takes eight.
 * VERSION reports the budget in a3.
 */
#define KVM_PERFREG_BATCH_BUDGET	1024

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

/* How many register IDs bank 0 has for a vPMU of @n event counters. */
static inline unsigned int kvm_perfreg_nr_ids(unsigned int n)
{
	return KVM_PERFREG_NR_CONTROL + 2 * (n + 1);
}

#if IS_ENABLED(CONFIG_KVM) && defined(CONFIG_ARM64)
struct kvm_vcpu;
/* arch/arm64/kvm/pmu_hvc.c, for the SMCCC handler (hypercalls.c). */
void kvm_perfreg_call(struct kvm_vcpu *vcpu, u32 func_num, u64 *val);
unsigned long kvm_perfreg_default_bmap(void);
#endif

#endif /* __KVM_ARM_PMU_HVC_H */

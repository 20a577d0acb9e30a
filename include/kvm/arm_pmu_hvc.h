/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The KVM perf-register service: a guest gets and sets the registers of
 * its virtual PMU by register ID, one at a time or in batches, through
 * KVM vendor hypercalls (Documentation/virt/kvm/arm/perf-registers.rst).
 *
 * This header holds the ABI both sides use (register IDs, statuses, the
 * batch entry) and the pure decisions: which register an ID names, what
 * status an access gets before any register is touched, what an entry
 * costs and where a batch call stops, and what a caller makes of a
 * batch call's answer.  KVM (arch/arm64/kvm/pmu_hvc.c) and the PMUv3
 * driver in a guest (drivers/perf/arm_pmuv3_hvc.c) use them; KUnit
 * drives them (drivers/perf/tests/arm_pmuv3_perfreg_kunit.c).
 */
#ifndef __KVM_ARM_PMU_HVC_H
#define __KVM_ARM_PMU_HVC_H

#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/limits.h>
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
#include <linux/align.h>
#include <linux/bitops.h>
#include <linux/minmax.h>
#include <linux/perf/arm_pmuv3.h>
#include <linux/wordpart.h>
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
 * A batch call's arguments: the list's guest address, 16-byte aligned
 * (page aligned before 1.1), with all @nr entries in its 4K page
 * (whether that is guest memory is found when it is read); 1 to
 * KVM_PERFREG_BATCH_MAX entries; no flag but KVM_PERFREG_BATCH_FLAGS.
 * A caller resumes a batch at the first entry a call left.
 */
static inline int kvm_perfreg_batch_args(u64 ipa, u64 nr, u64 flags)
{
	u64 offset = ipa & (KVM_PERFREG_BATCH_PAGE - 1);

	if (!IS_ALIGNED(ipa, sizeof(struct kvm_perfreg_op)) || !nr ||
	    nr > KVM_PERFREG_BATCH_MAX ||
	    offset + nr * sizeof(struct kvm_perfreg_op) > KVM_PERFREG_BATCH_PAGE ||
	    flags & ~(u64)KVM_PERFREG_BATCH_FLAGS)
		return KVM_PERFREG_INVALID_PARAMETER;
	return KVM_PERFREG_SUCCESS;
}

/* PMCNTENSET_EL0's bits of the counters a vPMU of @n event counters has. */
static inline u64 kvm_perfreg_counter_mask(unsigned int n)
{
	return (BIT_ULL(n) - 1) | BIT_ULL(KVM_PERFREG_CYCLE);
}

/*
 * What entry @e costs a batch call's budget, for a vPMU of @n event
 * counters: one unit, or one for each counter whose host perf event the
 * access may create, release, enable or disable.  A PMCR_EL0 write resets
 * the n event counters with P and the cycle counter with C, each a new
 * perf event (kvm_pmu_handle_pmcr()); a PMCNTENSET_EL0 or PMCNTENCLR_EL0
 * write enables or disables the counters it names
 * (kvm_pmu_reprogram_counter_mask()).  A read-and-clear writes back what
 * it reads, unknown beforehand: it costs what a write of every bit
 * would.  Any other entry, a bad one included, costs one.
 */
static inline unsigned int kvm_perfreg_cost(const struct kvm_perfreg_op *e,
					    unsigned int n)
{
	u64 val = e->op == KVM_PERFREG_OP_READ_CLEAR ? U64_MAX : e->value;
	unsigned int units = 0;

	if (e->op == KVM_PERFREG_OP_READ || e->op > KVM_PERFREG_OP_READ_CLEAR ||
	    e->bank != KVM_PERFREG_BANK_PMU)
		return 1;
	switch (e->id) {
	case KVM_PERFREG_PMCR:
		units = (val & ARMV8_PMU_PMCR_P ? n : 0) +
			(val & ARMV8_PMU_PMCR_C ? 1 : 0);
		break;
	case KVM_PERFREG_PMCNTENSET:
	case KVM_PERFREG_PMCNTENCLR:
		units = hweight64(val & kvm_perfreg_counter_mask(n));
		break;
	}
	return max(units, 1U);
}

/*
 * Whether the PMUv3 driver's PMCR_EL0 write @val ends its batch: E
 * going up (the counters start: what they were given must be in
 * place), or a reset (P or C), so that a batch holds at most one reset
 * and stays within the work budget of one call.
 */
static inline bool kvm_perfreg_pmcr_ends_batch(u64 val)
{
	return val & (ARMV8_PMU_PMCR_E | ARMV8_PMU_PMCR_P | ARMV8_PMU_PMCR_C);
}

/* One BATCH call's progress through its list. */
struct kvm_perfreg_progress {
	u64 done;		/* entries carried out: a2 */
	u64 failed;		/* of which failed: a1 */
	unsigned int budget;	/* units left */
	bool partial;		/* the caller passed KVM_PERFREG_BATCH_PARTIAL */
};

static inline struct kvm_perfreg_progress kvm_perfreg_progress_init(u64 flags)
{
	return (struct kvm_perfreg_progress) {
		.budget = KVM_PERFREG_BATCH_BUDGET,
		.partial = flags & KVM_PERFREG_BATCH_PARTIAL,
	};
}

/*
 * Whether a call stops before its next entry, which costs @cost units;
 * if not, the entry is charged to the budget.  A call carries out at
 * least one entry, so that each makes progress.  After that it stops
 * before an entry the budget no longer covers, and, for a caller that
 * takes a partial batch, after an entry that failed (so that the caller
 * can redo the rest in order, another way) or when the host has other
 * work (@yield: a signal or a reschedule pending).  A 1.0 caller could
 * not resume a call stopped for that, so its calls stop only at the
 * budget.
 */
static inline bool kvm_perfreg_stop(struct kvm_perfreg_progress *p,
				    unsigned int cost, bool yield)
{
	if (p->done &&
	    (cost > p->budget || (p->partial && (p->failed || yield))))
		return true;
	p->budget -= min(cost, p->budget);
	return false;
}

/* An entry carried out, with @status. */
static inline void kvm_perfreg_count(struct kvm_perfreg_progress *p, int status)
{
	p->done++;
	p->failed += status != KVM_PERFREG_SUCCESS;
}

/* Entries the host reads from (and writes back to) the guest's page at a time. */
#define KVM_PERFREG_CHUNK		16

/*
 * A call's walk over @n entries of @ops, a chunk of its list: each
 * entry weighed and charged (kvm_perfreg_stop(), with @yield: whether
 * the host wants its CPU back), carried out by @access, which stores and
 * returns its status, and counted, until the call stops.  Inlined
 * always, so that the host's two callbacks are direct calls.
 *
 * Return: how many entries were carried out.
 */
static __always_inline unsigned int
kvm_perfreg_walk(struct kvm_perfreg_progress *p, unsigned int nr_counters,
		 struct kvm_perfreg_op *ops, unsigned int n,
		 int (*access)(void *arg, struct kvm_perfreg_op *e),
		 bool (*yield)(void *arg), void *arg)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (kvm_perfreg_stop(p, kvm_perfreg_cost(&ops[i], nr_counters),
				     yield(arg)))
			break;
		kvm_perfreg_count(p, access(arg, &ops[i]));
	}
	return i;
}

/*
 * Whether a call of @nr entries goes on to its next chunk, having
 * carried out @ran of the @n of this one.
 */
static inline bool kvm_perfreg_next_chunk(const struct kvm_perfreg_progress *p,
					  unsigned int ran, unsigned int n,
					  u64 nr)
{
	return ran == n && p->done < nr;
}

/*
 * The status of a call of @nr entries that went as far as @p says: for
 * a caller that takes a partial batch, success; for any other, success
 * only if the call went through the whole list, and otherwise an
 * invalid parameter (a list that costs more than one call may do).
 */
static inline int kvm_perfreg_batch_status(const struct kvm_perfreg_progress *p,
					   u64 nr)
{
	return p->partial || p->done == nr ? KVM_PERFREG_SUCCESS :
					     KVM_PERFREG_INVALID_PARAMETER;
}

/* What a caller that passed KVM_PERFREG_BATCH_PARTIAL makes of an answer. */
enum kvm_perfreg_verdict {
	KVM_PERFREG_BATCH_DONE,		/* every entry carried out */
	KVM_PERFREG_BATCH_RESUME,	/* call again for the rest */
	KVM_PERFREG_BATCH_FAILED,	/* do the rest another way */
};

/*
 * The answer (@status, @failed, @done: a0, a1, a2) to a partial call of
 * @sent entries, for a caller that needs every entry carried out, as the
 * PMUv3 driver does.  *@good: how many entries, from the first, were
 * carried out and succeeded, which need nothing more.  A failed entry
 * fails the batch: a caller that sends only what its grants allow has
 * no failure to expect, so the service is not doing what it says.  An
 * answer the ABI never gives (more entries carried out than sent, more
 * than one failed, success with none carried out) is a failure with
 * nothing carried out: no entry's outcome is taken on trust.
 */
static inline enum kvm_perfreg_verdict
kvm_perfreg_batch_verdict(long status, u64 failed, u64 done, u64 sent,
			  u64 *good)
{
	*good = 0;
	if (done > sent || failed > 1 || failed > done)
		return KVM_PERFREG_BATCH_FAILED;
	*good = done - failed;
	if (status != KVM_PERFREG_SUCCESS || failed || !done)
		return KVM_PERFREG_BATCH_FAILED;
	return done < sent ? KVM_PERFREG_BATCH_RESUME : KVM_PERFREG_BATCH_DONE;
}

/*
 * A batch of @nr entries sent as partial calls, for a caller that needs
 * every entry carried out (the PMUv3 driver): @call makes one call of
 * @count entries from entry @from and fills a0-a2 in @a; the batch is
 * sent again from the first entry left for as long as the verdict says
 * to resume.  *@good: how many entries, from the first, were carried
 * out and succeeded.  Inlined always, so that @call is a direct call.
 */
static __always_inline enum kvm_perfreg_verdict
kvm_perfreg_send(u64 nr, u64 *good,
		 void (*call)(void *arg, u64 from, u64 count, unsigned long *a),
		 void *arg)
{
	enum kvm_perfreg_verdict v;
	unsigned long a[3];
	u64 from = 0, g;

	do {
		call(arg, from, nr - from, a);
		v = kvm_perfreg_batch_verdict(a[0], a[1], a[2], nr - from, &g);
		from += g;
	} while (v == KVM_PERFREG_BATCH_RESUME);
	*good = from;
	return v;
}

/*
 * Whether VERSION's @a0 offers partial batches: major 1, minor 1 or
 * later, nothing above bit 31 (a negative @a0 is a status).
 */
static inline bool kvm_perfreg_version_partial(long a0)
{
	u64 v = a0;

	return !upper_32_bits(v) &&
	       FIELD_GET(KVM_PERFREG_VERSION_MAJOR_MASK, v) ==
	       KVM_PERFREG_VERSION_MAJOR &&
	       FIELD_GET(KVM_PERFREG_VERSION_MINOR_MASK, v) >= 1;
}
#endif /* CONFIG_ARM64 */

#if IS_ENABLED(CONFIG_KVM) && defined(CONFIG_ARM64)
struct kvm_vcpu;
/* arch/arm64/kvm/pmu_hvc.c, for the SMCCC handler (hypercalls.c). */
void kvm_perfreg_call(struct kvm_vcpu *vcpu, u32 func_num, u64 *val);
unsigned long kvm_perfreg_default_bmap(void);
#endif

#endif /* __KVM_ARM_PMU_HVC_H */

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perf-register service: a guest's VERSION, GET, SET and BATCH calls
 * for the registers of its virtual PMU, by register ID
 * (Documentation/virt/kvm/arm/perf-registers.rst, <kvm/arm_pmu_hvc.h>).
 *
 * Every access is carried out by the emulation a trapped MRS or MSR of
 * the same register gets (kvm_sys_reg_emulate()), so values and effects
 * (on the vPMU's state and on the host perf events behind it) are the
 * trap's; the service saves the exits, one a register, and nothing else.
 * What an access may do is decided first, by pure checks, so that the
 * emulation is never asked for an access a trap would have refused with
 * an UNDEF.  So is how far a batch call goes: each entry is weighed
 * against the call's work budget before it is carried out, and a caller
 * that takes partial batches gets the vCPU thread's CPU back as soon as
 * the host wants it.  The decisions are pure functions of their
 * arguments, which tests/pmu_hvc_kunit.c drives (VISIBLE_IF_KUNIT).
 */
#include <linux/align.h>
#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/kvm_host.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/perf/arm_pmuv3.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/wordpart.h>
#include <kunit/visibility.h>

#include <asm/kvm_emulate.h>
#include <asm/sysreg.h>
#include <kvm/arm_hypercalls.h>
#include <kvm/arm_pmu_direct.h>
#include <kvm/arm_pmu_hvc.h>

#include "pmu_hvc.h"
#include "sys_regs.h"

/* ------------------------------------------------------------------------
 * The decisions: pure functions of their arguments.
 */

/* The control registers' encodings, by ID (below KVM_PERFREG_NR_CONTROL). */
static u32 kvm_perfreg_control(unsigned int id)
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
VISIBLE_IF_KUNIT int kvm_perfreg_decode(u16 id, unsigned int n,
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
EXPORT_SYMBOL_IF_KUNIT(kvm_perfreg_decode);

/*
 * The status one access gets before any register is touched: no access
 * without a vPMU or without the function's grant (a read needs GET's, a
 * write SET's, a read-and-clear both); an invalid parameter for a bank
 * other than 0, an ID that names nothing here, or a direction the
 * register does not have.  @bank and @id are taken whole, as the guest
 * passed them.  On success @reg names the register.
 */
VISIBLE_IF_KUNIT int kvm_perfreg_check(const struct kvm_perfreg_ctx *ctx,
				       u64 bank, u64 id, u8 op,
				       struct kvm_perfreg_reg *reg)
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
EXPORT_SYMBOL_IF_KUNIT(kvm_perfreg_check);

/*
 * A batch call's arguments: the list's guest address, 16-byte aligned
 * (page aligned before 1.1), with all @nr entries in its 4K page
 * (whether that is guest memory is found when it is read); 1 to
 * KVM_PERFREG_BATCH_MAX entries; no flag but KVM_PERFREG_BATCH_FLAGS.
 * A caller resumes a batch at the first entry a call left.
 */
VISIBLE_IF_KUNIT int kvm_perfreg_batch_args(u64 ipa, u64 nr, u64 flags)
{
	u64 offset = ipa & (KVM_PERFREG_BATCH_PAGE - 1);

	if (!IS_ALIGNED(ipa, sizeof(struct kvm_perfreg_op)) || !nr ||
	    nr > KVM_PERFREG_BATCH_MAX ||
	    offset + nr * sizeof(struct kvm_perfreg_op) > KVM_PERFREG_BATCH_PAGE ||
	    flags & ~(u64)KVM_PERFREG_BATCH_FLAGS)
		return KVM_PERFREG_INVALID_PARAMETER;
	return KVM_PERFREG_SUCCESS;
}
EXPORT_SYMBOL_IF_KUNIT(kvm_perfreg_batch_args);

/* PMCNTENSET_EL0's bits of the counters a vPMU of @n event counters has. */
static u64 kvm_perfreg_counter_mask(unsigned int n)
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
VISIBLE_IF_KUNIT unsigned int kvm_perfreg_cost(const struct kvm_perfreg_op *e,
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
EXPORT_SYMBOL_IF_KUNIT(kvm_perfreg_cost);

/* One BATCH call's progress through its list. */
struct kvm_perfreg_progress {
	u64 done;		/* entries carried out: a2 */
	u64 failed;		/* of which failed: a1 */
	unsigned int budget;	/* units left */
	bool partial;		/* the caller passed KVM_PERFREG_BATCH_PARTIAL */
};

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
static bool kvm_perfreg_stop(struct kvm_perfreg_progress *p, unsigned int cost,
			     bool yield)
{
	if (p->done &&
	    (cost > p->budget || (p->partial && (p->failed || yield))))
		return true;
	p->budget -= min(cost, p->budget);
	return false;
}

/*
 * The status of a call of @nr entries that went as far as @p says: for
 * a caller that takes a partial batch, success; for any other, success
 * only if the call went through the whole list, and otherwise an
 * invalid parameter (a list that costs more than one call may do).
 */
static int kvm_perfreg_batch_status(const struct kvm_perfreg_progress *p, u64 nr)
{
	return p->partial || p->done == nr ? KVM_PERFREG_SUCCESS :
					     KVM_PERFREG_INVALID_PARAMETER;
}

/*
 * A BATCH call of @nr checked entries, for a vPMU of @nr_counters event
 * counters: a0-a2 in @val.  The list is walked a chunk at a time:
 * @copy_in reads entries from @from on, each is weighed and charged
 * (kvm_perfreg_stop(), asking @yield whether the host wants its CPU
 * back), carried out by @access, which stores and returns its status,
 * and counted; @copy_out writes back the entries carried out, and the
 * walk goes on to the next chunk until the call stops or the list ends.
 * A copy that fails (a page that stopped being guest memory the guest
 * may write) ends the call with an invalid parameter; the entries of
 * the chunk in hand are then carried out but may not be written back.
 * Inlined always, so that the host's callbacks are direct calls.
 */
static __always_inline void
__kvm_perfreg_batch_list(u64 nr, u64 flags, unsigned int nr_counters, u64 *val,
			 bool (*copy_in)(void *arg, u64 from,
					 struct kvm_perfreg_op *ops,
					 unsigned int n),
			 bool (*copy_out)(void *arg, u64 from,
					  const struct kvm_perfreg_op *ops,
					  unsigned int n),
			 int (*access)(void *arg, struct kvm_perfreg_op *e),
			 bool (*yield)(void *arg), void *arg)
{
	struct kvm_perfreg_progress p = {
		.budget = KVM_PERFREG_BATCH_BUDGET,
		.partial = flags & KVM_PERFREG_BATCH_PARTIAL,
	};
	struct kvm_perfreg_op ops[KVM_PERFREG_CHUNK];
	unsigned int n, i;
	bool copied = true;

	do {
		u64 from = p.done;

		n = min_t(u64, nr - from, KVM_PERFREG_CHUNK);
		copied = copy_in(arg, from, ops, n);
		if (!copied)
			break;
		for (i = 0; i < n; i++) {
			if (kvm_perfreg_stop(&p, kvm_perfreg_cost(&ops[i], nr_counters),
					     yield(arg)))
				break;
			p.failed += access(arg, &ops[i]) != KVM_PERFREG_SUCCESS;
			p.done++;
		}
		if (i)
			copied = copy_out(arg, from, ops, i);
	} while (copied && i == n && p.done < nr);
	val[0] = copied ? kvm_perfreg_batch_status(&p, nr) :
			  KVM_PERFREG_INVALID_PARAMETER;
	val[1] = p.failed;
	val[2] = p.done;
}

#if IS_ENABLED(CONFIG_KUNIT)
/* For the KUnit suite: the same, out of line. */
void kvm_perfreg_batch_list(u64 nr, u64 flags, unsigned int nr_counters,
			    u64 *val,
			    bool (*copy_in)(void *arg, u64 from,
					    struct kvm_perfreg_op *ops,
					    unsigned int n),
			    bool (*copy_out)(void *arg, u64 from,
					     const struct kvm_perfreg_op *ops,
					     unsigned int n),
			    int (*access)(void *arg, struct kvm_perfreg_op *e),
			    bool (*yield)(void *arg), void *arg)
{
	__kvm_perfreg_batch_list(nr, flags, nr_counters, val, copy_in, copy_out,
				 access, yield, arg);
}
EXPORT_SYMBOL_IF_KUNIT(kvm_perfreg_batch_list);
#endif

/* ------------------------------------------------------------------------
 * The service.
 */

/*
 * The service starts hidden in every VM (KVM_REG_ARM_VENDOR_HYP_BMAP_2
 * resets to 0); a VMM grants it by setting the register's bits before the
 * first run.  For VMMs that do not know the register the host can grant
 * it instead: with kvm.perf_regs=1 new VMs start with every bit set,
 * which a VMM may still clear.
 */
static bool perf_regs;
module_param(perf_regs, bool, 0644);
MODULE_PARM_DESC(perf_regs, "New VMs start with the perf-register hypercalls granted");

unsigned long kvm_perfreg_default_bmap(void)
{
	return READ_ONCE(perf_regs) ? KVM_PERFREG_BMAP_ALL : 0;
}

static struct kvm_perfreg_ctx kvm_perfreg_ctx_of(struct kvm_vcpu *vcpu)
{
	bool pmu = kvm_vcpu_has_pmu(vcpu);

	return (struct kvm_perfreg_ctx) {
		.bmap = READ_ONCE(vcpu->kvm->arch.smccc_feat.vendor_hyp_bmap_2),
		.has_pmu = pmu,
		.nr_counters = pmu ? FIELD_GET(ARMV8_PMU_PMCR_N,
					       kvm_vcpu_read_pmcr(vcpu)) : 0,
	};
}

/*
 * The trap handler's table entry for each register ID that passed
 * kvm_perfreg_check() (kind 0-2, index below 32), looked up once rather
 * than by a binary search of the table on every access.
 */
static const struct sys_reg_desc *kvm_perfreg_descs[3 * 32];

static const struct sys_reg_desc *kvm_perfreg_desc(u16 id, u32 encoding)
{
	unsigned int i = FIELD_GET(KVM_PERFREG_KIND, id) * 32 +
			 FIELD_GET(KVM_PERFREG_COUNTER, id);
	const struct sys_reg_desc *r;

	if (i >= ARRAY_SIZE(kvm_perfreg_descs))	/* not after the check */
		return NULL;
	r = READ_ONCE(kvm_perfreg_descs[i]);
	if (!r) {
		r = kvm_sys_reg_find(encoding);
		WRITE_ONCE(kvm_perfreg_descs[i], r);
	}
	return r;
}

/*
 * One MRS (@write false) or MSR of @encoding, as the vCPU's own would be
 * carried out: a direct vCPU's registers are its hardware's
 * (kvm_pmu_direct_reg()), but for PMCEID0/1, which trap and are emulated
 * for it too; every other vCPU's go through the trap's emulation.
 * Return: 0, or nonzero if the access failed.
 */
static int kvm_perfreg_sysreg(struct kvm_vcpu *vcpu, u16 id, u32 encoding,
			      bool write, u64 *val)
{
	if (kvm_vcpu_pmu_is_direct(vcpu) && encoding != SYS_PMCEID0_EL0 &&
	    encoding != SYS_PMCEID1_EL0)
		return kvm_pmu_direct_reg(vcpu, encoding, write, val);
	return kvm_sys_reg_emulate(vcpu, kvm_perfreg_desc(id, encoding), encoding,
				   write, val);
}

/*
 * One access: checked, then carried out as the MRS/MSR would be;
 * READ_CLEAR is a read and a write of the value read.
 */
static int kvm_perfreg_access(struct kvm_vcpu *vcpu,
			      const struct kvm_perfreg_ctx *ctx,
			      u64 bank, u64 id, u8 op, u64 *val)
{
	struct kvm_perfreg_reg reg;
	int ret = kvm_perfreg_check(ctx, bank, id, op, &reg);
	u64 read;

	if (ret)
		return ret;
	if (op == KVM_PERFREG_OP_WRITE)
		return kvm_perfreg_sysreg(vcpu, id, reg.encoding, true, val) ?
		       KVM_PERFREG_INVALID_PARAMETER : KVM_PERFREG_SUCCESS;
	if (kvm_perfreg_sysreg(vcpu, id, reg.encoding, false, &read) ||
	    (op == KVM_PERFREG_OP_READ_CLEAR &&
	     kvm_perfreg_sysreg(vcpu, id, reg.encoding, true, &read)))
		return KVM_PERFREG_INVALID_PARAMETER;
	*val = read;
	return KVM_PERFREG_SUCCESS;
}

/*
 * Whether the vCPU thread should give its CPU back: a reschedule or a
 * signal is pending.  The run loop handles both once the call returns.
 */
static bool kvm_perfreg_yield(void *unused)
{
	return need_resched() || signal_pending(current);
}

/* A BATCH call in progress: the vCPU, what it may do, and its list. */
struct kvm_perfreg_batch {
	struct kvm_vcpu *vcpu;
	const struct kvm_perfreg_ctx *ctx;
	gpa_t ipa;
};

static bool kvm_perfreg_copy_in(void *arg, u64 from, struct kvm_perfreg_op *ops,
				unsigned int n)
{
	struct kvm_perfreg_batch *b = arg;

	return !kvm_vcpu_read_guest(b->vcpu, b->ipa + from * sizeof(*ops), ops,
				    n * sizeof(*ops));
}

static bool kvm_perfreg_copy_out(void *arg, u64 from,
				 const struct kvm_perfreg_op *ops, unsigned int n)
{
	struct kvm_perfreg_batch *b = arg;

	return !kvm_vcpu_write_guest(b->vcpu, b->ipa + from * sizeof(*ops), ops,
				     n * sizeof(*ops));
}

/* One entry of a batch, checked and carried out on the vCPU. */
static int kvm_perfreg_batch_access(void *arg, struct kvm_perfreg_op *e)
{
	struct kvm_perfreg_batch *b = arg;

	e->status = kvm_perfreg_access(b->vcpu, b->ctx, e->bank, e->id, e->op,
				       &e->value);
	return e->status;
}

/*
 * Whether the page at @ipa is guest memory the guest may write: checked
 * before any entry is carried out, so that a bad page does nothing at
 * all.  The list lies within one 4K page (kvm_perfreg_batch_args()).
 */
static bool kvm_perfreg_page_ok(struct kvm_vcpu *vcpu, gpa_t ipa)
{
	bool writable;
	unsigned long hva = kvm_vcpu_gfn_to_hva_prot(vcpu, gpa_to_gfn(ipa),
						     &writable);

	return !kvm_is_error_hva(hva) && writable;
}

/*
 * BATCH(ipa, nr, flags): carry out up to @nr entries of the list at @ipa
 * in order.  Each entry is read from guest memory once, into a kernel
 * copy that is weighed, checked and carried out, then written back with
 * its status: a guest that changes the page meanwhile (from another
 * vCPU) changes only entries not read yet.  The call stops where
 * kvm_perfreg_stop() says (its work budget; for a caller that takes
 * partial batches also a failed entry, or the host wanting the CPU).
 * a1: how many entries failed; a2: how many were carried out.
 */
static void kvm_perfreg_batch(struct kvm_vcpu *vcpu, u64 *val)
{
	struct kvm_perfreg_ctx ctx = kvm_perfreg_ctx_of(vcpu);
	struct kvm_perfreg_batch b = {
		.vcpu = vcpu, .ctx = &ctx, .ipa = smccc_get_arg1(vcpu),
	};
	u64 nr = smccc_get_arg2(vcpu), flags = smccc_get_arg3(vcpu);
	int idx;

	val[0] = kvm_perfreg_batch_args(b.ipa, nr, flags);
	if (val[0])
		return;
	if (!ctx.has_pmu) {
		val[0] = KVM_PERFREG_NO_ACCESS;
		return;
	}
	/* The memslots, looked up and read through, are SRCU-protected. */
	idx = srcu_read_lock(&vcpu->kvm->srcu);
	if (kvm_perfreg_page_ok(vcpu, b.ipa))
		__kvm_perfreg_batch_list(nr, flags, ctx.nr_counters, val,
					 kvm_perfreg_copy_in, kvm_perfreg_copy_out,
					 kvm_perfreg_batch_access,
					 kvm_perfreg_yield, &b);
	else
		val[0] = KVM_PERFREG_INVALID_PARAMETER;
	srcu_read_unlock(&vcpu->kvm->srcu, idx);
}

/*
 * The calls, for KVM's SMCCC handler once it has checked that the call's
 * own bit is granted: fills a0-a3.  Not supported: a 32-bit guest's
 * calls (these are SMC64/HVC64 calls); an L2 guest's (its registers are
 * its L1 hypervisor's to trap, which kvm_sys_reg_emulate() would skip);
 * a protected VM's (its vCPU state is the hypervisor's, the host's copy
 * is stale, and its pages are not the host's to read).  A direct-PMU
 * vCPU's are served against its own registers (1.2), and VERSION tells
 * it that they are direct (KVM_PERFREG_IDS_DIRECT).
 */
void kvm_perfreg_call(struct kvm_vcpu *vcpu, u32 func_num, u64 *val)
{
	struct kvm_perfreg_ctx ctx;

	val[0] = KVM_PERFREG_NOT_SUPPORTED;
	if (vcpu_mode_is_32bit(vcpu) || is_nested_ctxt(vcpu) ||
	    kvm_vm_is_protected(vcpu->kvm))
		return;

	switch (func_num) {
	case KVM_PERFREG_FUNC_VERSION:
		ctx = kvm_perfreg_ctx_of(vcpu);
		val[0] = KVM_PERFREG_VERSION;
		val[1] = ctx.has_pmu ? kvm_perfreg_nr_ids(ctx.nr_counters) : 0;
		if (kvm_vcpu_pmu_is_direct(vcpu))
			val[1] |= KVM_PERFREG_IDS_DIRECT;
		val[2] = KVM_PERFREG_BATCH_MAX;
		val[3] = KVM_PERFREG_BATCH_BUDGET;
		break;
	case KVM_PERFREG_FUNC_GET:
		ctx = kvm_perfreg_ctx_of(vcpu);
		val[0] = kvm_perfreg_access(vcpu, &ctx, smccc_get_arg1(vcpu),
					    smccc_get_arg2(vcpu),
					    KVM_PERFREG_OP_READ, &val[1]);
		break;
	case KVM_PERFREG_FUNC_SET:
		ctx = kvm_perfreg_ctx_of(vcpu);
		val[1] = smccc_get_arg3(vcpu);
		val[0] = kvm_perfreg_access(vcpu, &ctx, smccc_get_arg1(vcpu),
					    smccc_get_arg2(vcpu),
					    KVM_PERFREG_OP_WRITE, &val[1]);
		val[1] = 0;
		break;
	case KVM_PERFREG_FUNC_BATCH:
		kvm_perfreg_batch(vcpu, val);
		break;
	}
}

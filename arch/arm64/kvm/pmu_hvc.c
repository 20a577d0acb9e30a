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
 * What an access may do is decided first, by the pure checks of the
 * header, so that the emulation is never asked for an access a trap
 * would have refused with an UNDEF.  So is how far a batch call goes:
 * each entry is weighed against the call's work budget before it is
 * carried out, and a caller that takes partial batches gets the vCPU
 * thread's CPU back as soon as the host wants it.
 */
#include <linux/kvm_host.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/perf/arm_pmuv3.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>

#include <asm/kvm_emulate.h>
#include <kvm/arm_hypercalls.h>
#include <kvm/arm_pmu_direct.h>
#include <kvm/arm_pmu_hvc.h>

#include "sys_regs.h"

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
 * The batch page: its memslot (looked up once, through the vCPU's
 * last-used-slot cache) and the user address of the list in it, if the
 * whole page is guest memory the guest may write -- checked before any
 * entry is carried out, so that a bad page does nothing at all.  The
 * list lies within one 4K-aligned page, so within one host page.
 */
struct kvm_perfreg_page {
	struct kvm_memory_slot *slot;
	gfn_t gfn;
	void __user *uaddr;
};

static bool kvm_perfreg_page_get(struct kvm_vcpu *vcpu, gpa_t ipa,
				 struct kvm_perfreg_page *pg)
{
	bool writable;
	unsigned long hva;

	pg->gfn = gpa_to_gfn(ipa);
	pg->slot = kvm_vcpu_gfn_to_memslot(vcpu, pg->gfn);
	hva = gfn_to_hva_memslot_prot(pg->slot, pg->gfn, &writable);
	if (kvm_is_error_hva(hva) || !writable)
		return false;
	pg->uaddr = (void __user *)(hva + offset_in_page(ipa));
	return true;
}

/*
 * Whether the vCPU thread should give its CPU back: a reschedule or a
 * signal is pending.  The run loop handles both once the call returns.
 */
static bool kvm_perfreg_yield(void *unused)
{
	return need_resched() || signal_pending(current);
}

struct kvm_perfreg_walker {
	struct kvm_vcpu *vcpu;
	const struct kvm_perfreg_ctx *ctx;
};

/* One entry of a walk (kvm_perfreg_walk()) carried out on the vCPU. */
static int kvm_perfreg_walk_access(void *arg, struct kvm_perfreg_op *e)
{
	struct kvm_perfreg_walker *w = arg;

	e->status = kvm_perfreg_access(w->vcpu, w->ctx, e->bank, e->id, e->op,
				       &e->value);
	return e->status;
}

/*
 * Carry out a checked batch of @nr entries (kvm->srcu held) until it is
 * done or kvm_perfreg_stop() ends the call.  Each chunk is read from the
 * guest's page once, and only the entries carried out are written back.
 *
 * Return: false if the page stopped being guest memory the guest may
 * write (a VMM that unmapped it under us); the entries of the chunk in
 * hand are then carried out but may not be written back.
 */
static bool kvm_perfreg_run(struct kvm_vcpu *vcpu,
			    const struct kvm_perfreg_ctx *ctx,
			    const struct kvm_perfreg_page *pg, u64 nr,
			    struct kvm_perfreg_progress *p)
{
	struct kvm_perfreg_walker w = { .vcpu = vcpu, .ctx = ctx };
	struct kvm_perfreg_op ops[KVM_PERFREG_CHUNK];
	unsigned int n, ran;

	do {
		void __user *at = pg->uaddr + p->done * sizeof(ops[0]);

		n = min_t(u64, nr - p->done, KVM_PERFREG_CHUNK);
		if (__copy_from_user(ops, at, n * sizeof(ops[0])))
			return false;
		ran = kvm_perfreg_walk(p, ctx->nr_counters, ops, n,
				       kvm_perfreg_walk_access,
				       kvm_perfreg_yield, &w);
		if (!ran)
			break;
		if (__copy_to_user(at, ops, ran * sizeof(ops[0])))
			return false;
		mark_page_dirty_in_slot(vcpu->kvm, pg->slot, pg->gfn);
	} while (kvm_perfreg_next_chunk(p, ran, n, nr));
	return true;
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
	gpa_t ipa = smccc_get_arg1(vcpu);
	u64 nr = smccc_get_arg2(vcpu), flags = smccc_get_arg3(vcpu);
	struct kvm_perfreg_progress p = kvm_perfreg_progress_init(flags);
	struct kvm_perfreg_page pg;
	int idx;

	val[0] = kvm_perfreg_batch_args(ipa, nr, flags);
	if (val[0])
		return;
	if (!ctx.has_pmu) {
		val[0] = KVM_PERFREG_NO_ACCESS;
		return;
	}
	/* The memslots, looked up and read through, are SRCU-protected. */
	idx = srcu_read_lock(&vcpu->kvm->srcu);
	if (kvm_perfreg_page_get(vcpu, ipa, &pg) &&
	    kvm_perfreg_run(vcpu, &ctx, &pg, nr, &p))
		val[0] = kvm_perfreg_batch_status(&p, nr);
	else
		val[0] = KVM_PERFREG_INVALID_PARAMETER;
	srcu_read_unlock(&vcpu->kvm->srcu, idx);
	val[1] = p.failed;
	val[2] = p.done;
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

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The PMUv3 driver's client of the KVM perf-register service, for
 * arm_pmuv3.c in a KVM guest (the API is arm_pmuv3_hvc.h).
 *
 * Every PMU register access of a KVM guest is an exit to the host.  Where
 * the host offers the perf-register service (<kvm/arm_pmu_hvc.h>,
 * Documentation/virt/kvm/arm/perf-registers.rst), the driver queues its
 * register writes in a per-CPU page and hands them over in one call,
 * together with the reads that need the hardware: at the end of a
 * perf_pmu_disable()..perf_pmu_enable() window, once per overflow
 * interrupt (which also reads and clears the overflow status), once per
 * group read.  While the PMU is stopped by the driver, or during a group
 * read, the counters are read all at once and their values kept: they do
 * not move (or are taken at one instant).  PMCR_EL0 is not read back: the
 * driver knows what it wrote.
 *
 * The service's entry points are noinline and reached once per event
 * (arm_pmuv3.c's armv8pmu_read_counter() and friends), not from the
 * register accessors: inlined there, they would give every accessor a
 * stack frame and keep it out of line, a cost a host (where the static
 * key is off) would pay on every counter read.
 *
 * A batch the host carries out in part (its work budget spent, or its
 * CPU wanted back) is sent again from the first entry left.  A batch
 * that fails is the end of the service: what the host did not carry out
 * is done by trapped MRS/MSR, so that no read returns a stale value, and
 * every CPU traps from its next access on (armv8pmu_hvc_live()).
 */

#define pr_fmt(fmt) "pmuv3-kvm: " fmt

#include <linux/arm-smccc.h>
#include <linux/array_size.h>
#include <linux/atomic.h>
#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/bits.h>
#include <linux/cpufeature.h>
#include <linux/cpumask.h>
#include <linux/gfp.h>
#include <linux/io.h>
#include <linux/irqflags.h>
#include <linux/jump_label.h>
#include <linux/lockdep.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/perf/arm_pmu.h>
#include <linux/perf/arm_pmuv3.h>
#include <linux/perf_event.h>
#include <linux/printk.h>
#include <linux/types.h>

#include <asm/arm_pmuv3.h>
#include <asm/barrier.h>
#include <asm/hypervisor.h>
#include <kunit/visibility.h>

#include <kvm/arm_pmu_hvc.h>

#include "arm_pmuv3_hvc.h"

/*
 * The parameter is the driver's, arm_pmuv3.perfreg (as the boot command
 * line and /sys/module/arm_pmuv3/ name it), not this object's
 * arm_pmuv3_hvc: both objects are built in (ARM_PMUV3 is a bool).
 */
#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "arm_pmuv3."

static bool armv8pmu_perfreg = true;
module_param_named(perfreg, armv8pmu_perfreg, bool, 0444);
MODULE_PARM_DESC(perfreg, "In a KVM guest, use the host's perf-register hypercalls when it offers them");

#ifdef CONFIG_ARM_PMUV3_PERFREG_FAIL_TEST
/*
 * The Nth batch the driver sends (counted from boot, over all CPUs) goes
 * with a flag no version of the service defines, which the host refuses
 * before it reads an entry, so that the driver falls back to trapped
 * accesses as it would on a real failure.  0: never.
 */
static unsigned int armv8pmu_perfreg_fail;
module_param_named(perfreg_fail, armv8pmu_perfreg_fail, uint, 0444);
MODULE_PARM_DESC(perfreg_fail, "Test only: fail the Nth perf-register batch, then trap (0: never)");

/* The flag arm_pmuv3.perfreg_fail sends: reserved in every version. */
#define ARMV8PMU_HVC_FAIL_FLAG		BIT_ULL(63)

/* Batches sent, counted for arm_pmuv3.perfreg_fail only. */
static atomic_t armv8pmu_hvc_batches = ATOMIC_INIT(0);

/* BATCH's flags: partial batches, and arm_pmuv3.perfreg_fail's failure. */
static u64 armv8pmu_hvc_flags(void)
{
	unsigned int fail = READ_ONCE(armv8pmu_perfreg_fail);

	if (likely(!fail) ||
	    atomic_inc_return(&armv8pmu_hvc_batches) != fail)
		return KVM_PERFREG_BATCH_PARTIAL;
	return KVM_PERFREG_BATCH_PARTIAL | ARMV8PMU_HVC_FAIL_FLAG;
}
#else
#define ARMV8PMU_HVC_FAIL_FLAG		0

static u64 armv8pmu_hvc_flags(void)
{
	return KVM_PERFREG_BATCH_PARTIAL;
}
#endif

/* ------------------------------------------------------------------------
 * The client's decisions: pure functions of the service's answers.
 */

/*
 * Whether the driver's PMCR_EL0 write @val ends its batch: E going up
 * (the counters start: what they were given must be in place), or a
 * reset (P or C), so that a batch holds at most one reset and stays
 * within the work budget of one call (KVM_PERFREG_BATCH_BUDGET).
 */
VISIBLE_IF_KUNIT bool armv8pmu_hvc_ends_batch(u64 val)
{
	return val & (ARMV8_PMU_PMCR_E | ARMV8_PMU_PMCR_P | ARMV8_PMU_PMCR_C);
}
EXPORT_SYMBOL_IF_KUNIT(armv8pmu_hvc_ends_batch);

/*
 * The answer (@status, @failed, @done: a0, a1, a2) to a partial call of
 * @sent entries, for the driver, which needs every entry carried out.
 * *@good: how many entries, from the first, were carried out and
 * succeeded, which need nothing more.  A failed entry fails the batch:
 * the driver sends only what its grants allow, so it has no failure to
 * expect, and the service is not doing what it says.  An answer the ABI
 * never gives (more entries carried out than sent, more than one failed,
 * success with none carried out) is a failure with nothing carried out:
 * no entry's outcome is taken on trust.
 */
VISIBLE_IF_KUNIT enum armv8pmu_hvc_verdict
armv8pmu_hvc_verdict(long status, u64 failed, u64 done, u64 sent, u64 *good)
{
	*good = 0;
	if (done > sent || failed > 1 || failed > done)
		return ARMV8PMU_HVC_FAILED;
	*good = done - failed;
	if (status != KVM_PERFREG_SUCCESS || failed || !done)
		return ARMV8PMU_HVC_FAILED;
	return done < sent ? ARMV8PMU_HVC_RESUME : ARMV8PMU_HVC_DONE;
}
EXPORT_SYMBOL_IF_KUNIT(armv8pmu_hvc_verdict);

/*
 * A batch of @nr entries sent as partial calls: @call makes one call of
 * @count entries from entry @from and fills a0-a2 in @a; the batch is
 * sent again from the first entry left for as long as the verdict says
 * to resume.  *@good: how many entries, from the first, were carried
 * out and succeeded.  Inlined always, so that @call is a direct call.
 */
static __always_inline enum armv8pmu_hvc_verdict
__armv8pmu_hvc_send_calls(u64 nr, u64 *good,
			  void (*call)(void *arg, u64 from, u64 count,
				       unsigned long *a),
			  void *arg)
{
	enum armv8pmu_hvc_verdict v;
	unsigned long a[3];
	u64 from = 0, g;

	do {
		call(arg, from, nr - from, a);
		v = armv8pmu_hvc_verdict(a[0], a[1], a[2], nr - from, &g);
		from += g;
	} while (v == ARMV8PMU_HVC_RESUME);
	*good = from;
	return v;
}

#if IS_ENABLED(CONFIG_KUNIT)
/* For the KUnit suite: the same, out of line. */
enum armv8pmu_hvc_verdict
armv8pmu_hvc_send_calls(u64 nr, u64 *good,
			void (*call)(void *arg, u64 from, u64 count,
				     unsigned long *a),
			void *arg)
{
	return __armv8pmu_hvc_send_calls(nr, good, call, arg);
}
EXPORT_SYMBOL_IF_KUNIT(armv8pmu_hvc_send_calls);
#endif

/*
 * Whether VERSION's @a0 offers partial batches: major 1, minor 1 or
 * later, nothing above bit 31 (a negative @a0 is a status).
 */
VISIBLE_IF_KUNIT bool armv8pmu_hvc_version_ok(long a0)
{
	u64 v = a0;

	return !upper_32_bits(v) &&
	       FIELD_GET(KVM_PERFREG_VERSION_MAJOR_MASK, v) ==
	       KVM_PERFREG_VERSION_MAJOR &&
	       FIELD_GET(KVM_PERFREG_VERSION_MINOR_MASK, v) >= 1;
}
EXPORT_SYMBOL_IF_KUNIT(armv8pmu_hvc_version_ok);

DEFINE_STATIC_KEY_FALSE(armv8pmu_hvc_key);
DEFINE_PER_CPU(bool, armv8pmu_hvc_trapped);

/* Set by the first batch that fails: every CPU then falls back. */
static atomic_t armv8pmu_hvc_failed = ATOMIC_INIT(0);
/* The guest's one PMU, whose used counters a snapshot reads. */
static struct arm_pmu *armv8pmu_hvc_pmu;

struct armv8pmu_hvc_cpu {
	struct kvm_perfreg_op *ops;	/* the batch page */
	unsigned int nr;		/* entries queued */
	u64 pmcr;			/* PMCR_EL0 as last written */
	bool stopped;			/* PMCR_EL0.E cleared by the driver */
	bool in_irq;			/* in the overflow interrupt */
	unsigned int txn;		/* PERF_PMU_TXN_* in progress */
	unsigned long cached;		/* counters whose value is in cache[] */
	u64 cache[ARMV8_PMU_CYCLE_IDX + 1];
};

static DEFINE_PER_CPU(struct armv8pmu_hvc_cpu, armv8pmu_hvc_cpu);

/* ------------------------------------------------------------------------
 * Trapped access by register ID: what the service did not carry out.
 * Only the entries the driver queues: writes of the control registers,
 * counters and types it programs, reads of counters, and the
 * read-and-clear of PMOVSCLR_EL0.
 */

static void armv8pmu_hvc_trap_control(u16 id, u64 val)
{
	switch (id) {
	case KVM_PERFREG_PMCR:
		write_pmcr(val);
		break;
	case KVM_PERFREG_PMCNTENSET:
		write_pmcntenset(val);
		break;
	case KVM_PERFREG_PMCNTENCLR:
		write_pmcntenclr(val);
		break;
	case KVM_PERFREG_PMINTENSET:
		write_pmintenset(val);
		break;
	case KVM_PERFREG_PMINTENCLR:
		write_pmintenclr(val);
		break;
	case KVM_PERFREG_PMOVSCLR:
		write_pmovsclr(val);
		break;
	case KVM_PERFREG_PMUSERENR:
		write_pmuserenr(val);
		break;
	}
}

/*
 * An ISB on both sides of each write: a superset of the synchronisation
 * arm_pmuv3.c's wrappers give each of these registers, for a path taken
 * once.
 */
static void armv8pmu_hvc_trap_write(u16 id, u64 val)
{
	unsigned int idx = FIELD_GET(KVM_PERFREG_COUNTER, id);
	bool cycle = idx == KVM_PERFREG_CYCLE;

	isb();
	switch (FIELD_GET(KVM_PERFREG_KIND, id)) {
	case KVM_PERFREG_KIND_COUNTER:
		if (cycle)
			write_pmccntr(val);
		else
			write_pmevcntrn(idx, val);
		break;
	case KVM_PERFREG_KIND_TYPER:
		if (cycle)
			write_pmccfiltr(val);
		else
			write_pmevtypern(idx, val);
		break;
	default:
		armv8pmu_hvc_trap_control(id, val);
	}
	isb();
}

static u64 armv8pmu_hvc_trap_read(u16 id)
{
	unsigned int idx = FIELD_GET(KVM_PERFREG_COUNTER, id);

	if (id == KVM_PERFREG_PMOVSCLR)
		return read_pmovsclr();
	if (idx == KVM_PERFREG_CYCLE)
		return read_pmccntr();
	return read_pmevcntrn(idx);
}

/* One entry by trap, with the value and status the service would give. */
static void armv8pmu_hvc_trap(struct kvm_perfreg_op *e)
{
	if (e->op != KVM_PERFREG_OP_WRITE)
		e->value = armv8pmu_hvc_trap_read(e->id);
	if (e->op != KVM_PERFREG_OP_READ)
		armv8pmu_hvc_trap_write(e->id, e->value);
	e->status = KVM_PERFREG_SUCCESS;
}

/*
 * This CPU traps from now on, once its queued entries from @from on are
 * carried out by trap, in order, in place (a caller may still read the
 * values of its entries).
 */
static void armv8pmu_hvc_fall_back(struct armv8pmu_hvc_cpu *h,
				   unsigned int from)
{
	for (; from < h->nr; from++)
		armv8pmu_hvc_trap(&h->ops[from]);
	__this_cpu_write(armv8pmu_hvc_trapped, true);
}

/*
 * Whether this CPU still hands its accesses to the host.  Once a batch
 * has failed on any CPU, each CPU falls back at its next access: it
 * carries out what it has queued by trap, then sets its own flag, which
 * armv8pmu_hvc() tests.  A flag each CPU sets for itself, once its queue
 * is done, rather than the static key: no queued write is overtaken by a
 * trapped one, and a flag may be set anywhere, the overflow handler
 * included, where a static key may not be changed (it sleeps).
 */
static bool armv8pmu_hvc_live(struct armv8pmu_hvc_cpu *h)
{
	if (__this_cpu_read(armv8pmu_hvc_trapped))
		return false;
	if (likely(!atomic_read(&armv8pmu_hvc_failed)))
		return true;
	armv8pmu_hvc_fall_back(h, 0);
	return false;
}

/*
 * A batch failed: the service is not used again.  One warning, from the
 * first CPU it fails on; printk is safe in any context.
 */
static void armv8pmu_hvc_fail(struct armv8pmu_hvc_cpu *h, unsigned int good,
			      const struct arm_smccc_res *res, u64 flags)
{
	if (!atomic_xchg(&armv8pmu_hvc_failed, 1))
		pr_warn("%s: KVM perf-register batch failed (status %ld, %lu failed, %u of %u entries done%s): registers trapped from now on\n",
			armv8pmu_hvc_pmu->name, (long)res->a0, res->a1, good,
			h->nr, flags & ARMV8PMU_HVC_FAIL_FLAG ?
			", injected by arm_pmuv3.perfreg_fail" : "");
	armv8pmu_hvc_fall_back(h, good);
}

/* One batch being sent: its queue, its flags, the last call's answer. */
struct armv8pmu_hvc_call {
	struct armv8pmu_hvc_cpu *h;
	u64 flags;
	struct arm_smccc_res res;	/* the last call's answer */
};

/* One BATCH call of @count entries from entry @from of the queue. */
static void armv8pmu_hvc_call(void *arg, u64 from, u64 count, unsigned long *a)
{
	struct armv8pmu_hvc_call *c = arg;

	arm_smccc_1_1_invoke(ARM_SMCCC_VENDOR_HYP_KVM_PERFREG_FUNC_ID(BATCH),
			     virt_to_phys(&c->h->ops[from]), count, c->flags,
			     &c->res);
	a[0] = c->res.a0;
	a[1] = c->res.a1;
	a[2] = c->res.a2;
}

/*
 * Hand the queue over: one exit, and one more each time the host stops
 * a call before the end (its work budget spent, or its CPU wanted back),
 * resuming at the first entry left.
 */
static void armv8pmu_hvc_send(struct armv8pmu_hvc_cpu *h)
{
	struct armv8pmu_hvc_call c = { .h = h, .flags = armv8pmu_hvc_flags() };
	u64 good;

	if (__armv8pmu_hvc_send_calls(h->nr, &good, armv8pmu_hvc_call, &c) ==
	    ARMV8PMU_HVC_FAILED)
		armv8pmu_hvc_fail(h, good, &c.res, c.flags);
}

/*
 * Send what is queued, unless this CPU traps: then every entry was
 * carried out when it was queued.
 */
static void armv8pmu_hvc_flush(struct armv8pmu_hvc_cpu *h)
{
	if (h->nr && armv8pmu_hvc_live(h))
		armv8pmu_hvc_send(h);
	h->nr = 0;
}

/*
 * Queue one entry (IRQs off: the queue is this CPU's).  On a CPU that
 * traps, the entry is carried out at once, and stays in the queue only
 * so that the caller's indices hold.
 */
static struct kvm_perfreg_op *armv8pmu_hvc_queue(struct armv8pmu_hvc_cpu *h,
						 u16 id, u8 op, u64 val)
{
	struct kvm_perfreg_op *e;
	bool live;

	lockdep_assert_irqs_disabled();
	if (h->nr == KVM_PERFREG_BATCH_MAX)
		armv8pmu_hvc_flush(h);
	live = armv8pmu_hvc_live(h);
	e = &h->ops[h->nr++];
	*e = (struct kvm_perfreg_op){ .id = id, .op = op, .value = val };
	if (!live)
		armv8pmu_hvc_trap(e);
	return e;
}

noinline void armv8pmu_hvc_write(u16 id, u64 val)
{
	armv8pmu_hvc_queue(this_cpu_ptr(&armv8pmu_hvc_cpu), id,
			   KVM_PERFREG_OP_WRITE, val);
}

/* One read, with whatever is queued before it: one exit. */
static u64 armv8pmu_hvc_read(struct armv8pmu_hvc_cpu *h, u16 id, u8 op)
{
	struct kvm_perfreg_op *e = armv8pmu_hvc_queue(h, id, op, 0);

	armv8pmu_hvc_flush(h);
	return e->value;
}

/*
 * Send the queue with a read of every counter in use (and, for the
 * overflow interrupt, a read-and-clear of PMOVSCLR_EL0), and keep the
 * values.  Return: the overflow status read, or 0.
 */
static u64 armv8pmu_hvc_snapshot(struct armv8pmu_hvc_cpu *h, bool ovs)
{
	unsigned long *used = this_cpu_ptr(armv8pmu_hvc_pmu->hw_events)->used_mask;
	unsigned int ovs_at, first;
	int idx;

	/* Room for all of it, so that nothing is sent halfway. */
	if (h->nr + ARMV8_PMU_CYCLE_IDX + 2 > KVM_PERFREG_BATCH_MAX)
		armv8pmu_hvc_flush(h);
	ovs_at = h->nr;
	if (ovs)
		armv8pmu_hvc_queue(h, KVM_PERFREG_PMOVSCLR,
				   KVM_PERFREG_OP_READ_CLEAR, 0);
	first = h->nr;
	for_each_set_bit(idx, used, ARMV8_PMU_CYCLE_IDX + 1)
		armv8pmu_hvc_queue(h, KVM_PERFREG_PMEVCNTR(idx),
				   KVM_PERFREG_OP_READ, 0);
	armv8pmu_hvc_flush(h);
	h->cached = 0;
	for_each_set_bit(idx, used, ARMV8_PMU_CYCLE_IDX + 1) {
		h->cache[idx] = h->ops[first++].value;
		__set_bit(idx, &h->cached);
	}
	return ovs ? h->ops[ovs_at].value & ARMV8_PMU_OVERFLOWED_MASK : 0;
}

/*
 * Whether the counters' values may come from one snapshot: they do not
 * move while the PMU is stopped, nor while the host handles the call that
 * takes them (the guest does not run then, and they count only the
 * guest), which serves a group read and the overflow interrupt.
 */
static bool armv8pmu_hvc_snapshot_holds(struct armv8pmu_hvc_cpu *h)
{
	return h->stopped || h->in_irq || h->txn == PERF_PMU_TXN_READ;
}

noinline u64 armv8pmu_hvc_read_counter(int idx)
{
	struct armv8pmu_hvc_cpu *h = this_cpu_ptr(&armv8pmu_hvc_cpu);

	if (armv8pmu_hvc_snapshot_holds(h)) {
		if (!test_bit(idx, &h->cached))
			armv8pmu_hvc_snapshot(h, false);
		if (test_bit(idx, &h->cached))
			return h->cache[idx];
	}
	return armv8pmu_hvc_read(h, KVM_PERFREG_PMEVCNTR(idx),
				 KVM_PERFREG_OP_READ);
}

noinline void armv8pmu_hvc_write_counter(int idx, u64 val)
{
	struct armv8pmu_hvc_cpu *h = this_cpu_ptr(&armv8pmu_hvc_cpu);

	armv8pmu_hvc_write(KVM_PERFREG_PMEVCNTR(idx), val);
	if (armv8pmu_hvc_snapshot_holds(h)) {
		h->cache[idx] = val;
		__set_bit(idx, &h->cached);
	}
}

/*
 * PMCR_EL0 writes: E going up sends the queue, and ends the snapshot.
 * So does a reset (P or C), which also ends the values a snapshot took:
 * a batch then holds at most one reset, and stays within the work budget
 * of one call (KVM_PERFREG_BATCH_BUDGET).  The copy kept for reads drops
 * P and C, which reset counters when written and read as zero, as the
 * register's own reads would.
 */
noinline void armv8pmu_hvc_write_pmcr(u64 val)
{
	struct armv8pmu_hvc_cpu *h = this_cpu_ptr(&armv8pmu_hvc_cpu);
	u64 reset = val & (ARMV8_PMU_PMCR_P | ARMV8_PMU_PMCR_C);

	h->pmcr = val & ~reset;
	armv8pmu_hvc_write(KVM_PERFREG_PMCR, val);
	h->stopped = !(val & ARMV8_PMU_PMCR_E);
	if (!armv8pmu_hvc_ends_batch(val))
		return;
	armv8pmu_hvc_flush(h);
	h->cached = 0;
}

/*
 * The overflow interrupt: one call reads and clears the overflow status
 * and takes every counter in use; the handler's writes (the new periods)
 * go in one more at its end.  The PMU is not stopped meanwhile: the
 * snapshot is already consistent, and each stop and start would have the
 * host stop and start every counter's perf event.
 */
u64 armv8pmu_hvc_irq_begin(void)
{
	struct armv8pmu_hvc_cpu *h = this_cpu_ptr(&armv8pmu_hvc_cpu);

	h->in_irq = true;
	return armv8pmu_hvc_snapshot(h, true);
}

void armv8pmu_hvc_irq_end(void)
{
	struct armv8pmu_hvc_cpu *h = this_cpu_ptr(&armv8pmu_hvc_cpu);

	armv8pmu_hvc_flush(h);
	h->in_irq = false;
	if (!armv8pmu_hvc_snapshot_holds(h))
		h->cached = 0;
}

/*
 * perf_pmu_enable(): the framework starts the PMU only when counters are
 * in use; whatever was queued meanwhile (a disable of the last counter)
 * is sent here either way.
 */
static void (*armv8pmu_framework_pmu_enable)(struct pmu *pmu);

static void armv8pmu_hvc_pmu_enable(struct pmu *pmu)
{
	unsigned long flags;

	armv8pmu_framework_pmu_enable(pmu);
	local_irq_save(flags);
	armv8pmu_hvc_flush(this_cpu_ptr(&armv8pmu_hvc_cpu));
	local_irq_restore(flags);
}

/*
 * Transactions: a group read takes every counter in one call; adding a
 * group keeps the PMU disabled throughout, as the core's own does.
 */
static void armv8pmu_hvc_start_txn(struct pmu *pmu, unsigned int flags)
{
	struct armv8pmu_hvc_cpu *h = this_cpu_ptr(&armv8pmu_hvc_cpu);

	h->txn = flags;
	if (flags & PERF_PMU_TXN_ADD)
		perf_pmu_disable(pmu);
}

static void armv8pmu_hvc_end_txn(struct pmu *pmu)
{
	struct armv8pmu_hvc_cpu *h = this_cpu_ptr(&armv8pmu_hvc_cpu);
	unsigned int flags = h->txn;

	h->txn = 0;
	if (!h->stopped)
		h->cached = 0;
	if (flags & PERF_PMU_TXN_ADD)
		perf_pmu_enable(pmu);
}

static int armv8pmu_hvc_commit_txn(struct pmu *pmu)
{
	armv8pmu_hvc_end_txn(pmu);
	return 0;
}

/* One batch page per CPU, handed to the host by its guest physical address. */
static int armv8pmu_hvc_alloc(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		void *page = (void *)get_zeroed_page(GFP_KERNEL);

		if (!page)
			return -ENOMEM;
		per_cpu(armv8pmu_hvc_cpu, cpu).ops = page;
	}
	return 0;
}

/*
 * Whether the host offers every call and VERSION answers with a version
 * (in @res, for the caller to check its number).
 */
static bool armv8pmu_hvc_offered(struct arm_smccc_res *res)
{
	static const u32 funcs[] = {
		ARM_SMCCC_KVM_FUNC_PERFREG_VERSION, ARM_SMCCC_KVM_FUNC_PERFREG_GET,
		ARM_SMCCC_KVM_FUNC_PERFREG_SET, ARM_SMCCC_KVM_FUNC_PERFREG_BATCH,
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(funcs); i++)
		if (!kvm_arm_hyp_service_available(funcs[i]))
			return false;
	arm_smccc_1_1_invoke(ARM_SMCCC_VENDOR_HYP_KVM_PERFREG_FUNC_ID(VERSION), res);
	return (long)res->a0 >= 0;
}

/*
 * In a KVM guest (the driver calls this only there), at probe: use the
 * service if the host offers it at version 1.1 or a later 1.x (batches
 * carried out in part, which the driver resumes), the boot parameter
 * allows it, and the PMU interrupt is not a pseudo-NMI (an NMI could
 * land in the middle of a batch being queued).  dmesg says which way
 * the driver goes.
 */
void armv8pmu_hvc_init(struct arm_pmu *cpu_pmu)
{
	struct arm_smccc_res res;

	if (!armv8pmu_perfreg) {
		pr_info("%s: KVM perf-register service: off (arm_pmuv3.perfreg=0), registers trapped\n",
			cpu_pmu->name);
		return;
	}
	if (!armv8pmu_hvc_offered(&res)) {
		pr_info("%s: KVM perf-register service: not offered, registers trapped\n",
			cpu_pmu->name);
		return;
	}
	if (!armv8pmu_hvc_version_ok(res.a0)) {
		pr_info("%s: KVM perf-register service %lu.%lu: not 1.1 or a later 1.x, registers trapped\n",
			cpu_pmu->name,
			FIELD_GET(KVM_PERFREG_VERSION_MAJOR_MASK, res.a0),
			FIELD_GET(KVM_PERFREG_VERSION_MINOR_MASK, res.a0));
		return;
	}
	if (res.a1 & KVM_PERFREG_IDS_DIRECT) {
		pr_info("%s: KVM perf-register service %lu.%lu: direct PMU, its registers used directly\n",
			cpu_pmu->name,
			FIELD_GET(KVM_PERFREG_VERSION_MAJOR_MASK, res.a0),
			FIELD_GET(KVM_PERFREG_VERSION_MINOR_MASK, res.a0));
		return;
	}
	if (system_uses_irq_prio_masking() || armv8pmu_hvc_alloc()) {
		pr_info("%s: KVM perf-register service: not used (pseudo-NMI, or no memory), registers trapped\n",
			cpu_pmu->name);
		return;
	}
	armv8pmu_hvc_pmu = cpu_pmu;
	armv8pmu_framework_pmu_enable = cpu_pmu->pmu.pmu_enable;
	cpu_pmu->pmu.pmu_enable = armv8pmu_hvc_pmu_enable;
	cpu_pmu->pmu.start_txn = armv8pmu_hvc_start_txn;
	cpu_pmu->pmu.commit_txn = armv8pmu_hvc_commit_txn;
	cpu_pmu->pmu.cancel_txn = armv8pmu_hvc_end_txn;
	static_branch_enable(&armv8pmu_hvc_key);
	pr_info("%s: KVM perf-register service %lu.%lu: %lu registers, batches of up to %lu, %lu work units a call\n",
		cpu_pmu->name,
		FIELD_GET(KVM_PERFREG_VERSION_MAJOR_MASK, res.a0),
		FIELD_GET(KVM_PERFREG_VERSION_MINOR_MASK, res.a0),
		res.a1 & KVM_PERFREG_IDS_NR, res.a2, res.a3);
}

/* PMCR_EL0 as the driver last wrote it, less P and C. */
u64 armv8pmu_hvc_pmcr(void)
{
	return this_cpu_ptr(&armv8pmu_hvc_cpu)->pmcr;
}

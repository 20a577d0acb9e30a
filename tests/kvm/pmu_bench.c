// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmu_bench - the figures of `make bench`, counted by the PMU itself
 *
 * Usage: pmu_bench vhe|nvhe|protected[-up]  (the boot's mode)
 *        pmu_bench loop none|trapped|direct[-read] ROUNDS [L1]  (for a profiler)
 *        pmu_bench runs vhe|nvhe|protected[-up] none|trapped|direct [REPEATS]
 *                                                   (every run's figure)
 *
 * Prints "BENCH <name> <value>" lines:
 *
 *  partition_<hv|nohv>: |all - (host-only + guest-only)| instructions per
 *      1,000 guest entries, for a grouped set of events counting EL2
 *      (!exclude_hv) or not, over 1,000 in-kernel hypercalls.
 *  guest_missed_<hv|nohv>, host_leaked_<hv|nohv>: of 2,000,000 more guest
 *      instructions (longer EL1 loops), how many the guest-only event
 *      misses and how many the host-only event counts.
 *  switch_<host|guest>_<K>: instructions per guest exit+entry spent in the
 *      hypervisor (EL2 on nVHE/protected) or in the host kernel (VHE),
 *      with K host-only (!exclude_hv) or guest-only events needing
 *      switching.  Taken as the difference between runs of 120 and 20
 *      hypercalls divided by 100, so fixed costs cancel; each run is
 *      the least of five, which drops runs a host interrupt landed in.
 *      That needs runs shorter than a timer tick (4 ms at HZ=250):
 *      runs of 600 in protected mode, whose exit+entry is about 13,000
 *      instructions, took 8 ms.  The VM's first round is not counted
 *      (warm_up()).
 *  loadput_<K>: the same per KVM_RUN (the guest exits to user space every
 *      round, so each round is one vcpu_load and vcpu_put), with K
 *      host-only events needing switching.
 *  exitentry_<K>: the whole guest exit+entry, host kernel and EL2
 *      together (and the guest's few EL1 instructions of each round,
 *      the same on every kernel), with K host-only (!exclude_hv) events
 *      needing switching.
 *  batch_worst: the whole host work (host kernel and EL2, as exitentry)
 *      of one perf-register BATCH call at its worst: a list of 256
 *      writes of PMCR_EL0 with P and C, each of which releases and
 *      re-creates the host perf event of every counter of the vPMU (N
 *      event counters programmed and enabled, and the cycle counter,
 *      with the PMU stopped), sent without PARTIAL so that the call
 *      stops only at the work budget; the difference between runs of 4
 *      and 1 such calls divided by 3, each run the least of five (timer
 *      interrupts that land in a call count with it).
 *  batch_worst_done: how many of the 256 entries that call carried out
 *      (1024 / (N + 1): the budget).
 *  batch_one: the same for a BATCH of one read of PMCR_EL0 (120 calls
 *      against 20), to compare: the exit+entry and the call around it.
 *  The batch rows are printed only where the host grants the service
 *  (not on a stock kernel, which has none).
 *  direct_switch_<K>, direct_exitentry_<K>: switch_host_<K> and
 *      exitentry_<K> for a VM whose vCPU has the direct guest PMU
 *      (KVM_ARM_VCPU_PMU_V3_DIRECT, the default share), K = 0 or 1; the
 *      rows without the prefix are the same VM without a PMU, so the
 *      difference is what the direct PMU costs an exit+entry; printed
 *      only where the host offers the direct PMU.
 *  vpmu_switch_<K>, vpmu_exitentry_<K>: the same for the trapped vPMU,
 *      so that direct - vpmu is the partition's own price; printed
 *      wherever KVM offers a vPMU (the stock kernel too).
 *
 * The measuring event never needs switching itself: on VHE it counts
 * EL2 with exclude_user and exclude_guest; on nVHE and protected it
 * counts EL2 in both contexts (exclude_user, exclude_kernel); for the
 * whole exit+entry and the batch rows it counts everything but EL0, in
 * both contexts.
 */
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kvm_util.h"
#include "processor.h"
#include "test_util.h"
#include "ucall_common.h"

#include "guest_loops.h"
#include "perfreg.h"
#include "vpmu_vm.h"

#define SMCCC_VERSION	0x80000000
#define FEW		20
#define MANY		120
#define MAX_SWITCHING	6
#define REPEATS		5
/* Worst-case BATCH calls in the two runs: each replaces ~1,024 host events. */
#define WORST_FEW	1
#define WORST_MANY	4
#define WORST_ENTRIES	256

static bool vhe;
/*
 * Measure the whole exit+entry: host kernel, EL2 and the guest's EL1 (the
 * exitentry and batch rows).
 */
static bool whole;
/* The VM's vCPU has a vPMU: 0 none, else trapped or direct (the vpmu and direct rows). */
static enum { PMU_NONE, PMU_TRAPPED, PMU_DIRECT } vm_pmu;

/* How guest_code() ends a round: an in-kernel hypercall, an exit to user space, a PMU read. */
enum { ROUND_HVC, ROUND_USER, ROUND_PMU_READ };

/* guest_code()'s stop after its first round: see warm_up(). */
#define WARM	1

static void round_of(uint64_t how, uint64_t l1)
{
	struct arm_smccc_res res;

	el1_loop(l1);
	if (how == ROUND_USER)
		GUEST_SYNC(0);
	else if (how == ROUND_PMU_READ)
		(void)read_sysreg(pmevcntr0_el0);
	else
		smccc_hvc(SMCCC_VERSION, 0, 0, 0, 0, 0, 0, 0, &res);
}

/* A first round and a stop, then @rounds rounds. */
static void guest_code(uint64_t rounds, uint64_t how, uint64_t l1)
{
	round_of(how, l1);
	GUEST_SYNC(WARM);
	while (rounds--)
		round_of(how, l1);
	GUEST_DONE();
}

/* The guest's last BATCH answer (a0 status, a1 failed, a2 carried out). */
static struct arm_smccc_res batch_res;

/*
 * @calls BATCH calls of @nr entries from the page at @gva (guest physical
 * @gpa): @nr writes of PMCR_EL0 with P and C, or one read of it.  Every
 * counter is first given a host perf event to replace -- the N event
 * counters count INST_RETIRED (type 0, SW_INCR, has none), the cycle
 * counter has its filter written, all are enabled in PMCNTENSET -- and
 * the PMU is stopped (PMCR_EL0.E clear): a running counter's reset
 * restarts its event in place (glue 0008), a stopped one's releases it
 * and creates another, the dearer path.
 */
static void guest_batches(uint64_t gva, uint64_t gpa, uint64_t calls,
			  uint64_t nr)
{
	struct perfreg_op *ops = (void *)gva;
	uint64_t n = nr_counters(), enable = BIT(CYCLE), i;
	struct arm_smccc_res res;

	ops[0] = (struct perfreg_op){ .id = ID_PMCR, .op = OP_WRITE };
	for (i = 0; i < n; i++) {
		ops[1 + i] = (struct perfreg_op){ .id = ID_TYPER(i),
			.op = OP_WRITE, .value = INST_RETIRED };
		enable |= BIT(i);
	}
	ops[1 + n] = (struct perfreg_op){ .id = ID_TYPER(CYCLE), .op = OP_WRITE };
	ops[2 + n] = (struct perfreg_op){ .id = ID_PMCNTENSET, .op = OP_WRITE,
					  .value = enable };
	smccc_hvc(BATCH, gpa, 3 + n, 0, 0, 0, 0, 0, &res);
	__GUEST_ASSERT(res.a0 == ST_OK && !res.a1,
		       "programming %lu counters: status %ld, %lu failed",
		       n, (long)res.a0, res.a1);

	for (i = 0; i < nr; i++)
		ops[i] = (struct perfreg_op){ .id = ID_PMCR,
			.op = nr > 1 ? OP_WRITE : OP_READ,
			.value = nr > 1 ? PMCR_P | PMCR_C : 0 };
	while (calls--)
		smccc_hvc(BATCH, gpa, nr, 0, 0, 0, 0, 0, &batch_res);
	GUEST_DONE();
}

static int perf_open(struct perf_event_attr *attr, int group)
{
	attr->size = sizeof(*attr);
	attr->disabled = group < 0;
	return syscall(__NR_perf_event_open, attr, 0, -1, group, 0);
}

/* Counts the hypervisor or host kernel, identically in both contexts. */
static struct perf_event_attr measuring_attr(void)
{
	return (struct perf_event_attr) {
		.type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_INSTRUCTIONS,
		.exclude_user = 1, .exclude_kernel = !vhe && !whole,
		.exclude_guest = vhe && !whole,
	};
}

/* The k-th event that needs switching: instructions, the 6th cycles. */
static struct perf_event_attr switching_attr(int k, bool host_only)
{
	return (struct perf_event_attr) {
		.type = PERF_TYPE_HARDWARE,
		.config = k < 5 ? PERF_COUNT_HW_INSTRUCTIONS :
				  PERF_COUNT_HW_CPU_CYCLES,
		.exclude_guest = host_only, .exclude_host = !host_only,
	};
}

/*
 * Run @vcpu to its end, or with @to_warm only to guest_code()'s WARM
 * stop (warm_up()).
 */
static void run_guest_to(struct kvm_vcpu *vcpu, bool to_warm)
{
	struct ucall uc;

	for (;;) {
		vcpu_run(vcpu);
		switch (get_ucall(vcpu, &uc)) {
		case UCALL_SYNC:
			if (to_warm && uc.args[1] == WARM)
				return;
			continue;
		case UCALL_DONE:
			TEST_ASSERT(!to_warm, "the guest ended before its first round's end");
			return;
		case UCALL_ABORT:
			REPORT_GUEST_ASSERT(uc);
			return;
		default:
			TEST_FAIL("unexpected exit");
		}
	}
}

static void run_guest(struct kvm_vcpu *vcpu)
{
	run_guest_to(vcpu, false);
}

/*
 * A figure per round: the difference between runs of @few and @many
 * rounds, each the least of REPEATS, over @many - @few.  A round is the
 * guest's hypercall, or its exit to user space (@to_user), with @k
 * host-only (@host_only) or guest-only events that need switching; or,
 * with @batch entries, one BATCH call of that many (guest_batches()),
 * and then @done says how many entries each call carried out.
 */
struct run {
	uint64_t few, many;
	bool to_user;
	int k;
	bool host_only;
	uint64_t batch;
	uint64_t done;
};

/*
 * Instructions of the measuring event over one run of @vcpu, with @k
 * events that need switching in its group.
 */
static uint64_t counted_run(struct kvm_vcpu *vcpu, int k, bool host_only)
{
	struct perf_event_attr attr = measuring_attr();
	uint64_t buf[2 + MAX_SWITCHING];
	int fds[1 + MAX_SWITCHING];
	int i;

	attr.read_format = PERF_FORMAT_GROUP;
	fds[0] = perf_open(&attr, -1);
	__TEST_REQUIRE(fds[0] >= 0, "perf_event_open: %s", strerror(errno));
	for (i = 1; i <= k; i++) {
		attr = switching_attr(i - 1, host_only);
		attr.read_format = PERF_FORMAT_GROUP;
		fds[i] = perf_open(&attr, fds[0]);
		TEST_ASSERT(fds[i] >= 0, "switching event %d: %s", i,
			    strerror(errno));
	}

	ioctl(fds[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	run_guest(vcpu);
	ioctl(fds[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	TEST_ASSERT(read(fds[0], buf, sizeof(buf)) > 0, "read");

	for (i = k; i >= 0; i--)
		close(fds[i]);
	return buf[1];
}

/* KVM_REG_ARM_VENDOR_HYP_BMAP_2 with every call of the service: 0 or -1. */
static int grant_service(struct kvm_vcpu *vcpu)
{
	return __vcpu_set_reg(vcpu, KVM_REG_ARM_VENDOR_HYP_BMAP_2, ALL);
}

/*
 * KVM_ARM_VCPU_PMU_V3_DIRECT set to 1: 0, or -1 with errno set (ENXIO
 * where the UAPI header has no such attribute: 6.12).
 */
static int direct_set(struct kvm_vcpu *vcpu)
{
#ifdef KVM_ARM_VCPU_PMU_V3_DIRECT
	int one = 1;

	return __vcpu_device_attr_set(vcpu, KVM_ARM_VCPU_PMU_V3_CTRL,
				      KVM_ARM_VCPU_PMU_V3_DIRECT, &one);
#else
	errno = ENXIO;
	return -1;
#endif
}

/* A VM for guest_code() whose vCPU has a vPMU of vm_pmu's kind (@gic: -1 if none). */
static struct kvm_vcpu *bench_vm(struct kvm_vm **vm, int *gic)
{
	struct kvm_vcpu *vcpu;

	*gic = -1;
	if (vm_pmu == PMU_NONE) {
		*vm = vm_create_with_one_vcpu(&vcpu, guest_code);
		guest_loops_setup(*vm, vcpu);
		return vcpu;
	}
	*vm = vm_create(1);
	vcpu = add_vpmu_vcpu(*vm, guest_code, gic);
	TEST_ASSERT((vm_pmu == PMU_TRAPPED || !direct_set(vcpu)) && !vpmu_init(vcpu),
		    "a vCPU with a vPMU: %s", strerror(errno));
	return vcpu;
}

/*
 * Run @vcpu up to guest_code()'s WARM stop, uncounted: the VM's first
 * KVM_RUN (in protected mode the hypervisor's VM and vCPU, a vPMU's
 * vGIC) and the stage-2 faults of every page a round touches.  Counted,
 * these first-time costs moved by hundreds to thousands of instructions
 * between runs of the same VM in protected mode, more than the few
 * against many rounds could cancel.
 */
static void warm_up(struct kvm_vcpu *vcpu)
{
	run_guest_to(vcpu, true);
}

/* Instructions of the measuring event over @rounds of guest_code(). */
static uint64_t measure_rounds(uint64_t rounds, struct run *r)
{
	struct kvm_vcpu *vcpu;
	struct kvm_vm *vm;
	uint64_t count;
	int gic;

	vcpu = bench_vm(&vm, &gic);
	vcpu_args_set(vcpu, 3, rounds, r->to_user, 1);
	warm_up(vcpu);
	count = counted_run(vcpu, r->k, r->host_only);
	if (gic >= 0)
		close(gic);
	kvm_vm_free(vm);
	return count;
}

/* The VM kinds of the loop and runs commands: its vPMU, and how a round ends. */
static const struct { const char *name; int pmu, how; } kinds[] = {
	{ "none", PMU_NONE, ROUND_HVC },
	{ "trapped", PMU_TRAPPED, ROUND_HVC },
	{ "direct", PMU_DIRECT, ROUND_HVC },
	{ "trapped-read", PMU_TRAPPED, ROUND_PMU_READ },
	{ "direct-read", PMU_DIRECT, ROUND_PMU_READ },
};

/* kinds[]' entry named @name, or ARRAY_SIZE(kinds). */
static size_t kind_of(const char *name)
{
	size_t k;

	for (k = 0; k < ARRAY_SIZE(kinds) && strcmp(name, kinds[k].name); k++)
		;
	return k;
}

/*
 * pmu_bench loop none|trapped|direct[-read] ROUNDS [L1]: only the
 * guest's rounds of hypercalls, uncounted, for a profiler (perf stat,
 * perf record) to look at where an exit+entry's host instructions go;
 * with -read a round reads PMEVCNTR0_EL0 instead (a trapped vPMU: an
 * exit; a direct one: none, or under the guarded profile the EL2 fast
 * path).  Each round's EL1 loop is L1 iterations (default 1): a long
 * one gives a host sampling the guest (cycles:G) long guest stints.
 */
static int loop_only(const char *kind, const char *rounds, const char *l1)
{
	size_t k = kind_of(kind);
	struct kvm_vcpu *vcpu;
	struct kvm_vm *vm;
	uint64_t n1;
	int gic;

	if (k == ARRAY_SIZE(kinds))
		TEST_FAIL("loop: none, trapped[-read] or direct[-read], not %s", kind);
	n1 = l1 ? strtoull(l1, NULL, 0) : 1;
	/* el1_loop(0) would spin 2^64 times. */
	TEST_ASSERT(n1 >= 1, "loop: L1 must be at least 1, not %s", l1);
	vm_pmu = kinds[k].pmu;
	vcpu = bench_vm(&vm, &gic);
	vcpu_args_set(vcpu, 3, strtoull(rounds, NULL, 0), kinds[k].how, n1);
	run_guest(vcpu);
	if (gic >= 0)
		close(gic);
	kvm_vm_free(vm);
	return 0;
}

/*
 * pmu_bench runs MODE none|trapped|direct [REPEATS]: every run behind the
 * switch_host_0 and exitentry_0 rows of a VM with that vPMU, REPEATS
 * (default 10) runs of FEW and of MANY rounds each, one line a run:
 * "RUN <switch|exitentry> <rounds> <instructions>".  The rows take the
 * least of REPEATS; this shows how far the others lie from it (it found
 * the first-run work warm_up() now leaves out).
 */
static void print_runs(uint64_t rounds, uint64_t n)
{
	struct run r = { .host_only = true };

	while (n--)
		printf("RUN %s %lu %lu\n", whole ? "exitentry" : "switch",
		       rounds, measure_rounds(rounds, &r));
}

static int runs_only(const char *kind, const char *repeats)
{
	size_t k = kind_of(kind);
	uint64_t n;
	int w;

	/* The rows measure hypercall rounds: no -read kind. */
	if (k == ARRAY_SIZE(kinds) || kinds[k].how != ROUND_HVC)
		TEST_FAIL("runs: none, trapped or direct, not %s", kind);
	n = repeats ? strtoull(repeats, NULL, 0) : 10;
	TEST_ASSERT(n >= 1, "runs: REPEATS must be at least 1, not %s", repeats);
	vm_pmu = kinds[k].pmu;
	for (w = 0; w < 2; w++) {
		whole = w;
		print_runs(FEW, n);
		print_runs(MANY, n);
	}
	return 0;
}

/*
 * Instructions of the measuring event over @calls BATCH calls of
 * guest_batches(), in a VM granted the service.  A call of a list longer
 * than the budget covers answers INVALID_PARAMETER (no PARTIAL); any
 * other answer than that or success, a failed entry, or a call that
 * carries out another number of entries than the runs before is an
 * error.
 */
static uint64_t measure_batches(uint64_t calls, struct run *r)
{
	struct arm_smccc_res *res = &batch_res;
	struct kvm_vcpu *vcpu;
	struct kvm_vm *vm;
	uint64_t gva, count;
	int gic;

	vm = vm_create(1);
	vcpu = create_vpmu_vcpu(vm, guest_batches, &gic);
	TEST_ASSERT(!grant_service(vcpu), "granting the service: %s", strerror(errno));
	gva = vm_alloc_page(vm);
	vcpu_args_set(vcpu, 4, gva, addr_gva2gpa(vm, gva), calls, r->batch);
	count = counted_run(vcpu, 0, false);
	sync_global_from_guest(vm, batch_res);
	close(gic);
	kvm_vm_free(vm);

	TEST_ASSERT(!res->a1 && res->a2 >= 1 && res->a2 <= r->batch &&
		    (long)res->a0 == (res->a2 < r->batch ? ST_INVALID : ST_OK),
		    "BATCH of %lu: status %ld, %lu failed, %lu carried out",
		    r->batch, (long)res->a0, res->a1, res->a2);
	TEST_ASSERT(!r->done || res->a2 == r->done,
		    "BATCH of %lu: %lu carried out, %lu in an earlier run",
		    r->batch, res->a2, r->done);
	r->done = res->a2;
	return count;
}

/*
 * A host interrupt during a run adds a whole exit and entry; the least of
 * a few runs is the run without one.
 */
static uint64_t least_of(uint64_t rounds, struct run *r)
{
	uint64_t least = UINT64_MAX;
	int i;

	for (i = 0; i < REPEATS; i++) {
		uint64_t v = r->batch ? measure_batches(rounds, r) :
					measure_rounds(rounds, r);

		if (v < least)
			least = v;
	}
	return least;
}

static double per_round_of(struct run *r)
{
	uint64_t few = least_of(r->few, r);
	uint64_t many = least_of(r->many, r);

	/* A filter that counts no EL here would report a free switch. */
	TEST_ASSERT(few > 0, "the measuring event counted nothing");
	return (double)(int64_t)(many - few) / (r->many - r->few);
}

static double per_round(bool to_user, int k, bool host_only)
{
	struct run r = { .few = FEW, .many = MANY, .to_user = to_user,
			 .k = k, .host_only = host_only };

	return per_round_of(&r);
}

struct split {
	uint64_t all, host, guest;
};

/* Grouped all/host-only/guest-only over 1,000 entries, EL1 loops of l1. */
static struct split measure_split(bool exclude_hv, uint64_t l1)
{
	uint64_t buf[4];
	struct kvm_vcpu *vcpu;
	struct kvm_vm *vm;
	int fds[3], s;

	vm = vm_create_with_one_vcpu(&vcpu, guest_code);
	guest_loops_setup(vm, vcpu);
	vcpu_args_set(vcpu, 3, 1000, 0, l1);
	warm_up(vcpu);
	for (s = 0; s < 3; s++) {
		struct perf_event_attr attr = {
			.type = PERF_TYPE_HARDWARE,
			.config = PERF_COUNT_HW_INSTRUCTIONS,
			.read_format = PERF_FORMAT_GROUP,
			.exclude_hv = exclude_hv,
			.exclude_guest = s == 1, .exclude_host = s == 2,
		};

		fds[s] = perf_open(&attr, s ? fds[0] : -1);
		TEST_ASSERT(fds[s] >= 0, "perf_event_open: %s", strerror(errno));
	}
	ioctl(fds[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	run_guest(vcpu);
	ioctl(fds[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	TEST_ASSERT(read(fds[0], buf, sizeof(buf)) == sizeof(buf), "read");
	for (s = 2; s >= 0; s--)
		close(fds[s]);
	kvm_vm_free(vm);
	return (struct split) { buf[1], buf[2], buf[3] };
}

/*
 * Partition error, and what each side makes of 1,000 more iterations of
 * the guest's EL1 loop per entry (2,000,000 instructions): guest-only
 * must see all of them, host-only none.
 */
static void partition(bool exclude_hv, const char *name)
{
	struct split a = measure_split(exclude_hv, 1);
	struct split b = measure_split(exclude_hv, 1001);

	printf("BENCH partition_%s %lld\n", name,
	       llabs((int64_t)(a.all - a.host - a.guest)));
	printf("BENCH guest_missed_%s %lld\n", name,
	       2000000LL - (int64_t)(b.guest - a.guest));
	printf("BENCH host_leaked_%s %lld\n", name, (long long)
	       (int64_t)(b.host - a.host));
}

/*
 * Whether a vCPU with a vPMU takes @set on this host (0): a stock kernel
 * has neither the perf-register service (it refuses the grant's bits in
 * KVM_REG_ARM_VENDOR_HYP_BMAP_2) nor the direct PMU (the attribute).
 */
static bool vpmu_vcpu_takes(int (*set)(struct kvm_vcpu *vcpu))
{
	struct kvm_vcpu *vcpu;
	struct kvm_vm *vm;
	int gic, ret;

	if (!kvm_has_cap(KVM_CAP_ARM_PMU_V3))
		return false;
	vm = vm_create(1);
	vcpu = add_vpmu_vcpu(vm, guest_code, &gic);
	ret = set(vcpu);
	close(gic);
	kvm_vm_free(vm);
	return !ret;
}

/* The world switch and the whole exit+entry of a VM with a vPMU of @kind. */
static void vpmu_rows(int kind, const char *name)
{
	static const int ks[] = { 0, 1 };	/* as the rows without a PMU */
	size_t i;

	vm_pmu = kind;
	for (i = 0; i < ARRAY_SIZE(ks); i++) {
		whole = false;
		printf("BENCH %s_switch_%d %.1f\n", name, ks[i], per_round(false, ks[i], true));
		whole = true;
		printf("BENCH %s_exitentry_%d %.1f\n", name, ks[i], per_round(false, ks[i], true));
	}
	vm_pmu = PMU_NONE;
	whole = false;
}

/*
 * A VM with the trapped vPMU (what any vPMU costs an exit, on either
 * kernel) and, where the host offers it, one with the direct PMU: the
 * partition's price is the difference between the two.
 */
static void direct_rows(void)
{
	if (!kvm_has_cap(KVM_CAP_ARM_PMU_V3)) {
		printf("pmu_bench: no vPMU here: no vpmu or direct rows\n");
		return;
	}
	vpmu_rows(PMU_TRAPPED, "vpmu");
	if (!vpmu_vcpu_takes(direct_set)) {
		printf("pmu_bench: no direct PMU here: no direct rows\n");
		return;
	}
	vpmu_rows(PMU_DIRECT, "direct");
}

/* One BATCH call at its worst, and one of a single read, to compare. */
static void batch_rows(void)
{
	struct run worst = { .few = WORST_FEW, .many = WORST_MANY,
			     .batch = WORST_ENTRIES };
	struct run one = { .few = FEW, .many = MANY, .batch = 1 };

	if (!vpmu_vcpu_takes(grant_service)) {
		printf("pmu_bench: no perf-register service here: no batch rows\n");
		return;
	}
	printf("BENCH batch_worst %.1f\n", per_round_of(&worst));
	printf("BENCH batch_worst_done %lu\n", worst.done);
	printf("BENCH batch_one %.1f\n", per_round_of(&one));
}

/* The boot's mode: vhe, nvhe or protected, each maybe with -up. */
static void set_mode(const char *mode)
{
	size_t len = strcspn(mode, "-");

	TEST_ASSERT(!mode[len] || !strcmp(mode + len, "-up"), "unknown mode %s", mode);
	vhe = len == 3 && !strncmp(mode, "vhe", 3);
	TEST_ASSERT(vhe || (len == 4 && !strncmp(mode, "nvhe", 4)) ||
		    (len == 9 && !strncmp(mode, "protected", 9)),
		    "unknown mode %s", mode);
}

int main(int argc, char **argv)
{
	static const int ks[] = { 0, 1, 4, MAX_SWITCHING };
	int i;

	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "loop"))
		return loop_only(argv[2], argv[3], argc == 5 ? argv[4] : NULL);
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "runs")) {
		set_mode(argv[2]);
		return runs_only(argv[3], argc == 5 ? argv[4] : NULL);
	}
	TEST_ASSERT(argc == 2,
		    "usage: pmu_bench MODE | loop none|trapped|direct[-read] ROUNDS [L1] | runs MODE none|trapped|direct [REPEATS]; MODE: vhe|nvhe|protected[-up]");
	set_mode(argv[1]);

	partition(true, "nohv");
	partition(false, "hv");
	for (i = 0; i < ARRAY_SIZE(ks); i++) {
		printf("BENCH switch_host_%d %.1f\n", ks[i], per_round(false, ks[i], true));
		printf("BENCH switch_guest_%d %.1f\n", ks[i], per_round(false, ks[i], false));
		printf("BENCH loadput_%d %.1f\n", ks[i], per_round(true, ks[i], true));
	}
	whole = true;
	for (i = 0; i < ARRAY_SIZE(ks); i++)
		printf("BENCH exitentry_%d %.1f\n", ks[i], per_round(false, ks[i], true));
	batch_rows();
	direct_rows();
	return 0;
}

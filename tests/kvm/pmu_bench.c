// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmu_bench - the figures of `make bench`, counted by the PMU itself
 *
 * Usage: pmu_bench vhe|nvhe|protected[-up]  (the boot's mode)
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
 *      switching.  Taken as the difference between runs of 600 and 100
 *      hypercalls divided by 500, so fixed costs cancel; each run is
 *      the least of five, which drops runs a host interrupt landed in.
 *  loadput_<K>: the same per KVM_RUN (the guest exits to user space every
 *      round, so each round is one vcpu_load and vcpu_put), with K
 *      host-only events needing switching.
 *  exitentry_<K>: the whole guest exit+entry, host kernel and EL2
 *      together (and the guest's few EL1 instructions of each round,
 *      the same on every kernel), with K host-only (!exclude_hv) events
 *      needing switching.
 *
 * The measuring event never needs switching itself: on VHE it counts
 * EL2 with exclude_user and exclude_guest; on nVHE and protected it
 * counts EL2 in both contexts (exclude_user, exclude_kernel); for the
 * whole exit+entry it counts everything but EL0, in both contexts.
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

#define SMCCC_VERSION	0x80000000
#define FEW		100
#define MANY		600
#define MAX_SWITCHING	6
#define REPEATS		5

static bool vhe;
/* Measure the whole exit+entry: host kernel, EL2 and the guest's EL1. */
static bool whole;

static void guest_code(uint64_t rounds, uint64_t to_user, uint64_t l1)
{
	struct arm_smccc_res res;

	while (rounds--) {
		el1_loop(l1);
		if (to_user)
			GUEST_SYNC(0);
		else
			smccc_hvc(SMCCC_VERSION, 0, 0, 0, 0, 0, 0, 0, &res);
	}
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

static void run_guest(struct kvm_vcpu *vcpu)
{
	struct ucall uc;

	for (;;) {
		vcpu_run(vcpu);
		switch (get_ucall(vcpu, &uc)) {
		case UCALL_SYNC:
			continue;
		case UCALL_DONE:
			return;
		case UCALL_ABORT:
			REPORT_GUEST_ASSERT(uc);
			return;
		default:
			TEST_FAIL("unexpected exit");
		}
	}
}

/* Instructions of the measuring event over one guest run. */
static uint64_t measure(uint64_t rounds, bool to_user, int k, bool host_only)
{
	struct perf_event_attr attr = measuring_attr();
	uint64_t buf[2 + MAX_SWITCHING];
	int fds[1 + MAX_SWITCHING];
	struct kvm_vcpu *vcpu;
	struct kvm_vm *vm;
	int i;

	vm = vm_create_with_one_vcpu(&vcpu, guest_code);
	guest_loops_setup(vm, vcpu);
	vcpu_args_set(vcpu, 3, rounds, to_user, 1);

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
	kvm_vm_free(vm);
	return buf[1];
}

/*
 * A host interrupt during a run adds a whole exit and entry; the least of
 * a few runs is the run without one.
 */
static uint64_t least_of(uint64_t rounds, bool to_user, int k, bool host_only)
{
	uint64_t least = UINT64_MAX;
	int i;

	for (i = 0; i < REPEATS; i++) {
		uint64_t v = measure(rounds, to_user, k, host_only);

		if (v < least)
			least = v;
	}
	return least;
}

static double per_round(bool to_user, int k, bool host_only)
{
	uint64_t few = least_of(FEW, to_user, k, host_only);
	uint64_t many = least_of(MANY, to_user, k, host_only);

	/* A filter that counts no EL here would report a free switch. */
	TEST_ASSERT(few > 0, "the measuring event counted nothing");
	return (double)(int64_t)(many - few) / (MANY - FEW);
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

int main(int argc, char **argv)
{
	static const int ks[] = { 0, 1, 4, MAX_SWITCHING };
	size_t len;
	int i;

	/* The boot's mode: vhe, nvhe or protected, each maybe with -up. */
	TEST_ASSERT(argc == 2, "usage: pmu_bench vhe|nvhe|protected[-up]");
	len = strcspn(argv[1], "-");
	TEST_ASSERT(!argv[1][len] || !strcmp(argv[1] + len, "-up"),
		    "unknown mode %s", argv[1]);
	vhe = len == 3 && !strncmp(argv[1], "vhe", 3);
	TEST_ASSERT(vhe || (len == 4 && !strncmp(argv[1], "nvhe", 4)) ||
		    (len == 9 && !strncmp(argv[1], "protected", 9)),
		    "unknown mode %s", argv[1]);

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
	return 0;
}

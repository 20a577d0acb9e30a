// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmu_split - host/guest split of perf counts around a KVM guest
 *
 * The guest runs ROUNDS rounds of: a loop of N1 iterations at EL1, a loop
 * of N0 iterations at EL0, and an in-kernel hypercall (SMCCC_VERSION), so
 * it exits to the host ROUNDS times without leaving the kernel.  Each loop
 * iteration is two instructions.
 *
 * On the vCPU thread the host opens, as groups (enabled together, so
 * there is no skew between them), instruction events with no exclusion,
 * with exclude_guest (host-only) and with exclude_host (guest-only), each
 * also with exclude_user, exclude_kernel and exclude_hv.  It checks:
 *
 *  - all = host-only + guest-only, to the instruction, for every variant;
 *  - guest-only EL0 counts are exactly the EL0 loops (plus one SVC each);
 *  - guest-only EL1 counts cover the EL1 loops, with a fixed per-round
 *    cost that is reported;
 *  - host-only counts do not grow when the guest loops do;
 *  - the same split for CPU cycles.
 *
 * Every figure is printed.  Built on the KVM selftests library; needs an
 * arm64 KVM host with a PMUv3 perf driver.
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
#include "pmu_test.h"

#define ARMV8_CPU_CYCLES	0x11
/* Guest EL1 instructions a round beyond the loop: call, hypercall, SVC. */
#define GUEST_EL1_COST		200

static uint64_t rounds = 1000, n1 = 1000, n0 = 1000;

/* ---- guest ---------------------------------------------------------------- */

/* ---- host ----------------------------------------------------------------- */

enum { ALL, HOST, GUEST };
static const char *const side_name[] = { "all", "host-only", "guest-only" };

struct variant {
	const char *name;
	bool xu, xk, xhv;
};

static const struct variant variants[] = {
	{ "-" }, { "exclude_user", .xu = true },
	{ "exclude_kernel", .xk = true }, { "exclude_hv", .xhv = true },
};

struct counts {
	uint64_t v[3];		/* ALL, HOST, GUEST */
};

static int perf_open(uint32_t type, uint64_t config, const struct variant *v,
		     int side, int group)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr), .type = type, .config = config,
		.disabled = group < 0, .read_format = PERF_FORMAT_GROUP,
		.exclude_user = v->xu, .exclude_kernel = v->xk,
		.exclude_hv = v->xhv,
		.exclude_host = side == GUEST, .exclude_guest = side == HOST,
	};
	int fd = syscall(__NR_perf_event_open, &attr, 0, -1, group, 0);

	__TEST_REQUIRE(fd >= 0 || group >= 0,
		       "perf_event_open(%u, %#lx): %s", type, config,
		       strerror(errno));
	TEST_ASSERT(fd >= 0, "perf_event_open(%u, %#lx, group): %s", type,
		    config, strerror(errno));
	return fd;
}

static struct kvm_vm *create_vm(struct kvm_vcpu **vcpu, uint64_t l1)
{
	struct kvm_vm *vm = vm_create_with_one_vcpu(vcpu, guest_rounds);

	guest_loops_setup(vm, *vcpu);
	vcpu_args_set(*vcpu, 3, rounds, l1, n0);
	return vm;
}

static void run_guest(struct kvm_vcpu *vcpu)
{
	struct ucall uc;

	run_until(vcpu, UCALL_DONE, &uc);
}

/*
 * Run the guest once with a group of (all, host-only, guest-only) events
 * per variant, enabled and disabled together around KVM_RUN.
 */
static void measure(uint32_t type, uint64_t config, const struct variant *vs,
		    int nr, uint64_t l1, struct counts *out)
{
	uint64_t buf[1 + 3 * 4];
	struct kvm_vcpu *vcpu;
	struct kvm_vm *vm = create_vm(&vcpu, l1);
	int leader, fds[3 * 4];
	int i, s;

	TEST_ASSERT(nr * 3 <= 6, "at most 6 counters in a group");
	for (i = 0; i < nr; i++)
		for (s = ALL; s <= GUEST; s++)
			fds[i * 3 + s] = perf_open(type, config, &vs[i], s,
						   i + s ? fds[0] : -1);
	leader = fds[0];

	ioctl(leader, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
	ioctl(leader, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	run_guest(vcpu);
	ioctl(leader, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);

	TEST_ASSERT(read(leader, buf, sizeof(buf)) > 0, "read group");
	TEST_ASSERT(buf[0] == (uint64_t)nr * 3, "group of %lu", buf[0]);
	for (i = 0; i < nr; i++)
		for (s = ALL; s <= GUEST; s++)
			out[i].v[s] = buf[1 + i * 3 + s];

	for (i = nr * 3 - 1; i >= 0; i--)
		close(fds[i]);
	kvm_vm_free(vm);
}

static void print_counts(const char *event, const struct variant *v,
			 const struct counts *c)
{
	printf("  %-12s %-15s", event, v->name);
	for (int s = ALL; s <= GUEST; s++)
		printf(" %s=%lu", side_name[s], c->v[s]);
	printf("\n");
}

static void check_partition(const char *event, const struct variant *v,
			    const struct counts *c)
{
	int64_t diff = c->v[ALL] - c->v[HOST] - c->v[GUEST];
	char what[64];

	snprintf(what, sizeof(what), "partition %s %s", event, v->name);
	check(diff == 0, what, "all - host - guest = %ld (per entry %.3f)",
	      diff, (double)diff / rounds);
}

/* "pmu_split run": the guest alone, for perf stat to measure. */
static int run_only(void)
{
	struct kvm_vcpu *vcpu;
	struct kvm_vm *vm = create_vm(&vcpu, n1);

	run_guest(vcpu);
	kvm_vm_free(vm);
	return 0;
}

int main(int argc, char **argv)
{
	struct counts insn[4], again[1], cyc[1];
	uint64_t el0_expect = rounds * (2 * n0 + 1);
	uint64_t el1_loops = rounds * 2 * n1;
	int64_t host_growth, growth;
	uint64_t el0_slack, el1_slack;
	int i;

	TEST_REQUIRE(kvm_has_cap(KVM_CAP_ARM_PSCI_0_2));
	if (argc > 1 && !strcmp(argv[1], "run"))
		return run_only();

	plan(11);	/* 6 partitions, 5 figures */
	printf("pmu_split: %lu rounds of EL1 loop %lu, EL0 loop %lu, hypercall\n",
	       rounds, n1, n0);
	measure(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, &variants[0], 2,
		n1, &insn[0]);
	measure(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, &variants[2], 2,
		n1, &insn[2]);
	measure(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, &variants[0], 1,
		2 * n1, &again[0]);
	measure(PERF_TYPE_RAW, ARMV8_CPU_CYCLES, &variants[0], 1, n1, &cyc[0]);

	for (i = 0; i < 4; i++)
		print_counts("instructions", &variants[i], &insn[i]);
	print_counts("instructions", &variants[0], &again[0]);
	printf("  (the line above: EL1 loops twice as long)\n");
	print_counts("cycles", &variants[0], &cyc[0]);

	for (i = 0; i < 4; i++)
		check_partition("instructions", &variants[i], &insn[i]);
	check_partition("instructions(2xEL1)", &variants[0], &again[0]);
	check_partition("cycles", &variants[0], &cyc[0]);

	/*
	 * Exact with one CPU online.  With two, the other vCPU's work lands
	 * in this vCPU's guest-only counter while the guest runs
	 * (qemu_slack()).  0.5% holds for EL0's short stays; the EL1 growth,
	 * taken across two runs, has missed it: +250,173 of 2,000,000 in a
	 * protected boot with a build beside it, and CI's two-CPU nVHE boot.
	 * Half the loop still tells a guest that stopped counting EL1, or
	 * counted it twice, from one that counts it: either is off by all of
	 * it.  The exact figure comes from the one-CPU boots.
	 */
	el0_slack = qemu_slack(el0_expect / 200);
	el1_slack = qemu_slack(el1_loops / 2 - 1);
	/* EL0 is only the guest's loop here, one SVC per round. */
	check(insn[2].v[GUEST] >= el0_expect &&
	      insn[2].v[GUEST] - el0_expect <= el0_slack,
	      "guest EL0 matches loops",
	      "guest-only exclude_kernel = %lu, expected %lu (+%lu, slack %lu)",
	      insn[2].v[GUEST], el0_expect, insn[2].v[GUEST] - el0_expect,
	      el0_slack);
	/* EL1 adds the guest's own per-round code: bounded by GUEST_EL1_COST. */
	check(insn[1].v[GUEST] >= el1_loops &&
	      insn[1].v[GUEST] <= el1_loops + rounds * GUEST_EL1_COST,
	      "guest EL1 covers loops",
	      "guest-only exclude_user = %lu, loops %lu; fixed cost %.1f per round (bound %d)",
	      insn[1].v[GUEST], el1_loops,
	      (double)(insn[1].v[GUEST] - el1_loops) / rounds, GUEST_EL1_COST);
	growth = again[0].v[GUEST] - insn[0].v[GUEST];
	check(llabs(growth - (int64_t)el1_loops) <= (int64_t)el1_slack,
	      "guest grows with its loop",
	      "guest-only(2xEL1) - guest-only = %ld, expected %lu (slack %lu)",
	      growth, el1_loops, el1_slack);
	host_growth = again[0].v[HOST] - insn[0].v[HOST];
	/*
	 * Host work (ticks, first-touch faults) varies run to run by up to a
	 * few hundred thousand instructions; a leak of the guest's loop
	 * would add all 2,000,000.  Half of it separates the two.
	 */
	check(llabs(host_growth) * 2 < (int64_t)el1_loops, "host excludes guest",
	      "host-only(2xEL1) - host-only = %ld (guest loop grew by %lu)",
	      host_growth, el1_loops);
	check(insn[0].v[HOST] > 0 && insn[0].v[GUEST] > 0, "both sides count",
	      "host-only=%lu guest-only=%lu", insn[0].v[HOST], insn[0].v[GUEST]);

	ksft_finished();
}

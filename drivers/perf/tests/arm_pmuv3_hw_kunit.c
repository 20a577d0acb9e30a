// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: kernel-owned counters on the real (or emulated) PMU.
 *
 * A kernel loop of known length runs with instruction counters attached
 * to the test thread.  exclude_kernel must count none of it (a kernel
 * thread never runs at EL0), while counters that include the kernel must
 * count at least the loop.  Needs INST_RETIRED: under QEMU that means
 * -icount; without it, or without a PMU, the cases are skipped.
 */
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/irqflags.h>
#include <linux/perf_event.h>
#include <linux/perf/arm_pmu.h>
#include <linux/perf/arm_pmuv3_filter.h>
#include <linux/preempt.h>

#include <kvm/arm_pmu_direct.h>

#include "../arm_pmuv3_internal.h"

#define LOOP_ITERATIONS	100000UL
/* Two instructions an iteration: subs + b.ne. */
#define LOOP_INSNS	(2 * LOOP_ITERATIONS)
/*
 * What a kernel counter may add to the loop: the two reads around it
 * (perf_event_read_value(), a few hundred instructions) and, in the
 * least of three runs, no interrupt.  A counter that counted something
 * else too (EL0, another task) would be far above.
 */
#define READ_SLACK	2000

static noinline void known_loop(unsigned long n)
{
	asm volatile("1:	subs	%0, %0, #1\n"
		     "	b.ne	1b\n" : "+r" (n) : : "cc");
}

static struct perf_event *open_counter(struct kunit *test,
				       struct perf_event_attr *attr)
{
	struct perf_event *event;

	attr->size = sizeof(*attr);
	attr->pinned = 1;
	event = perf_event_create_kernel_counter(attr, -1, current, NULL, NULL);
	if (IS_ERR(event))
		kunit_skip(test, "no counter for %#llx (%ld): no PMU or no INST_RETIRED",
			   attr->config, PTR_ERR(event));
	return event;
}

static u64 read_counter(struct perf_event *event)
{
	u64 enabled, running;

	return perf_event_read_value(event, &enabled, &running);
}

/*
 * What a counter adds over the known loop, least of three runs (QEMU
 * now and then credits a whole interrupt handler to the interrupted
 * EL); the counter is released.
 */
static u64 count_loop(struct kunit *test, struct perf_event_attr *attr)
{
	struct perf_event *event = open_counter(test, attr);
	u64 before, after, least = U64_MAX;
	int i;

	for (i = 0; i < 3; i++) {
		before = read_counter(event);
		known_loop(LOOP_ITERATIONS);
		after = read_counter(event);
		least = min(least, after - before);
	}
	perf_event_release_kernel(event);
	return least;
}

struct hw_case {
	const char *name;
	u32 type;
	u64 config;
	bool exclude_user, exclude_kernel, exclude_hv;
	bool expect_loop;	/* counts the kernel loop, or nothing */
};

static const struct hw_case hw_cases[] = {
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS,
	  false, false, false, true },
	{ "instructions:k", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS,
	  true, false, true, true },
	{ "instructions:u", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS,
	  false, true, true, false },
	{ "raw_inst_retired:u", PERF_TYPE_RAW, ARMV8_PMUV3_PERFCTR_INST_RETIRED,
	  false, true, true, false },
	{ "raw_inst_retired", PERF_TYPE_RAW, ARMV8_PMUV3_PERFCTR_INST_RETIRED,
	  false, false, false, true },
};

static void hw_case_desc(const struct hw_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(hw, hw_cases, hw_case_desc);

static void kernel_loop_test(struct kunit *test)
{
	const struct hw_case *c = test->param_value;
	struct perf_event_attr attr = {
		.type = c->type, .config = c->config,
		.exclude_user = c->exclude_user,
		.exclude_kernel = c->exclude_kernel,
		.exclude_hv = c->exclude_hv,
	};
	u64 count = count_loop(test, &attr);

	kunit_info(test, "%s: %llu instructions over a %lu-instruction loop",
		   c->name, count, LOOP_INSNS);
	if (c->expect_loop) {
		KUNIT_EXPECT_GE(test, count, LOOP_INSNS);
		KUNIT_EXPECT_LE(test, count, LOOP_INSNS + READ_SLACK);
	} else {
		KUNIT_EXPECT_EQ(test, count, 0);
	}
}

/*
 * The cycle counter path: CPU_CYCLES lands on PMCCNTR_EL0 and must tick
 * while the loop runs.
 */
static void cycles_test(struct kunit *test)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_CPU_CYCLES,
	};

	KUNIT_EXPECT_GT(test, count_loop(test, &attr), 0);
}

struct bad_attr_case {
	const char *name;
	struct perf_event_attr attr;
	long expected_err;
};

/*
 * Bad attrs reach the driver through the real perf core and fail with
 * the documented errno.  exclude_host is refused only where KVM cannot
 * run guests (no EL2, or a kernel without KVM: kunit.py's own); in a
 * kernel whose KVM is running (make check's, booted at EL2) it is
 * accepted, so the case checks whichever of the two the kernel is.
 */
static const struct bad_attr_case bad_attr_cases[] = {
	{ "chain", { .type = PERF_TYPE_RAW, .config = ARMV8_PMUV3_PERFCTR_CHAIN },
	  -EINVAL },
	{ "config_bit20", { .type = PERF_TYPE_RAW, .config = BIT_ULL(20) | 0x08 },
	  -EINVAL },
	{ "exclude_idle", { .type = PERF_TYPE_HARDWARE,
			    .config = PERF_COUNT_HW_INSTRUCTIONS, .exclude_idle = 1 },
	  -EOPNOTSUPP },
	{ "exclude_host", { .type = PERF_TYPE_HARDWARE,
				   .config = PERF_COUNT_HW_INSTRUCTIONS,
				   .exclude_host = 1 },
	  -EOPNOTSUPP },
	{ "threshold_no_feat", { .type = PERF_TYPE_RAW, .config = 0x08,
				 .config1 = 5 << 5 },
	  -EOPNOTSUPP },
};

static void bad_attr_case_desc(const struct bad_attr_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(bad_attr, bad_attr_cases, bad_attr_case_desc);

static void bad_attr_test(struct kunit *test)
{
	const struct bad_attr_case *c = test->param_value;
	struct perf_event_attr attr = c->attr;
	long want = c->expected_err;
	struct perf_event *event;

	if (attr.exclude_host) {
		bool kvm = armv8pmu_kvm_active();

		/* Built with KVM and booted at EL2 (make check's kernel): KVM runs. */
		if (IS_ENABLED(CONFIG_KVM) && armv8pmu_host_mode() != ARMV8PMU_MODE_GUEST)
			KUNIT_EXPECT_TRUE_MSG(test, kvm,
					      "booted at EL2 with KVM built in, but KVM is not running");
		if (kvm)
			want = 0;
	}
	attr.size = sizeof(attr);
	event = perf_event_create_kernel_counter(&attr, -1, current, NULL, NULL);
	if (!IS_ERR(event))
		perf_event_release_kernel(event);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(event), want);
}

static enum armv8pmu_host_mode stub_mode_nvhe(void)
{
	return ARMV8PMU_MODE_NVHE;
}

static bool stub_kvm_off(void)
{
	return false;
}

static bool stub_kvm_on(void)
{
	return true;
}

/*
 * exclude_host through the real perf core, with the driver told the
 * host mode (nVHE) and whether KVM runs, whatever this kernel is:
 * refused with EOPNOTSUPP while KVM does not run, accepted while it
 * does, and marked as one whose counter KVM switches (an event without
 * exclude_host is not).  The events are opened disabled: they never
 * reach the PMU.
 */
static void exclude_host_test(struct kunit *test)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_INSTRUCTIONS,
		.size = sizeof(attr),
		.exclude_host = 1,
		.disabled = 1,
	};
	struct perf_event *event;

	kunit_activate_static_stub(test, armv8pmu_host_mode, stub_mode_nvhe);
	kunit_activate_static_stub(test, armv8pmu_kvm_active, stub_kvm_off);
	event = perf_event_create_kernel_counter(&attr, -1, current, NULL, NULL);
	if (!IS_ERR(event))
		perf_event_release_kernel(event);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(event), -EOPNOTSUPP);

	kunit_activate_static_stub(test, armv8pmu_kvm_active, stub_kvm_on);
	event = perf_event_create_kernel_counter(&attr, -1, current, NULL, NULL);
	KUNIT_ASSERT_EQ(test, PTR_ERR_OR_ZERO(event), 0);
	/* Its host and guest types differ: KVM must switch its counter. */
	KUNIT_EXPECT_TRUE(test, event->hw.flags & ARMV8PMU_EVT_SWITCHES);
	perf_event_release_kernel(event);

	/* One that counts alike in both is none of KVM's business. */
	attr.exclude_host = 0;
	event = perf_event_create_kernel_counter(&attr, -1, current, NULL, NULL);
	KUNIT_ASSERT_EQ(test, PTR_ERR_OR_ZERO(event), 0);
	KUNIT_EXPECT_FALSE(test, event->hw.flags & ARMV8PMU_EVT_SWITCHES);
	perf_event_release_kernel(event);
}

/*
 * Opening an event checks that its group fits the PMU (arm_pmu's
 * validate_group(), on a scratch counter mask): the whole PMU, whichever
 * CPU the check runs on, even one whose counters a direct-PMU vCPU owns
 * just then (armv8pmu_guest_own()), which the event may never run on.
 */
static void open_while_owned_test(struct kunit *test)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_INSTRUCTIONS,
		.size = sizeof(attr),
	};
	struct perf_event *event;
	struct arm_pmu *cpu_pmu;

	event = open_counter(test, &attr);
	cpu_pmu = to_arm_pmu(event->pmu);
	perf_event_release_kernel(event);

	attr.pinned = 0;
	migrate_disable();
	local_irq_disable();
	armv8pmu_guest_own(cpu_pmu, U64_MAX);
	local_irq_enable();
	event = perf_event_create_kernel_counter(&attr, -1, current, NULL, NULL);
	local_irq_disable();
	armv8pmu_guest_own(cpu_pmu, 0);
	local_irq_enable();
	migrate_enable();

	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(event), 0);
	if (!IS_ERR(event))
		perf_event_release_kernel(event);
}

static struct kunit_case arm_pmuv3_hw_test_cases[] = {
	KUNIT_CASE_PARAM(kernel_loop_test, hw_gen_params),
	KUNIT_CASE(cycles_test),
	KUNIT_CASE_PARAM(bad_attr_test, bad_attr_gen_params),
	KUNIT_CASE(exclude_host_test),
	KUNIT_CASE(open_while_owned_test),
	{}
};

static struct kunit_suite arm_pmuv3_hw_test_suite = {
	.name = "arm_pmuv3_hw",
	.test_cases = arm_pmuv3_hw_test_cases,
};

kunit_test_suite(arm_pmuv3_hw_test_suite);

MODULE_DESCRIPTION("KUnit tests for PMUv3 counting on the running CPU");
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
MODULE_LICENSE("GPL");

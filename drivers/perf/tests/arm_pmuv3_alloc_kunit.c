// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: PMUv3 counter allocation (arm_pmuv3.c).
 *
 * Allocation must honour the cycle and instruction counters, chained
 * pairs, the counters a direct-PMU vCPU owns and the counter limit that
 * makes a group too large; an overflow is handled only for a running
 * event whose flag is set.
 */
#include <kunit/test.h>
#include <linux/perf/arm_pmu.h>
#include <linux/perf/arm_pmuv3_filter.h>

#include "../arm_pmuv3_internal.h"

#define CYCLE	ARMV8_PMU_CYCLE_IDX
#define ICNTR	ARMV8_PMU_INSTR_IDX

/* @n event counters and PMCCNTR; n < 0: 6 of them and PMICNTR too. */
static void pmu_counters(unsigned long *mask, int n)
{
	bitmap_zero(mask, ARMPMU_MAX_HWEVENTS);
	bitmap_set(mask, 0, n < 0 ? 6 : n);
	__set_bit(CYCLE, mask);
	if (n < 0)
		__set_bit(ICNTR, mask);
}

struct alloc_case {
	const char *name;
	int nr_counters;
	u64 used;		/* counters already taken */
	struct armv8pmu_alloc_req req;
	int expected;		/* index or errno */
	u64 used_after;
};

static const struct alloc_case alloc_cases[] = {
	{ "cycles_to_pmccntr", 6, 0, { .evtype = 0x11 }, CYCLE, BIT_ULL(CYCLE) },
	{ "cycles_when_pmccntr_busy", 6, BIT_ULL(CYCLE), { .evtype = 0x11 },
	  0, BIT_ULL(CYCLE) | BIT(0) },
	{ "cycles_threshold_not_pmccntr", 6, 0,
	  { .evtype = 0x11, .threshold = true }, 0, BIT(0) },
	{ "first_free", 6, BIT(0) | BIT(2), { .evtype = 0x08 }, 1,
	  BIT(0) | BIT(1) | BIT(2) },
	{ "full", 6, GENMASK(5, 0), { .evtype = 0x08 }, -EAGAIN, GENMASK(5, 0) },
	{ "inst_never_pmccntr", 6, GENMASK(5, 0), { .evtype = 0x08 }, -EAGAIN,
	  GENMASK(5, 0) },
	{ "pair", 6, 0, { .evtype = 0x08, .chained = true }, 0, GENMASK(1, 0) },
	{ "pair_skips_half_used", 6, BIT(1), { .evtype = 0x08, .chained = true },
	  2, GENMASK(3, 1) },
	{ "pair_none_whole", 6, BIT(1) | BIT(3) | BIT(5),
	  { .evtype = 0x08, .chained = true }, -EAGAIN, BIT(1) | BIT(3) | BIT(5) },
	{ "pair_odd_count", 5, GENMASK(3, 0), { .evtype = 0x08, .chained = true },
	  -EAGAIN, GENMASK(3, 0) },
	{ "no_counters", 0, 0, { .evtype = 0x08 }, -EAGAIN, 0 },
	/*
	 * A user-readable 64-bit cycles event before PMUv3p5: PMCCNTR or
	 * nothing, never a chained pair EL0 would read as one counter.
	 */
	{ "rdpmc_long_cycles_pmccntr", 6, 0,
	  { .evtype = 0x11, .chained = true, .user_read = true }, CYCLE,
	  BIT_ULL(CYCLE) },
	{ "rdpmc_long_cycles_busy", 6, BIT_ULL(CYCLE),
	  { .evtype = 0x11, .chained = true, .user_read = true }, -EAGAIN,
	  BIT_ULL(CYCLE) },
	{ "long_cycles_busy_pairs", 6, BIT_ULL(CYCLE),
	  { .evtype = 0x11, .chained = true }, 0, BIT_ULL(CYCLE) | GENMASK(1, 0) },
	/* FEAT_PMUv3_ICNTR: INST_RETIRED prefers PMICNTR (index 32) */
	{ "inst_to_icntr", -1, 0, { .evtype = 0x08 }, ICNTR, BIT_ULL(ICNTR) },
	{ "inst_icntr_busy", -1, BIT_ULL(ICNTR), { .evtype = 0x08 }, 0,
	  BIT_ULL(ICNTR) | BIT(0) },
	{ "inst_threshold_not_icntr", -1, 0,
	  { .evtype = 0x08, .threshold = true }, 0, BIT(0) },
	{ "inst_rdpmc_not_icntr", -1, 0, { .evtype = 0x08, .user_read = true },
	  0, BIT(0) },
	{ "inst_no_icntr_here", 6, 0, { .evtype = 0x08 }, 0, BIT(0) },
	{ "cycles_not_icntr", -1, BIT_ULL(CYCLE) | GENMASK(5, 0),
	  { .evtype = 0x11 }, -EAGAIN, BIT_ULL(CYCLE) | GENMASK(5, 0) },
	/* avoid_pmccntr or branch sampling: CPU_CYCLES on an event counter */
	{ "cycles_no_pmccntr", 6, 0, { .evtype = 0x11, .no_pmccntr = true },
	  0, BIT(0) },
	{ "long_cycles_no_pmccntr_pair", 6, 0,
	  { .evtype = 0x11, .chained = true, .no_pmccntr = true },
	  0, GENMASK(1, 0) },
	{ "rdpmc_long_cycles_no_pmccntr", 6, 0,
	  { .evtype = 0x11, .chained = true, .user_read = true,
	    .no_pmccntr = true }, -EAGAIN, 0 },
	{ "cycles_no_pmccntr_full", 6, GENMASK(5, 0),
	  { .evtype = 0x11, .no_pmccntr = true }, -EAGAIN, GENMASK(5, 0) },
};

static void alloc_case_desc(const struct alloc_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(alloc, alloc_cases, alloc_case_desc);

static void alloc_test(struct kunit *test)
{
	const struct alloc_case *c = test->param_value;
	DECLARE_BITMAP(cntr, ARMPMU_MAX_HWEVENTS);
	DECLARE_BITMAP(used, ARMPMU_MAX_HWEVENTS);
	DECLARE_BITMAP(after, ARMPMU_MAX_HWEVENTS);

	pmu_counters(cntr, c->nr_counters);
	bitmap_from_u64(used, c->used);
	bitmap_from_u64(after, c->used_after);

	KUNIT_EXPECT_EQ(test, armv8pmu_alloc_counter(used, cntr, &c->req),
			c->expected);
	KUNIT_EXPECT_TRUE(test, bitmap_equal(used, after, ARMPMU_MAX_HWEVENTS));
}

/*
 * A group is validated by allocating all its members on an empty PMU:
 * 6 counters + PMCCNTR take 7 events, the 8th fails (arm_pmu then
 * refuses the group with -EINVAL).
 */
static void group_limit_test(struct kunit *test)
{
	struct armv8pmu_alloc_req cycles = { .evtype = 0x11 };
	DECLARE_BITMAP(cntr, ARMPMU_MAX_HWEVENTS);
	DECLARE_BITMAP(used, ARMPMU_MAX_HWEVENTS) = { };
	int i;

	pmu_counters(cntr, 6);
	for (i = 0; i < 7; i++)
		KUNIT_EXPECT_GE(test, armv8pmu_alloc_counter(used, cntr, &cycles), 0);
	KUNIT_EXPECT_EQ(test, armv8pmu_alloc_counter(used, cntr, &cycles), -EAGAIN);
}

/*
 * With a direct-PMU vCPU owning counters 0-2 and PMCCNTR (a share of 3
 * of 6), host events get counters 3-5 only: CPU_CYCLES falls back to an
 * event counter, a fourth event and a pair that would need 2-3 fail.
 * Given back, all are the host's again.
 */
static void guest_owned_alloc_test(struct kunit *test)
{
	struct armv8pmu_alloc_req cycles = { .evtype = 0x11 };
	struct armv8pmu_alloc_req inst = { .evtype = 0x08 };
	struct armv8pmu_alloc_req pair = { .evtype = 0x08, .chained = true };
	u64 owned = GENMASK_ULL(2, 0) | BIT_ULL(ARMV8_PMU_CYCLE_IDX);
	DECLARE_BITMAP(cntr, ARMPMU_MAX_HWEVENTS);
	DECLARE_BITMAP(avail, ARMPMU_MAX_HWEVENTS);
	DECLARE_BITMAP(used, ARMPMU_MAX_HWEVENTS) = { };

	pmu_counters(cntr, 6);
	armv8pmu_host_avail(avail, cntr, owned);
	KUNIT_EXPECT_EQ(test, armv8pmu_alloc_counter(used, avail, &cycles), 3);
	KUNIT_EXPECT_EQ(test, armv8pmu_alloc_counter(used, avail, &pair), 4);
	KUNIT_EXPECT_EQ(test, armv8pmu_alloc_counter(used, avail, &inst), -EAGAIN);
	armv8pmu_free_counter(used, 4, true);
	KUNIT_EXPECT_EQ(test, armv8pmu_alloc_counter(used, avail, &inst), 4);
	KUNIT_EXPECT_EQ(test, armv8pmu_alloc_counter(used, avail, &inst), 5);
	KUNIT_EXPECT_EQ(test, armv8pmu_alloc_counter(used, avail, &pair), -EAGAIN);

	armv8pmu_host_avail(avail, cntr, 0);
	KUNIT_EXPECT_TRUE(test, bitmap_equal(avail, cntr, ARMPMU_MAX_HWEVENTS));
	KUNIT_EXPECT_EQ(test, armv8pmu_alloc_counter(used, avail, &cycles),
			ARMV8_PMU_CYCLE_IDX);
	KUNIT_EXPECT_EQ(test, armv8pmu_alloc_counter(used, avail, &pair), 0);
}

/*
 * The perf core reschedules host events at a vCPU's load only when one
 * sits on a counter it takes, and at its put only when one found no
 * counter meanwhile.
 */
static void own_resched_test(struct kunit *test)
{
	u64 owned = GENMASK_ULL(2, 0) | BIT_ULL(ARMV8_PMU_CYCLE_IDX);

	KUNIT_EXPECT_FALSE(test, armv8pmu_own_resched(owned, GENMASK_ULL(5, 3), false));
	KUNIT_EXPECT_TRUE(test, armv8pmu_own_resched(owned, BIT_ULL(ARMV8_PMU_CYCLE_IDX), false));
	KUNIT_EXPECT_TRUE(test, armv8pmu_own_resched(owned, BIT_ULL(0), false));
	KUNIT_EXPECT_FALSE(test, armv8pmu_own_resched(0, GENMASK_ULL(5, 3), false));
	KUNIT_EXPECT_TRUE(test, armv8pmu_own_resched(0, GENMASK_ULL(5, 3), true));
	KUNIT_EXPECT_TRUE(test, armv8pmu_own_resched(0, 0, true));
}

/* Three chained pairs fill six counters; freeing one makes room again. */
static void pairs_and_free_test(struct kunit *test)
{
	struct armv8pmu_alloc_req pair = { .evtype = 0x08, .chained = true };
	DECLARE_BITMAP(cntr, ARMPMU_MAX_HWEVENTS);
	DECLARE_BITMAP(used, ARMPMU_MAX_HWEVENTS) = { };

	pmu_counters(cntr, 6);
	KUNIT_EXPECT_EQ(test, armv8pmu_alloc_counter(used, cntr, &pair), 0);
	KUNIT_EXPECT_EQ(test, armv8pmu_alloc_counter(used, cntr, &pair), 2);
	KUNIT_EXPECT_EQ(test, armv8pmu_alloc_counter(used, cntr, &pair), 4);
	KUNIT_EXPECT_EQ(test, armv8pmu_alloc_counter(used, cntr, &pair), -EAGAIN);

	armv8pmu_free_counter(used, 2, true);
	KUNIT_EXPECT_FALSE(test, test_bit(2, used) || test_bit(3, used));
	KUNIT_EXPECT_EQ(test, armv8pmu_alloc_counter(used, cntr, &pair), 2);
}

/*
 * An overflow is handled for a counter whose flag is set and whose event
 * runs; not for one the perf core stopped (throttled with its group by an
 * earlier counter of the same interrupt), nor for a flag of another
 * counter.  Counter 31 (PMCCNTR) flags bit 31.
 */
static void overflow_pending_test(struct kunit *test)
{
	u64 flags = BIT_ULL(0) | BIT_ULL(3) | BIT_ULL(31);

	KUNIT_EXPECT_TRUE(test, armv8pmu_overflow_pending(flags, 0, 0));
	KUNIT_EXPECT_TRUE(test, armv8pmu_overflow_pending(flags, 31, 0));
	KUNIT_EXPECT_TRUE(test, armv8pmu_overflow_pending(flags, 3, PERF_HES_UPTODATE));
	KUNIT_EXPECT_FALSE(test, armv8pmu_overflow_pending(flags, 1, 0));
	KUNIT_EXPECT_FALSE(test, armv8pmu_overflow_pending(0, 0, 0));
	KUNIT_EXPECT_FALSE(test, armv8pmu_overflow_pending(flags, 3, PERF_HES_STOPPED));
	KUNIT_EXPECT_FALSE(test, armv8pmu_overflow_pending(flags, 31,
					PERF_HES_STOPPED | PERF_HES_UPTODATE));
}

static struct kunit_case arm_pmuv3_alloc_test_cases[] = {
	KUNIT_CASE_PARAM(alloc_test, alloc_gen_params),
	KUNIT_CASE(group_limit_test),
	KUNIT_CASE(pairs_and_free_test),
	KUNIT_CASE(guest_owned_alloc_test),
	KUNIT_CASE(own_resched_test),
	KUNIT_CASE(overflow_pending_test),
	{}
};

static struct kunit_suite arm_pmuv3_alloc_test_suite = {
	.name = "arm_pmuv3_alloc",
	.test_cases = arm_pmuv3_alloc_test_cases,
};

kunit_test_suite(arm_pmuv3_alloc_test_suite);

MODULE_DESCRIPTION("KUnit tests for PMUv3 counter allocation");
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
MODULE_LICENSE("GPL");

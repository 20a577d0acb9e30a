// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the PMUv3 driver's client of the KVM perf-register service
 * (arm_pmuv3_hvc.c), its decisions on the service's answers.
 *
 * Which PMCR_EL0 writes end a batch; what the driver makes of every
 * answer a partial call may give, and of answers the ABI never gives;
 * how it sends a batch, call after call, against a host that answers
 * from a script (resumed where a call stopped, ended by a failure, a
 * bad answer taken as nothing done); which versions it takes.
 */
#include <kunit/test.h>
#include <linux/perf/arm_pmuv3.h>
#include <kvm/arm_pmu_hvc.h>

#include "../arm_pmuv3_hvc.h"

#define PMCR_P	ARMV8_PMU_PMCR_P
#define PMCR_C	ARMV8_PMU_PMCR_C
#define PMCR_E	ARMV8_PMU_PMCR_E

/* The PMCR_EL0 writes that end a driver batch: a start, or a reset. */
static void ends_batch_test(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, armv8pmu_hvc_ends_batch(PMCR_E));
	KUNIT_EXPECT_TRUE(test, armv8pmu_hvc_ends_batch(PMCR_P));
	KUNIT_EXPECT_TRUE(test, armv8pmu_hvc_ends_batch(PMCR_C));
	KUNIT_EXPECT_TRUE(test, armv8pmu_hvc_ends_batch(PMCR_E | ARMV8_PMU_PMCR_LC));
	KUNIT_EXPECT_FALSE(test, armv8pmu_hvc_ends_batch(0));
	KUNIT_EXPECT_FALSE(test, armv8pmu_hvc_ends_batch(ARMV8_PMU_PMCR_LC |
							 ARMV8_PMU_PMCR_LP));
}

struct verdict_case {
	const char *name;
	long status;
	u64 failed, done, sent;
	enum armv8pmu_hvc_verdict verdict;
	u64 good;
};

#define V_DONE		ARMV8PMU_HVC_DONE
#define V_RESUME	ARMV8PMU_HVC_RESUME
#define V_FAILED	ARMV8PMU_HVC_FAILED
#define ST_INVALID	KVM_PERFREG_INVALID_PARAMETER

static const struct verdict_case verdict_cases[] = {
	{ "all_done", 0, 0, 12, 12, V_DONE, 12 },
	{ "some_done", 0, 0, 5, 12, V_RESUME, 5 },
	{ "one_done", 0, 0, 1, 12, V_RESUME, 1 },
	{ "last_entry_failed", 0, 1, 5, 12, V_FAILED, 4 },
	{ "only_entry_failed", 0, 1, 1, 1, V_FAILED, 0 },
	{ "refused", ST_INVALID, 0, 0, 12, V_FAILED, 0 },
	{ "no_access", KVM_PERFREG_NO_ACCESS, 0, 0, 12, V_FAILED, 0 },
	{ "not_supported", KVM_PERFREG_NOT_SUPPORTED, 0, 0, 12, V_FAILED, 0 },
	{ "page_lost_midway", ST_INVALID, 0, 7, 12, V_FAILED, 7 },
	/* answers the ABI never gives: nothing taken as done */
	{ "success_none_done", 0, 0, 0, 12, V_FAILED, 0 },
	{ "more_done_than_sent", 0, 0, 13, 12, V_FAILED, 0 },
	{ "two_failed", 0, 2, 5, 12, V_FAILED, 0 },
	{ "more_failed_than_done", 0, 1, 0, 12, V_FAILED, 0 },
	{ "positive_status", 1, 0, 12, 12, V_FAILED, 12 },
};

static void verdict_case_desc(const struct verdict_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(verdict, verdict_cases, verdict_case_desc);

static void verdict_test(struct kunit *test)
{
	const struct verdict_case *c = test->param_value;
	u64 good = ~0ULL;

	KUNIT_EXPECT_EQ(test, armv8pmu_hvc_verdict(c->status, c->failed, c->done,
						   c->sent, &good),
			c->verdict);
	KUNIT_EXPECT_EQ(test, good, c->good);
}

/*
 * A host that answers the driver's calls from a script: call i carries
 * out done[i] entries, of which failed[i] failed, with status[i]; past
 * the script, an invalid parameter.  Each call's arguments are recorded.
 */
#define SCRIPT_MAX	8

struct script {
	unsigned int len, calls;
	long status[SCRIPT_MAX];
	u64 failed[SCRIPT_MAX], done[SCRIPT_MAX];
	u64 from[SCRIPT_MAX], count[SCRIPT_MAX];
};

static void script_call(void *arg, u64 from, u64 count, unsigned long *a)
{
	struct script *s = arg;
	unsigned int i = s->calls++;

	a[0] = KVM_PERFREG_INVALID_PARAMETER;
	a[1] = 0;
	a[2] = 0;
	if (i >= SCRIPT_MAX)
		return;
	s->from[i] = from;
	s->count[i] = count;
	if (i >= s->len)
		return;
	a[0] = s->status[i];
	a[1] = s->failed[i];
	a[2] = s->done[i];
}

/* 100 entries carried out 40, 35, 25 at a time: three calls, resumed. */
static void send_resume_test(struct kunit *test)
{
	struct script s = {
		.len = 3, .done = { 40, 35, 25 },
	};
	u64 good;

	KUNIT_EXPECT_EQ(test, armv8pmu_hvc_send_calls(100, &good, script_call, &s),
			ARMV8PMU_HVC_DONE);
	KUNIT_EXPECT_EQ(test, good, 100ULL);
	KUNIT_EXPECT_EQ(test, s.calls, 3U);
	KUNIT_EXPECT_EQ(test, s.from[1], 40ULL);
	KUNIT_EXPECT_EQ(test, s.count[1], 60ULL);
	KUNIT_EXPECT_EQ(test, s.from[2], 75ULL);
	KUNIT_EXPECT_EQ(test, s.count[2], 25ULL);
}

/* A failed entry ends the batch: what came before it is good. */
static void send_failed_entry_test(struct kunit *test)
{
	struct script s = {
		.len = 2, .done = { 10, 5 }, .failed = { 0, 1 },
	};
	u64 good;

	KUNIT_EXPECT_EQ(test, armv8pmu_hvc_send_calls(20, &good, script_call, &s),
			ARMV8PMU_HVC_FAILED);
	KUNIT_EXPECT_EQ(test, good, 14ULL);
	KUNIT_EXPECT_EQ(test, s.calls, 2U);
}

/*
 * An answer the ABI never gives ends the batch with nothing of that call
 * taken as done; so does a refused call.
 */
static void send_bad_answer_test(struct kunit *test)
{
	struct script bad = { .len = 2, .done = { 10, 11 } };
	struct script refused = { .len = 1, .status = { KVM_PERFREG_NOT_SUPPORTED } };
	u64 good;

	KUNIT_EXPECT_EQ(test, armv8pmu_hvc_send_calls(20, &good, script_call, &bad),
			ARMV8PMU_HVC_FAILED);
	KUNIT_EXPECT_EQ(test, good, 10ULL);
	KUNIT_EXPECT_EQ(test, armv8pmu_hvc_send_calls(20, &good, script_call,
						      &refused),
			ARMV8PMU_HVC_FAILED);
	KUNIT_EXPECT_EQ(test, good, 0ULL);
	KUNIT_EXPECT_EQ(test, refused.calls, 1U);
}

/* The driver takes 1.1 and any later 1.x, nothing else. */
static void version_test(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, armv8pmu_hvc_version_ok(KVM_PERFREG_VERSION));
	KUNIT_EXPECT_TRUE(test, armv8pmu_hvc_version_ok(0x10001));
	KUNIT_EXPECT_TRUE(test, armv8pmu_hvc_version_ok(0x1ffff));
	KUNIT_EXPECT_FALSE(test, armv8pmu_hvc_version_ok(0x10000));
	KUNIT_EXPECT_FALSE(test, armv8pmu_hvc_version_ok(0x20001));
	KUNIT_EXPECT_FALSE(test, armv8pmu_hvc_version_ok(0x00001));
	KUNIT_EXPECT_FALSE(test, armv8pmu_hvc_version_ok(0x100010001L));
	KUNIT_EXPECT_FALSE(test, armv8pmu_hvc_version_ok(KVM_PERFREG_NOT_SUPPORTED));
}

static struct kunit_case arm_pmuv3_perfreg_test_cases[] = {
	KUNIT_CASE(ends_batch_test),
	KUNIT_CASE_PARAM(verdict_test, verdict_gen_params),
	KUNIT_CASE(send_resume_test),
	KUNIT_CASE(send_failed_entry_test),
	KUNIT_CASE(send_bad_answer_test),
	KUNIT_CASE(version_test),
	{}
};

static struct kunit_suite arm_pmuv3_perfreg_test_suite = {
	.name = "arm_pmuv3_perfreg",
	.test_cases = arm_pmuv3_perfreg_test_cases,
};

kunit_test_suite(arm_pmuv3_perfreg_test_suite);

MODULE_DESCRIPTION("KUnit tests for the PMUv3 driver's perf-register client");
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: PMUv3 config validation.
 *
 * Raw configs and config1 requests against PMUs of several versions must
 * get the errno the driver documents (-EINVAL: malformed, -EOPNOTSUPP:
 * valid but beyond this PMU).
 */
#include <kunit/test.h>
#include <linux/bitfield.h>
#include <linux/perf/arm_pmu.h>
#include <linux/perf/arm_pmuv3_filter.h>

#include "../arm_pmuv3_internal.h"

static const struct armv8pmu_caps pmu_v80 = { .pmuver = ID_AA64DFR0_EL1_PMUVer_IMP };
static const struct armv8pmu_caps pmu_v81 = { .pmuver = ID_AA64DFR0_EL1_PMUVer_V3P1 };
static const struct armv8pmu_caps pmu_v85 = { .pmuver = ID_AA64DFR0_EL1_PMUVer_V3P5 };
static const struct armv8pmu_caps pmu_v80_avoid = {
	.pmuver = ID_AA64DFR0_EL1_PMUVer_IMP, .avoid_pmccntr = true };
static const struct armv8pmu_caps pmu_v85_avoid = {
	.pmuver = ID_AA64DFR0_EL1_PMUVer_V3P5, .avoid_pmccntr = true };
static const struct armv8pmu_caps pmu_th = { .pmuver = ID_AA64DFR0_EL1_PMUVer_V3P8,
					     .thwidth = 12 };

/* config1 fields of the format/ ABI: long, rdpmc, threshold_* */
#define LONG		BIT_ULL(0)
#define RDPMC		BIT_ULL(1)
#define TH_COUNT	BIT_ULL(2)
#define TH_CMP(x)	((u64)(x) << 3)
#define TH(x)		((u64)(x) << 5)

struct raw_case {
	const char *name;
	const struct armv8pmu_caps *caps;
	u64 config;
	int expected_err;
};

static const struct raw_case raw_cases[] = {
	{ "inst_retired", &pmu_v80, 0x08, 0 },
	{ "impdef_10bit", &pmu_v80, 0x3ff, 0 },
	{ "11bit_on_v8.0", &pmu_v80, 0x400, -EINVAL },
	{ "ext_common_on_v8.1", &pmu_v81, 0x4004, 0 },
	{ "16bit_max", &pmu_v85, 0xffff, 0 },
	{ "bit16", &pmu_v85, BIT_ULL(16), -EINVAL },
	{ "bit63", &pmu_v85, BIT_ULL(63) | 0x08, -EINVAL },
	{ "chain", &pmu_v85, 0x1e, -EINVAL },
};

static void raw_case_desc(const struct raw_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(raw, raw_cases, raw_case_desc);

static void raw_event_test(struct kunit *test)
{
	const struct raw_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, armv8pmu_check_raw_event(c->config, c->caps),
			c->expected_err);
}

struct config1_case {
	const char *name;
	const struct armv8pmu_caps *caps;
	u16 event;
	u64 config1;
	u64 config2;
	int expected_err;
};

static const struct config1_case config1_cases[] = {
	{ "none", &pmu_v80, 0x08, 0, 0, 0 },
	{ "long_v8.0", &pmu_v80, 0x08, LONG, 0, 0 },
	{ "reserved_bit17", &pmu_v85, 0x08, BIT_ULL(17), 0, -EINVAL },
	{ "reserved_bit63", &pmu_v85, 0x08, BIT_ULL(63), 0, -EINVAL },
	{ "config2", &pmu_v85, 0x08, 0, 1, -EINVAL },
	{ "rdpmc_32bit", &pmu_v80, 0x08, RDPMC, 0, 0 },
	{ "rdpmc_chained", &pmu_v80, 0x08, RDPMC | LONG, 0, -EOPNOTSUPP },
	{ "rdpmc_long_cycles", &pmu_v80, 0x11, RDPMC | LONG, 0, 0 },
	{ "rdpmc_long_v8.5", &pmu_v85, 0x08, RDPMC | LONG, 0, 0 },
	/* Cycles cannot have PMCCNTR_EL0 where the PMU avoids it: a pair. */
	{ "rdpmc_long_cycles_avoid", &pmu_v80_avoid, 0x11, RDPMC | LONG, 0,
	  -EOPNOTSUPP },
	{ "rdpmc_long_cycles_avoid_v8.5", &pmu_v85_avoid, 0x11, RDPMC | LONG, 0, 0 },
	{ "threshold_no_feat", &pmu_v85, 0x08, TH(5), 0, -EOPNOTSUPP },
	{ "threshold", &pmu_th, 0x08, TH(5), 0, 0 },
	{ "threshold_max", &pmu_th, 0x08, TH(4095) | TH_CMP(3) | TH_COUNT, 0, 0 },
	{ "threshold_too_wide", &pmu_th, 0x08, TH(4096), 0, -EINVAL },
	{ "compare_no_threshold", &pmu_th, 0x08, TH_CMP(1), 0, -EINVAL },
	{ "count_no_threshold", &pmu_th, 0x08, TH_COUNT, 0, -EINVAL },
};

static void config1_case_desc(const struct config1_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(config1, config1_cases, config1_case_desc);

static void config1_test(struct kunit *test)
{
	const struct config1_case *c = test->param_value;
	struct perf_event_attr attr = {
		.config = c->event, .config1 = c->config1, .config2 = c->config2,
	};

	KUNIT_EXPECT_EQ(test, armv8pmu_check_config1(&attr, c->event, c->caps),
			c->expected_err);
}

/* Long counters: native from PMUv3p5, chained pairs before. */
static void is_64bit_test(struct kunit *test)
{
	struct perf_event_attr plain = { .config = 0x08 };
	struct perf_event_attr longer = { .config = 0x08, .config1 = LONG };

	KUNIT_EXPECT_FALSE(test, armv8pmu_attr_is_64bit(&plain, &pmu_v80));
	KUNIT_EXPECT_TRUE(test, armv8pmu_attr_is_64bit(&longer, &pmu_v80));
	KUNIT_EXPECT_TRUE(test, armv8pmu_attr_is_64bit(&plain, &pmu_v85));
}

/* PMEVTYPER<n>_EL0: evtCount [15:0], TH [43:32], TC [63:61]. */
static void evtyper_fields_test(struct kunit *test)
{
	struct perf_event_attr attr = {
		.config = 0x11, .config1 = TH(100) | TH_CMP(2) | TH_COUNT,
	};

	KUNIT_EXPECT_EQ(test, armv8pmu_attr_to_evtyper(&attr),
			0x11ULL | 100ULL << 32 | 5ULL << 61);
}

static struct kunit_case arm_pmuv3_config_test_cases[] = {
	KUNIT_CASE_PARAM(raw_event_test, raw_gen_params),
	KUNIT_CASE_PARAM(config1_test, config1_gen_params),
	KUNIT_CASE(is_64bit_test),
	KUNIT_CASE(evtyper_fields_test),
	{}
};

static struct kunit_suite arm_pmuv3_config_test_suite = {
	.name = "arm_pmuv3_config",
	.test_cases = arm_pmuv3_config_test_cases,
};

kunit_test_suite(arm_pmuv3_config_test_suite);

MODULE_DESCRIPTION("KUnit tests for PMUv3 config checks");
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
MODULE_LICENSE("GPL");

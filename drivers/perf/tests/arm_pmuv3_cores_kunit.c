// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: what the driver probes and how it maps generic events.
 *
 * Every DT compatible of the stock 6.12 driver must probe, under the
 * stock PMU name (user space and perf's JSON event tables key on it);
 * the cores with their own cache maps must map the cache events those
 * cores define; generic events fall back from architected to per-core
 * events the way the stock driver does ("branches" to PC_WRITE_RETIRED
 * too); and caps/bus_width decodes PMMIR_EL1.BUS_WIDTH.  Expectations
 * are written out here, not taken from the driver.
 */
#include <kunit/test.h>
#include <linux/perf/arm_pmu.h>
#include <linux/perf/arm_pmuv3_filter.h>

#include "../arm_pmuv3_internal.h"

struct core_case {
	const char *compatible;
	const char *name;
};

/* The stock 7.3 table: 45 compatibles. */
static const struct core_case core_cases[] = {
	{ "arm,armv8-pmuv3", "armv8_pmuv3" },
	{ "arm,c1-nano-pmu", "armv8_c1_nano" },
	{ "arm,c1-premium-pmu", "armv8_c1_premium" },
	{ "arm,c1-pro-pmu", "armv8_c1_pro" },
	{ "arm,c1-ultra-pmu", "armv8_c1_ultra" },
	{ "arm,cortex-a320-pmu", "armv9_cortex_a320" },
	{ "arm,cortex-a520ae-pmu", "armv9_cortex_a520ae" },
	{ "arm,cortex-a720ae-pmu", "armv9_cortex_a720ae" },
	{ "arm,rainier-pmu", "armv8_rainier" },
	{ "samsung,mongoose-pmu", "armv8_samsung_mongoose" },
	{ "arm,cortex-a34-pmu", "armv8_cortex_a34" },
	{ "arm,cortex-a35-pmu", "armv8_cortex_a35" },
	{ "arm,cortex-a53-pmu", "armv8_cortex_a53" },
	{ "arm,cortex-a55-pmu", "armv8_cortex_a55" },
	{ "arm,cortex-a57-pmu", "armv8_cortex_a57" },
	{ "arm,cortex-a65-pmu", "armv8_cortex_a65" },
	{ "arm,cortex-a72-pmu", "armv8_cortex_a72" },
	{ "arm,cortex-a73-pmu", "armv8_cortex_a73" },
	{ "arm,cortex-a75-pmu", "armv8_cortex_a75" },
	{ "arm,cortex-a76-pmu", "armv8_cortex_a76" },
	{ "arm,cortex-a77-pmu", "armv8_cortex_a77" },
	{ "arm,cortex-a78-pmu", "armv8_cortex_a78" },
	{ "arm,cortex-a510-pmu", "armv9_cortex_a510" },
	{ "arm,cortex-a520-pmu", "armv9_cortex_a520" },
	{ "arm,cortex-a710-pmu", "armv9_cortex_a710" },
	{ "arm,cortex-a715-pmu", "armv9_cortex_a715" },
	{ "arm,cortex-a720-pmu", "armv9_cortex_a720" },
	{ "arm,cortex-a725-pmu", "armv9_cortex_a725" },
	{ "arm,cortex-x1-pmu", "armv8_cortex_x1" },
	{ "arm,cortex-x2-pmu", "armv9_cortex_x2" },
	{ "arm,cortex-x3-pmu", "armv9_cortex_x3" },
	{ "arm,cortex-x4-pmu", "armv9_cortex_x4" },
	{ "arm,cortex-x925-pmu", "armv9_cortex_x925" },
	{ "arm,neoverse-e1-pmu", "armv8_neoverse_e1" },
	{ "arm,neoverse-n1-pmu", "armv8_neoverse_n1" },
	{ "arm,neoverse-n2-pmu", "armv9_neoverse_n2" },
	{ "arm,neoverse-n3-pmu", "armv9_neoverse_n3" },
	{ "arm,neoverse-v1-pmu", "armv8_neoverse_v1" },
	{ "arm,neoverse-v2-pmu", "armv8_neoverse_v2" },
	{ "arm,neoverse-v3-pmu", "armv8_neoverse_v3" },
	{ "arm,neoverse-v3ae-pmu", "armv8_neoverse_v3ae" },
	{ "cavium,thunder-pmu", "armv8_cavium_thunder" },
	{ "brcm,vulcan-pmu", "armv8_brcm_vulcan" },
	{ "nvidia,carmel-pmu", "armv8_nvidia_carmel" },
	{ "nvidia,denver-pmu", "armv8_nvidia_denver" },
};

static const struct armv8pmu_core *find_core(const char *compatible)
{
	unsigned int i;

	for (i = 0; i < armv8pmu_nr_cores; i++)
		if (!strcmp(armv8pmu_cores[i].compatible, compatible))
			return &armv8pmu_cores[i];
	return NULL;
}

static void core_case_desc(const struct core_case *c, char *desc)
{
	strscpy(desc, c->compatible, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(core, core_cases, core_case_desc);

static void core_probes_test(struct kunit *test)
{
	const struct core_case *c = test->param_value;
	const struct armv8pmu_core *core = find_core(c->compatible);

	KUNIT_ASSERT_NOT_NULL(test, core);
	KUNIT_EXPECT_STREQ(test, core->name, c->name);
}

/* No compatible beyond the stock ones, and none twice. */
static void core_table_size_test(struct kunit *test)
{
	unsigned int i, j;

	KUNIT_EXPECT_EQ(test, armv8pmu_nr_cores, ARRAY_SIZE(core_cases));
	for (i = 0; i < armv8pmu_nr_cores; i++)
		for (j = i + 1; j < armv8pmu_nr_cores; j++)
			KUNIT_EXPECT_STRNEQ(test, armv8pmu_cores[i].compatible,
					    armv8pmu_cores[j].compatible);
}

#define CACHE(type, op, result)						\
	(PERF_COUNT_HW_CACHE_##type | PERF_COUNT_HW_CACHE_OP_##op << 8 |	\
	 PERF_COUNT_HW_CACHE_RESULT_##result << 16)

struct cache_case {
	const char *compatible;
	u64 config;
	int expected;		/* event number or errno */
};

/* From the cores' TRMs: the IMPLEMENTATION DEFINED events they map. */
static const struct cache_case cache_cases[] = {
	{ "arm,cortex-a53-pmu", CACHE(L1D, PREFETCH, MISS), 0xc2 },
	{ "arm,cortex-a35-pmu", CACHE(NODE, READ, ACCESS), 0x60 },
	{ "arm,cortex-a53-pmu", CACHE(NODE, WRITE, ACCESS), 0x61 },
	{ "arm,cortex-a53-pmu", CACHE(L1D, WRITE, ACCESS), -ENOENT },
	{ "arm,cortex-a57-pmu", CACHE(L1D, READ, ACCESS), 0x40 },
	{ "arm,cortex-a57-pmu", CACHE(L1D, WRITE, MISS), 0x43 },
	{ "arm,cortex-a72-pmu", CACHE(L1D, WRITE, ACCESS), 0x41 },
	{ "arm,cortex-a72-pmu", CACHE(DTLB, WRITE, MISS), 0x4d },
	{ "arm,cortex-a73-pmu", CACHE(L1D, WRITE, ACCESS), 0x41 },
	{ "arm,cortex-a73-pmu", CACHE(L1D, READ, MISS), -ENOENT },
	{ "cavium,thunder-pmu", CACHE(L1D, WRITE, MISS), 0xe9 },
	{ "cavium,thunder-pmu", CACHE(L1I, PREFETCH, MISS), 0xed },
	{ "cavium,thunder-pmu", CACHE(DTLB, WRITE, ACCESS), 0x4f },
	{ "brcm,vulcan-pmu", CACHE(DTLB, READ, MISS), 0x4c },
	{ "brcm,vulcan-pmu", CACHE(NODE, WRITE, ACCESS), 0x61 },
	{ "arm,cortex-a76-pmu", CACHE(L1D, READ, ACCESS), -ENOENT },
	{ "arm,armv8-pmuv3", CACHE(L1D, WRITE, ACCESS), -ENOENT },
	{ "arm,cortex-a57-pmu", PERF_COUNT_HW_CACHE_MAX, -EINVAL },
	{ "arm,cortex-a57-pmu", CACHE(L1D, READ, ACCESS) | BIT_ULL(24), -EINVAL },
};

static void cache_case_desc(const struct cache_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s %#llx", c->compatible,
		 c->config);
}

KUNIT_ARRAY_PARAM(cache, cache_cases, cache_case_desc);

static void core_cache_map_test(struct kunit *test)
{
	const struct cache_case *c = test->param_value;
	const struct armv8pmu_core *core = find_core(c->compatible);

	KUNIT_ASSERT_NOT_NULL(test, core);
	KUNIT_EXPECT_EQ(test, armv8pmu_core_map_cache(core, c->config),
			c->expected);
}

/* Architected events win when PMCEID has them; then the core's own. */
static void pick_mapping_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, armv8pmu_pick_mapping(0x04, true, 0x40), 0x04);
	KUNIT_EXPECT_EQ(test, armv8pmu_pick_mapping(0x04, false, 0x40), 0x40);
	KUNIT_EXPECT_EQ(test, armv8pmu_pick_mapping(0x04, false, -ENOENT), -ENOENT);
	KUNIT_EXPECT_EQ(test, armv8pmu_pick_mapping(-ENOENT, false, 0x41), 0x41);
	KUNIT_EXPECT_EQ(test, armv8pmu_pick_mapping(-ENOENT, false, -ENOENT), -ENOENT);
	KUNIT_EXPECT_EQ(test, armv8pmu_pick_mapping(-EINVAL, false, -EINVAL), -EINVAL);
}

static void branch_fallback_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, armv8pmu_branch_event(true, true),
			ARMV8_PMUV3_PERFCTR_BR_RETIRED);
	KUNIT_EXPECT_EQ(test, armv8pmu_branch_event(false, true),
			ARMV8_PMUV3_PERFCTR_PC_WRITE_RETIRED);
	KUNIT_EXPECT_EQ(test, armv8pmu_branch_event(false, false), -ENOENT);
}

/* Arm ARM PMMIR_EL1.BUS_WIDTH: Log2(bytes) + 1, 0b0011..0b1100. */
static void bus_width_test(struct kunit *test)
{
	static const u32 bytes[16] = {
		0, 0, 0, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 0, 0, 0,
	};
	int enc;

	for (enc = 0; enc < 16; enc++)
		KUNIT_EXPECT_EQ_MSG(test, armv8pmu_bus_width_bytes(enc),
				    bytes[enc], "encoding %#x", enc);
}

static struct kunit_case arm_pmuv3_cores_test_cases[] = {
	KUNIT_CASE_PARAM(core_probes_test, core_gen_params),
	KUNIT_CASE(core_table_size_test),
	KUNIT_CASE_PARAM(core_cache_map_test, cache_gen_params),
	KUNIT_CASE(pick_mapping_test),
	KUNIT_CASE(branch_fallback_test),
	KUNIT_CASE(bus_width_test),
	{}
};

static struct kunit_suite arm_pmuv3_cores_test_suite = {
	.name = "arm_pmuv3_cores",
	.test_cases = arm_pmuv3_cores_test_cases,
};

kunit_test_suite(arm_pmuv3_cores_test_suite);

MODULE_DESCRIPTION("KUnit tests for the PMUv3 probe table and event maps");
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
MODULE_LICENSE("GPL");

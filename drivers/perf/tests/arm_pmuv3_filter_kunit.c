// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the PMUv3 exclusion table.
 *
 * Every combination of exclude_user, exclude_kernel, exclude_hv,
 * exclude_host and exclude_guest (32) in every host mode (4), checked
 * against the exception levels that
 * Documentation/arch/arm64/perf.rst (after perf-event-attributes.txt)
 * says the event counts in host context and in guest context, and how
 * KVM must switch the counter between the two (rewrite its filter, or
 * enable it only on one side).  The expectations are written out below,
 * not computed by the driver.
 */
#include <kunit/test.h>
#include <linux/perf/arm_pmuv3_filter.h>

#include "../arm_pmuv3_internal.h"

/* Exception levels in the expectations, encoded as PMEVTYPER bits. */
#define EL0	BIT(0)
#define EL1	BIT(1)
#define EL2	BIT(2)
#define NONE	0

struct filter_case {
	enum armv8pmu_host_mode mode;
	u8 u, k, hv, H, G;	/* exclude_user/kernel/hv/host/guest */
	u8 host_els;
	u8 guest_els;
	enum armv8pmu_switch sw;
	int err;
};

#define ROW(_mode, _u, _k, _hv, _H, _G, _host, _guest, _sw, _err)	\
	{ .mode = ARMV8PMU_MODE_##_mode, .u = _u, .k = _k, .hv = _hv,	\
	  .H = _H, .G = _G, .host_els = (_host), .guest_els = (_guest),	\
	  .sw = ARMV8PMU_SWITCH_##_sw, .err = _err }

/* Arm ARM D24.5 PMEVTYPER<n>_EL0: P excludes EL1, U EL0; NSH includes EL2. */
static u32 els_to_evtyper(u8 els)
{
	return (els & EL1 ? 0 : BIT(31)) | (els & EL0 ? 0 : BIT(30)) |
	       (els & EL2 ? BIT(27) : 0);
}

static const struct filter_case filter_cases[] = {
	/* VHE */
	ROW(VHE, 0, 0, 0, 0, 0, EL0 | EL1 | EL2, EL0 | EL1 | EL2, NONE, 0),
	ROW(VHE, 1, 0, 0, 0, 0, EL1 | EL2, EL1 | EL2, NONE, 0),
	ROW(VHE, 0, 1, 0, 0, 0, EL0, EL0, NONE, 0),
	ROW(VHE, 1, 1, 0, 0, 0, NONE, NONE, NONE, 0),
	ROW(VHE, 0, 0, 1, 0, 0, EL0 | EL1 | EL2, EL0 | EL1 | EL2, NONE, 0),
	ROW(VHE, 1, 0, 1, 0, 0, EL1 | EL2, EL1 | EL2, NONE, 0),
	ROW(VHE, 0, 1, 1, 0, 0, EL0, EL0, NONE, 0),
	ROW(VHE, 1, 1, 1, 0, 0, NONE, NONE, NONE, 0),
	ROW(VHE, 0, 0, 0, 1, 0, EL1, EL0 | EL1, TYPER, 0),
	ROW(VHE, 1, 0, 0, 1, 0, EL1, EL1, NONE, 0),
	ROW(VHE, 0, 1, 0, 1, 0, NONE, EL0, TYPER, 0),
	ROW(VHE, 1, 1, 0, 1, 0, NONE, NONE, NONE, 0),
	ROW(VHE, 0, 0, 1, 1, 0, EL1, EL0 | EL1, TYPER, 0),
	ROW(VHE, 1, 0, 1, 1, 0, EL1, EL1, NONE, 0),
	ROW(VHE, 0, 1, 1, 1, 0, NONE, EL0, TYPER, 0),
	ROW(VHE, 1, 1, 1, 1, 0, NONE, NONE, NONE, 0),
	ROW(VHE, 0, 0, 0, 0, 1, EL0 | EL2, EL2, TYPER, 0),
	ROW(VHE, 1, 0, 0, 0, 1, EL2, EL2, NONE, 0),
	ROW(VHE, 0, 1, 0, 0, 1, EL0, NONE, TYPER, 0),
	ROW(VHE, 1, 1, 0, 0, 1, NONE, NONE, NONE, 0),
	ROW(VHE, 0, 0, 1, 0, 1, EL0 | EL2, EL2, TYPER, 0),
	ROW(VHE, 1, 0, 1, 0, 1, EL2, EL2, NONE, 0),
	ROW(VHE, 0, 1, 1, 0, 1, EL0, NONE, TYPER, 0),
	ROW(VHE, 1, 1, 1, 0, 1, NONE, NONE, NONE, 0),
	ROW(VHE, 0, 0, 0, 1, 1, NONE, NONE, NONE, 0),
	ROW(VHE, 1, 0, 0, 1, 1, NONE, NONE, NONE, 0),
	ROW(VHE, 0, 1, 0, 1, 1, NONE, NONE, NONE, 0),
	ROW(VHE, 1, 1, 0, 1, 1, NONE, NONE, NONE, 0),
	ROW(VHE, 0, 0, 1, 1, 1, NONE, NONE, NONE, 0),
	ROW(VHE, 1, 0, 1, 1, 1, NONE, NONE, NONE, 0),
	ROW(VHE, 0, 1, 1, 1, 1, NONE, NONE, NONE, 0),
	ROW(VHE, 1, 1, 1, 1, 1, NONE, NONE, NONE, 0),
	/* NVHE */
	ROW(NVHE, 0, 0, 0, 0, 0, EL0 | EL1 | EL2, EL0 | EL1 | EL2, NONE, 0),
	ROW(NVHE, 1, 0, 0, 0, 0, EL1 | EL2, EL1 | EL2, NONE, 0),
	ROW(NVHE, 0, 1, 0, 0, 0, EL0 | EL2, EL0 | EL2, NONE, 0),
	ROW(NVHE, 1, 1, 0, 0, 0, EL2, EL2, NONE, 0),
	ROW(NVHE, 0, 0, 1, 0, 0, EL0 | EL1, EL0 | EL1, NONE, 0),
	ROW(NVHE, 1, 0, 1, 0, 0, EL1, EL1, NONE, 0),
	ROW(NVHE, 0, 1, 1, 0, 0, EL0, EL0, NONE, 0),
	ROW(NVHE, 1, 1, 1, 0, 0, NONE, NONE, NONE, 0),
	ROW(NVHE, 0, 0, 0, 1, 0, NONE, EL0 | EL1, CNTEN_GUEST, 0),
	ROW(NVHE, 1, 0, 0, 1, 0, NONE, EL1, CNTEN_GUEST, 0),
	ROW(NVHE, 0, 1, 0, 1, 0, NONE, EL0, CNTEN_GUEST, 0),
	ROW(NVHE, 1, 1, 0, 1, 0, NONE, NONE, NONE, 0),
	ROW(NVHE, 0, 0, 1, 1, 0, NONE, EL0 | EL1, CNTEN_GUEST, 0),
	ROW(NVHE, 1, 0, 1, 1, 0, NONE, EL1, CNTEN_GUEST, 0),
	ROW(NVHE, 0, 1, 1, 1, 0, NONE, EL0, CNTEN_GUEST, 0),
	ROW(NVHE, 1, 1, 1, 1, 0, NONE, NONE, NONE, 0),
	ROW(NVHE, 0, 0, 0, 0, 1, EL0 | EL1 | EL2, EL2, TYPER, 0),
	ROW(NVHE, 1, 0, 0, 0, 1, EL1 | EL2, EL2, TYPER, 0),
	ROW(NVHE, 0, 1, 0, 0, 1, EL0 | EL2, EL2, TYPER, 0),
	ROW(NVHE, 1, 1, 0, 0, 1, EL2, EL2, NONE, 0),
	ROW(NVHE, 0, 0, 1, 0, 1, EL0 | EL1, NONE, CNTEN_HOST, 0),
	ROW(NVHE, 1, 0, 1, 0, 1, EL1, NONE, CNTEN_HOST, 0),
	ROW(NVHE, 0, 1, 1, 0, 1, EL0, NONE, CNTEN_HOST, 0),
	ROW(NVHE, 1, 1, 1, 0, 1, NONE, NONE, NONE, 0),
	ROW(NVHE, 0, 0, 0, 1, 1, NONE, NONE, NONE, 0),
	ROW(NVHE, 1, 0, 0, 1, 1, NONE, NONE, NONE, 0),
	ROW(NVHE, 0, 1, 0, 1, 1, NONE, NONE, NONE, 0),
	ROW(NVHE, 1, 1, 0, 1, 1, NONE, NONE, NONE, 0),
	ROW(NVHE, 0, 0, 1, 1, 1, NONE, NONE, NONE, 0),
	ROW(NVHE, 1, 0, 1, 1, 1, NONE, NONE, NONE, 0),
	ROW(NVHE, 0, 1, 1, 1, 1, NONE, NONE, NONE, 0),
	ROW(NVHE, 1, 1, 1, 1, 1, NONE, NONE, NONE, 0),
	/* PKVM */
	ROW(PKVM, 0, 0, 0, 0, 0, EL0 | EL1 | EL2, EL0 | EL1 | EL2, NONE, 0),
	ROW(PKVM, 1, 0, 0, 0, 0, EL1 | EL2, EL1 | EL2, NONE, 0),
	ROW(PKVM, 0, 1, 0, 0, 0, EL0 | EL2, EL0 | EL2, NONE, 0),
	ROW(PKVM, 1, 1, 0, 0, 0, EL2, EL2, NONE, 0),
	ROW(PKVM, 0, 0, 1, 0, 0, EL0 | EL1, EL0 | EL1, NONE, 0),
	ROW(PKVM, 1, 0, 1, 0, 0, EL1, EL1, NONE, 0),
	ROW(PKVM, 0, 1, 1, 0, 0, EL0, EL0, NONE, 0),
	ROW(PKVM, 1, 1, 1, 0, 0, NONE, NONE, NONE, 0),
	ROW(PKVM, 0, 0, 0, 1, 0, NONE, EL0 | EL1, CNTEN_GUEST, 0),
	ROW(PKVM, 1, 0, 0, 1, 0, NONE, EL1, CNTEN_GUEST, 0),
	ROW(PKVM, 0, 1, 0, 1, 0, NONE, EL0, CNTEN_GUEST, 0),
	ROW(PKVM, 1, 1, 0, 1, 0, NONE, NONE, NONE, 0),
	ROW(PKVM, 0, 0, 1, 1, 0, NONE, EL0 | EL1, CNTEN_GUEST, 0),
	ROW(PKVM, 1, 0, 1, 1, 0, NONE, EL1, CNTEN_GUEST, 0),
	ROW(PKVM, 0, 1, 1, 1, 0, NONE, EL0, CNTEN_GUEST, 0),
	ROW(PKVM, 1, 1, 1, 1, 0, NONE, NONE, NONE, 0),
	ROW(PKVM, 0, 0, 0, 0, 1, EL0 | EL1 | EL2, EL2, TYPER, 0),
	ROW(PKVM, 1, 0, 0, 0, 1, EL1 | EL2, EL2, TYPER, 0),
	ROW(PKVM, 0, 1, 0, 0, 1, EL0 | EL2, EL2, TYPER, 0),
	ROW(PKVM, 1, 1, 0, 0, 1, EL2, EL2, NONE, 0),
	ROW(PKVM, 0, 0, 1, 0, 1, EL0 | EL1, NONE, CNTEN_HOST, 0),
	ROW(PKVM, 1, 0, 1, 0, 1, EL1, NONE, CNTEN_HOST, 0),
	ROW(PKVM, 0, 1, 1, 0, 1, EL0, NONE, CNTEN_HOST, 0),
	ROW(PKVM, 1, 1, 1, 0, 1, NONE, NONE, NONE, 0),
	ROW(PKVM, 0, 0, 0, 1, 1, NONE, NONE, NONE, 0),
	ROW(PKVM, 1, 0, 0, 1, 1, NONE, NONE, NONE, 0),
	ROW(PKVM, 0, 1, 0, 1, 1, NONE, NONE, NONE, 0),
	ROW(PKVM, 1, 1, 0, 1, 1, NONE, NONE, NONE, 0),
	ROW(PKVM, 0, 0, 1, 1, 1, NONE, NONE, NONE, 0),
	ROW(PKVM, 1, 0, 1, 1, 1, NONE, NONE, NONE, 0),
	ROW(PKVM, 0, 1, 1, 1, 1, NONE, NONE, NONE, 0),
	ROW(PKVM, 1, 1, 1, 1, 1, NONE, NONE, NONE, 0),
	/* GUEST */
	ROW(GUEST, 0, 0, 0, 0, 0, EL0 | EL1, EL0 | EL1, NONE, 0),
	ROW(GUEST, 1, 0, 0, 0, 0, EL1, EL1, NONE, 0),
	ROW(GUEST, 0, 1, 0, 0, 0, EL0, EL0, NONE, 0),
	ROW(GUEST, 1, 1, 0, 0, 0, NONE, NONE, NONE, 0),
	ROW(GUEST, 0, 0, 1, 0, 0, EL0 | EL1, EL0 | EL1, NONE, 0),
	ROW(GUEST, 1, 0, 1, 0, 0, EL1, EL1, NONE, 0),
	ROW(GUEST, 0, 1, 1, 0, 0, EL0, EL0, NONE, 0),
	ROW(GUEST, 1, 1, 1, 0, 0, NONE, NONE, NONE, 0),
	ROW(GUEST, 0, 0, 0, 1, 0, NONE, NONE, NONE, -EOPNOTSUPP),
	ROW(GUEST, 1, 0, 0, 1, 0, NONE, NONE, NONE, -EOPNOTSUPP),
	ROW(GUEST, 0, 1, 0, 1, 0, NONE, NONE, NONE, -EOPNOTSUPP),
	ROW(GUEST, 1, 1, 0, 1, 0, NONE, NONE, NONE, -EOPNOTSUPP),
	ROW(GUEST, 0, 0, 1, 1, 0, NONE, NONE, NONE, -EOPNOTSUPP),
	ROW(GUEST, 1, 0, 1, 1, 0, NONE, NONE, NONE, -EOPNOTSUPP),
	ROW(GUEST, 0, 1, 1, 1, 0, NONE, NONE, NONE, -EOPNOTSUPP),
	ROW(GUEST, 1, 1, 1, 1, 0, NONE, NONE, NONE, -EOPNOTSUPP),
	ROW(GUEST, 0, 0, 0, 0, 1, EL0 | EL1, EL0 | EL1, NONE, 0),
	ROW(GUEST, 1, 0, 0, 0, 1, EL1, EL1, NONE, 0),
	ROW(GUEST, 0, 1, 0, 0, 1, EL0, EL0, NONE, 0),
	ROW(GUEST, 1, 1, 0, 0, 1, NONE, NONE, NONE, 0),
	ROW(GUEST, 0, 0, 1, 0, 1, EL0 | EL1, EL0 | EL1, NONE, 0),
	ROW(GUEST, 1, 0, 1, 0, 1, EL1, EL1, NONE, 0),
	ROW(GUEST, 0, 1, 1, 0, 1, EL0, EL0, NONE, 0),
	ROW(GUEST, 1, 1, 1, 0, 1, NONE, NONE, NONE, 0),
	ROW(GUEST, 0, 0, 0, 1, 1, NONE, NONE, NONE, -EOPNOTSUPP),
	ROW(GUEST, 1, 0, 0, 1, 1, NONE, NONE, NONE, -EOPNOTSUPP),
	ROW(GUEST, 0, 1, 0, 1, 1, NONE, NONE, NONE, -EOPNOTSUPP),
	ROW(GUEST, 1, 1, 0, 1, 1, NONE, NONE, NONE, -EOPNOTSUPP),
	ROW(GUEST, 0, 0, 1, 1, 1, NONE, NONE, NONE, -EOPNOTSUPP),
	ROW(GUEST, 1, 0, 1, 1, 1, NONE, NONE, NONE, -EOPNOTSUPP),
	ROW(GUEST, 0, 1, 1, 1, 1, NONE, NONE, NONE, -EOPNOTSUPP),
	ROW(GUEST, 1, 1, 1, 1, 1, NONE, NONE, NONE, -EOPNOTSUPP),
};

static const char *const mode_names[] = {
	[ARMV8PMU_MODE_VHE] = "vhe", [ARMV8PMU_MODE_NVHE] = "nvhe",
	[ARMV8PMU_MODE_PKVM] = "pkvm", [ARMV8PMU_MODE_GUEST] = "guest",
};

static void filter_case_desc(const struct filter_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s%s%s%s%s%s",
		 mode_names[c->mode], c->u ? " exclude_user" : "",
		 c->k ? " exclude_kernel" : "", c->hv ? " exclude_hv" : "",
		 c->H ? " exclude_host" : "", c->G ? " exclude_guest" : "");
}

KUNIT_ARRAY_PARAM(filter, filter_cases, filter_case_desc);

static void filter_table_test(struct kunit *test)
{
	const struct filter_case *c = test->param_value;
	struct perf_event_attr attr = {
		.exclude_user = c->u, .exclude_kernel = c->k,
		.exclude_hv = c->hv, .exclude_host = c->H,
		.exclude_guest = c->G,
	};
	struct armv8pmu_filter f = { .host = ~0U, .guest = ~0U };
	int err = armv8pmu_attr_to_filter(&attr, c->mode, &f);

	KUNIT_ASSERT_EQ(test, err, c->err);
	if (err)
		return;
	KUNIT_EXPECT_EQ(test, f.host, els_to_evtyper(c->host_els));
	KUNIT_EXPECT_EQ(test, f.guest, els_to_evtyper(c->guest_els));
	KUNIT_EXPECT_EQ(test, armv8pmu_switch_kind(c->mode, &f), c->sw);
}

/* The table must cover every combination exactly once. */
static void filter_table_complete_test(struct kunit *test)
{
	DECLARE_BITMAP(seen, ARMV8PMU_NR_MODES * 32) = { };
	int i;

	for (i = 0; i < ARRAY_SIZE(filter_cases); i++) {
		const struct filter_case *c = &filter_cases[i];
		int bit = c->mode * 32 + (c->u | c->k << 1 | c->hv << 2 |
					  c->H << 3 | c->G << 4);

		KUNIT_EXPECT_FALSE(test, test_and_set_bit(bit, seen));
	}
	KUNIT_EXPECT_EQ(test, bitmap_weight(seen, ARMV8PMU_NR_MODES * 32),
			ARMV8PMU_NR_MODES * 32);
}

/* Exclusions the PMU cannot express are refused, never ignored. */
static void filter_exclude_idle_test(struct kunit *test)
{
	struct perf_event_attr attr = { .exclude_idle = 1 };
	struct armv8pmu_filter f;
	int mode;

	for (mode = 0; mode < ARMV8PMU_NR_MODES; mode++)
		KUNIT_EXPECT_EQ(test, armv8pmu_attr_to_filter(&attr, mode, &f),
				-EOPNOTSUPP);
}

static void filter_bad_mode_test(struct kunit *test)
{
	struct perf_event_attr attr = { };
	struct armv8pmu_filter f;

	KUNIT_EXPECT_EQ(test, armv8pmu_attr_to_filter(&attr, ARMV8PMU_NR_MODES, &f),
			-EINVAL);
}

/*
 * Guest-only counting needs KVM up: refused without it (kvm-arm.mode=none,
 * KVM not built), whatever else the attr asks; exclude_guest alone is
 * fine anywhere (perf sets it by default).
 */
static void filter_guests_need_kvm_test(struct kunit *test)
{
	struct perf_event_attr host_only = { .exclude_guest = 1 };
	struct perf_event_attr guest_only = { .exclude_host = 1 };
	struct perf_event_attr neither = { .exclude_host = 1, .exclude_guest = 1,
					   .exclude_user = 1 };

	KUNIT_EXPECT_EQ(test, armv8pmu_check_guests(&host_only, false), 0);
	KUNIT_EXPECT_EQ(test, armv8pmu_check_guests(&host_only, true), 0);
	KUNIT_EXPECT_EQ(test, armv8pmu_check_guests(&guest_only, false), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, armv8pmu_check_guests(&guest_only, true), 0);
	KUNIT_EXPECT_EQ(test, armv8pmu_check_guests(&neither, false), -EOPNOTSUPP);
}

static struct kunit_case arm_pmuv3_filter_test_cases[] = {
	KUNIT_CASE(filter_guests_need_kvm_test),
	KUNIT_CASE_PARAM(filter_table_test, filter_gen_params),
	KUNIT_CASE(filter_table_complete_test),
	KUNIT_CASE(filter_exclude_idle_test),
	KUNIT_CASE(filter_bad_mode_test),
	{}
};

static struct kunit_suite arm_pmuv3_filter_test_suite = {
	.name = "arm_pmuv3_filter",
	.test_cases = arm_pmuv3_filter_test_cases,
};

kunit_test_suite(arm_pmuv3_filter_test_suite);

MODULE_DESCRIPTION("KUnit tests for the PMUv3 exclusion filters");
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
MODULE_LICENSE("GPL");

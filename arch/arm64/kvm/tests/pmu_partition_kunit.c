// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the direct guest PMU's decisions (arch/arm64/kvm/hyp/pmu_part.c,
 * <kvm/arm_pmu_partition.h>, Documentation/arch/arm64/pmu-direct.rst).
 *
 * How many event counters a direct guest gets (PMCR_EL0.N, MDCR_EL2.HPMN)
 * from N, the VMM's request, the host's reservation and FEAT_HPMN0; which
 * counters are the guest's and which the host's; the capabilities read
 * from the ID registers (QEMU's "max" CPU among them); the MDCR_EL2 PMU
 * fields; the guest's PMCR_EL0; which registers trap for every kind of
 * PMU and per-vCPU condition, and the FGT register values and TPM that
 * follow; the held overflow, from the interrupt to the guest's clear;
 * the types an event filter gives the hardware; and the checks of the
 * EL2 fast path.  Expected values are written from
 * the Arm ARM and the design document, not computed by the code under
 * test.
 */
#include <kunit/test.h>
#include <asm/sysreg.h>
#include <kvm/arm_pmu_partition.h>

#define C31	BIT_ULL(ARMV8_PMU_CYCLE_IDX)
#define I32	BIT_ULL(ARMV8_PMU_INSTR_IDX)
#define TRAP(x)	BIT(KVM_PMU_PART_##x)

/*
 * The PMUs the cases run on.  "hw" is a PMU that enforces HPMN, as the
 * Arm ARM requires; "qemu_max" is QEMU 10.0's -cpu max (N = 6, PMUv3p5,
 * FEAT_HPMN0, FEAT_FGT, no FGT2, HPMN not enforced at EL1, as Debian's
 * build has it); "qemu_a57" its -cpu cortex-a57 (N = 6, PMUv3.0, no FGT).
 */
#define HW_P5_FGT	{ .nr_counters = 6, .hpmn0 = true, .pmuv3p1 = true,	\
			  .pmuv3p5 = true, .fgt = true, .hpmn_enforced = true }
#define HW_P5_NOFGT	{ .nr_counters = 6, .pmuv3p1 = true, .pmuv3p5 = true,	\
			  .hpmn_enforced = true }
#define HW_P1_FGT	{ .nr_counters = 6, .pmuv3p1 = true, .fgt = true,	\
			  .hpmn_enforced = true }
#define HW_P9_ICNTR	{ .nr_counters = 20, .hpmn0 = true, .pmuv3p1 = true,	\
			  .pmuv3p5 = true, .pmuv3p9 = true, .icntr = true,	\
			  .fgt = true, .fgt2 = true, .hpmn_enforced = true }
#define HW_ICNTR_NOFGT2	{ .nr_counters = 6, .pmuv3p1 = true, .pmuv3p5 = true,	\
			  .icntr = true, .fgt = true, .hpmn_enforced = true }
#define QEMU_MAX	{ .nr_counters = 6, .hpmn0 = true, .pmuv3p1 = true,	\
			  .pmuv3p5 = true, .fgt = true }
#define QEMU_A57	{ .nr_counters = 6, .hpmn_enforced = true }
#define GUARDED_P9	{ .nr_counters = 20, .hpmn0 = true, .pmuv3p1 = true,	\
			  .pmuv3p5 = true, .pmuv3p9 = true, .fgt = true,	\
			  .fgt2 = true }

static const struct kvm_pmu_part_caps hw_p5_fgt = HW_P5_FGT;
static const struct kvm_pmu_part_caps hw_p5_nofgt = HW_P5_NOFGT;
static const struct kvm_pmu_part_caps hw_p1_fgt = HW_P1_FGT;
static const struct kvm_pmu_part_caps hw_p9_icntr = HW_P9_ICNTR;
static const struct kvm_pmu_part_caps hw_icntr_nofgt2 = HW_ICNTR_NOFGT2;
static const struct kvm_pmu_part_caps qemu_max = QEMU_MAX;
static const struct kvm_pmu_part_caps qemu_a57 = QEMU_A57;
static const struct kvm_pmu_part_caps guarded_p9 = GUARDED_P9;

/* ------------------------------------------------------------------ */

struct size_case {
	const char *name;
	u8 n;
	bool hpmn0;
	int requested;
	unsigned int host_min;
	int expected;	/* HPMN, or an errno */
};

#define NOREQ	KVM_PMU_PART_NO_REQUEST

static const struct size_case size_cases[] = {
	{ "host_keeps_three_of_six", 6, true, NOREQ, 3, 3 },
	{ "request_fewer", 6, true, 2, 3, 2 },
	{ "request_all_that_is_left", 6, true, 3, 3, 3 },
	{ "request_into_the_host_share", 6, true, 4, 3, -ENOSPC },
	{ "request_all_n_host_keeps_none", 6, true, 6, 0, 6 },
	{ "request_above_n", 6, true, 7, 0, -EINVAL },
	{ "request_negative", 6, true, -2, 0, -EINVAL },
	{ "host_keeps_none", 6, true, NOREQ, 0, 6 },
	{ "host_asks_more_than_n", 6, true, NOREQ, 10, 0 },
	{ "nothing_left_without_hpmn0", 6, false, NOREQ, 6, -EOPNOTSUPP },
	{ "zero_requested_hpmn0", 6, true, 0, 3, 0 },
	{ "zero_requested_without_hpmn0", 6, false, 0, 3, -EOPNOTSUPP },
	{ "one_left_without_hpmn0", 6, false, NOREQ, 5, 1 },
	{ "thirty_one_counters", 31, true, NOREQ, 3, 28 },
	{ "no_event_counters_hpmn0", 0, true, NOREQ, 3, 0 },
	{ "no_event_counters_without_hpmn0", 0, false, NOREQ, 3, -EOPNOTSUPP },
};

static void size_case_desc(const struct size_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(size, size_cases, size_case_desc);

static void size_test(struct kunit *test)
{
	const struct size_case *c = test->param_value;
	struct kvm_pmu_part_caps caps = { .nr_counters = c->n, .hpmn0 = c->hpmn0 };

	KUNIT_EXPECT_EQ(test, kvm_pmu_part_size(&caps, c->requested, c->host_min),
			c->expected);
}

/* ------------------------------------------------------------------ */

/* The guest's, the host's and the vacated counters on QEMU's 6. */
static void masks_test(struct kunit *test)
{
	struct kvm_pmu_part_caps caps = hw_p5_fgt;

	KUNIT_EXPECT_EQ(test, kvm_pmu_part_guest_mask(0), C31);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_guest_mask(3), 0x7ULL | C31);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_guest_mask(1), 0x1ULL | C31);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_guest_mask(31), GENMASK_ULL(31, 0));
	/* Clamped to the counters PMUv3 can have (an HPMN from elsewhere). */
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_guest_mask(32), GENMASK_ULL(31, 0));
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_guest_mask(255), GENMASK_ULL(31, 0));
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_host_mask(&caps, 3), 0x38ULL);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_host_mask(&caps, 0), 0x3fULL);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_host_mask(&caps, 6), 0ULL);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_vacate_mask(&caps, 3), 0x7ULL | C31);
	caps.icntr = true;
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_vacate_mask(&caps, 3), 0x7ULL | C31 | I32);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_vacate_mask(&caps, 0), C31 | I32);
}

/*
 * For every N and every share: the guest's and the host's counters never
 * overlap, neither holds a fixed counter the other has, and with the
 * vacated ones they make up every counter there is.
 */
static void masks_partition_test(struct kunit *test)
{
	struct kvm_pmu_part_caps caps = { .icntr = true };
	unsigned int n, hpmn;

	for (n = 0; n <= ARMV8_PMU_MAX_GENERAL_COUNTERS; n++) {
		u64 all = kvm_pmu_part_guest_mask(n) | I32;

		caps.nr_counters = n;
		for (hpmn = 0; hpmn <= n; hpmn++) {
			u64 guest = kvm_pmu_part_guest_mask(hpmn);
			u64 host = kvm_pmu_part_host_mask(&caps, hpmn);
			u64 vacate = kvm_pmu_part_vacate_mask(&caps, hpmn);

			KUNIT_EXPECT_EQ(test, guest & host, 0ULL);
			KUNIT_EXPECT_EQ(test, host & (C31 | I32), 0ULL);
			KUNIT_EXPECT_EQ(test, host | vacate, all);
			KUNIT_EXPECT_EQ(test, host & vacate, 0ULL);
			KUNIT_EXPECT_EQ(test, guest & ~vacate, 0ULL);
		}
	}
}

/* ------------------------------------------------------------------ */

struct caps_case {
	const char *name;
	u64 dfr0, dfr1, mmfr0;
	bool probed;
	unsigned int n;
	enum kvm_pmu_part_guard guard;
	struct kvm_pmu_part_caps expected;
};

#define DFR0(ver, hpmn0)	(FIELD_PREP_CONST(ID_AA64DFR0_EL1_PMUVer, ver) | \
				 FIELD_PREP_CONST(ID_AA64DFR0_EL1_HPMN0, hpmn0))
#define MMFR0(fgt)		FIELD_PREP_CONST(ID_AA64MMFR0_EL1_FGT, fgt)
#define DFR1_ICNTR		FIELD_PREP_CONST(ID_AA64DFR1_EL1_PMICNTR, 1)
/* @probed: what the HPMN probe found (Debian's QEMU 10.0.2: no; ours: yes). */
static const struct caps_case caps_cases[] = {
	{ "qemu_max", DFR0(6, 1), 0, MMFR0(1), false, 6,
	  KVM_PMU_PART_GUARD_AUTO, QEMU_MAX },
	{ "qemu_max_probed", DFR0(6, 1), 0, MMFR0(1), true, 6,
	  KVM_PMU_PART_GUARD_AUTO,
	  { .nr_counters = 6, .hpmn0 = true, .pmuv3p1 = true, .pmuv3p5 = true,
	    .fgt = true, .hpmn_enforced = true } },
	{ "qemu_max_probed_guard_on", DFR0(6, 1), 0, MMFR0(1), true, 6,
	  KVM_PMU_PART_GUARD_ON, QEMU_MAX },
	{ "qemu_a57", DFR0(1, 0), 0, 0, false, 6,
	  KVM_PMU_PART_GUARD_AUTO, { .nr_counters = 6 } },
	{ "hw_guard_on", DFR0(1, 0), 0, 0, true, 6,
	  KVM_PMU_PART_GUARD_ON, { .nr_counters = 6 } },
	{ "v3p9_icntr_fgt2", DFR0(9, 1), DFR1_ICNTR, MMFR0(2), true, 20,
	  KVM_PMU_PART_GUARD_AUTO, HW_P9_ICNTR },
	{ "imp_def_pmu", DFR0(0xf, 0), 0, MMFR0(1), true, 6,
	  KVM_PMU_PART_GUARD_AUTO,
	  { .nr_counters = 6, .fgt = true, .hpmn_enforced = true } },
	{ "n_clamped_to_31", DFR0(4, 0), 0, 0, true, 40,
	  KVM_PMU_PART_GUARD_AUTO,
	  { .nr_counters = 31, .pmuv3p1 = true, .hpmn_enforced = true } },
};

static void caps_case_desc(const struct caps_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(caps, caps_cases, caps_case_desc);

static void caps_test(struct kunit *test)
{
	const struct caps_case *c = test->param_value;
	struct kvm_pmu_part_caps caps;

	memset(&caps, 0xff, sizeof(caps));
	kvm_pmu_part_caps_from(&caps, c->dfr0, c->dfr1, c->mmfr0, c->probed,
			       c->n, c->guard);
	KUNIT_EXPECT_EQ(test, caps.nr_counters, c->expected.nr_counters);
	KUNIT_EXPECT_EQ(test, caps.hpmn0, c->expected.hpmn0);
	KUNIT_EXPECT_EQ(test, caps.pmuv3p1, c->expected.pmuv3p1);
	KUNIT_EXPECT_EQ(test, caps.pmuv3p5, c->expected.pmuv3p5);
	KUNIT_EXPECT_EQ(test, caps.pmuv3p9, c->expected.pmuv3p9);
	KUNIT_EXPECT_EQ(test, caps.icntr, c->expected.icntr);
	KUNIT_EXPECT_EQ(test, caps.fgt, c->expected.fgt);
	KUNIT_EXPECT_EQ(test, caps.fgt2, c->expected.fgt2);
	KUNIT_EXPECT_EQ(test, caps.hpmn_enforced, c->expected.hpmn_enforced);
}

#ifdef CONFIG_KVM_ARM_PMU_DIRECT
/* kvm.pmu_direct_guard's words, and nothing else, parse; each names its value. */
static void guard_param_test(struct kunit *test)
{
	static const char *const bad[] = {
		"", "\n", "off", "off\n", "OFF", " on", "on ", "auto\n\n", "1", "0",
	};
	int guard, i;

	for (guard = 0; guard < KVM_PMU_PART_GUARD_NR; guard++) {
		char line[8];

		snprintf(line, sizeof(line), "%s\n", kvm_pmu_direct_guard_name(guard));
		KUNIT_EXPECT_EQ(test, kvm_pmu_direct_guard_parse(kvm_pmu_direct_guard_name(guard)),
				guard);
		KUNIT_EXPECT_EQ(test, kvm_pmu_direct_guard_parse(line), guard);
	}
	KUNIT_EXPECT_EQ(test, kvm_pmu_direct_guard_parse("auto"), KVM_PMU_PART_GUARD_AUTO);
	KUNIT_EXPECT_EQ(test, kvm_pmu_direct_guard_parse("on"), KVM_PMU_PART_GUARD_ON);
	KUNIT_EXPECT_EQ(test, kvm_pmu_direct_guard_parse("on\n"), KVM_PMU_PART_GUARD_ON);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, kvm_pmu_direct_guard_parse(bad[i]), -EINVAL,
				    "\"%s\"", bad[i]);
	KUNIT_EXPECT_STREQ(test, kvm_pmu_direct_guard_name(KVM_PMU_PART_GUARD_NR), "?");
}
#endif

/*
 * The HPMN probe: the counter it tests is the last one (HPMN = it), none
 * without counters or with one and no FEAT_HPMN0; only that counter's
 * bit reading 0 after EL1 set it says "enforced".
 */
static void probe_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_probe_counter(0, true), -1);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_probe_counter(1, false), -1);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_probe_counter(1, true), 0);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_probe_counter(2, false), 1);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_probe_counter(6, false), 5);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_probe_counter(31, true), 30);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_probe_counter(40, true), 30);

	KUNIT_EXPECT_FALSE(test, kvm_pmu_part_probe_enforced(-1, 0));
	KUNIT_EXPECT_TRUE(test, kvm_pmu_part_probe_enforced(5, 0));
	KUNIT_EXPECT_TRUE(test, kvm_pmu_part_probe_enforced(5, GENMASK_ULL(4, 0) | BIT_ULL(31)));
	KUNIT_EXPECT_FALSE(test, kvm_pmu_part_probe_enforced(5, BIT_ULL(5)));
	KUNIT_EXPECT_FALSE(test, kvm_pmu_part_probe_enforced(0, ~0ULL));
}

/* ------------------------------------------------------------------ */

struct mdcr_case {
	const char *name;
	const struct kvm_pmu_part_caps *caps;
	unsigned int hpmn;
	bool tpm;
	u64 expected;
};

static const struct mdcr_case mdcr_cases[] = {
	/*
	 * HPMN = 3, HPME bit 7, HPMD bit 17, HCCD bit 23, HLP bit 26; TPMCR
	 * bit 5 where HPMN is not enforced (Debian's QEMU: guarded)
	 */
	{ "qemu_max", &qemu_max, 3, false,
	  3 | BIT_ULL(7) | BIT_ULL(17) | BIT_ULL(23) | BIT_ULL(26) | BIT_ULL(5) },
	{ "hpmn0", &qemu_max, 0, false,
	  BIT_ULL(7) | BIT_ULL(17) | BIT_ULL(23) | BIT_ULL(26) | BIT_ULL(5) },
	{ "hw_p5", &hw_p5_fgt, 3, false,
	  3 | BIT_ULL(7) | BIT_ULL(17) | BIT_ULL(23) | BIT_ULL(26) },
	/* PMUv3.0: no HPMD, HCCD, HLP; TPM bit 6 */
	{ "a57_tpm", &qemu_a57, 5, true, 5 | BIT_ULL(7) | BIT_ULL(6) },
	{ "p1_no_hccd", &hw_p1_fgt, 2, false, 2 | BIT_ULL(7) | BIT_ULL(17) },
	{ "thirty_one", &hw_p9_icntr, 31, false,
	  31 | BIT_ULL(7) | BIT_ULL(17) | BIT_ULL(23) | BIT_ULL(26) },
};

static void mdcr_case_desc(const struct mdcr_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mdcr, mdcr_cases, mdcr_case_desc);

static void mdcr_test(struct kunit *test)
{
	const struct mdcr_case *c = test->param_value;
	u64 mdcr = kvm_pmu_part_mdcr(c->caps, c->hpmn, c->tpm);

	KUNIT_EXPECT_EQ(test, mdcr, c->expected);
	KUNIT_EXPECT_EQ(test, mdcr & ~KVM_PMU_PART_MDCR_MASK, 0ULL);
	/*
	 * TPMCR only where HPMN is not enforced (the guarded profile);
	 * elsewhere FGT traps PMCR_EL0 writes alone, and TPM traps it anyway.
	 */
	KUNIT_EXPECT_EQ(test, !!(mdcr & MDCR_EL2_TPMCR),
			!c->caps->hpmn_enforced);
}

/* ------------------------------------------------------------------ */

/* The guest reads N as its share; every other field as the hardware has it. */
static void guest_pmcr_test(struct kunit *test)
{
	/* QEMU's reset PMCR_EL0, N = 6, read with a share of 3 */
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_guest_pmcr(0x41013000ULL, 3),
			0x41011800ULL);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_guest_pmcr(0x41013000ULL | 0xc1, 0),
			0x41010000ULL | 0xc1);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_guest_pmcr(0x41013000ULL, 31),
			0x4101f800ULL);
}

struct pmcr_write_case {
	const char *name;
	const struct kvm_pmu_part_caps *caps;
	u64 val;
	u64 expected;
	bool reset_events;
};

static const struct pmcr_write_case pmcr_write_cases[] = {
	/* the guest driver's reset: P, C, LC, LP */
	{ "reset_p5", &qemu_max, 0xc6, 0xc4, true },
	{ "reset_p1_drops_lp", &hw_p1_fgt, 0xc6, 0x44, true },
	{ "enable", &qemu_max, 0xc1, 0xc1, false },
	{ "disable", &qemu_max, 0xc0, 0xc0, false },
	/* D, X, DP pass; N and the RES0 bits do not */
	{ "d_x_dp", &qemu_max, 0x38, 0x38, false },
	{ "n_and_res0", &qemu_max, 0xffffffffffff0000ULL | GENMASK_ULL(15, 11),
	  0, false },
};

static void pmcr_write_case_desc(const struct pmcr_write_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(pmcr_write, pmcr_write_cases, pmcr_write_case_desc);

static void pmcr_write_test(struct kunit *test)
{
	const struct pmcr_write_case *c = test->param_value;
	bool reset = !c->reset_events;

	KUNIT_EXPECT_EQ(test, kvm_pmu_part_pmcr_write(c->caps, c->val, &reset),
			c->expected);
	KUNIT_EXPECT_EQ(test, reset, c->reset_events);
}

/* ------------------------------------------------------------------ */

struct traps_case {
	const char *name;
	const struct kvm_pmu_part_caps *caps;
	bool event_filter, held;
	u32 read, write;
	bool tpm;
	/* the FGT register values, when not TPM */
	u64 hdfgrtr, hdfgwtr, hdfgrtr2, hdfgwtr2;
};

#define T_INDEXED	(TRAP(PMCNTEN) | TRAP(PMINTEN) | TRAP(PMOVS) |	\
			 TRAP(PMEVCNTR) | TRAP(PMEVTYPER))
#define FGT_INDEXED	(BIT_ULL(12) | BIT_ULL(13) | BIT_ULL(16) | BIT_ULL(17) | \
			 BIT_ULL(18))
#define RTR2_NONE	(BIT_ULL(2) | BIT_ULL(3))
#define WTR2_NONE	(BIT_ULL(2) | BIT_ULL(3) | BIT_ULL(21))

static const struct traps_case traps_cases[] = {
	/* A PMU that enforces HPMN, with HPMD and HCCD: nothing traps. */
	{ "hw_direct", &hw_p5_fgt, false, false, 0, 0, false,
	  0, 0, RTR2_NONE, WTR2_NONE },
	/* ... even without FGT: no TPM, fully direct */
	{ "hw_direct_no_fgt", &hw_p5_nofgt, false, false, 0, 0, false,
	  0, 0, RTR2_NONE, WTR2_NONE },
	{ "hw_event_filter", &hw_p5_fgt, true, false,
	  TRAP(PMEVTYPER) | TRAP(PMCCFILTR) | TRAP(PMCEID), TRAP(PMEVTYPER) | TRAP(PMCCFILTR),
	  false, BIT_ULL(13) | BIT_ULL(14) | BIT_ULL(58), BIT_ULL(13) | BIT_ULL(14),
	  RTR2_NONE, WTR2_NONE },
	{ "hw_held", &hw_p5_fgt, false, true, TRAP(PMINTEN), TRAP(PMINTEN) | TRAP(PMOVS),
	  false, BIT_ULL(17), BIT_ULL(17) | BIT_ULL(18), RTR2_NONE, WTR2_NONE },
	{ "hw_held_no_fgt", &hw_p5_nofgt, false, true, TRAP(PMINTEN),
	  TRAP(PMINTEN) | TRAP(PMOVS), true, BIT_ULL(17), BIT_ULL(17) | BIT_ULL(18),
	  RTR2_NONE, WTR2_NONE },
	/* PMUv3p1 without HCCD: PMCCFILTR_EL0 writes, to clear NSH */
	{ "p1_no_hccd", &hw_p1_fgt, false, false, 0, TRAP(PMCCFILTR), false,
	  0, BIT_ULL(14), RTR2_NONE, WTR2_NONE },
	/* PMICNTR: UNDEF through FGT2's negative bits */
	{ "icntr_fgt2", &hw_p9_icntr, false, false, TRAP(PMICNTR) | TRAP(PMICFILTR),
	  TRAP(PMICNTR) | TRAP(PMICFILTR), false, 0, 0, 0, BIT_ULL(21) },
	{ "icntr_without_fgt2", &hw_icntr_nofgt2, false, false,
	  TRAP(PMICNTR) | TRAP(PMICFILTR), TRAP(PMICNTR) | TRAP(PMICFILTR), true,
	  0, 0, 0, BIT_ULL(21) },
	/* QEMU 10 -cpu max: guarded, through FGT, PMCCNTR stays direct */
	{ "qemu_max_guarded", &qemu_max, false, false, T_INDEXED,
	  T_INDEXED | TRAP(PMCR) | TRAP(PMSWINC), false,
	  FGT_INDEXED, FGT_INDEXED | BIT_ULL(20) | BIT_ULL(21),
	  RTR2_NONE, WTR2_NONE },
	{ "qemu_max_guarded_held_filter", &qemu_max, true, true,
	  T_INDEXED | TRAP(PMCCFILTR) | TRAP(PMCEID),
	  T_INDEXED | TRAP(PMCR) | TRAP(PMSWINC) | TRAP(PMCCFILTR), false,
	  FGT_INDEXED | BIT_ULL(14) | BIT_ULL(58),
	  FGT_INDEXED | BIT_ULL(14) | BIT_ULL(20) | BIT_ULL(21),
	  RTR2_NONE, WTR2_NONE },
	/* QEMU 10 -cpu cortex-a57: PMUv3.0 without FGT: TPM */
	{ "qemu_a57", &qemu_a57, false, false, 0,
	  TRAP(PMEVTYPER) | TRAP(PMCCFILTR), true, 0, BIT_ULL(13) | BIT_ULL(14),
	  RTR2_NONE, WTR2_NONE },
	/* a guarded PMUv3p9 traps PMZR_EL0 writes through FGT2 */
	{ "guarded_p9_pmzr", &guarded_p9, false, false, T_INDEXED,
	  T_INDEXED | TRAP(PMCR) | TRAP(PMSWINC) | TRAP(PMZR), false,
	  FGT_INDEXED, FGT_INDEXED | BIT_ULL(20) | BIT_ULL(21),
	  RTR2_NONE, BIT_ULL(2) | BIT_ULL(3) },
};

static void traps_case_desc(const struct traps_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(traps, traps_cases, traps_case_desc);

static void traps_test(struct kunit *test)
{
	const struct traps_case *c = test->param_value;
	struct kvm_pmu_part_traps t;
	struct kvm_pmu_part_fgt fgt;

	t = kvm_pmu_part_traps(c->caps, c->event_filter, c->held);
	KUNIT_EXPECT_EQ(test, t.read, c->read);
	KUNIT_EXPECT_EQ(test, t.write, c->write);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_need_tpm(c->caps, &t), c->tpm);

	kvm_pmu_part_fgt(&t, &fgt);
	KUNIT_EXPECT_EQ(test, fgt.hdfgrtr, c->hdfgrtr);
	KUNIT_EXPECT_EQ(test, fgt.hdfgwtr, c->hdfgwtr);
	KUNIT_EXPECT_EQ(test, fgt.hdfgrtr2, c->hdfgrtr2);
	KUNIT_EXPECT_EQ(test, fgt.hdfgwtr2, c->hdfgwtr2);
}

/*
 * Whatever the PMU and the vCPU's state, the registers that carry no
 * counter index and hold only the guest's own stay direct: PMUSERENR_EL0
 * (QEMU 10 cannot even trap it with FGT), PMCCNTR_EL0, PMSELR_EL0,
 * PMMIR_EL1 and PMCR_EL0 reads.  And nothing lands outside the masks.
 */
static void traps_never_test(struct kunit *test)
{
	const struct kvm_pmu_part_caps *all[] = {
		&hw_p5_fgt, &hw_p5_nofgt, &hw_p1_fgt, &hw_p9_icntr,
		&hw_icntr_nofgt2, &qemu_max, &qemu_a57, &guarded_p9,
	};
	u32 never = TRAP(PMUSERENR) | TRAP(PMCCNTR) | TRAP(PMSELR) | TRAP(PMMIR);
	int i, cond;

	for (i = 0; i < ARRAY_SIZE(all); i++) {
		for (cond = 0; cond < 4; cond++) {
			struct kvm_pmu_part_traps t;
			struct kvm_pmu_part_fgt fgt;

			t = kvm_pmu_part_traps(all[i], cond & 1, cond & 2);
			KUNIT_EXPECT_EQ(test, t.read & (never | TRAP(PMCR)), 0U);
			KUNIT_EXPECT_EQ(test, t.write & never, 0U);
			KUNIT_EXPECT_EQ(test, (t.read | t.write) &
					~(u32)KVM_PMU_PART_REGS_ALL, 0U);
			kvm_pmu_part_fgt(&t, &fgt);
			KUNIT_EXPECT_EQ(test, fgt.hdfgrtr & ~KVM_PMU_PART_HDFGRTR_MASK, 0ULL);
			KUNIT_EXPECT_EQ(test, fgt.hdfgwtr & ~KVM_PMU_PART_HDFGWTR_MASK, 0ULL);
			KUNIT_EXPECT_EQ(test, fgt.hdfgrtr2 & ~KVM_PMU_PART_HDFGRTR2_MASK, 0ULL);
			KUNIT_EXPECT_EQ(test, fgt.hdfgwtr2 & ~KVM_PMU_PART_HDFGWTR2_MASK, 0ULL);
		}
	}
}

/* Every register's fine-grained trap bit, read and write (Arm ARM D24.3). */
static void fgt_bits_test(struct kunit *test)
{
	static const struct {
		enum kvm_pmu_part_reg reg;
		u64 rtr, wtr, rtr2, wtr2;
	} bits[] = {
		{ KVM_PMU_PART_PMCR, 0, BIT_ULL(21), 0, 0 },
		{ KVM_PMU_PART_PMCNTEN, BIT_ULL(16), BIT_ULL(16), 0, 0 },
		{ KVM_PMU_PART_PMINTEN, BIT_ULL(17), BIT_ULL(17), 0, 0 },
		{ KVM_PMU_PART_PMOVS, BIT_ULL(18), BIT_ULL(18), 0, 0 },
		{ KVM_PMU_PART_PMSELR, BIT_ULL(19), BIT_ULL(19), 0, 0 },
		{ KVM_PMU_PART_PMUSERENR, BIT_ULL(57), BIT_ULL(57), 0, 0 },
		{ KVM_PMU_PART_PMCCNTR, BIT_ULL(15), BIT_ULL(15), 0, 0 },
		{ KVM_PMU_PART_PMCCFILTR, BIT_ULL(14), BIT_ULL(14), 0, 0 },
		{ KVM_PMU_PART_PMEVCNTR, BIT_ULL(12), BIT_ULL(12), 0, 0 },
		{ KVM_PMU_PART_PMEVTYPER, BIT_ULL(13), BIT_ULL(13), 0, 0 },
		{ KVM_PMU_PART_PMSWINC, 0, BIT_ULL(20), 0, 0 },
		{ KVM_PMU_PART_PMCEID, BIT_ULL(58), 0, 0, 0 },
		{ KVM_PMU_PART_PMMIR, BIT_ULL(22), 0, 0, 0 },
		{ KVM_PMU_PART_PMICNTR, 0, 0, BIT_ULL(2), BIT_ULL(2) },
		{ KVM_PMU_PART_PMICFILTR, 0, 0, BIT_ULL(3), BIT_ULL(3) },
		{ KVM_PMU_PART_PMZR, 0, 0, 0, BIT_ULL(21) },
	};
	int i;

	KUNIT_EXPECT_EQ(test, (int)ARRAY_SIZE(bits), (int)KVM_PMU_PART_NR_REGS);
	for (i = 0; i < ARRAY_SIZE(bits); i++) {
		KUNIT_EXPECT_EQ(test, kvm_pmu_part_fgt_bit(bits[i].reg, false), bits[i].rtr);
		KUNIT_EXPECT_EQ(test, kvm_pmu_part_fgt_bit(bits[i].reg, true), bits[i].wtr);
		KUNIT_EXPECT_EQ(test, kvm_pmu_part_fgt2_bit(bits[i].reg, false), bits[i].rtr2);
		KUNIT_EXPECT_EQ(test, kvm_pmu_part_fgt2_bit(bits[i].reg, true), bits[i].wtr2);
	}
}

/* ------------------------------------------------------------------ */

/*
 * A guest overflow from the interrupt to the guest's clear, on a share
 * of 3: counter 0 overflows with its interrupt enabled; counter 2 is
 * enabled for interrupts but has not overflowed; counter 4 is the host's.
 */
static void overflow_hold_test(struct kunit *test)
{
	const u64 guest = kvm_pmu_part_guest_mask(3);
	u64 pmcr = ARMV8_PMU_PMCR_E;
	u64 pminten = BIT_ULL(0) | BIT_ULL(2) | BIT_ULL(4) | C31;
	u64 pmovs = BIT_ULL(0) | BIT_ULL(4);

	/* The host's overflow is not the guest's. */
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_overflow(pmcr, pmovs, pminten, guest),
			BIT_ULL(0));
	/* PMCR_EL0.E gates the guest's interrupt request. */
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_overflow(0, pmovs, pminten, guest), 0ULL);
	KUNIT_EXPECT_FALSE(test, kvm_pmu_part_irq_level(0, pmovs, pminten, guest));

	/*
	 * Held: the hardware gets the guest's enables less the uncleared
	 * overflow (and none of the host's), the virtual line is high.
	 */
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_hw_inten(pminten, pmovs, guest),
			BIT_ULL(2) | C31);
	KUNIT_EXPECT_TRUE(test, kvm_pmu_part_irq_level(pmcr, pmovs, pminten, guest));

	/* A PMINTENSET write of the held bit does not reach the hardware. */
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_hw_inten(BIT_ULL(0) | BIT_ULL(1), pmovs,
						    guest), BIT_ULL(1));

	/* The guest clears the overflow: its enable is back, the line low. */
	pmovs &= ~BIT_ULL(0);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_hw_inten(pminten, pmovs, guest),
			BIT_ULL(0) | BIT_ULL(2) | C31);
	KUNIT_EXPECT_FALSE(test, kvm_pmu_part_irq_level(pmcr, pmovs, pminten, guest));

	/* Its enable cleared with the overflow still set: the line is low too. */
	pmovs |= BIT_ULL(0);
	pminten &= ~BIT_ULL(0);
	KUNIT_EXPECT_FALSE(test, kvm_pmu_part_irq_level(pmcr, pmovs, pminten, guest));
}

/* The cycle counter's overflow is the guest's too, even with no event counter. */
static void overflow_cycle_test(struct kunit *test)
{
	const u64 cycle_only = kvm_pmu_part_guest_mask(0);

	KUNIT_EXPECT_EQ(test, kvm_pmu_part_overflow(ARMV8_PMU_PMCR_E, C31, C31, cycle_only), C31);
	KUNIT_EXPECT_TRUE(test, kvm_pmu_part_irq_level(ARMV8_PMU_PMCR_E, C31, C31, cycle_only));
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_hw_inten(C31 | BIT_ULL(0), 0, cycle_only), C31);
}

/* ------------------------------------------------------------------ */

/* The EL2 fast path's checks, for a share of 3. */
static void fast_path_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_evcntr_idx(2, 3), 2);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_evcntr_idx(3, 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_evcntr_idx(30, 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_evcntr_idx(31, 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_evcntr_idx(0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_evtyper_idx(31, 3), 31);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_evtyper_idx(31, 0), 31);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_evtyper_idx(5, 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_evtyper_idx(0, 3), 0);
}

/* Guest types lose NSH (bit 27) and the EL3 filter (bit 26), nothing else. */
static void typer_write_test(struct kunit *test)
{
	u64 p = ARMV8_PMU_EXCLUDE_EL1, u = ARMV8_PMU_EXCLUDE_EL0;
	u64 nsk = ARMV8_PMU_EXCLUDE_NS_EL1, nsu = ARMV8_PMU_EXCLUDE_NS_EL0;
	u64 th = ARMV8_PMU_EVTYPE_TH, tc = ARMV8_PMU_EVTYPE_TC;

	KUNIT_EXPECT_EQ(test, kvm_pmu_part_typer_write(~0ULL, 0),
			p | u | nsk | nsu | th | tc | 0xffffULL);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_typer_write(BIT_ULL(27) | BIT_ULL(26) | 0x08, 4),
			0x08ULL);
	/* PMCCFILTR_EL0: the filter only */
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_typer_write(~0ULL, ARMV8_PMU_CYCLE_IDX),
			p | u | nsk | nsu);
}

/*
 * Under an event filter the hardware gets a denied event's type with P
 * and U set and NSK, NSU and NSH clear, which counts at no Exception
 * level in any Security state (Arm ARM D13.4.x); an allowed event's,
 * SW_INCR's and CHAIN's pass as they are, and so does every type without
 * a filter.  The cycle counter counts CPU_CYCLES.
 */
static void typer_filtered_test(struct kunit *test)
{
	u64 p = ARMV8_PMU_EXCLUDE_EL1, u = ARMV8_PMU_EXCLUDE_EL0;
	u64 nsk = ARMV8_PMU_EXCLUDE_NS_EL1, nsu = ARMV8_PMU_EXCLUDE_NS_EL0;
	u64 th = ARMV8_PMU_EVTYPE_TH;
	unsigned long *allow;

	allow = kunit_kzalloc(test, BITS_TO_LONGS(KVM_PMU_PART_FILTER_EVENTS) *
			      sizeof(long), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, allow);
	__set_bit(0x08, allow);
	__set_bit(0xffff, allow);

	KUNIT_EXPECT_EQ(test, kvm_pmu_part_typer_filtered(0x11 | nsk, 2, NULL), 0x11 | nsk);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_typer_filtered(0x08 | u | th, 0, allow),
			0x08 | u | th);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_typer_filtered(0xffff, 5, allow), 0xffffULL);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_typer_filtered(0x11 | nsk | nsu | th, 1, allow),
			0x11 | p | u);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_typer_filtered(0x4008, 3, allow), 0x4008 | p | u);
	/* Never filtered: SW_INCR and CHAIN. */
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_typer_filtered(0x00 | u, 0, allow), 0x00 | u);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_typer_filtered(0x1e, 1, allow), 0x1eULL);
	/* PMCCFILTR_EL0 counts CPU_CYCLES, whatever its low bits. */
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_typer_filtered(nsk, ARMV8_PMU_CYCLE_IDX, allow),
			p | u);
	__set_bit(0x11, allow);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_typer_filtered(nsk, ARMV8_PMU_CYCLE_IDX, allow),
			nsk);
}

/*
 * The bits cleared at load and at every exit (the vacate mask): the
 * guest's counters and, with FEAT_PMUv3_ICNTR, the instruction counter's
 * F0, whatever the share; never a counter the host keeps.
 */
static void scrub_mask_test(struct kunit *test)
{
	struct kvm_pmu_part_caps caps = hw_p9_icntr;
	unsigned int hpmn;

	KUNIT_EXPECT_EQ(test, kvm_pmu_part_vacate_mask(&hw_p5_fgt, 3), 0x7ULL | C31);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_vacate_mask(&caps, 3), 0x7ULL | C31 | I32);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_vacate_mask(&caps, 0), C31 | I32);
	for (hpmn = 0; hpmn <= caps.nr_counters; hpmn++) {
		u64 scrub = kvm_pmu_part_vacate_mask(&caps, hpmn);

		KUNIT_EXPECT_EQ(test, scrub & kvm_pmu_part_guest_mask(hpmn),
				kvm_pmu_part_guest_mask(hpmn));
		KUNIT_EXPECT_EQ(test, scrub & kvm_pmu_part_host_mask(&caps, hpmn), 0ULL);
	}
}

/* With ICNTR, PMICNTR_EL0 and PMICFILTR_EL0 trap through FGT2 (a clear bit traps). */
static void icntr_fgt2_test(struct kunit *test)
{
	struct kvm_pmu_part_traps t = kvm_pmu_part_traps(&hw_p9_icntr, false, true);
	struct kvm_pmu_part_fgt fgt;

	kvm_pmu_part_fgt(&t, &fgt);
	KUNIT_EXPECT_EQ(test, fgt.hdfgrtr2 & (HDFGRTR2_EL2_nPMICNTR_EL0 |
					      HDFGRTR2_EL2_nPMICFILTR_EL0), 0ULL);
	KUNIT_EXPECT_EQ(test, fgt.hdfgwtr2 & (HDFGWTR2_EL2_nPMICNTR_EL0 |
					      HDFGWTR2_EL2_nPMICFILTR_EL0), 0ULL);
	t = kvm_pmu_part_traps(&hw_p5_fgt, false, true);
	kvm_pmu_part_fgt(&t, &fgt);
	KUNIT_EXPECT_EQ(test, fgt.hdfgrtr2, KVM_PMU_PART_HDFGRTR2_MASK);
	KUNIT_EXPECT_EQ(test, fgt.hdfgwtr2, KVM_PMU_PART_HDFGWTR2_MASK);
}

/* A PMINTENSET write raises the line only where E and a set overflow meet a new enable. */
static void inten_raises_test(struct kunit *test)
{
	const u64 guest = kvm_pmu_part_guest_mask(3), e = ARMV8_PMU_PMCR_E;

	KUNIT_EXPECT_TRUE(test, kvm_pmu_part_inten_raises(e, BIT_ULL(1), 0, BIT_ULL(1), guest));
	KUNIT_EXPECT_TRUE(test, kvm_pmu_part_inten_raises(e, C31, BIT_ULL(0), C31, guest));
	/* Already enabled: the line was high before (or the overflow is held). */
	KUNIT_EXPECT_FALSE(test, kvm_pmu_part_inten_raises(e, BIT_ULL(1), BIT_ULL(1),
							   BIT_ULL(1), guest));
	KUNIT_EXPECT_FALSE(test, kvm_pmu_part_inten_raises(0, BIT_ULL(1), 0, BIT_ULL(1), guest));
	KUNIT_EXPECT_FALSE(test, kvm_pmu_part_inten_raises(e, BIT_ULL(1), 0, BIT_ULL(2), guest));
	/* A host counter's overflow is not the guest's to raise. */
	KUNIT_EXPECT_FALSE(test, kvm_pmu_part_inten_raises(e, BIT_ULL(4), 0, BIT_ULL(4), guest));
}

/* SW_INCR by EL: P/U exclude, NSK/NSU invert them in Non-secure state. */
static void swinc_counts_test(struct kunit *test)
{
	u64 p = ARMV8_PMU_EXCLUDE_EL1, u = ARMV8_PMU_EXCLUDE_EL0;
	u64 nsk = ARMV8_PMU_EXCLUDE_NS_EL1, nsu = ARMV8_PMU_EXCLUDE_NS_EL0;

	KUNIT_EXPECT_TRUE(test, kvm_pmu_part_swinc_counts(0, false));
	KUNIT_EXPECT_TRUE(test, kvm_pmu_part_swinc_counts(0, true));
	KUNIT_EXPECT_FALSE(test, kvm_pmu_part_swinc_counts(p, false));
	KUNIT_EXPECT_TRUE(test, kvm_pmu_part_swinc_counts(p, true));
	KUNIT_EXPECT_TRUE(test, kvm_pmu_part_swinc_counts(u, false));
	KUNIT_EXPECT_FALSE(test, kvm_pmu_part_swinc_counts(u, true));
	KUNIT_EXPECT_FALSE(test, kvm_pmu_part_swinc_counts(nsk, false));
	KUNIT_EXPECT_TRUE(test, kvm_pmu_part_swinc_counts(p | nsk, false));
	KUNIT_EXPECT_FALSE(test, kvm_pmu_part_swinc_counts(nsu, true));
	KUNIT_EXPECT_TRUE(test, kvm_pmu_part_swinc_counts(u | nsu, true));
	/* Another event, or SW_INCR's number in the upper event bits: no. */
	KUNIT_EXPECT_FALSE(test, kvm_pmu_part_swinc_counts(0x08, false));
	KUNIT_EXPECT_FALSE(test, kvm_pmu_part_swinc_counts(0x4000, true));
}

/* A PMU for kvm_pmu_part_swinc(): types and values, writes counted. */
struct swinc_pmu {
	u64 typer[32], cntr[32];
	unsigned int writes;
};

static u64 swinc_pmu_read(void *arg, unsigned int idx, bool typer)
{
	struct swinc_pmu *pmu = arg;

	return typer ? pmu->typer[idx] : pmu->cntr[idx];
}

static void swinc_pmu_write(void *arg, unsigned int idx, u64 val)
{
	struct swinc_pmu *pmu = arg;

	pmu->cntr[idx] = val;
	pmu->writes++;
}

/*
 * One PMSWINC_EL0 write from EL1 naming counters 0-4 and 6 of a share of
 * 5: counters 0 and 3 count SW_INCR at EL1 (3 at its 32-bit wrap), 1
 * another event, 2 SW_INCR at EL0 only, 4 is not named as counting; 6 is
 * the host's.
 */
static void swinc_test(struct kunit *test)
{
	struct swinc_pmu pmu = { };
	u64 ovf;

	pmu.typer[0] = ARMV8_PMUV3_PERFCTR_SW_INCR;
	pmu.typer[1] = 0x08;
	pmu.typer[2] = ARMV8_PMUV3_PERFCTR_SW_INCR | ARMV8_PMU_EXCLUDE_EL1;
	pmu.typer[3] = ARMV8_PMUV3_PERFCTR_SW_INCR;
	pmu.typer[4] = ARMV8_PMUV3_PERFCTR_SW_INCR;
	pmu.typer[6] = ARMV8_PMUV3_PERFCTR_SW_INCR;
	pmu.cntr[0] = 41;
	pmu.cntr[3] = U32_MAX;
	ovf = kvm_pmu_part_swinc(GENMASK_ULL(3, 0) | BIT_ULL(6), 5, false, false,
				 swinc_pmu_read, swinc_pmu_write, &pmu);
	KUNIT_EXPECT_EQ(test, ovf, BIT_ULL(3));
	KUNIT_EXPECT_EQ(test, pmu.cntr[0], 42ULL);
	KUNIT_EXPECT_EQ(test, pmu.cntr[1], 0ULL);
	KUNIT_EXPECT_EQ(test, pmu.cntr[2], 0ULL);
	KUNIT_EXPECT_EQ(test, pmu.cntr[3], BIT_ULL(32));
	KUNIT_EXPECT_EQ(test, pmu.cntr[4], 0ULL);
	KUNIT_EXPECT_EQ(test, pmu.cntr[6], 0ULL);
	KUNIT_EXPECT_EQ(test, pmu.writes, 2U);

	/* From EL0 counter 2 counts too; with LP, 3 does not wrap at 32 bits. */
	ovf = kvm_pmu_part_swinc(BIT_ULL(2) | BIT_ULL(3), 5, true, true,
				 swinc_pmu_read, swinc_pmu_write, &pmu);
	KUNIT_EXPECT_EQ(test, ovf, 0ULL);
	KUNIT_EXPECT_EQ(test, pmu.cntr[2], 1ULL);
	KUNIT_EXPECT_EQ(test, pmu.cntr[3], BIT_ULL(32) + 1);
}

/* One increment: the overflow at 32 bits, or at 64 with LP. */
static void swinc_value_test(struct kunit *test)
{
	bool ovf;

	KUNIT_EXPECT_EQ(test, kvm_pmu_part_swinc_value(41, false, &ovf), 42ULL);
	KUNIT_EXPECT_FALSE(test, ovf);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_swinc_value(0xffffffffULL, false, &ovf),
			0x100000000ULL);
	KUNIT_EXPECT_TRUE(test, ovf);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_swinc_value(0xffffffffULL, true, &ovf),
			0x100000000ULL);
	KUNIT_EXPECT_FALSE(test, ovf);
	KUNIT_EXPECT_EQ(test, kvm_pmu_part_swinc_value(~0ULL, true, &ovf), 0ULL);
	KUNIT_EXPECT_TRUE(test, ovf);
}

/* A protected VM's share against the PMU of the CPU it is about to run on. */
static void pvm_fits_test(struct kunit *test)
{
	struct kvm_pmu_part_caps caps = hw_p5_fgt;

	KUNIT_EXPECT_TRUE(test, kvm_pmu_part_pvm_fits(&caps, 3));
	KUNIT_EXPECT_TRUE(test, kvm_pmu_part_pvm_fits(&caps, 6));
	KUNIT_EXPECT_TRUE(test, kvm_pmu_part_pvm_fits(&caps, 0));
	KUNIT_EXPECT_TRUE(test, kvm_pmu_part_pvm_fits(&qemu_max, 3));
	/* A CPU with fewer counters than the share */
	caps.nr_counters = 2;
	KUNIT_EXPECT_FALSE(test, kvm_pmu_part_pvm_fits(&caps, 3));
	KUNIT_EXPECT_FALSE(test, kvm_pmu_part_pvm_fits(&caps, 255));
	caps = hw_p5_fgt;
	caps.hpmn0 = false;
	KUNIT_EXPECT_FALSE(test, kvm_pmu_part_pvm_fits(&caps, 0));
	KUNIT_EXPECT_FALSE(test, kvm_pmu_part_pvm_fits(&hw_p1_fgt, 3));
	KUNIT_EXPECT_FALSE(test, kvm_pmu_part_pvm_fits(&hw_p5_nofgt, 3));
	KUNIT_EXPECT_FALSE(test, kvm_pmu_part_pvm_fits(&hw_icntr_nofgt2, 3));
}

static struct kunit_case kvm_pmu_partition_test_cases[] = {
	KUNIT_CASE_PARAM(size_test, size_gen_params),
	KUNIT_CASE(masks_test),
	KUNIT_CASE(masks_partition_test),
	KUNIT_CASE_PARAM(caps_test, caps_gen_params),
#ifdef CONFIG_KVM_ARM_PMU_DIRECT
	KUNIT_CASE(guard_param_test),
#endif
	KUNIT_CASE(probe_test),
	KUNIT_CASE_PARAM(mdcr_test, mdcr_gen_params),
	KUNIT_CASE(guest_pmcr_test),
	KUNIT_CASE_PARAM(pmcr_write_test, pmcr_write_gen_params),
	KUNIT_CASE_PARAM(traps_test, traps_gen_params),
	KUNIT_CASE(traps_never_test),
	KUNIT_CASE(fgt_bits_test),
	KUNIT_CASE(overflow_hold_test),
	KUNIT_CASE(overflow_cycle_test),
	KUNIT_CASE(fast_path_test),
	KUNIT_CASE(typer_write_test),
	KUNIT_CASE(typer_filtered_test),
	KUNIT_CASE(scrub_mask_test),
	KUNIT_CASE(icntr_fgt2_test),
	KUNIT_CASE(inten_raises_test),
	KUNIT_CASE(swinc_counts_test),
	KUNIT_CASE(swinc_test),
	KUNIT_CASE(swinc_value_test),
	KUNIT_CASE(pvm_fits_test),
	{}
};

static struct kunit_suite kvm_pmu_partition_test_suite = {
	.name = "kvm_pmu_partition",
	.test_cases = kvm_pmu_partition_test_cases,
};

kunit_test_suite(kvm_pmu_partition_test_suite);

MODULE_DESCRIPTION("KUnit tests for the direct guest PMU's partition decisions");
MODULE_LICENSE("GPL");

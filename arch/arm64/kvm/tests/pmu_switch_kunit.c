// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: KVM's per-CPU PMU switch state (<kvm/arm_pmu_switch_state.h>).
 *
 * For every switch kind (none, type rewrite, enabled on the host side
 * only, on the guest side only) with a vCPU loaded and not: the type the
 * driver must program now, whether to enable the counter now, and what
 * the state then holds; removal and reset; the copy into a vCPU; and the
 * protected hypervisor's sanitised copy of hostile host state, which
 * must never name a counter that does not exist nor a type field the
 * driver does not program.
 */
#include <kunit/test.h>
#include <kvm/arm_pmu_switch_state.h>

/* PMEVTYPER filter bits (Arm ARM D24.5): P excludes EL1, U EL0; NSH EL2. */
#define P	ARMV8_PMU_EXCLUDE_EL1
#define U	ARMV8_PMU_EXCLUDE_EL0
#define NSH	ARMV8_PMU_INCLUDE_EL2
#define INST	0x08

struct add_case {
	const char *name;
	enum armv8pmu_host_mode mode;
	bool loaded;
	int idx;
	u64 host, guest;	/* the driver's types for the two contexts */
	u64 typer;		/* expected: type to program now */
	bool enable;		/* expected: enable now */
	unsigned long events_host, events_guest, typer_switch;
};

#define B(i)	BIT(i)

static const struct add_case add_cases[] = {
	/* same filter both sides: nothing to switch */
	{ "none", ARMV8PMU_MODE_NVHE, false, 0, INST, INST, INST, true, 0, 0, 0 },
	{ "none_loaded", ARMV8PMU_MODE_VHE, true, 0, INST, INST, INST, true, 0, 0, 0 },
	/* VHE: exclude_guest on EL0 -> rewrite the EL0 bit at load/put */
	{ "vhe_typer", ARMV8PMU_MODE_VHE, false, 1, INST | NSH, INST | NSH | U,
	  INST | NSH, true, 0, 0, B(1) },
	{ "vhe_typer_loaded", ARMV8PMU_MODE_VHE, true, 1, INST | NSH,
	  INST | NSH | U, INST | NSH | U, true, 0, 0, B(1) },
	/* nVHE: a host-only counter that counts EL2: type rewrite at EL2 */
	{ "nvhe_typer", ARMV8PMU_MODE_NVHE, false, 2, INST | NSH, INST | NSH | P | U,
	  INST | NSH, true, 0, 0, B(2) },
	{ "nvhe_typer_loaded", ARMV8PMU_MODE_NVHE, true, 2, INST | NSH,
	  INST | NSH | P | U, INST | NSH | P | U, true, 0, 0, B(2) },
	/* nVHE: exclude_hv host-only: enabled only while the host runs */
	{ "nvhe_cnten_host", ARMV8PMU_MODE_NVHE, false, 3, INST, INST | P | U,
	  INST, true, B(3), 0, 0 },
	{ "nvhe_cnten_host_loaded", ARMV8PMU_MODE_NVHE, true, 3, INST,
	  INST | P | U, INST, false, B(3), 0, 0 },
	/* guest-only: enabled only while the guest runs, with the guest type */
	{ "pkvm_cnten_guest", ARMV8PMU_MODE_PKVM, false, 4, INST | P | U, INST,
	  INST, false, 0, B(4), 0 },
	{ "pkvm_cnten_guest_loaded", ARMV8PMU_MODE_PKVM, true, 4, INST | P | U,
	  INST, INST, true, 0, B(4), 0 },
	/* the cycle and instruction counters switch like the others */
	{ "cycle_counter", ARMV8PMU_MODE_NVHE, false, 31, NSH, NSH | P | U,
	  NSH, true, 0, 0, B(31) },
	{ "instr_counter", ARMV8PMU_MODE_NVHE, false, 32, INST, INST | P | U,
	  INST, true, B(32), 0, 0 },
	/* out of range: programmed as the host's, nothing recorded */
	{ "bad_index", ARMV8PMU_MODE_NVHE, false, 33, INST, INST | P | U,
	  INST, true, 0, 0, 0 },
};

static void add_case_desc(const struct add_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(add, add_cases, add_case_desc);

static void add_test(struct kunit *test)
{
	const struct add_case *c = test->param_value;
	struct kvm_pmu_events ev = { };
	u64 typer = ~0ULL;
	bool enable;

	enable = kvm_pmu_events_add(&ev, c->mode, c->loaded, c->idx, c->host,
				    c->guest, &typer);
	KUNIT_EXPECT_EQ(test, typer, c->typer);
	KUNIT_EXPECT_EQ(test, enable, c->enable);
	KUNIT_EXPECT_EQ(test, ev.events_host, c->events_host);
	KUNIT_EXPECT_EQ(test, ev.events_guest, c->events_guest);
	KUNIT_EXPECT_EQ(test, ev.typer_switch, c->typer_switch);
	KUNIT_EXPECT_EQ(test, ev.switching,
			c->events_host | c->events_guest | c->typer_switch);
	if (c->typer_switch) {
		KUNIT_EXPECT_EQ(test, ev.typer_host[c->idx], c->host);
		KUNIT_EXPECT_EQ(test, ev.typer_guest[c->idx], c->guest);
	}

	/* Removing it leaves nothing to switch. */
	kvm_pmu_events_del(&ev, c->idx);
	KUNIT_EXPECT_EQ(test, ev.switching, 0UL);
	KUNIT_EXPECT_EQ(test, ev.events_host | ev.events_guest | ev.typer_switch, 0UL);
}

/*
 * Recorded types are masked to the fields their register takes: the
 * nVHE world switch writes them as they are.  The driver's cycle counter
 * type carries the CPU_CYCLES number, RES0 in PMCCFILTR_EL0.
 */
static void add_masks_types_test(struct kunit *test)
{
	struct kvm_pmu_events ev = { };
	u64 typer;

	kvm_pmu_events_add(&ev, ARMV8PMU_MODE_NVHE, false, 31, 0x11 | NSH,
			   0x11 | NSH | P | U, &typer);
	KUNIT_EXPECT_EQ(test, ev.typer_host[31], (u64)NSH);
	KUNIT_EXPECT_EQ(test, ev.typer_guest[31], (u64)(NSH | P | U));
	kvm_pmu_events_add(&ev, ARMV8PMU_MODE_NVHE, false, 5,
			   INST | NSH | BIT_ULL(20), INST | NSH | P | U | BIT_ULL(26),
			   &typer);
	KUNIT_EXPECT_EQ(test, ev.typer_host[5], (u64)(INST | NSH));
	KUNIT_EXPECT_EQ(test, ev.typer_guest[5], (u64)(INST | NSH | P | U));
}

/* Removing one counter keeps the others; a reset forgets them all. */
static void del_and_reset_test(struct kunit *test)
{
	struct kvm_pmu_events ev = { };
	u64 typer;

	kvm_pmu_events_add(&ev, ARMV8PMU_MODE_NVHE, false, 0, INST, INST | P | U, &typer);
	kvm_pmu_events_add(&ev, ARMV8PMU_MODE_NVHE, false, 1, INST | P | U, INST, &typer);
	kvm_pmu_events_add(&ev, ARMV8PMU_MODE_NVHE, false, 2, INST | NSH,
			   INST | NSH | P | U, &typer);
	KUNIT_EXPECT_EQ(test, ev.switching, B(0) | B(1) | B(2));

	kvm_pmu_events_del(&ev, 1);
	KUNIT_EXPECT_EQ(test, ev.switching, B(0) | B(2));
	KUNIT_EXPECT_EQ(test, ev.events_guest, 0UL);
	kvm_pmu_events_del(&ev, 40);	/* ignored */
	KUNIT_EXPECT_EQ(test, ev.switching, B(0) | B(2));

	kvm_pmu_events_reset(&ev);
	KUNIT_EXPECT_EQ(test, ev.switching | ev.events_host | ev.events_guest |
			ev.typer_switch, 0UL);
}

/* The copy takes the masks and exactly the type entries in use. */
static void copy_test(struct kunit *test)
{
	struct kvm_pmu_events src = { }, dst;
	u64 typer;

	memset(&dst, 0xa5, sizeof(dst));
	kvm_pmu_events_copy(&dst, &src);
	KUNIT_EXPECT_EQ(test, dst.switching, 0UL);

	kvm_pmu_events_add(&src, ARMV8PMU_MODE_NVHE, false, 5, INST | NSH,
			   INST | NSH | P | U, &typer);
	kvm_pmu_events_add(&src, ARMV8PMU_MODE_NVHE, false, 0, INST, INST | P | U, &typer);
	kvm_pmu_events_changed(&src, 1);
	kvm_pmu_events_copy(&dst, &src);
	KUNIT_EXPECT_EQ(test, dst.switching, B(0) | B(5));
	KUNIT_EXPECT_EQ(test, dst.events_host, B(0));
	KUNIT_EXPECT_EQ(test, dst.events_guest, 0UL);
	KUNIT_EXPECT_EQ(test, dst.typer_switch, B(5));
	KUNIT_EXPECT_EQ(test, dst.typer_host[5], INST | NSH);
	KUNIT_EXPECT_EQ(test, dst.typer_guest[5], INST | NSH | P | U);
	KUNIT_EXPECT_EQ(test, dst.gen, 1ULL);
	/* What the world switch will do: counter 0 by PMCNTEN, 5 by type. */
	KUNIT_EXPECT_EQ(test, dst.plan, KVM_PMU_PLAN_CNTEN_HOST |
			FIELD_PREP(KVM_PMU_PLAN_EVTYPER_TOP, 6));

	/* The same generation again: nothing is copied. */
	dst.events_host = 0;
	kvm_pmu_events_copy(&dst, &src);
	KUNIT_EXPECT_EQ(test, dst.events_host, 0UL);

	/* A change (new generation) is copied at the next entry. */
	kvm_pmu_events_del(&src, 0);
	kvm_pmu_events_changed(&src, 2);
	kvm_pmu_events_copy(&dst, &src);
	KUNIT_EXPECT_EQ(test, dst.switching, B(5));
	KUNIT_EXPECT_EQ(test, dst.gen, 2ULL);
	KUNIT_EXPECT_EQ(test, dst.plan, FIELD_PREP(KVM_PMU_PLAN_EVTYPER_TOP, 6));

	/* Nothing left to switch: nothing planned, whatever was there. */
	kvm_pmu_events_del(&src, 5);
	kvm_pmu_events_changed(&src, 3);
	kvm_pmu_events_copy(&dst, &src);
	KUNIT_EXPECT_EQ(test, dst.plan, 0UL);
}

/*
 * After a run: a host-only counter an NMI removed after the copy was
 * taken is stale (the exit enabled it again), and nothing else is.
 */
static void stale_test(struct kunit *test)
{
	struct kvm_pmu_events live = { }, copy = { };
	u64 typer;

	kvm_pmu_events_add(&live, ARMV8PMU_MODE_NVHE, false, 0, INST, INST | P | U, &typer);
	kvm_pmu_events_add(&live, ARMV8PMU_MODE_NVHE, false, 2, INST, INST | P | U, &typer);
	kvm_pmu_events_add(&live, ARMV8PMU_MODE_NVHE, false, 3, INST | P | U, INST, &typer);
	kvm_pmu_events_add(&live, ARMV8PMU_MODE_NVHE, false, 5, INST | NSH,
			   INST | NSH | P | U, &typer);
	kvm_pmu_events_changed(&live, 1);
	kvm_pmu_events_copy(&copy, &live);
	KUNIT_ASSERT_EQ(test, copy.events_host, B(0) | B(2));
	KUNIT_ASSERT_EQ(test, copy.events_guest, B(3));
	KUNIT_ASSERT_EQ(test, copy.typer_switch, B(5));

	/* Nothing changed since the copy: nothing is stale. */
	KUNIT_EXPECT_EQ(test, kvm_pmu_events_stale(&copy, &live), 0UL);

	/* An NMI stops the events of a host-only, a guest-only and a type-switched counter. */
	kvm_pmu_events_del(&live, 2);
	kvm_pmu_events_del(&live, 3);
	kvm_pmu_events_del(&live, 5);
	kvm_pmu_events_changed(&live, 2);
	KUNIT_EXPECT_EQ(test, kvm_pmu_events_stale(&copy, &live), B(2));

	/* The generation decides: masks that differ under the copy's are not looked at. */
	live.gen = copy.gen;
	KUNIT_EXPECT_EQ(test, kvm_pmu_events_stale(&copy, &live), 0UL);
	kvm_pmu_events_changed(&live, 2);

	/* A copy with no PMCNTEN work: the exit enabled nothing. */
	copy.plan &= ~KVM_PMU_PLAN_CNTEN_HOST;
	KUNIT_EXPECT_EQ(test, kvm_pmu_events_stale(&copy, &live), 0UL);

	/* The next copy takes the change: nothing stale after its run. */
	kvm_pmu_events_copy(&copy, &live);
	KUNIT_EXPECT_EQ(test, kvm_pmu_events_stale(&copy, &live), 0UL);
}

/* The plan names each kind of work and where the type writes start. */
static void plan_test(struct kunit *test)
{
	struct kvm_pmu_events ev = { };

	KUNIT_EXPECT_EQ(test, kvm_pmu_plan(&ev), 0UL);
	ev.events_guest = B(1);
	ev.typer_switch = B(0) | B(2) | B(31) | BIT_ULL(32);
	KUNIT_EXPECT_EQ(test, kvm_pmu_plan(&ev),
			KVM_PMU_PLAN_CNTEN_GUEST | KVM_PMU_PLAN_CYCLE_TYPER |
			KVM_PMU_PLAN_INSTR_TYPER |
			FIELD_PREP(KVM_PMU_PLAN_EVTYPER_TOP, 3));
	ev.typer_switch = B(30);
	KUNIT_EXPECT_EQ(test, FIELD_GET(KVM_PMU_PLAN_EVTYPER_TOP, kvm_pmu_plan(&ev)),
			31UL);
}

static void counters_of_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, kvm_pmu_counters_of(6, false), GENMASK(5, 0) | B(31));
	KUNIT_EXPECT_EQ(test, kvm_pmu_counters_of(0, false), B(31));
	KUNIT_EXPECT_EQ(test, kvm_pmu_counters_of(31, true), GENMASK(32, 0));
	KUNIT_EXPECT_EQ(test, kvm_pmu_counters_of(40, false), GENMASK(31, 0));
}

/*
 * Hostile host state: every mask bit set, every type all ones.  The
 * hypervisor's copy names only the 6 + cycle counters that exist, types
 * only in the fields the driver programs, and @switching is recomputed.
 */
static void sanitise_hostile_test(struct kunit *test)
{
	unsigned long counters = kvm_pmu_counters_of(6, false);
	struct kvm_pmu_events src, dst;
	int idx;

	memset(&src, 0xff, sizeof(src));
	memset(&dst, 0, sizeof(dst));
	kvm_pmu_events_take(&dst, &src, counters);
	KUNIT_EXPECT_EQ(test, dst.gen, ~0ULL);

	KUNIT_EXPECT_EQ(test, dst.events_host, counters);
	KUNIT_EXPECT_EQ(test, dst.events_guest, counters);
	KUNIT_EXPECT_EQ(test, dst.typer_switch, counters);
	KUNIT_EXPECT_EQ(test, dst.switching, counters);
	/* The plan is computed, from the clamped masks: types from 5 down. */
	KUNIT_EXPECT_EQ(test, dst.plan, KVM_PMU_PLAN_CNTEN_HOST |
			KVM_PMU_PLAN_CNTEN_GUEST | KVM_PMU_PLAN_CYCLE_TYPER |
			FIELD_PREP(KVM_PMU_PLAN_EVTYPER_TOP, 6));
	for (idx = 0; idx < 6; idx++)
		KUNIT_EXPECT_EQ(test, dst.typer_guest[idx],
				ARMV8_PMU_EVTYPE_EVENT | ARMV8_PMU_EVTYPE_TH |
				ARMV8_PMU_EVTYPE_TC | P | U | NSH);
	KUNIT_EXPECT_EQ(test, dst.typer_host[31], (u64)(P | U | NSH));
	/* Entries for counters that do not exist are not even written. */
	for (idx = 6; idx < 31; idx++)
		KUNIT_EXPECT_EQ(test, dst.typer_host[idx], 0ULL);
	KUNIT_EXPECT_EQ(test, dst.typer_host[32], 0ULL);
}

/* The counters of a PMU with 6 event counters, as EL2 reads them: counted. */
static unsigned long counters_read(unsigned int *reads)
{
	(*reads)++;
	return kvm_pmu_counters_of(6, false);
}

/* A host that claims nothing switches must not hide a bit that does. */
static void sanitise_recomputes_switching_test(struct kunit *test)
{
	struct kvm_pmu_events src = { }, dst = { };
	unsigned int reads;

	src.events_guest = B(2);
	src.switching = 0;
	src.gen = 1;
	kvm_pmu_events_take(&dst, &src, kvm_pmu_counters_of(6, false));
	KUNIT_EXPECT_EQ(test, dst.switching, B(2));

	/* The cycle counter's filter register has no event field. */
	src.typer_switch = B(31);
	src.typer_guest[31] = 0x11 | P;
	src.gen = 2;
	kvm_pmu_events_take(&dst, &src, kvm_pmu_counters_of(6, false));
	KUNIT_EXPECT_EQ(test, dst.typer_guest[31], (u64)P);

	/*
	 * A host that keeps the generation while changing the state gets
	 * the state already taken (sanitised), not the new one.
	 */
	src.events_host = ~0UL;
	reads = 0;
	kvm_pmu_events_take(&dst, &src, counters_read(&reads));
	KUNIT_EXPECT_EQ(test, dst.events_host, 0UL);
	/* ... and costs no read of the PMU's counters (PMCR_EL0 at EL2). */
	KUNIT_EXPECT_EQ(test, reads, 0U);
	src.gen = 3;
	kvm_pmu_events_take(&dst, &src, counters_read(&reads));
	KUNIT_EXPECT_EQ(test, reads, 1U);
}

/*
 * A protected VM: every enabled counter that could count anything is
 * rewritten for the run to count nothing (EL2 included: the hypervisor's
 * work inside the run is the VM's), its own type (as read, whatever bits
 * the host set) restored at exit; the event stays.
 * Guest-only counters (not enabled in host context) stay off, and the
 * host's state is not consulted: whatever it held before is dropped.
 */
static void confidential_test(struct kunit *test)
{
	struct kvm_pmu_events dst;
	u64 typer[KVM_PMU_SWITCH_COUNTERS] = {
		[0] = 0x08,				/* all ELs */
		[1] = 0x08 | P | U | NSH,		/* EL2 only */
		[2] = 0x11 | ARMV8_PMU_EXCLUDE_NS_EL1,	/* NSK set by a host */
		[3] = 0x08 | U,				/* EL1: host kernel */
		[31] = NSH,				/* cycles, EL0-2 */
	};
	unsigned long enabled = B(0) | B(1) | B(2) | B(3) | B(31);

	memset(&dst, 0xff, sizeof(dst));
	kvm_pmu_events_confidential(&dst, enabled, typer);
	KUNIT_EXPECT_EQ(test, dst.typer_switch, B(0) | B(1) | B(2) | B(3) | B(31));
	KUNIT_EXPECT_EQ(test, dst.switching, dst.typer_switch);
	KUNIT_EXPECT_EQ(test, dst.events_host, 0UL);
	KUNIT_EXPECT_EQ(test, dst.events_guest, 0UL);
	KUNIT_EXPECT_EQ(test, dst.plan, KVM_PMU_PLAN_CYCLE_TYPER |
			FIELD_PREP(KVM_PMU_PLAN_EVTYPER_TOP, 4));
	KUNIT_EXPECT_EQ(test, dst.typer_guest[0], (u64)(0x08 | P | U));
	KUNIT_EXPECT_EQ(test, dst.typer_guest[1], (u64)(0x08 | P | U));
	KUNIT_EXPECT_EQ(test, dst.typer_guest[2], (u64)(0x11 | P | U));
	KUNIT_EXPECT_EQ(test, dst.typer_guest[3], (u64)(0x08 | P | U));
	KUNIT_EXPECT_EQ(test, dst.typer_guest[31], (u64)(P | U));
	KUNIT_EXPECT_EQ(test, dst.typer_host[2], typer[2]);
	KUNIT_EXPECT_EQ(test, dst.typer_host[31], typer[31]);

	/* Nothing enabled: nothing to do, not even a PMCNTEN write. */
	kvm_pmu_events_confidential(&dst, 0, typer);
	KUNIT_EXPECT_EQ(test, dst.plan, 0UL);
	KUNIT_EXPECT_EQ(test, dst.switching, 0UL);
}

/* PMCCFILTR/PMICFILTR take the filter only; PMEVTYPER event, TH, TC too. */
static void typer_mask_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, kvm_pmu_typer_mask(31), (u64)ARMV8PMU_FILTER_MASK);
	KUNIT_EXPECT_EQ(test, kvm_pmu_typer_mask(32), (u64)ARMV8PMU_FILTER_MASK);
	KUNIT_EXPECT_EQ(test, kvm_pmu_typer_mask(0) & GENMASK_ULL(15, 0),
			GENMASK_ULL(15, 0));
	KUNIT_EXPECT_EQ(test, kvm_pmu_typer_mask(0) & GENMASK_ULL(26, 16), 0ULL);
}

static struct kunit_case kvm_pmu_switch_test_cases[] = {
	KUNIT_CASE_PARAM(add_test, add_gen_params),
	KUNIT_CASE(add_masks_types_test),
	KUNIT_CASE(del_and_reset_test),
	KUNIT_CASE(copy_test),
	KUNIT_CASE(stale_test),
	KUNIT_CASE(plan_test),
	KUNIT_CASE(counters_of_test),
	KUNIT_CASE(sanitise_hostile_test),
	KUNIT_CASE(sanitise_recomputes_switching_test),
	KUNIT_CASE(confidential_test),
	KUNIT_CASE(typer_mask_test),
	{}
};

static struct kunit_suite kvm_pmu_switch_test_suite = {
	.name = "kvm_pmu_switch",
	.test_cases = kvm_pmu_switch_test_cases,
};

kunit_test_suite(kvm_pmu_switch_test_suite);

MODULE_DESCRIPTION("KUnit tests for KVM's host PMU switch state");
MODULE_LICENSE("GPL");

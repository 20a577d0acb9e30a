// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the perf-register service's pure decisions (<kvm/arm_pmu_hvc.h>).
 *
 * Which register each ID names for a vPMU of 6 counters (and that an
 * ID past the counters, a kind that does not exist or a control number
 * past the list names none); the number of IDs; the status an access
 * gets before any register is touched, for every grant, direction and
 * kind of bad argument; and a batch call's arguments.
 */
#include <kunit/test.h>
#include <kvm/arm_pmu_hvc.h>

#define N	6	/* event counters of the vPMU under test */

struct decode_case {
	const char *name;
	u16 id;
	int err;
	u32 encoding;
	bool readable, writable;
};

static const struct decode_case decode_cases[] = {
	{ "pmcr", KVM_PERFREG_PMCR, 0, SYS_PMCR_EL0, true, true },
	{ "pmcntenset", KVM_PERFREG_PMCNTENSET, 0, SYS_PMCNTENSET_EL0, true, true },
	{ "pmcntenclr", KVM_PERFREG_PMCNTENCLR, 0, SYS_PMCNTENCLR_EL0, true, true },
	{ "pmintenset", KVM_PERFREG_PMINTENSET, 0, SYS_PMINTENSET_EL1, true, true },
	{ "pmintenclr", KVM_PERFREG_PMINTENCLR, 0, SYS_PMINTENCLR_EL1, true, true },
	{ "pmovsset", KVM_PERFREG_PMOVSSET, 0, SYS_PMOVSSET_EL0, true, true },
	{ "pmovsclr", KVM_PERFREG_PMOVSCLR, 0, SYS_PMOVSCLR_EL0, true, true },
	{ "pmuserenr", KVM_PERFREG_PMUSERENR, 0, SYS_PMUSERENR_EL0, true, true },
	{ "pmswinc_write_only", KVM_PERFREG_PMSWINC, 0, SYS_PMSWINC_EL0, false, true },
	{ "pmceid0_read_only", KVM_PERFREG_PMCEID0, 0, SYS_PMCEID0_EL0, true, false },
	{ "pmceid1_read_only", KVM_PERFREG_PMCEID1, 0, SYS_PMCEID1_EL0, true, false },
	{ "control_past_list", KVM_PERFREG_NR_CONTROL, -EINVAL },
	{ "control_0xff", 0x0ff, -EINVAL },
	{ "pmevcntr0", KVM_PERFREG_PMEVCNTR(0), 0, SYS_PMEVCNTRn_EL0(0), true, true },
	{ "pmevcntr5", KVM_PERFREG_PMEVCNTR(5), 0, SYS_PMEVCNTRn_EL0(5), true, true },
	{ "pmevcntr_at_n", KVM_PERFREG_PMEVCNTR(N), -EINVAL },
	{ "pmevcntr30", KVM_PERFREG_PMEVCNTR(30), -EINVAL },
	{ "pmccntr", KVM_PERFREG_PMCCNTR, 0, SYS_PMCCNTR_EL0, true, true },
	{ "pmevcntr_32", KVM_PERFREG_PMEVCNTR(32), -EINVAL },
	{ "pmevtyper0", KVM_PERFREG_PMEVTYPER(0), 0, SYS_PMEVTYPERn_EL0(0), true, true },
	{ "pmevtyper5", KVM_PERFREG_PMEVTYPER(5), 0, SYS_PMEVTYPERn_EL0(5), true, true },
	{ "pmevtyper_at_n", KVM_PERFREG_PMEVTYPER(N), -EINVAL },
	{ "pmccfiltr", KVM_PERFREG_PMCCFILTR, 0, SYS_PMCCFILTR_EL0, true, true },
	{ "kind_3", 0x300, -EINVAL },
	{ "kind_ff", 0xff00, -EINVAL },
};

static void decode_case_desc(const struct decode_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(decode, decode_cases, decode_case_desc);

static void decode_test(struct kunit *test)
{
	const struct decode_case *c = test->param_value;
	struct kvm_perfreg_reg reg;
	int err = kvm_perfreg_decode(c->id, N, &reg);

	KUNIT_EXPECT_EQ(test, err, c->err);
	if (err)
		return;
	KUNIT_EXPECT_EQ(test, reg.encoding, c->encoding);
	KUNIT_EXPECT_EQ(test, reg.readable, c->readable);
	KUNIT_EXPECT_EQ(test, reg.writable, c->writable);
}

/* Every ID bank 0 has, counted by decoding all 65536: the VERSION figure. */
static void nr_ids_test(struct kunit *test)
{
	static const unsigned int ns[] = { 0, 1, 6, 31 };
	struct kvm_perfreg_reg reg;
	unsigned int i, id, valid;

	for (i = 0; i < ARRAY_SIZE(ns); i++) {
		valid = 0;
		for (id = 0; id <= U16_MAX; id++)
			valid += !kvm_perfreg_decode(id, ns[i], &reg);
		KUNIT_EXPECT_EQ_MSG(test, valid, kvm_perfreg_nr_ids(ns[i]),
				    "n = %u", ns[i]);
	}
}

#define GET	KVM_PERFREG_BMAP_BIT(KVM_PERFREG_FUNC_GET)
#define SET	KVM_PERFREG_BMAP_BIT(KVM_PERFREG_FUNC_SET)
#define ALL	KVM_PERFREG_BMAP_ALL

struct check_case {
	const char *name;
	unsigned long bmap;
	bool has_pmu;
	u64 bank, id;
	u8 op;
	int status;
};

static const struct check_case check_cases[] = {
	{ "read", ALL, true, 0, KVM_PERFREG_PMCR, KVM_PERFREG_OP_READ, 0 },
	{ "write", ALL, true, 0, KVM_PERFREG_PMEVTYPER(2), KVM_PERFREG_OP_WRITE, 0 },
	{ "read_clear", ALL, true, 0, KVM_PERFREG_PMOVSCLR, KVM_PERFREG_OP_READ_CLEAR, 0 },
	/* no vPMU: no access, whatever else is wrong */
	{ "no_pmu", ALL, false, 0, KVM_PERFREG_PMCR, KVM_PERFREG_OP_READ,
	  KVM_PERFREG_NO_ACCESS },
	{ "no_pmu_bad_id", ALL, false, 0, 0x0ff, KVM_PERFREG_OP_READ,
	  KVM_PERFREG_NO_ACCESS },
	/* grants, per direction */
	{ "read_without_get", SET, true, 0, KVM_PERFREG_PMCR, KVM_PERFREG_OP_READ,
	  KVM_PERFREG_NO_ACCESS },
	{ "write_without_set", GET, true, 0, KVM_PERFREG_PMCR, KVM_PERFREG_OP_WRITE,
	  KVM_PERFREG_NO_ACCESS },
	{ "read_clear_needs_both", GET, true, 0, KVM_PERFREG_PMOVSCLR,
	  KVM_PERFREG_OP_READ_CLEAR, KVM_PERFREG_NO_ACCESS },
	{ "read_with_get_only", GET, true, 0, KVM_PERFREG_PMCR, KVM_PERFREG_OP_READ, 0 },
	{ "nothing_granted", 0, true, 0, KVM_PERFREG_PMCR, KVM_PERFREG_OP_READ,
	  KVM_PERFREG_NO_ACCESS },
	/* bad arguments */
	{ "bank_1", ALL, true, 1, KVM_PERFREG_PMCR, KVM_PERFREG_OP_READ,
	  KVM_PERFREG_INVALID_PARAMETER },
	{ "bank_2_pow_32", ALL, true, BIT_ULL(32), KVM_PERFREG_PMCR,
	  KVM_PERFREG_OP_READ, KVM_PERFREG_INVALID_PARAMETER },
	{ "id_past_16_bits", ALL, true, 0, BIT_ULL(16) | KVM_PERFREG_PMCR,
	  KVM_PERFREG_OP_READ, KVM_PERFREG_INVALID_PARAMETER },
	{ "counter_at_n", ALL, true, 0, KVM_PERFREG_PMEVCNTR(N), KVM_PERFREG_OP_READ,
	  KVM_PERFREG_INVALID_PARAMETER },
	{ "write_read_only", ALL, true, 0, KVM_PERFREG_PMCEID0, KVM_PERFREG_OP_WRITE,
	  KVM_PERFREG_INVALID_PARAMETER },
	{ "read_write_only", ALL, true, 0, KVM_PERFREG_PMSWINC, KVM_PERFREG_OP_READ,
	  KVM_PERFREG_INVALID_PARAMETER },
	{ "read_clear_read_only", ALL, true, 0, KVM_PERFREG_PMCEID1,
	  KVM_PERFREG_OP_READ_CLEAR, KVM_PERFREG_INVALID_PARAMETER },
	{ "op_3", ALL, true, 0, KVM_PERFREG_PMCR, 3, KVM_PERFREG_INVALID_PARAMETER },
	{ "op_255", ALL, true, 0, KVM_PERFREG_PMCR, 255, KVM_PERFREG_INVALID_PARAMETER },
};

static void check_case_desc(const struct check_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(check, check_cases, check_case_desc);

static void check_test(struct kunit *test)
{
	const struct check_case *c = test->param_value;
	struct kvm_perfreg_ctx ctx = {
		.bmap = c->bmap, .has_pmu = c->has_pmu, .nr_counters = N,
	};
	struct kvm_perfreg_reg reg;

	KUNIT_EXPECT_EQ(test, kvm_perfreg_check(&ctx, c->bank, c->id, c->op, &reg),
			c->status);
}

static void batch_args_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, kvm_perfreg_batch_args(0x80000000, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, kvm_perfreg_batch_args(0x80000000,
						     KVM_PERFREG_BATCH_MAX, 0), 0);
	KUNIT_EXPECT_EQ(test, kvm_perfreg_batch_args(0x80000010, 1, 0),
			KVM_PERFREG_INVALID_PARAMETER);
	KUNIT_EXPECT_EQ(test, kvm_perfreg_batch_args(0x80000000, 0, 0),
			KVM_PERFREG_INVALID_PARAMETER);
	KUNIT_EXPECT_EQ(test, kvm_perfreg_batch_args(0x80000000,
						     KVM_PERFREG_BATCH_MAX + 1, 0),
			KVM_PERFREG_INVALID_PARAMETER);
	KUNIT_EXPECT_EQ(test, kvm_perfreg_batch_args(0x80000000, 1, 1),
			KVM_PERFREG_INVALID_PARAMETER);
	KUNIT_EXPECT_EQ(test, kvm_perfreg_batch_args(0x80000000, ~0ULL, 0),
			KVM_PERFREG_INVALID_PARAMETER);
	/* A page's worth of entries, 16 bytes each. */
	KUNIT_EXPECT_EQ(test, sizeof(struct kvm_perfreg_op), 16UL);
	KUNIT_EXPECT_EQ(test, KVM_PERFREG_BATCH_MAX, 256UL);
}

static struct kunit_case arm_pmuv3_perfreg_test_cases[] = {
	KUNIT_CASE_PARAM(decode_test, decode_gen_params),
	KUNIT_CASE(nr_ids_test),
	KUNIT_CASE_PARAM(check_test, check_gen_params),
	KUNIT_CASE(batch_args_test),
	{}
};

static struct kunit_suite arm_pmuv3_perfreg_test_suite = {
	.name = "arm_pmuv3_perfreg",
	.test_cases = arm_pmuv3_perfreg_test_cases,
};

kunit_test_suite(arm_pmuv3_perfreg_test_suite);

MODULE_DESCRIPTION("KUnit tests for the KVM perf-register service's checks");
MODULE_LICENSE("GPL");

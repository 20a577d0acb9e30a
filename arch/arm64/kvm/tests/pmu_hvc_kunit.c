// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the perf-register service's decisions (pmu_hvc.c).
 *
 * Which register each ID names for a vPMU of 6 counters (and that an
 * ID past the counters, a kind that does not exist or a control number
 * past the list names none); the number of IDs; the status an access
 * gets before any register is touched, for every grant, direction and
 * kind of bad argument; a batch call's arguments, where a resumed list
 * may start and end; what each entry costs; and where a batch call
 * stops, played out call by call through the service's own walk of a
 * list (kvm_perfreg_batch_list()), with a list in memory for the guest
 * page: a list of 256 resets stops at the budget and resumes to its
 * end, the PMUv3 driver's batches go in one call, a failed entry ends a
 * partial call, the host wanting its CPU back ends one early.
 */
#include <kunit/test.h>
#include <linux/perf/arm_pmuv3.h>
#include <linux/string.h>
#include <asm/sysreg.h>
#include <kvm/arm_pmu_hvc.h>

#include "../pmu_hvc.h"

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

#define BATCH_IPA	0x80000000ULL	/* a page-aligned guest address */
#define OP_SIZE	sizeof(struct kvm_perfreg_op)

struct batch_args_case {
	const char *name;
	u64 ipa, nr, flags;
	int status;
};

static const struct batch_args_case batch_args_cases[] = {
	{ "page_aligned", BATCH_IPA, 1, 0, 0 },
	{ "page_aligned_full", BATCH_IPA, KVM_PERFREG_BATCH_MAX, 0, 0 },
	/* 1.1: a resumed list starts at an entry, and ends in its page */
	{ "second_entry", BATCH_IPA + OP_SIZE, 1, 0, 0 },
	{ "second_entry_to_end", BATCH_IPA + OP_SIZE, KVM_PERFREG_BATCH_MAX - 1, 0, 0 },
	{ "last_entry", BATCH_IPA + 4096 - OP_SIZE, 1, 0, 0 },
	{ "second_entry_past_end", BATCH_IPA + OP_SIZE, KVM_PERFREG_BATCH_MAX, 0,
	  KVM_PERFREG_INVALID_PARAMETER },
	{ "last_entry_and_one_more", BATCH_IPA + 4096 - OP_SIZE, 2, 0,
	  KVM_PERFREG_INVALID_PARAMETER },
	{ "inside_an_entry", BATCH_IPA + 8, 1, 0, KVM_PERFREG_INVALID_PARAMETER },
	{ "odd_address", BATCH_IPA + 1, 1, 0, KVM_PERFREG_INVALID_PARAMETER },
	{ "no_entries", BATCH_IPA, 0, 0, KVM_PERFREG_INVALID_PARAMETER },
	{ "one_too_many", BATCH_IPA, KVM_PERFREG_BATCH_MAX + 1, 0,
	  KVM_PERFREG_INVALID_PARAMETER },
	{ "nr_all_ones", BATCH_IPA, ~0ULL, 0, KVM_PERFREG_INVALID_PARAMETER },
	{ "partial", BATCH_IPA, 1, KVM_PERFREG_BATCH_PARTIAL, 0 },
	{ "flag_1", BATCH_IPA, 1, BIT_ULL(1), KVM_PERFREG_INVALID_PARAMETER },
	{ "flag_63", BATCH_IPA, 1, BIT_ULL(63) | KVM_PERFREG_BATCH_PARTIAL,
	  KVM_PERFREG_INVALID_PARAMETER },
};

static void batch_args_case_desc(const struct batch_args_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(batch_args, batch_args_cases, batch_args_case_desc);

static void batch_args_test(struct kunit *test)
{
	const struct batch_args_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, kvm_perfreg_batch_args(c->ipa, c->nr, c->flags),
			c->status);
}

/* A page's worth of entries, 16 bytes each: the ABI's layout. */
static void batch_layout_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sizeof(struct kvm_perfreg_op), 16UL);
	KUNIT_EXPECT_EQ(test, KVM_PERFREG_BATCH_MAX, 256UL);
	KUNIT_EXPECT_EQ(test, KVM_PERFREG_VERSION, 0x10002UL);
}

#define WR	KVM_PERFREG_OP_WRITE
#define RD	KVM_PERFREG_OP_READ
#define RDCLR	KVM_PERFREG_OP_READ_CLEAR
#define PMCR_P	ARMV8_PMU_PMCR_P
#define PMCR_C	ARMV8_PMU_PMCR_C
#define PMCR_E	ARMV8_PMU_PMCR_E

struct cost_case {
	const char *name;
	u16 id;
	u8 bank, op;
	u64 value;
	unsigned int n, cost;
};

static const struct cost_case cost_cases[] = {
	{ "pmcr_read", KVM_PERFREG_PMCR, 0, RD, PMCR_P | PMCR_C, N, 1 },
	{ "pmcr_enable", KVM_PERFREG_PMCR, 0, WR, PMCR_E, N, 1 },
	{ "pmcr_p", KVM_PERFREG_PMCR, 0, WR, PMCR_P, N, N },
	{ "pmcr_c", KVM_PERFREG_PMCR, 0, WR, PMCR_C, N, 1 },
	{ "pmcr_p_c", KVM_PERFREG_PMCR, 0, WR, PMCR_P | PMCR_C | PMCR_E, N, N + 1 },
	{ "pmcr_p_c_31", KVM_PERFREG_PMCR, 0, WR, PMCR_P | PMCR_C, 31, 32 },
	{ "pmcr_p_c_0", KVM_PERFREG_PMCR, 0, WR, PMCR_P | PMCR_C, 0, 1 },
	{ "pmcr_p_0", KVM_PERFREG_PMCR, 0, WR, PMCR_P, 0, 1 },
	{ "pmcr_read_clear", KVM_PERFREG_PMCR, 0, RDCLR, 0, N, N + 1 },
	{ "pmcntenset_all", KVM_PERFREG_PMCNTENSET, 0, WR, U64_MAX, N, N + 1 },
	{ "pmcntenset_one", KVM_PERFREG_PMCNTENSET, 0, WR, BIT(3), N, 1 },
	{ "pmcntenset_pair", KVM_PERFREG_PMCNTENSET, 0, WR, BIT(2) | BIT(3), N, 2 },
	{ "pmcntenset_none", KVM_PERFREG_PMCNTENSET, 0, WR, 0, N, 1 },
	{ "pmcntenset_past_n", KVM_PERFREG_PMCNTENSET, 0, WR, GENMASK(30, N), N, 1 },
	{ "pmcntenclr_all", KVM_PERFREG_PMCNTENCLR, 0, WR, U64_MAX, N, N + 1 },
	{ "pmcntenclr_read", KVM_PERFREG_PMCNTENCLR, 0, RD, U64_MAX, N, 1 },
	{ "pmcntenclr_read_clear", KVM_PERFREG_PMCNTENCLR, 0, RDCLR, 0, N, N + 1 },
	{ "pmovsclr_read_clear", KVM_PERFREG_PMOVSCLR, 0, RDCLR, 0, N, 1 },
	{ "pmintenclr_all", KVM_PERFREG_PMINTENCLR, 0, WR, U64_MAX, N, 1 },
	{ "counter_write", KVM_PERFREG_PMEVCNTR(2), 0, WR, U64_MAX, N, 1 },
	{ "typer_write", KVM_PERFREG_PMEVTYPER(2), 0, WR, U64_MAX, N, 1 },
	{ "bank_1", KVM_PERFREG_PMCR, 1, WR, PMCR_P | PMCR_C, N, 1 },
	{ "op_3", KVM_PERFREG_PMCR, 0, 3, PMCR_P | PMCR_C, N, 1 },
	{ "bad_id", 0x0ff, 0, WR, U64_MAX, N, 1 },
};

static void cost_case_desc(const struct cost_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cost, cost_cases, cost_case_desc);

static void cost_test(struct kunit *test)
{
	const struct cost_case *c = test->param_value;
	struct kvm_perfreg_op e = {
		.id = c->id, .bank = c->bank, .op = c->op, .value = c->value,
	};

	KUNIT_EXPECT_EQ(test, kvm_perfreg_cost(&e, c->n), c->cost);
}

/* ---- batch calls, played out call by call ---- */

/*
 * The guest's side of one BATCH call, answered by the service's walk:
 * @ops is the guest page (the list from its entry @from on), every
 * access is checked by kvm_perfreg_check() for a vPMU of @n counters with
 * everything granted (an entry that passes the check succeeds), and the
 * host wants its CPU back from entry @yield_at of the call on (0: never).
 */
struct test_host {
	struct kvm_perfreg_op *ops;
	struct kvm_perfreg_ctx ctx;
	u64 yield_at;
	u64 asked;		/* yield questions so far: the entry's index */
	u64 written;		/* entries written back */
};

static bool test_copy_in(void *arg, u64 from, struct kvm_perfreg_op *ops,
			 unsigned int n)
{
	struct test_host *h = arg;

	memcpy(ops, h->ops + from, n * sizeof(*ops));
	return true;
}

static bool test_copy_out(void *arg, u64 from, const struct kvm_perfreg_op *ops,
			  unsigned int n)
{
	struct test_host *h = arg;

	memcpy(h->ops + from, ops, n * sizeof(*ops));
	h->written += n;
	return true;
}

static int test_access(void *arg, struct kvm_perfreg_op *e)
{
	struct test_host *h = arg;
	struct kvm_perfreg_reg reg;

	e->status = kvm_perfreg_check(&h->ctx, e->bank, e->id, e->op, &reg);
	return e->status;
}

static bool test_yield(void *arg)
{
	struct test_host *h = arg;

	return h->yield_at && h->asked++ >= h->yield_at;
}

/* One call of @nr entries of @ops: a0-a2 in @a; entries written back. */
static u64 host_call(struct kvm_perfreg_op *ops, u64 nr, u64 flags,
		     unsigned int n, u64 yield_at, u64 *a)
{
	struct test_host h = {
		.ops = ops,
		.ctx = { .bmap = KVM_PERFREG_BMAP_ALL, .has_pmu = true,
			 .nr_counters = n },
		.yield_at = yield_at,
	};

	kvm_perfreg_batch_list(nr, flags, n, a, test_copy_in, test_copy_out,
			       test_access, test_yield, &h);
	return h.written;
}

/* What a list came to, sent call after call as the ABI allows. */
struct sent {
	unsigned int calls;
	u64 first;		/* entries the first call carried out */
	u64 done;		/* entries carried out, in all */
	long status;		/* the last call's a0 */
	u64 failed;		/* the last call's a1 */
};

/*
 * A caller that takes partial batches: it calls again from the first
 * entry a call left until the list is done, a call fails or fails an
 * entry, or a call makes no progress (which the service never answers).
 */
static struct sent guest_send(struct kunit *test, struct kvm_perfreg_op *ops,
			      u64 nr, unsigned int n, u64 yield_at)
{
	struct sent s = { };
	u64 a[3];

	do {
		host_call(ops + s.done, nr - s.done, KVM_PERFREG_BATCH_PARTIAL,
			  n, yield_at, a);
		s.calls++;
		s.first = s.first ?: a[2];
		s.done += a[2];
		s.status = a[0];
		s.failed = a[1];
	} while (!a[0] && !a[1] && a[2] && s.done < nr);
	KUNIT_EXPECT_LE_MSG(test, s.calls, nr, "a call that made no progress");
	return s;
}

static struct kvm_perfreg_op *alloc_entries(struct kunit *test)
{
	struct kvm_perfreg_op *ops = kunit_kcalloc(test, KVM_PERFREG_BATCH_MAX,
						   sizeof(*ops), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ops);
	return ops;
}

static void add_entry(struct kvm_perfreg_op *ops, unsigned int *nr, u16 id,
		      u8 op, u64 value)
{
	ops[(*nr)++] = (struct kvm_perfreg_op){ .id = id, .op = op, .value = value };
}

/* 256 resets (P and C): 8,192 perf event re-creations for N = 31. */
static unsigned int fill_resets(struct kvm_perfreg_op *ops)
{
	unsigned int nr = 0;

	while (nr < KVM_PERFREG_BATCH_MAX)
		add_entry(ops, &nr, KVM_PERFREG_PMCR, WR, PMCR_P | PMCR_C);
	return nr;
}

struct resume_case {
	const char *name;
	unsigned int n;
	u64 first;		/* KVM_PERFREG_BATCH_BUDGET / (n + 1) */
	unsigned int calls;
};

static const struct resume_case resume_cases[] = {
	{ "n6", N, 146, 2 },		/* 146 x 7 = 1,022 units */
	{ "n31", 31, 32, 8 },		/* 32 x 32 = 1,024 */
	{ "n3", 3, 256, 1 },		/* 256 x 4 = 1,024: no stop */
	{ "n4", 4, 204, 2 },		/* 204 x 5 = 1,020 */
};

static void resume_case_desc(const struct resume_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(resume, resume_cases, resume_case_desc);

/* A list of resets stops at the budget, and resumes to its end. */
static void resets_resume_test(struct kunit *test)
{
	const struct resume_case *c = test->param_value;
	struct kvm_perfreg_op *ops = alloc_entries(test);
	unsigned int nr = fill_resets(ops);
	struct sent s = guest_send(test, ops, nr, c->n, 0);

	KUNIT_EXPECT_EQ(test, s.first, c->first);
	KUNIT_EXPECT_EQ(test, s.calls, c->calls);
	KUNIT_EXPECT_EQ(test, s.done, (u64)nr);
	KUNIT_EXPECT_EQ(test, s.status, 0L);
}

/*
 * The same list from a 1.0 caller (no PARTIAL): the call stops at the
 * budget all the same, and fails, saying how far it went; what it
 * carried out is written back, and nothing else.
 */
static void resets_whole_test(struct kunit *test)
{
	struct kvm_perfreg_op *ops = alloc_entries(test);
	unsigned int nr = fill_resets(ops), i;
	u64 a[3], written;

	for (i = 0; i < nr; i++)
		ops[i].status = -1000;
	written = host_call(ops, nr, 0, N, 0, a);
	KUNIT_EXPECT_EQ(test, (long)a[0], (long)KVM_PERFREG_INVALID_PARAMETER);
	KUNIT_EXPECT_EQ(test, a[1], 0ULL);
	KUNIT_EXPECT_EQ(test, a[2], 146ULL);
	KUNIT_EXPECT_EQ(test, written, 146ULL);
	KUNIT_EXPECT_EQ(test, ops[145].status, 0);
	KUNIT_EXPECT_EQ(test, ops[146].status, -1000);
	/* A 1.0 caller's calls never stop for the host's other work. */
	host_call(ops, 100, 0, N, 1, a);
	KUNIT_EXPECT_EQ(test, (long)a[0], 0L);
	KUNIT_EXPECT_EQ(test, a[2], 100ULL);
}

/*
 * The PMUv3 driver's batches (arm_pmuv3_hvc.c), for a vPMU of 31
 * counters.  Its entries name one counter or a chained pair, but for a
 * reset's.
 */

/* The overflow interrupt: read-and-clear PMOVSCLR, read every counter. */
static unsigned int irq_batch(struct kvm_perfreg_op *ops)
{
	unsigned int nr = 0, i;

	add_entry(ops, &nr, KVM_PERFREG_PMOVSCLR, RDCLR, 0);
	for (i = 0; i <= KVM_PERFREG_CYCLE; i++)
		add_entry(ops, &nr, KVM_PERFREG_PMEVCNTR(i), RD, 0);
	return nr;
}

/*
 * A full queue of events moved in a context switch: per chained pair,
 * disable, interrupt off, type, value, interrupt on, enable.
 */
static unsigned int switch_batch(struct kvm_perfreg_op *ops)
{
	unsigned int nr = 0, i = 0;

	add_entry(ops, &nr, KVM_PERFREG_PMCR, WR, 0);
	while (nr + 9 <= KVM_PERFREG_BATCH_MAX) {
		u64 pair = BIT(i) | BIT(i + 1);

		add_entry(ops, &nr, KVM_PERFREG_PMCNTENCLR, WR, pair);
		add_entry(ops, &nr, KVM_PERFREG_PMINTENCLR, WR, BIT(i + 1));
		add_entry(ops, &nr, KVM_PERFREG_PMOVSCLR, WR, BIT(i + 1));
		add_entry(ops, &nr, KVM_PERFREG_PMEVTYPER(i), WR, 0x1e);
		add_entry(ops, &nr, KVM_PERFREG_PMEVTYPER(i + 1), WR, 0x08);
		add_entry(ops, &nr, KVM_PERFREG_PMEVCNTR(i), WR, 0);
		add_entry(ops, &nr, KVM_PERFREG_PMEVCNTR(i + 1), WR, 0);
		add_entry(ops, &nr, KVM_PERFREG_PMINTENSET, WR, BIT(i + 1));
		add_entry(ops, &nr, KVM_PERFREG_PMCNTENSET, WR, pair);
		i = (i + 2) % 30;
	}
	add_entry(ops, &nr, KVM_PERFREG_PMCR, WR, PMCR_E);
	return nr;
}

/*
 * The most a driver batch costs: a full queue of pair enables, then a
 * reset (armv8pmu_reset(), which ends a batch: 569 units).
 */
static unsigned int worst_batch(struct kvm_perfreg_op *ops)
{
	unsigned int nr = 0;

	while (nr < KVM_PERFREG_BATCH_MAX - 5)
		add_entry(ops, &nr, KVM_PERFREG_PMCNTENSET, WR, BIT(0) | BIT(1));
	add_entry(ops, &nr, KVM_PERFREG_PMCNTENCLR, WR, U64_MAX);
	add_entry(ops, &nr, KVM_PERFREG_PMINTENCLR, WR, U64_MAX);
	add_entry(ops, &nr, KVM_PERFREG_PMOVSCLR, WR, U64_MAX);
	add_entry(ops, &nr, KVM_PERFREG_PMUSERENR, WR, 0);
	add_entry(ops, &nr, KVM_PERFREG_PMCR, WR, PMCR_P | PMCR_C | ARMV8_PMU_PMCR_LC);
	return nr;
}

struct driver_case {
	const char *name;
	unsigned int (*build)(struct kvm_perfreg_op *ops);
	unsigned int cost;
};

static const struct driver_case driver_cases[] = {
	{ "overflow_interrupt", irq_batch, 33 },
	{ "context_switch", switch_batch, 2 + 28 * 11 },
	{ "queue_then_reset", worst_batch, 251 * 2 + 32 + 3 + 32 },
};

static void driver_case_desc(const struct driver_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(driver, driver_cases, driver_case_desc);

/* Each of the driver's batches is carried out whole in one call. */
static void driver_batch_test(struct kunit *test)
{
	const struct driver_case *c = test->param_value;
	struct kvm_perfreg_op *ops = alloc_entries(test);
	unsigned int nr = c->build(ops), i, cost = 0;
	struct sent s;

	for (i = 0; i < nr; i++)
		cost += kvm_perfreg_cost(&ops[i], 31);
	KUNIT_EXPECT_EQ(test, cost, c->cost);
	KUNIT_EXPECT_LE(test, cost, KVM_PERFREG_BATCH_BUDGET);
	s = guest_send(test, ops, nr, 31, 0);
	KUNIT_EXPECT_EQ(test, s.calls, 1U);
	KUNIT_EXPECT_EQ(test, s.done, (u64)nr);
	KUNIT_EXPECT_EQ(test, s.status, 0L);
}

/*
 * The host wanting its CPU back stops a partial call after its first
 * entry at the latest: ten entries a call here, and the guest resumes
 * each time.
 */
static void yield_test(struct kunit *test)
{
	struct kvm_perfreg_op *ops = alloc_entries(test);
	unsigned int nr = switch_batch(ops);
	struct sent s = guest_send(test, ops, nr, 31, 10);

	KUNIT_EXPECT_EQ(test, s.first, 10ULL);
	KUNIT_EXPECT_EQ(test, s.calls, DIV_ROUND_UP(nr, 10));
	KUNIT_EXPECT_EQ(test, s.done, (u64)nr);
	/* Wanted all along: one entry a call, and still to the end. */
	s = guest_send(test, ops, 5, 31, 1);
	KUNIT_EXPECT_EQ(test, s.calls, 5U);
	KUNIT_EXPECT_EQ(test, s.done, 5ULL);
}

/*
 * A partial call stops after a failed entry, so that the caller redoes
 * it and the rest in order; a 1.0 caller's call goes on past it.  The
 * failed entry is written back with its status.
 */
static void failed_entry_test(struct kunit *test)
{
	struct kvm_perfreg_op *ops = alloc_entries(test);
	unsigned int nr = 0;
	u64 a[3];

	add_entry(ops, &nr, KVM_PERFREG_PMCR, RD, 0);
	add_entry(ops, &nr, KVM_PERFREG_PMEVCNTR(N), RD, 0);	/* no such counter */
	add_entry(ops, &nr, KVM_PERFREG_PMCR, RD, 0);
	KUNIT_EXPECT_EQ(test, host_call(ops, nr, KVM_PERFREG_BATCH_PARTIAL, N, 0, a),
			2ULL);
	KUNIT_EXPECT_EQ(test, (long)a[0], 0L);
	KUNIT_EXPECT_EQ(test, a[1], 1ULL);
	KUNIT_EXPECT_EQ(test, a[2], 2ULL);
	KUNIT_EXPECT_EQ(test, ops[1].status, KVM_PERFREG_INVALID_PARAMETER);
	host_call(ops, nr, 0, N, 0, a);
	KUNIT_EXPECT_EQ(test, (long)a[0], 0L);
	KUNIT_EXPECT_EQ(test, a[1], 1ULL);
	KUNIT_EXPECT_EQ(test, a[2], 3ULL);
}

static struct kunit_case kvm_perfreg_test_cases[] = {
	KUNIT_CASE_PARAM(decode_test, decode_gen_params),
	KUNIT_CASE(nr_ids_test),
	KUNIT_CASE_PARAM(check_test, check_gen_params),
	KUNIT_CASE_PARAM(batch_args_test, batch_args_gen_params),
	KUNIT_CASE(batch_layout_test),
	KUNIT_CASE_PARAM(cost_test, cost_gen_params),
	KUNIT_CASE_PARAM(resets_resume_test, resume_gen_params),
	KUNIT_CASE(resets_whole_test),
	KUNIT_CASE_PARAM(driver_batch_test, driver_gen_params),
	KUNIT_CASE(yield_test),
	KUNIT_CASE(failed_entry_test),
	{}
};

static struct kunit_suite kvm_perfreg_test_suite = {
	.name = "kvm_perfreg",
	.test_cases = kvm_perfreg_test_cases,
};

kunit_test_suite(kvm_perfreg_test_suite);

MODULE_DESCRIPTION("KUnit tests for KVM's perf-register service");
MODULE_LICENSE("GPL");

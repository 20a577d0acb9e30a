// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfreg_abi - the KVM perf-register hypercalls, as a guest sees them
 * (Documentation/virt/kvm/arm/perf-registers.rst)
 *
 * Each scenario gets a fresh VM with a vPMU, the service granted or not
 * through KVM_REG_ARM_VENDOR_HYP_BMAP_2, and guest code that makes the
 * calls and reports by ucall:
 *
 *  - discovery: KVM_FEATURES' a2 and VERSION with the service shown and
 *    hidden (hidden: every call NOT_SUPPORTED), and the calls denied by
 *    the VMM's SMCCC filter (NOT_SUPPORTED);
 *  - every register ID read with GET against the trapped MRS, and every
 *    writable one written with SET against the same value written with a
 *    trapped MSR (the two must read back alike);
 *  - bad bank, ID, counter and direction: INVALID_PARAMETER; GET only
 *    granted: SET and BATCH NOT_SUPPORTED (each call has its own bit); a
 *    VM without a vPMU: NO_ACCESS;
 *  - the bitmap after the first run: -EBUSY; an unknown bit, and the
 *    reserved bits 2-15 between upstream's and ours: -EINVAL;
 *  - the call from EL0: UNDEF;
 *  - a counter programmed, run and read through the service counts the
 *    guest's EL0 loop exactly (2n + 1) on one CPU, as through the
 *    trapped path;
 *  - batches: a read of every counter equals the GETs, a read-and-clear
 *    of PMOVSCLR clears what it read; bad address, alignment, count and
 *    flags: INVALID_PARAMETER; 4,000 entries of random IDs, banks, ops
 *    and values: every status one of the four; and a second vCPU
 *    scribbling over the page while the first sends batches from it: the
 *    host survives and the pages either side are untouched;
 *  - 1.1: VERSION 1.1 with the work budget in a3; 256 resets (PMCR_EL0.P
 *    and C, N + 1 units each) sent with PARTIAL stop at the budget and,
 *    resumed at the first entry left, all get done; the same from a 1.0
 *    caller stop at the budget, fail and say how far they went (only
 *    those entries written back); lists anywhere 16-byte aligned in
 *    their page, not past it; a partial call stops after its first
 *    failed entry.
 */
#include <pthread.h>

#include "kvm_util.h"
#include "processor.h"
#include "test_util.h"
#include "ucall_common.h"
#include "vgic.h"

#include "guest_loops.h"
#include "perfreg.h"
#include "pmu_test.h"
#include "vpmu_vm.h"

#define ST_UNTOUCHED	12345	/* what the guest leaves in an entry */
#define EXCLUDE_EL1	BIT(31)
#define LOOP		100000

/* ---- guest side ---- */

static long call(uint32_t fn, uint64_t a1, uint64_t a2, uint64_t a3,
		 uint64_t *out1)
{
	struct arm_smccc_res res;

	smccc_hvc(fn, a1, a2, a3, 0, 0, 0, 0, &res);
	if (out1)
		*out1 = res.a1;
	return (long)res.a0;
}

/* The trapped view: MRS/MSR, indexed counters through PMSELR_EL0. */
static uint64_t trapped_read(uint16_t id)
{
	switch (id) {
	case ID_PMCR:
		return read_sysreg(pmcr_el0);
	case ID_PMCNTENSET:
		return read_sysreg(pmcntenset_el0);
	case ID_PMCNTENCLR:
		return read_sysreg(pmcntenclr_el0);
	case ID_PMINTENSET:
		return read_sysreg(pmintenset_el1);
	case ID_PMINTENCLR:
		return read_sysreg(pmintenclr_el1);
	case ID_PMOVSSET:
		return read_sysreg(pmovsset_el0);
	case ID_PMOVSCLR:
		return read_sysreg(pmovsclr_el0);
	case ID_PMUSERENR:
		return read_sysreg(pmuserenr_el0);
	case ID_PMCEID0:
		return read_sysreg(pmceid0_el0);
	case ID_PMCEID1:
		return read_sysreg(pmceid1_el0);
	case ID_CNTR(CYCLE):
		return read_sysreg(pmccntr_el0);
	case ID_TYPER(CYCLE):
		return read_sysreg(pmccfiltr_el0);
	}
	write_sysreg(id & 0xff, pmselr_el0);
	isb();
	return id < 0x200 ? read_sysreg(pmxevcntr_el0) : read_sysreg(pmxevtyper_el0);
}

static void trapped_write(uint16_t id, uint64_t v)
{
	switch (id) {
	case ID_PMCR:
		write_sysreg(v, pmcr_el0);
		break;
	case ID_PMCNTENSET:
		write_sysreg(v, pmcntenset_el0);
		break;
	case ID_PMCNTENCLR:
		write_sysreg(v, pmcntenclr_el0);
		break;
	case ID_PMINTENSET:
		write_sysreg(v, pmintenset_el1);
		break;
	case ID_PMINTENCLR:
		write_sysreg(v, pmintenclr_el1);
		break;
	case ID_PMOVSSET:
		write_sysreg(v, pmovsset_el0);
		break;
	case ID_PMOVSCLR:
		write_sysreg(v, pmovsclr_el0);
		break;
	case ID_PMUSERENR:
		write_sysreg(v, pmuserenr_el0);
		break;
	case ID_CNTR(CYCLE):
		write_sysreg(v, pmccntr_el0);
		break;
	case ID_TYPER(CYCLE):
		write_sysreg(v, pmccfiltr_el0);
		break;
	default:
		write_sysreg(id & 0xff, pmselr_el0);
		isb();
		if (id < 0x200)
			write_sysreg(v, pmxevcntr_el0);
		else
			write_sysreg(v, pmxevtyper_el0);
	}
	isb();
}

/* Every valid ID of this vPMU, in turn: -1 after the last. */
static int next_id(int id, uint64_t n)
{
	for (id++; id < 0x300; id++) {
		int idx = id & 0xff;

		if (id < 0x100 ? idx <= ID_PMCEID1 : idx < n || idx == CYCLE)
			return id;
		if (id < 0x100)
			id = 0xff;
		else if (idx > CYCLE)
			id = (id | 0xff);
	}
	return -1;
}

static uint64_t value_for(uint16_t id, uint64_t n, uint64_t seed)
{
	uint64_t counters = GENMASK(n - 1, 0) | BIT(CYCLE);

	switch (id) {
	case ID_PMCR: return seed & 0x7e;	/* never E: nothing runs */
	case ID_PMCNTENSET: case ID_PMCNTENCLR: case ID_PMINTENSET:
	case ID_PMINTENCLR: case ID_PMOVSSET: case ID_PMOVSCLR:
		return seed & counters;
	case ID_PMUSERENR:
		return seed & 0xf;
	}
	return seed;
}

/* @pmu: whether the VM has a vPMU (without one, PMCR_EL0 is UNDEF). */
static void guest_discovery(uint64_t pmu)
{
	struct arm_smccc_res res;
	uint64_t a1;
	long v;

	smccc_hvc(KVM_FEATURES, 0, 0, 0, 0, 0, 0, 0, &res);
	v = call(VERSION, 0, 0, 0, &a1);
	GUEST_SYNC_ARGS(0, res.a2, v, a1, pmu ? nr_counters() : 0);
	GUEST_SYNC_ARGS(1, call(GET, 0, ID_PMCR, 0, NULL),
			call(SET, 0, ID_PMUSERENR, 0, NULL),
			call(BATCH, 0, 1, 0, NULL), 0);
	GUEST_DONE();
}

/*
 * GET against MRS for every ID; SET against MSR of the same value, for
 * every writable one.  Reports the number of mismatches and the first.
 */
static void guest_every_id(void)
{
	uint64_t n = nr_counters(), seed = 0x5a5a1234, got, want;
	uint64_t bad = 0, first = 0;
	int id;

	for (id = next_id(-1, n); id >= 0; id = next_id(id, n)) {
		bool set_reg = id == ID_PMCNTENSET || id == ID_PMINTENSET ||
			       id == ID_PMOVSSET;

		if (id == ID_PMSWINC)	/* write only: bad_args covers it */
			continue;
		want = trapped_read(id);
		if (call(GET, 0, id, 0, &got) != ST_OK || got != want) {
			bad++;
			first = first ?: id | 0x10000;
		}
		if (id == ID_PMCEID0 || id == ID_PMCEID1)
			continue;
		/* The same write both ways, from the same state. */
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		if (set_reg)
			trapped_write(id + 1, ~0UL);	/* the CLR twin */
		trapped_write(id, value_for(id, n, seed));
		want = trapped_read(id);
		if (set_reg)
			trapped_write(id + 1, ~0UL);
		if (call(SET, 0, id, value_for(id, n, seed), NULL) != ST_OK ||
		    trapped_read(id) != want) {
			bad++;
			first = first ?: id | 0x20000;
		}
	}
	GUEST_SYNC_ARGS(0, bad, first, 0, 0);
	GUEST_DONE();
}

static void guest_bad_args(void)
{
	uint64_t n = nr_counters();

	GUEST_SYNC_ARGS(0, call(GET, 1, ID_PMCR, 0, NULL),
			call(GET, 0, 0x0ff, 0, NULL),
			call(GET, 0, ID_CNTR(n), 0, NULL),
			call(SET, 0, ID_PMCEID0, 1, NULL));
	GUEST_SYNC_ARGS(1, call(GET, 0, ID_PMSWINC, 0, NULL),
			call(GET, 1ULL << 32, ID_PMCR, 0, NULL),
			call(GET, 0, (1ULL << 16) | ID_PMCR, 0, NULL),
			call(GET, 0, ID_TYPER(30), 0, NULL));
	GUEST_DONE();
}

/* Only GET granted: reads work, SET and BATCH are not supported. */
static void guest_get_only(uint64_t page_gpa)
{
	uint64_t v;

	GUEST_SYNC_ARGS(0, call(GET, 0, ID_PMCR, 0, &v),
			call(SET, 0, ID_PMUSERENR, 0, NULL),
			call(BATCH, page_gpa, 1, 0, NULL), 0);
	GUEST_DONE();
}

/* HVC at EL0 is undefined: the guest takes an UNDEF, KVM sees nothing. */
static uint64_t el0_undefs;

static void el0_undef_handler(struct ex_regs *regs)
{
	el0_undefs++;
	regs->pc = (uint64_t)el0_resume;
	regs->pstate = PSR_EL1H_MASKED;
}

void el0_hvc(void);
asm(".pushsection .text\n"
	".global el0_hvc\n"
	"el0_hvc:\n"
	"	mov	x1, #0x3c0\n"
	"	msr	spsr_el1, x1\n"
	"	adr	x1, 1f\n"
	"	msr	elr_el1, x1\n"
	"	eret\n"
	"1:	movz	x0, #0x50\n"
	"	movk	x0, #0xc600, lsl #16\n"
	"	hvc	#0\n"
	"	svc	#0\n"
	".popsection\n");

static void guest_el0(void)
{
	el0_hvc();
	GUEST_SYNC_ARGS(0, el0_undefs, 0, 0, 0);
	GUEST_DONE();
}

/*
 * A counter programmed, enabled, stopped and read only through the
 * service counts an EL0 loop exactly, as vpmu_self_count's trapped one.
 */
static void guest_counts(void)
{
	uint64_t v = 0;

	call(SET, 0, ID_PMCR, 0x6, NULL);	/* P, C: reset, stopped */
	call(SET, 0, ID_TYPER(0), INST_RETIRED | EXCLUDE_EL1, NULL);
	call(SET, 0, ID_PMCNTENSET, BIT(0), NULL);
	call(SET, 0, ID_PMCR, PMCR_E, NULL);
	el0_excursion(LOOP);
	call(SET, 0, ID_PMCR, 0, NULL);
	call(GET, 0, ID_CNTR(0), 0, &v);
	GUEST_SYNC_ARGS(0, v, 0, 0, 0);
	GUEST_DONE();
}

/*
 * Batches from the page at @gva (guest physical @gpa): a read of every
 * counter against GETs; PMOVSCLR read-and-clear; bad arguments; random
 * entries.
 */
static void guest_batch(uint64_t gva, uint64_t gpa)
{
	struct perfreg_op *ops = (void *)gva;
	uint64_t n = nr_counters(), seed = 20261205, failed, v, bad = 0;
	uint64_t statuses = 0, calls_ok = 0;
	int i, r, k = 0;

	/* A batch read equals the GETs (the PMU is stopped: nothing moves). */
	for (i = 0; i < (int)n; i++)
		trapped_write(ID_CNTR(i), 1000 + i);
	for (i = 0; i < (int)n; i++)
		ops[k++] = (struct perfreg_op){ .id = ID_CNTR(i) };
	ops[k++] = (struct perfreg_op){ .id = ID_CNTR(CYCLE) };
	call(BATCH, gpa, k, 0, &failed);
	for (i = 0; i < k; i++) {
		call(GET, 0, ops[i].id, 0, &v);
		bad += ops[i].status != ST_OK || ops[i].value != v;
	}
	GUEST_SYNC_ARGS(0, bad, failed, k, 0);

	/* Read-and-clear clears what it read, and only that. */
	trapped_write(ID_PMOVSCLR, ~0UL);
	trapped_write(ID_PMOVSSET, BIT(0) | BIT(2));
	ops[0] = (struct perfreg_op){ .id = ID_PMOVSCLR, .op = OP_READ_CLEAR };
	ops[1] = (struct perfreg_op){ .id = ID_PMOVSSET, .op = OP_READ };
	call(BATCH, gpa, 2, 0, NULL);
	GUEST_SYNC_ARGS(1, ops[0].value, ops[1].value, ops[0].status, ops[1].status);

	GUEST_SYNC_ARGS(2, call(BATCH, gpa + 8, 1, 0, NULL),
			call(BATCH, gpa, 0, 0, NULL),
			call(BATCH, gpa, 257, 0, NULL),
			/* bit 0 is 1.1's PARTIAL; bit 1 means nothing */
			call(BATCH, gpa, 1, 2, NULL));
	GUEST_SYNC_ARGS(3, call(BATCH, 1ULL << 47, 1, 0, NULL),
			call(BATCH, ~0xfffULL, 1, 0, NULL), 0, 0);

	/* 4,000 random entries: each gets one of the four statuses. */
	for (r = 0; r < 16; r++) {
		for (i = 0; i < 250; i++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			ops[i] = (struct perfreg_op){
				.id = (seed >> 16) % 3 ? (seed >> 20) & 0x31f :
							 (seed >> 20),
				.bank = (seed >> 40) % 8 ? 0 : seed >> 44,
				.op = (seed >> 48) % 4,
				.status = 12345,
				.value = seed & ~(uint64_t)PMCR_E,
			};
			/* Never start the PMU: no interrupts to field. */
			if (ops[i].id == ID_PMCR && ops[i].op)
				ops[i].op = OP_READ;
		}
		calls_ok += call(BATCH, gpa, 250, 0, NULL) == ST_OK;
		for (i = 0; i < 250; i++)
			statuses += ops[i].status == ST_OK ||
				    ops[i].status == ST_INVALID ||
				    ops[i].status == ST_NO_ACCESS ||
				    ops[i].status == ST_NOT_SUPPORTED;
	}
	GUEST_SYNC_ARGS(4, calls_ok, statuses, 0, 0);
	GUEST_DONE();
}

/* 256 resets (P and C, never E: nothing runs), untouched so far. */
static void fill_resets(struct perfreg_op *ops)
{
	int i;

	for (i = 0; i < 256; i++)
		ops[i] = (struct perfreg_op){ .id = ID_PMCR, .op = OP_WRITE,
					      .status = ST_UNTOUCHED,
					      .value = PMCR_P | PMCR_C };
}

static uint64_t count_status(struct perfreg_op *ops, uint64_t from,
			     uint64_t to, int32_t status)
{
	uint64_t i, n = 0;

	for (i = from; i < to && i < 256; i++)
		n += ops[i].status == status;
	return n;
}

/*
 * 1.1 from the page at @gva (guest physical @gpa): VERSION; resets
 * resumed to the end; the same without PARTIAL; lists inside the page;
 * a partial call that meets a failed entry.
 */
static void guest_partial(uint64_t gva, uint64_t gpa)
{
	struct perfreg_op *ops = (void *)gva;
	uint64_t done = 0, calls = 0, first = 0, bad = 0, n;
	struct arm_smccc_res res;
	int i;

	smccc_hvc(VERSION, 0, 0, 0, 0, 0, 0, 0, &res);
	GUEST_SYNC_ARGS(0, res.a0, res.a2, res.a3, nr_counters());

	fill_resets(ops);
	while (done < 256 && calls < 512) {
		smccc_hvc(BATCH, gpa + done * sizeof(*ops), 256 - done, PARTIAL,
			  0, 0, 0, 0, &res);
		calls++;
		if ((long)res.a0 != ST_OK || res.a1 || !res.a2 ||
		    res.a2 > 256 - done) {
			bad++;
			break;
		}
		first = first ?: res.a2;
		done += res.a2;
	}
	bad += 256 - count_status(ops, 0, 256, ST_OK);
	GUEST_SYNC_ARGS(1, done, calls, first, bad);

	fill_resets(ops);
	smccc_hvc(BATCH, gpa, 256, 0, 0, 0, 0, 0, &res);
	n = res.a2;
	GUEST_SYNC_ARGS(2, res.a0, n, count_status(ops, 0, n, ST_OK),
			count_status(ops, n, 256, ST_UNTOUCHED));

	for (i = 0; i < 256; i++)
		ops[i] = (struct perfreg_op){ .id = ID_PMCR, .op = OP_READ };
	GUEST_SYNC_ARGS(3, call(BATCH, gpa + 16 * 100, 156, 0, NULL),
			call(BATCH, gpa + 4096 - 16, 1, 0, NULL),
			call(BATCH, gpa + 4096 - 16, 2, 0, NULL),
			call(BATCH, gpa + 16, 256, 0, NULL));
	GUEST_SYNC_ARGS(4, call(BATCH, gpa, 1, PARTIAL, NULL),
			call(BATCH, gpa, 1, BIT(1), NULL),
			call(BATCH, gpa, 1, BIT(63) | PARTIAL, NULL), 0);

	ops[1] = (struct perfreg_op){ .id = 0x0ff, .op = OP_READ };
	ops[2].status = ST_UNTOUCHED;
	smccc_hvc(BATCH, gpa, 3, PARTIAL, 0, 0, 0, 0, &res);
	GUEST_SYNC_ARGS(5, res.a0, res.a1, res.a2, ops[2].status == ST_UNTOUCHED);
	GUEST_DONE();
}

/* ---- host side ---- */

static struct kvm_vm *vm_for(void *guest_code, uint64_t bmap, bool pmu,
			     struct kvm_vcpu **vcpu, int *gic_fd)
{
	struct kvm_vm *vm;

	if (pmu) {
		vm = vm_create(1);
		*vcpu = create_vpmu_vcpu(vm, guest_code, gic_fd);
	} else {
		vm = vm_create_with_one_vcpu(vcpu, guest_code);
		guest_loops_setup(vm, *vcpu);
		*gic_fd = -1;
	}
	vcpu_set_reg(*vcpu, KVM_REG_ARM_VENDOR_HYP_BMAP_2, bmap);
	return vm;
}

/*
 * A VM for a guest that sends batches: every call granted, a vPMU, and
 * a page for its lists, whose guest virtual and physical addresses are
 * the guest's two arguments.
 */
static struct kvm_vm *vm_for_batches(void *guest_code,
				     struct kvm_vcpu **vcpu, int *gic_fd)
{
	struct kvm_vm *vm = vm_for(guest_code, ALL, true, vcpu, gic_fd);
	uint64_t gva = vm_alloc_page(vm);

	vcpu_args_set(*vcpu, 2, gva, addr_gva2gpa(vm, gva));
	return vm;
}

static void vm_done(struct kvm_vm *vm, int gic_fd)
{
	if (gic_fd >= 0)
		close(gic_fd);
	kvm_vm_free(vm);
}

/* Run to the next ucall: SYNC fills args (args[0] is the stage). */
static bool run_to(struct kvm_vcpu *vcpu, uint64_t args[5])
{
	struct ucall uc;

	vcpu_run(vcpu);
	switch (get_ucall(vcpu, &uc)) {
	case UCALL_SYNC:
		memcpy(args, &uc.args[1], 5 * sizeof(uint64_t));
		return true;
	case UCALL_DONE:
		return false;
	case UCALL_ABORT:
		REPORT_GUEST_ASSERT(uc);
		return false;
	default:
		TEST_FAIL("unexpected exit: %s",
			  exit_reason_str(vcpu->run->exit_reason));
		return false;
	}
}

static void test_discovery(void)
{
	uint64_t a[5], nr_ids;
	struct kvm_vcpu *vcpu;
	struct kvm_vm *vm;
	int gic;

	vm = vm_for(guest_discovery, ALL, true, &vcpu, &gic);
	vcpu_args_set(vcpu, 1, 1);
	run_to(vcpu, a);
	nr_ids = 11 + 2 * (a[4] + 1);
	check(a[1] == ALL && a[2] == VERSION_1_2 && a[3] == nr_ids, "discovery_shown",
	      "KVM_FEATURES a2=%#lx (want %#lx), VERSION %#lx (want 0x10002), %lu IDs (want %lu for N=%lu)",
	      a[1], (uint64_t)ALL, a[2], a[3], nr_ids, a[4]);
	vm_done(vm, gic);

	vm = vm_for(guest_discovery, 0, true, &vcpu, &gic);
	vcpu_args_set(vcpu, 1, 1);
	run_to(vcpu, a);
	check(a[1] == 0 && (long)a[2] == ST_NOT_SUPPORTED, "discovery_hidden",
	      "KVM_FEATURES a2=%#lx, VERSION %ld (want 0, -1)", a[1], (long)a[2]);
	run_to(vcpu, a);
	check((long)a[1] == ST_NOT_SUPPORTED && (long)a[2] == ST_NOT_SUPPORTED &&
	      (long)a[3] == ST_NOT_SUPPORTED, "hidden_not_supported",
	      "GET %ld, SET %ld, BATCH %ld (want -1 each)", (long)a[1],
	      (long)a[2], (long)a[3]);
	vm_done(vm, gic);
}

/* The SMCCC filter applies to the service as to any call: denied, hidden. */
static void test_filter(void)
{
	struct kvm_smccc_filter filter = {
		.base = VERSION, .nr_functions = 4,
		.action = KVM_SMCCC_FILTER_DENY,
	};
	uint64_t a[5];
	struct kvm_vcpu *vcpu;
	struct kvm_vm *vm;
	int gic;

	vm = vm_for(guest_discovery, ALL, true, &vcpu, &gic);
	vcpu_args_set(vcpu, 1, 1);
	kvm_device_attr_set(vm->fd, KVM_ARM_VM_SMCCC_CTRL,
			    KVM_ARM_VM_SMCCC_FILTER, &filter);
	run_to(vcpu, a);
	run_to(vcpu, a);
	check((long)a[1] == ST_NOT_SUPPORTED && (long)a[2] == ST_NOT_SUPPORTED &&
	      (long)a[3] == ST_NOT_SUPPORTED, "smccc_filter_denies",
	      "GET %ld, SET %ld, BATCH %ld with the calls denied by the VMM's filter (want -1 each)",
	      (long)a[1], (long)a[2], (long)a[3]);
	vm_done(vm, gic);
}

static void test_every_id(void)
{
	uint64_t a[5];
	struct kvm_vcpu *vcpu;
	struct kvm_vm *vm;
	int gic;

	vm = vm_for(guest_every_id, ALL, true, &vcpu, &gic);
	run_to(vcpu, a);
	check(a[1] == 0, "every_id_get_set_as_trapped",
	      "%lu mismatches (first: ID %#lx, %s)", a[1], a[2] & 0xffff,
	      a[2] >> 16 == 1 ? "GET vs MRS" : a[2] >> 16 == 2 ? "SET vs MSR" : "-");
	vm_done(vm, gic);
}

static void test_bad_args(void)
{
	uint64_t a[5], b[5];
	struct kvm_vcpu *vcpu;
	struct kvm_vm *vm;
	int gic;

	vm = vm_for(guest_bad_args, ALL, true, &vcpu, &gic);
	run_to(vcpu, a);
	run_to(vcpu, b);
	check((long)a[1] == ST_INVALID && (long)a[2] == ST_INVALID &&
	      (long)a[3] == ST_INVALID && (long)a[4] == ST_INVALID &&
	      (long)b[1] == ST_INVALID && (long)b[2] == ST_INVALID &&
	      (long)b[3] == ST_INVALID && (long)b[4] == ST_INVALID, "bad_args_invalid",
	      "bank 1 %ld, ID 0xff %ld, counter N %ld, SET PMCEID0 %ld, GET PMSWINC %ld, bank 2^32 %ld, ID 2^16 %ld, typer 30 %ld (want -3 each)",
	      (long)a[1], (long)a[2], (long)a[3], (long)a[4], (long)b[1],
	      (long)b[2], (long)b[3], (long)b[4]);
	vm_done(vm, gic);
}

static void test_access(void)
{
	uint64_t a[5], page;
	struct kvm_vcpu *vcpu;
	struct kvm_vm *vm;
	int gic;

	vm = vm_for(guest_get_only, BIT_VERSION | BIT_GET, true, &vcpu, &gic);
	page = addr_gva2gpa(vm, vm_alloc_page(vm));
	vcpu_args_set(vcpu, 1, page);
	run_to(vcpu, a);
	check((long)a[1] == ST_OK && (long)a[2] == ST_NOT_SUPPORTED &&
	      (long)a[3] == ST_NOT_SUPPORTED, "get_only_grant",
	      "GET %ld, SET %ld, BATCH %ld (want 0, -1, -1)", (long)a[1],
	      (long)a[2], (long)a[3]);
	vm_done(vm, gic);

	vm = vm_for(guest_discovery, ALL, false, &vcpu, &gic);
	vcpu_args_set(vcpu, 1, 0);
	run_to(vcpu, a);
	check(a[2] == VERSION_1_2 && a[3] == 0, "no_vpmu_version",
	      "VERSION %#lx, %lu IDs (want 0x10002, 0)", a[2], a[3]);
	run_to(vcpu, a);
	check((long)a[1] == ST_NO_ACCESS && (long)a[2] == ST_NO_ACCESS &&
	      (long)a[3] == ST_NO_ACCESS, "no_vpmu_no_access",
	      "GET %ld, SET %ld, BATCH %ld (want -64 each)", (long)a[1],
	      (long)a[2], (long)a[3]);

	/* After the first run the grants are fixed; unknown bits never. */
	errno = 0;
	check(__vcpu_set_reg(vcpu, KVM_REG_ARM_VENDOR_HYP_BMAP_2, 0) < 0 &&
	      errno == EBUSY, "bitmap_busy_after_run", "errno %d (want EBUSY)", errno);
	check(__vcpu_set_reg(vcpu, KVM_REG_ARM_VENDOR_HYP_BMAP_2, ALL) == 0,
	      "bitmap_same_value_after_run", "writing the value it has is allowed");
	vm_done(vm, gic);
	vm = vm_for(guest_discovery, ALL, false, &vcpu, &gic);
	errno = 0;
	check(__vcpu_set_reg(vcpu, KVM_REG_ARM_VENDOR_HYP_BMAP_2, BIT(20)) < 0 &&
	      errno == EINVAL, "bitmap_unknown_bit", "errno %d (want EINVAL)", errno);
	errno = 0;
	check(__vcpu_set_reg(vcpu, KVM_REG_ARM_VENDOR_HYP_BMAP_2, BIT(2)) < 0 &&
	      errno == EINVAL, "bitmap_reserved_bit",
	      "errno %d (want EINVAL: bits 2-15 are reserved)", errno);
	vm_done(vm, gic);
}

static void test_el0(void)
{
	uint64_t a[5];
	struct kvm_vcpu *vcpu;
	struct kvm_vm *vm;
	int gic;

	vm = vm_for(guest_el0, ALL, true, &vcpu, &gic);
	vm_install_sync_handler(vm, VECTOR_SYNC_LOWER_64, ESR_ELx_EC_UNKNOWN,
				el0_undef_handler);
	run_to(vcpu, a);
	check(a[1] == 1, "el0_call_undef", "%lu UNDEFs (want 1)", a[1]);
	vm_done(vm, gic);
}

/*
 * The least of three runs: QEMU may credit an interrupt handler to EL0.
 * Exact with one CPU online; with two, QEMU counts the other vCPU's work
 * into this one while it waits (README, Known limits), and a debug
 * kernel keeps that one busy: up to a tenth more.
 */
static void test_counts(void)
{
	uint64_t a[5], least = UINT64_MAX, want = 2 * LOOP + 1;
	struct kvm_vcpu *vcpu;
	struct kvm_vm *vm;
	int gic, i;

	for (i = 0; i < 3; i++) {
		vm = vm_for(guest_counts, ALL, true, &vcpu, &gic);
		run_to(vcpu, a);
		if (a[1] < least)
			least = a[1];
		vm_done(vm, gic);
	}
	check(least >= want && least <= want + qemu_slack(want / 10),
	      "service_counts_exact",
	      "EL0 counter %lu (want %lu, the EL0 loop and its SVC; slack %lu)",
	      least, want, qemu_slack(want / 10));
}

static void test_batch(void)
{
	uint64_t a[5];
	struct kvm_vcpu *vcpu;
	struct kvm_vm *vm;
	int gic;

	vm = vm_for_batches(guest_batch, &vcpu, &gic);
	run_to(vcpu, a);
	check(a[1] == 0 && a[2] == 0, "batch_read_equals_get",
	      "%lu of %lu entries differ from GET, %lu failed", a[1], a[3], a[2]);
	run_to(vcpu, a);
	check(a[1] == (BIT(0) | BIT(2)) && a[2] == 0 && a[3] == 0 && a[4] == 0,
	      "batch_read_clear", "PMOVSCLR read %#lx (want 0x5), then PMOVSSET %#lx (want 0)",
	      a[1], a[2]);
	run_to(vcpu, a);
	check((long)a[1] == ST_INVALID && (long)a[2] == ST_INVALID &&
	      (long)a[3] == ST_INVALID && (long)a[4] == ST_INVALID, "batch_bad_args",
	      "inside an entry (IPA + 8) %ld, 0 entries %ld, 257 %ld, flags %ld (want -3 each)",
	      (long)a[1], (long)a[2], (long)a[3], (long)a[4]);
	run_to(vcpu, a);
	check((long)a[1] == ST_INVALID && (long)a[2] == ST_INVALID, "batch_not_memory",
	      "IPA 2^47 %ld, top page %ld (want -3 each)", (long)a[1], (long)a[2]);
	run_to(vcpu, a);
	check(a[1] == 16 && a[2] == 16 * 250, "batch_random_entries",
	      "%lu of 16 calls succeeded, %lu of 4000 entries with a known status",
	      a[1], a[2]);
	vm_done(vm, gic);
}

/*
 * A reset costs N + 1 units of the budget: a call carries out at most
 * BUDGET / (N + 1) of them.  With PARTIAL the host may stop sooner (it
 * wants its CPU back), never later; without, exactly there.
 */
static void test_partial(void)
{
	uint64_t a[5], b[5], n, per_call, min_calls, whole;
	struct kvm_vcpu *vcpu;
	struct kvm_vm *vm;
	int gic;

	vm = vm_for_batches(guest_partial, &vcpu, &gic);
	run_to(vcpu, a);
	n = a[4];
	check(a[1] == VERSION_1_2 && a[2] == 256 && a[3] == BUDGET, "version_1_1",
	      "VERSION %#lx (want %#x), batches of up to %lu (want 256), budget %lu (want %d)",
	      a[1], VERSION_1_2, a[2], a[3], BUDGET);
	per_call = BUDGET / (n + 1);
	min_calls = (256 + per_call - 1) / per_call;
	whole = per_call < 256 ? per_call : 256;

	run_to(vcpu, a);
	check(a[1] == 256 && a[4] == 0 && a[3] >= 1 && a[3] <= per_call &&
	      a[2] >= min_calls, "batch_partial_resumes",
	      "256 resets, N=%lu: %lu done in %lu calls (at least %lu), the first %lu (at most %lu), %lu bad",
	      n, a[1], a[2], min_calls, a[3], per_call, a[4]);

	run_to(vcpu, a);
	check((long)a[1] == (whole < 256 ? ST_INVALID : ST_OK) && a[2] == whole &&
	      a[3] == whole && a[4] == 256 - whole, "batch_whole_stops_at_budget",
	      "256 resets without PARTIAL: status %ld, %lu carried out (want %lu), %lu written back, %lu untouched (want %lu)",
	      (long)a[1], a[2], whole, a[3], a[4], 256 - whole);

	run_to(vcpu, a);
	run_to(vcpu, b);
	check((long)a[1] == ST_OK && (long)a[2] == ST_OK && (long)a[3] == ST_INVALID &&
	      (long)a[4] == ST_INVALID && (long)b[1] == ST_OK &&
	      (long)b[2] == ST_INVALID && (long)b[3] == ST_INVALID, "batch_in_page",
	      "entries 100-255 %ld, the last %ld, the last and one more %ld, 1-256 %ld (want 0 0 -3 -3); PARTIAL %ld, flag 1 %ld, flag 63 %ld (want 0 -3 -3)",
	      (long)a[1], (long)a[2], (long)a[3], (long)a[4], (long)b[1],
	      (long)b[2], (long)b[3]);

	run_to(vcpu, a);
	check((long)a[1] == ST_OK && a[2] == 1 && a[3] == 2 && a[4] == 1,
	      "batch_partial_stops_at_failure",
	      "read, bad ID, read with PARTIAL: status %ld, %lu failed, %lu carried out (want 0, 1, 2), third entry %s",
	      (long)a[1], a[2], a[3], a[4] ? "untouched" : "WRITTEN");
	vm_done(vm, gic);
}

/*
 * Two vCPUs on one page: one sends batches from it, the other scribbles
 * over it until the first is done.
 */
#define RACE_ROUNDS	200

static volatile uint64_t race_done;

static void guest_race(uint64_t gva, uint64_t gpa, uint64_t scribbler)
{
	struct perfreg_op *ops = (void *)(gva + 4096);
	uint64_t seed = 7, ok = 0;
	int r, i;

	if (scribbler) {
		while (!race_done) {
			for (i = 0; i < 64; i++) {
				seed = seed * 6364136223846793005ULL + 1;
				ops[i].id = seed >> 20;
				ops[i].op = (seed >> 40) & 1 ? OP_READ : 7;
				ops[i].bank = (seed >> 50) & 1;
			}
		}
	} else {
		for (r = 0; r < RACE_ROUNDS; r++)
			ok += call(BATCH, gpa + 4096, 64, 0, NULL) == ST_OK;
		race_done = 1;
	}
	GUEST_SYNC_ARGS(0, ok, 0, 0, 0);
	GUEST_DONE();
}

static void *race_vcpu(void *arg)
{
	uint64_t a[5];

	run_to(arg, a);
	return (void *)(uintptr_t)a[1];
}

static void test_race(void)
{
	struct kvm_device_attr irq = { .group = KVM_ARM_VCPU_PMU_V3_CTRL,
				       .attr = KVM_ARM_VCPU_PMU_V3_IRQ };
	struct kvm_device_attr init = { .group = KVM_ARM_VCPU_PMU_V3_CTRL,
					.attr = KVM_ARM_VCPU_PMU_V3_INIT };
	uint64_t intid = 23, gva, canary[2] = { 0 }, before[2], ok;
	struct kvm_vcpu_init vinit;
	struct kvm_vcpu *vcpus[2];
	pthread_t t;
	struct kvm_vm *vm;
	void *ret;
	int gic, i;

	vm = vm_create(2);
	vm_ioctl(vm, KVM_ARM_PREFERRED_TARGET, &vinit);
	vinit.features[0] |= 1 << KVM_ARM_VCPU_PMU_V3;
	for (i = 0; i < 2; i++) {
		vcpus[i] = aarch64_vcpu_add(vm, i, &vinit, guest_race);
		vcpu_set_reg(vcpus[i], KVM_REG_ARM_VENDOR_HYP_BMAP_2, ALL);
	}
	vm_init_descriptor_tables(vm);
	gic = pmuv3_vm_vgic(vm, 2);
	__TEST_REQUIRE(gic >= 0, "no vGICv3");
	irq.addr = (uint64_t)&intid;
	for (i = 0; i < 2; i++) {
		vcpu_init_descriptor_tables(vcpus[i]);
		vcpu_ioctl(vcpus[i], KVM_SET_DEVICE_ATTR, &irq);
		vcpu_ioctl(vcpus[i], KVM_SET_DEVICE_ATTR, &init);
	}
	/* Three pages: the middle one is the batch page, the others canaries. */
	gva = vm_alloc_pages(vm, 3);
	memset(addr_gva2hva(vm, gva), 0xa5, 3 * 4096);
	before[0] = *(uint64_t *)addr_gva2hva(vm, gva + 4096 - 8);
	before[1] = *(uint64_t *)addr_gva2hva(vm, gva + 8192);
	for (i = 0; i < 2; i++)
		vcpu_args_set(vcpus[i], 3, gva, addr_gva2gpa(vm, gva), i);
	pthread_create(&t, NULL, race_vcpu, vcpus[1]);
	ok = (uintptr_t)race_vcpu(vcpus[0]);
	pthread_join(t, &ret);
	for (i = 0; i < 4096 / 8; i++) {
		canary[0] |= *(uint64_t *)addr_gva2hva(vm, gva + i * 8) ^ before[0];
		canary[1] |= *(uint64_t *)addr_gva2hva(vm, gva + 8192 + i * 8) ^ before[1];
	}
	check(ok == RACE_ROUNDS && !canary[0] && !canary[1], "batch_page_changing",
	      "%lu of %d batches succeeded while the other vCPU scribbled; pages either side %s",
	      ok, RACE_ROUNDS, canary[0] | canary[1] ? "CHANGED" : "untouched");
	close(gic);
	kvm_vm_free(vm);
}

/* Whether KVM has the service: its bits of BMAP_2 can be set. */
static bool perfreg_offered(void)
{
	struct kvm_vcpu *vcpu;
	struct kvm_vm *vm = vm_create_with_one_vcpu(&vcpu, NULL);
	bool ok = !__vcpu_set_reg(vcpu, KVM_REG_ARM_VENDOR_HYP_BMAP_2, ALL);

	kvm_vm_free(vm);
	return ok;
}

int main(void)
{
	TEST_REQUIRE(kvm_has_cap(KVM_CAP_ARM_PMU_V3));
	__TEST_REQUIRE(perfreg_offered(), "no perf-register service in this kernel");

	plan(26);
	test_discovery();
	test_filter();
	test_every_id();
	test_bad_args();
	test_access();
	test_el0();
	test_counts();
	test_batch();
	test_partial();
	test_race();
	ksft_finished();
}

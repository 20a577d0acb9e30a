// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpmu_hostile - a guest that misprograms its vPMU, and one that watches
 * for host work in its own counters
 *
 * Hostile: the guest writes random values (fixed seed) to every PMU
 * register it can reach at EL1 -- PMCR, PMCNTEN/PMINTEN/PMOVS set and
 * clear, PMSELR with PMXEVTYPER/PMXEVCNTR (indices up to 31, most of them
 * unimplemented), PMEVTYPER0-5, PMEVCNTR0-5, PMCCFILTR, PMCCNTR,
 * PMUSERENR and PMSWINC -- 5,000 times, then 500 times from EL0 under a
 * random PMUSERENR (counter reads, PMSELR, PMSWINC, PMCR, PMCNTENSET,
 * PMCCNTR writes).  Accesses KVM refuses come back as UNDEF, which the
 * guest counts and steps over.  The host watches the
 * run with a group of instruction events (all, host-only, guest-only) on
 * the vCPU thread: it must still partition exactly, and the kernel must
 * not WARN or oops (the boot test watches the console).
 *
 * No leak: the guest reads its instruction and cycle counters, exits to
 * the VMM, which spins 10,000,000 iterations in user space, and reads
 * them again; the deltas must equal those of the same exit without the
 * spin.  A guest-only host event around the whole run must not see the
 * spin either.
 */
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kvm_util.h"
#include "processor.h"
#include "test_util.h"
#include "ucall_common.h"

#include "vpmu_vm.h"
#include "pmu_test.h"

#define INST_RETIRED	0x08
#define PMCR_E		BIT(0)
#define PMCR_P		BIT(1)
#define PMCR_C		BIT(2)
#define PMCR_LC		BIT(6)
#define HOSTILE_WRITES	5000
#define HOSTILE_EL0	500
#define SEED		20261202
#define VMM_SPIN	10000000UL
/*
 * Guest or host instructions two otherwise equal runs may differ by with
 * two CPUs online; with one they must be equal (qemu_slack()).
 */
#define SLACK		64

static uint64_t undefs;

/*
 * KVM injects UNDEF for registers the vPMU does not implement, and for
 * EL0 accesses PMUSERENR does not allow.
 */
static void undef_handler(struct ex_regs *regs)
{
	undefs++;
	regs->pc += 4;
}

/* The SVC that ends el0_pmu_poke: resume at EL1 on the "ret" after it. */
static void poke_svc_handler(struct ex_regs *regs)
{
	regs->pstate = PSR_EL1H_MASKED;
}

static uint64_t guest_rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void hostile_write(unsigned int reg, uint64_t v)
{
	switch (reg) {
	case 0:
		write_sysreg(v, pmcr_el0);
		break;
	case 1:
		write_sysreg(v, pmcntenset_el0);
		break;
	case 2:
		write_sysreg(v, pmcntenclr_el0);
		break;
	case 3:
		write_sysreg(v, pmintenset_el1);
		break;
	case 4:
		write_sysreg(v, pmintenclr_el1);
		break;
	case 5:
		write_sysreg(v, pmovsset_el0);
		break;
	case 6:
		write_sysreg(v, pmovsclr_el0);
		break;
	case 7:
		write_sysreg(v & 31, pmselr_el0);
		isb();
		write_sysreg(v >> 5, pmxevtyper_el0);
		break;
	case 8:
		write_sysreg(v & 31, pmselr_el0);
		isb();
		write_sysreg(v >> 5, pmxevcntr_el0);
		break;
	case 9:
		write_sysreg(v & 31, pmselr_el0);
		isb();
		(void)read_sysreg(pmxevcntr_el0); break;
	case 10:
		write_sysreg(v, pmevtyper0_el0);
		break;
	case 11:
		write_sysreg(v, pmevtyper5_el0);
		break;
	case 12:
		write_sysreg(v, pmevcntr3_el0);
		break;
	case 13:
		write_sysreg(v, pmccfiltr_el0);
		break;
	case 14:
		write_sysreg(v, pmccntr_el0);
		break;
	case 15:
		write_sysreg(v, pmuserenr_el0);
		break;
	default:
		write_sysreg(v, pmswinc_el0);
		break;
	}
	isb();
}

/*
 * el0_pmu_poke(v): at EL0, read and write what PMUSERENR may or may not
 * allow (each access is emulated by KVM or comes back as UNDEF), then
 * SVC back to EL1 (see guest_loops.h).
 */
void el0_pmu_poke(uint64_t v);
asm(".pushsection .text\n"
	".global el0_pmu_poke\n"
	"el0_pmu_poke:\n"
	"	mov	x1, #0x3c0\n"
	"	msr	spsr_el1, x1\n"
	"	adr	x1, 1f\n"
	"	msr	elr_el1, x1\n"
	"	eret\n"
	"1:	mrs	x1, pmccntr_el0\n"
	"	mrs	x1, pmevcntr0_el0\n"
	"	msr	pmselr_el0, x0\n"
	"	mrs	x1, pmxevcntr_el0\n"
	"	msr	pmswinc_el0, x0\n"
	"	mrs	x1, pmcr_el0\n"
	"	msr	pmcntenset_el0, x0\n"
	"	msr	pmccntr_el0, x0\n"
	"	svc	#0\n"
	"	ret\n"
	".popsection\n");

/*
 * Every counter index at or above PMCR_EL0.N, read through PMXEVCNTR
 * and written through PMXEVTYPER, must UNDEF: each one, not just some.
 * Return: the number of indices where either access did not.
 */
static uint64_t undef_sweep(uint64_t n)
{
	uint64_t idx, missed = 0;

	for (idx = n; idx < 31; idx++) {
		uint64_t before = undefs;

		write_sysreg(idx, pmselr_el0);
		isb();
		(void)read_sysreg(pmxevcntr_el0);
		write_sysreg(0, pmxevtyper_el0);
		isb();
		missed += undefs - before != 2;
	}
	return missed;
}

static void guest_hostile(void)
{
	uint64_t s = SEED, n = (read_sysreg(pmcr_el0) >> 11) & 0x1f, missed;
	int i;

	missed = undef_sweep(n);

	for (i = 0; i < HOSTILE_WRITES; i++)
		hostile_write(guest_rnd(&s) % 17, guest_rnd(&s));
	/* And from EL0, under random PMUSERENR settings. */
	for (i = 0; i < HOSTILE_EL0; i++) {
		write_sysreg(guest_rnd(&s) & 0xf, pmuserenr_el0);
		isb();
		el0_pmu_poke(guest_rnd(&s));
	}
	write_sysreg(0, pmcr_el0);
	GUEST_SYNC_ARGS(1, undefs, missed, n, 0);
	GUEST_DONE();
}

static void guest_watch(void)
{
	uint64_t i0, c0;

	write_sysreg(PMCR_LC | PMCR_P | PMCR_C, pmcr_el0);
	write_sysreg(INST_RETIRED, pmevtyper0_el0);
	write_sysreg(0, pmccfiltr_el0);
	write_sysreg(BIT(0) | BIT(31), pmcntenset_el0);
	write_sysreg(PMCR_LC | PMCR_E, pmcr_el0);
	isb();
	i0 = read_sysreg(pmevcntr0_el0);
	c0 = read_sysreg(pmccntr_el0);
	GUEST_SYNC(1);	/* the VMM spins here, or not */
	GUEST_SYNC_ARGS(2, read_sysreg(pmevcntr0_el0) - i0,
			read_sysreg(pmccntr_el0) - c0, 0, 0);
	GUEST_DONE();
}

static noinline void vmm_spin(unsigned long n)
{
	asm volatile("1:	subs	%0, %0, #1\n"
		     "	b.ne	1b\n" : "+r" (n) : : "cc");
}

/*
 * Run a guest to completion with a group (all, host-only, guest-only)
 * enabled on this thread; spin in the VMM at stage 1 if asked.  Returns
 * the group's counts in out[0..2] and the guest's last ucall.
 */
static void run(void *guest_code, bool spin, uint64_t out[3],
		struct ucall *last)
{
	uint64_t buf[6];
	struct kvm_vcpu *vcpu;
	struct kvm_vm *vm = vm_create(1);
	struct ucall uc;
	int gic_fd, fds[3], s;

	vcpu = create_vpmu_vcpu(vm, guest_code, &gic_fd);
	vm_install_sync_handler(vm, VECTOR_SYNC_CURRENT, ESR_ELx_EC_UNKNOWN,
				undef_handler);
	vm_install_sync_handler(vm, VECTOR_SYNC_LOWER_64, ESR_ELx_EC_UNKNOWN,
				undef_handler);
	if (guest_code == guest_hostile)
		vm_install_sync_handler(vm, VECTOR_SYNC_LOWER_64, ESR_ELx_EC_SVC64,
					poke_svc_handler);
	for (s = 0; s < 3; s++)
		fds[s] = perf_open_side(s, s ? fds[0] : -1,
					PERF_FORMAT_TOTAL_TIME_ENABLED |
					PERF_FORMAT_TOTAL_TIME_RUNNING);

	ioctl(fds[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	for (;;) {
		vcpu_run(vcpu);
		switch (get_ucall(vcpu, &uc)) {
		case UCALL_SYNC:
			*last = uc;
			if (uc.args[1] == 1 && spin)
				vmm_spin(VMM_SPIN);
			continue;
		case UCALL_DONE:
			break;
		case UCALL_ABORT:
			REPORT_GUEST_ASSERT(uc);
			break;
		default:
			TEST_FAIL("unexpected exit");
		}
		break;
	}
	ioctl(fds[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	TEST_ASSERT(read(fds[0], buf, sizeof(buf)) == sizeof(buf), "read");
	/* nr, time_enabled, time_running, then the values */
	printf("vpmu_hostile: group enabled %lu ns, running %lu ns\n",
	       buf[1], buf[2]);
	for (s = 0; s < 3; s++)
		out[s] = buf[3 + s];
	for (s = 2; s >= 0; s--)
		close(fds[s]);
	close(gic_fd);
	kvm_vm_free(vm);
}

int main(void)
{
	uint64_t quiet[3], spun[3], hostile[3];
	struct ucall uq, us, uh;
	int64_t diff, slack = qemu_slack(SLACK);

	TEST_REQUIRE(kvm_has_cap(KVM_CAP_ARM_PMU_V3));

	plan(6);
	run(guest_watch, false, quiet, &uq);
	run(guest_watch, true, spun, &us);
	printf("vpmu_hostile: guest deltas across an exit: insns %lu/%lu, cycles %lu/%lu (quiet/VMM spin of %lu)\n",
	       uq.args[2], us.args[2], uq.args[3], us.args[3], VMM_SPIN);
	check(llabs((int64_t)(us.args[2] - uq.args[2])) <= slack,
	      "guest instructions exclude the VMM", "%lu vs %lu (slack %ld)",
	      us.args[2], uq.args[2], slack);
	check(llabs((int64_t)(us.args[3] - uq.args[3])) <= slack * 4,
	      "guest cycles exclude the VMM", "%lu vs %lu (slack %ld)",
	      us.args[3], uq.args[3], slack * 4);
	diff = spun[2] - quiet[2];
	check(llabs(diff) <= slack * 4, "guest-only host event excludes the VMM",
	      "guest-only %lu vs %lu (VMM spun %lu instructions, slack %ld)",
	      spun[2], quiet[2], 2 * VMM_SPIN, slack * 4);

	run(guest_hostile, false, hostile, &uh);
	printf("vpmu_hostile: %d random PMU writes at EL1 and %d EL0 pokes (seed %d), %lu UNDEFs\n",
	       HOSTILE_WRITES, HOSTILE_EL0, SEED, uh.args[2]);
	diff = hostile[0] - hostile[1] - hostile[2];
	check(diff == 0, "partition with a hostile guest",
	      "all=%lu host-only=%lu guest-only=%lu", hostile[0], hostile[1],
	      hostile[2]);
	check(uh.args[2] > 0, "unimplemented registers UNDEF",
	      "%lu UNDEFs", uh.args[2]);
	check(uh.args[4] < 31 && uh.args[3] == 0,
	      "every unimplemented counter index UNDEFs",
	      "PMCR_EL0.N = %lu: %lu of %lu indices %lu-30 did not UNDEF both ways",
	      uh.args[4], uh.args[3], 31 - uh.args[4], uh.args[4]);

	ksft_finished();
}

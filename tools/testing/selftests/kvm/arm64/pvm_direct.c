// SPDX-License-Identifier: GPL-2.0-only
/*
 * pvm_direct - a protected VM with the direct guest PMU
 *
 * On a protected-KVM host (kvm-arm.mode=protected) a protected VM
 * (KVM_VM_TYPE_ARM_PROTECTED) may have a PMU, and only the direct one
 * (Documentation/arch/arm64/pmu-direct.rst): the hypervisor switches its
 * counters at every entry and exit and keeps its PMU registers out of
 * the host's copy of the vCPU.  It checks:
 *
 *  - pvm_pmu_offered: KVM_CAP_ARM_PMU_V3 on the protected VM, INIT
 *    succeeds, and the vCPU reads KVM_ARM_VCPU_PMU_V3_DIRECT as 1
 *    without the VMM asking;
 *  - pvm_trapped_refused: a VMM that sets the attribute to 0 gets
 *    EOPNOTSUPP from INIT (the host cannot emulate a protected VM's PMU);
 *  - pvm_count_el1: the guest's EL1 instructions over an EL1 loop of N
 *    iterations, on its counter 0: 2N plus the loop's fixed cost;
 *  - pvm_count_across_exits: a counter the guest set to MARK keeps its
 *    value across two exits to user space and counts only the guest's
 *    few instructions between its write and its read;
 *  - pvm_host_reads_nothing: at the exit in between, the host's view of
 *    the vCPU (KVM_GET_ONE_REG of PMEVCNTR0_EL0, PMEVTYPER0_EL0,
 *    PMCR_EL0) holds none of the guest's values;
 *  - pvm_guest_only_zero: a host guest-only instructions event on the
 *    vCPU thread counts nothing of the protected VM;
 *  - pvm_el2_work_hidden: the hypervisor's work inside the VM's run is
 *    the VM's: a host-only instructions event that counts EL2 does not
 *    grow (by TRAP_SLACK a read) when the guest makes TRAPS more
 *    PMINTENSET_EL1 reads between
 *    two exits, each served at EL2 without an exit (perf.rst, "Protected
 *    VMs");
 *  - pvm_pmceid_hw: the guest reads the hardware's PMCEID0_EL0, as any
 *    direct guest (pmu-direct.rst says why): INST_RETIRED among its
 *    events, as the host's PMU lists it, so that Linux's generic events
 *    map in a protected VM.
 *
 * The guest reports as pvm_vm.h says.  Needs a vGICv3.
 */
#include <linux/perf_event.h>
#include <perf/arm_pmuv3.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kvm_util.h"
#include "processor.h"
#include "test_util.h"

#include "guest_loops.h"
#include "pmu_test.h"
#include "pvm_vm.h"
#include "vpmu_vm.h"

#define INST_RETIRED	ARMV8_PMUV3_PERFCTR_INST_RETIRED
#define TYPER0		(INST_RETIRED | ARMV8_PMU_EXCLUDE_EL0)
#define N1		100000
#define EL1_COST	100	/* the loop's fixed cost, bound (as pmu_direct) */
#define MARK		0x5a5a0000ULL
#define MARK_COST	100	/* the guest's instructions from write to read, bound */
#define PMSELR_MARK	5	/* the guest's PMSELR_EL0.SEL across its exits */

/* Report slots (pvm_vm.h) */
#define SLOT_LOOP	1
#define SLOT_MARKED	2
#define SLOT_AFTER	3
#define SLOT_DONE	4
#define SLOT_IDS	5
#define SLOT_TRAPS0	6
#define SLOT_TRAPS1	7
#define SLOT_TRAPS2	8

/*
 * PMINTENSET_EL1 reads (each trapped, served at EL2) a segment grows by,
 * and the growth of a host-only EL2 count allowed for them: an EL2 round
 * trip is a few hundred instructions, so a leak adds well over
 * TRAP_SLACK a read, while a host timer tick's exit that lands in one
 * segment only (a few 10,000 in protected mode) stays under it.
 */
#define TRAPS		5000
#define TRAP_SLACK	50

/* ---- guest ---------------------------------------------------------------- */

/* @n PMU accesses that trap to EL2 and are served there (no exit). */
static void pmu_traps(uint64_t n)
{
	while (n--)
		(void)read_sysreg(pmintenset_el1);
}

static void pvm_guest(uint64_t n)
{
	uint64_t c0, c1;

	pvm_report(SLOT_IDS, read_sysreg(pmceid0_el0));
	write_sysreg(ARMV8_PMU_PMCR_P | ARMV8_PMU_PMCR_LC, pmcr_el0);
	write_sysreg(TYPER0, pmevtyper0_el0);
	write_sysreg(BIT(0), pmcntenset_el0);
	write_sysreg(ARMV8_PMU_PMCR_LC | ARMV8_PMU_PMCR_E, pmcr_el0);
	/* A selection of its own: the host must not find it (hostile_host.sh). */
	write_sysreg(PMSELR_MARK, pmselr_el0);
	isb();
	c0 = read_sysreg(pmevcntr0_el0);
	el1_loop(n);
	c1 = read_sysreg(pmevcntr0_el0);
	pvm_report(SLOT_LOOP, c1 - c0);

	write_sysreg(MARK, pmevcntr0_el0);
	isb();
	pvm_report(SLOT_MARKED, 0);
	pvm_report(SLOT_AFTER, read_sysreg(pmevcntr0_el0));
	pvm_report(SLOT_TRAPS0, 0);
	pmu_traps(TRAPS);
	pvm_report(SLOT_TRAPS1, 0);
	pmu_traps(2 * TRAPS);
	pvm_report(SLOT_TRAPS2, 0);
	for (;;)
		pvm_report(SLOT_DONE, 0);
}

/* ---- host ----------------------------------------------------------------- */

static int direct_attr(struct kvm_vcpu *vcpu, bool set, int *val)
{
	struct kvm_device_attr attr = {
		.group = KVM_ARM_VCPU_PMU_V3_CTRL,
		.attr = KVM_ARM_VCPU_PMU_V3_DIRECT,
		.addr = (uint64_t)val,
	};

	return ioctl(vcpu->fd, set ? KVM_SET_DEVICE_ATTR : KVM_GET_DEVICE_ATTR,
		     &attr) ? errno : 0;
}

/* A host register read: its value, or the errno as a negative number. */
static int64_t host_reg(struct kvm_vcpu *vcpu, uint64_t id)
{
	uint64_t v;
	struct kvm_one_reg reg = { .id = id, .addr = (uint64_t)&v };

	if (ioctl(vcpu->fd, KVM_GET_ONE_REG, &reg))
		return -errno;
	return v;
}

/* The host's PMU (DT or ACPI name) lists inst_retired: its PMCEID0_EL0 is not 0. */
static bool host_has_events(void)
{
	return !access("/sys/bus/event_source/devices/armv8_pmuv3/events/inst_retired", F_OK) ||
	       !access("/sys/bus/event_source/devices/armv8_pmuv3_0/events/inst_retired", F_OK);
}

int main(void)
{
	int64_t cntr, typer, pmcr;
	struct kvm_vcpu *vcpu;
	struct kvm_vm *vm;
	uint64_t loop, after, ids, buf[2] = { 0, UINT64_MAX }, h[3];
	int64_t growth;
	int i, host_fd;
	int gic_fd, cap, err, val = -1, fd;
	bool host_events = host_has_events();

	TEST_REQUIRE(kvm_has_cap(KVM_CAP_ARM_PMU_V3));
	__TEST_REQUIRE(pvm_supported(), "no protected VMs (not a protected-mode host)");
	plan(8);

	/* A VMM that asks for the trapped PMU. */
	vm = pvm_create(&vcpu, true, pvm_guest, &gic_fd);
	val = 0;
	err = direct_attr(vcpu, true, &val);
	if (!err)
		err = vpmu_init(vcpu) ? errno : 0;
	check(err == EOPNOTSUPP, "pvm_trapped_refused",
	      "DIRECT 0 then INIT: %s (want EOPNOTSUPP)", strerror(err));
	close(gic_fd);
	kvm_vm_free(vm);

	/* One that does not ask. */
	vm = pvm_create(&vcpu, true, pvm_guest, &gic_fd);
	cap = __vm_ioctl(vm, KVM_CHECK_EXTENSION, (void *)KVM_CAP_ARM_PMU_V3);
	err = vpmu_init(vcpu) ? errno : 0;
	val = -1;
	if (!err)
		err = direct_attr(vcpu, false, &val);
	check(cap == 1 && !err && val == 1, "pvm_pmu_offered",
	      "KVM_CAP_ARM_PMU_V3 %d, INIT then GET DIRECT: %s, %d (want 1, success, 1)",
	      cap, strerror(err), val);
	TEST_ASSERT(!err, "a protected VM without a PMU: nothing more to check");
	vcpu_args_set(vcpu, 1, N1);

	ids = pvm_run_to(vcpu, SLOT_IDS);
	fd = perf_open_side(SIDE_GUEST, -1, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	loop = pvm_run_to(vcpu, SLOT_LOOP);
	pvm_run_to(vcpu, SLOT_MARKED);
	cntr = host_reg(vcpu, KVM_ARM64_SYS_REG(SYS_PMEVCNTRn_EL0(0)));
	typer = host_reg(vcpu, KVM_ARM64_SYS_REG(SYS_PMEVTYPERn_EL0(0)));
	pmcr = host_reg(vcpu, KVM_ARM64_SYS_REG(SYS_PMCR_EL0));
	after = pvm_run_to(vcpu, SLOT_AFTER);
	/* Host-only, counting EL2 (exclude_hv clear), over two segments. */
	host_fd = perf_open_side(SIDE_HOST, -1, 0);
	ioctl(host_fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < 3; i++) {
		uint64_t v[2];

		pvm_run_to(vcpu, SLOT_TRAPS0 + i);
		TEST_ASSERT(read(host_fd, v, sizeof(v)) == sizeof(v), "read host-only");
		h[i] = v[1];
	}
	close(host_fd);
	/* The second segment makes TRAPS more accesses than the first. */
	growth = (int64_t)(h[2] - h[1]) - (int64_t)(h[1] - h[0]);
	pvm_run_to(vcpu, SLOT_DONE);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	TEST_ASSERT(read(fd, buf, sizeof(buf)) == sizeof(buf), "read guest-only");
	close(fd);

	check(loop >= 2 * N1 && loop <= 2 * N1 + EL1_COST, "pvm_count_el1",
	      "EL1 instructions over a loop of %d: %lu (want %d plus at most %d)",
	      N1, loop, 2 * N1, EL1_COST);
	check(after >= MARK && after <= MARK + MARK_COST, "pvm_count_across_exits",
	      "counter set to %#llx read %#lx after two exits (want at most %d more)",
	      MARK, after, MARK_COST);
	/* Each either fails to read or is not the guest's. */
	check(!(cntr >= (int64_t)MARK && cntr <= (int64_t)(MARK + MARK_COST)) &&
	      (typer & 0xffffffff) != TYPER0 &&
	      (pmcr < 0 || !(pmcr & ARMV8_PMU_PMCR_E)),
	      "pvm_host_reads_nothing",
	      "host's PMEVCNTR0 %#lx, PMEVTYPER0 %#lx, PMCR_EL0 %#lx (a negative: -errno); guest's %#llx.., %#x, E set",
	      cntr, typer, pmcr, MARK, TYPER0);
	check(buf[1] == 0, "pvm_guest_only_zero",
	      "host guest-only instructions over the protected VM's runs: %lu (want 0)",
	      buf[1]);
	check(growth < TRAP_SLACK * TRAPS + (int64_t)qemu_slack(20 * TRAPS),
	      "pvm_el2_work_hidden",
	      "host-only (EL2 counted) over a segment with %d guest PMU traps more: %+ld instructions (want under %lu)",
	      TRAPS, growth, TRAP_SLACK * TRAPS + qemu_slack(20 * TRAPS));
	check((ids & BIT(INST_RETIRED)) && host_events, "pvm_pmceid_hw",
	      "guest's PMCEID0_EL0 %#lx (want INST_RETIRED, bit %d); the host's PMU lists inst_retired: %s",
	      ids, INST_RETIRED, host_events ? "yes" : "no");
	close(gic_fd);
	kvm_vm_free(vm);

	ksft_finished();
}

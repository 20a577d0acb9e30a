// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpmu_pmceid - the common events a KVM guest's virtual PMU implements
 *
 * A one-vCPU VM with a virtual PMU reads PMCEID0_EL0 and PMCEID1_EL0 at
 * EL1 and hands them to the host, which prints them as
 *
 *	pmceid0=0x... pmceid1=0x...
 *
 * Every VM this host's KVM creates without a PMU event filter sees the
 * same two registers, so the Linux-guest job (tests/guest/linux_guest.sh)
 * checks the events/ directory of the guest's perf driver against them.
 * PMCEID0_EL0 bits [31:0] are events 0x00-0x1f and [63:32] events
 * 0x4000-0x401f; PMCEID1_EL0 likewise for 0x20-0x3f and 0x4020-0x403f.
 */
#include "kvm_util.h"
#include "processor.h"
#include "test_util.h"
#include "ucall_common.h"

#include "vpmu_vm.h"

static void guest_code(void)
{
	GUEST_SYNC_ARGS(0, read_sysreg(pmceid0_el0), read_sysreg(pmceid1_el0),
			0, 0);
	GUEST_DONE();
}

int main(void)
{
	struct kvm_vcpu *vcpu;
	struct kvm_vm *vm;
	struct ucall uc;
	int gic_fd;

	TEST_REQUIRE(kvm_has_cap(KVM_CAP_ARM_PMU_V3));

	vm = vm_create(1);
	vcpu = create_vpmu_vcpu(vm, guest_code, &gic_fd);
	run_until(vcpu, UCALL_SYNC, &uc);
	printf("pmceid0=%#lx pmceid1=%#lx\n", uc.args[2], uc.args[3]);
	close(gic_fd);
	kvm_vm_free(vm);
	return 0;
}

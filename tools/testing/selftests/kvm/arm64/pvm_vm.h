/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A protected VM (KVM_VM_TYPE_ARM_PROTECTED) for the KVM PMU tests, on
 * the KVM selftests library.  The host never reads a protected VM's
 * memory once it has run (its pages are the VM's), so the guest reports
 * with a plain store to an address outside its memory, which reaches
 * user space as an MMIO exit with the stored value.
 */
#ifndef PMUV3_KVM_PVM_VM_H
#define PMUV3_KVM_PVM_VM_H

#include <string.h>

#include "kvm_util.h"
#include "processor.h"
#include "test_util.h"
#include "ucall_common.h"

#include "guest_loops.h"
#include "vpmu_vm.h"

#ifndef KVM_VM_TYPE_ARM_PROTECTED
#define KVM_VM_TYPE_ARM_PROTECTED	(1UL << 31)
#endif

/* One STR (ISV set in the abort) to report slot @slot (8-byte words after the ucall address, never 0). */
static inline void pvm_report(int slot, uint64_t val)
{
	volatile uint64_t *p = (volatile uint64_t *)ucall_exit_mmio_addr + slot;

	asm volatile("str %x0, [%1]" : : "rZ" (val), "r" (p) : "memory");
}

/*
 * The library creates arm64 VMs of the default type only: create one,
 * then reopen it as a protected VM (@protected) over the same memory
 * (written before any run, so the VM's pages hold the guest's code and
 * tables), with its vGIC again, and add the vCPU, with a PMU not yet
 * initialised if @gic_fd (its vGIC's fd goes there; see vpmu_vm.h).
 */
/* Whether KVM makes protected VMs here (a protected-mode host). */
static inline bool pvm_supported(void)
{
	int fd = __kvm_ioctl(open_kvm_dev_path_or_exit(), KVM_CREATE_VM,
			     (void *)KVM_VM_TYPE_ARM_PROTECTED);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static inline struct kvm_vm *pvm_create(struct kvm_vcpu **vcpu, bool protected,
					void *guest_code, int *gic_fd)
{
	struct kvm_vm *vm = __vm_create(VM_SHAPE_DEFAULT, 1, 0);

	if (protected) {
		kvm_vm_release(vm);
		vm->type |= KVM_VM_TYPE_ARM_PROTECTED;
		kvm_vm_restart(vm);
		kvm_arch_vm_post_create(vm, 1);
	}
	if (gic_fd)
		return *vcpu = add_vpmu_vcpu(vm, guest_code, gic_fd), vm;
	*vcpu = vm_vcpu_add(vm, 0, guest_code);
	kvm_arch_vm_finalize_vcpus(vm);
	guest_loops_setup(vm, *vcpu);
	return vm;
}

/* Run to the guest's report in @slot; only the exit's own fields are read. */
static inline uint64_t pvm_run_to(struct kvm_vcpu *vcpu, int slot)
{
	struct kvm_run *run = vcpu->run;
	uint64_t gpa = vcpu->vm->ucall_mmio_addr, v;
	int r;

	do
		r = __vcpu_run(vcpu);
	while (r == -1 && errno == EINTR);
	TEST_ASSERT(!r, KVM_IOCTL_ERROR(KVM_RUN, r));
	TEST_ASSERT(run->exit_reason == KVM_EXIT_MMIO, "exit %s",
		    exit_reason_str(run->exit_reason));
	TEST_ASSERT(run->mmio.phys_addr != gpa,
		    "guest assert or exception, pc %#lx",
		    vcpu_get_reg(vcpu, ARM64_CORE_REG(regs.pc)));
	TEST_ASSERT(run->mmio.is_write && run->mmio.len == 8 &&
		    run->mmio.phys_addr == gpa + 8 * slot,
		    "unexpected MMIO exit at %#llx", run->mmio.phys_addr);
	memcpy(&v, run->mmio.data, 8);
	return v;
}

#endif /* PMUV3_KVM_PVM_VM_H */

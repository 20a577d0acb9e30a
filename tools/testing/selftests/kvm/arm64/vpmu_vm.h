/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A one-vCPU VM with a virtual PMU (KVM_ARM_VCPU_PMU_V3, overflow IRQ 23,
 * vGICv3), the exception tables and the EL0-excursion SVC handler of
 * guest_loops.h.
 */
#ifndef PMUV3_KVM_VPMU_VM_H
#define PMUV3_KVM_VPMU_VM_H

#include "kvm_util.h"
#include "processor.h"
#include "test_util.h"
#include "vgic.h"

#include "guest_loops.h"

/*
 * The vCPU with its PMU's overflow interrupt and the VM's vGIC, not yet
 * initialised: attributes that must come before KVM_ARM_VCPU_PMU_V3_INIT
 * (pmu_direct.c) go between this and vpmu_init().
 */
static inline struct kvm_vcpu *add_vpmu_vcpu(struct kvm_vm *vm,
					     void *guest_code, int *gic_fd)
{
	uint64_t irq = 23;
	struct kvm_device_attr irq_attr = {
		.group = KVM_ARM_VCPU_PMU_V3_CTRL,
		.attr = KVM_ARM_VCPU_PMU_V3_IRQ,
		.addr = (uint64_t)&irq,
	};
	struct kvm_vcpu_init init;
	struct kvm_vcpu *vcpu;

	vm_ioctl(vm, KVM_ARM_PREFERRED_TARGET, &init);
	init.features[0] |= 1 << KVM_ARM_VCPU_PMU_V3;
	vcpu = aarch64_vcpu_add(vm, 0, &init, guest_code);
	guest_loops_setup(vm, vcpu);
	*gic_fd = pmuv3_vm_vgic(vm, 1);
	__TEST_REQUIRE(*gic_fd >= 0, "no vGICv3");
	vcpu_ioctl(vcpu, KVM_SET_DEVICE_ATTR, &irq_attr);
	return vcpu;
}

/* KVM_ARM_VCPU_PMU_V3_INIT: 0, or -1 with errno set. */
static inline int vpmu_init(struct kvm_vcpu *vcpu)
{
	return __vcpu_device_attr_set(vcpu, KVM_ARM_VCPU_PMU_V3_CTRL,
				      KVM_ARM_VCPU_PMU_V3_INIT, NULL);
}

static inline struct kvm_vcpu *create_vpmu_vcpu(struct kvm_vm *vm,
						void *guest_code, int *gic_fd)
{
	struct kvm_vcpu *vcpu = add_vpmu_vcpu(vm, guest_code, gic_fd);

	TEST_ASSERT(!vpmu_init(vcpu), "KVM_ARM_VCPU_PMU_V3_INIT: %s",
		    strerror(errno));
	return vcpu;
}

#endif /* PMUV3_KVM_VPMU_VM_H */

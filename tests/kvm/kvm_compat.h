/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The KVM selftests library's names as mainline (7.3) has them, for the
 * 6.12 backport's older library: ESR_ELx_EC_* from the tools copy of
 * <asm/esr.h> (6.12: ESR_EC_* of its own), vm_alloc_page{,s}() (6.12:
 * vm_vaddr_alloc_page{,s}()), and a VM's vGICv3 (mainline's library
 * creates one with every VM; 6.12's leaves it to the test).
 * mk/kvm-tests.sh defines PMUV3_KVM_VADDR_ALLOC when the library has the
 * old allocator names, PMUV3_KVM_DEFAULT_VGIC when it makes the vGIC.
 */
#ifndef PMUV3_KVM_COMPAT_H
#define PMUV3_KVM_COMPAT_H

#include <unistd.h>

#include "processor.h"
#include "vgic.h"

#ifndef ESR_ELx_EC_SVC64
#define ESR_ELx_EC_SVC64	ESR_EC_SVC64
#define ESR_ELx_EC_UNKNOWN	ESR_EC_UNKNOWN
#endif

#ifdef PMUV3_KVM_VADDR_ALLOC
#define vm_alloc_page		vm_vaddr_alloc_page
#define vm_alloc_pages		vm_vaddr_alloc_pages
#endif

/*
 * The VM's vGICv3, initialised, once its @nr_vcpus vCPUs are added: a
 * file descriptor of the caller's to close, or negative without one.
 */
static inline int pmuv3_vm_vgic(struct kvm_vm *vm, unsigned int nr_vcpus)
{
#ifdef PMUV3_KVM_DEFAULT_VGIC
	if (!vm->arch.has_gic)
		return -1;
	kvm_arch_vm_finalize_vcpus(vm);
	return dup(vm->arch.gic_fd);
#else
	return vgic_v3_setup(vm, nr_vcpus, 64);
#endif
}

#endif /* PMUV3_KVM_COMPAT_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The KVM selftests library as these tests use it: mainline's, where
 * every VM has a vGICv3 and pages come from vm_alloc_page{,s}().  The
 * 6.12 backport (the library before those) defines
 * PMUV3_KVM_LIBRARY_6_12 below: its allocator is
 * vm_vaddr_alloc_page{,s}(), its ESR classes ESR_EC_*, and a test makes
 * the vGIC itself.
 */
#ifndef PMUV3_KVM_COMPAT_H
#define PMUV3_KVM_COMPAT_H

#include <unistd.h>

#include "processor.h"
#include "vgic.h"

#ifdef PMUV3_KVM_LIBRARY_6_12
#define ESR_ELx_EC_SVC64	ESR_EC_SVC64
#define ESR_ELx_EC_UNKNOWN	ESR_EC_UNKNOWN
#define vm_alloc_page		vm_vaddr_alloc_page
#define vm_alloc_pages		vm_vaddr_alloc_pages
#endif

/*
 * The VM's vGICv3, initialised, once its @nr_vcpus vCPUs are added: a
 * file descriptor of the caller's to close, or negative without one.
 */
static inline int pmuv3_vm_vgic(struct kvm_vm *vm, unsigned int nr_vcpus)
{
#ifdef PMUV3_KVM_LIBRARY_6_12
	return vgic_v3_setup(vm, nr_vcpus, 64);
#else
	if (!vm->arch.has_gic)
		return -1;
	kvm_arch_vm_finalize_vcpus(vm);
	return dup(vm->arch.gic_fd);
#endif
}

#endif /* PMUV3_KVM_COMPAT_H */

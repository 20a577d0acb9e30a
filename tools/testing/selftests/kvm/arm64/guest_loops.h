/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Guest code of known length for the KVM PMU tests: a loop at EL1, and a
 * loop at EL0 entered by ERET and left by SVC.  Each loop iteration is two
 * instructions (subs, b.ne); an EL0 excursion of n iterations retires
 * exactly 2n + 1 instructions at EL0 (the loop and the SVC).  And the
 * host's run of a vCPU to its next ucall.
 */
#ifndef PMUV3_KVM_GUEST_LOOPS_H
#define PMUV3_KVM_GUEST_LOOPS_H

#include "kvm_util.h"
#include "processor.h"
#include "ucall_common.h"

#include "kvm_compat.h"

#define PSR_EL1H_MASKED		0x3c5	/* EL1h, DAIF masked */

/*
 * el0_excursion(n): ERET to EL0, spin n iterations there, SVC back.  The
 * SVC handler resumes at el0_resume at EL1 on the same stack, so to the
 * caller this is an ordinary function call.
 */
void el0_excursion(uint64_t n);
void el0_resume(void);
asm(".pushsection .text\n"
	".global el0_excursion\n"
	"el0_excursion:\n"
	"	mov	x1, #0x3c0\n"		/* EL0t, DAIF masked */
	"	msr	spsr_el1, x1\n"
	"	adr	x1, 1f\n"
	"	msr	elr_el1, x1\n"
	"	eret\n"
	"1:	subs	x0, x0, #1\n"
	"	b.ne	1b\n"
	"	svc	#0\n"
	".global el0_resume\n"
	"el0_resume:\n"
	"	ret\n"
	".popsection\n");

static void el0_svc_handler(struct ex_regs *regs)
{
	regs->pc = (uint64_t)el0_resume;
	regs->pstate = PSR_EL1H_MASKED;
}

static inline void el1_loop(uint64_t n)
{
	asm volatile("1:	subs	%0, %0, #1\n"
		     "	b.ne	1b\n" : "+r" (n) : : "cc");
}

#define SMCCC_VERSION		0x80000000

/*
 * Guest code shared by the host-side tests: r rounds of an EL1 loop of
 * l1 iterations, an EL0 excursion of l0 and an in-kernel hypercall, so
 * that the guest exits r times without leaving the host kernel.
 */
static inline void guest_rounds_only(uint64_t r, uint64_t l1, uint64_t l0)
{
	struct arm_smccc_res res;

	while (r--) {
		el1_loop(l1);
		el0_excursion(l0);
		smccc_hvc(SMCCC_VERSION, 0, 0, 0, 0, 0, 0, 0, &res);
	}
}

static inline void guest_rounds(uint64_t r, uint64_t l1, uint64_t l0)
{
	guest_rounds_only(r, l1, l0);
	GUEST_DONE();
}

/* Exception tables, and the SVC handler that ends an EL0 excursion. */
static inline void guest_loops_setup(struct kvm_vm *vm, struct kvm_vcpu *vcpu)
{
	vm_init_descriptor_tables(vm);
	vcpu_init_descriptor_tables(vcpu);
	vm_install_sync_handler(vm, VECTOR_SYNC_LOWER_64, ESR_ELx_EC_SVC64,
				el0_svc_handler);
}

/* Run the vCPU to the guest's next ucall, which must be @want. */
static inline void run_until(struct kvm_vcpu *vcpu, uint64_t want, struct ucall *uc)
{
	vcpu_run(vcpu);
	if (get_ucall(vcpu, uc) == UCALL_ABORT)
		REPORT_GUEST_ASSERT(*uc);
	TEST_ASSERT(uc->cmd == want, "ucall %lu, expected %lu (exit %s)",
		    (unsigned long)uc->cmd, (unsigned long)want,
		    exit_reason_str(vcpu->run->exit_reason));
}

#endif /* PMUV3_KVM_GUEST_LOOPS_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The perf-register service's decisions (pmu_hvc.c), declared for its
 * KUnit suite (tests/pmu_hvc_kunit.c); the service itself has no other
 * user but the SMCCC handler (<kvm/arm_pmu_hvc.h>).
 */
#ifndef __ARM64_KVM_PMU_HVC_H__
#define __ARM64_KVM_PMU_HVC_H__

#include <linux/types.h>
#include <kvm/arm_pmu_hvc.h>

/* What a vCPU may do: its grants and its PMU. */
struct kvm_perfreg_ctx {
	unsigned long bmap;	/* KVM_REG_ARM_VENDOR_HYP_BMAP_2 */
	bool has_pmu;
	unsigned int nr_counters;	/* PMCR_EL0.N */
};

/* A register an ID names, for the sysreg emulation. */
struct kvm_perfreg_reg {
	u32 encoding;	/* sys_reg(op0, op1, CRn, CRm, op2) */
	bool readable, writable;
};

/* Entries read from (and written back to) the guest's page at a time. */
#define KVM_PERFREG_CHUNK		16

#if IS_ENABLED(CONFIG_KUNIT)
int kvm_perfreg_decode(u16 id, unsigned int n, struct kvm_perfreg_reg *reg);
int kvm_perfreg_check(const struct kvm_perfreg_ctx *ctx, u64 bank, u64 id,
		      u8 op, struct kvm_perfreg_reg *reg);
int kvm_perfreg_batch_args(u64 ipa, u64 nr, u64 flags);
unsigned int kvm_perfreg_cost(const struct kvm_perfreg_op *e, unsigned int n);
void kvm_perfreg_batch_list(u64 nr, u64 flags, unsigned int nr_counters,
			    u64 *val,
			    bool (*copy_in)(void *arg, u64 from,
					    struct kvm_perfreg_op *ops,
					    unsigned int n),
			    bool (*copy_out)(void *arg, u64 from,
					     const struct kvm_perfreg_op *ops,
					     unsigned int n),
			    int (*access)(void *arg, struct kvm_perfreg_op *e),
			    bool (*yield)(void *arg), void *arg);
#endif

#endif /* __ARM64_KVM_PMU_HVC_H__ */

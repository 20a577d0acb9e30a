/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The direct guest PMU's per-vCPU state and KVM's entry points
 * (Documentation/arch/arm64/pmu-direct.rst).  A direct vCPU owns event
 * counters [0, hpmn) and the cycle counter: EL2 switches its control
 * registers at every entry and exit (hyp/pmu_direct.h), KVM its counters
 * and types at vcpu_load and vcpu_put (arch/arm64/kvm/pmu_direct.c).
 * While it runs, the guest's PMCR_EL0, PMSELR_EL0, PMUSERENR_EL0 and its
 * bits of PMCNTEN, PMINTEN and PMOVS are in the hardware; at every exit
 * they are saved into the vCPU's registers, where the rest of KVM reads
 * them.  PMINTENSET_EL1 in the vCPU is always the guest's view: the
 * hardware has those bits less the overflows the guest has not cleared
 * yet (a held overflow raises the virtual interrupt, not the physical
 * one, again and again).
 */
#ifndef __KVM_ARM_PMU_DIRECT_H
#define __KVM_ARM_PMU_DIRECT_H

#include <linux/types.h>

/*
 * @enabled:   the vCPU has the direct PMU: set at KVM_ARM_VCPU_PMU_V3_INIT
 *             only, once its share and traps are (in protected mode, at
 *             EL2, for the run about to start)
 * @requested: the VMM set KVM_ARM_VCPU_PMU_V3_DIRECT (else kvm.pmu_direct)
 * @want:      what KVM_ARM_VCPU_PMU_V3_DIRECT asked, for INIT to decide
 * @chosen:    EL2 only: a protected VM's PMU as its first run chose it
 * @nr_set:    the VMM set KVM_ARM_VCPU_PMU_V3_SET_NR_COUNTERS on this vCPU
 * @loaded:    its counters and types are in this CPU's hardware
 * @pmuv3p5:   the guest may set PMCR_EL0.LP (its PMU is PMUv3p5)
 * @pvm:       EL2 only: a protected VM's, whose counters and types EL2
 *             switches at every entry and exit and zeroes in the hardware
 * @virt_e:    the guest's PMCR_EL0.E is kept in the vCPU, the hardware's
 *             is 1 (the guarded profile: hyp/pmu_direct.h says why)
 * @filtered:  the VM has an event filter (KVM_ARM_VCPU_PMU_V3_FILTER):
 *             the guest's types are in the vCPU's registers, and the
 *             hardware has each as kvm_pmu_part_typer_filtered() makes it
 * @filter:    that filter (the VM's pmu_filter, a host address, which
 *             the nVHE hypervisor maps), or NULL: in the protected
 *             hypervisor's copy of the vCPU, set once the hypervisor has
 *             pinned the pages the host shared; until then (or if the
 *             pin fails) the host serves the guest's type accesses
 * @hpmn:      its share: MDCR_EL2.HPMN, and PMCR_EL0.N as it reads it
 * @mask:      its counters, kvm_pmu_part_guest_mask(@hpmn), set with it
 *             (EL2 needs it at every entry and exit)
 * @mdcr:      the MDCR_EL2 PMU fields of the partition
 * @mdcr_host: VHE: the MDCR_EL2 the host runs with while the vCPU is
 *             loaded (HPMN = N), written back at every exit
 * @pmcr_host: the host's PMCR_EL0, saved at entry, written back at exit
 * @hdfgrtr, @hdfgwtr: the fine-grained traps the partition adds
 * @hdfgrtr2, @hdfgwtr2: likewise in the FGT2 registers, whose bits trap
 *             when clear: within KVM_PMU_PART_HDFG{R,W}TR2_MASK, the
 *             partition's value (a 0 traps)
 * @vacate:    the counters host events must leave while it is loaded,
 *             and the bits cleared at load and at every exit
 * @irq_level: the guest's PMU interrupt as EL2 left it at the last exit
 *             (PMCR_EL0.E, PMOVS and PMINTEN as the guest sees them),
 *             or as vcpu_load finds it in the vCPU's registers (not a
 *             protected VM's); what KVM gives the vGIC.  In protected
 *             mode the hypervisor copies it into the host's vCPU after
 *             every run
 * @irq_given: the level KVM last gave the vGIC for that interrupt since
 *             vcpu_load, or KVM_PMU_DIRECT_IRQ_UNKNOWN: at vcpu_load and
 *             vcpu_put (user space may restore the vGIC's line level
 *             while the vCPU is not loaded, never while it is, see
 *             kvm_vgic_owned_ppi_level()).  vcpu_load gives the vGIC
 *             @irq_level, and after an exit kvm_pmu_sync_hwstate()
 *             leaves the vGIC alone while @irq_level is this.
 */
struct kvm_pmu_direct {
	bool enabled;
	bool requested;
	bool want;
	bool chosen;
	bool nr_set;
	bool loaded;
	bool pmuv3p5;
	bool pvm;
	bool virt_e;
	bool filtered;
	bool irq_level;
	u8 irq_given;
	u8 hpmn;
	u64 mask;
	u64 mdcr;
	u64 mdcr_host;
	u64 pmcr_host;
	u64 hdfgrtr;
	u64 hdfgwtr;
	u64 hdfgrtr2;
	u64 hdfgwtr2;
	u64 vacate;
	const unsigned long *filter;
};

#define KVM_PMU_DIRECT_IRQ_UNKNOWN	0xff

struct arm_pmu;
struct kvm;
struct kvm_vcpu;
struct kvm_device_attr;

/* The host PMU driver (drivers/perf/arm_pmuv3.c): host events keep off @mask. */
void armv8pmu_guest_own(struct arm_pmu *cpu_pmu, u64 mask);

#ifdef CONFIG_KVM_ARM_PMU_DIRECT
#define kvm_vcpu_pmu_is_direct(vcpu)	((vcpu)->arch.pmu.direct.enabled)

/* The HPMN probe's answer (the host's, and at EL2 the hypervisor's copy). */
extern bool kvm_pmu_hpmn_enforced;
void kvm_pmu_direct_probe(void);
/* Its lower halves, arch/arm64/kvm/pmu_hpmn_probe.S (host only). */
u64 __pmu_hpmn_nvhe_mdcr(u64 val, u64 mask, phys_addr_t el2_code);
u64 __pmu_hpmn_vhe_probe(u64 mdcr, u64 bit, phys_addr_t el1_code);
extern char __pmu_hpmn_el2_mdcr[], __pmu_hpmn_el1[];

int kvm_pmu_direct_set_attr(struct kvm_vcpu *vcpu, struct kvm_device_attr *attr);
int kvm_pmu_direct_get_attr(struct kvm_vcpu *vcpu, struct kvm_device_attr *attr);
int kvm_pmu_direct_init(struct kvm_vcpu *vcpu);
bool kvm_pmu_direct_vm(struct kvm *kvm);
void kvm_pmu_direct_vm_destroy(struct kvm *kvm);
void kvm_pmu_direct_nr_set(struct kvm_vcpu *vcpu);
u64 kvm_pmu_direct_mdcr(struct kvm_vcpu *vcpu, u64 *mdcr);
void kvm_pmu_direct_load_fgt(struct kvm_vcpu *vcpu);
void kvm_pmu_direct_load(struct kvm_vcpu *vcpu);
void kvm_pmu_direct_put(struct kvm_vcpu *vcpu);
int kvm_pmu_direct_reg(struct kvm_vcpu *vcpu, u32 encoding, bool write, u64 *val);
#ifdef CONFIG_KVM_ARM_PMU_HOSTILE_HOST_TEST
bool kvm_pmu_direct_hostile(struct kvm_vcpu *vcpu, u64 seed);
#else
static inline bool kvm_pmu_direct_hostile(struct kvm_vcpu *vcpu, u64 seed) { return false; }
#endif
#else
#define kvm_vcpu_pmu_is_direct(vcpu)	false

static inline void kvm_pmu_direct_probe(void) {}
static inline int kvm_pmu_direct_init(struct kvm_vcpu *vcpu) { return 0; }
static inline bool kvm_pmu_direct_vm(struct kvm *kvm) { return false; }
static inline void kvm_pmu_direct_vm_destroy(struct kvm *kvm) {}
static inline void kvm_pmu_direct_nr_set(struct kvm_vcpu *vcpu) {}
static inline u64 kvm_pmu_direct_mdcr(struct kvm_vcpu *vcpu, u64 *mdcr) { return *mdcr; }
static inline void kvm_pmu_direct_load_fgt(struct kvm_vcpu *vcpu) {}
static inline void kvm_pmu_direct_load(struct kvm_vcpu *vcpu) {}
static inline void kvm_pmu_direct_put(struct kvm_vcpu *vcpu) {}
static inline bool kvm_pmu_direct_hostile(struct kvm_vcpu *vcpu, u64 seed) { return false; }
static inline int kvm_pmu_direct_reg(struct kvm_vcpu *vcpu, u32 encoding, bool write,
				     u64 *val)
{
	return -EINVAL;
}
#endif

#endif /* __KVM_ARM_PMU_DIRECT_H */

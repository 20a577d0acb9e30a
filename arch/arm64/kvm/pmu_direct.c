// SPDX-License-Identifier: GPL-2.0-only
/*
 * The direct guest PMU, host side (Documentation/arch/arm64/pmu-direct.rst):
 * the opt-in, the guest's share of the counters, its MDCR_EL2 and
 * fine-grained traps, and the load and put of its counters and types.
 * The decisions are the pure functions of hyp/pmu_part.c, which the nVHE
 * hypervisor builds too (<kvm/arm_pmu_partition.h>); EL2's part is
 * hyp/pmu_direct.h.
 *
 * Built for VHE, nVHE and protected-mode hosts with FEAT_FGT, and in
 * protected mode for protected VMs too, whose only PMU it is: their
 * counters are switched at EL2 and never reach the host.  Where it
 * cannot be had the attribute answers -EOPNOTSUPP, and kvm.pmu_direct
 * leaves VMs on the trapped PMU.
 */
#include <kunit/visibility.h>
#include <linux/kvm_host.h>
#include <linux/moduleparam.h>
#include <linux/perf/arm_pmu.h>
#include <linux/sysfs.h>
#include <linux/uaccess.h>
#include <asm/arm_pmuv3.h>
#include <asm/daifflags.h>
#include <asm/kvm_asm.h>
#include <asm/virt.h>
#include <asm/cputype.h>
#include <asm/kvm_emulate.h>
#include <asm/kvm_mmu.h>
#include <asm/kvm_nested.h>
#include <kvm/arm_pmu.h>
#include <kvm/arm_pmu_direct.h>
#include <kvm/arm_pmu_partition.h>

static bool pmu_direct;
module_param(pmu_direct, bool, 0644);
MODULE_PARM_DESC(pmu_direct,
		 "Give VMs whose VMM does not choose (KVM_ARM_VCPU_PMU_V3_DIRECT) "
		 "the direct PMU where the host supports it");

static unsigned int pmu_direct_host_counters = 3;
module_param(pmu_direct_host_counters, uint, 0644);
MODULE_PARM_DESC(pmu_direct_host_counters,
		 "Event counters the host keeps while a direct-PMU vCPU is loaded (default 3)");

/*
 * Which PMUs are trusted to enforce HPMN at EL1 and EL0 (the trap profile,
 * Documentation/arch/arm64/pmu-direct.rst), taken at a VM's first direct
 * vCPU's INIT (kvm_pmu_direct_guard()): auto trusts the probe's answer,
 * on trusts no PMU.
 */
static int pmu_direct_guard = KVM_PMU_PART_GUARD_AUTO;

/* The parameter's words, in enum kvm_pmu_part_guard's order. */
static const char *const pmu_direct_guard_names[KVM_PMU_PART_GUARD_NR] = {
	[KVM_PMU_PART_GUARD_AUTO] = "auto",
	[KVM_PMU_PART_GUARD_ON] = "on",
};

VISIBLE_IF_KUNIT const char *kvm_pmu_direct_guard_name(enum kvm_pmu_part_guard guard)
{
	return (unsigned int)guard < KVM_PMU_PART_GUARD_NR ?
	       pmu_direct_guard_names[guard] : "?";
}
EXPORT_SYMBOL_IF_KUNIT(kvm_pmu_direct_guard_name);

/*
 * kvm.pmu_direct_guard's value from what was written to it (one trailing
 * newline allowed, as sysfs writes have one: sysfs_streq()).  Return: the
 * guard, or -EINVAL for anything but "auto" and "on".
 */
VISIBLE_IF_KUNIT int kvm_pmu_direct_guard_parse(const char *val)
{
	return __sysfs_match_string(pmu_direct_guard_names, KVM_PMU_PART_GUARD_NR, val);
}
EXPORT_SYMBOL_IF_KUNIT(kvm_pmu_direct_guard_parse);

static int pmu_direct_guard_set(const char *val, const struct kernel_param *kp)
{
	int guard = kvm_pmu_direct_guard_parse(val);

	if (guard < 0)
		return guard;
	WRITE_ONCE(*(int *)kp->arg, guard);
	return 0;
}

static int pmu_direct_guard_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", kvm_pmu_direct_guard_name(READ_ONCE(*(int *)kp->arg)));
}

static const struct kernel_param_ops pmu_direct_guard_ops = {
	.set = pmu_direct_guard_set,
	.get = pmu_direct_guard_get,
};
module_param_cb(pmu_direct_guard, &pmu_direct_guard_ops, &pmu_direct_guard, 0644);
MODULE_PARM_DESC(pmu_direct_guard,
		 "Trust the PMU to enforce MDCR_EL2.HPMN: auto (if the probe at KVM init "
		 "found it does), on (never: trap every counter-indexed access)");

/*
 * The HPMN probe's answer (kvm_pmu_direct_probe()): every CPU's PMU
 * refuses EL1 the counters at or above MDCR_EL2.HPMN.  The protected
 * hypervisor has its own copy, written before it is deprivileged.
 */
bool kvm_pmu_hpmn_enforced __ro_after_init;
module_param_named(pmu_direct_hpmn_enforced, kvm_pmu_hpmn_enforced, bool, 0444);
MODULE_PARM_DESC(pmu_direct_hpmn_enforced,
		 "Whether the probe at KVM init found that the PMU enforces MDCR_EL2.HPMN");

/*
 * Why this host cannot give @vcpu the direct PMU, or NULL if it can: the
 * CPU features and vCPU configurations the direct PMU requires.
 */
static const char *kvm_pmu_direct_unsupported(struct kvm_vcpu *vcpu)
{
	if (!cpus_have_final_cap(ARM64_HAS_FGT))
		return "needs FEAT_FGT";
	if (vcpu_has_nv(vcpu))
		return "not for a vCPU with EL2";
	if (vcpu_el1_is_32bit(vcpu))
		return "not for an AArch32 EL1";
	if (!vcpu->kvm->arch.arm_pmu)
		return "no PMU chosen for the VM";
	/* Every CPU the vCPU may run on must have its PMU's counters to give. */
	if (!cpumask_equal(&vcpu->kvm->arch.arm_pmu->supported_cpus, cpu_possible_mask))
		return "not every CPU has the VM's PMU (heterogeneous system)";
	/* HCCD keeps the guest's PMCCFILTR_EL0 from counting EL2 untrapped. */
	if (!kvm_has_feat(vcpu->kvm, ID_AA64DFR0_EL1, PMUVer, V3P5))
		return "needs PMUv3p5 (MDCR_EL2.HCCD)";
	return NULL;
}

int kvm_pmu_direct_set_attr(struct kvm_vcpu *vcpu, struct kvm_device_attr *attr)
{
	int __user *uaddr = (int __user *)(long)attr->addr;
	struct kvm_pmu_direct *d = &vcpu->arch.pmu.direct;
	const char *why;
	int val;

	if (get_user(val, uaddr))
		return -EFAULT;
	if (val != 0 && val != 1)
		return -EINVAL;
	why = kvm_pmu_direct_unsupported(vcpu);
	if (val && why) {
		pr_debug("KVM: vCPU %d: no direct PMU: %s\n", vcpu->vcpu_id, why);
		return -EOPNOTSUPP;
	}
	/* INIT decides: until then the vCPU's PMU is nobody's (enabled stays clear). */
	d->requested = true;
	d->want = val;
	return 0;
}

/*
 * Before INIT, what INIT would decide; after it, what it decided.  A
 * protected VM's only PMU is the direct one: the host cannot emulate
 * registers it must not see.
 */
static bool kvm_pmu_direct_wanted(struct kvm_vcpu *vcpu)
{
	struct kvm_pmu_direct *d = &vcpu->arch.pmu.direct;

	if (vcpu->arch.pmu.created)
		return d->enabled;
	if (d->requested)
		return d->want;
	if (kvm_vm_is_protected(vcpu->kvm))
		return true;
	return READ_ONCE(pmu_direct) && !kvm_pmu_direct_unsupported(vcpu);
}

int kvm_pmu_direct_get_attr(struct kvm_vcpu *vcpu, struct kvm_device_attr *attr)
{
	int __user *uaddr = (int __user *)(long)attr->addr;

	return put_user((int)kvm_pmu_direct_wanted(vcpu), uaddr);
}

/*
 * The guard for a vCPU of @kvm: the one its first direct vCPU got, so
 * that a VM has one trap profile whatever kvm.pmu_direct_guard was when
 * its other vCPUs were initialised; the parameter's for the first; auto
 * for a protected VM, whose profile the hypervisor picks
 * (__pmu_direct_pvm_traps()).
 */
static enum kvm_pmu_part_guard kvm_pmu_direct_guard(struct kvm *kvm)
{
	struct kvm_vcpu *vcpu;
	unsigned long i;

	if (kvm_vm_is_protected(kvm))
		return KVM_PMU_PART_GUARD_AUTO;
	kvm_for_each_vcpu(i, vcpu, kvm)
		if (vcpu->arch.pmu.created && kvm_vcpu_pmu_is_direct(vcpu))
			return vcpu->arch.pmu.direct.virt_e ? KVM_PMU_PART_GUARD_ON :
							      KVM_PMU_PART_GUARD_AUTO;
	return READ_ONCE(pmu_direct_guard);
}

/* The PMU's capabilities as @kvm's guard has them. */
static void kvm_pmu_direct_caps(struct kvm *kvm, struct kvm_pmu_part_caps *caps)
{
	kvm_pmu_part_caps_from(caps, read_sanitised_ftr_reg(SYS_ID_AA64DFR0_EL1),
			       read_sanitised_ftr_reg(SYS_ID_AA64DFR1_EL1),
			       read_sanitised_ftr_reg(SYS_ID_AA64MMFR0_EL1),
			       kvm_pmu_hpmn_enforced, kvm_arm_pmu_get_max_counters(kvm),
			       kvm_pmu_direct_guard(kvm));
}

/*
 * Whether a vCPU of @kvm has the direct PMU: the VM's PMU settings
 * (SET_PMU, SET_NR_COUNTERS, FILTER, PMCR_EL0.N) are fixed from then on,
 * so that every vCPU keeps the share and PMU its partition was made for.
 */
static bool kvm_pmu_vm_has(struct kvm *kvm, bool direct)
{
	struct kvm_vcpu *vcpu;
	unsigned long i;

	kvm_for_each_vcpu(i, vcpu, kvm)
		if (vcpu->arch.pmu.created && kvm_vcpu_pmu_is_direct(vcpu) == direct)
			return true;
	return false;
}

bool kvm_pmu_direct_vm(struct kvm *kvm)
{
	return kvm_pmu_vm_has(kvm, true);
}

/*
 * The guest's PMU interrupt of a direct vCPU is resampled at every exit:
 * EL2 leaves its level (irq_level) and kvm_pmu_sync_hwstate() gives it to
 * the vGIC before the list registers are folded.  So it needs no EOI
 * maintenance interrupt, and an overflow costs the guest one exit, not
 * two.  A guest that EOIs without clearing its overflow gets the
 * interrupt again from its next exit on, not at once.
 */
static unsigned long kvm_pmu_direct_irq_flags(void)
{
	return VGIC_IRQ_OWNER_RESAMPLES;
}

static const struct irq_ops kvm_pmu_direct_irq_ops = {
	.get_flags = kvm_pmu_direct_irq_flags,
};

/* The VMM chose the VM's number of counters (KVM_ARM_VCPU_PMU_V3_SET_NR_COUNTERS). */
void kvm_pmu_direct_nr_set(struct kvm_vcpu *vcpu)
{
	WRITE_ONCE(vcpu->arch.pmu.direct.nr_set, true);
}

static bool kvm_pmu_direct_nr_was_set(struct kvm *kvm)
{
	struct kvm_vcpu *vcpu;
	unsigned long i;

	kvm_for_each_vcpu(i, vcpu, kvm)
		if (READ_ONCE(vcpu->arch.pmu.direct.nr_set))
			return true;
	return false;
}

/*
 * @vcpu cannot have the direct PMU, for @why.  One that only kvm.pmu_direct
 * would make direct (@by_default) gets the trapped PMU instead, since the
 * host-wide default must not fail a VM that runs trapped.  Return: 0
 * then, @err otherwise.
 */
static int kvm_pmu_direct_refuse(struct kvm_vcpu *vcpu, bool by_default,
				 const char *why, int err)
{
	pr_debug("KVM: vCPU %d: no direct PMU: %s%s\n", vcpu->vcpu_id, why,
		 by_default ? " (kvm.pmu_direct: the trapped PMU instead)" : "");
	return by_default ? 0 : err;
}

/*
 * The VM's event filter, with which EL2 serves a direct vCPU's type
 * accesses: mapped into the nVHE hypervisor, shared with the protected
 * one (which pins it at the first run, __pmu_direct_pkvm_pin_filter());
 * VHE's EL2 is the kernel.  The filter is fixed once the VM has a direct
 * vCPU; the bitmap covers every event number of the host's PMUVer
 * (KVM_ARM_VCPU_PMU_V3_FILTER sizes it so), PMUv3p5 here.
 */
static int kvm_pmu_direct_share_filter(struct kvm *kvm)
{
	unsigned long *filter = kvm->arch.pmu_filter;

	return kvm_share_hyp(filter, filter + BITS_TO_LONGS(KVM_PMU_PART_FILTER_EVENTS));
}

/*
 * kvm_arch_destroy_vm(), after the protected hypervisor's teardown of the
 * VM (which unpins the filter) and before the filter is freed.
 */
void kvm_pmu_direct_vm_destroy(struct kvm *kvm)
{
	unsigned long *filter = kvm->arch.pmu_filter;

	if (filter && kvm_pmu_direct_vm(kvm))
		kvm_unshare_hyp(filter, filter + BITS_TO_LONGS(KVM_PMU_PART_FILTER_EVENTS));
}

/*
 * At KVM_ARM_VCPU_PMU_V3_INIT: whether the vCPU gets the direct PMU, and
 * its share.  The share is the VM's number of counters: the host keeps
 * kvm.pmu_direct_host_counters, and a KVM_ARM_VCPU_PMU_V3_SET_NR_COUNTERS
 * below that is taken as asked (one of N, the default, asks nothing).
 */
int kvm_pmu_direct_init(struct kvm_vcpu *vcpu)
{
	struct kvm_pmu_direct *d = &vcpu->arch.pmu.direct;
	struct kvm *kvm = vcpu->kvm;
	unsigned int max = kvm_arm_pmu_get_max_counters(kvm);
	unsigned int nr = kvm->arch.nr_pmu_counters;
	struct kvm_pmu_part_traps traps;
	struct kvm_pmu_part_caps caps;
	struct kvm_pmu_part_fgt fgt;
	unsigned int host_min;
	const char *why;
	int hpmn, req;

	bool want = kvm_pmu_direct_wanted(vcpu);
	/*
	 * (Once wanted) by kvm.pmu_direct alone, with no vCPU of the VM
	 * direct yet: what cannot be had falls back to the trapped PMU.
	 */
	bool by_default = !d->requested && !kvm_vm_is_protected(kvm) &&
			  !kvm_pmu_direct_vm(kvm);

	/* Trapped unless everything below holds: set at the end. */
	d->enabled = false;
	if (!want) {
		if (kvm_vm_is_protected(kvm)) {
			pr_debug("KVM: vCPU %d: a protected VM's PMU can only be the direct one\n",
				 vcpu->vcpu_id);
			return -EOPNOTSUPP;
		}
		if (kvm_pmu_direct_vm(kvm)) {
			pr_debug("KVM: vCPU %d: the VM's other vCPUs have the direct PMU\n",
				 vcpu->vcpu_id);
			return -EBUSY;
		}
		return 0;
	}
	if (kvm_pmu_vm_has(kvm, false))
		return kvm_pmu_direct_refuse(vcpu, by_default,
					     "the VM's other vCPUs have the trapped PMU", -EBUSY);
	why = kvm_pmu_direct_unsupported(vcpu);
	if (!why && !irqchip_in_kernel(kvm))
		why = "needs an in-kernel vGIC";
	/* Its PPI's owner-resampled list-register path is GICv2/v3's. */
	if (!why && vgic_is_v5(kvm))
		why = "needs a GICv2 or GICv3 vGIC, not GICv5";
	/* A protected VM's types are the hypervisor's, which takes no host policy. */
	if (!why && kvm->arch.pmu_filter && kvm_vm_is_protected(kvm))
		why = "no event filter for a protected VM";
	if (why)
		return kvm_pmu_direct_refuse(vcpu, by_default, why, -EOPNOTSUPP);

	kvm_pmu_direct_caps(kvm, &caps);
	/*
	 * The VM's first direct vCPU sizes the share from the request and
	 * kvm.pmu_direct_host_counters; the others take that share
	 * (nr_pmu_counters), whatever the parameter is by then.
	 */
	if (kvm_pmu_direct_vm(kvm)) {
		req = nr;
		host_min = 0;
	} else {
		req = nr < max ? nr : KVM_PMU_PART_NO_REQUEST;
		host_min = READ_ONCE(pmu_direct_host_counters);
	}
	hpmn = kvm_pmu_part_size(&caps, req, host_min);
	if (hpmn < 0) {
		pr_debug("KVM: vCPU %d: a share of %u of %u counters with %u for the host: %d\n",
			 vcpu->vcpu_id, nr, max, host_min, hpmn);
		return kvm_pmu_direct_refuse(vcpu, by_default, "no share", hpmn);
	}
	/* The number the VMM set is the VM's: the default never cuts it. */
	if (by_default && (unsigned int)hpmn < nr && kvm_pmu_direct_nr_was_set(kvm))
		return kvm_pmu_direct_refuse(vcpu, true, "a share below the number the VMM set",
					     -ENOSPC);
	/* Every event filter and overflow goes through EL2 (held is always assumed). */
	traps = kvm_pmu_part_traps(&caps, kvm->arch.pmu_filter, true);
	if (kvm_pmu_part_need_tpm(&caps, &traps))
		return kvm_pmu_direct_refuse(vcpu, by_default, "its traps need MDCR_EL2.TPM",
					     -EOPNOTSUPP);
	kvm_pmu_part_fgt(&traps, &fgt);
	/* The VM's first direct vCPU gives EL2 its filter; the others share it. */
	if (kvm->arch.pmu_filter && !kvm_pmu_direct_vm(kvm) &&
	    kvm_pmu_direct_share_filter(kvm))
		return kvm_pmu_direct_refuse(vcpu, by_default,
					     "its event filter cannot be shared with EL2", -ENOMEM);

	kvm->arch.nr_pmu_counters = hpmn;
	d->hpmn = hpmn;
	d->mask = kvm_pmu_part_guest_mask(hpmn);
	d->vacate = kvm_pmu_part_vacate_mask(&caps, hpmn);
	d->pmuv3p5 = kvm_has_feat(kvm, ID_AA64DFR0_EL1, PMUVer, V3P5);
	d->mdcr = kvm_pmu_part_mdcr(&caps, hpmn, false);
	/* Guarded: PMCR_EL0 traps both ways (TPMCR), its E virtual. */
	d->virt_e = !caps.hpmn_enforced;
	d->hdfgrtr = fgt.hdfgrtr;
	d->hdfgwtr = fgt.hdfgwtr;
	d->hdfgrtr2 = fgt.hdfgrtr2;
	d->hdfgwtr2 = fgt.hdfgwtr2;
	d->filtered = kvm->arch.pmu_filter;
	d->filter = kvm->arch.pmu_filter;
	kvm_vgic_set_irq_ops(vcpu, vcpu->arch.pmu.irq_num, &kvm_pmu_direct_irq_ops);
	d->irq_given = KVM_PMU_DIRECT_IRQ_UNKNOWN;
	d->enabled = true;
	return 0;
}

/*
 * kvm_arm_setup_mdcr_el2(): give the guest's MDCR_EL2 (*@mdcr) the
 * partition's PMU fields.  Return: the MDCR_EL2 VHE keeps in the hardware
 * while the host runs (HPMN = N, as without a direct PMU).
 */
u64 kvm_pmu_direct_mdcr(struct kvm_vcpu *vcpu, u64 *mdcr)
{
	struct kvm_pmu_direct *d = &vcpu->arch.pmu.direct;

	if (!kvm_vcpu_pmu_is_direct(vcpu))
		return *mdcr;
	d->mdcr_host = *mdcr;
	*mdcr = (*mdcr & ~KVM_PMU_PART_MDCR_MASK) | d->mdcr;
	return d->mdcr_host;
}

/* The vCPU register that holds counter @idx's value, or its type. */
static unsigned int kvm_pmu_direct_vreg(unsigned int idx, bool typer)
{
	if (idx == ARMV8_PMU_CYCLE_IDX)
		return typer ? PMCCFILTR_EL0 : PMCCNTR_EL0;
	return (typer ? PMEVTYPER0_EL0 : PMEVCNTR0_EL0) + idx;
}

/* Counter @idx's value, or its type, in the hardware. */
static u64 kvm_pmu_direct_hw_read(unsigned int idx, bool typer)
{
	if (idx == ARMV8_PMU_CYCLE_IDX)
		return typer ? read_pmccfiltr() : read_pmccntr();
	return typer ? read_pmevtypern(idx) : read_pmevcntrn(idx);
}

static void kvm_pmu_direct_hw_write(unsigned int idx, bool typer, u64 val)
{
	if (idx == ARMV8_PMU_CYCLE_IDX && typer)
		write_pmccfiltr(val);
	else if (idx == ARMV8_PMU_CYCLE_IDX)
		write_pmccntr(val);
	else if (typer)
		write_pmevtypern(idx, val);
	else
		write_pmevcntrn(idx, val);
}

/*
 * Counter @idx's guest type @typer as the hardware gets it: the fields a
 * guest may program, and under an event filter a type that counts
 * nothing for an event the filter denies.
 */
static u64 kvm_pmu_direct_hw_typer(struct kvm_vcpu *vcpu, u64 typer, unsigned int idx)
{
	typer = kvm_pmu_part_typer_write(typer, idx);
	if (!vcpu->arch.pmu.direct.filtered)
		return typer;
	return kvm_pmu_part_typer_filtered(typer, idx, vcpu->kvm->arch.pmu_filter);
}

/* The guest's counters and types, as the hardware may take them. */
static void kvm_pmu_direct_write_counters(struct kvm_vcpu *vcpu)
{
	unsigned long mask = kvm_pmu_part_guest_mask(vcpu->arch.pmu.direct.hpmn);
	unsigned int i;

	for_each_set_bit(i, &mask, ARMV8_PMU_CYCLE_IDX + 1) {
		u64 typer = __vcpu_sys_reg(vcpu, kvm_pmu_direct_vreg(i, true));

		kvm_pmu_direct_hw_write(i, true, kvm_pmu_direct_hw_typer(vcpu, typer, i));
		kvm_pmu_direct_hw_write(i, false,
					__vcpu_sys_reg(vcpu, kvm_pmu_direct_vreg(i, false)));
	}
}

static void kvm_pmu_direct_read_counters(struct kvm_vcpu *vcpu)
{
	unsigned long mask = kvm_pmu_part_guest_mask(vcpu->arch.pmu.direct.hpmn);
	unsigned int i;

	for_each_set_bit(i, &mask, ARMV8_PMU_CYCLE_IDX + 1) {
		/* Filtered, the vCPU has the guest's types, the hardware its own. */
		if (!vcpu->arch.pmu.direct.filtered)
			__vcpu_assign_sys_reg(vcpu, kvm_pmu_direct_vreg(i, true),
					      kvm_pmu_direct_hw_read(i, true));
		__vcpu_assign_sys_reg(vcpu, kvm_pmu_direct_vreg(i, false),
				      kvm_pmu_direct_hw_read(i, false));
	}
}

/* kvm_vcpu_load_fgt(), before VHE writes the traps at vcpu_load: the partition's. */
void kvm_pmu_direct_load_fgt(struct kvm_vcpu *vcpu)
{
	struct kvm_pmu_direct *d = &vcpu->arch.pmu.direct;

	if (!kvm_vcpu_pmu_is_direct(vcpu))
		return;
	*vcpu_fgt(vcpu, HDFGRTR_EL2) |= d->hdfgrtr;
	*vcpu_fgt(vcpu, HDFGWTR_EL2) |= d->hdfgwtr;
	/* FGT2's bits trap when clear: only add the partition's traps. */
	*vcpu_fgt(vcpu, HDFGRTR2_EL2) &= ~KVM_PMU_PART_HDFGRTR2_MASK | d->hdfgrtr2;
	*vcpu_fgt(vcpu, HDFGWTR2_EL2) &= ~KVM_PMU_PART_HDFGWTR2_MASK | d->hdfgwtr2;
}

/*
 * The guest's PMU interrupt level from the vCPU's registers, where they,
 * not the hardware, have its latest state: at vcpu_load (user space may
 * have set them) and after a perf-register write.
 */
static bool kvm_pmu_direct_vcpu_irq_level(struct kvm_vcpu *vcpu)
{
	return kvm_pmu_part_irq_level(kvm_vcpu_read_pmcr(vcpu),
				      __vcpu_sys_reg(vcpu, PMOVSSET_EL0),
				      __vcpu_sys_reg(vcpu, PMINTENSET_EL1),
				      vcpu->arch.pmu.direct.mask);
}

/* The hostile-host test's view of a protected VM's counters (below). */
static void kvm_pmu_direct_pvm_observe_start(struct kvm_vcpu *vcpu);

/*
 * vcpu_load: move host events off the guest's counters, then load them.
 * Between exits the guest's counters stay in the hardware, disabled (EL2
 * clears their enables at every exit).
 */
void kvm_pmu_direct_load(struct kvm_vcpu *vcpu)
{
	struct kvm_pmu_direct *d = &vcpu->arch.pmu.direct;
	unsigned long flags;

	if (!kvm_vcpu_pmu_is_direct(vcpu) || d->loaded)
		return;

	/*
	 * The interrupt's level from the registers, which user space may
	 * have set since the last exit, but for a protected VM's, which are
	 * the hypervisor's (the level is its, from the last exit).
	 */
	if (!kvm_vm_is_protected(vcpu->kvm))
		d->irq_level = kvm_pmu_direct_vcpu_irq_level(vcpu);
	d->irq_given = KVM_PMU_DIRECT_IRQ_UNKNOWN;
	local_irq_save(flags);
	armv8pmu_guest_own(vcpu->kvm->arch.arm_pmu, d->vacate);
	write_sysreg(d->vacate, pmcntenclr_el0);
	write_sysreg(d->vacate, pmintenclr_el1);
	write_sysreg(d->vacate, pmovsclr_el0);
	/* A protected VM's are the hypervisor's, switched at EL2. */
	if (!kvm_vm_is_protected(vcpu->kvm))
		kvm_pmu_direct_write_counters(vcpu);
	else
		kvm_pmu_direct_pvm_observe_start(vcpu);
	d->loaded = true;
	local_irq_restore(flags);
	/*
	 * The vGIC gets it now: no entry looks (kvm_pmu_flush_hwstate()),
	 * and user space may have set the vGIC's line too.  Not before the
	 * vGIC is initialised, when kvm_vgic_inject_irq() would drop it
	 * while irq_given took it as given: the first exit gives it then.
	 */
	if (vgic_initialized(vcpu->kvm))
		kvm_pmu_sync_hwstate(vcpu);
}

#ifdef CONFIG_KVM_ARM_PMU_HOSTILE_HOST_TEST
#include <linux/debugfs.h>
#include <linux/prandom.h>

/*
 * /sys/kernel/debug/kvm_pmu_direct_pvm_leftover: how many of a protected
 * VM's counters the host has found holding a value or a type at vcpu_put,
 * after the hypervisor's zeroing at the last exit, and how many times
 * PMSELR_EL0 still held a selection.  0 is right.
 */
static u64 kvm_pmu_direct_pvm_leftover;

static int __init kvm_pmu_direct_hostile_init(void)
{
	debugfs_create_u64("kvm_pmu_direct_pvm_leftover", 0400, NULL,
			   &kvm_pmu_direct_pvm_leftover);
	return 0;
}
late_initcall(kvm_pmu_direct_hostile_init);

/* The counters a protected VM had: its share as the VM was made, not d->hpmn. */
static unsigned long kvm_pmu_direct_pvm_mask(struct kvm_vcpu *vcpu)
{
	return kvm_pmu_part_guest_mask(vcpu->kvm->arch.nr_pmu_counters);
}

/* At vcpu_load: so that a SEL found at vcpu_put is this VM's. */
static void kvm_pmu_direct_pvm_observe_start(struct kvm_vcpu *vcpu)
{
	write_sysreg(0, pmselr_el0);
}

static void kvm_pmu_direct_pvm_observe(struct kvm_vcpu *vcpu)
{
	unsigned long mask = kvm_pmu_direct_pvm_mask(vcpu);
	unsigned int i;

	for_each_set_bit(i, &mask, ARMV8_PMU_CYCLE_IDX + 1)
		if (kvm_pmu_direct_hw_read(i, true) || kvm_pmu_direct_hw_read(i, false))
			kvm_pmu_direct_pvm_leftover++;
	/* The host's driver never selects: a SEL here is the VM's. */
	if (read_sysreg(pmselr_el0))
		kvm_pmu_direct_pvm_leftover++;
}

/*
 * The hostile host test hook (kvm_pmu_hostile_host, arch/arm64/kvm/pmu.c)
 * for a direct vCPU: a non-protected VM's event filter address (below);
 * for a protected VM's, before every run but its first (at
 * the first a host may choose anything, no PMU included): change the
 * choice the hypervisor took at the first run (share and its mask,
 * trap profile, fine-grained traps), set or clear at random the PMU
 * traps of the VM's MDCR_EL2 (TPM, TPMCR), and leave interrupt enables,
 * overflow flags, values and types on the VM's counters.  None of it may
 * reach the VM, nor show the host its values.  No counter enables: the
 * hypervisor's confidential plan would turn such counters back on at
 * exit, as the host's own.
 *
 * Return: whether the filter address is the vCPU's whole test (its
 * switch state stays the real one).
 */
bool kvm_pmu_direct_hostile(struct kvm_vcpu *vcpu, u64 seed)
{
	struct kvm_pmu_direct *d = &vcpu->arch.pmu.direct;
	unsigned long mask = kvm_pmu_direct_pvm_mask(vcpu);
	struct rnd_state rnd;
	unsigned int i;

	if (!kvm_vcpu_pmu_is_direct(vcpu))
		return false;
	/*
	 * A non-protected VM's event filter, as the protected hypervisor
	 * reads it: at an address the host never shared (the zero page's),
	 * which it must refuse to pin; the host then serves the types.  The
	 * host itself filters with the VM's own (kvm->arch.pmu_filter).
	 */
	if (!kvm_vm_is_protected(vcpu->kvm) && d->filtered && is_protected_kvm_enabled()) {
		d->filter = page_address(ZERO_PAGE(0));
		return true;
	}
	if (!kvm_vm_is_protected(vcpu->kvm) || !vcpu->stat.exits)
		return false;
	prandom_seed_state(&rnd, seed);
	d->hpmn = prandom_u32_state(&rnd);
	prandom_bytes_state(&rnd, &d->mask, sizeof(d->mask));
	d->virt_e = prandom_u32_state(&rnd) & 1;
	prandom_bytes_state(&rnd, &d->hdfgrtr, sizeof(d->hdfgrtr));
	prandom_bytes_state(&rnd, &d->hdfgwtr, sizeof(d->hdfgwtr));
	vcpu->arch.mdcr_el2 &= ~(MDCR_EL2_TPM | MDCR_EL2_TPMCR);
	if (prandom_u32_state(&rnd) & 1)
		vcpu->arch.mdcr_el2 |= MDCR_EL2_TPM;
	if (prandom_u32_state(&rnd) & 1)
		vcpu->arch.mdcr_el2 |= MDCR_EL2_TPMCR;
	for_each_set_bit(i, &mask, ARMV8_PMU_CYCLE_IDX + 1) {
		u64 val;

		kvm_pmu_direct_hw_write(i, true, prandom_u32_state(&rnd));
		prandom_bytes_state(&rnd, &val, sizeof(val));
		kvm_pmu_direct_hw_write(i, false, val);
	}
	write_sysreg(mask, pmintenset_el1);
	write_sysreg(mask, pmovsset_el0);
	return false;
}
#else
static void kvm_pmu_direct_pvm_observe_start(struct kvm_vcpu *vcpu) {}
static void kvm_pmu_direct_pvm_observe(struct kvm_vcpu *vcpu) {}
#endif

/* vcpu_put: save the guest's counters, then give them back to the host. */
void kvm_pmu_direct_put(struct kvm_vcpu *vcpu)
{
	struct kvm_pmu_direct *d = &vcpu->arch.pmu.direct;
	unsigned long flags;

	if (!kvm_vcpu_pmu_is_direct(vcpu) || !d->loaded)
		return;
	local_irq_save(flags);
	if (!kvm_vm_is_protected(vcpu->kvm))
		kvm_pmu_direct_read_counters(vcpu);
	else
		kvm_pmu_direct_pvm_observe(vcpu);
	armv8pmu_guest_own(vcpu->kvm->arch.arm_pmu, 0);
	d->loaded = false;
	d->irq_given = KVM_PMU_DIRECT_IRQ_UNKNOWN;
	local_irq_restore(flags);
}

/* PMCR_EL0.IMP and IDCODE, read-only */
#define KVM_PMU_DIRECT_PMCR_ID	GENMASK_ULL(31, 16)

/*
 * A counter's value or type while the vCPU is loaded (hardware) or not
 * (vCPU); under an event filter its type is always the vCPU's.
 */
static u64 kvm_pmu_direct_evreg_read(struct kvm_vcpu *vcpu, unsigned int idx, bool typer)
{
	struct kvm_pmu_direct *d = &vcpu->arch.pmu.direct;

	if (d->loaded && !(typer && d->filtered))
		return kvm_pmu_direct_hw_read(idx, typer);
	return __vcpu_sys_reg(vcpu, kvm_pmu_direct_vreg(idx, typer));
}

static void kvm_pmu_direct_evreg_write(struct kvm_vcpu *vcpu, unsigned int idx, bool typer,
				       u64 val)
{
	struct kvm_pmu_direct *d = &vcpu->arch.pmu.direct;

	if (typer && d->filtered) {
		/* The vCPU keeps the guest's type, the hardware the filtered one. */
		val = kvm_pmu_part_typer_write(val, idx);
		__vcpu_assign_sys_reg(vcpu, kvm_pmu_direct_vreg(idx, true), val);
		if (d->loaded)
			kvm_pmu_direct_hw_write(idx, true,
						kvm_pmu_part_typer_filtered(val, idx,
									    vcpu->kvm->arch.pmu_filter));
		return;
	}
	if (typer)
		val = kvm_pmu_part_typer_write(val, idx);
	if (d->loaded)
		kvm_pmu_direct_hw_write(idx, typer, val);
	else
		__vcpu_assign_sys_reg(vcpu, kvm_pmu_direct_vreg(idx, typer), val);
}

/* For kvm_pmu_part_swinc(): the vCPU's counters, or the hardware's. */
static u64 kvm_pmu_direct_swinc_read(void *vcpu, unsigned int idx, bool typer)
{
	return kvm_pmu_direct_evreg_read(vcpu, idx, typer);
}

static void kvm_pmu_direct_swinc_write(void *vcpu, unsigned int idx, u64 val)
{
	kvm_pmu_direct_evreg_write(vcpu, idx, false, val);
}

/*
 * PMSWINC_EL0 written from the guest's EL1 while its counters are
 * stopped (the host runs): each enabled event counter of @val counting
 * SW_INCR at EL1 goes up by one, and sets its overflow flag where it
 * wraps (at 32 bits, or at 64 with PMCR_EL0.LP), as the hardware would
 * have done had the guest written the register itself.
 */
static void kvm_pmu_direct_swinc(struct kvm_vcpu *vcpu, u64 val)
{
	u64 pmcr = kvm_vcpu_read_pmcr(vcpu);
	unsigned int hpmn = vcpu->arch.pmu.direct.hpmn;
	u64 incr, ovf;

	if (!(pmcr & ARMV8_PMU_PMCR_E))
		return;
	incr = val & __vcpu_sys_reg(vcpu, PMCNTENSET_EL0);
	ovf = kvm_pmu_part_swinc(incr, hpmn, false, pmcr & ARMV8_PMU_PMCR_LP,
				 kvm_pmu_direct_swinc_read,
				 kvm_pmu_direct_swinc_write, vcpu);
	if (ovf)
		__vcpu_rmw_sys_reg(vcpu, PMOVSSET_EL0, |=, ovf);
}

/* The bit registers and PMCR_EL0, in the vCPU (EL2 applies them at entry). */
static int kvm_pmu_direct_ctl(struct kvm_vcpu *vcpu, u32 encoding, bool write, u64 *val)
{
	struct kvm_pmu_direct *d = &vcpu->arch.pmu.direct;
	u64 mask = kvm_pmu_part_guest_mask(d->hpmn), v = *val & mask;
	const struct kvm_pmu_part_caps caps = { .pmuv3p5 = d->pmuv3p5 };
	enum vcpu_sysreg reg;
	bool set, reset;
	unsigned int i;

	set = encoding == SYS_PMCNTENSET_EL0 || encoding == SYS_PMINTENSET_EL1 ||
	      encoding == SYS_PMOVSSET_EL0;
	switch (encoding) {
	case SYS_PMCNTENSET_EL0:
	case SYS_PMCNTENCLR_EL0:
		reg = PMCNTENSET_EL0;
		break;
	case SYS_PMINTENSET_EL1:
	case SYS_PMINTENCLR_EL1:
		reg = PMINTENSET_EL1;
		break;
	case SYS_PMOVSSET_EL0:
	case SYS_PMOVSCLR_EL0:
		reg = PMOVSSET_EL0;
		break;
	case SYS_PMUSERENR_EL0:
		if (!write)
			*val = __vcpu_sys_reg(vcpu, PMUSERENR_EL0) & ARMV8_PMU_USERENR_MASK;
		else
			__vcpu_assign_sys_reg(vcpu, PMUSERENR_EL0, *val & ARMV8_PMU_USERENR_MASK);
		return 0;
	case SYS_PMSWINC_EL0:
		if (!write)
			return -EINVAL;
		kvm_pmu_direct_swinc(vcpu, *val);
		return 0;
	case SYS_PMCR_EL0:
		if (!write) {
			/* IMP and IDCODE as the guest's MRS reads them: the hardware's. */
			*val = (read_sysreg(pmcr_el0) & KVM_PMU_DIRECT_PMCR_ID) |
			       (kvm_vcpu_read_pmcr(vcpu) & ~KVM_PMU_DIRECT_PMCR_ID);
			return 0;
		}
		v = kvm_pmu_part_pmcr_write(&caps, *val, &reset);
		/* P resets the guest's event counters, C its cycle counter. */
		for (i = 0; reset && i < d->hpmn; i++)
			kvm_pmu_direct_evreg_write(vcpu, i, false, 0);
		if (v & ARMV8_PMU_PMCR_C)
			kvm_pmu_direct_evreg_write(vcpu, ARMV8_PMU_CYCLE_IDX, false, 0);
		__vcpu_assign_sys_reg(vcpu, PMCR_EL0,
				      (__vcpu_sys_reg(vcpu, PMCR_EL0) & ARMV8_PMU_PMCR_N) |
				      (v & ~ARMV8_PMU_PMCR_C));
		return 0;
	default:
		return -EINVAL;
	}
	if (!write)
		*val = __vcpu_sys_reg(vcpu, reg) & mask;
	else if (set)
		__vcpu_rmw_sys_reg(vcpu, reg, |=, v);
	else
		__vcpu_rmw_sys_reg(vcpu, reg, &=, ~v);
	return 0;
}

/*
 * The perf-register service's access to a register of a direct vCPU, on
 * its thread in its hypercall, and a trapped PMINTEN access that EL2
 * left to the host (access_pminten(): a write that raises the overflow
 * interrupt): what the guest's own MRS (@write false) or MSR of
 * @encoding would read or do, with the same values.  The
 * counters and types are in the hardware while the vCPU is loaded
 * (preemption is off here, so it stays loaded), in the vCPU otherwise;
 * the control registers are in the vCPU, where EL2 saved them at the
 * exit and takes them from at the next entry, which also takes the
 * interrupt's level from here.  The caller has checked the index
 * against the share.
 *
 * Return: 0, or -EINVAL for a register not served this way (PMCEID,
 * which the trap's emulation serves as it does for the guest's MRS).
 */
int kvm_pmu_direct_reg(struct kvm_vcpu *vcpu, u32 encoding, bool write, u64 *val)
{
	struct kvm_pmu_direct *d = &vcpu->arch.pmu.direct;
	bool cntr = sys_reg_Op0(encoding) == 3 && sys_reg_Op1(encoding) == 3 &&
		    sys_reg_CRn(encoding) == 14 && sys_reg_CRm(encoding) >= 8;
	unsigned int idx = ((sys_reg_CRm(encoding) & 3) << 3) | sys_reg_Op2(encoding);
	bool typer = cntr && sys_reg_CRm(encoding) >= 12;
	int ret = 0;

	if (encoding == SYS_PMCCNTR_EL0) {
		cntr = true;
		typer = false;
		idx = ARMV8_PMU_CYCLE_IDX;
	}
	preempt_disable();
	if (!cntr)
		ret = kvm_pmu_direct_ctl(vcpu, encoding, write, val);
	else if (idx != ARMV8_PMU_CYCLE_IDX && idx >= d->hpmn)
		ret = -EINVAL;
	else if (write)
		kvm_pmu_direct_evreg_write(vcpu, idx, typer, *val);
	else
		*val = kvm_pmu_direct_evreg_read(vcpu, idx, typer);
	if (!ret && write)
		d->irq_level = kvm_pmu_direct_vcpu_irq_level(vcpu);
	preempt_enable();
	/* No flush before the next entry gives it (kvm_pmu_flush_hwstate()). */
	if (!ret && write)
		kvm_pmu_sync_hwstate(vcpu);
	return ret;
}

/*
 * The HPMN probe, at KVM init (kvm_arm_init(), before KVM's hypervisor is
 * installed), on every online CPU: see kvm_pmu_part_probe_counter() for
 * what it tests, pmu_hpmn_probe.S for how EL1 gets there.  Counter
 * @counter's enable bit is left as it was; a host event on it loses the
 * few instructions the probe runs with it outside EL1's range.  The
 * protected hypervisor gets its own copy of the answer.
 */
extern bool kvm_nvhe_sym(kvm_pmu_hpmn_enforced);

#define PMU_HPMN_PROBE_MDCR	(MDCR_EL2_HPMN | MDCR_EL2_TPM | MDCR_EL2_TPMCR)

static u64 __init kvm_pmu_hpmn_probe_read(int counter)
{
	u64 mdcr, read;

	if (is_kernel_in_hyp_mode()) {
		mdcr = (read_sysreg(mdcr_el2) & ~PMU_HPMN_PROBE_MDCR) |
		       FIELD_PREP(MDCR_EL2_HPMN, counter);
		return __pmu_hpmn_vhe_probe(mdcr, BIT_ULL(counter),
					    __pa_symbol(__pmu_hpmn_el1));
	}
	mdcr = __pmu_hpmn_nvhe_mdcr(FIELD_PREP(MDCR_EL2_HPMN, counter), PMU_HPMN_PROBE_MDCR,
				    __pa_symbol(__pmu_hpmn_el2_mdcr));
	write_sysreg(BIT_ULL(counter), pmcntenset_el0);
	isb();
	read = read_sysreg(pmcntenset_el0);
	__pmu_hpmn_nvhe_mdcr(mdcr & PMU_HPMN_PROBE_MDCR, PMU_HPMN_PROBE_MDCR,
			     __pa_symbol(__pmu_hpmn_el2_mdcr));
	return read;
}

/*
 * This CPU's answer: no counter to probe (kvm_pmu_part_probe_counter()),
 * or no PMUv3p5, which the direct PMU needs, counts as "not enforced".
 */
static void __init kvm_pmu_hpmn_probe_cpu(void *refused)
{
	u64 dfr0 = read_sysreg(id_aa64dfr0_el1);
	unsigned long flags;
	int counter = -1;
	u64 was, read = 0;

	if (kvm_pmu_part_pmuver(dfr0) >= ID_AA64DFR0_EL1_PMUVer_V3P5)
		counter = kvm_pmu_part_probe_counter(FIELD_GET(ARMV8_PMU_PMCR_N,
							       read_sysreg(pmcr_el0)),
						     FIELD_GET(ID_AA64DFR0_EL1_HPMN0, dfr0));
	if (counter >= 0) {
		flags = local_daif_save();
		was = read_sysreg(pmcntenset_el0);
		read = kvm_pmu_hpmn_probe_read(counter);
		if (!(was & BIT_ULL(counter)))
			write_sysreg(BIT_ULL(counter), pmcntenclr_el0);
		isb();
		local_daif_restore(flags);
	}
	if (!kvm_pmu_part_probe_enforced(counter, read))
		atomic_inc(refused);
}

void __init kvm_pmu_direct_probe(void)
{
	atomic_t refused = ATOMIC_INIT(0);

	on_each_cpu(kvm_pmu_hpmn_probe_cpu, &refused, true);
	kvm_pmu_hpmn_enforced = !atomic_read(&refused);
	kvm_nvhe_sym(kvm_pmu_hpmn_enforced) = kvm_pmu_hpmn_enforced;
	kvm_info("HPMN probe: the PMU %s MDCR_EL2.HPMN (direct PMU: the %s profile)\n",
		 kvm_pmu_hpmn_enforced ? "enforces" : "does not enforce",
		 kvm_pmu_hpmn_enforced ? "unguarded" : "guarded");
}

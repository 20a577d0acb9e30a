// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host PMU counters across guest entry and exit.
 *
 * The perf driver registers each enabled counter with its host-context
 * and guest-context type (kvm_pmu_counter_add()).  This file keeps, per
 * CPU, the counters that need switching and the values to switch to:
 *
 *  - VHE: the filters are rewritten when a vCPU is loaded and put, from
 *    the recorded values (never read back from the PMU).  A counter
 *    added while a vCPU is loaded, even from interrupt context, starts
 *    with its guest-context type.
 *  - nVHE and protected: the state is copied into the vCPU before each
 *    entry and applied at EL2 (hyp/include/hyp/pmu_switch.h).
 */
#include <linux/kvm_host.h>
#include <linux/perf/arm_pmu.h>
#include <linux/perf/arm_pmuv3.h>
#include <linux/perf/arm_pmuv3_filter.h>

#include <asm/arm_pmuv3.h>
#include <kvm/arm_pmu_switch.h>

struct kvm_pmu_cpu {
	struct kvm_pmu_events events;
	bool guest_loaded;	/* VHE: a vCPU is loaded on this CPU */
};

static DEFINE_PER_CPU(struct kvm_pmu_cpu, kvm_pmu_cpu);

static enum armv8pmu_host_mode kvm_pmu_host_mode(void)
{
	if (has_vhe())
		return ARMV8PMU_MODE_VHE;
	if (is_protected_kvm_enabled())
		return ARMV8PMU_MODE_PKVM;
	return ARMV8PMU_MODE_NVHE;
}

/* PMCCFILTR_EL0 takes only the filter; the others the whole type. */
static void kvm_pmu_write_typer(int idx, u64 val)
{
	if (idx == ARMV8_PMU_CYCLE_IDX)
		write_pmccfiltr(val);
	else
		write_pmevtypern(idx, val);
}

static void kvm_pmu_write_typers(u64 mask, const u64 *typer)
{
	int idx;

	for_each_set_bit(idx, (unsigned long *)&mask, KVM_PMU_SWITCH_COUNTERS)
		kvm_pmu_write_typer(idx, typer[idx]);
}

/*
 * Record a counter the driver is about to enable on this CPU (IRQs off).
 * @typer is set to the type to program now.
 *
 * Return: whether to enable the counter now.
 */
bool kvm_pmu_counter_add(int idx, u64 typer_host, u64 typer_guest, u64 *typer)
{
	struct kvm_pmu_cpu *cpu = this_cpu_ptr(&kvm_pmu_cpu);
	struct kvm_pmu_events *ev = &cpu->events;
	struct armv8pmu_filter filter = {
		.host = typer_host & ARMV8PMU_FILTER_MASK,
		.guest = typer_guest & ARMV8PMU_FILTER_MASK,
	};
	u64 bit = BIT_ULL(idx);

	*typer = typer_host;
	if (!kvm_arm_support_pmu_v3() || idx >= KVM_PMU_SWITCH_COUNTERS)
		return true;

	switch (armv8pmu_switch_kind(kvm_pmu_host_mode(), &filter)) {
	case ARMV8PMU_SWITCH_NONE:
		return true;
	case ARMV8PMU_SWITCH_TYPER:
		ev->typer_host[idx] = typer_host;
		ev->typer_guest[idx] = typer_guest;
		ev->typer_switch |= bit;
		ev->switching |= bit;
		if (cpu->guest_loaded)
			*typer = typer_guest;
		return true;
	case ARMV8PMU_SWITCH_CNTEN_HOST:
		ev->events_host |= bit;
		ev->switching |= bit;
		return !cpu->guest_loaded;
	case ARMV8PMU_SWITCH_CNTEN_GUEST:
		ev->events_guest |= bit;
		ev->switching |= bit;
		*typer = typer_guest;
		return cpu->guest_loaded;
	}
	return true;
}

/* Forget a counter the driver has just disabled on this CPU (IRQs off). */
void kvm_pmu_counter_del(int idx)
{
	struct kvm_pmu_events *ev = this_cpu_ptr(&kvm_pmu_cpu.events);
	u64 bit = BIT_ULL(idx);

	ev->events_host &= ~bit;
	ev->events_guest &= ~bit;
	ev->typer_switch &= ~bit;
	ev->switching &= ~bit;
}

/*
 * nVHE/protected: give the vCPU this CPU's switch state before entry.
 * Called with IRQs disabled, so no counter can come or go meanwhile.
 */
void __kvm_pmu_update_vcpu_events(struct kvm_vcpu *vcpu)
{
	if (kvm_arm_support_pmu_v3())
		kvm_pmu_events_copy(&vcpu->arch.pmu.events,
				    this_cpu_ptr(&kvm_pmu_cpu.events));
}

/*
 * VHE: switch this CPU's counters to guest (or host) context.  Called
 * at vcpu_load/put and after guest PMU changes; IRQs are masked so that
 * the driver cannot add or remove a counter halfway through.
 */
static void kvm_pmu_vhe_switch(bool to_guest)
{
	struct kvm_pmu_cpu *cpu;
	unsigned long flags;
	u64 mask;

	local_irq_save(flags);
	cpu = this_cpu_ptr(&kvm_pmu_cpu);
	cpu->guest_loaded = to_guest;
	mask = cpu->events.typer_switch;
	if (mask)
		kvm_pmu_write_typers(mask, to_guest ? cpu->events.typer_guest :
						      cpu->events.typer_host);
	local_irq_restore(flags);
}

void kvm_vcpu_pmu_restore_guest(struct kvm_vcpu *vcpu)
{
	if (has_vhe() && kvm_arm_support_pmu_v3())
		kvm_pmu_vhe_switch(true);
}

void kvm_vcpu_pmu_restore_host(struct kvm_vcpu *vcpu)
{
	if (has_vhe() && kvm_arm_support_pmu_v3())
		kvm_pmu_vhe_switch(false);
}

/*
 * VHE: while a vCPU is loaded, PMUSERENR_EL0 holds the guest's value and
 * the host's is restored at put; a host change meanwhile goes into the
 * saved host context instead.
 *
 * Return: true if KVM took the value.
 */
bool kvm_set_pmuserenr(u64 val)
{
	struct kvm_vcpu *vcpu;

	if (!kvm_arm_support_pmu_v3() || !has_vhe())
		return false;

	vcpu = kvm_get_running_vcpu();
	if (!vcpu || !vcpu_get_flag(vcpu, PMUSERENR_ON_CPU))
		return false;

	ctxt_sys_reg(host_data_ptr(host_ctxt), PMUSERENR_EL0) = val;
	return true;
}

/* Counters are added with the right type already: nothing to resync. */
void kvm_vcpu_pmu_resync_el0(void)
{
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host PMU counters across KVM guest entry and exit.
 *
 * The PMUv3 driver gives KVM, per counter, the PMEVTYPER<n>_EL0 (or
 * PMCCFILTR_EL0) value for host context and for guest context.  KVM
 * applies them: on VHE when a vCPU is loaded and put, on nVHE and
 * protected hosts in the world switch at EL2.  Which counters need what
 * is decided by armv8pmu_switch_kind() (<linux/perf/arm_pmuv3_filter.h>).
 */
#ifndef __KVM_ARM_PMU_SWITCH_H
#define __KVM_ARM_PMU_SWITCH_H

#include <linux/string.h>
#include <linux/types.h>
#include <asm/virt.h>

/* PMEVCNTR0-30 and, at index 31, PMCCNTR. */
#define KVM_PMU_SWITCH_COUNTERS	32

/*
 * What the nVHE world switch applies; a copy is taken into the vCPU
 * before each entry (and, in protected mode, into the hypervisor's).
 *
 * @events_host:  counters enabled only while the host runs (PMCNTEN)
 * @events_guest: counters enabled only while the guest runs (PMCNTEN)
 * @typer_switch: counters whose type is rewritten: typer_guest[] at
 *                entry, typer_host[] at exit; only these entries are
 *                meaningful
 * @switching:    the three masks ORed, so that the world switch tests
 *                one word when nothing needs switching
 */
struct kvm_pmu_events {
	u64 switching;
	u64 events_host;
	u64 events_guest;
	u64 typer_switch;
	u64 typer_host[KVM_PMU_SWITCH_COUNTERS];
	u64 typer_guest[KVM_PMU_SWITCH_COUNTERS];
};

/*
 * Take a copy of the switch state for a run: into the vCPU (nVHE, before
 * entry) or into the protected hypervisor's vCPU.  Only what the run
 * will read: nothing past @switching when it is 0, and the type tables
 * only when a counter needs them.
 */
static inline void kvm_pmu_events_copy(struct kvm_pmu_events *dst,
				       const struct kvm_pmu_events *src)
{
	dst->switching = src->switching;
	if (!src->switching)
		return;
	dst->events_host = src->events_host;
	dst->events_guest = src->events_guest;
	dst->typer_switch = src->typer_switch;
	if (src->typer_switch) {
		memcpy(dst->typer_host, src->typer_host, sizeof(dst->typer_host));
		memcpy(dst->typer_guest, src->typer_guest, sizeof(dst->typer_guest));
	}
}

struct kvm_vcpu;

#if IS_ENABLED(CONFIG_KVM) && IS_ENABLED(CONFIG_HW_PERF_EVENTS)
bool kvm_pmu_counter_add(int idx, u64 typer_host, u64 typer_guest,
			 u64 *typer);
void kvm_pmu_counter_del(int idx);
void __kvm_pmu_update_vcpu_events(struct kvm_vcpu *vcpu);

/*
 * Before each guest entry: on VHE nothing to do, and the test stays
 * inline so that a VHE entry pays no call for it.
 */
static inline void kvm_pmu_update_vcpu_events(struct kvm_vcpu *vcpu)
{
	if (!has_vhe())
		__kvm_pmu_update_vcpu_events(vcpu);
}
#else
/* Without KVM there is no guest context: the host value always applies. */
static inline bool kvm_pmu_counter_add(int idx, u64 typer_host,
				       u64 typer_guest, u64 *typer)
{
	*typer = typer_host;
	return true;
}

static inline void kvm_pmu_counter_del(int idx) {}
#endif

#endif /* __KVM_ARM_PMU_SWITCH_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the PMUv3 driver and KVM must agree on about an event's filter:
 * the host mode that gives each exclude_* bit its meaning, the filter
 * value in host and in guest context (the driver computes it,
 * arm_pmuv3_events.c), and how KVM moves a counter between the two
 * (armv8pmu_switch_kind(), which KVM's switch state and the nVHE
 * hypervisor's copy of it both run).  Pure: nothing reads a register.
 */
#ifndef __LINUX_PERF_ARM_PMUV3_FILTER_H
#define __LINUX_PERF_ARM_PMUV3_FILTER_H

#include <linux/bits.h>
#include <linux/perf/arm_pmuv3.h>
#include <linux/types.h>
#include <asm/virt.h>

/*
 * Where this kernel runs, which decides what each exclude_* bit means
 * (Documentation/arch/arm64/perf.rst has one table per mode).
 */
enum armv8pmu_host_mode {
	ARMV8PMU_MODE_VHE,	/* host kernel at EL2, guests at EL1/EL0 */
	ARMV8PMU_MODE_NVHE,	/* host kernel at EL1, KVM hyp at EL2 */
	ARMV8PMU_MODE_PKVM,	/* nVHE with the protected hypervisor */
	ARMV8PMU_MODE_GUEST,	/* kernel at EL1 with no EL2: runs no guests */
	ARMV8PMU_NR_MODES,
};

/*
 * The mode this kernel runs in, as the driver and KVM both need it.  One
 * definition, so that the two can never disagree on what a filter means.
 * A 32-bit kernel runs no KVM guests and never counts at EL2.
 */
static inline enum armv8pmu_host_mode armv8pmu_running_mode(void)
{
#ifdef CONFIG_ARM64
	if (is_kernel_in_hyp_mode())
		return ARMV8PMU_MODE_VHE;
	if (!is_hyp_mode_available())
		return ARMV8PMU_MODE_GUEST;
	if (is_protected_kvm_enabled())
		return ARMV8PMU_MODE_PKVM;
	return ARMV8PMU_MODE_NVHE;
#else
	return ARMV8PMU_MODE_GUEST;
#endif
}

/* The filter fields shared by PMEVTYPER<n>_EL0 and PMCCFILTR_EL0. */
#define ARMV8PMU_FILTER_MASK	(ARMV8_PMU_EXCLUDE_EL1 | ARMV8_PMU_EXCLUDE_EL0 | \
				 ARMV8_PMU_INCLUDE_EL2)
/* A filter value under which a counter counts at no EL we can reach. */
#define ARMV8PMU_FILTER_NONE	(ARMV8_PMU_EXCLUDE_EL1 | ARMV8_PMU_EXCLUDE_EL0)

/*
 * @host:  filter bits while the host runs (no vCPU loaded on VHE, no
 *         guest entered on nVHE).
 * @guest: filter bits while a guest runs.  EL2 in this context is the
 *         host's (VHE kernel, or the nVHE world switch), so it follows
 *         the host's rules.
 * A counter whose two values differ needs switching at guest entry/exit.
 */
struct armv8pmu_filter {
	u32 host;
	u32 guest;
};

/* How KVM moves a counter between its host and guest filters. */
enum armv8pmu_switch {
	ARMV8PMU_SWITCH_NONE,		/* same filter in both contexts */
	ARMV8PMU_SWITCH_TYPER,		/* rewrite PMEVTYPER/PMCCFILTR */
	ARMV8PMU_SWITCH_CNTEN_HOST,	/* enabled only while the host runs */
	ARMV8PMU_SWITCH_CNTEN_GUEST,	/* enabled only while a guest runs */
};

/* True when a filter value excludes EL0, EL1 and EL2 alike. */
static inline bool armv8pmu_filter_counts_nothing(u32 filter)
{
	return (filter & ARMV8PMU_FILTER_MASK) == ARMV8PMU_FILTER_NONE;
}

/*
 * Choose the switch for a counter.  Enabling or disabling a counter in
 * the nVHE world switch (one PMCNTEN write for all such counters) is
 * exact only when the counter does not count EL2, where the switch runs;
 * a counter that counts EL2 keeps its EL2 setting in both filters, so
 * rewriting the filter at EL2 loses and leaks nothing.  On VHE only the
 * EL0 setting ever differs, and it is rewritten at vCPU load/put.
 */
static inline enum armv8pmu_switch
armv8pmu_switch_kind(enum armv8pmu_host_mode mode,
		     const struct armv8pmu_filter *filter)
{
	if (filter->host == filter->guest)
		return ARMV8PMU_SWITCH_NONE;
	if (mode == ARMV8PMU_MODE_VHE || filter->host & ARMV8_PMU_INCLUDE_EL2)
		return ARMV8PMU_SWITCH_TYPER;
	if (armv8pmu_filter_counts_nothing(filter->host))
		return ARMV8PMU_SWITCH_CNTEN_GUEST;
	if (armv8pmu_filter_counts_nothing(filter->guest))
		return ARMV8PMU_SWITCH_CNTEN_HOST;
	return ARMV8PMU_SWITCH_TYPER;
}


#endif /* __LINUX_PERF_ARM_PMUV3_FILTER_H */

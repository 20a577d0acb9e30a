/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * PMUv3 decision logic shared by the perf driver, KVM and their KUnit
 * tests: which exception levels an event counts, in host and in guest
 * context, and which attributes and configs are acceptable.
 *
 * Everything declared here is pure: the caller passes the host mode and
 * the PMU's capabilities in, nothing reads a register.
 */
#ifndef __LINUX_PERF_ARM_PMUV3_FILTER_H
#define __LINUX_PERF_ARM_PMUV3_FILTER_H

#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/perf_event.h>
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

/* What the PMU can do, as probed; passed in so config checks are pure. */
struct armv8pmu_caps {
	u8 pmuver;		/* ID_AA64DFR0_EL1.PMUVer */
	u8 thwidth;		/* PMMIR_EL1.THWIDTH, 0: no FEAT_PMUv3_TH */
	bool avoid_pmccntr;	/* PMCCNTR_EL0 not CPU_CYCLES (SMT, erratum) */
};

/*
 * Counter allocation on a used-counter bitmap.  @chained asks for an
 * even/odd pair; the returned index is the even (low) counter.
 * @user_read: EL0 reads the counter directly, so it must be one counter
 * (never a pair) and never the fixed instruction counter, which user
 * space does not know how to read.
 * @no_pmccntr: CPU_CYCLES must not use PMCCNTR_EL0: the PMU avoids it
 * (it counts differently from the CPU_CYCLES event on SMT cores and some
 * others), or the event samples branches (BRBCR_ELx.FZP does not freeze
 * PMCCNTR_EL0).
 */
struct armv8pmu_alloc_req {
	u16 evtype;
	bool chained;
	bool threshold;
	bool user_read;
	bool no_pmccntr;
};

/*
 * PMMIR_EL1.BUS_WIDTH is Log2(bytes) + 1: 0b0011 is 4 bytes, 0b1100 is
 * 2048.  0 means not specified; the other encodings are reserved, and
 * are reported as 0 rather than as a width.
 */
static inline u32 armv8pmu_bus_width_bytes(u8 enc)
{
	if (enc < 0b0011 || enc > 0b1100)
		return 0;
	return BIT(enc - 1);
}

/* Which exception levels an event asks for, before hardware encoding. */
#define ARMV8PMU_EL0	BIT(0)
#define ARMV8PMU_EL1	BIT(1)
#define ARMV8PMU_EL2	BIT(2)

static inline u32 armv8pmu_els_to_filter(unsigned int els)
{
	u32 filter = 0;

	if (!(els & ARMV8PMU_EL0))
		filter |= ARMV8_PMU_EXCLUDE_EL0;
	if (!(els & ARMV8PMU_EL1))
		filter |= ARMV8_PMU_EXCLUDE_EL1;
	if (els & ARMV8PMU_EL2)
		filter |= ARMV8_PMU_INCLUDE_EL2;
	return filter;
}

/*
 * The ELs at which host code runs and an event counts it.  EL2 is the
 * host kernel on VHE (exclude_kernel), the hypervisor on nVHE/pKVM
 * (exclude_hv), and absent in a guest.
 */
static inline unsigned int armv8pmu_host_els(const struct perf_event_attr *attr,
					     enum armv8pmu_host_mode mode)
{
	unsigned int els = 0;

	if (attr->exclude_host)
		return 0;
	if (!attr->exclude_user)
		els |= ARMV8PMU_EL0;
	if (mode == ARMV8PMU_MODE_VHE) {
		if (!attr->exclude_kernel)
			els |= ARMV8PMU_EL2;
		return els;
	}
	if (!attr->exclude_kernel)
		els |= ARMV8PMU_EL1;
	if (mode != ARMV8PMU_MODE_GUEST && !attr->exclude_hv)
		els |= ARMV8PMU_EL2;
	return els;
}

/* Guests run at EL1 and EL0 in every mode that has them. */
static inline unsigned int armv8pmu_guest_els(const struct perf_event_attr *attr)
{
	unsigned int els = 0;

	if (attr->exclude_guest)
		return 0;
	if (!attr->exclude_user)
		els |= ARMV8PMU_EL0;
	if (!attr->exclude_kernel)
		els |= ARMV8PMU_EL1;
	return els;
}

/*
 * Turn an event's exclusion bits into the PMEVTYPER/PMCCFILTR filter to
 * program in host context and in guest context, following
 * Documentation/arch/arm64/perf.rst.
 *
 * Return: 0, or -EOPNOTSUPP for exclusions the PMU cannot express
 * (exclude_idle), or for guest-only counting on a kernel that has no
 * EL2 and so never runs a guest.
 */
static inline int armv8pmu_attr_to_filter(const struct perf_event_attr *attr,
					  enum armv8pmu_host_mode mode,
					  struct armv8pmu_filter *filter)
{
	unsigned int host = armv8pmu_host_els(attr, mode);
	unsigned int guest = armv8pmu_guest_els(attr);

	if (attr->exclude_idle)		/* the PMU cannot tell idle apart */
		return -EOPNOTSUPP;
	if (mode >= ARMV8PMU_NR_MODES)
		return -EINVAL;
	if (mode == ARMV8PMU_MODE_GUEST) {
		if (attr->exclude_host)	/* no EL2 here, so no KVM guests */
			return -EOPNOTSUPP;
		filter->host = armv8pmu_els_to_filter(host);
		filter->guest = filter->host;
		return 0;
	}

	/* EL2 while a guest runs is host code: the world switch or VHE kernel. */
	guest |= host & ARMV8PMU_EL2;
	filter->guest = armv8pmu_els_to_filter(guest);

	/*
	 * On VHE the host never runs at EL1, so EL1 may follow the guest in
	 * both contexts and only EL0 differs: fewer bits to flip at load.
	 */
	if (mode == ARMV8PMU_MODE_VHE)
		host |= guest & ARMV8PMU_EL1;
	filter->host = armv8pmu_els_to_filter(host);
	return 0;
}

/*
 * exclude_host asks for guest-only counting, which only means something
 * where KVM is up: with KVM off (not built, kvm-arm.mode=none, or no EL2)
 * such an event would count nothing, forever, so it is refused.
 *
 * Return: 0 or -EOPNOTSUPP.
 */
static inline int armv8pmu_check_guests(const struct perf_event_attr *attr,
					bool kvm)
{
	return attr->exclude_host && !kvm ? -EOPNOTSUPP : 0;
}

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

/*
 * Generic event mapping: the architected event the generic maps give
 * (@common, or an errno), whether PMCEID lists it, and the per-core
 * IMPLEMENTATION DEFINED one (@core, or an errno).  The architected
 * event wins when the PMU has it; otherwise the core's own, when it has
 * one; otherwise -ENOENT.
 */
static inline int armv8pmu_pick_mapping(int common, bool implemented, int core)
{
	if (common >= 0 && implemented)
		return common;
	if (core >= 0)
		return core;
	if (common == -EINVAL || core == -EINVAL)
		return -EINVAL;
	return -ENOENT;
}

/* "branches": BR_RETIRED, else PC_WRITE_RETIRED, as the PMU has them. */
static inline int armv8pmu_branch_event(bool br_retired, bool pc_write_retired)
{
	if (br_retired)
		return ARMV8_PMUV3_PERFCTR_BR_RETIRED;
	if (pc_write_retired)
		return ARMV8_PMUV3_PERFCTR_PC_WRITE_RETIRED;
	return -ENOENT;
}

/* A PMU for a DT compatible: its perf name and IMPDEF cache map. */
struct armv8pmu_core {
	const char *compatible;
	const char *name;
	const unsigned int (*cache_map)[PERF_COUNT_HW_CACHE_MAX]
				       [PERF_COUNT_HW_CACHE_OP_MAX]
				       [PERF_COUNT_HW_CACHE_RESULT_MAX];
};

#endif /* __LINUX_PERF_ARM_PMUV3_FILTER_H */

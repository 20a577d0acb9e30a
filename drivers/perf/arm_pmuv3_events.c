// SPDX-License-Identifier: GPL-2.0-only
/*
 * The PMUv3 driver's event ABI, the half of the driver that touches no
 * register (arm_pmuv3.c is the other; arm_pmuv3_internal.h is the
 * interface between the two).
 *
 * What an event may ask for and what it is given: the raw config and
 * config1 fields and their checks, the generic events through the
 * architected and per-core maps, the filters of its exclude_* bits, the
 * list of cores the driver probes, and sysfs (events/, format/, caps/).
 * Everything here works from the PMU's probed capabilities in struct
 * arm_pmu, so that KUnit drives it with any PMU it describes.
 */

#define pr_fmt(fmt) "pmuv3-kvm: " fmt

/* Before <linux/perf/arm_pmuv3.h>: its 32-bit accessors WARN on a bad index. */
#include <linux/bug.h>
#include <linux/perf/arm_pmuv3.h>

#include <kunit/visibility.h>
#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/device.h>
#include <linux/perf/arm_pmu.h>
#include <linux/perf/arm_pmuv3_filter.h>
#include <linux/perf_event.h>
#include <linux/printk.h>
#include <linux/sysfs.h>

#include "arm_brbe.h"
#include "arm_pmuv3_internal.h"

/* ------------------------------------------------------------------------
 * User ABI: one definition per config field drives both parsing and the
 * sysfs format/ directory.
 */

struct armv8pmu_cfg_field {
	const char *name;
	u8 cfg;		/* 0: config, 1: config1 */
	u64 mask;
};

#define ARMV8PMU_CFG1_LONG	BIT_ULL(0)		/* 64-bit counter */
#define ARMV8PMU_CFG1_RDPMC	BIT_ULL(1)		/* EL0 direct read */
#define ARMV8PMU_CFG1_TH_COUNT	BIT_ULL(2)		/* PMEVTYPER.TC[0] */
#define ARMV8PMU_CFG1_TH_CMP	GENMASK_ULL(4, 3)	/* PMEVTYPER.TC[2:1] */
#define ARMV8PMU_CFG1_TH	GENMASK_ULL(16, 5)	/* PMEVTYPER.TH */
#define ARMV8PMU_CFG1_MASK	(ARMV8PMU_CFG1_LONG | ARMV8PMU_CFG1_RDPMC | \
				 ARMV8PMU_CFG1_TH_COUNT | ARMV8PMU_CFG1_TH_CMP | \
				 ARMV8PMU_CFG1_TH)
static_assert(ARMV8PMU_CFG1_THRESHOLD ==
	      (ARMV8PMU_CFG1_TH_COUNT | ARMV8PMU_CFG1_TH_CMP | ARMV8PMU_CFG1_TH));

/*
 * The event number field narrowed to 10 bits before PMUv3 for Armv8.1
 * (PMUVer 4, in ID_AA64DFR0_EL1 and in AArch32's ID_DFR0 alike, under
 * the names each architecture's headers give it).
 */
#ifdef CONFIG_ARM64
#define ARMV8PMU_PMUVER_V3P1	ID_AA64DFR0_EL1_PMUVer_V3P1
#else
#define ARMV8PMU_PMUVER_V3P1	ARMV8_PMU_DFR_VER_V3P1
#endif
#define ARMV8PMU_EVENT_V80	GENMASK(9, 0)

static const struct armv8pmu_cfg_field armv8pmu_cfg_fields[] = {
	{ "event",		0, ARMV8_PMU_EVTYPE_EVENT },
	{ "long",		1, ARMV8PMU_CFG1_LONG },
	{ "rdpmc",		1, ARMV8PMU_CFG1_RDPMC },
	{ "threshold_count",	1, ARMV8PMU_CFG1_TH_COUNT },
	{ "threshold_compare",	1, ARMV8PMU_CFG1_TH_CMP },
	{ "threshold",		1, ARMV8PMU_CFG1_TH },
};

/* ------------------------------------------------------------------------
 * Exclusion bits to filters (Documentation/arch/arm64/perf.rst).
 */

/* Which exception levels an event asks for, before hardware encoding. */
#define ARMV8PMU_EL0	BIT(0)
#define ARMV8PMU_EL1	BIT(1)
#define ARMV8PMU_EL2	BIT(2)

static u32 armv8pmu_els_to_filter(unsigned int els)
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
static unsigned int armv8pmu_host_els(const struct perf_event_attr *attr,
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
static unsigned int armv8pmu_guest_els(const struct perf_event_attr *attr)
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
int armv8pmu_attr_to_filter(const struct perf_event_attr *attr,
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
EXPORT_SYMBOL_IF_KUNIT(armv8pmu_attr_to_filter);

/*
 * exclude_host asks for guest-only counting, which only means something
 * where KVM is up: with KVM off (not built, kvm-arm.mode=none, or no EL2)
 * such an event would count nothing, forever, so it is refused.
 *
 * Return: 0 or -EOPNOTSUPP.
 */
int armv8pmu_check_guests(const struct perf_event_attr *attr, bool kvm)
{
	return attr->exclude_host && !kvm ? -EOPNOTSUPP : 0;
}
EXPORT_SYMBOL_IF_KUNIT(armv8pmu_check_guests);

/* ------------------------------------------------------------------------
 * Config checks.
 */

static bool armv8pmu_caps_have_64bit_counters(const struct armv8pmu_caps *caps)
{
	return armv8pmu_has_long_counters(caps->pmuver);
}

/* PMUv3p5 event counters are 64-bit; before that, "long" chains a pair. */
VISIBLE_IF_KUNIT bool armv8pmu_attr_is_64bit(const struct perf_event_attr *attr,
					     const struct armv8pmu_caps *caps)
{
	return armv8pmu_caps_have_64bit_counters(caps) ||
	       (attr->config1 & ARMV8PMU_CFG1_LONG);
}
EXPORT_SYMBOL_IF_KUNIT(armv8pmu_attr_is_64bit);

static u16 armv8pmu_attr_event(const struct perf_event_attr *attr)
{
	return FIELD_GET(ARMV8_PMU_EVTYPE_EVENT, attr->config);
}

static int armv8pmu_check_threshold(const struct perf_event_attr *attr,
				    const struct armv8pmu_caps *caps)
{
	u64 th = FIELD_GET(ARMV8PMU_CFG1_TH, attr->config1);
	u64 tc = attr->config1 & (ARMV8PMU_CFG1_TH_CMP | ARMV8PMU_CFG1_TH_COUNT);

	if (!th) {
		if (tc)
			pr_debug("threshold_compare/count without a threshold\n");
		return tc ? -EINVAL : 0;
	}
	if (!caps->thwidth) {
		pr_debug("threshold: no FEAT_PMUv3_TH\n");
		return -EOPNOTSUPP;
	}
	if (th >= BIT_ULL(caps->thwidth)) {
		pr_debug("threshold %llu wider than %u bits\n", th, caps->thwidth);
		return -EINVAL;
	}
	return 0;
}

/*
 * Check a raw event's config: the event number must fit the PMU's field
 * (16 bits from PMUv3 for Armv8.1, 10 before) and not be CHAIN, which
 * only the driver's counter pairs may use.
 *
 * Return: 0 or -EINVAL.
 */
VISIBLE_IF_KUNIT int armv8pmu_check_raw_event(u64 config,
					      const struct armv8pmu_caps *caps)
{
	u64 event_mask = caps->pmuver >= ARMV8PMU_PMUVER_V3P1 ?
			 ARMV8_PMU_EVTYPE_EVENT : ARMV8PMU_EVENT_V80;

	if (config & ~event_mask) {
		pr_debug("config %#llx: bits outside the event field\n", config);
		return -EINVAL;
	}
	if (config == ARMV8_PMUV3_PERFCTR_CHAIN) {
		pr_debug("CHAIN is for the driver's own counter pairs\n");
		return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(armv8pmu_check_raw_event);

/*
 * Check config1/config2 of an event that will count @event.
 *
 * Return: 0; -EINVAL for reserved bits or a malformed threshold;
 * -EOPNOTSUPP for a valid request this PMU cannot meet (a threshold
 * without FEAT_PMUv3_TH, EL0 reads of a chained counter pair).
 */
VISIBLE_IF_KUNIT int armv8pmu_check_config1(const struct perf_event_attr *attr,
					    u16 event,
					    const struct armv8pmu_caps *caps)
{
	if (attr->config1 & ~ARMV8PMU_CFG1_MASK || attr->config2) {
		pr_debug("config1/config2: reserved bits set\n");
		return -EINVAL;
	}
	if ((attr->config1 & ARMV8PMU_CFG1_RDPMC) &&
	    armv8pmu_attr_is_64bit(attr, caps) &&
	    !armv8pmu_caps_have_64bit_counters(caps) &&
	    (event != ARMV8_PMUV3_PERFCTR_CPU_CYCLES || caps->avoid_pmccntr)) {
		pr_debug("rdpmc: a chained pair cannot be read atomically\n");
		return -EOPNOTSUPP;
	}
	return armv8pmu_check_threshold(attr, caps);
}
EXPORT_SYMBOL_IF_KUNIT(armv8pmu_check_config1);

/* The PMEVTYPER event and threshold fields of a checked raw config. */
u64 armv8pmu_attr_to_evtyper(const struct perf_event_attr *attr)
{
	u64 th = FIELD_GET(ARMV8PMU_CFG1_TH, attr->config1);
	u64 tc = FIELD_GET(ARMV8PMU_CFG1_TH_CMP, attr->config1) << 1 |
		 FIELD_GET(ARMV8PMU_CFG1_TH_COUNT, attr->config1);

	return FIELD_PREP(ARMV8_PMU_EVTYPE_EVENT, armv8pmu_attr_event(attr)) |
	       FIELD_PREP(ARMV8_PMU_EVTYPE_TH, th) |
	       FIELD_PREP(ARMV8_PMU_EVTYPE_TC, tc);
}
EXPORT_SYMBOL_IF_KUNIT(armv8pmu_attr_to_evtyper);


/* ------------------------------------------------------------------------
 * Event maps.
 */

/*
 * Generic event mapping: the architected event the generic maps give
 * (@common, or an errno), whether PMCEID lists it, and the per-core
 * IMPLEMENTATION DEFINED one (@core, or an errno).  The architected
 * event wins when the PMU has it; otherwise the core's own, when it has
 * one; otherwise -ENOENT.
 */
VISIBLE_IF_KUNIT int armv8pmu_pick_mapping(int common, bool implemented, int core)
{
	if (common >= 0 && implemented)
		return common;
	if (core >= 0)
		return core;
	if (common == -EINVAL || core == -EINVAL)
		return -EINVAL;
	return -ENOENT;
}
EXPORT_SYMBOL_IF_KUNIT(armv8pmu_pick_mapping);

/* "branches": BR_RETIRED, else PC_WRITE_RETIRED, as the PMU has them. */
VISIBLE_IF_KUNIT int armv8pmu_branch_event(bool br_retired, bool pc_write_retired)
{
	if (br_retired)
		return ARMV8_PMUV3_PERFCTR_BR_RETIRED;
	if (pc_write_retired)
		return ARMV8_PMUV3_PERFCTR_PC_WRITE_RETIRED;
	return -ENOENT;
}
EXPORT_SYMBOL_IF_KUNIT(armv8pmu_branch_event);

/*
 * PMMIR.THWIDTH, or 0 on a 32-bit kernel: AArch32 may read a non-zero
 * width, but its 32-bit PMEVTYPER writes cannot reach TH (bits 43:32).
 */
static unsigned int armv8pmu_thwidth(struct arm_pmu *cpu_pmu)
{
	if (IS_ENABLED(CONFIG_ARM))
		return 0;
	return FIELD_GET(ARMV8_PMU_THWIDTH, cpu_pmu->reg_pmmir);
}

/* The probed PMU, as the pure checks above take it. */
static struct armv8pmu_caps armv8pmu_caps_of(struct arm_pmu *cpu_pmu)
{
	return (struct armv8pmu_caps) {
		.pmuver = cpu_pmu->pmuver,
		.thwidth = armv8pmu_thwidth(cpu_pmu),
		.avoid_pmccntr = armv8pmu_avoid_pmccntr(cpu_pmu),
	};
}

static const unsigned int armv8_pmuv3_perf_map[PERF_COUNT_HW_MAX] = {
	PERF_MAP_ALL_UNSUPPORTED,
	[PERF_COUNT_HW_CPU_CYCLES]		= ARMV8_PMUV3_PERFCTR_CPU_CYCLES,
	[PERF_COUNT_HW_INSTRUCTIONS]		= ARMV8_PMUV3_PERFCTR_INST_RETIRED,
	[PERF_COUNT_HW_CACHE_REFERENCES]	= ARMV8_PMUV3_PERFCTR_L1D_CACHE,
	[PERF_COUNT_HW_CACHE_MISSES]		= ARMV8_PMUV3_PERFCTR_L1D_CACHE_REFILL,
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS]	= ARMV8_PMUV3_PERFCTR_BR_RETIRED,
	[PERF_COUNT_HW_BRANCH_MISSES]		= ARMV8_PMUV3_PERFCTR_BR_MIS_PRED,
	[PERF_COUNT_HW_BUS_CYCLES]		= ARMV8_PMUV3_PERFCTR_BUS_CYCLES,
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= ARMV8_PMUV3_PERFCTR_STALL_FRONTEND,
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND]	= ARMV8_PMUV3_PERFCTR_STALL_BACKEND,
};

#define ARMV8PMU_CACHE(cache, op, result)				\
	[C(cache)][C(OP_##op)][C(RESULT_##result)]

static const unsigned int
armv8_pmuv3_cache_map[PERF_COUNT_HW_CACHE_MAX][PERF_COUNT_HW_CACHE_OP_MAX]
		     [PERF_COUNT_HW_CACHE_RESULT_MAX] = {
	PERF_CACHE_MAP_ALL_UNSUPPORTED,
	ARMV8PMU_CACHE(L1D, READ, ACCESS)  = ARMV8_PMUV3_PERFCTR_L1D_CACHE,
	ARMV8PMU_CACHE(L1D, READ, MISS)    = ARMV8_PMUV3_PERFCTR_L1D_CACHE_REFILL,
	ARMV8PMU_CACHE(L1I, READ, ACCESS)  = ARMV8_PMUV3_PERFCTR_L1I_CACHE,
	ARMV8PMU_CACHE(L1I, READ, MISS)    = ARMV8_PMUV3_PERFCTR_L1I_CACHE_REFILL,
	ARMV8PMU_CACHE(DTLB, READ, ACCESS) = ARMV8_PMUV3_PERFCTR_L1D_TLB,
	ARMV8PMU_CACHE(DTLB, READ, MISS)   = ARMV8_PMUV3_PERFCTR_L1D_TLB_REFILL,
	ARMV8PMU_CACHE(ITLB, READ, ACCESS) = ARMV8_PMUV3_PERFCTR_L1I_TLB,
	ARMV8PMU_CACHE(ITLB, READ, MISS)   = ARMV8_PMUV3_PERFCTR_L1I_TLB_REFILL,
	ARMV8PMU_CACHE(LL, READ, ACCESS)   = ARMV8_PMUV3_PERFCTR_LL_CACHE_RD,
	ARMV8PMU_CACHE(LL, READ, MISS)     = ARMV8_PMUV3_PERFCTR_LL_CACHE_MISS_RD,
	ARMV8PMU_CACHE(BPU, READ, ACCESS)  = ARMV8_PMUV3_PERFCTR_BR_PRED,
	ARMV8PMU_CACHE(BPU, READ, MISS)    = ARMV8_PMUV3_PERFCTR_BR_MIS_PRED,
};

/*
 * IMPLEMENTATION DEFINED events of some cores, from their TRMs, for the
 * generic cache events the architected ones do not cover.
 */
#define ARMV8_A53_PERFCTR_PREF_LINEFILL			0xc2	/* Cortex-A53 */
#define ARMV8_THUNDER_PERFCTR_L1D_CACHE_MISS_ST		0xe9	/* ThunderX */
#define ARMV8_THUNDER_PERFCTR_L1D_CACHE_PREF_ACCESS	0xea
#define ARMV8_THUNDER_PERFCTR_L1D_CACHE_PREF_MISS	0xeb
#define ARMV8_THUNDER_PERFCTR_L1I_CACHE_PREF_ACCESS	0xec
#define ARMV8_THUNDER_PERFCTR_L1I_CACHE_PREF_MISS	0xed

/* Cortex-A53 and A35. */
static const unsigned int
armv8_a53_cache_map[PERF_COUNT_HW_CACHE_MAX][PERF_COUNT_HW_CACHE_OP_MAX]
		   [PERF_COUNT_HW_CACHE_RESULT_MAX] = {
	PERF_CACHE_MAP_ALL_UNSUPPORTED,
	ARMV8PMU_CACHE(L1D, PREFETCH, MISS) = ARMV8_A53_PERFCTR_PREF_LINEFILL,
	ARMV8PMU_CACHE(NODE, READ, ACCESS)  = ARMV8_IMPDEF_PERFCTR_BUS_ACCESS_RD,
	ARMV8PMU_CACHE(NODE, WRITE, ACCESS) = ARMV8_IMPDEF_PERFCTR_BUS_ACCESS_WR,
};

/* Cortex-A57 and A72. */
static const unsigned int
armv8_a57_cache_map[PERF_COUNT_HW_CACHE_MAX][PERF_COUNT_HW_CACHE_OP_MAX]
		   [PERF_COUNT_HW_CACHE_RESULT_MAX] = {
	PERF_CACHE_MAP_ALL_UNSUPPORTED,
	ARMV8PMU_CACHE(L1D, READ, ACCESS)   = ARMV8_IMPDEF_PERFCTR_L1D_CACHE_RD,
	ARMV8PMU_CACHE(L1D, READ, MISS)     = ARMV8_IMPDEF_PERFCTR_L1D_CACHE_REFILL_RD,
	ARMV8PMU_CACHE(L1D, WRITE, ACCESS)  = ARMV8_IMPDEF_PERFCTR_L1D_CACHE_WR,
	ARMV8PMU_CACHE(L1D, WRITE, MISS)    = ARMV8_IMPDEF_PERFCTR_L1D_CACHE_REFILL_WR,
	ARMV8PMU_CACHE(DTLB, READ, MISS)    = ARMV8_IMPDEF_PERFCTR_L1D_TLB_REFILL_RD,
	ARMV8PMU_CACHE(DTLB, WRITE, MISS)   = ARMV8_IMPDEF_PERFCTR_L1D_TLB_REFILL_WR,
	ARMV8PMU_CACHE(NODE, READ, ACCESS)  = ARMV8_IMPDEF_PERFCTR_BUS_ACCESS_RD,
	ARMV8PMU_CACHE(NODE, WRITE, ACCESS) = ARMV8_IMPDEF_PERFCTR_BUS_ACCESS_WR,
};

static const unsigned int
armv8_a73_cache_map[PERF_COUNT_HW_CACHE_MAX][PERF_COUNT_HW_CACHE_OP_MAX]
		   [PERF_COUNT_HW_CACHE_RESULT_MAX] = {
	PERF_CACHE_MAP_ALL_UNSUPPORTED,
	ARMV8PMU_CACHE(L1D, READ, ACCESS)   = ARMV8_IMPDEF_PERFCTR_L1D_CACHE_RD,
	ARMV8PMU_CACHE(L1D, WRITE, ACCESS)  = ARMV8_IMPDEF_PERFCTR_L1D_CACHE_WR,
};

/* Cavium ThunderX. */
static const unsigned int
armv8_thunder_cache_map[PERF_COUNT_HW_CACHE_MAX][PERF_COUNT_HW_CACHE_OP_MAX]
		       [PERF_COUNT_HW_CACHE_RESULT_MAX] = {
	PERF_CACHE_MAP_ALL_UNSUPPORTED,
	ARMV8PMU_CACHE(L1D, READ, ACCESS)     = ARMV8_IMPDEF_PERFCTR_L1D_CACHE_RD,
	ARMV8PMU_CACHE(L1D, READ, MISS)       = ARMV8_IMPDEF_PERFCTR_L1D_CACHE_REFILL_RD,
	ARMV8PMU_CACHE(L1D, WRITE, ACCESS)    = ARMV8_IMPDEF_PERFCTR_L1D_CACHE_WR,
	ARMV8PMU_CACHE(L1D, WRITE, MISS)      = ARMV8_THUNDER_PERFCTR_L1D_CACHE_MISS_ST,
	ARMV8PMU_CACHE(L1D, PREFETCH, ACCESS) = ARMV8_THUNDER_PERFCTR_L1D_CACHE_PREF_ACCESS,
	ARMV8PMU_CACHE(L1D, PREFETCH, MISS)   = ARMV8_THUNDER_PERFCTR_L1D_CACHE_PREF_MISS,
	ARMV8PMU_CACHE(L1I, PREFETCH, ACCESS) = ARMV8_THUNDER_PERFCTR_L1I_CACHE_PREF_ACCESS,
	ARMV8PMU_CACHE(L1I, PREFETCH, MISS)   = ARMV8_THUNDER_PERFCTR_L1I_CACHE_PREF_MISS,
	ARMV8PMU_CACHE(DTLB, READ, ACCESS)    = ARMV8_IMPDEF_PERFCTR_L1D_TLB_RD,
	ARMV8PMU_CACHE(DTLB, READ, MISS)      = ARMV8_IMPDEF_PERFCTR_L1D_TLB_REFILL_RD,
	ARMV8PMU_CACHE(DTLB, WRITE, ACCESS)   = ARMV8_IMPDEF_PERFCTR_L1D_TLB_WR,
	ARMV8PMU_CACHE(DTLB, WRITE, MISS)     = ARMV8_IMPDEF_PERFCTR_L1D_TLB_REFILL_WR,
};

/* Broadcom Vulcan. */
static const unsigned int
armv8_vulcan_cache_map[PERF_COUNT_HW_CACHE_MAX][PERF_COUNT_HW_CACHE_OP_MAX]
		      [PERF_COUNT_HW_CACHE_RESULT_MAX] = {
	PERF_CACHE_MAP_ALL_UNSUPPORTED,
	ARMV8PMU_CACHE(L1D, READ, ACCESS)   = ARMV8_IMPDEF_PERFCTR_L1D_CACHE_RD,
	ARMV8PMU_CACHE(L1D, READ, MISS)     = ARMV8_IMPDEF_PERFCTR_L1D_CACHE_REFILL_RD,
	ARMV8PMU_CACHE(L1D, WRITE, ACCESS)  = ARMV8_IMPDEF_PERFCTR_L1D_CACHE_WR,
	ARMV8PMU_CACHE(L1D, WRITE, MISS)    = ARMV8_IMPDEF_PERFCTR_L1D_CACHE_REFILL_WR,
	ARMV8PMU_CACHE(DTLB, READ, ACCESS)  = ARMV8_IMPDEF_PERFCTR_L1D_TLB_RD,
	ARMV8PMU_CACHE(DTLB, WRITE, ACCESS) = ARMV8_IMPDEF_PERFCTR_L1D_TLB_WR,
	ARMV8PMU_CACHE(DTLB, READ, MISS)    = ARMV8_IMPDEF_PERFCTR_L1D_TLB_REFILL_RD,
	ARMV8PMU_CACHE(DTLB, WRITE, MISS)   = ARMV8_IMPDEF_PERFCTR_L1D_TLB_REFILL_WR,
	ARMV8PMU_CACHE(NODE, READ, ACCESS)  = ARMV8_IMPDEF_PERFCTR_BUS_ACCESS_RD,
	ARMV8PMU_CACHE(NODE, WRITE, ACCESS) = ARMV8_IMPDEF_PERFCTR_BUS_ACCESS_WR,
};

/*
 * The cores of arm_pmuv3_cores.h, at their indices (ARMV8PMU_CORE_*):
 * the table arm_pmuv3.c's probe callbacks and KUnit read.
 */
#define ARMV8PMU_CORE(_name, _compat, _map)				\
	[ARMV8PMU_CORE_##_name] = {					\
		.compatible = _compat, .name = #_name, .cache_map = _map, \
	},

const struct armv8pmu_core armv8pmu_cores[] = {
#include "arm_pmuv3_cores.h"
};
EXPORT_SYMBOL_IF_KUNIT(armv8pmu_cores);

VISIBLE_IF_KUNIT const unsigned int armv8pmu_nr_cores = ARRAY_SIZE(armv8pmu_cores);
EXPORT_SYMBOL_IF_KUNIT(armv8pmu_nr_cores);

/*
 * A PERF_TYPE_HW_CACHE config (type | op << 8 | result << 16) through a
 * core's own map.
 *
 * Return: the event number, -EINVAL for a malformed config, -ENOENT
 * when the core has no event for it.
 */
VISIBLE_IF_KUNIT int armv8pmu_core_map_cache(const struct armv8pmu_core *core,
					     u64 config)
{
	unsigned int type = config & 0xff, op = (config >> 8) & 0xff;
	unsigned int result = (config >> 16) & 0xff;
	unsigned int ev;

	if (config >> 24 || type >= PERF_COUNT_HW_CACHE_MAX ||
	    op >= PERF_COUNT_HW_CACHE_OP_MAX ||
	    result >= PERF_COUNT_HW_CACHE_RESULT_MAX)
		return -EINVAL;
	if (!core->cache_map)
		return -ENOENT;
	ev = (*core->cache_map)[type][op][result];
	return ev == CACHE_OP_UNSUPPORTED ? -ENOENT : ev;
}
EXPORT_SYMBOL_IF_KUNIT(armv8pmu_core_map_cache);

/* Common events are only offered when PMCEID<n>_EL0 says they exist. */
static bool armv8pmu_event_implemented(struct arm_pmu *cpu_pmu, u16 event)
{
	if (event < ARMV8_PMUV3_MAX_COMMON_EVENTS)
		return test_bit(event, cpu_pmu->pmceid_bitmap);
	if (event >= ARMV8_PMUV3_EXT_COMMON_EVENT_BASE &&
	    event - ARMV8_PMUV3_EXT_COMMON_EVENT_BASE < ARMV8_PMUV3_MAX_COMMON_EVENTS)
		return test_bit(event - ARMV8_PMUV3_EXT_COMMON_EVENT_BASE,
				cpu_pmu->pmceid_ext_bitmap);
	/* IMPLEMENTATION DEFINED events cannot be discovered. */
	return true;
}

/*
 * "branches": BR_RETIRED where the PMU has it, else PC_WRITE_RETIRED
 * (every write to the PC, which is what a branch is), else nothing.
 */
static int armv8pmu_map_branches(struct arm_pmu *cpu_pmu)
{
	u16 br = ARMV8_PMUV3_PERFCTR_BR_RETIRED;
	u16 pc_write = ARMV8_PMUV3_PERFCTR_PC_WRITE_RETIRED;

	return armv8pmu_branch_event(armv8pmu_event_implemented(cpu_pmu, br),
				     armv8pmu_event_implemented(cpu_pmu, pc_write));
}

static int armv8pmu_map_generic(struct perf_event *event,
				const struct armv8pmu_core *core)
{
	struct arm_pmu *cpu_pmu = to_arm_pmu(event->pmu);
	struct perf_event_attr *attr = &event->attr;
	int common, own = -ENOENT, mapping;

	if (attr->type == PERF_TYPE_HARDWARE &&
	    attr->config == PERF_COUNT_HW_BRANCH_INSTRUCTIONS)
		common = armv8pmu_map_branches(cpu_pmu);
	else
		common = armpmu_map_event(event, &armv8_pmuv3_perf_map,
					  &armv8_pmuv3_cache_map,
					  ARMV8_PMU_EVTYPE_EVENT);
	if (attr->type == PERF_TYPE_HW_CACHE)
		own = armv8pmu_core_map_cache(core, attr->config);

	mapping = armv8pmu_pick_mapping(common, common >= 0 &&
					armv8pmu_event_implemented(cpu_pmu, common),
					own);
	if (mapping == -ENOENT)
		pr_debug("generic event %llu:%#llx: not on this PMU (PMCEID)\n",
			 (u64)attr->type, attr->config);
	return mapping;
}

/* The event number an event asks for, or an errno (-ENOENT: not ours). */
static int armv8pmu_event_number(struct perf_event *event,
				 const struct armv8pmu_core *core,
				 const struct armv8pmu_caps *caps)
{
	struct perf_event_attr *attr = &event->attr;
	int ret;

	switch (attr->type) {
	case PERF_TYPE_HARDWARE:
	case PERF_TYPE_HW_CACHE:
		if (attr->config1 & ~(ARMV8PMU_CFG1_LONG | ARMV8PMU_CFG1_RDPMC)) {
			pr_debug("threshold: raw events only\n");
			return -EINVAL;
		}
		return armv8pmu_map_generic(event, core);
	case PERF_TYPE_RAW:
		break;
	default:
		if (attr->type != event->pmu->type)
			return -ENOENT;
	}
	ret = armv8pmu_check_raw_event(attr->config, caps);
	return ret ? ret : armv8pmu_attr_event(attr);
}

int armv8pmu_map_core_event(struct perf_event *event,
			    const struct armv8pmu_core *core)
{
	struct arm_pmu *cpu_pmu = to_arm_pmu(event->pmu);
	struct armv8pmu_caps caps = armv8pmu_caps_of(cpu_pmu);
	struct perf_event_attr *attr = &event->attr;
	int event_nr, ret;

	event_nr = armv8pmu_event_number(event, core, &caps);
	if (event_nr < 0)
		return event_nr;
	ret = armv8pmu_check_config1(attr, event_nr, &caps);
	if (ret)
		return ret;

	if (armv8pmu_attr_is_64bit(attr, &caps))
		event->hw.flags |= ARMPMU_EVT_64BIT;
	if (attr->config1 & ARMV8PMU_CFG1_RDPMC) {
		/* Direct reads only for task-bound events: a CPU-wide one is anyone's. */
		if (!(event->attach_state & PERF_ATTACH_TASK)) {
			pr_debug("rdpmc: only on events of a task\n");
			return -EINVAL;
		}
		event->hw.flags |= PERF_EVENT_FLAG_USER_READ_CNT;
	}
	return event_nr;
}

/* ------------------------------------------------------------------------
 * sysfs: events/, format/, caps/.
 */

static ssize_t armv8pmu_events_sysfs_show(struct device *dev,
					  struct device_attribute *attr,
					  char *page)
{
	struct perf_pmu_events_attr *pmu_attr;

	pmu_attr = container_of(attr, struct perf_pmu_events_attr, attr);
	return sysfs_emit(page, "event=0x%04llx\n", pmu_attr->id);
}

#define ARMV8_EVENT_ATTR(name, config)					\
	PMU_EVENT_ATTR_ID(name, armv8pmu_events_sysfs_show, config)

/*
 * No sw_incr here: an event's counter changes as perf rotates events, so
 * nothing can say which PMSWINC_EL0 bit to write, and EL0 may not write
 * it (PMUSERENR_EL0.SW stays 0).  The raw event r0 still counts it.
 */
static struct attribute *armv8_pmuv3_event_attrs[] = {
	ARMV8_EVENT_ATTR(l1i_cache_refill, ARMV8_PMUV3_PERFCTR_L1I_CACHE_REFILL),
	ARMV8_EVENT_ATTR(l1i_tlb_refill, ARMV8_PMUV3_PERFCTR_L1I_TLB_REFILL),
	ARMV8_EVENT_ATTR(l1d_cache_refill, ARMV8_PMUV3_PERFCTR_L1D_CACHE_REFILL),
	ARMV8_EVENT_ATTR(l1d_cache, ARMV8_PMUV3_PERFCTR_L1D_CACHE),
	ARMV8_EVENT_ATTR(l1d_tlb_refill, ARMV8_PMUV3_PERFCTR_L1D_TLB_REFILL),
	ARMV8_EVENT_ATTR(ld_retired, ARMV8_PMUV3_PERFCTR_LD_RETIRED),
	ARMV8_EVENT_ATTR(st_retired, ARMV8_PMUV3_PERFCTR_ST_RETIRED),
	ARMV8_EVENT_ATTR(inst_retired, ARMV8_PMUV3_PERFCTR_INST_RETIRED),
	ARMV8_EVENT_ATTR(exc_taken, ARMV8_PMUV3_PERFCTR_EXC_TAKEN),
	ARMV8_EVENT_ATTR(exc_return, ARMV8_PMUV3_PERFCTR_EXC_RETURN),
	ARMV8_EVENT_ATTR(cid_write_retired, ARMV8_PMUV3_PERFCTR_CID_WRITE_RETIRED),
	ARMV8_EVENT_ATTR(pc_write_retired, ARMV8_PMUV3_PERFCTR_PC_WRITE_RETIRED),
	ARMV8_EVENT_ATTR(br_immed_retired, ARMV8_PMUV3_PERFCTR_BR_IMMED_RETIRED),
	ARMV8_EVENT_ATTR(br_return_retired, ARMV8_PMUV3_PERFCTR_BR_RETURN_RETIRED),
	ARMV8_EVENT_ATTR(unaligned_ldst_retired, ARMV8_PMUV3_PERFCTR_UNALIGNED_LDST_RETIRED),
	ARMV8_EVENT_ATTR(br_mis_pred, ARMV8_PMUV3_PERFCTR_BR_MIS_PRED),
	ARMV8_EVENT_ATTR(cpu_cycles, ARMV8_PMUV3_PERFCTR_CPU_CYCLES),
	ARMV8_EVENT_ATTR(br_pred, ARMV8_PMUV3_PERFCTR_BR_PRED),
	ARMV8_EVENT_ATTR(mem_access, ARMV8_PMUV3_PERFCTR_MEM_ACCESS),
	ARMV8_EVENT_ATTR(l1i_cache, ARMV8_PMUV3_PERFCTR_L1I_CACHE),
	ARMV8_EVENT_ATTR(l1d_cache_wb, ARMV8_PMUV3_PERFCTR_L1D_CACHE_WB),
	ARMV8_EVENT_ATTR(l2d_cache, ARMV8_PMUV3_PERFCTR_L2D_CACHE),
	ARMV8_EVENT_ATTR(l2d_cache_refill, ARMV8_PMUV3_PERFCTR_L2D_CACHE_REFILL),
	ARMV8_EVENT_ATTR(l2d_cache_wb, ARMV8_PMUV3_PERFCTR_L2D_CACHE_WB),
	ARMV8_EVENT_ATTR(bus_access, ARMV8_PMUV3_PERFCTR_BUS_ACCESS),
	ARMV8_EVENT_ATTR(memory_error, ARMV8_PMUV3_PERFCTR_MEMORY_ERROR),
	ARMV8_EVENT_ATTR(inst_spec, ARMV8_PMUV3_PERFCTR_INST_SPEC),
	ARMV8_EVENT_ATTR(ttbr_write_retired, ARMV8_PMUV3_PERFCTR_TTBR_WRITE_RETIRED),
	ARMV8_EVENT_ATTR(bus_cycles, ARMV8_PMUV3_PERFCTR_BUS_CYCLES),
	ARMV8_EVENT_ATTR(l1d_cache_allocate, ARMV8_PMUV3_PERFCTR_L1D_CACHE_ALLOCATE),
	ARMV8_EVENT_ATTR(l2d_cache_allocate, ARMV8_PMUV3_PERFCTR_L2D_CACHE_ALLOCATE),
	ARMV8_EVENT_ATTR(br_retired, ARMV8_PMUV3_PERFCTR_BR_RETIRED),
	ARMV8_EVENT_ATTR(br_mis_pred_retired, ARMV8_PMUV3_PERFCTR_BR_MIS_PRED_RETIRED),
	ARMV8_EVENT_ATTR(stall_frontend, ARMV8_PMUV3_PERFCTR_STALL_FRONTEND),
	ARMV8_EVENT_ATTR(stall_backend, ARMV8_PMUV3_PERFCTR_STALL_BACKEND),
	ARMV8_EVENT_ATTR(l1d_tlb, ARMV8_PMUV3_PERFCTR_L1D_TLB),
	ARMV8_EVENT_ATTR(l1i_tlb, ARMV8_PMUV3_PERFCTR_L1I_TLB),
	ARMV8_EVENT_ATTR(l2i_cache, ARMV8_PMUV3_PERFCTR_L2I_CACHE),
	ARMV8_EVENT_ATTR(l2i_cache_refill, ARMV8_PMUV3_PERFCTR_L2I_CACHE_REFILL),
	ARMV8_EVENT_ATTR(l3d_cache_allocate, ARMV8_PMUV3_PERFCTR_L3D_CACHE_ALLOCATE),
	ARMV8_EVENT_ATTR(l3d_cache_refill, ARMV8_PMUV3_PERFCTR_L3D_CACHE_REFILL),
	ARMV8_EVENT_ATTR(l3d_cache, ARMV8_PMUV3_PERFCTR_L3D_CACHE),
	ARMV8_EVENT_ATTR(l3d_cache_wb, ARMV8_PMUV3_PERFCTR_L3D_CACHE_WB),
	ARMV8_EVENT_ATTR(l2d_tlb_refill, ARMV8_PMUV3_PERFCTR_L2D_TLB_REFILL),
	ARMV8_EVENT_ATTR(l2i_tlb_refill, ARMV8_PMUV3_PERFCTR_L2I_TLB_REFILL),
	ARMV8_EVENT_ATTR(l2d_tlb, ARMV8_PMUV3_PERFCTR_L2D_TLB),
	ARMV8_EVENT_ATTR(l2i_tlb, ARMV8_PMUV3_PERFCTR_L2I_TLB),
	ARMV8_EVENT_ATTR(remote_access, ARMV8_PMUV3_PERFCTR_REMOTE_ACCESS),
	ARMV8_EVENT_ATTR(ll_cache, ARMV8_PMUV3_PERFCTR_LL_CACHE),
	ARMV8_EVENT_ATTR(ll_cache_miss, ARMV8_PMUV3_PERFCTR_LL_CACHE_MISS),
	ARMV8_EVENT_ATTR(dtlb_walk, ARMV8_PMUV3_PERFCTR_DTLB_WALK),
	ARMV8_EVENT_ATTR(itlb_walk, ARMV8_PMUV3_PERFCTR_ITLB_WALK),
	ARMV8_EVENT_ATTR(ll_cache_rd, ARMV8_PMUV3_PERFCTR_LL_CACHE_RD),
	ARMV8_EVENT_ATTR(ll_cache_miss_rd, ARMV8_PMUV3_PERFCTR_LL_CACHE_MISS_RD),
	ARMV8_EVENT_ATTR(remote_access_rd, ARMV8_PMUV3_PERFCTR_REMOTE_ACCESS_RD),
	ARMV8_EVENT_ATTR(l1d_cache_lmiss_rd, ARMV8_PMUV3_PERFCTR_L1D_CACHE_LMISS_RD),
	ARMV8_EVENT_ATTR(op_retired, ARMV8_PMUV3_PERFCTR_OP_RETIRED),
	ARMV8_EVENT_ATTR(op_spec, ARMV8_PMUV3_PERFCTR_OP_SPEC),
	ARMV8_EVENT_ATTR(stall, ARMV8_PMUV3_PERFCTR_STALL),
	ARMV8_EVENT_ATTR(stall_slot_backend, ARMV8_PMUV3_PERFCTR_STALL_SLOT_BACKEND),
	ARMV8_EVENT_ATTR(stall_slot_frontend, ARMV8_PMUV3_PERFCTR_STALL_SLOT_FRONTEND),
	ARMV8_EVENT_ATTR(stall_slot, ARMV8_PMUV3_PERFCTR_STALL_SLOT),
	ARMV8_EVENT_ATTR(sample_pop, ARMV8_SPE_PERFCTR_SAMPLE_POP),
	ARMV8_EVENT_ATTR(sample_feed, ARMV8_SPE_PERFCTR_SAMPLE_FEED),
	ARMV8_EVENT_ATTR(sample_filtrate, ARMV8_SPE_PERFCTR_SAMPLE_FILTRATE),
	ARMV8_EVENT_ATTR(sample_collision, ARMV8_SPE_PERFCTR_SAMPLE_COLLISION),
	ARMV8_EVENT_ATTR(cnt_cycles, ARMV8_AMU_PERFCTR_CNT_CYCLES),
	ARMV8_EVENT_ATTR(stall_backend_mem, ARMV8_AMU_PERFCTR_STALL_BACKEND_MEM),
	ARMV8_EVENT_ATTR(l1i_cache_lmiss, ARMV8_PMUV3_PERFCTR_L1I_CACHE_LMISS),
	ARMV8_EVENT_ATTR(l2d_cache_lmiss_rd, ARMV8_PMUV3_PERFCTR_L2D_CACHE_LMISS_RD),
	ARMV8_EVENT_ATTR(l2i_cache_lmiss, ARMV8_PMUV3_PERFCTR_L2I_CACHE_LMISS),
	ARMV8_EVENT_ATTR(l3d_cache_lmiss_rd, ARMV8_PMUV3_PERFCTR_L3D_CACHE_LMISS_RD),
	ARMV8_EVENT_ATTR(trb_wrap, ARMV8_PMUV3_PERFCTR_TRB_WRAP),
	ARMV8_EVENT_ATTR(trb_trig, ARMV8_PMUV3_PERFCTR_TRB_TRIG),
	ARMV8_EVENT_ATTR(trcextout0, ARMV8_PMUV3_PERFCTR_TRCEXTOUT0),
	ARMV8_EVENT_ATTR(trcextout1, ARMV8_PMUV3_PERFCTR_TRCEXTOUT1),
	ARMV8_EVENT_ATTR(trcextout2, ARMV8_PMUV3_PERFCTR_TRCEXTOUT2),
	ARMV8_EVENT_ATTR(trcextout3, ARMV8_PMUV3_PERFCTR_TRCEXTOUT3),
	ARMV8_EVENT_ATTR(cti_trigout4, ARMV8_PMUV3_PERFCTR_CTI_TRIGOUT4),
	ARMV8_EVENT_ATTR(cti_trigout5, ARMV8_PMUV3_PERFCTR_CTI_TRIGOUT5),
	ARMV8_EVENT_ATTR(cti_trigout6, ARMV8_PMUV3_PERFCTR_CTI_TRIGOUT6),
	ARMV8_EVENT_ATTR(cti_trigout7, ARMV8_PMUV3_PERFCTR_CTI_TRIGOUT7),
	ARMV8_EVENT_ATTR(ldst_align_lat, ARMV8_PMUV3_PERFCTR_LDST_ALIGN_LAT),
	ARMV8_EVENT_ATTR(ld_align_lat, ARMV8_PMUV3_PERFCTR_LD_ALIGN_LAT),
	ARMV8_EVENT_ATTR(st_align_lat, ARMV8_PMUV3_PERFCTR_ST_ALIGN_LAT),
	ARMV8_EVENT_ATTR(mem_access_checked, ARMV8_MTE_PERFCTR_MEM_ACCESS_CHECKED),
	ARMV8_EVENT_ATTR(mem_access_checked_rd, ARMV8_MTE_PERFCTR_MEM_ACCESS_CHECKED_RD),
	ARMV8_EVENT_ATTR(mem_access_checked_wr, ARMV8_MTE_PERFCTR_MEM_ACCESS_CHECKED_WR),
	NULL,
};

static umode_t armv8pmu_event_attr_is_visible(struct kobject *kobj,
					      struct attribute *attr,
					      int unused)
{
	struct device *dev = kobj_to_dev(kobj);
	struct arm_pmu *cpu_pmu = to_arm_pmu(dev_get_drvdata(dev));
	struct perf_pmu_events_attr *pmu_attr;

	pmu_attr = container_of(attr, struct perf_pmu_events_attr, attr.attr);
	return armv8pmu_event_implemented(cpu_pmu, pmu_attr->id) ?
	       attr->mode : 0;
}

static const struct attribute_group armv8_pmuv3_events_attr_group = {
	.name = "events",
	.attrs = armv8_pmuv3_event_attrs,
	.is_visible = armv8pmu_event_attr_is_visible,
};

/* format/<name>: "config:lo-hi" or "config1:bit", from the field table. */
static ssize_t armv8pmu_format_show(struct device *dev,
				    struct device_attribute *attr, char *page)
{
	struct dev_ext_attribute *eattr;
	const struct armv8pmu_cfg_field *field;
	int lo, hi;

	eattr = container_of(attr, struct dev_ext_attribute, attr);
	field = eattr->var;
	lo = __ffs64(field->mask);
	hi = fls64(field->mask) - 1;
	if (lo == hi)
		return sysfs_emit(page, "config%s:%d\n",
				  field->cfg ? "1" : "", lo);
	return sysfs_emit(page, "config%s:%d-%d\n", field->cfg ? "1" : "",
			  lo, hi);
}

static struct dev_ext_attribute armv8pmu_format_ext[ARRAY_SIZE(armv8pmu_cfg_fields)];
static struct attribute *armv8_pmuv3_format_attrs[ARRAY_SIZE(armv8pmu_cfg_fields) + 1];

static void armv8pmu_init_format_attrs(void)
{
	int i;

	if (armv8_pmuv3_format_attrs[0])
		return;
	for (i = 0; i < ARRAY_SIZE(armv8pmu_cfg_fields); i++) {
		struct dev_ext_attribute *ea = &armv8pmu_format_ext[i];

		sysfs_attr_init(&ea->attr.attr);
		ea->attr.attr.name = armv8pmu_cfg_fields[i].name;
		ea->attr.attr.mode = 0444;
		ea->attr.show = armv8pmu_format_show;
		ea->var = (void *)&armv8pmu_cfg_fields[i];
		armv8_pmuv3_format_attrs[i] = &ea->attr.attr;
	}
}

static const struct attribute_group armv8_pmuv3_format_attr_group = {
	.name = "format",
	.attrs = armv8_pmuv3_format_attrs,
};

static ssize_t slots_show(struct device *dev, struct device_attribute *attr,
			  char *page)
{
	struct arm_pmu *cpu_pmu = to_arm_pmu(dev_get_drvdata(dev));

	return sysfs_emit(page, "0x%08llx\n",
			  (u64)FIELD_GET(ARMV8_PMU_SLOTS, cpu_pmu->reg_pmmir));
}
static DEVICE_ATTR_RO(slots);

static ssize_t bus_slots_show(struct device *dev,
			      struct device_attribute *attr, char *page)
{
	struct arm_pmu *cpu_pmu = to_arm_pmu(dev_get_drvdata(dev));

	return sysfs_emit(page, "0x%08llx\n",
			  (u64)FIELD_GET(ARMV8_PMU_BUS_SLOTS, cpu_pmu->reg_pmmir));
}
static DEVICE_ATTR_RO(bus_slots);

/*
 * PMMIR_EL1.BUS_WIDTH is Log2(bytes) + 1: 0b0011 is 4 bytes, 0b1100 is
 * 2048.  0 means not specified; the other encodings are reserved, and
 * are reported as 0 rather than as a width.
 */
VISIBLE_IF_KUNIT u32 armv8pmu_bus_width_bytes(u8 enc)
{
	if (enc < 0b0011 || enc > 0b1100)
		return 0;
	return BIT(enc - 1);
}
EXPORT_SYMBOL_IF_KUNIT(armv8pmu_bus_width_bytes);

static ssize_t bus_width_show(struct device *dev,
			      struct device_attribute *attr, char *page)
{
	struct arm_pmu *cpu_pmu = to_arm_pmu(dev_get_drvdata(dev));
	u8 enc = FIELD_GET(ARMV8_PMU_BUS_WIDTH, cpu_pmu->reg_pmmir);

	return sysfs_emit(page, "0x%08x\n", armv8pmu_bus_width_bytes(enc));
}
static DEVICE_ATTR_RO(bus_width);

static ssize_t threshold_max_show(struct device *dev,
				  struct device_attribute *attr, char *page)
{
	struct arm_pmu *cpu_pmu = to_arm_pmu(dev_get_drvdata(dev));
	unsigned int thwidth = armv8pmu_thwidth(cpu_pmu);

	return sysfs_emit(page, "0x%08llx\n",
			  thwidth ? BIT_ULL(thwidth) - 1 : 0);
}
static DEVICE_ATTR_RO(threshold_max);

/* BRBE's records per sample; the file exists only where BRBE does. */
static ssize_t branches_show(struct device *dev,
			     struct device_attribute *attr, char *page)
{
	struct arm_pmu *cpu_pmu = to_arm_pmu(dev_get_drvdata(dev));

	return sysfs_emit(page, "%u\n", brbe_num_branch_records(cpu_pmu));
}
static DEVICE_ATTR_RO(branches);

static struct attribute *armv8_pmuv3_caps_attrs[] = {
	&dev_attr_branches.attr,
	&dev_attr_slots.attr,
	&dev_attr_bus_slots.attr,
	&dev_attr_bus_width.attr,
	&dev_attr_threshold_max.attr,
	NULL,
};

static umode_t armv8pmu_caps_is_visible(struct kobject *kobj,
					struct attribute *attr, int i)
{
	struct arm_pmu *cpu_pmu = to_arm_pmu(dev_get_drvdata(kobj_to_dev(kobj)));

	if (attr == &dev_attr_branches.attr && !brbe_num_branch_records(cpu_pmu))
		return 0;
	return attr->mode;
}

static const struct attribute_group armv8_pmuv3_caps_attr_group = {
	.name = "caps",
	.attrs = armv8_pmuv3_caps_attrs,
	.is_visible = armv8pmu_caps_is_visible,
};

/* events/, format/ and caps/ of a PMU being initialised. */
void armv8pmu_init_attr_groups(struct arm_pmu *cpu_pmu)
{
	armv8pmu_init_format_attrs();
	cpu_pmu->attr_groups[ARMPMU_ATTR_GROUP_EVENTS] = &armv8_pmuv3_events_attr_group;
	cpu_pmu->attr_groups[ARMPMU_ATTR_GROUP_FORMATS] = &armv8_pmuv3_format_attr_group;
	cpu_pmu->attr_groups[ARMPMU_ATTR_GROUP_CAPS] = &armv8_pmuv3_caps_attr_group;
}

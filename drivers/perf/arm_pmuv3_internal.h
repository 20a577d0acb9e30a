/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Between the PMUv3 driver's two units: arm_pmuv3_events.c, the event
 * ABI, which reads no register, and arm_pmuv3.c, which owns the PMU.
 * arm_pmuv3.c asks the event ABI what an event counts and which filters
 * it gets (event_init), and has it set up sysfs at probe; everything
 * else each unit keeps to itself.  Under KUnit, the suites in
 * tests/ see a few more internals of either unit (VISIBLE_IF_KUNIT).
 */
#ifndef __ARM_PMUV3_INTERNAL_H
#define __ARM_PMUV3_INTERNAL_H

#include <linux/perf/arm_pmu.h>
#include <linux/perf/arm_pmuv3.h>
#include <linux/perf/arm_pmuv3_filter.h>
#include <linux/types.h>

/*
 * What the PMU can do, as probed; passed in so config checks are pure.
 * The probe records it once, in struct arm_pmu's PMUv3 fields (pmuver,
 * reg_pmmir, avoid_pmccntr, which armpmu_register() completes for SMT
 * cores after our init, and the PMCEID bitmaps); arm_pmuv3_events.c
 * reads it from there into this at event_init and never calls back
 * into arm_pmuv3.c, so struct arm_pmu needs no copy of its own.
 */
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

/* A PMU for a DT compatible: its perf name and IMPDEF cache map. */
struct armv8pmu_core {
	const char *compatible;
	const char *name;
	const unsigned int (*cache_map)[PERF_COUNT_HW_CACHE_MAX]
				       [PERF_COUNT_HW_CACHE_OP_MAX]
				       [PERF_COUNT_HW_CACHE_RESULT_MAX];
};

/*
 * hw.flags: the event's host and guest types differ, so KVM switches
 * its counter (set with the filters at event init).  One of the
 * architecture's flags (PERF_EVENT_FLAG_ARCH), clear of arm_pmu's
 * ARMPMU_EVT_*.
 */
#define ARMV8PMU_EVT_SWITCHES	0x00100
static_assert((PERF_EVENT_FLAG_ARCH & ARMV8PMU_EVT_SWITCHES) == ARMV8PMU_EVT_SWITCHES);
static_assert(!(ARMV8PMU_EVT_SWITCHES &
		(ARMPMU_EVT_64BIT | ARMPMU_EVT_47BIT | ARMPMU_EVT_63BIT)));

/* The cores of arm_pmuv3_cores.h, as indices into armv8pmu_cores[]. */
#define ARMV8PMU_CORE(_name, ...)	ARMV8PMU_CORE_##_name,
enum armv8pmu_core_idx {
#include "arm_pmuv3_cores.h"
	ARMV8PMU_NR_CORES
};

extern const struct armv8pmu_core armv8pmu_cores[ARMV8PMU_NR_CORES];

/*
 * PMCCNTR_EL0 is not the CPU_CYCLES count on some cores (SMT; arm_pmu
 * sets avoid_pmccntr) and errata cores (set at probe): then no event
 * uses it, and EL0 gets no access to it.
 */
static inline bool armv8pmu_avoid_pmccntr(struct arm_pmu *cpu_pmu)
{
	return cpu_pmu->avoid_pmccntr;
}

/*
 * Whether the event counters are 64-bit: PMUv3p5 on an arm64 kernel.  A
 * 32-bit kernel accesses them 32 bits at a time, so it leaves PMCR.LP
 * clear and chains pairs for long events, as before PMUv3p5.
 */
static inline bool armv8pmu_has_long_counters(unsigned int pmuver)
{
	return IS_ENABLED(CONFIG_ARM64) && is_pmuv3p5(pmuver);
}

/*
 * map_event for @core: the event number @event counts, with its flags
 * (ARMPMU_EVT_64BIT, PERF_EVENT_FLAG_USER_READ_CNT) set, or -ENOENT (not
 * this PMU's), -EINVAL (malformed) or -EOPNOTSUPP (not on this PMU).
 */
int armv8pmu_map_core_event(struct perf_event *event,
			    const struct armv8pmu_core *core);

/* The filter an event gets in host and guest context (perf.rst), or an errno. */
int armv8pmu_attr_to_filter(const struct perf_event_attr *attr,
			    enum armv8pmu_host_mode mode,
			    struct armv8pmu_filter *filter);
int armv8pmu_check_guests(const struct perf_event_attr *attr, bool kvm);

/* The PMEVTYPER event and threshold fields of a checked raw config. */
u64 armv8pmu_attr_to_evtyper(const struct perf_event_attr *attr);
/* config1's threshold fields (format/threshold*): none asked, none to set. */
#define ARMV8PMU_CFG1_THRESHOLD	GENMASK_ULL(16, 2)

/* events/, format/ and caps/ of a PMU being initialised. */
void armv8pmu_init_attr_groups(struct arm_pmu *cpu_pmu);

/*
 * Whether an overflow interrupt, with overflow flags @pmovsr, has a
 * sample to take for the event on counter @irq_idx (its overflow flag),
 * in hw.state @hw_state: not once the perf core has stopped it.  One
 * counter's sample may throttle its whole group, stopping the others
 * before their turn in the same interrupt; a sample taken from one of
 * them then counts into its throttled state, and the core never restarts
 * the group.
 */
static inline bool armv8pmu_overflow_pending(u64 pmovsr, int irq_idx,
					     int hw_state)
{
	return (pmovsr & BIT_ULL(irq_idx)) && !(hw_state & PERF_HES_STOPPED);
}

#if IS_ENABLED(CONFIG_KUNIT)
/* arm_pmuv3.c: asking the machine, which the suites may redirect. */
enum armv8pmu_host_mode armv8pmu_host_mode(void);
bool armv8pmu_kvm_active(void);
/* arm_pmuv3.c: the counter(s) for an event, from and back to a used mask. */
int armv8pmu_alloc_counter(unsigned long *used_mask,
			   const unsigned long *cntr_mask,
			   const struct armv8pmu_alloc_req *req);
void armv8pmu_free_counter(unsigned long *used_mask, int idx, bool chained);
/* arm_pmuv3.c: counters a direct-PMU vCPU owns: what is left, when to resched. */
void armv8pmu_host_avail(unsigned long *avail, const unsigned long *cntr_mask, u64 owned);
bool armv8pmu_own_resched(u64 owned, u64 used, bool starved);

/* arm_pmuv3_events.c */
extern const unsigned int armv8pmu_nr_cores;
int armv8pmu_core_map_cache(const struct armv8pmu_core *core, u64 config);
int armv8pmu_check_raw_event(u64 config, const struct armv8pmu_caps *caps);
int armv8pmu_check_config1(const struct perf_event_attr *attr, u16 event,
			   const struct armv8pmu_caps *caps);
bool armv8pmu_attr_is_64bit(const struct perf_event_attr *attr,
			    const struct armv8pmu_caps *caps);
int armv8pmu_pick_mapping(int common, bool implemented, int core);
int armv8pmu_branch_event(bool br_retired, bool pc_write_retired);
u32 armv8pmu_bus_width_bytes(u8 enc);
#endif

#endif /* __ARM_PMUV3_INTERNAL_H */

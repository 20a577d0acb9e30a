/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The PMUv3 driver's client of the KVM perf-register service
 * (arm_pmuv3_hvc.c), as arm_pmuv3.c uses it.
 *
 * armv8pmu_hvc() says whether the driver, in a KVM guest, sends its PMU
 * register accesses through the service: a static branch, so that the
 * test costs a host one NOP, then, in a guest that uses the service, a
 * per-CPU flag that a CPU sets once the service has failed and it has
 * fallen back to trapped accesses.  Register IDs are <kvm/arm_pmu_hvc.h>'s
 * KVM_PERFREG_*; every call but armv8pmu_hvc_init() is made with IRQs
 * off, on the CPU whose PMU it accesses.  Without the client
 * (CONFIG_ARM_PMUV3_KVM_PERFREG=n: not arm64) armv8pmu_hvc() is false
 * and the rest are stubs.
 */
#ifndef __ARM_PMUV3_HVC_H
#define __ARM_PMUV3_HVC_H

#include <linux/jump_label.h>
#include <linux/percpu.h>
#include <linux/types.h>

struct arm_pmu;

#ifdef CONFIG_ARM_PMUV3_KVM_PERFREG
DECLARE_STATIC_KEY_FALSE(armv8pmu_hvc_key);
DECLARE_PER_CPU(bool, armv8pmu_hvc_trapped);

static inline bool armv8pmu_hvc(void)
{
	return static_branch_unlikely(&armv8pmu_hvc_key) &&
	       !this_cpu_read(armv8pmu_hvc_trapped);
}

/* At probe, in a KVM guest: turns armv8pmu_hvc() on if the service is used. */
void armv8pmu_hvc_init(struct arm_pmu *cpu_pmu);

/* Queue a write of register @id. */
void armv8pmu_hvc_write(u16 id, u64 val);

/* Event counter or cycle counter @idx (not the instruction counter). */
u64 armv8pmu_hvc_read_counter(int idx);
void armv8pmu_hvc_write_counter(int idx, u64 val);

/* PMCR_EL0: the write sends the queue when it sets E; the read is a copy. */
void armv8pmu_hvc_write_pmcr(u64 val);
u64 armv8pmu_hvc_pmcr(void);

/* The overflow interrupt: begin returns the overflowed counters' mask. */
u64 armv8pmu_hvc_irq_begin(void);
void armv8pmu_hvc_irq_end(void);

/* What the driver makes of a partial batch call's answer. */
enum armv8pmu_hvc_verdict {
	ARMV8PMU_HVC_DONE,	/* every entry carried out */
	ARMV8PMU_HVC_RESUME,	/* call again for the rest */
	ARMV8PMU_HVC_FAILED,	/* do the rest another way */
};

#if IS_ENABLED(CONFIG_KUNIT)
/* The client's decisions (arm_pmuv3_hvc.c), for its KUnit suite. */
bool armv8pmu_hvc_ends_batch(u64 val);
enum armv8pmu_hvc_verdict armv8pmu_hvc_verdict(long status, u64 failed,
					       u64 done, u64 sent, u64 *good);
enum armv8pmu_hvc_verdict
armv8pmu_hvc_send_calls(u64 nr, u64 *good,
			void (*call)(void *arg, u64 from, u64 count,
				     unsigned long *a),
			void *arg);
bool armv8pmu_hvc_version_ok(long a0);
#endif
#else
static inline bool armv8pmu_hvc(void)
{
	return false;
}

static inline void armv8pmu_hvc_init(struct arm_pmu *cpu_pmu) { }
static inline void armv8pmu_hvc_write(u16 id, u64 val) { }

static inline u64 armv8pmu_hvc_read_counter(int idx)
{
	return 0;
}

static inline void armv8pmu_hvc_write_counter(int idx, u64 val) { }
static inline void armv8pmu_hvc_write_pmcr(u64 val) { }

static inline u64 armv8pmu_hvc_pmcr(void)
{
	return 0;
}

static inline u64 armv8pmu_hvc_irq_begin(void)
{
	return 0;
}

static inline void armv8pmu_hvc_irq_end(void) { }
#endif

#endif /* __ARM_PMUV3_HVC_H */

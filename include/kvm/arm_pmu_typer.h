/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Writing a PMU counter's type: shared by the PMUv3 driver, KVM's VHE
 * switch and the nVHE world switch.  Apart from <kvm/arm_pmu_switch.h>
 * because <asm/arm_pmuv3.h> itself (through <asm/kvm_host.h>) includes
 * that one, which therefore cannot include <asm/arm_pmuv3.h>.
 */
#ifndef __KVM_ARM_PMU_TYPER_H
#define __KVM_ARM_PMU_TYPER_H

#include <linux/perf/arm_pmuv3.h>	/* and <asm/arm_pmuv3.h> after it */
#include <kvm/arm_pmu_switch_state.h>

#ifdef __KVM_NVHE_HYPERVISOR__
/*
 * At EL2 there is no WARN() (no printk) for PMEVN_SWITCH's bad index;
 * the hypervisor's indices are clamped to the implemented counters
 * before they get here, so an unknown one is simply not written.
 */
#define ARMV8PMU_HYP_WRITE_PMEVTYPERN(n)	write_sysreg(val, pmevtyper##n##_el0)

static inline void armv8pmu_write_pmevtypern(int idx, u64 val)
{
	switch (idx) {
	PMEVN_CASE(0, ARMV8PMU_HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(1, ARMV8PMU_HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(2, ARMV8PMU_HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(3, ARMV8PMU_HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(4, ARMV8PMU_HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(5, ARMV8PMU_HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(6, ARMV8PMU_HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(7, ARMV8PMU_HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(8, ARMV8PMU_HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(9, ARMV8PMU_HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(10, ARMV8PMU_HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(11, ARMV8PMU_HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(12, ARMV8PMU_HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(13, ARMV8PMU_HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(14, ARMV8PMU_HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(15, ARMV8PMU_HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(16, ARMV8PMU_HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(17, ARMV8PMU_HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(18, ARMV8PMU_HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(19, ARMV8PMU_HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(20, ARMV8PMU_HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(21, ARMV8PMU_HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(22, ARMV8PMU_HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(23, ARMV8PMU_HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(24, ARMV8PMU_HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(25, ARMV8PMU_HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(26, ARMV8PMU_HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(27, ARMV8PMU_HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(28, ARMV8PMU_HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(29, ARMV8PMU_HYP_WRITE_PMEVTYPERN);
	PMEVN_CASE(30, ARMV8PMU_HYP_WRITE_PMEVTYPERN);
	default:
		break;
	}
}
#else
#define armv8pmu_write_pmevtypern(idx, val)	write_pmevtypern(idx, val)
#endif

/*
 * The one writer of a counter's type, for the driver, KVM's VHE switch
 * and the nVHE world switch alike, with the one mask.  Direct
 * PMEVTYPER<n>_EL0 writes: no PMSELR_EL0 selection to synchronize.
 */
static inline void armv8pmu_write_typer(int idx, u64 val)
{
	val &= kvm_pmu_typer_mask(idx);
	if (idx == KVM_PMU_CYCLE_IDX)
		write_pmccfiltr(val);
	else if (idx == KVM_PMU_INSTR_IDX)
		write_pmicfiltr(val);
	else
		armv8pmu_write_pmevtypern(idx, val);
}

#endif /* __KVM_ARM_PMU_TYPER_H */

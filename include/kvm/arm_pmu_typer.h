/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Writing a PMU counter's type: shared by the PMUv3 driver and KVM's VHE
 * switch.  Apart from <kvm/arm_pmu_switch.h>
 * because <asm/arm_pmuv3.h> itself (through <asm/kvm_host.h>) includes
 * that one, which therefore cannot include <asm/arm_pmuv3.h>.
 */
#ifndef __KVM_ARM_PMU_TYPER_H
#define __KVM_ARM_PMU_TYPER_H

#include <linux/perf/arm_pmuv3.h>	/* and <asm/arm_pmuv3.h> after it */
#include <kvm/arm_pmu_switch_state.h>

/*
 * The one writer of a counter's type in the kernel, for the driver and
 * KVM's VHE switch alike, with the one mask.  Direct PMEVTYPER<n>_EL0
 * writes: no PMSELR_EL0 selection to synchronize.  (The nVHE world
 * switch writes types recorded already masked: hyp/pmu_switch.h.)
 */
static inline void armv8pmu_write_typer(int idx, u64 val)
{
	val &= kvm_pmu_typer_mask(idx);
	if (idx == KVM_PMU_CYCLE_IDX)
		write_pmccfiltr(val);
	else if (idx == KVM_PMU_INSTR_IDX)
		write_pmicfiltr(val);
	else
		write_pmevtypern(idx, val);
}

#endif /* __KVM_ARM_PMU_TYPER_H */

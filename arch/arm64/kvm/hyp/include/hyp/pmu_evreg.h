/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A PMU counter's value or type at EL2, by a run-time index.
 *
 * The index of PMEVCNTR<n>_EL0 and PMEVTYPER<n>_EL0 is part of the
 * instruction's encoding (CRm[1:0]:op2), so a run-time index takes a
 * switch over the 31 encodings.  <asm/arm_pmuv3.h>'s PMEVN_SWITCH WARNs
 * on a bad index, which EL2 cannot print (nVHE links no __warn_printk(),
 * and a WARN there is fatal); these have no default case and read 0 for
 * an index no register has.  Going through PMSELR_EL0 and PMXEVTYPER_EL0
 * instead would take an ISB between the two, and the selection in use
 * saved and put back.  The caller checks the index: below PMCR_EL0.N
 * (an event counter past N may UNDEF at EL2), or 31 (PMCCNTR_EL0 and
 * PMCCFILTR_EL0), or 32 (PMICNTR_EL0 and PMICFILTR_EL0) where
 * FEAT_PMUv3_ICNTR is implemented.
 */
#ifndef __ARM64_KVM_HYP_PMU_EVREG_H__
#define __ARM64_KVM_HYP_PMU_EVREG_H__

#include <asm/arm_pmuv3.h>
#include <asm/sysreg.h>
#include <linux/perf/arm_pmuv3.h>

/* A switch on @idx with case @M(n) for each event counter n. */
#define __PMU_EVREG_SWITCH(idx, M)					\
	do {								\
		switch (idx) {						\
		M(0);  M(1);  M(2);  M(3);  M(4);  M(5);  M(6);  M(7);	\
		M(8);  M(9);  M(10); M(11); M(12); M(13); M(14); M(15);	\
		M(16); M(17); M(18); M(19); M(20); M(21); M(22); M(23);	\
		M(24); M(25); M(26); M(27); M(28); M(29); M(30);	\
		}							\
	} while (0)

#define __PMU_READ_TYPER(n)	case n: return read_sysreg(pmevtyper##n##_el0)
#define __PMU_READ_CNTR(n)	case n: return read_sysreg(pmevcntr##n##_el0)
#define __PMU_WRITE_TYPER(n)	case n: write_sysreg(val, pmevtyper##n##_el0); return
#define __PMU_WRITE_CNTR(n)	case n: write_sysreg(val, pmevcntr##n##_el0); return

/* Counter @idx's type (@typer) or value. */
static inline u64 __pmu_evreg_read(unsigned int idx, bool typer)
{
	if (idx == ARMV8_PMU_CYCLE_IDX)
		return typer ? read_pmccfiltr() : read_pmccntr();
	if (idx == ARMV8_PMU_INSTR_IDX)
		return typer ? read_pmicfiltr() : read_pmicntr();
	if (typer)
		__PMU_EVREG_SWITCH(idx, __PMU_READ_TYPER);
	else
		__PMU_EVREG_SWITCH(idx, __PMU_READ_CNTR);
	return 0;
}

/* Write counter @idx's type (@typer) or value. */
static inline void __pmu_evreg_write(unsigned int idx, bool typer, u64 val)
{
	if (idx == ARMV8_PMU_CYCLE_IDX) {
		if (typer)
			write_pmccfiltr(val);
		else
			write_pmccntr(val);
		return;
	}
	if (idx == ARMV8_PMU_INSTR_IDX) {
		if (typer)
			write_pmicfiltr(val);
		else
			write_pmicntr(val);
		return;
	}
	if (typer)
		__PMU_EVREG_SWITCH(idx, __PMU_WRITE_TYPER);
	else
		__PMU_EVREG_SWITCH(idx, __PMU_WRITE_CNTR);
}

#undef __PMU_READ_TYPER
#undef __PMU_READ_CNTR
#undef __PMU_WRITE_TYPER
#undef __PMU_WRITE_CNTR
#undef __PMU_EVREG_SWITCH

#endif /* __ARM64_KVM_HYP_PMU_EVREG_H__ */

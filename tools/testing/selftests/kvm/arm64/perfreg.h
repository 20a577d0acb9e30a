/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The perf-register service as the KVM tests' guests call it
 * (Documentation/virt/kvm/arm/perf-registers.rst): function IDs, their
 * bits in KVM_REG_ARM_VENDOR_HYP_BMAP_2, statuses, register IDs and the
 * batch entry; and the PMU fields the tests' lists write.
 */
#ifndef PMUV3_KVM_PERFREG_H
#define PMUV3_KVM_PERFREG_H

#include "kvm_util.h"
#include "processor.h"

#define FN(n)		(0xc6000000U | (n))	/* SMC64 fast, owner 6 */
#define VERSION		FN(80)
#define GET		FN(81)
#define SET		FN(82)
#define BATCH		FN(83)
#define KVM_FEATURES	0x86000000U
#define BIT_VERSION	BIT(16)
#define BIT_GET		BIT(17)
#define BIT_SET		BIT(18)
#define BIT_BATCH	BIT(19)
#define ALL		(BIT_VERSION | BIT_GET | BIT_SET | BIT_BATCH)

#define VERSION_1_2	0x10002	/* 1.1 and the direct PMU's flag */
#define IDS_DIRECT	BIT(31)	/* VERSION's a1 (1.2): the vCPU's PMU is direct */
#define BUDGET		1024	/* units a batch call may spend */
#define PARTIAL		BIT(0)	/* BATCH flag: the caller resumes */

#define ST_OK		0
#define ST_NOT_SUPPORTED (-1L)
#define ST_INVALID	(-3L)
#define ST_NO_ACCESS	(-64L)

#define ID_PMCR		0x000
#define ID_PMCNTENSET	0x001
#define ID_PMCNTENCLR	0x002
#define ID_PMINTENSET	0x003
#define ID_PMINTENCLR	0x004
#define ID_PMOVSSET	0x005
#define ID_PMOVSCLR	0x006
#define ID_PMUSERENR	0x007
#define ID_PMSWINC	0x008
#define ID_PMCEID0	0x009
#define ID_PMCEID1	0x00a
#define ID_CNTR(n)	(0x100 + (n))
#define ID_TYPER(n)	(0x200 + (n))
#define CYCLE		31

#define OP_READ		0
#define OP_WRITE	1
#define OP_READ_CLEAR	2

struct perfreg_op {
	uint16_t id;
	uint8_t bank, op;
	int32_t status;
	uint64_t value;
};

#define INST_RETIRED	0x08
#define PMCR_E		BIT(0)
#define PMCR_P		BIT(1)
#define PMCR_C		BIT(2)

/* Guest side: the vPMU's event counters, PMCR_EL0.N. */
static inline uint64_t nr_counters(void)
{
	return (read_sysreg(pmcr_el0) >> 11) & 0x1f;
}

#endif /* PMUV3_KVM_PERFREG_H */

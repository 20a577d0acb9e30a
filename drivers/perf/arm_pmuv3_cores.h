/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every PMU the driver probes from DT, one row per compatible, in probe
 * table order: ARMV8PMU_CORE(name, compatible, cache map).  The name is
 * the PMU's sysfs name, which is ABI (user space and perf's JSON events
 * key on it), the cache map the core's IMPLEMENTATION DEFINED one, if it
 * has one.
 *
 * A list, not a header: it is included once for each thing built from it
 * (the core indices, in arm_pmuv3_internal.h; armv8pmu_cores[], which
 * KUnit checks, in arm_pmuv3_events.c; each core's init and map_event
 * callbacks and the probe table, in arm_pmuv3.c), with ARMV8PMU_CORE()
 * defined to that thing's row.  The list undefines it.
 */
#ifndef ARMV8PMU_CORE
#error "define ARMV8PMU_CORE(name, compatible, cache_map) before including this list"
#endif

ARMV8PMU_CORE(armv8_pmuv3,		"arm,armv8-pmuv3",	NULL)
ARMV8PMU_CORE(armv8_c1_nano,		"arm,c1-nano-pmu",	NULL)
ARMV8PMU_CORE(armv8_c1_premium,		"arm,c1-premium-pmu",	NULL)
ARMV8PMU_CORE(armv8_c1_pro,		"arm,c1-pro-pmu",	NULL)
ARMV8PMU_CORE(armv8_c1_ultra,		"arm,c1-ultra-pmu",	NULL)
ARMV8PMU_CORE(armv8_cortex_a34,		"arm,cortex-a34-pmu",	NULL)
ARMV8PMU_CORE(armv8_cortex_a35,		"arm,cortex-a35-pmu",	&armv8_a53_cache_map)
ARMV8PMU_CORE(armv8_cortex_a53,		"arm,cortex-a53-pmu",	&armv8_a53_cache_map)
ARMV8PMU_CORE(armv8_cortex_a55,		"arm,cortex-a55-pmu",	NULL)
ARMV8PMU_CORE(armv8_cortex_a57,		"arm,cortex-a57-pmu",	&armv8_a57_cache_map)
ARMV8PMU_CORE(armv8_cortex_a65,		"arm,cortex-a65-pmu",	NULL)
ARMV8PMU_CORE(armv8_cortex_a72,		"arm,cortex-a72-pmu",	&armv8_a57_cache_map)
ARMV8PMU_CORE(armv8_cortex_a73,		"arm,cortex-a73-pmu",	&armv8_a73_cache_map)
ARMV8PMU_CORE(armv8_cortex_a75,		"arm,cortex-a75-pmu",	NULL)
ARMV8PMU_CORE(armv8_cortex_a76,		"arm,cortex-a76-pmu",	NULL)
ARMV8PMU_CORE(armv8_cortex_a77,		"arm,cortex-a77-pmu",	NULL)
ARMV8PMU_CORE(armv8_cortex_a78,		"arm,cortex-a78-pmu",	NULL)
ARMV8PMU_CORE(armv9_cortex_a320,	"arm,cortex-a320-pmu",	NULL)
ARMV8PMU_CORE(armv9_cortex_a510,	"arm,cortex-a510-pmu",	NULL)
ARMV8PMU_CORE(armv9_cortex_a520,	"arm,cortex-a520-pmu",	NULL)
ARMV8PMU_CORE(armv9_cortex_a520ae,	"arm,cortex-a520ae-pmu", NULL)
ARMV8PMU_CORE(armv9_cortex_a710,	"arm,cortex-a710-pmu",	NULL)
ARMV8PMU_CORE(armv9_cortex_a715,	"arm,cortex-a715-pmu",	NULL)
ARMV8PMU_CORE(armv9_cortex_a720,	"arm,cortex-a720-pmu",	NULL)
ARMV8PMU_CORE(armv9_cortex_a720ae,	"arm,cortex-a720ae-pmu", NULL)
ARMV8PMU_CORE(armv9_cortex_a725,	"arm,cortex-a725-pmu",	NULL)
ARMV8PMU_CORE(armv8_cortex_x1,		"arm,cortex-x1-pmu",	NULL)
ARMV8PMU_CORE(armv9_cortex_x2,		"arm,cortex-x2-pmu",	NULL)
ARMV8PMU_CORE(armv9_cortex_x3,		"arm,cortex-x3-pmu",	NULL)
ARMV8PMU_CORE(armv9_cortex_x4,		"arm,cortex-x4-pmu",	NULL)
ARMV8PMU_CORE(armv9_cortex_x925,	"arm,cortex-x925-pmu",	NULL)
ARMV8PMU_CORE(armv8_neoverse_e1,	"arm,neoverse-e1-pmu",	NULL)
ARMV8PMU_CORE(armv8_neoverse_n1,	"arm,neoverse-n1-pmu",	NULL)
ARMV8PMU_CORE(armv9_neoverse_n2,	"arm,neoverse-n2-pmu",	NULL)
ARMV8PMU_CORE(armv9_neoverse_n3,	"arm,neoverse-n3-pmu",	NULL)
ARMV8PMU_CORE(armv8_neoverse_v1,	"arm,neoverse-v1-pmu",	NULL)
ARMV8PMU_CORE(armv8_neoverse_v2,	"arm,neoverse-v2-pmu",	NULL)
ARMV8PMU_CORE(armv8_neoverse_v3,	"arm,neoverse-v3-pmu",	NULL)
ARMV8PMU_CORE(armv8_neoverse_v3ae,	"arm,neoverse-v3ae-pmu", NULL)
ARMV8PMU_CORE(armv8_rainier,		"arm,rainier-pmu",	NULL)
ARMV8PMU_CORE(armv8_samsung_mongoose,	"samsung,mongoose-pmu",	NULL)
ARMV8PMU_CORE(armv8_cavium_thunder,	"cavium,thunder-pmu",	&armv8_thunder_cache_map)
ARMV8PMU_CORE(armv8_brcm_vulcan,	"brcm,vulcan-pmu",	&armv8_vulcan_cache_map)
ARMV8PMU_CORE(armv8_nvidia_carmel,	"nvidia,carmel-pmu",	NULL)
ARMV8PMU_CORE(armv8_nvidia_denver,	"nvidia,denver-pmu",	NULL)

#undef ARMV8PMU_CORE

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host-side helpers of the KVM PMU tests: KTAP results (kselftest.h),
 * one a check, perf_event_open() of one
 * member of an (all, host-only, guest-only) group, and the slack a guest
 * figure gets under QEMU.
 */
#ifndef PMUV3_KVM_PMU_TEST_H
#define PMUV3_KVM_PMU_TEST_H

#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest.h"
#include "test_util.h"

enum { SIDE_ALL, SIDE_HOST, SIDE_GUEST };

/*
 * The number of checks this program will report, printed first (KTAP):
 * a run that ends early or skips a check then shows as missing results,
 * not as a smaller tally.
 */
static inline void plan(int n)
{
	ksft_print_header();
	ksft_set_plan(n);
}

/* One named result, "what", after a diagnostic "# what: detail" line. */
static inline void check(bool ok, const char *what, const char *fmt, ...)
{
	va_list ap;

	printf("# %s: ", what);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	ksft_test_result(ok, "%s\n", what);
}

/*
 * Open instructions on this thread for one side of a split: all,
 * host-only (exclude_guest) or guest-only (exclude_host).  The leader
 * (group < 0) starts disabled; members follow it.
 */
static inline int perf_open_side(int side, int group, uint64_t read_format)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr), .type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_INSTRUCTIONS,
		.read_format = PERF_FORMAT_GROUP | read_format,
		.disabled = group < 0,
		.exclude_guest = side == SIDE_HOST,
		.exclude_host = side == SIDE_GUEST,
	};
	int fd = syscall(__NR_perf_event_open, &attr, 0, -1, group, 0);

	TEST_ASSERT(fd >= 0, "perf_event_open: %s", strerror(errno));
	return fd;
}

/*
 * The slack a guest figure gets.  QEMU (7.2 and 10.0) derives every
 * vCPU's counts from one clock, so while this vCPU waits for its turn its
 * counters take in the other vCPU's work (README, Known limits): with one
 * CPU online nothing else runs and the figure must be exact; with more,
 * it may be off by up to two_cpu_slack.
 */
static inline uint64_t qemu_slack(uint64_t two_cpu_slack)
{
	return sysconf(_SC_NPROCESSORS_ONLN) == 1 ? 0 : two_cpu_slack;
}

#endif /* PMUV3_KVM_PMU_TEST_H */

// SPDX-License-Identifier: GPL-2.0-only
/*
 * chain_group: a running chained event survives a sibling's open.
 *
 * Usage: chain_group PMU_TYPE	(a PMU before PMUv3p5: 32-bit counters)
 *
 * A 64-bit cycles event takes a chained pair of event counters when the
 * cycle counter is busy.  Opening a sibling into its group makes arm_pmu
 * validate the group on a scratch PMU, asking the driver for counters for
 * the running leader too: there the cycle counter is free.  The driver
 * must not take that answer as the leader's: if it did, the leader would
 * stop being chained while it holds a pair, read back as garbage (about
 * 2^63 more than it counted), and its removal could free only the low
 * counter, leaking the high one.  So the leader must read what it
 * counted (at least the loop it ran over, well under 2^40), and after
 * the group has gone a group of three 64-bit events (three pairs: all six
 * counters of a57) must still be scheduled.
 * Prints a PLAN line, then PASS/FAIL lines.
 */
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define LOOP		100000UL
#define CPU_CYCLES	0x11
#define INST_RETIRED	0x08
#define CFG1_LONG	1

static void __attribute__((noinline)) spin(unsigned long n)
{
	asm volatile("1:	subs	%0, %0, #1\n"
		     "	b.ne	1b\n" : "+r" (n) : : "cc");
}

static int open_event(uint32_t type, uint64_t config, uint64_t config1,
		      int group_fd)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.config1 = config1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_GROUP;
	return syscall(__NR_perf_event_open, &attr, 0, -1, group_fd, 0);
}

/* The group's time running and its leader's count, or -1 on error. */
static int read_group(int fd, uint64_t *running, uint64_t *count)
{
	uint64_t buf[8];

	if (read(fd, buf, sizeof(buf)) < (ssize_t)(3 * sizeof(uint64_t)))
		return -1;
	/* nr, time_running, then one value per member */
	*running = buf[1];
	*count = buf[2];
	return 0;
}

int main(int argc, char **argv)
{
	uint32_t type;
	uint64_t running = 0, count = 0;
	int busy, leader, sibling, pairs[3], i, ok;

	if (argc < 2) {
		fprintf(stderr, "usage: %s PMU_TYPE\n", argv[0]);
		return 2;
	}
	type = strtoul(argv[1], NULL, 0);
	printf("PLAN 3\n");

	/* The cycle counter taken, a 64-bit cycles leader takes a pair. */
	busy = open_event(type, CPU_CYCLES, 0, -1);
	leader = open_event(type, CPU_CYCLES, CFG1_LONG, -1);
	spin(LOOP);
	sibling = open_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS,
			     0, leader);
	printf("%s sibling_opened: busy %d, leader %d, sibling %d\n",
	       busy >= 0 && leader >= 0 && sibling >= 0 ? "PASS" : "FAIL",
	       busy, leader, sibling);
	spin(LOOP);
	ok = leader >= 0 && !read_group(leader, &running, &count);
	printf("%s leader_counts: running %llu, cycles %llu (at least %lu, under 2^40)\n",
	       ok && running && count >= 2 * LOOP && count < (1ULL << 40) ?
	       "PASS" : "FAIL",
	       (unsigned long long)running, (unsigned long long)count,
	       2 * LOOP);
	close(sibling);
	close(leader);
	close(busy);

	/* Every counter free again: three pairs fit. */
	pairs[0] = open_event(type, INST_RETIRED, CFG1_LONG, -1);
	pairs[1] = open_event(type, INST_RETIRED, CFG1_LONG, pairs[0]);
	pairs[2] = open_event(type, INST_RETIRED, CFG1_LONG, pairs[0]);
	spin(LOOP);
	ok = pairs[0] >= 0 && pairs[1] >= 0 && pairs[2] >= 0 &&
	     !read_group(pairs[0], &running, &count);
	printf("%s three_pairs_fit: running %llu, instructions %llu (a leaked counter leaves 0)\n",
	       ok && running && count ? "PASS" : "FAIL",
	       (unsigned long long)running, (unsigned long long)count);
	for (i = 0; i < 3; i++)
		close(pairs[i]);
	return 0;
}

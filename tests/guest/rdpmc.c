// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdpmc: user-space counter access through the perf mmap page.
 *
 * Usage: rdpmc PMU_TYPE [chained]
 *
 * Opens INST_RETIRED at EL0 with rdpmc=1 (config1:1) and maps it.  With
 * kernel.perf_user_access=0 the page must offer no counter (index 0);
 * with 1 it must, and the counter read with PMSELR_EL0/PMXEVCNTR_EL0 at
 * EL0 must advance by a known loop exactly as read() does.  An EL0 read
 * the kernel did not grant (PMUSERENR_EL0) traps: that is a FAIL line,
 * not a killed program.
 *
 * With "chained" (a PMU before PMUv3p5, whose 64-bit events use chained
 * pairs): a 64-bit user-readable cycles event opened while the cycle
 * counter is taken must not be handed to EL0 as a chained pair; it may
 * only wait (index 0) for PMCCNTR_EL0.
 * Prints PASS/FAIL lines.
 */
#include <linux/perf_event.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define LOOP	100000UL
#define CYCLE_IDX	31

static void __attribute__((noinline)) spin(unsigned long n)
{
	asm volatile("1:	subs	%0, %0, #1\n"
		     "	b.ne	1b\n" : "+r" (n) : : "cc");
}

static void set_user_access(int on)
{
	FILE *f = fopen("/proc/sys/kernel/perf_user_access", "w");

	if (f) {
		fprintf(f, "%d\n", on);
		fclose(f);
	}
}

static uint64_t read_pmc(unsigned int counter)
{
	uint64_t val;

	if (counter == CYCLE_IDX) {
		asm volatile("mrs %0, pmccntr_el0" : "=r" (val));
		return val;
	}
	asm volatile("msr pmselr_el0, %0\n isb\n mrs %1, pmxevcntr_el0"
		     : : "r" ((uint64_t)counter), "r" (0));
	asm volatile("mrs %0, pmxevcntr_el0" : "=r" (val));
	return val;
}

static sigjmp_buf trapped;

static void on_sigill(int sig)
{
	siglongjmp(trapped, 1);
}

/*
 * The mmap-page protocol: retry while the kernel updates the page.
 * Return: the count, or -1 when the page offers no counter.  An EL0
 * read that traps lands at the caller's sigsetjmp().
 */
static int64_t user_read(volatile struct perf_event_mmap_page *pc)
{
	uint32_t seq, idx;
	int64_t count;

	do {
		seq = pc->lock;
		asm volatile("" ::: "memory");
		idx = pc->index;
		count = pc->offset;
		if (idx)
			count += read_pmc(idx - 1) &
				 (pc->pmc_width == 64 ? ~0ULL :
				  (1ULL << pc->pmc_width) - 1);
		asm volatile("" ::: "memory");
	} while (pc->lock != seq);
	return idx ? count : -1;
}

static int open_mapped(uint32_t type, uint64_t config, uint64_t config1,
		       struct perf_event_mmap_page **pc)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr), .type = type, .config = config,
		.config1 = config1, .exclude_kernel = 1, .exclude_hv = 1,
	};
	int fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);

	if (fd < 0)
		return -1;
	*pc = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);
	return *pc == MAP_FAILED ? -1 : fd;
}

static int open_cycles(uint32_t type)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr), .type = type, .config = 0x11,
		.exclude_kernel = 1, .exclude_hv = 1, .pinned = 1,
	};

	return syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
}

/* long=1,rdpmc=1 cycles while a pinned cycles event holds PMCCNTR. */
static void check_never_chained(uint32_t type)
{
	struct perf_event_mmap_page *pc;
	int busy = open_cycles(type);
	int fd = open_mapped(type, 0x11, 0x3, &pc);
	int64_t v;

	if (busy < 0 || fd < 0) {
		printf("FAIL rdpmc_never_chained: cannot open the events\n");
		return;
	}
	spin(LOOP);
	v = sigsetjmp(trapped, 1) ? -2 : user_read(pc);
	printf("%s rdpmc_never_chained: index %u, width %u (0, or 32 for PMCCNTR: never a pair), read %lld\n",
	       pc->index == 0 || pc->index == CYCLE_IDX + 1 ? "PASS" : "FAIL",
	       pc->index, pc->pmc_width, (long long)v);
	close(fd);
	close(busy);
}

int main(int argc, char **argv)
{
	uint32_t type = argc > 1 ? strtoul(argv[1], NULL, 0) : 8;
	bool chained = argc > 2 && !strcmp(argv[2], "chained");
	struct perf_event_mmap_page *pc;
	int64_t a, b, delta;
	int fd, i;

	printf("PLAN %d\n", chained ? 3 : 2);
	fflush(stdout);
	signal(SIGILL, on_sigill);
	set_user_access(0);
	fd = open_mapped(type, 0x08, 0x2, &pc);
	if (fd < 0) {
		printf("FAIL rdpmc open: cannot open and map the event\n");
		return 0;
	}
	spin(10);
	printf("%s rdpmc off: index %u, cap_user_rdpmc %u (sysctl 0)\n",
	       pc->index == 0 && !pc->cap_user_rdpmc ? "PASS" : "FAIL",
	       pc->index, (unsigned int)pc->cap_user_rdpmc);
	close(fd);

	set_user_access(1);
	fd = open_mapped(type, 0x08, 0x2, &pc);
	/* least of three: QEMU may credit an interrupt handler to EL0 */
	delta = INT64_MAX;
	i = 0;
	if (sigsetjmp(trapped, 1)) {
		delta = -2;	/* an offered counter could not be read */
		i = 3;
	}
	for (; i < 3; i++) {
		spin(10);
		a = user_read(pc);
		spin(LOOP);
		b = user_read(pc);
		if (a < 0 || b < 0) {
			delta = a < 0 ? a : b;
			break;
		}
		if (b - a < delta)
			delta = b - a;
	}
	if (delta == -2)
		printf("FAIL rdpmc on: index %u offered, but the EL0 read trapped (no PMUSERENR grant)\n",
		       pc->index);
	else
		printf("%s rdpmc on: index %u, width %u, EL0 reads advance %lld over a %lu-instruction loop\n",
		       delta >= (int64_t)(2 * LOOP) &&
		       delta <= (int64_t)(2 * LOOP) + 64 ? "PASS" : "FAIL",
		       pc->index, pc->pmc_width, (long long)delta, 2 * LOOP);
	close(fd);
	if (chained)
		check_never_chained(type);
	set_user_access(0);
	return 0;
}

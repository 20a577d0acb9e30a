// SPDX-License-Identifier: GPL-2.0-only
/*
 * hotpath - what perf's hot paths cost on this kernel, per operation
 *
 *	hotpath all|switch|chained [SUFFIX]
 *
 * Prints "BENCH <row>[SUFFIX] <least> <spread>" lines for make bench
 * (tests/guest/hotpath.sh, mk/bench.sh).  Every figure is instructions
 * per operation, taken from the clock: under QEMU's -icount shift=0 the
 * virtual clock advances exactly 1 ns per instruction retired, at every
 * EL, so CLOCK_MONOTONIC read around a loop counts the loop's EL0, EL1
 * and EL2 instructions without taking a PMU counter from the workload
 * (the rows with 7 events need all of them).  "clock_vs_pmu" checks the
 * premise against a CPU-wide instructions event over a known loop.
 *
 * Each figure is the difference between a loop of N2 and one of N1
 * operations, divided by N2 - N1, so that the loop's fixed costs cancel;
 * the least of RUNS such differences, and their spread (largest minus
 * least), since an interrupt can land in any run.  Everything runs on
 * CPU 0.  Rows:
 *
 *  switch_K       a pipe round trip between two threads, each with K
 *                 events of its own (cycles, then instructions; 12
 *                 multiplex), per context switch
 *  read_K         read() of a group of K (cycles + K-1 instructions)
 *  enable_K, disable_K, reset_K
 *                 PERF_EVENT_IOC_ENABLE/DISABLE/RESET on that group,
 *                 each call timed on its own (the clock's own cost,
 *                 measured, is taken off)
 *  open_K         perf_event_open() of that group, then close()
 *  overflow_K     K cycles:u sampling events (period 20,000, one group,
 *                 so they overflow together: IP, TID, TIME, PERIOD into
 *                 a ring buffer, as perf record -c does), per interrupt:
 *                 the loop sampling minus the same loop counting only
 *  throttle_K_*   K such events at period 1,000 with perf's default
 *                 limits: samples, THROTTLE and LOST records per
 *                 1,000,000 cycles
 *  rdpmc          one user-space read of a counter through its mmap
 *                 page (kernel.perf_user_access=1)
 *  chained rows (32-bit counters): switch_long_K, read_long_K with K
 *                 64-bit (long=1) instructions events, chained pairs
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define RUNS		7
#define MAX_EVENTS	12
#define RING_PAGES	256
#define PERIOD		20000ULL
#define ARMV8_CFG1_LONG	1ULL	/* config1:0, the PMU's "long" format field */
#define ARMV8_CFG1_RDPMC 2ULL	/* config1:1, "rdpmc" */

static const char *suffix = "";
static int pmu_type;		/* armv8_pmuv3's, for long=1 */

static void fail(const char *what)
{
	perror(what);
	exit(1);
}

static uint64_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void spin(unsigned long n)
{
	/* Two instructions per iteration. */
	asm volatile("1:	subs	%0, %0, #1\n"
		     "	b.ne	1b\n" : "+r" (n) : : "cc");
}

struct ev {
	uint32_t type;
	uint64_t config, config1;
	uint64_t period;
	bool user_only;
};

static int open_ev(const struct ev *e, int group, int cpu, pid_t pid)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr), .type = e->type,
		.config = e->config, .config1 = e->config1,
		.read_format = PERF_FORMAT_GROUP,
		.disabled = group < 0,
		.sample_period = e->period,
		.sample_type = e->period ? PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			       PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD : 0,
		.exclude_kernel = e->user_only, .exclude_hv = e->user_only,
	};
	int fd = syscall(__NR_perf_event_open, &attr, pid, cpu, group, 0);

	if (fd < 0)
		fail("perf_event_open");
	return fd;
}

/*
 * The i-th event of a set: cycles first, then instructions; or all
 * INST_RETIRED with long=1 (a chained pair on a PMU before PMUv3p5).
 */
static struct ev nth_ev(int i, bool long_counter)
{
	if (long_counter)
		return (struct ev){ .type = pmu_type, .config = 0x08,
				    .config1 = ARMV8_CFG1_LONG };
	return (struct ev){ .type = PERF_TYPE_HARDWARE,
			    .config = i ? PERF_COUNT_HW_INSTRUCTIONS :
					  PERF_COUNT_HW_CPU_CYCLES };
}

/* K events on this thread, as one group (-1: separate events). */
static void open_set(int *fds, int k, bool grouped, bool long_counter)
{
	int i;

	for (i = 0; i < k; i++) {
		struct ev e = nth_ev(i, long_counter);

		fds[i] = open_ev(&e, grouped && i ? fds[0] : -1, -1, 0);
		if (!grouped || !i)
			ioctl(fds[i], PERF_EVENT_IOC_ENABLE, 0);
	}
}

static void close_set(int *fds, int k)
{
	while (k--)
		close(fds[k]);
}

/* ---- the operations: each returns the clock time of its N-loop ---- */

struct op {
	int k;
	bool long_counter;
};

struct pingpong {
	const struct op *op;
	long n;
	int rd, wr;
};

static void *pong(void *arg)
{
	struct pingpong *p = arg;
	int fds[MAX_EVENTS];
	char c;
	long i;

	open_set(fds, p->op->k, false, p->op->long_counter);
	for (i = 0; i < p->n + 1; i++)
		if (read(p->rd, &c, 1) != 1 || write(p->wr, &c, 1) != 1)
			fail("pong");
	close_set(fds, p->op->k);
	return NULL;
}

/* N round trips, timed after one to get both threads' events in place. */
static uint64_t op_switch(const struct op *op, long n)
{
	int ping[2], back[2], fds[MAX_EVENTS];
	struct pingpong p = { .op = op, .n = n };
	uint64_t t0 = 0, t1;
	pthread_t t;
	char c = 0;
	long i;

	if (pipe(ping) || pipe(back))
		fail("pipe");
	p.rd = ping[0];
	p.wr = back[1];
	open_set(fds, op->k, false, op->long_counter);
	if (pthread_create(&t, NULL, pong, &p))
		fail("pthread_create");
	for (i = 0; i < n + 1; i++) {
		if (i == 1)
			t0 = now();
		if (write(ping[1], &c, 1) != 1 || read(back[0], &c, 1) != 1)
			fail("ping");
	}
	t1 = now();
	pthread_join(t, NULL);
	close_set(fds, op->k);
	close(ping[0]); close(ping[1]); close(back[0]); close(back[1]);
	return t1 - t0;
}

static uint64_t op_read(const struct op *op, long n)
{
	uint64_t buf[1 + MAX_EVENTS], t0, t1;
	int fds[MAX_EVENTS];

	open_set(fds, op->k, true, op->long_counter);
	t0 = now();
	while (n--)
		if (read(fds[0], buf, sizeof(buf)) < 0)
			fail("read");
	t1 = now();
	close_set(fds, op->k);
	return t1 - t0;
}

static uint64_t op_open(const struct op *op, long n)
{
	int fds[MAX_EVENTS];
	uint64_t t0 = now();

	while (n--) {
		int i;

		for (i = 0; i < op->k; i++) {
			struct ev e = nth_ev(i, false);

			fds[i] = open_ev(&e, i ? fds[0] : -1, -1, 0);
		}
		close_set(fds, op->k);
	}
	return now() - t0;
}

/* The clock's own cost, read twice in a row. */
static uint64_t clock_cost(long n)
{
	uint64_t sum = 0;
	long i;

	for (i = 0; i < n; i++) {
		uint64_t t0 = now();

		sum += now() - t0;
	}
	return sum;
}

enum ioc { IOC_ENABLE, IOC_DISABLE, IOC_RESET };

/*
 * One kind of ioctl on a group, each call between two clock reads: the
 * calls alternate (enable, disable; reset on an enabled group), and only
 * the asked-for kind is summed.
 */
static uint64_t op_ioctl(const struct op *op, long n, enum ioc which)
{
	static const unsigned long req[] = {
		PERF_EVENT_IOC_ENABLE, PERF_EVENT_IOC_DISABLE,
		PERF_EVENT_IOC_RESET,
	};
	int fds[MAX_EVENTS];
	uint64_t sum = 0;
	long i;

	open_set(fds, op->k, true, false);
	if (which == IOC_RESET)
		ioctl(fds[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	for (i = 0; i < n; i++) {
		uint64_t t0, t1;

		if (which == IOC_DISABLE)
			ioctl(fds[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
		t0 = now();
		ioctl(fds[0], req[which], PERF_IOC_FLAG_GROUP);
		t1 = now();
		sum += t1 - t0;
		if (which == IOC_ENABLE)
			ioctl(fds[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	}
	close_set(fds, op->k);
	return sum - clock_cost(n);
}

static uint64_t op_enable(const struct op *op, long n)
{
	return op_ioctl(op, n, IOC_ENABLE);
}

static uint64_t op_disable(const struct op *op, long n)
{
	return op_ioctl(op, n, IOC_DISABLE);
}

static uint64_t op_reset(const struct op *op, long n)
{
	return op_ioctl(op, n, IOC_RESET);
}

/* rdpmc through the first mmap page: the seqlock loop perf documents. */
static uint64_t op_rdpmc(const struct op *op, long n)
{
	struct ev e = { .type = pmu_type, .config = 0x08,
			.config1 = ARMV8_CFG1_RDPMC, .user_only = true };
	struct perf_event_mmap_page *pc;
	uint64_t t0, t1, sum = 0;
	int fd = open_ev(&e, -1, -1, 0);

	pc = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);
	if (pc == MAP_FAILED)
		fail("mmap");
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	if (!pc->cap_user_rdpmc || !pc->index)
		fail("rdpmc not offered (kernel.perf_user_access=1?)");
	t0 = now();
	while (n--) {
		uint32_t seq, idx;
		uint64_t count;

		do {
			seq = __atomic_load_n(&pc->lock, __ATOMIC_ACQUIRE);
			idx = pc->index;
			count = pc->offset;
			if (idx == 32)
				asm volatile("mrs %0, pmccntr_el0" : "=r" (count));
			else if (idx) {
				uint64_t v;

				asm volatile("msr pmselr_el0, %1\n"
					     "isb\n"
					     "mrs %0, pmxevcntr_el0"
					     : "=r" (v) : "r" ((uint64_t)idx - 1));
				count += v;
			}
		} while (__atomic_load_n(&pc->lock, __ATOMIC_ACQUIRE) != seq);
		sum += count;
	}
	t1 = now();
	munmap(pc, sysconf(_SC_PAGESIZE));
	close(fd);
	return sum ? t1 - t0 : 0;
}

/* PERF_RECORD_* of one type in a ring buffer that never wrapped. */
static long count_records(struct perf_event_mmap_page *page, uint32_t type)
{
	char *data = (char *)page + page->data_offset;
	uint64_t head = __atomic_load_n(&page->data_head, __ATOMIC_ACQUIRE);
	uint64_t off = 0;
	long n = 0;

	if (head > page->data_size)
		fail("ring buffer wrapped");
	while (off < head) {
		struct perf_event_header *h = (void *)(data + off);

		n += h->type == type;
		off += h->size;
	}
	return n;
}

struct sampling {
	int k;
	uint64_t period;	/* 0: counting only */
	long samples, throttles, lost;
};

/* K cycles:u events, one group, over a loop of n * PERIOD cycles. */
static uint64_t run_sampling(struct sampling *s, long n)
{
	size_t len = (1 + RING_PAGES) * sysconf(_SC_PAGESIZE);
	struct ev e = { .type = PERF_TYPE_HARDWARE,
			.config = PERF_COUNT_HW_CPU_CYCLES,
			.period = s->period, .user_only = true };
	void *rings[7] = { 0 };
	int fds[7], i;
	uint64_t t0, t1;

	for (i = 0; i < s->k; i++) {
		fds[i] = open_ev(&e, i ? fds[0] : -1, -1, 0);
		if (!s->period)
			continue;
		rings[i] = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
				fds[i], 0);
		if (rings[i] == MAP_FAILED)
			fail("mmap");
	}
	t0 = now();
	ioctl(fds[0], PERF_EVENT_IOC_ENABLE, 0);
	spin(n * PERIOD / 2);
	ioctl(fds[0], PERF_EVENT_IOC_DISABLE, 0);
	t1 = now();
	s->samples = s->throttles = s->lost = 0;
	for (i = s->k - 1; i >= 0; i--) {
		if (rings[i]) {
			s->samples += count_records(rings[i], PERF_RECORD_SAMPLE);
			s->throttles += count_records(rings[i], PERF_RECORD_THROTTLE);
			s->lost += count_records(rings[i], PERF_RECORD_LOST);
			munmap(rings[i], len);
		}
		close(fds[i]);
	}
	return t1 - t0;
}

/* ---- figures ---- */

typedef uint64_t (*op_fn)(const struct op *op, long n);

static void report(const char *name, double least, double spread)
{
	printf("BENCH %s%s %.1f %.1f\n", name, suffix, least, spread);
	fflush(stdout);
}

struct runs {
	uint64_t least, most;
};

/* RUNS runs of one loop: an interrupt only ever adds to a run. */
static struct runs runs_of(op_fn fn, const struct op *op, long n)
{
	struct runs r = { UINT64_MAX, 0 };
	int i;

	for (i = 0; i < RUNS; i++) {
		uint64_t t = fn(op, n);

		if (t < r.least)
			r.least = t;
		if (t > r.most)
			r.most = t;
	}
	return r;
}

/*
 * Per operation: the least run of N2 operations minus the least of N1,
 * over N2 - N1.  The spread is how far the N2 runs range, per operation.
 */
static void figure(const char *name, op_fn fn, const struct op *op,
		   long n1, long n2, int units)
{
	struct runs a = runs_of(fn, op, n1), b = runs_of(fn, op, n2);

	report(name, ((double)b.least - (double)a.least) / ((n2 - n1) * units),
	       (double)(b.most - b.least) / (n2 * units));
}

/* Per-call ioctls and rdpmc are timed call by call: no second loop. */
static void figure_direct(const char *name, op_fn fn, const struct op *op,
			  long n)
{
	struct runs r = runs_of(fn, op, n);

	report(name, (double)r.least / n, (double)(r.most - r.least) / n);
}

static void switch_rows(bool long_counter)
{
	static const int ks[] = { 0, 1, 4, 7, 12 }, longs[] = { 1, 3 };
	char name[64];
	int i;

	for (i = 0; i < (long_counter ? 2 : 5); i++) {
		struct op op = { .k = long_counter ? longs[i] : ks[i],
				 .long_counter = long_counter };

		snprintf(name, sizeof(name), long_counter ? "switch_long_%d" :
			 "switch_%d", op.k);
		figure(name, op_switch, &op, 200, 1200, 2);
	}
}

static void read_rows(bool long_counter)
{
	static const int ks[] = { 1, 4, 7 }, longs[] = { 1, 3 };
	char name[64];
	int i;

	for (i = 0; i < (long_counter ? 2 : 3); i++) {
		struct op op = { .k = long_counter ? longs[i] : ks[i],
				 .long_counter = long_counter };

		snprintf(name, sizeof(name), long_counter ? "read_long_%d" :
			 "read_%d", op.k);
		figure(name, op_read, &op, 200, 1200, 1);
	}
}

static void set_sysctl(const char *name, const char *value)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/sys/kernel/%s", name);
	f = fopen(path, "w");
	if (!f || fputs(value, f) < 0 || fclose(f))
		fail(path);
}

/*
 * Per interrupt, K events overflowing together: each sampling run less
 * the least counting-only run of the same loop, over that run's
 * interrupts (its samples / K: QEMU delivers some overflow interrupts
 * late, so runs take different numbers of them); least and spread.
 */
static void overflow_row(int k)
{
	uint64_t t[RUNS], tc = UINT64_MAX;
	double least = 1e30, most = 0;
	long irqs[RUNS];
	char name[64];
	int r;

	for (r = 0; r < RUNS; r++) {
		struct sampling s = { .k = k, .period = PERIOD };
		struct sampling c = { .k = k };
		uint64_t u;

		t[r] = run_sampling(&s, 200);
		irqs[r] = s.samples / k;
		u = run_sampling(&c, 200);
		if (u < tc)
			tc = u;
	}
	for (r = 0; r < RUNS; r++) {
		double v = ((double)t[r] - (double)tc) / irqs[r];

		if (v < least)
			least = v;
		if (v > most)
			most = v;
	}
	snprintf(name, sizeof(name), "overflow_%d", k);
	report(name, least, most - least);
}

/* perf's default limits, at a period far below what they allow. */
static void throttle_rows(int k)
{
	struct sampling s = { .k = k, .period = 1000 };
	long mcycles = 20;
	char name[64];

	set_sysctl("perf_cpu_time_max_percent", "25");
	set_sysctl("perf_event_max_sample_rate", "100000");
	run_sampling(&s, mcycles * 1000000 / PERIOD);
	snprintf(name, sizeof(name), "throttle_%d_samples", k);
	report(name, (double)s.samples / mcycles, 0);
	snprintf(name, sizeof(name), "throttle_%d_throttles", k);
	report(name, (double)s.throttles / mcycles, 0);
	snprintf(name, sizeof(name), "throttle_%d_lost", k);
	report(name, (double)s.lost / mcycles, 0);
	set_sysctl("perf_cpu_time_max_percent", "0");
}

/* The premise: clock ns = instructions, against a CPU-wide counter. */
static void clock_check(void)
{
	struct ev e = { .type = PERF_TYPE_HARDWARE,
			.config = PERF_COUNT_HW_INSTRUCTIONS };
	uint64_t buf[2], t0, t1;
	int fd = open_ev(&e, -1, 0, -1);

	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	t0 = now();
	spin(5000000);
	t1 = now();
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, buf, sizeof(buf)) != sizeof(buf))
		fail("read");
	close(fd);
	printf("BENCH clock_vs_pmu%s %.5f 0\n", suffix, (double)(t1 - t0) / buf[1]);
}

static int read_pmu_type(void)
{
	FILE *f = fopen("/sys/bus/event_source/devices/armv8_pmuv3/type", "r");
	int t = -1;

	if (!f || fscanf(f, "%d", &t) != 1)
		fail("armv8_pmuv3/type");
	fclose(f);
	return t;
}

int main(int argc, char **argv)
{
	cpu_set_t cpu0;
	int k;

	if (argc < 2) {
		fprintf(stderr, "usage: hotpath all|switch|chained|open [SUFFIX]\n");
		return 2;
	}
	if (argc > 2)
		suffix = argv[2];
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0))
		fail("sched_setaffinity");
	pmu_type = read_pmu_type();
	set_sysctl("perf_cpu_time_max_percent", "0");
	clock_check();

	if (!strcmp(argv[1], "switch")) {
		switch_rows(false);
		return 0;
	}
	/* Only the open rows: a loop to profile the event-init path with. */
	if (!strcmp(argv[1], "open")) {
		for (k = 1; k <= 7; k += 6) {
			struct op op = { .k = k };
			char name[64];

			snprintf(name, sizeof(name), "open_%d", k);
			figure(name, op_open, &op, 50, 250, 1);
		}
		return 0;
	}
	if (!strcmp(argv[1], "chained")) {
		switch_rows(true);
		read_rows(true);
		return 0;
	}
	switch_rows(false);
	read_rows(false);
	for (k = 1; k <= 7; k += 6) {
		struct op op = { .k = k };
		char name[64];

		snprintf(name, sizeof(name), "enable_%d", k);
		figure_direct(name, op_enable, &op, 1000);
		snprintf(name, sizeof(name), "disable_%d", k);
		figure_direct(name, op_disable, &op, 1000);
		snprintf(name, sizeof(name), "reset_%d", k);
		figure_direct(name, op_reset, &op, 1000);
		snprintf(name, sizeof(name), "open_%d", k);
		figure(name, op_open, &op, 50, 250, 1);
	}
	for (k = 1; k <= 7; k++)
		overflow_row(k);
	throttle_rows(1);
	throttle_rows(7);
	set_sysctl("perf_user_access", "1");
	figure_direct("rdpmc", op_rdpmc, &(struct op){ 0 }, 10000);
	set_sysctl("perf_user_access", "0");
	return 0;
}

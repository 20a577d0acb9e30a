// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpmu_ops - repeat one perf operation N times, for measuring what it
 * costs a KVM guest's virtual PMU (tests/guest/vpmu_bench.sh counts the
 * host's side around two runs of different N).
 *
 *	vpmu_ops read K N      N reads (read(), PERF_FORMAT_GROUP) of a group
 *	                       of cycles and K instructions events: what
 *	                       perf stat -I does each interval
 *	vpmu_ops open N        N times: open one instructions event disabled,
 *	                       enable it, close it
 *	vpmu_ops switch K N    N pipe round trips between two threads, each
 *	                       with K events of its own (cycles, then up to
 *	                       6 instructions): 2N context switches
 *	vpmu_ops overflow N    cycles:u sampling at a period of 100,000 (IP,
 *	                       TID, TIME, PERIOD into a ring buffer, as perf
 *	                       record -c does) over a loop of N periods;
 *	                       prints "samples=S"
 *	vpmu_ops spin N        the same loop, the event counting only
 *
 * Exits 1 with a message if any perf call fails.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PERIOD		100000UL
#define RING_PAGES	256	/* 1 MiB: every sample of a run fits */

static void fail(const char *what)
{
	perror(what);
	exit(1);
}

static int open_event(uint64_t config, int group, uint64_t read_format,
		      uint64_t period)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr), .type = PERF_TYPE_HARDWARE,
		.config = config, .read_format = read_format,
		.disabled = group < 0,
		.exclude_kernel = !!period, .exclude_hv = !!period,
		.sample_period = period,
		.sample_type = period ? PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			       PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD : 0,
	};
	int fd = syscall(__NR_perf_event_open, &attr, 0, -1, group, 0);

	if (fd < 0)
		fail("perf_event_open");
	return fd;
}

static void spin(unsigned long n)
{
	/* Two instructions (and about two cycles) per iteration. */
	asm volatile("1:	subs	%0, %0, #1\n"
		     "	b.ne	1b\n" : "+r" (n) : : "cc");
}

static void op_read(int k, long n)
{
	uint64_t buf[2 + 2 * 8];
	int leader = open_event(PERF_COUNT_HW_CPU_CYCLES, -1,
				PERF_FORMAT_GROUP, 0);
	int i;

	for (i = 0; i < k; i++)
		open_event(PERF_COUNT_HW_INSTRUCTIONS, leader, PERF_FORMAT_GROUP, 0);
	ioctl(leader, PERF_EVENT_IOC_ENABLE, 0);
	while (n--)
		if (read(leader, buf, sizeof(buf)) < 0)
			fail("read");
	if (buf[0] != (uint64_t)k + 1)
		fail("group size");
}

static void op_open(long n)
{
	while (n--) {
		int fd = open_event(PERF_COUNT_HW_INSTRUCTIONS, -1, 0, 0);

		if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
			fail("enable");
		close(fd);
	}
}

struct pingpong {
	int k;
	long n;
	int rd, wr;
};

static void open_task_events(int k)
{
	int i;

	for (i = 0; i < k; i++) {
		int fd = open_event(i ? PERF_COUNT_HW_INSTRUCTIONS :
				    PERF_COUNT_HW_CPU_CYCLES, -1, 0, 0);

		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	}
}

static void *pong(void *arg)
{
	struct pingpong *p = arg;
	char c;
	long i;

	open_task_events(p->k);
	for (i = 0; i < p->n; i++)
		if (read(p->rd, &c, 1) != 1 || write(p->wr, &c, 1) != 1)
			fail("pong");
	return NULL;
}

static void op_switch(int k, long n)
{
	int ping[2], back[2];
	struct pingpong p;
	pthread_t t;
	char c = 0;
	long i;

	if (pipe(ping) || pipe(back))
		fail("pipe");
	p = (struct pingpong){ .k = k, .n = n, .rd = ping[0], .wr = back[1] };
	open_task_events(k);
	if (pthread_create(&t, NULL, pong, &p))
		fail("pthread_create");
	for (i = 0; i < n; i++)
		if (write(ping[1], &c, 1) != 1 || read(back[0], &c, 1) != 1)
			fail("ping");
	pthread_join(t, NULL);
}

/* PERF_RECORD_SAMPLE records in the ring buffer (it never wraps here). */
static long count_samples(struct perf_event_mmap_page *page)
{
	char *data = (char *)page + page->data_offset;
	uint64_t head = __atomic_load_n(&page->data_head, __ATOMIC_ACQUIRE);
	uint64_t off = 0;
	long samples = 0;

	if (head > page->data_size)
		fail("ring buffer wrapped");
	while (off < head) {
		struct perf_event_header *h = (void *)(data + off);

		samples += h->type == PERF_RECORD_SAMPLE;
		off += h->size;
	}
	return samples;
}

static void op_loop(long n, int sampling)
{
	size_t len = (1 + RING_PAGES) * sysconf(_SC_PAGESIZE);
	int fd = open_event(PERF_COUNT_HW_CPU_CYCLES, -1, 0,
			    sampling ? PERIOD : 0);
	void *ring = NULL;

	if (sampling) {
		ring = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (ring == MAP_FAILED)
			fail("mmap");
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	spin(n * PERIOD / 2);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (sampling)
		printf("samples=%ld\n", count_samples(ring));
}

int main(int argc, char **argv)
{
	cpu_set_t cpu0;

	if (argc < 3) {
		fprintf(stderr, "usage: vpmu_ops read K N | open N | switch K N | overflow N | spin N\n");
		return 2;
	}
	/* Both ping-pong threads on one CPU: every round trip switches. */
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	sched_setaffinity(0, sizeof(cpu0), &cpu0);

	if (!strcmp(argv[1], "read") && argc > 3)
		op_read(atoi(argv[2]), atol(argv[3]));
	else if (!strcmp(argv[1], "open"))
		op_open(atol(argv[2]));
	else if (!strcmp(argv[1], "switch") && argc > 3)
		op_switch(atoi(argv[2]), atol(argv[3]));
	else if (!strcmp(argv[1], "overflow"))
		op_loop(atol(argv[2]), 1);
	else if (!strcmp(argv[1], "spin"))
		op_loop(atol(argv[2]), 0);
	else
		return 2;
	return 0;
}

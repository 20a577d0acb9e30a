// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_attr: a bounded perf_event_open fuzzer for the PMUv3 driver.
 *
 * Usage: fuzz_attr PMU_TYPE COUNT SEED [SAMPLING [FIRST [TRACE]]]
 * (SAMPLING 0: counting attrs only; attrs FIRST..COUNT-1 only, each
 * printed to stderr when TRACE is set)
 *
 * Each round builds a random perf_event_attr for our PMU type, the raw
 * type or the generic hardware/cache types: random config/config1/config2
 * (biased towards the format's fields and their edges), every exclude_*
 * bit, every sample type with periods and frequencies, inherit, pinned,
 * exclusive, and now and then a group of hardware and software events;
 * one in eight counts a whole CPU instead of this thread.  What opens is
 * enabled, run (a sampling event for a few periods, half of them into a
 * ring buffer; an inherited one now and then with a child process),
 * read, reset and closed while a workload thread runs.  The
 * kernel must not WARN, oops or stall (the boot test reads the console);
 * every failure must be an errno the ABI allows; a control event opened
 * before and after must count a known loop exactly.
 *
 * Prints "fuzz_attr: N attrs, O opened, errno histogram", the sampling
 * figures, and a PASS/FAIL line per check.
 */
#define _GNU_SOURCE
#include <errno.h>
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
#include <sys/wait.h>
#include <unistd.h>

#define PAGE_SIZE	4096UL

#define LOOP_ITERS	100000UL

static volatile int stop;
static int sampling, trace;
static uint64_t state;

static uint64_t rnd(void)
{
	/* xorshift64*: small, seedable, reproducible */
	state ^= state >> 12;
	state ^= state << 25;
	state ^= state >> 27;
	return state * 0x2545F4914F6CDD1DULL;
}

/* What an event counts: this thread (pid 0, cpu -1) or a whole CPU. */
struct target {
	pid_t pid;
	int cpu;
};

static const struct target this_thread = { .pid = 0, .cpu = -1 };

static int perf_open(struct perf_event_attr *attr, struct target t,
		     int group)
{
	return syscall(__NR_perf_event_open, attr, t.pid, t.cpu, group, 0);
}

#define CONTROL_SLACK	200

static int in_range(long long count)
{
	return count >= (long long)(2 * LOOP_ITERS) &&
	       count <= (long long)(2 * LOOP_ITERS) + CONTROL_SLACK;
}

static void __attribute__((noinline)) spin(unsigned long n)
{
	asm volatile("1:	subs	%0, %0, #1\n"
		     "	b.ne	1b\n" : "+r" (n) : : "cc");
}

static void *workload(void *arg)
{
	while (!stop)
		spin(1000);
	return NULL;
}

/* instructions:u around spin(): must be exactly 2 * LOOP_ITERS + small. */
static long long control_once(void)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr), .type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_INSTRUCTIONS, .disabled = 1,
		.exclude_kernel = 1, .exclude_hv = 1,
	};
	long long before, after;
	int fd = perf_open(&attr, this_thread, -1);

	if (fd < 0)
		return -1;
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	if (read(fd, &before, sizeof(before)) != sizeof(before))
		return -1;
	spin(LOOP_ITERS);
	if (read(fd, &after, sizeof(after)) != sizeof(after))
		return -1;
	close(fd);
	return after - before;
}

/* A config value: mostly near the ABI's fields, sometimes anything. */
static uint64_t random_config(void)
{
	switch (rnd() % 6) {
	case 0: return rnd();
	case 1: return rnd() & 0xffff;
	case 2: return rnd() & 0x3f;
	case 3: return 0x4000 + (rnd() & 0x3f);
	case 4: return 1ULL << (rnd() % 64);
	default: return rnd() & 0x1ffff;
	}
}

/*
 * The least of three: QEMU 7.2 now and then credits a whole interrupt
 * handler (~2,400 instructions) to the EL it interrupted.
 */
static long long control_count(void)
{
	long long best = -1, v;
	int i;

	for (i = 0; i < 3; i++) {
		v = control_once();
		if (v >= 0 && (best < 0 || v < best))
			best = v;
	}
	return best;
}

/* The sampling half of an attr: type, side fields, period or frequency. */
static void random_sampling(struct perf_event_attr *attr, uint64_t bits)
{
	/*
	 * Half the time what perf record asks for, half the time any
	 * of the sample types the ABI defines; their side fields too.
	 */
	attr->sample_type = rnd() & (bits & 0x8000000 ?
		PERF_SAMPLE_MAX - 1 :
		PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_CPU |
		PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN |
		PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_READ);
	attr->sample_regs_user = rnd() & ((bits & 0x400000) ? ~0ULL :
					   (1ULL << 33) - 1);
	attr->sample_stack_user = (rnd() % 4) * 4096 + (bits & 0x800000 ? 8 : 0);
	attr->sample_max_stack = rnd() % 160;
	attr->sample_id_all = !!(bits & 0x1000000);
	attr->precise_ip = (bits >> 25) & 3;
	/* half of them on events QEMU's PMU counts, so they overflow */
	if (bits & 0x10000000) {
		attr->type = PERF_TYPE_HARDWARE;
		attr->config = rnd() & 1 ? PERF_COUNT_HW_INSTRUCTIONS :
					   PERF_COUNT_HW_CPU_CYCLES;
	}
	/*
	 * A frequency above kernel.perf_event_max_sample_rate is
	 * EINVAL, and the kernel lowers that limit when overflow
	 * handlers run long: how many of these open varies a little
	 * from boot to boot, though the attrs do not.
	 */
	if (bits & 0x200000) {
		attr->freq = 1;
		attr->sample_freq = 100 + rnd() % 20000;
	} else {
		attr->sample_period = 1000 + rnd() % 100000;
	}
}

static void random_attr(struct perf_event_attr *attr, uint32_t pmu_type)
{
	static const uint32_t types[] = {
		PERF_TYPE_HARDWARE, PERF_TYPE_HW_CACHE, PERF_TYPE_RAW, 0,
	};
	uint64_t bits = rnd();

	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = types[rnd() % 4] ?: pmu_type;
	attr->config = random_config();
	if (attr->type == PERF_TYPE_HARDWARE)
		attr->config %= PERF_COUNT_HW_MAX + 2;
	attr->config1 = bits & 1 ? random_config() : 0;
	attr->config2 = (bits & 0x6) == 0x6 ? rnd() : 0;
	attr->exclude_user = !!(bits & 0x10);
	attr->exclude_kernel = !!(bits & 0x20);
	attr->exclude_hv = !!(bits & 0x40);
	attr->exclude_idle = (bits & 0xf00) == 0xf00;
	attr->exclude_host = !!(bits & 0x1000);
	attr->exclude_guest = !!(bits & 0x2000);
	attr->inherit = !!(bits & 0x4000);
	attr->pinned = (bits & 0x18000) == 0x18000;
	attr->exclusive = (bits & 0x60000) == 0x60000;
	attr->disabled = !!(bits & 0x80000);
	if (sampling && (bits & 0x100000))
		random_sampling(attr, bits);
	attr->read_format = rnd() & (PERF_FORMAT_TOTAL_TIME_ENABLED |
				     PERF_FORMAT_TOTAL_TIME_RUNNING |
				     PERF_FORMAT_ID);
}

/*
 * The fuzzing thread and the workload share CPU 0, taking turns through
 * the scheduler (so events are scheduled in and out under load).  Not
 * on two CPUs: QEMU 7.2 with -icount runs vCPUs in turn and derives each
 * vCPU's cycle and instruction counts from one global clock, so an
 * EL0-only event on a vCPU that waits at EL0 for its turn counts the
 * other vCPU's work.  A sampling event then overflows on the other
 * vCPU's instructions, on the stock kernel as on ours, and the fuzzing
 * thread makes almost no progress (README, Known limits).
 */
static void pin_to_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("fuzz_attr: sched_setaffinity");
}

/*
 * The errnos an attr may get, by what it asks for.  EINVAL (malformed)
 * fits any attr; each other errno only an attr that gives it a reason:
 * ENOENT a generic event (the PMU may not have it, never our own or the
 * raw type), EOVERFLOW a callchain deeper than the kernel allows,
 * EOPNOTSUPP something this PMU cannot do (exclude_idle, guest-only
 * counting, config1's threshold or a chained rdpmc, branch records or
 * precise sampling), EBUSY an exclusive or pinned event.  As root with
 * perf_event_paranoid -1, EACCES and EPERM fit none.
 */
static bool errno_fits(const struct perf_event_attr *a, int e)
{
	bool generic = a->type == PERF_TYPE_HARDWARE ||
		       a->type == PERF_TYPE_HW_CACHE;
	bool sampling = a->sample_period != 0;

	switch (e) {
	case EINVAL:
		return true;
	case ENOENT:
		return generic;
	case EOVERFLOW:
		return sampling && (a->sample_type & PERF_SAMPLE_CALLCHAIN);
	case EOPNOTSUPP:
		return a->exclude_idle || a->exclude_host || a->config1 ||
		       (sampling && (a->precise_ip ||
				     (a->sample_type & PERF_SAMPLE_BRANCH_STACK)));
	case EBUSY:
		return a->exclusive || a->pinned;
	default:
		return false;
	}
}

static unsigned long bad_errno;

static unsigned long sampled, mapped, sample_bytes, cpu_wide, children;

/* A child that inherits this thread's events, works a little and exits. */
static void run_child(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		spin(10000);
		_exit(0);
	}
	if (pid > 0 && waitpid(pid, NULL, 0) == pid)
		children++;
}

/*
 * Enable, run, read, reset, disable.  A sampling event runs a few of its
 * periods, so that it overflows and the interrupt handler, the period
 * reset and the kernel's throttling all run, and half of them write
 * their samples into a ring buffer.
 */
static void exercise(int fd, const struct perf_event_attr *attr, int map)
{
	size_t len = 3 * PAGE_SIZE;
	unsigned long loop = 200;
	struct perf_event_mmap_page *page = MAP_FAILED;
	uint64_t buf[8];

	if (attr->sample_period) {
		sampled++;
		loop = attr->freq ? 200000 : 3 * attr->sample_period;
		if (map)
			page = mmap(NULL, len, PROT_READ | PROT_WRITE,
				    MAP_SHARED, fd, 0);
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	spin(loop);
	if (attr->inherit && rnd() % 4 == 0)
		run_child();
	if (read(fd, buf, sizeof(buf)) < 0 && errno != ENOSPC)
		perror("read");
	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (page != MAP_FAILED) {
		mapped++;
		sample_bytes += page->data_head;
		if (trace)
			fprintf(stderr, "S loop %lu head %llu\n", loop,
				(unsigned long long)page->data_head);
		munmap(page, len);
	}
}

/* One attr in eight counts a whole CPU, 0 or 1, rather than this thread. */
static struct target random_target(void)
{
	struct target t = this_thread;

	if (rnd() % 8 == 0) {
		t.pid = -1;
		t.cpu = rnd() % 2;
	}
	return t;
}

static void print_attr(unsigned long i, const struct perf_event_attr *attr,
		       struct target t)
{
	fprintf(stderr, "A %lu pid %d cpu %d type %u config %#llx c1 %#llx c2 %#llx xu%d xk%d xhv%d xH%d xG%d inh%d pin%d exc%d dis%d period %llu freq %d st %#llx rf %#llx\n",
		i, t.pid, t.cpu, attr->type, (unsigned long long)attr->config,
		(unsigned long long)attr->config1,
		(unsigned long long)attr->config2, attr->exclude_user,
		attr->exclude_kernel, attr->exclude_hv, attr->exclude_host,
		attr->exclude_guest, attr->inherit, attr->pinned,
		attr->exclusive, attr->disabled,
		(unsigned long long)attr->sample_period, attr->freq,
		(unsigned long long)attr->sample_type,
		(unsigned long long)attr->read_format);
}

/*
 * Attr i of the run: open it, now and then with a sibling (hardware or
 * software) in its group, exercise it and close it.  Returns -1 if it
 * opened, else the errno.  Each attr comes from its own seed, so any
 * one can be replayed alone.
 */
static int fuzz_one(uint64_t seed, unsigned long i, uint32_t pmu_type)
{
	struct perf_event_attr attr, sib;
	struct target t;
	int fd, sfd = -1, e;

	state = (seed ^ (i * 0x9E3779B97F4A7C15ULL)) ?: 1;
	random_attr(&attr, pmu_type);
	t = random_target();
	if (trace)
		print_attr(i, &attr, t);
	fd = perf_open(&attr, t, -1);
	if (fd < 0) {
		e = errno;
		if (!errno_fits(&attr, e)) {
			/* The first few in full, to replay them alone. */
			if (bad_errno++ < 5) {
				printf("fuzz_attr: errno %d (%s) does not fit attr %lu:\n",
				       e, strerror(e), i);
				print_attr(i, &attr, t);
			}
		}
		return e;
	}
	if (t.cpu >= 0)
		cpu_wide++;
	if (rnd() % 4 == 0) {
		random_attr(&sib, pmu_type);
		if (rnd() & 1) {
			sib.type = PERF_TYPE_SOFTWARE;
			sib.config = PERF_COUNT_SW_TASK_CLOCK;
		}
		sib.pinned = sib.exclusive = 0;
		sfd = perf_open(&sib, t, fd);
	}
	exercise(fd, &attr, rnd() & 1);
	if (sfd >= 0)
		close(sfd);
	close(fd);
	return -1;
}

int main(int argc, char **argv)
{
	uint32_t pmu_type = argc > 1 ? strtoul(argv[1], NULL, 0) : 8;
	unsigned long count = argc > 2 ? strtoul(argv[2], NULL, 0) : 100000;
	uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 0) : 1;
	unsigned long first = argc > 5 ? strtoul(argv[5], NULL, 0) : 0;
	unsigned long i, opened = 0, hist[160] = { 0 };
	long long control_before, control_after;
	pthread_t thread;
	int e;

	sampling = argc > 4 ? atoi(argv[4]) : 1;
	trace = argc > 6 && atoi(argv[6]);

	printf("PLAN %d\n", sampling ? 3 : 2);
	fflush(stdout);
	pin_to_cpu0();
	state = seed ?: 1;
	control_before = control_count();
	pthread_create(&thread, NULL, workload, NULL);

	for (i = first; i < count; i++) {
		e = fuzz_one(seed, i, pmu_type);
		if (e < 0) {
			opened++;
			continue;
		}
		hist[e < 160 ? e : 0]++;
	}
	stop = 1;
	pthread_join(thread, NULL);
	control_after = control_count();

	printf("fuzz_attr: seed %llu, %lu attrs, %lu opened (%lu CPU-wide, %lu children under inherit); errnos:",
	       (unsigned long long)seed, count, opened, cpu_wide, children);
	for (e = 0; e < 160; e++)
		if (hist[e])
			printf(" %s=%lu", strerror(e), hist[e]);
	printf("\n");
	printf("%s errnos: %lu that the attr gave no reason for\n",
	       bad_errno ? "FAIL" : "PASS", bad_errno);
	if (sampling)
		printf("%s sampling: %lu sampling events run, %lu with a ring buffer, %lu bytes of records\n",
		       sample_bytes ? "PASS" : "FAIL", sampled, mapped,
		       sample_bytes);
	/*
	 * The count includes the C library's read() around the loop, which
	 * takes a few more instructions once the process has had a thread.
	 */
	printf("%s control event: before %lld, after %lld (loop %lu, slack %d)\n",
	       in_range(control_before) && in_range(control_after) ?
	       "PASS" : "FAIL", control_before, control_after,
	       2 * LOOP_ITERS, CONTROL_SLACK);
	return 0;
}

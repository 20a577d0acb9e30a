// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmu_stress - host events come and go while a vCPU runs
 *
 * The vCPU thread measures a long guest run (EL1 loop, EL0 loop and an
 * in-kernel hypercall per round) with a pinned group of instruction
 * events: all, host-only and guest-only.  Meanwhile, and only while the
 * vCPU is in KVM_RUN, another thread opens events on the vCPU thread
 * with random exclusions (so that the perf core adds, enables, reads and
 * removes them by IPI while the vCPU is loaded or in the guest), up to
 * three at a time, with a fixed seed.  Each such IPI under QEMU -icount
 * waits for the round-robin turn of the vCPU it targets, so a run of
 * 50,000 rounds sees about 20 operations, half of them opens; the
 * program checks that they happened and overlapped the run, so that a
 * run where they did not cannot pass.  The kernel must not WARN or oops
 * (the boot test watches the console) and the pinned group must still
 * partition exactly: all = host-only + guest-only.
 */
#include <linux/perf_event.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kvm_util.h"
#include "processor.h"
#include "test_util.h"
#include "ucall_common.h"

#include "guest_loops.h"
#include "pmu_test.h"

#define SEED		20261202u
#define OPERATIONS	3000
#define MAX_LIVE	3

static const uint64_t rounds = 50000, n1 = 2000, n0 = 2000;
static volatile bool guest_done, in_guest_run;
static pid_t vcpu_tid;
/* Churn events opened, and of those, opened while the vCPU was in KVM_RUN. */
static uint64_t opened, opened_in_run;

static int perf_open(struct perf_event_attr *attr, pid_t pid, int group)
{
	attr->size = sizeof(*attr);
	return syscall(__NR_perf_event_open, attr, pid, -1, group, 0);
}

/* Random events on the vCPU thread: open, enable, read, reset, close. */
static void *churn(void *arg)
{
	unsigned int seed = SEED;
	int live[MAX_LIVE] = { -1, -1, -1 };
	uint64_t *ops = arg;
	int i, slot;

	/* Churn only while the vCPU is in KVM_RUN: that is what is tested. */
	while (!in_guest_run && !guest_done)
		;
	for (i = 0; i < OPERATIONS && in_guest_run; i++, (*ops)++) {
		uint32_t r = rand_r(&seed);
		struct perf_event_attr attr = {
			.type = PERF_TYPE_HARDWARE,
			.config = r & 1 ? PERF_COUNT_HW_INSTRUCTIONS :
					  PERF_COUNT_HW_CPU_CYCLES,
			.exclude_user = !!(r & 2), .exclude_kernel = !!(r & 4),
			.exclude_hv = !!(r & 8), .exclude_host = !!(r & 16),
			.exclude_guest = !!(r & 32), .disabled = !!(r & 64),
		};
		uint64_t val;

		slot = (r >> 8) % MAX_LIVE;
		if (live[slot] >= 0) {
			TEST_ASSERT(read(live[slot], &val, sizeof(val)) == sizeof(val),
				    "read churn event");
			close(live[slot]);
			live[slot] = -1;
			continue;
		}
		live[slot] = perf_open(&attr, vcpu_tid, -1);
		if (live[slot] < 0)
			continue;	/* e.g. exclude_* this PMU refuses */
		opened++;
		opened_in_run += in_guest_run;
		ioctl(live[slot], r & 128 ? PERF_EVENT_IOC_RESET :
					    PERF_EVENT_IOC_ENABLE, 0);
	}
	for (slot = 0; slot < MAX_LIVE; slot++)
		if (live[slot] >= 0)
			close(live[slot]);
	return NULL;
}

int main(void)
{
	struct perf_event_attr attr = { };
	uint64_t buf[4], ops = 0;
	struct kvm_vcpu *vcpu;
	struct kvm_vm *vm;
	struct ucall uc;
	pthread_t thread;
	int fds[3], s;
	int64_t diff;

	vm = vm_create_with_one_vcpu(&vcpu, guest_rounds);
	guest_loops_setup(vm, vcpu);
	vcpu_args_set(vcpu, 3, rounds, n1, n0);
	vcpu_tid = syscall(__NR_gettid);

	for (s = 0; s < 3; s++) {
		attr = (struct perf_event_attr) {
			.type = PERF_TYPE_HARDWARE,
			.config = PERF_COUNT_HW_INSTRUCTIONS,
			.read_format = PERF_FORMAT_GROUP,
			.disabled = s == 0, .pinned = s == 0,
			.exclude_guest = s == 1, .exclude_host = s == 2,
		};
		fds[s] = perf_open(&attr, 0, s ? fds[0] : -1);
		__TEST_REQUIRE(fds[s] >= 0, "perf_event_open: %s", strerror(errno));
	}

	plan(3);
	pthread_create(&thread, NULL, churn, &ops);
	ioctl(fds[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	in_guest_run = true;
	vcpu_run(vcpu);
	in_guest_run = false;
	ioctl(fds[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	guest_done = true;
	pthread_join(thread, NULL);

	TEST_ASSERT(get_ucall(vcpu, &uc) == UCALL_DONE, "guest did not finish");
	TEST_ASSERT(read(fds[0], buf, sizeof(buf)) == sizeof(buf), "read group");
	diff = buf[1] - buf[2] - buf[3];
	printf("pmu_stress: %lu churn operations (seed %u) during %lu guest rounds\n",
	       ops, SEED, rounds);
	printf("pmu_stress: all=%lu host-only=%lu guest-only=%lu\n",
	       buf[1], buf[2], buf[3]);
	check(diff == 0, "partition under churn", "all - host - guest = %ld", diff);
	/* The churn must have happened, and while the guest ran, to test anything. */
	check(opened >= 5, "churn events opened", "%lu of %lu operations opened an event",
	      opened, ops);
	check(opened_in_run * 10 >= opened * 9, "churn overlapped the guest",
	      "%lu of %lu events opened while the vCPU was in KVM_RUN",
	      opened_in_run, opened);
	for (s = 2; s >= 0; s--)
		close(fds[s]);
	kvm_vm_free(vm);
	ksft_finished();
}

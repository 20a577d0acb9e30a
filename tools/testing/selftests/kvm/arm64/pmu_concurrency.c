// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmu_concurrency - host/guest splits under multiplexing, migration and
 * CPU hotplug
 *
 * Two vCPUs of one VM run on their own threads (QEMU -smp 2).  Each
 * thread opens three groups of (all, host-only, guest-only) instruction
 * events on itself: nine events for six counters, so the groups are
 * multiplexed.  Meanwhile a third thread moves the vCPU threads between
 * CPUs with sched_setaffinity() and takes CPU 1 offline and back online,
 * a bounded number of times.  Every group must partition exactly in its
 * raw counts (all members of a group run together); the scaled counts
 * and enabled/running times are printed.  The kernel must not WARN or
 * oops (the boot test watches the console).
 */
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kvm_util.h"
#include "processor.h"
#include "test_util.h"
#include "ucall_common.h"

#include "guest_loops.h"
#include "pmu_test.h"

#define NR_VCPUS	2
#define NR_GROUPS	3
#define MOVES		200
#define HOTPLUGS	3

static const uint64_t rounds = 8000, n1 = 2000, n0 = 2000;
static volatile int running = NR_VCPUS;
static pid_t tids[NR_VCPUS];

struct group_result {
	uint64_t enabled, running, v[3];
};

struct vcpu_thread {
	struct kvm_vcpu *vcpu;
	int id;
	struct group_result res[NR_GROUPS];
};

static void *vcpu_thread(void *arg)
{
	struct vcpu_thread *t = arg;
	int fds[NR_GROUPS][3], g, s;
	uint64_t buf[6];
	struct ucall uc;

	tids[t->id] = syscall(__NR_gettid);
	for (g = 0; g < NR_GROUPS; g++)
		for (s = 0; s < 3; s++)
			fds[g][s] = perf_open_side(s, s ? fds[g][0] : -1,
						   PERF_FORMAT_TOTAL_TIME_ENABLED |
						   PERF_FORMAT_TOTAL_TIME_RUNNING);
	for (g = 0; g < NR_GROUPS; g++)
		ioctl(fds[g][0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);

	vcpu_run(t->vcpu);

	for (g = 0; g < NR_GROUPS; g++)
		ioctl(fds[g][0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	TEST_ASSERT(get_ucall(t->vcpu, &uc) == UCALL_DONE,
		    "vCPU %d did not finish", t->id);
	for (g = 0; g < NR_GROUPS; g++) {
		TEST_ASSERT(read(fds[g][0], buf, sizeof(buf)) == sizeof(buf),
			    "read group");
		t->res[g].enabled = buf[1];
		t->res[g].running = buf[2];
		for (s = 0; s < 3; s++)
			t->res[g].v[s] = buf[3 + s];
		for (s = 2; s >= 0; s--)
			close(fds[g][s]);
	}
	__sync_fetch_and_sub(&running, 1);
	return NULL;
}

/* Return: whether the CPU is now in the state asked for. */
static bool set_online(int cpu, int online)
{
	char path[64];
	int now = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	f = fopen(path, "w");
	if (!f)
		return false;
	fprintf(f, "%d\n", online);
	if (fclose(f))
		return false;
	f = fopen(path, "r");
	if (!f)
		return false;
	if (fscanf(f, "%d", &now) != 1)
		now = -1;
	fclose(f);
	return now == online;
}

/* Move the vCPU threads around, and unplug CPU 1 now and then. */
static void *mover(void *arg)
{
	int *stats = arg, i;

	for (i = 0; i < MOVES && running; i++) {
		cpu_set_t set;
		int v = i % NR_VCPUS;

		CPU_ZERO(&set);
		CPU_SET((i / NR_VCPUS) % 2, &set);
		if (tids[v] && !sched_setaffinity(tids[v], sizeof(set), &set))
			stats[0]++;
		if (i % 3 == 2 && stats[1] < HOTPLUGS) {
			bool off = set_online(1, 0);

			usleep(500);
			/* Counted only when CPU 1 really went off and came back. */
			if (set_online(1, 1) && off)
				stats[1]++;
		}
		usleep(200);
	}
	return NULL;
}

int main(void)
{
	struct vcpu_thread t[NR_VCPUS];
	struct kvm_vcpu *vcpus[NR_VCPUS];
	pthread_t threads[NR_VCPUS], mv;
	int stats[2] = { 0, 0 }, i, g;
	struct kvm_vm *vm;

	__TEST_REQUIRE(sysconf(_SC_NPROCESSORS_ONLN) >= 2 &&
		       !access("/sys/devices/system/cpu/cpu1/online", W_OK),
		       "needs CPU 1 online and hot-pluggable");
	plan(NR_VCPUS * NR_GROUPS + 2);
	vm = vm_create_with_vcpus(NR_VCPUS, guest_rounds, vcpus);
	vm_init_descriptor_tables(vm);
	vm_install_sync_handler(vm, VECTOR_SYNC_LOWER_64, ESR_ELx_EC_SVC64,
				el0_svc_handler);
	for (i = 0; i < NR_VCPUS; i++) {
		vcpu_init_descriptor_tables(vcpus[i]);
		vcpu_args_set(vcpus[i], 3, rounds, n1, n0);
		t[i] = (struct vcpu_thread) { .vcpu = vcpus[i], .id = i };
		pthread_create(&threads[i], NULL, vcpu_thread, &t[i]);
	}
	pthread_create(&mv, NULL, mover, stats);
	for (i = 0; i < NR_VCPUS; i++)
		pthread_join(threads[i], NULL);
	pthread_join(mv, NULL);
	set_online(1, 1);

	printf("pmu_concurrency: %d vCPUs x %d groups, %d affinity moves, %d CPU 1 unplugs\n",
	       NR_VCPUS, NR_GROUPS, stats[0], stats[1]);
	for (i = 0; i < NR_VCPUS; i++) {
		for (g = 0; g < NR_GROUPS; g++) {
			struct group_result *r = &t[i].res[g];
			int64_t diff = r->v[0] - r->v[1] - r->v[2];
			double scale = r->running ? (double)r->enabled / r->running : 0;
			char name[32];

			snprintf(name, sizeof(name), "partition vcpu%d group%d", i, g);
			check(!diff, name,
			      "all=%lu host=%lu guest=%lu diff=%ld, running %lu/%lu ns, scaled all=%.0f host=%.0f guest=%.0f",
			      r->v[0], r->v[1], r->v[2], diff, r->running,
			      r->enabled, r->v[0] * scale, r->v[1] * scale,
			      r->v[2] * scale);
		}
	}
	check(t[0].res[0].running < t[0].res[0].enabled, "multiplexed",
	      "groups ran part of the time");
	/* The moves and unplugs must have happened while the vCPUs ran. */
	check(stats[0] > 0 && stats[1] > 0, "hotplug and migration happened",
	      "%d affinity moves, %d CPU 1 offline/online cycles", stats[0],
	      stats[1]);

	kvm_vm_free(vm);
	ksft_finished();
}

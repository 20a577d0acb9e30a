// SPDX-License-Identifier: GPL-2.0-only
/*
 * pvm_hidden - a protected VM's runs are hidden from host counters
 *
 * On a protected-KVM host (kvm-arm.mode=protected) a protected VM
 * (KVM_VM_TYPE_ARM_PROTECTED) runs ROUNDS rounds of an EL1 loop, an EL0
 * loop and an in-kernel hypercall, measured from its second KVM_RUN (the
 * first creates the VM at EL2 and takes its pages), with instruction
 * events on the vCPU thread as one group: no exclusion, host-only
 * (exclude_guest) and guest-only (exclude_host).  It checks:
 *
 *  - the VM runs and reports what it was asked to do;
 *  - all = host-only + guest-only, to the instruction;
 *  - guest-only counts nothing: nothing of the VM is counted;
 *  - neither all nor host-only grows when the VM's EL1 loop doubles;
 *  - and, so that the test can fail, an ordinary VM running the same
 *    code on the same host is counted: its guest-only count covers its
 *    loops.
 *
 * The guest reports as pvm_vm.h says.  Built on the KVM selftests
 * library.
 */
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kvm_util.h"
#include "processor.h"
#include "test_util.h"
#include "ucall_common.h"

#include "guest_loops.h"
#include "pmu_test.h"
#include "pvm_vm.h"

/* Report slots: 8-byte words after the ucall address, never that one. */
#define PVM_READY	1
#define PVM_DONE	2

static uint64_t rounds = 200, n1 = 1000, n0 = 1000;

/* ---- guest ---------------------------------------------------------------- */

/* A warm-up round touches every page the measured rounds use. */
static void pvm_guest(uint64_t r, uint64_t l1, uint64_t l0)
{
	guest_rounds_only(1, l1, l0);
	pvm_report(PVM_READY, 0);
	guest_rounds_only(r, l1, l0);
	for (;;)
		pvm_report(PVM_DONE, r);
}

/* ---- host ----------------------------------------------------------------- */

enum { ALL, HOST, GUEST };

static struct kvm_vm *vm_for(struct kvm_vcpu **vcpu, bool protected,
			     uint64_t l1)
{
	struct kvm_vm *vm = pvm_create(vcpu, protected, pvm_guest, NULL);

	vcpu_args_set(*vcpu, 3, rounds, l1, n0);
	return vm;
}

/* One measured run: returns what the guest reported, counts in @c. */
static uint64_t measure(bool protected, uint64_t l1, uint64_t *c)
{
	struct kvm_vcpu *vcpu;
	struct kvm_vm *vm = vm_for(&vcpu, protected, l1);
	uint64_t buf[4], done;
	int fds[3], s;

	pvm_run_to(vcpu, PVM_READY);
	for (s = ALL; s <= GUEST; s++)
		fds[s] = perf_open_side(s, s ? fds[ALL] : -1, 0);
	ioctl(fds[ALL], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
	ioctl(fds[ALL], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	done = pvm_run_to(vcpu, PVM_DONE);
	ioctl(fds[ALL], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	TEST_ASSERT(read(fds[ALL], buf, sizeof(buf)) == sizeof(buf), "read group");
	for (s = ALL; s <= GUEST; s++)
		c[s] = buf[1 + s];
	for (s = GUEST; s >= ALL; s--)
		close(fds[s]);
	kvm_vm_free(vm);
	printf("  %s VM, EL1 loop %lu: all=%lu host-only=%lu guest-only=%lu\n",
	       protected ? "protected" : "ordinary", l1, c[ALL], c[HOST],
	       c[GUEST]);
	return done;
}

int main(void)
{
	uint64_t p1[3], p2[3], o1[3], done1, done2;
	uint64_t el1_loops = rounds * 2 * n1;
	int64_t all_growth, host_growth;

	TEST_REQUIRE(kvm_has_cap(KVM_CAP_ARM_PSCI_0_2));
	__TEST_REQUIRE(pvm_supported(), "no protected VMs (not a protected-mode host)");
	plan(7);
	printf("pvm_hidden: %lu rounds of EL1 loop %lu, EL0 loop %lu, hypercall\n",
	       rounds, n1, n0);
	done1 = measure(true, n1, p1);
	done2 = measure(true, 2 * n1, p2);
	measure(false, n1, o1);

	check(done1 == rounds && done2 == rounds, "protected_vm_runs",
	      "reported %lu and %lu rounds (want %lu)", done1, done2, rounds);
	check(p1[ALL] == p1[HOST] + p1[GUEST] && p2[ALL] == p2[HOST] + p2[GUEST],
	      "partition", "all - host - guest = %ld, %ld",
	      (int64_t)(p1[ALL] - p1[HOST] - p1[GUEST]),
	      (int64_t)(p2[ALL] - p2[HOST] - p2[GUEST]));
	check(p1[GUEST] == 0 && p2[GUEST] == 0, "guest_only_counts_nothing",
	      "guest-only = %lu, %lu (want 0)", p1[GUEST], p2[GUEST]);
	/*
	 * Host work varies run to run by far less than the guest's loop
	 * grows (as in pmu_split): a leak would add all of it.
	 */
	all_growth = p2[ALL] - p1[ALL];
	host_growth = p2[HOST] - p1[HOST];
	check(llabs(all_growth) * 2 < (int64_t)el1_loops, "all_excludes_vm",
	      "all(2xEL1) - all = %ld (the VM's loop grew by %lu)",
	      all_growth, el1_loops);
	check(llabs(host_growth) * 2 < (int64_t)el1_loops, "host_excludes_vm",
	      "host-only(2xEL1) - host-only = %ld (the VM's loop grew by %lu)",
	      host_growth, el1_loops);
	check(o1[ALL] == o1[HOST] + o1[GUEST], "ordinary_partition",
	      "all - host - guest = %ld", (int64_t)(o1[ALL] - o1[HOST] - o1[GUEST]));
	check(o1[GUEST] >= el1_loops, "ordinary_vm_counted",
	      "guest-only = %lu, loops at least %lu", o1[GUEST], el1_loops);

	ksft_finished();
}

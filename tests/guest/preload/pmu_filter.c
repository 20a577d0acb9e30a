// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmu_filter.so - give a VMM's vCPUs a KVM PMU event filter
 *
 * LD_PRELOAD'ed into a VMM that sets no filter itself (Debian's QEMU):
 * just before each vCPU's KVM_ARM_VCPU_PMU_V3_INIT, it sets
 * KVM_ARM_VCPU_PMU_V3_FILTER denying the events of PMU_FILTER_DENY
 * (a comma-separated list of event numbers, each "N" or "N-M"), with
 * every other event allowed.  make bench (tests/guest/vm_bench.sh) runs
 * the direct PMU's Linux guest under it; a FILTER call that fails fails
 * the INIT, so that no run is taken without its filter.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/kvm.h>

typedef int (*ioctl_fn)(int, unsigned long, ...);

/* Whether @fd is a KVM vCPU (a device fd takes the same attribute ioctls). */
static int is_vcpu(int fd)
{
	char path[64], link[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return 0;
	link[n] = 0;
	return !strncmp(link, "anon_inode:kvm-vcpu", 19);
}

/* Set the filter's rules on vCPU @fd: 0, or -1 with errno. */
static int set_filter(ioctl_fn real, int fd, const char *spec)
{
	char *list = strdup(spec), *tok, *save = NULL;
	int ret = 0;

	for (tok = strtok_r(list, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		char *end;
		unsigned long lo = strtoul(tok, &end, 0), hi = lo;
		struct kvm_pmu_event_filter f = { .action = KVM_PMU_EVENT_DENY };
		struct kvm_device_attr a = {
			.group = KVM_ARM_VCPU_PMU_V3_CTRL,
			.attr = KVM_ARM_VCPU_PMU_V3_FILTER,
			.addr = (uint64_t)(uintptr_t)&f,
		};

		if (*end == '-')
			hi = strtoul(end + 1, &end, 0);
		if (*end || hi < lo || hi > 0xffff) {
			errno = EINVAL;
			ret = -1;
			break;
		}
		f.base_event = lo;
		f.nevents = hi - lo + 1;
		ret = real(fd, KVM_SET_DEVICE_ATTR, &a);
	}
	free(list);
	return ret;
}

int ioctl(int fd, unsigned long req, ...)
{
	static ioctl_fn real;
	const char *spec = getenv("PMU_FILTER_DENY");
	struct kvm_device_attr *a;
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!real)
		real = (ioctl_fn)dlsym(RTLD_NEXT, "ioctl");
	a = arg;
	if (spec && *spec && req == KVM_SET_DEVICE_ATTR &&
	    a->group == KVM_ARM_VCPU_PMU_V3_CTRL &&
	    a->attr == KVM_ARM_VCPU_PMU_V3_INIT && is_vcpu(fd)) {
		if (set_filter(real, fd, spec)) {
			fprintf(stderr, "pmu_filter: KVM_ARM_VCPU_PMU_V3_FILTER %s: %s\n",
				spec, strerror(errno));
			return -1;
		}
		fprintf(stderr, "pmu_filter: vCPU fd %d: events %s denied\n", fd, spec);
	}
	return real(fd, req, arg);
}

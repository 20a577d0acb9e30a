// SPDX-License-Identifier: GPL-2.0-only
/*
 * open_errno: open one event on this thread and print what the kernel
 * said: "0" or the errno's name.  For the boot checks that an invalid
 * or unsupported request is refused with the right errno, not just
 * refused somehow.
 *
 * Usage: open_errno TYPE CONFIG [CONFIG1 [CONFIG2 [FLAGS]]]
 *   numbers in C syntax; FLAGS: H for exclude_host, G for exclude_guest,
 *   B for sampling with branch records (PERF_SAMPLE_BRANCH_STACK, any
 *   branch)
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *errno_name(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ENOENT: return "ENOENT";
	case EAGAIN: return "EAGAIN";
	case EACCES: return "EACCES";
	case E2BIG: return "E2BIG";
	case ENODEV: return "ENODEV";
	default: return strerror(e);
	}
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr), .exclude_kernel = 1, .exclude_hv = 1,
	};
	int fd;

	if (argc < 3) {
		fprintf(stderr, "usage: open_errno TYPE CONFIG [CONFIG1 [CONFIG2 [FLAGS]]]\n");
		return 2;
	}
	attr.type = strtoul(argv[1], NULL, 0);
	attr.config = strtoull(argv[2], NULL, 0);
	if (argc > 3)
		attr.config1 = strtoull(argv[3], NULL, 0);
	if (argc > 4)
		attr.config2 = strtoull(argv[4], NULL, 0);
	if (argc > 5) {
		attr.exclude_host = !!strchr(argv[5], 'H');
		attr.exclude_guest = !!strchr(argv[5], 'G');
		if (strchr(argv[5], 'B')) {
			attr.sample_period = 10000;
			attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
			attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
		}
	}
	fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd >= 0) {
		printf("0\n");
		close(fd);
		return 0;
	}
	printf("%s\n", errno_name(errno));
	return 1;
}

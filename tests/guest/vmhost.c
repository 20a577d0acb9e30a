// SPDX-License-Identifier: GPL-2.0-only
/*
 * vmhost - run a VMM with the guest's serial console on pipes, and answer
 * the guest's requests for host-side work.
 *
 *	vmhost LOG HANDLER -- VMM ARGS...
 *
 * The VMM (QEMU with "-serial stdio") runs as a child.  Every line the
 * guest's console prints goes to LOG, without carriage returns.  A line
 *
 *	@@HOST word args...
 *
 * is a request: the guest then waits on its console for the answer.
 * "count" is answered here, from the host's PMU and KVM's statistics:
 *
 *	@@ACK exits=<KVM exits> hvc=<of them, hypercalls> insns=<host instructions>
 *
 * where the instructions are the host kernel's and the hypervisor's on
 * the VMM's vCPU thread: what the guest's exits cost the host.  Two
 * counters, neither of which needs switching at EL2 (an EL2-counting
 * host-only event does, and the stock kernel loses the world switch from
 * it): the host kernel outside guest context (exclude_user, exclude_hv,
 * exclude_guest: EL1 on nVHE, enabled and disabled at EL2; the EL2
 * kernel on VHE, where exclude_hv means nothing) and EL2 in both
 * contexts (exclude_user, exclude_kernel: the nVHE hypervisor; nothing
 * on VHE).  Both are pinned: a guest that uses all of its virtual
 * counters leaves some of them without a host counter behind them,
 * rather than these multiplexed.  Every other request runs "HANDLER word
 * args..." with VMHOST_PID (the VMM) and VMHOST_VCPU (its vCPU thread)
 * in the environment, and its first line of output is the answer:
 *
 *	@@ACK <that line>
 *
 * So the guest decides what happens when, and the host's measurements
 * line up with the guest's work.  Exit status: the VMM's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define LINE_MAX_LEN	4096

static pid_t vmm_pid;
static pid_t vcpu_tid;
static int host_kernel_fd = -1, host_el2_fd = -1;

static void die(const char *what)
{
	perror(what);
	if (vmm_pid > 0)
		kill(vmm_pid, SIGKILL);
	exit(2);
}

/* The VMM's vCPU thread: QEMU names it "CPU <n>/KVM" (-name debug-threads=on). */
static pid_t find_vcpu_thread(pid_t pid)
{
	char path[300], comm[64];
	struct dirent *d;
	pid_t tid = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return 0;
	while (!tid && (d = readdir(dir))) {
		FILE *f;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/comm", pid,
			 d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && strstr(comm, "/KVM"))
			tid = atoi(d->d_name);
		fclose(f);
	}
	closedir(dir);
	return tid;
}

/* Instructions on the vCPU thread, pinned, with some exclude_* bits. */
static int open_host_counter(pid_t tid, bool el2)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr), .type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_INSTRUCTIONS, .pinned = 1,
		.exclude_user = 1, .exclude_kernel = el2,
		.exclude_hv = !el2, .exclude_guest = !el2,
	};
	int fd = syscall(__NR_perf_event_open, &attr, tid, -1, -1, 0);

	if (fd < 0)
		die("perf_event_open");
	return fd;
}

static unsigned long long read_counter(int fd)
{
	unsigned long long v = 0;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		die("read counter");
	return v;
}

/* One of KVM's exit counts, summed over every vCPU (debugfs). */
static unsigned long long kvm_stat(const char *name)
{
	unsigned long long v = 0;
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/kvm/%s", name);
	f = fopen(path, "r");

	if (!f)
		return 0;
	if (fscanf(f, "%llu", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

static void answer_count(char *out, size_t len)
{
	if (host_kernel_fd < 0) {
		host_kernel_fd = open_host_counter(vcpu_tid, false);
		host_el2_fd = open_host_counter(vcpu_tid, true);
	}
	snprintf(out, len, "exits=%llu hvc=%llu insns=%llu", kvm_stat("exits"),
		 kvm_stat("hvc_exit_stat"),
		 read_counter(host_kernel_fd) + read_counter(host_el2_fd));
}

/* Run the handler script; its first output line is the answer. */
static void answer_handler(const char *handler, const char *req, char *out,
			   size_t len)
{
	char cmd[LINE_MAX_LEN + 256];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s %s", handler, req);
	p = popen(cmd, "r");
	if (!p)
		die("popen");
	if (!fgets(out, len, p))
		snprintf(out, len, "no answer");
	out[strcspn(out, "\n")] = 0;
	while (fgetc(p) != EOF)
		;
	pclose(p);
}

static void answer(FILE *to_vmm, const char *handler, const char *req)
{
	char out[LINE_MAX_LEN], env[32];

	if (!vcpu_tid) {
		vcpu_tid = find_vcpu_thread(vmm_pid);
		if (!vcpu_tid) {
			fprintf(stderr, "vmhost: no vCPU thread (\"CPU n/KVM\") in %d\n",
				vmm_pid);
			kill(vmm_pid, SIGKILL);
			exit(2);
		}
		snprintf(env, sizeof(env), "%d", vcpu_tid);
		setenv("VMHOST_VCPU", env, 1);
	}
	if (!strcmp(req, "count"))
		answer_count(out, sizeof(out));
	else
		answer_handler(handler, req, out, sizeof(out));
	fprintf(to_vmm, "@@ACK %s\n", out);
	fflush(to_vmm);
}

static pid_t start_vmm(char **argv, int *to_fd, int *from_fd)
{
	int in[2], out[2];
	pid_t pid;

	if (pipe(in) || pipe(out))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[0]); close(in[1]); close(out[0]); close(out[1]);
		execvp(argv[0], argv);
		perror(argv[0]);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	*to_fd = in[1];
	*from_fd = out[0];
	return pid;
}

int main(int argc, char **argv)
{
	char line[LINE_MAX_LEN], env[32];
	FILE *log, *from_vmm, *to_vmm;
	int to_fd, from_fd, status;

	if (argc < 5 || strcmp(argv[3], "--")) {
		fprintf(stderr, "usage: vmhost LOG HANDLER -- VMM ARGS...\n");
		return 2;
	}
	log = fopen(argv[1], "w");
	if (!log)
		die(argv[1]);
	signal(SIGPIPE, SIG_IGN);
	vmm_pid = start_vmm(argv + 4, &to_fd, &from_fd);
	snprintf(env, sizeof(env), "%d", vmm_pid);
	setenv("VMHOST_PID", env, 1);
	from_vmm = fdopen(from_fd, "r");
	to_vmm = fdopen(to_fd, "w");
	if (!from_vmm || !to_vmm)
		die("fdopen");

	while (fgets(line, sizeof(line), from_vmm)) {
		char *req;

		line[strcspn(line, "\r\n")] = 0;
		fprintf(log, "%s\n", line);
		fflush(log);
		req = strstr(line, "@@HOST ");
		if (req)
			answer(to_vmm, argv[2], req + strlen("@@HOST "));
	}
	if (waitpid(vmm_pid, &status, 0) < 0)
		die("waitpid");
	fclose(log);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

# SPDX-License-Identifier: GPL-2.0-only
#
# Helpers shared by the jobs, on the host and in a Linux guest alike:
# perf's figures, and booting and talking to a Linux guest.  Sourced by
# /init.

# perf stat -x, prints "value,unit,event,..." per event, in order.
stat_values() {	# events workload... -> values on one line
	ev=$1; shift
	perf stat -x, -e "$ev" -o /tmp/stat.csv -- "$@" >/dev/null 2>&1 || return 1
	grep -v '^#' /tmp/stat.csv | grep -v '^$' | cut -d, -f1 | tr '\n' ' '
}

# QEMU 7.2 now and then credits a whole interrupt handler (~2,400
# instructions) to the EL it interrupted: the least of three runs.
least_of3() {	# event workload...
	ev=$1; shift
	best=""
	for i in 1 2 3; do
		v=$(stat_values "$ev" "$@" | cut -d' ' -f1)
		if [ -z "$best" ] || [ "${v:-0}" -lt "$best" ]; then best=$v; fi
	done
	echo "$best"
}

# perf's host/guest split of a KVM workload, as one group (no skew):
# guest-only (:G), host-only (:H) and both (:GH).  Sets g, h and gh;
# true when both sides counted and G + H = GH to the instruction.
split_exact() {	# workload...
	set -- $(stat_values '{instructions:G,instructions:H,instructions:GH}' "$@")
	g=$1 h=$2 gh=$3
	[ -n "$gh" ] && [ "$g" -gt 0 ] && [ "$h" -gt 0 ] && [ $((g + h)) -eq "$gh" ]
}

# In a Linux guest under tests/guest/vmhost: ask the host for work and
# wait for its answer (tests/guest/vmhost-cmd.sh lists the requests).
# The request goes to the console itself, since callers capture the
# answer; "stty -echo" first keeps the answers out of the console log.
host() {	# request... -> the host's answer
	echo "@@HOST $*" > /dev/console
	read -r answer < /dev/console
	echo "${answer#@@ACK }"
}

# On the host: boot a Linux guest (our kernel at EL1, with our initramfs)
# under Debian's QEMU with KVM and a virtual PMU (-cpu host), running
# JOBS (pmuv3.mode=guest), its console in LOG, its "@@HOST" requests
# answered by tests/guest/vmhost-cmd.sh.  One vCPU, named so that vmhost
# finds its thread.
vm_run() {	# log jobs [kernel args...]
	vm_log=$1 vm_jobs=$2; shift 2
	timeout -s KILL 900 /bin/vmhost "$vm_log" /tests/vmhost-cmd.sh -- \
		qemu-system-aarch64 -M virt,gic-version=3 -accel kvm -cpu host \
		-smp 1 -m 384M -name guest,debug-threads=on -nodefaults \
		-display none -serial stdio -no-reboot \
		-kernel /guest/Image -initrd /guest/initramfs.cpio \
		-append "console=ttyAMA0 quiet panic=-1 panic_on_warn=1 oops=panic rdinit=/init pmuv3.job=$vm_jobs pmuv3.mode=guest $*"
}

# Seven cycles:u events in one group at a period of 1,000 overflow
# together far above perf's per-tick limit: the first of them to reach it
# throttles the whole group, and the core restarts the group at the next
# tick (PERF_RECORD_UNTHROTTLE).  The overflow handler must not take a
# sample from a member the core has just stopped in the same interrupt:
# for the group's leader, that sample takes its throttle count past the
# mark the tick looks for, and the group is never restarted (no
# unthrottle, samples from the first tick only; stock 7.3 does this,
# fixes/7.3's perf patch mends it).  40 ms of spin(): ten ticks.
# throttled_group_record sets thr, unthr and nsamples (make bench shows
# them); throttled_group_restarts checks them.
throttled_group_record() {
	g7="{cycles:u,cycles:u,cycles:u,cycles:u,cycles:u,cycles:u,cycles:u}"
	perf record -q -e "$g7" -c 1000 -o /tmp/thr.data -- /bin/loop 20000000 0 \
		>/dev/null 2>&1
	perf report -D -i /tmp/thr.data 2>/dev/null > /tmp/thr.dump
	thr=$(grep -c 'PERF_RECORD_THROTTLE' /tmp/thr.dump)
	unthr=$(grep -c 'PERF_RECORD_UNTHROTTLE' /tmp/thr.dump)
	nsamples=$(grep -c 'PERF_RECORD_SAMPLE' /tmp/thr.dump)
}

throttled_group_restarts() {
	throttled_group_record
	[ "$thr" -ge 2 ] && [ "$unthr" -ge 1 ]
	result throttled_group_restarts $? "$thr throttles, $unthr unthrottles, $nsamples samples"
}

# EL0 counting is exact: 100000 more iterations = 200000 more insns.
user_exact() {
	u1=$(least_of3 instructions:u /bin/loop 100000 0)
	u2=$(least_of3 instructions:u /bin/loop 200000 0)
	[ -n "$u1" ] && [ $((u2 - u1)) -eq 200000 ]
	result user_exact $? "u(200000)-u(100000)=$((u2 - u1)), expected 200000"
}

# In a Linux guest: the host counts {G,H,GH} on our vCPU thread with perf
# stat while we count our own loop.  The host's split is exact, and our
# EL0 count lies within its guest-only count.  Sets u_with, g, h and gh.
host_split_of_guest() {
	host stat-start split '{instructions:G,instructions:H,instructions:GH}' >/dev/null
	u_with=$(least_of3 instructions:u /bin/loop 1000000 0)
	set -- $(host stat-stop split | tr ',' ' ')
	g=$1 h=$2 gh=$3
	[ -n "$gh" ] && [ "$g" -gt 0 ] && [ "$h" -gt 0 ] && [ $((g + h)) = "$gh" ]
	result host_split_exact $? "host perf stat on the vCPU thread: G=$g H=$h GH=$gh (G+H-GH=$((g + h - gh)))"
	[ -n "$u_with" ] && [ -n "$g" ] && [ "$u_with" -le "$g" ] && [ "$u_with" -ge 2000000 ]
	result guest_inside_host_g $? "guest instructions:u=$u_with (3 runs of loop 1000000) within host G=$g"
}

# The guest's KTAP, one level below this job's results (a subtest named
# as the result that follows it): its lines are indented, everything else
# it printed becomes a diagnostic line.
nest_guest_ktap() {	# log name
	echo "        KTAP version 1"
	echo "        # Subtest: $2"
	sed -n '/^KTAP version 1$/,$p' "$1" | sed '1d' | sed -E \
		-e '/^ *(KTAP version [0-9]+|[0-9]+\.\.[0-9]+|(not )?ok [0-9]+ .*|# .*)$/!s/^/# /' \
		-e 's/^/        /'
}

# One guest run: did it finish, did all its jobs pass (its KTAP nested
# under the second result), and is its console clean.
guest_results() {	# log jobs rc seconds suffix
	grep -q '^@@DONE' "$1" && [ "$3" = 0 ]
	result vm_ran$5 $? "QEMU exit $3, guest jobs $2, $4 s (uptime)"
	nest_guest_ktap "$1" guest_checks$5
	n=$(echo "$2" | tr ',' ' ' | wc -w)
	[ "$(grep -c '^ok [0-9]' "$1")" = "$n" ] && ! grep -q '^not ok' "$1"
	result guest_checks$5 $? "$(grep -c '^ok [0-9]' "$1") of $n guest jobs ok"
	errors=$(/tests/scan-console.sh "$1")
	result guest_console_clean$5 $? "${errors:-no kernel error report in the guest's console}"
}

# vm_run, with its seconds (rc, secs) and what vmhost said.
timed_vm_run() {	# log jobs [kernel args...]  -> rc, secs
	t0=$(cut -d' ' -f1 /proc/uptime)
	vm_run "$@" > /tmp/vmhost.out 2>&1
	rc=$?
	secs=$(awk "BEGIN { print $(cut -d' ' -f1 /proc/uptime) - $t0 }")
	sed 's/^/    # vmhost: /' /tmp/vmhost.out
}

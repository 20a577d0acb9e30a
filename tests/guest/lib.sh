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

# SPDX-License-Identifier: GPL-2.0-only
#
# A Linux guest on this host: Debian's arm64 QEMU (-accel kvm -cpu host,
# so the guest has a virtual PMU) boots our own kernel at EL1, where the
# driver runs in guest mode, with the same initramfs as the host (perf,
# busybox, our programs).  The guest runs, under pmuv3.mode=guest:
#
#   check  the host boot checks (tests/guest/check.sh) on the vPMU;
#   guest  what the bits mean in a guest, multiplexing, and the host's
#          view of the guest, asking the host for perf stat / perf record
#          / perf kvm on its vCPU thread (tests/guest/guest.sh);
#   fuzz   10,000 attrs of the attr fuzzer, sampling included.
#
# Its KTAP nests under this job's guest_checks result.  Then the guest's
# console is scanned like every boot's, and the host's own split must
# still be exact.  Sourced by /init (the -up boots: on one CPU QEMU's
# counts hold nothing of another vCPU's work, README, Known limits).
plan 4

GUEST_JOBS=check,guest,fuzz
GUEST_LOG=/tmp/guest.log

# The guest's KTAP, one level below this job's results: its lines are
# indented, everything else it printed becomes a diagnostic line.
nest_guest_ktap() {	# log
	echo "        KTAP version 1"
	echo "        # Subtest: guest_checks"
	sed -n '/^KTAP version 1$/,$p' "$1" | sed '1d' | sed -E \
		-e '/^ *(KTAP version [0-9]+|[0-9]+\.\.[0-9]+|(not )?ok [0-9]+ .*|# .*)$/!s/^/# /' \
		-e 's/^/        /'
}

if [ ! -e /dev/kvm ] || [ ! -x /usr/bin/qemu-system-aarch64 ]; then
	result vm_ran 1 "/dev/kvm or /usr/bin/qemu-system-aarch64 missing"
	return 0 2>/dev/null || exit 0
fi

t0=$(cut -d' ' -f1 /proc/uptime)
vm_run $GUEST_LOG $GUEST_JOBS pmuv3.fuzz=10000 > /tmp/vmhost.out 2>&1
rc=$?
t1=$(cut -d' ' -f1 /proc/uptime)
sed 's/^/    # vmhost: /' /tmp/vmhost.out
grep -q '^@@DONE' $GUEST_LOG && [ $rc = 0 ]
result vm_ran $? "QEMU exit $rc, guest jobs $GUEST_JOBS, $(awk "BEGIN { print $t1 - $t0 }") s (uptime)"

nest_guest_ktap $GUEST_LOG
jobs=$(echo $GUEST_JOBS | tr ',' ' ' | wc -w)
[ "$(grep -c '^ok [0-9]' $GUEST_LOG)" = "$jobs" ] && ! grep -q '^not ok' $GUEST_LOG
result guest_checks $? "$(grep -c '^ok [0-9]' $GUEST_LOG) of $jobs guest jobs ok"

errors=$(/tests/scan-console.sh $GUEST_LOG)
result guest_console_clean $? "${errors:-no kernel error report in the guest's console}"

split_exact /bin/pmu_split run
result host_split_after $? "after the guest: {G,H,GH} of pmu_split: G=$g H=$h all=$gh"

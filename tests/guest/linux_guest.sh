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
#   fuzz   10,000 attrs of the attr fuzzer, sampling included;
#   perfreg_fail  the driver's fallback when the service fails
#          (tests/guest/perfreg_fail.sh).
#
# With the perf-register service granted (kvm.perf_regs=1), so that the
# guest's driver uses it; then check and guest again with the driver kept
# on trapped accesses (arm_pmuv3.perfreg=0): the exact EL0 figures must
# be the same both ways.  Then check once more with the service failing
# (arm_pmuv3.perfreg_fail=3, for testing only: the host refuses the
# driver's third batch, which, after the reset at probe, falls in the
# check job's first perf run), and perfreg_fail, which checks that the
# driver said so once and traps from then on: the check job's exact
# figures must be the trapped guest's.  Each run's KTAP nests under its
# guest_checks result and its console is scanned like every boot's.
# Then check and guest once more on the direct PMU (kvm.pmu_direct=1:
# QEMU does not know the attribute), where the guest's driver uses its
# counters directly (the service refuses a direct vCPU): the exact
# figures must be the trapped guest's again, its N the share (not on
# 6.12, which has no direct PMU).
# Last, the host's own split must still be exact.  Sourced by /init (the
# -up boots: on one CPU QEMU's counts hold nothing of another vCPU's
# work, README, Known limits).
# The direct PMU is 7.x's only.
direct=1
case "$(uname -r)" in 6.*) direct=0 ;; esac
plan $((12 + 4 * direct))

GUEST_JOBS=check,guest,fuzz
GUEST_LOG=/tmp/guest.log
TRAPPED_LOG=/tmp/guest-trapped.log
FALLBACK_JOBS=check,perfreg_fail
FALLBACK_LOG=/tmp/guest-fallback.log
DIRECT_LOG=/tmp/guest-direct.log

# The guest's exact EL0 figures, which the driver's path to the vPMU
# registers (service or traps) must not change.
exact_figures() {	# log
	sed -n -e 's/.*# user_exact: \(.*\)/\1/p' \
		-e 's/.*# raw_and_long: \(.*\)/\1/p' \
		-e 's/.*# guest_unmoved_by_host: guest \(instructions:u=[0-9]*\).*/\1/p' "$1" |
		paste -sd' ' -
}

# The check job's exact figures alone, for a run without the guest job.
check_figures() {	# log
	sed -n -e 's/.*# user_exact: \(.*\)/\1/p' \
		-e 's/.*# raw_and_long: \(.*\)/\1/p' "$1" | paste -sd' ' -
}

if [ ! -e /dev/kvm ] || [ ! -x /usr/bin/qemu-system-aarch64 ]; then
	result vm_ran 1 "/dev/kvm or /usr/bin/qemu-system-aarch64 missing"
	return 0 2>/dev/null || exit 0
fi

# The perf-register service on (QEMU 7.2 cannot grant it itself), then
# the same checks with the guest's driver kept on trapped accesses.
echo 1 > /sys/module/kvm/parameters/perf_regs
timed_vm_run $GUEST_LOG $GUEST_JOBS pmuv3.fuzz=10000
guest_results $GUEST_LOG $GUEST_JOBS $rc $secs ""
timed_vm_run $TRAPPED_LOG check,guest arm_pmuv3.perfreg=0
guest_results $TRAPPED_LOG check,guest $rc $secs _trapped

with=$(exact_figures $GUEST_LOG)
without=$(exact_figures $TRAPPED_LOG)
[ -n "$with" ] && [ "$with" = "$without" ]
result figures_identical $? "service: $with; trapped: $without"

# The service failing: the driver falls back to traps, for good.
timed_vm_run $FALLBACK_LOG $FALLBACK_JOBS arm_pmuv3.perfreg_fail=3
guest_results $FALLBACK_LOG $FALLBACK_JOBS $rc $secs _fallback
after=$(check_figures $FALLBACK_LOG)
trapped=$(check_figures $TRAPPED_LOG)
[ -n "$after" ] && [ "$after" = "$trapped" ]
result figures_after_fallback $? "after the fallback: $after; trapped: $trapped"

# The direct PMU: the same checks, the same exact figures.
if [ $direct = 1 ]; then
	echo 1 > /sys/module/kvm/parameters/pmu_direct
	timed_vm_run $DIRECT_LOG check,guest pmuv3.direct=1
	echo 0 > /sys/module/kvm/parameters/pmu_direct
	guest_results $DIRECT_LOG check,guest $rc $secs _direct
	direct_figs=$(exact_figures $DIRECT_LOG)
	[ -n "$direct_figs" ] && [ "$direct_figs" = "$without" ]
	result figures_direct $? "direct: $direct_figs; trapped: $without"
fi

split_exact /bin/pmu_split run
result host_split_after $? "after the guests: {G,H,GH} of pmu_split: G=$g H=$h all=$gh"

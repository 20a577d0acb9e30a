# SPDX-License-Identifier: GPL-2.0-only
#
# The stock+fixes leg of make check: the pristine base tree with the
# stock fixes of fixes/<BASE>/ applied (mk/fixes.sh), no overlay, booted
# on one CPU in each host mode.  Everything here runs without our driver
# on the host: the series' own reproducer (pmu_host_guest_split), the
# base's KVM selftests of what the series touches (built from the same
# tree, in /fixes-bin), the throttled-group sampling check, our vPMU
# program vpmu_self_count, perf's own {G,H,GH} split of a KVM guest, and
# a Linux guest's perf stat with the host's split of it (the guest's
# kernel is ours, at EL1).  Sourced by /init.

# The base's selftests in /fixes-bin (mk/fixes.sh): vgic_init fails in
# protected mode on stock 7.3 as with the series ("dist address beyond
# IPA limit", pKVM's IPA size), and runs in the other modes.
base_tests=""
for t in /fixes-bin/*; do
	case "${t##*/}/$mode" in
	pmu_host_guest_split/*|vgic_init/protected*) ;;
	*) base_tests="$base_tests $t" ;;
	esac
done
plan $((7 + $(echo $base_tests | wc -w)))

if [ ! -e /dev/kvm ] || [ ! -d /fixes-bin ]; then
	result stock_fixes_present 1 "/dev/kvm or /fixes-bin missing"
	return 0 2>/dev/null || exit 0
fi

run_ksft /fixes-bin/pmu_host_guest_split
for t in $base_tests; do
	run_selftest "$t"
done
throttled_group_restarts
run_ksft /bin/vpmu_self_count
split_exact /bin/pmu_split run
result perf_stat_guest_host $? "{G,H,GH} group of a KVM guest: G=$g H=$h all=$gh (G+H-all=$((g + h - gh)))"

timed_vm_run /tmp/guest-stat.log guest_stat
guest_results /tmp/guest-stat.log guest_stat $rc $secs ""

# SPDX-License-Identifier: GPL-2.0-only
#
# Protected mode: the host is not trusted by the hypervisor.  With
# /sys/kernel/debug/kvm_pmu_hostile_host set, every guest entry hands the
# hypervisor random PMU switch state (masks naming counters that do not
# exist, types with reserved bits) instead of the real one.  The
# hypervisor must clamp it and survive: the guests run to completion
# (no hypervisor panic), and once the hook is off the host's counting is
# exact again.  Sourced by /init, in the protected-debug boot.
plan 3
knob=/sys/kernel/debug/kvm_pmu_hostile_host
[ -w $knob ]
result hostile_hook $? "$knob $( [ -w $knob ] && echo present || echo missing)"
echo 20261202 > $knob
/bin/pmu_split run > /tmp/hostile.out 2>&1
rc1=$?
/bin/vpmu_self_count > /tmp/hostile2.out 2>&1
rc2=$?
echo 0 > $knob
[ $rc1 = 0 ] && grep -q 'vpmu_self_count: ' /tmp/hostile2.out
result hyp_survives_hostile_state $? "guest runs under hostile state: pmu_split exit $rc1, vpmu_self_count exit $rc2 (its figures may be off)"
# The host's own split is exact again: a grouped G/H/GH partitions.
split_exact /bin/pmu_split run
result split_exact_after $? "{G,H,GH}: G=$g H=$h all=$gh"

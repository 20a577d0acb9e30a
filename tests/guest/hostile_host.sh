# SPDX-License-Identifier: GPL-2.0-only
#
# Protected mode: the host is not trusted by the hypervisor.  With
# /sys/kernel/debug/kvm_pmu_hostile_host set, every guest entry hands the
# hypervisor random PMU switch state (masks naming counters that do not
# exist, types with reserved bits) instead of the real one.  The
# hypervisor must clamp it and survive: the guests run to completion
# (no hypervisor panic), and once the hook is off the host's counting is
# exact again.  Sourced by /init, in the protected-debug boot.
# A protected VM with the direct PMU exists from 7.x on (pvm_direct,
# as in kvm.sh), and a direct VM's event filter: four more checks
# there, none on 6.12.
pvmd=1
case "$(uname -r)" in 6.*) pvmd=0 ;; esac
plan $((3 + 4 * pvmd))
knob=/sys/kernel/debug/kvm_pmu_hostile_host
leftover=/sys/kernel/debug/kvm_pmu_direct_pvm_leftover
[ -w $knob ]
result hostile_hook $? "$knob $( [ -w $knob ] && echo present || echo missing)"
echo 20261202 > $knob
t0=$(ktap_now)
/bin/pmu_split run > /tmp/hostile.out 2>&1
rc1=$?
echo "    # pmu_split under hostile state: $(ktap_took "$t0")"
t0=$(ktap_now)
/bin/vpmu_self_count checked > /tmp/hostile2.out 2>&1
rc2=$?
echo "    # vpmu_self_count under hostile state: $(ktap_took "$t0")"
if [ $pvmd = 1 ]; then
	# A protected VM's direct PMU under a host that changes its choice,
	# drops its traps and leaves flags, values and types on its counters
	# before every run: its counts stay exact and the host sees nothing.
	t0=$(ktap_now)
	/bin/pvm_direct > /tmp/hostile3.out 2>&1
	rc3=$?
	echo "    # pvm_direct under hostile state: $(ktap_took "$t0")"
	grep '^pvm_direct:\|^not ok' /tmp/hostile3.out | head -8 | sed 's/^/# /'
	# A filtered (non-protected) direct VM whose filter the host gives
	# the hypervisor at an address it never shared: the hypervisor
	# refuses to pin it and survives, and the host serves the guest's
	# type accesses (7 more exits), filtering them as EL2 would (its
	# switch state is the real one: the counts are checked).
	/bin/pmu_direct filter > /tmp/hostile4.out 2>&1
	grep '# filter_no_exit\|# filter_deny\|filter_deny$' /tmp/hostile4.out | sed 's/^ *//; s/^/# /'
fi
echo 0 > $knob
if [ $pvmd = 1 ]; then
	result pvm_direct_hostile_host $rc3 "pvm_direct under hostile host state: exit $rc3"
	# At every vcpu_put the host read the VM's counters in the hardware:
	# the hypervisor had zeroed them, values and types, and PMSELR_EL0
	# (the guest's SEL is 5), at the exit.
	n=$(cat $leftover 2>/dev/null)
	[ "$n" = 0 ]
	result pvm_counters_zeroed $? "protected VM counters holding a value or type, or PMSELR_EL0 a SEL, at vcpu_put: ${n:-no $leftover}"
	# The program ran to its end, and the host served the 7 type
	# accesses (no pin: 8 exits more than unfiltered, PMCEID0's too).
	refused=$(sed -n 's/.*filter_no_exit: exits of the filtered direct vCPU \([0-9]*\), of an unfiltered one \([0-9]*\).*/\1 \2/p' /tmp/hostile4.out)
	set -- $refused
	[ $# = 2 ] && [ "$1" -ge $(($2 + 8)) ]
	result filter_pin_refused $? "filter at an unshared address: ${refused:-no figures} exits (filtered, unfiltered): want 8 or more between them"
	# ... and the denied event counted nothing all the same.
	grep -q '^ok [0-9]* filter_deny$' /tmp/hostile4.out
	result filter_pin_refused_counts $? "filter at an unshared address: the host's filtering of the denied event ($(grep -o '^[a-z ]*ok [0-9]* filter_deny$' /tmp/hostile4.out || echo no result))"
fi
[ $rc1 = 0 ] && grep -q 'vpmu_self_count: ' /tmp/hostile2.out
result hyp_survives_hostile_state $? "guest runs under hostile state: pmu_split exit $rc1, vpmu_self_count exit $rc2 (its figures may be off)"
# The host's own split is exact again: a grouped G/H/GH partitions.
split_exact /bin/pmu_split run
result split_exact_after $? "{G,H,GH}: G=$g H=$h all=$gh"

# SPDX-License-Identifier: GPL-2.0-only
#
# The guest driver's fallback from the perf-register service to trapped
# register accesses, in a Linux guest that linux_guest.sh booted with
# arm_pmuv3.perfreg_fail=N (for testing only: the driver's Nth batch goes
# with a flag the host refuses, as a failing service would answer).  The
# check job ran before this one, across the failure; linux_guest.sh
# compares its exact figures with a trapped guest's.  Here: the service
# was in use, the driver said once that it failed and traps from then
# on, and counting on the trapped path is exact.  Sourced by /init.
plan 5

line=$(dmesg | grep 'KVM perf-register service [0-9]' | sed 's/^\[[ 0-9.]*\] //')
echo "$line" | grep -qF 'service 1.2: '
result perfreg_used $? "${line:-no perf-register service line in dmesg}"

# The one warning: the injected failure, and the driver trapping for good.
fallback_lines() {
	dmesg | grep 'KVM perf-register batch failed' | sed 's/^\[[ 0-9.]*\] //'
}
w=$(fallback_lines)
echo "$w" | grep -q 'injected by arm_pmuv3.perfreg_fail' &&
	echo "$w" | grep -q 'registers trapped from now on'
result fallback_reported $? "${w:-no fallback warning in dmesg}"

# Counting after the fallback, on trapped accesses, as exact as ever: a
# group partitions to the instruction, and EL0 counts the loop exactly.
set -- $(stat_values '{instructions,instructions:u,instructions:k,instructions:h}' /bin/loop 200000 500)
all=$1 u=$2 k=$3 h=$4
[ -n "$all" ] && [ "$all" -eq $((u + k + h)) ] && [ "$u" -gt 0 ] && [ "$k" -gt 0 ]
result partition_after_fallback $? "all=$all u=$u k=$k h=$h (tolerance 0)"
u1=$(least_of3 instructions:u /bin/loop 100000 0)
u2=$(least_of3 instructions:u /bin/loop 200000 0)
[ -n "$u1" ] && [ -n "$u2" ] && [ $((u2 - u1)) -eq 200000 ]
result user_exact_after_fallback $? "u(200000)-u(100000)=$((u2 - u1)), expected 200000"

# Still the one warning after all that perf use: no batch was sent again.
n=$(fallback_lines | wc -l)
[ "$n" = 1 ]; result warned_once $? "$n fallback warning(s) in dmesg"

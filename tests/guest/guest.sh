# SPDX-License-Identifier: GPL-2.0-only
#
# A Linux guest's own perf on our driver in guest mode, with the host
# looking on.  Sourced by the guest's /init (pmuv3.mode=guest), which the
# host's linux_guest job booted under tests/guest/vmhost: "host REQ"
# prints "@@HOST REQ" and waits on the console for the host's answer
# (tests/guest/vmhost-cmd.sh), so that what the host measures brackets
# exactly the guest work between two requests.
plan 12
PMU=$(ls -d /sys/bus/event_source/devices/armv8_pmuv3* | head -1)
stty -echo 2>/dev/null	# the host's answers are not echoed back to it

# --- the driver's path to the vPMU registers, as the boot asked ---
# The host offers the perf-register service (kvm.perf_regs=1) at 1.2: the
# driver uses it unless arm_pmuv3.perfreg=0 keeps it on trapped accesses.
line=$(dmesg | grep 'KVM perf-register service' | sed 's/^\[[ 0-9.]*\] //')
# A direct-PMU guest (pmuv3.direct=1, from linux_guest.sh) is told by the
# service that its registers are its own, and uses them.
direct=0
case "$(cat /proc/cmdline)" in
*pmuv3.direct=1*) want='service 1.2: direct PMU, its registers used directly'; direct=1 ;;
*arm_pmuv3.perfreg=0*) want='service: off (arm_pmuv3.perfreg=0)' ;;
*) want='service 1.2: ' ;;
esac
echo "$line" | grep -qF "$want"; result perfreg_path $? "${line:-no perf-register line in dmesg}"

# --- events/ lists what the vPMU implements, no more, no less ---
codes=$(for f in $PMU/events/*; do sed -n 's/^event=\(0x[0-9a-f]*\)$/\1/p' "$f"; done |
	sort -u | paste -sd, -)
ans=$(host events-check "$codes")
[ "$ans" = ok ]; result events_match_pmceid $? "$(echo "$codes" | tr ',' ' ' | wc -w) events: $ans"

# --- what the exclusion bits mean in a guest ---
# exclude_hv: no effect (EL2 is never counted within a guest), and :h
# alone counts nothing.
# Five events need five counters; with fewer (a direct-PMU guest's
# share) the pairs that must agree are grouped, and :h joins :k's.
ncnt=$(dmesg | sed -n 's/.*pmuv3-kvm: armv8_pmuv3: .*, \([0-9]*\) event counters.*/\1/p' | head -1)
if [ "${ncnt:-6}" -ge 5 ]; then
	set -- $(stat_values '{instructions:u,instructions:uh,instructions:k,instructions:kh,instructions:h}' /bin/loop 100000 100)
else
	set -- $(stat_values '{instructions:u,instructions:uh}' /bin/loop 100000 100) \
	       $(stat_values '{instructions:k,instructions:kh,instructions:h}' /bin/loop 100000 100)
fi
[ -n "$5" ] && [ "$1" = "$2" ] && [ "$3" = "$4" ] && [ "$5" = 0 ] && [ "$1" -gt 0 ] && [ "$3" -gt 0 ]
result exclude_hv_no_effect $? "u=$1 uh=$2 k=$3 kh=$4 h=$5"
# exclude_guest excludes this guest's own guests, of which it has none:
# host-only (:H, perf's default) counts what both-sides (:GH) counts.
set -- $(stat_values '{instructions:GH,instructions:H,instructions}' /bin/loop 100000 100)
[ -n "$3" ] && [ "$1" = "$2" ] && [ "$1" = "$3" ] && [ "$1" -gt 0 ]
result exclude_guest_counts_all $? "GH=$1 H=$2 default=$3"
# exclude_host (guest-only) would count nothing, ever: refused, as on any
# kernel without KVM guests, and perf says <not supported> (next to an
# event that opens: perf 7.3 stops when none does).
got=$(/bin/open_errno 0 1 0 0 H)
perf stat -x, -e instructions:H,instructions:G -o /tmp/g.csv -- true >/dev/null 2>&1
[ "$got" = EOPNOTSUPP ] && grep -q '^<not supported>,,instructions:G' /tmp/g.csv
result exclude_host_refused $? "exclude_host: $got; perf: $(grep -v '^#' /tmp/g.csv | grep . | head -1)"

# --- more events than counters: multiplexed, scaled, no error ---
# Twelve instructions:u events for six counters (and a cycle counter
# they cannot use) over a 100,000,000-instruction loop: every count is
# scaled from part of the run, and must still be within 5% of it.  A
# rotation here is a dozen register accesses that trap, each
# thousands of instructions of the host's (about 12,600 at EL2 under the
# protected hypervisor: as many nanoseconds under -icount) inside the
# times perf scales by: on that trapped path 8 of 12 counts once missed
# 2%.  A count left unscaled would miss by half.
ev=instructions:u; for i in 1 2 3 4 5 6 7 8 9 10 11; do ev="$ev,instructions:u"; done
perf stat -x, -e "$ev" -o /tmp/mux.csv -- /bin/loop 50000000 0 >/dev/null 2>&1
rc=$?
n=0 bad=0 partial=0 worst=0
while IFS=, read -r v unit name run pct rest; do
	n=$((n + 1))
	case "$v" in ''|*[!0-9]*) bad=$((bad + 1)); continue ;; esac
	off=$((v - 100000000)); off=${off#-}
	[ $off -gt $worst ] && worst=$off
	[ $off -gt 5000000 ] && bad=$((bad + 1))
	[ "${pct%%.*}" -lt 100 ] && partial=$((partial + 1))
done <<EOT
$(grep -v '^#' /tmp/mux.csv | grep .)
EOT
[ $rc = 0 ] && [ $n = 12 ] && [ $bad = 0 ] && [ $partial -gt 0 ]
result multiplexed $? "exit $rc, $n events, $bad off by more than 5%, worst by $worst, $partial scaled: $(grep -v '^#' /tmp/mux.csv | grep . | head -1)"

# --- the host's view of this guest ---
# The host counts {G,H,GH} on our vCPU thread with perf stat while we
# count our own loop: the host's split is exact, our EL0 count lies
# within its guest-only count, and the host's counters do not move ours
# (the same count with the host's perf stat gone).
host_split_of_guest
u_without=$(least_of3 instructions:u /bin/loop 1000000 0)
[ -n "$u_with" ] && [ "$u_with" = "$u_without" ]
result guest_unmoved_by_host $? "guest instructions:u=$u_with with the host counting, $u_without without"

# --- profiling this guest from the host ---
# Guest-only sampling on the vCPU thread: every sample is the guest's,
# and our 10,000,000-instruction loop gets its 500 (at -c 20000; 450 at
# least) and 95% of the guest's EL0 samples (the loop's addresses are
# guest ones: tests/loop.spin, the same binary on both sides); the same
# for a direct-PMU guest, whose host counters [HPMN, N) interrupt on time
# under the boots' QEMU (qemu/patches/: MDCR_EL2.HPME gates their
# overflow interrupt, not the guest's PMCR_EL0.E, and overflows are
# raised when they happen).  Host-only sampling of the same run: not one
# sample in the guest.
host record-start guest cycles:G >/dev/null
/bin/loop 5000000 0
ans=$(host record-stop guest)
set -- $(echo "$ans" | sed 's/[a-z_]*=//g')
[ -n "$4" ] && [ "$1" = "$2" ] && [ "$4" -ge 450 ] && [ $(($4 * 100)) -ge $(($3 * 95)) ]
result host_samples_guest_loop $? "perf record -e cycles:G -c 20000 on the vCPU thread, guest loop 5000000: $ans"
host record-start hostonly cycles:H >/dev/null
/bin/loop 5000000 0
ans=$(host record-stop hostonly)
set -- $(echo "$ans" | sed 's/[a-z_]*=//g')
[ -n "$4" ] && [ "$1" -gt 0 ] && [ "$2" = 0 ]
result host_only_samples_not_in_guest $? "perf record -e cycles:H: $ans (want host samples, none in the guest)"
# perf kvm --guest, with the guest kernel's symbols: a guest kernel loop
# (clearing user memory for reads of /dev/zero) shows by name: one of the
# functions of that path (which of them leads depends on the kernel);
# a direct-PMU guest's the same.
host record-start kvm kvm >/dev/null
dd if=/dev/zero of=/dev/null bs=1M count=64 2>/dev/null
ans=$(host record-stop kvm)
echo "$ans" | grep -Eq 'top=(__arch_clear_user|__clear_user|clear_user|read_zero|iov_iter_zero|__might_resched|__might_fault) ' &&
	[ "$(echo "$ans" | sed -n 's/.*samples=\([0-9]*\).*/\1/p')" -ge 100 ]
result perf_kvm_guest_kernel $? "perf kvm --guest record/report, guest dd from /dev/zero: $ans"

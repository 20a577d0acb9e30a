# SPDX-License-Identifier: GPL-2.0-only
#
# Boot-time checks of the PMUv3 driver with the real perf tool.  Sourced
# by /init, which reports them in KTAP (tests/guest/ktap.sh).

# armv8_pmuv3 from DT; armv8_pmuv3_0 from ACPI, which numbers its PMUs.
PMU=$(ls -d /sys/bus/event_source/devices/armv8_pmuv3* | head -1)
pmu=${PMU##*/}
case "$mode" in acpi|a57) plan 21 ;; guest) plan 19 ;; *) plan 20 ;; esac

# --- the driver is ours, and knows the mode it runs in ---
case "$mode" in
vhe|acpi) want="VHE host" ;; nvhe) want="nVHE host" ;;
a57) want="nVHE host, 32-bit (chained for long)" ;;
protected) want="protected-KVM host" ;; el1) want="EL1 (no EL2)" ;;
guest) want="KVM guest (EL1, no EL2)" ;;	# a Linux guest (linux_guest.sh)
esac
line=$(dmesg | grep 'pmuv3-kvm: armv8_pmuv3')
echo "$line" | grep -q "$want"; result driver_probed $? "$line"
# N, the event counters (a direct-PMU guest's share is fewer than QEMU's 6).
ncnt=$(echo "$line" | sed -n 's/.*, \([0-9]*\) event counters.*/\1/p')
ncnt=${ncnt:-6}
grep -q ' armv8pmu_cores$' /proc/kallsyms
result driver_is_ours $? "armv8pmu_cores (our probe table) in kallsyms"
# UEFI with ACPI tables: the PMU came from the MADT, not from DT.
if [ "$mode" = acpi ]; then
	[ -d /sys/firmware/acpi/tables ] && [ ! -d /proc/device-tree/pmu ] &&
		[ "$pmu" = armv8_pmuv3_0 ]
	result probed_from_acpi $? "PMU $pmu, ACPI tables: $(ls /sys/firmware/acpi/tables 2>/dev/null | tr '\n' ' ')"
fi

# --- sysfs as perf expects it ---
f="$(cat $PMU/format/event) $(cat $PMU/format/long) $(cat $PMU/format/rdpmc)"
[ "$f" = "config:0-15 config1:0 config1:1" ]; result sysfs_format $? "$f"
# sw_incr is not listed, as in the stock driver (arm_pmuv3_events.c says why).
e=$(cat $PMU/events/inst_retired 2>/dev/null)
swi=$(cat $PMU/events/sw_incr 2>/dev/null || echo absent)
[ "$e" = "event=0x0008" ] && [ "$swi" = absent ]
result sysfs_events $? "inst_retired: $e, sw_incr: $swi"
[ -r $PMU/caps/slots ] && [ -r $PMU/caps/threshold_max ]
result sysfs_caps $? "$(ls $PMU/caps | tr '\n' ' ')"

# --- exclusions partition the count exactly (one group: no skew) ---
# Four instructions events need four counters; with three (a direct-PMU
# guest's share) :h, which is 0 where no EL2 runs, is opened alone.
if [ "$ncnt" -ge 4 ]; then
	set -- $(stat_values '{instructions,instructions:u,instructions:k,instructions:h}' /bin/loop 200000 500)
	all=$1 u=$2 k=$3 h=$4
else
	set -- $(stat_values '{instructions,instructions:u,instructions:k}' /bin/loop 200000 500)
	all=$1 u=$2 k=$3
	h=$(stat_values instructions:h /bin/loop 200000 500)
fi
[ -n "$all" ] && [ "$all" -eq $((u + k + h)) ] && [ "$u" -gt 0 ] && [ "$k" -gt 0 ]
result partition_group $? "all=$all u=$u k=$k h=$h (tolerance 0)"

# Separately opened events start at different instants: allow 0.5%.
set -- $(stat_values 'instructions,instructions:u,instructions:k' /bin/loop 200000 500)
all=$1 u=$2 k=$3
d=$((all - u - k)); [ $d -lt 0 ] && d=$((-d))
[ -n "$all" ] && [ $((d * 200)) -le "$all" ]
result partition_separate $? "all=$all u=$u k=$k |diff|=$d (tolerance 0.5%)"

# --- EL0 counting is exact: 100000 more iterations = 200000 more insns ---
user_exact

# exclude_user counts no EL0 work: 100,000 more loop iterations (200,000
# EL0 instructions) must not show in :k.  Kernel work varies by tens of
# thousands from run to run (more under ACPI): least of three each, and
# a leak would add all 200,000, so half of it separates the two.
k1=$(least_of3 instructions:k /bin/loop 100000 0)
k2=$(least_of3 instructions:k /bin/loop 200000 0)
[ -n "$k1" ] && [ -n "$k2" ] && [ $((k2 - k1)) -lt 100000 ]
result kernel_excludes_user $? "k(200000)-k(100000)=$((k2 - k1)) (least of 3; a leak of the loop would add 200000)"

# --- raw events, the long counter and the cycle counter ---
# Three events of one run agree in every run; the figure shown (which
# linux_guest.sh compares across guests) is the least run's, as
# least_of3's: a whole-process count varies by an instruction or so.
ok=0 best=""
for i in 1 2 3; do
	set -- $(stat_values "instructions:u,$pmu/event=0x08/u,$pmu/event=0x08,long=1/u" /bin/loop 100000 0)
	[ -n "$1" ] && [ "$1" = "$2" ] && [ "$1" = "$3" ] || ok=1
	if [ -z "$best" ] || [ "${1:-0}" -lt "${best%% *}" ]; then best="$1 $2 $3"; fi
done
set -- $best
result raw_and_long $ok "generic=$1 raw=$2 long=$3 (least of 3 runs, each agreeing)"
set -- $(stat_values cycles /bin/loop 100000 0)
[ -n "$1" ] && [ "$1" -gt 0 ]; result cycles $? "cycles=$1"

# --- bad configs are refused with the right errno, and perf counts nothing ---
# The errno from perf_event_open itself (open_errno), and perf's own
# word: it runs, and marks that event <not supported>.  A perf that
# fails for another reason, or does not run at all, is not a refusal.
# A good event goes with it: perf 7.3 stops with "No supported events
# found" when no event opens at all.
rejected() {	# perf-event type config config1 errno
	got=$(/bin/open_errno "$2" "$3" "$4")
	perf stat -x, -e "instructions,$1" -o /tmp/err -- true >/tmp/err.out 2>&1
	rc=$?
	# (perf retries an EOPNOTSUPP event with exclude_guest: "...H")
	[ $rc = 0 ] && grep -q "^<not supported>,,$1H\{0,1\}," /tmp/err
	perf_ok=$?
	echo "$2/$3/$4: $got (expected $5), perf exit $rc: $(grep -v '^#' /tmp/err /tmp/err.out | grep . | head -2 | tr '\n' ' ')"
	[ "$got" = "$5" ] && [ $perf_ok = 0 ]
}
type=$(cat $PMU/type)
out=$(rejected $pmu/event=0x1e/ "$type" 0x1e 0 EINVAL)
result reject_chain $? "CHAIN (0x1e) as a raw event: $out"
out=$(rejected r100008 4 0x100008 0 EINVAL)
result reject_config_bits $? "config bit 20 is outside event=config:0-15: $out"
out=$(rejected $pmu/event=0x08,threshold=5/ "$type" 0x08 0xa0 EOPNOTSUPP)
result reject_threshold $? "threshold without FEAT_PMUv3_TH: $out"
# Branch records need FEAT_BRBE, which QEMU does not have: the event is
# refused with EOPNOTSUPP, perf record -b fails, and there is no
# caps/branches.
got=$(/bin/open_errno "$type" 0x11 0 0 B)
perf record -q -b -e cycles:u -o /tmp/brbe.data -- /bin/loop 1000 0 >/tmp/brbe.out 2>&1
rc=$?
[ "$got" = EOPNOTSUPP ] && [ $rc != 0 ] && [ ! -e "$PMU/caps/branches" ]
result reject_branch_stack $? "cycles with branch records: $got (expected EOPNOTSUPP), perf record -b exit $rc: $(grep . /tmp/brbe.out | head -1)"
perf stat -e instructions,instructions -x, -o /tmp/ok.csv -- /bin/loop 1000 0 >/dev/null 2>&1 &&
	[ "$(grep -c '^[0-9]' /tmp/ok.csv)" = 2 ]
result control_after_rejects $? "a valid event still opens and counts: $(grep -v '^#' /tmp/ok.csv | cut -d, -f1 | tr '\n' ' ')"

# A group larger than the PMU (N counters + cycle counter: 6 on QEMU, a
# direct-PMU guest's share) cannot be scheduled: perf runs, and none of
# its N + 2 events is counted.  The same group one smaller counts all
# N + 1: the refusal is about the size.
g=cycles; i=0; while [ $i -lt "$ncnt" ]; do g="$g,instructions"; i=$((i + 1)); done
perf stat -x, -e "{$g}" -o /tmp/fits.csv -- /bin/loop 1000 0 >/dev/null 2>&1
fits=$?
perf stat -x, -e "{$g,instructions}" -o /tmp/big.csv -- /bin/loop 1000 0 >/tmp/big.out 2>&1
big=$?
nc=$(grep -c '^<not counted>\|^<not supported>' /tmp/big.csv)
[ $fits = 0 ] && [ "$(grep -c '^[0-9]' /tmp/fits.csv)" = $((ncnt + 1)) ] &&
	[ $big = 0 ] && [ "$nc" = $((ncnt + 2)) ] && ! grep -q '^[0-9]' /tmp/big.csv
result group_too_big $? "$((ncnt + 1)) events: exit $fits, $(grep -c '^[0-9]' /tmp/fits.csv) counted; $((ncnt + 2)): exit $big, $nc not counted: $(grep -v '^#' /tmp/big.csv /tmp/big.out | grep . | head -1)"

# --- sampling: perf record, then perf report ---
# cycles, not instructions: QEMU 7.2 raises INST_RETIRED overflows late
# (the stock driver sees the same), CPU_CYCLES ones on time.
# In a KVM guest each PMU register access of the overflow handler is an
# exit: at -c 10000 the handler takes long enough (13,450 ns measured)
# that perf throttles it; ten times the period and the loop keep the
# same 200 samples due, within perf's rate limit.
# And the handler's exits cost more still under the protected hypervisor
# (about 12,000 EL2 instructions an exit, under -icount as many
# nanoseconds): perf would lower the guest's sample rate for the time its
# handler takes (8 throttles, 132 of 200 samples, on the trapped path).
# What is checked here is where samples land, so the guest turns that
# time-based limit off (perf_cpu_time_max_percent=0) for this record
# only; the rate stays far below perf_event_max_sample_rate.  Left off,
# the fuzz job's sampling attrs that follow keep a protected guest in
# its overflow handler past the boot's timeout.
period=10000 iters=1000000
max_pct=$(cat /proc/sys/kernel/perf_cpu_time_max_percent)
if [ "$mode" = guest ]; then
	period=100000 iters=10000000
	echo 0 > /proc/sys/kernel/perf_cpu_time_max_percent
fi
perf record -q -e cycles:u -c $period -o /tmp/perf.data -- /bin/loop $iters 0 >/dev/null 2>&1
echo "$max_pct" > /proc/sys/kernel/perf_cpu_time_max_percent
perf report -i /tmp/perf.data --stdio --sort sym 2>/dev/null > /tmp/report
samples=$(sed -n 's/^# Samples: \([0-9]*\).*/\1/p' /tmp/report | head -1)
# Samples are taken when the overflow interrupt arrives; QEMU delivers it
# late now and then, inside the kernel: allow 2% of them there.
kshare=$(grep '\[k\]' /tmp/report | awk '{ s += $1 } END { printf "%d", s }')
[ "${samples:-0}" -ge 150 ] && grep '%' /tmp/report | head -1 | grep -q spin &&
	[ "${kshare:-0}" -lt 2 ]
result record_user $? "samples=$samples, kernel ${kshare:-0}%, throttled $(perf report -D -i /tmp/perf.data 2>/dev/null | grep -c 'PERF_RECORD_THROTTLE') times, top: $(grep '%' /tmp/report | head -1 | tr -s ' ')"

# --- a throttled group samples again after the next tick ---
# Host modes only: in a Linux guest each sample costs exits, and the
# guest's record above covers the handler's service path.
if [ "$mode" != guest ]; then
	throttled_group_restarts
fi

# --- user-space counter access (kernel.perf_user_access, rdpmc=1) ---
# a57: 32-bit counters, so 64-bit events chain; rdpmc must never get a pair.
chain=""; [ "$mode" = a57 ] && chain=chained
run_program rdpmc /bin/rdpmc "$(cat $PMU/type)" $chain
# a57: a running chained event keeps its pair when a sibling joins its group.
if [ "$mode" = a57 ]; then
	run_program chain_group /bin/chain_group "$(cat $PMU/type)"
fi

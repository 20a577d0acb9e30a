# SPDX-License-Identifier: GPL-2.0-only
#
# Host instructions per guest exit+entry (host kernel and, on VHE, EL2)
# of a VM without a PMU, with the trapped vPMU and with the direct PMU:
# the outside view of make bench's exitentry rows, for trying a change
# in one boot (tests/boot.sh vhe-up exitcost), with perf stat around
# pmu_bench's uncounted loop of 20,000 and 120,000 hypercall rounds,
# the least of three; and per round that reads PMEVCNTR0_EL0 instead
# (trapped: an exit; direct: none, but the EL2 fast path where the
# guarded profile traps it).  Shows figures; checks nothing.
plan 0
echo -1 > /proc/sys/kernel/perf_event_paranoid
count() {	# kind rounds
	perf stat -x, -e instructions:kH -- /bin/pmu_bench loop "$1" "$2" 2>&1 >/dev/null |
		grep instructions | cut -d, -f1
}
for kind in none trapped direct trapped-read direct-read; do
	best=
	for i in 1 2 3; do
		a=$(count $kind 20000)
		b=$(count $kind 120000)
		d=$(( (b - a) / 100 ))
		{ [ -z "$best" ] || [ $d -lt $best ]; } && best=$d
	done
	case $kind in
	*-read) what="round with a PMEVCNTR0_EL0 read, ${kind%-read}" ;;
	*) what="exit+entry $kind" ;;
	esac
	echo "$what: $((best / 1000)).$(printf %03d $((best % 1000))) host instructions"
done

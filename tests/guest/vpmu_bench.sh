# SPDX-License-Identifier: GPL-2.0-only
#
# make bench, inside a Linux guest: what each perf operation of the guest
# costs the host through the virtual PMU.  Around every run of
# tests/guest/vpmu_ops the host counts (vmhost's "count" request) KVM
# exits and, on the vCPU thread, host-only kernel and hypervisor
# instructions.  Each figure is the difference between a run of N2 and a
# run of N1 operations, divided by N2 - N1 (fixed costs cancel), each
# run the least of three (a host interrupt can land in any one of them).
# Prints "BENCH <p>_<op>_exits X" and "BENCH <p>_<op>_insns Y" lines,
# per operation, where <p> is vpmu_svc when the driver uses the host's
# perf-register service, vpmu_direct on the direct PMU (pmuv3.direct=1,
# from vm_bench.sh), vpmu_unguarded on it in the unguarded trap profile
# (pmuv3.direct=unguarded), either with _filtered when its VMM set an
# event filter (pmuv3.direct=filtered, unguarded-filtered) and vpmu when
# its register accesses trap;
# tests/guest/vm_bench.sh passes them on to make bench.
plan 0	# shows figures; checks nothing
pfx=vpmu
dmesg | grep -q 'KVM perf-register service [0-9]' && pfx=vpmu_svc
grep -q 'pmuv3.direct=1' /proc/cmdline && pfx=vpmu_direct
grep -q 'pmuv3.direct=filtered' /proc/cmdline && pfx=vpmu_direct_filtered
grep -q 'pmuv3.direct=unguarded' /proc/cmdline && pfx=vpmu_unguarded
grep -q 'pmuv3.direct=unguarded-filtered' /proc/cmdline && pfx=vpmu_unguarded_filtered
stty -echo 2>/dev/null
# The overflow figures want every interrupt: no throttling.
echo 0 > /proc/sys/kernel/perf_cpu_time_max_percent

# One field of the host's "count" answer.
field() {	# name answer
	echo "$2" | sed -n "s/.*$1=\([0-9]*\).*/\1/p"
}

# The host's exit and instruction counts around one command; "x x x"
# if a run of it failed, so that no figure is printed from it.
host_delta() {	# command... -> "exits insns hvcs" of the least of three runs
	best_e="" best_i="" best_h=""
	for r in 1 2 3; do
		c0=$(host count)
		if ! "$@" > /tmp/vpmu_ops.out; then
			echo "$*: failed" >&2
			echo "x x x"
			return
		fi
		c1=$(host count)
		e=$(($(field exits "$c1") - $(field exits "$c0")))
		i=$(($(field insns "$c1") - $(field insns "$c0")))
		h=$(($(field hvc "$c1") - $(field hvc "$c0")))
		{ [ -z "$best_e" ] || [ $e -lt "$best_e" ]; } && best_e=$e
		{ [ -z "$best_i" ] || [ $i -lt "$best_i" ]; } && best_i=$i
		{ [ -z "$best_h" ] || [ $h -lt "$best_h" ]; } && best_h=$h
	done
	echo "$best_e $best_i $best_h"
}

# One figure: per operation, from N1 and N2 operations.
per_op() {	# name ops-per-unit n1 n2 vpmu_ops-args-before-N...
	name=$1 per=$2 n1=$3 n2=$4; shift 4
	set -- $(host_delta /bin/vpmu_ops "$@" $n1) $(host_delta /bin/vpmu_ops "$@" $n2)
	case " $* " in *" x "*) echo "vpmu_bench: $name: vpmu_ops failed, no figure"; return ;; esac
	awk -v e1=$1 -v i1=$2 -v h1=$3 -v e2=$4 -v i2=$5 -v h2=$6 \
		-v n=$(((n2 - n1) * per)) -v name=$name -v pfx=$pfx 'BEGIN {
		printf "BENCH %s_%s_exits %.2f\n", pfx, name, (e2 - e1) / n
		printf "BENCH %s_%s_hvcs %.2f\n", pfx, name, (h2 - h1) / n
		printf "BENCH %s_%s_insns %.0f\n", pfx, name, (i2 - i1) / n }'
}

# A run's own host work (the process, the guest's ticks) moves by tens of
# thousands of instructions between runs.  Over 500 more operations
# that is a few hundred each, as much as a direct PMU's whole read: the
# direct PMU's runs, filtered or not, take five times as many more
# operations (a VHE 1-counter read measured -32 to 251 in three sets of
# 100 against 600, 177 to 212 in six sets of 100 against 2,600).
scale=1
case $pfx in vpmu_direct*|vpmu_unguarded*) scale=5 ;; esac
n2=$((100 + 500 * scale))
for k in 1 4 6; do
	per_op read$k 1 100 $n2 read $k
done
per_op open 1 100 $n2 open
for k in 0 1 4 7; do
	per_op switch$k 2 100 $n2 switch $k
done

# One overflow interrupt, end to end: sampling runs minus counting-only
# runs of the same loops, per sample taken; loops of 50 and 250 sample
# periods (50 and 1,050 on the direct PMU, as above).
o2=$((50 + 200 * scale))
set -- $(host_delta /bin/vpmu_ops overflow 50); s1=$(sed 's/samples=//' /tmp/vpmu_ops.out)
set -- "$@" $(host_delta /bin/vpmu_ops overflow $o2); s2=$(sed 's/samples=//' /tmp/vpmu_ops.out)
set -- "$@" $(host_delta /bin/vpmu_ops spin 50) $(host_delta /bin/vpmu_ops spin $o2)
case " $* " in
*" x "*) echo "vpmu_bench: overflow: vpmu_ops failed, no figure" ;;
*)
	awk -v e1=$1 -v i1=$2 -v h1=$3 -v e2=$4 -v i2=$5 -v h2=$6 \
		-v b1=$7 -v j1=$8 -v g1=$9 -v b2=${10} -v j2=${11} -v g2=${12} \
		-v n=$((s2 - s1)) -v pfx=$pfx 'BEGIN {
		printf "BENCH %s_overflow_exits %.2f\n", pfx, ((e2 - e1) - (b2 - b1)) / n
		printf "BENCH %s_overflow_hvcs %.2f\n", pfx, ((h2 - h1) - (g2 - g1)) / n
		printf "BENCH %s_overflow_insns %.0f\n", pfx, ((i2 - i1) - (j2 - j1)) / n }'
	echo "BENCH ${pfx}_overflow_samples $s1 $s2"
	;;
esac

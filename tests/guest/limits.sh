# SPDX-License-Identifier: GPL-2.0-only
#
# The README's Known limits that come from QEMU, measured again on the
# QEMU this boot runs under: figures, not verdicts (each check passes if
# its measurement ran).  Not part of make check; `make limits` boots it
# in the modes the README quotes.  Sourced by /init.
plan 4
cpus=$(grep -c '^processor' /proc/cpuinfo)

# 1. Where sampling interrupts land: INST_RETIRED against CPU_CYCLES
# overflows at the same period, over the same EL0 loop (late interrupts
# put samples in the kernel, or after the loop).
record_share() {	# event -> "samples S, kernel K%, top SYMBOL"
	perf record -q -e "$1" -c 10000 -o /tmp/lim.data -- /bin/loop 1000000 0 \
		>/dev/null 2>&1 || return 1
	perf report -i /tmp/lim.data --stdio --sort sym 2>/dev/null > /tmp/lim.rep
	s=$(sed -n 's/^# Samples: \([0-9]*\).*/\1/p' /tmp/lim.rep | head -1)
	k=$(grep '\[k\]' /tmp/lim.rep | awk '{ t += $1 } END { printf "%.1f", t }')
	top=$(grep '%' /tmp/lim.rep | head -1 | awk '{ print $1, $NF }')
	echo "samples $s, kernel $k%, top $top"
}
i=$(record_share instructions:u) && c=$(record_share cycles:u)
result sampling_late $? "$cpus CPU(s): instructions:u $i; cycles:u $c (200 due each)"

# 2. EL0 exactness: 100,000 more iterations of spin() add exactly
# 200,000 to instructions:u, least and most of five, before any guest.
el0_growth() {	# -> "least..most"
	lo="" hi=""
	for r in 1 2 3 4 5; do
		a=$(stat_values instructions:u /bin/loop 100000 0 | cut -d' ' -f1)
		b=$(stat_values instructions:u /bin/loop 200000 0 | cut -d' ' -f1)
		d=$((b - a))
		if [ -z "$lo" ] || [ $d -lt "$lo" ]; then lo=$d; fi
		if [ -z "$hi" ] || [ $d -gt "$hi" ]; then hi=$d; fi
	done
	echo "$lo..$hi"
}
before=$(el0_growth)
result el0_growth_before_kvm $? "$cpus CPU(s): +$before for 200,000"

# 3. The shared clock: the same loop counted on CPU 0 while CPU 1 spins
# at EL0 (on one CPU: the loop alone).
spin_beside() {	# -> "instructions:u I, cycles:u C"
	set -- $(stat_values 'instructions:u,cycles:u' taskset -c 0 /bin/loop 1000000 0)
	echo "instructions:u $1, cycles:u $2"
}
alone=$(spin_beside)
if [ "$cpus" -gt 1 ]; then
	taskset -c 1 /bin/loop 4000000000 0 & spinner=$!
	beside=$(spin_beside)
	kill $spinner; wait $spinner 2>/dev/null
else
	beside="(one CPU)"
fi
result shared_clock 0 "loop of 2,000,000 on CPU 0: alone $alone; CPU 1 spinning: $beside"

# 4. After KVM has run guests (pmu_split, which prints its own figures),
# the EL0 growth again.
if [ -e /dev/kvm ]; then
	/bin/pmu_split > /tmp/lim-split.out 2>&1
	sed 's/^/    # /' /tmp/lim-split.out
	after=$(el0_growth)
	result el0_growth_after_kvm $? "$cpus CPU(s): +$after for 200,000 (pmu_split: $(tail -1 /tmp/lim-split.out))"
else
	result el0_growth_after_kvm 0 "no KVM in this boot"
fi

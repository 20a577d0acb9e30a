# SPDX-License-Identifier: GPL-2.0-only
# make demo, inside a Linux guest: the guest's own perf stat on a loop of
# known length, while the host counts the same run with guest-only and
# host-only events on the guest's vCPU thread, and the vCPU's exits.  Sourced by the guest's
# /init (tests/guest/demo.sh boots it).
plan 0	# shows figures; checks nothing
stty -echo 2>/dev/null
echo "== in the guest: $(dmesg | grep 'pmuv3-kvm: armv8_pmuv3' | sed 's/^\[[ 0-9.]*\] //')"
echo "== guest: perf stat (loop 2000000 2000 = 4,000,000 EL0 instructions in spin())"
host stat-start demo '{instructions:G,instructions:H,instructions:GH}' >/dev/null
c0=$(host exits)
perf stat -e instructions:u,instructions:k,instructions -- /bin/loop 2000000 2000 2>&1 |
	grep -E 'instructions|elapsed'
c1=$(host exits)
set -- $(host stat-stop demo | tr ',' ' ')
echo "== host: the same run, perf stat -e '{instructions:G,instructions:H,instructions:GH}' -t <vCPU thread>"
printf '%20s      instructions:G   (the guest: its perf, its loop, its kernel)\n' "$1"
printf '%20s      instructions:H   (the host: KVM exits, QEMU'"'"'s vCPU thread)\n' "$2"
printf '%20s      instructions:GH  (G + H - GH = %d)\n' "$3" $(($1 + $2 - $3))
# KVM's exit count around the same run (the host's debugfs, no counter).
printf '%20s      exits of the vCPU to the host during the run (KVM)\n' $((c1 - c0))
# Sampling: every overflow interrupt is an exit, and the trapped PMU's
# handler adds one for each PMU register it touches.
c0=$(host exits)
perf record -q -e instructions:u -c 100000 -o /tmp/demo.data -- /bin/loop 2000000 2000 \
	>/dev/null 2>&1
c1=$(host exits)
echo "== guest: perf record -e instructions:u -c 100000 (the same loop)"
printf '%20s      samples\n' "$(perf script -i /tmp/demo.data 2>/dev/null | wc -l)"
printf '%20s      exits of the vCPU to the host during the run (KVM)\n' $((c1 - c0))

# SPDX-License-Identifier: GPL-2.0-only
# make demo, inside a Linux guest: the guest's own perf stat on a loop of
# known length, while the host counts the same run with guest-only and
# host-only events on the guest's vCPU thread.  Sourced by the guest's
# /init (tests/guest/demo.sh boots it).
plan 0	# shows figures; checks nothing
stty -echo 2>/dev/null
echo "== in the guest: $(dmesg | grep 'pmuv3-kvm: armv8_pmuv3' | sed 's/^\[[ 0-9.]*\] //')"
echo "== guest: perf stat (loop 2000000 2000 = 4,000,000 EL0 instructions in spin())"
host stat-start demo '{instructions:G,instructions:H,instructions:GH}' >/dev/null
perf stat -e instructions:u,instructions:k,instructions -- /bin/loop 2000000 2000 2>&1 |
	grep -E 'instructions|elapsed'
set -- $(host stat-stop demo | tr ',' ' ')
echo "== host: the same run, perf stat -e '{instructions:G,instructions:H,instructions:GH}' -t <vCPU thread>"
printf '%20s      instructions:G   (the guest: its perf, its loop, its kernel)\n' "$1"
printf '%20s      instructions:H   (the host: KVM exits, QEMU'"'"'s vCPU thread)\n' "$2"
printf '%20s      instructions:GH  (G + H - GH = %d)\n' "$3" $(($1 + $2 - $3))

# SPDX-License-Identifier: GPL-2.0-only
# make bench, on the host: boot a Linux guest that measures what its perf
# operations cost this host (tests/guest/vpmu_bench.sh) and pass its
# "BENCH name value" lines on to mk/bench.sh.  Sourced by /init.
plan 0	# shows figures; checks nothing
vm_run /tmp/vm_bench.log vpmu_bench > /tmp/vm_bench.out 2>&1 ||
	sed 's/^/    # /' /tmp/vm_bench.out
grep -q '^@@DONE' /tmp/vm_bench.log || tail -20 /tmp/vm_bench.log | sed 's/^/    # guest: /'
sed -n 's/^\(BENCH .*\)/\1/p' /tmp/vm_bench.log

# SPDX-License-Identifier: GPL-2.0-only
# The demo: show which PMU driver counts, then perf stat and perf record.
echo "== driver"
dmesg | grep 'pmuv3-kvm:'
echo "== perf stat (workload: loop 2000000 2000 = 4,000,000 EL0 instructions in spin())"
perf stat -e instructions,instructions:u,instructions:k,cycles -- /bin/loop 2000000 2000 2>&1
echo "== perf stat, one group, exclusions side by side"
perf stat -e '{instructions,instructions:u,instructions:k,instructions:h}' -- /bin/loop 2000000 2000 2>&1
echo "== perf record -e instructions -c 20000 / perf report"
perf record -q -e instructions -c 20000 -o /tmp/perf.data -- /bin/loop 2000000 2000 2>&1
perf report -i /tmp/perf.data --stdio --sort comm,dso,sym 2>/dev/null | grep -v '^#' | grep -v '^$' | head -8

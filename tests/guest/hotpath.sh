# SPDX-License-Identifier: GPL-2.0-only
# make bench: what perf's hot paths cost on this kernel, per operation
# (tests/guest/hotpath.c), as "BENCH name least spread" lines for
# mk/bench.sh.  One-CPU boots run every row, the a57 boot the chained
# rows, and boots on more CPUs the context-switch rows again, suffixed
# with their CPU count.  Sourced by /init.
plan 0	# shows figures; checks nothing
case "$mode" in
a57*) /bin/hotpath chained ;;
*-up) /bin/hotpath all ;;
*) /bin/hotpath switch "_smp$(nproc)" ;;
esac

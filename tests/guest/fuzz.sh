# SPDX-License-Identifier: GPL-2.0-only
# Attr fuzzing: 100,000 random perf_event_attrs, counting and sampling,
# against our PMU, the raw and the generic types, with a fixed seed
# (printed).  Sourced by /init; fuzz_attr's checks are a KTAP subtest.
type=$(cat "$(ls -d /sys/bus/event_source/devices/armv8_pmuv3* | head -1)/type")
seed=20261202
# The debug-kernel boots draw other attrs, and so does a Linux guest.
case "$mode" in *-debug) seed=20261203 ;; *-nmi) seed=20261204 ;; guest) seed=20261205 ;; esac
# Replaying, from the kernel command line (BOOT_APPEND=...):
#   pmuv3.fuzz=N                 attrs 0..N-1 (default 100,000)
#   pmuv3.fuzzargs=S,FIRST,TRACE sampling attrs on (S=1, the default) or
#                                off, from attr FIRST, each printed
count=$(sed -n 's/.*pmuv3\.fuzz=\([0-9]*\).*/\1/p' /proc/cmdline)
args=$(sed -n 's/.*pmuv3\.fuzzargs=\([0-9,]*\).*/\1/p' /proc/cmdline | tr ',' ' ')
plan 1
run_program fuzz_attr /bin/fuzz_attr "$type" "${count:-100000}" "$seed" ${args:-1}

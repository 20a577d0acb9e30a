# SPDX-License-Identifier: GPL-2.0-only
#
# A Linux guest's perf stat and the host's view of it, where the host
# runs no driver of ours (the stock+fixes leg, tests/guest/stock_fixes.sh):
# the guest's EL0 counts are exact, and the host's {G,H,GH} split of the
# guest's vCPU thread is exact and holds the guest's own count.  Sourced
# by the guest's /init (pmuv3.mode=guest).
plan 3
stty -echo 2>/dev/null	# the host's answers are not echoed back to it
user_exact
host_split_of_guest

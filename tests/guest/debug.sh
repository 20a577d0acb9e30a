# SPDX-License-Identifier: GPL-2.0-only
# Last job of a -debug boot: the kernel's own checkers were on and are
# still on.  Lockdep turns itself off (debug_locks 0) after its first
# splat, so a 1 here, with a clean console, means it saw every lock the
# earlier jobs took and found nothing.  Sourced by /init.
stats=$(grep -E '^ *(debug_locks|lock-classes|direct dependencies):' \
	/proc/lockdep_stats 2>/dev/null | tr -s ' ' | tr '\n' ',')
plan 1
echo "$stats" | grep -q 'debug_locks: 1,'
result lockdep_on $? "${stats:-no /proc/lockdep_stats}"

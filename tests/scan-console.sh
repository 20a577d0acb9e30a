#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Usage: tests/scan-console.sh LOG
# Exits 1, printing the first matches, if a kernel console log shows that
# something went wrong: a panic, a WARN or lockdep splat (both begin with
# "WARNING:"), BUG or oops, an RCU stall or hung task ("INFO: ..."), a
# lockup, lockdep switching itself off, or a debugobjects report.
# tests/console/ holds samples of each; check.sh runs this over them.
ERRORS='Kernel panic|^WARNING:|BUG:|Oops|Internal error|Unable to handle'
ERRORS="$ERRORS|(^|: )INFO: |soft lockup|hard LOCKUP"
ERRORS="$ERRORS|turning off the locking correctness validator|ODEBUG:"
if grep -Eq "$ERRORS" "$1"; then
	grep -E -m5 "$ERRORS" "$1"
	exit 1
fi
exit 0

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The overlay replaces some base files whole (mk/base-replaced-<BASE>.sha256
# lists them, for each base).  If the base tree's copy differs from the
# pinned version, laying ours over it would drop whatever changed there without
# a word: stop, naming the files, unless OVERLAY_FORCE=1 says the user
# has looked.  Every overlay file that exists in the base must be listed.
# Usage: BASE=7.3|6.12 mk/check-base.sh BASE_DIR
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
SUMS=$TOP/mk/base-replaced-${BASE:?BASE=7.3 or 6.12}.sha256
BASE=$1

changed=""
for f in $(cd "$TOP" && find arch drivers include Documentation tools -type f | sort); do
	[ -e "$BASE/$f" ] || continue
	want=$(sed -n "s|^\([0-9a-f]*\)  $f\$|\1|p" "$SUMS")
	if [ -z "$want" ]; then
		changed="$changed $f(not-in-$(basename "$SUMS"))"
		continue
	fi
	have=$(sha256sum "$BASE/$f" | cut -d' ' -f1)
	[ "$have" = "$want" ] || changed="$changed $f"
done
[ -z "$changed" ] && exit 0

echo "check-base: the base tree's version of files our overlay replaces" >&2
echo "check-base: differs from the pinned one ($(basename "$SUMS")):" >&2
for f in $changed; do echo "check-base:   $f" >&2; done
echo "check-base: upstream changes there would be lost.  Compare them with" >&2
echo "check-base: ours, then rerun with OVERLAY_FORCE=1 to build anyway." >&2
[ "${OVERLAY_FORCE:-0}" = 1 ] && { echo "check-base: OVERLAY_FORCE=1: going on" >&2; exit 0; }
exit 1

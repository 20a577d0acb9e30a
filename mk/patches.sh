#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Write our change against the base tree as a git format-patch series in
# build/patches/, following mk/series.  Only the files we touch are put in
# a scratch repository (base version first), so this takes seconds.
#
# A block's "series-glue:" patches (mk/series-glue-<BASE>/) exist only in
# the series: they take a file through a state between the base and ours
# (the stock driver on our event ABI, say), so that a commit that would
# rewrite it whole can be split.  They are applied after the block's
# paths and glue, never to the build tree; a later block must take each
# file they touch from the overlay, which the end checks.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
BASE=${BASE:-7.3}
BUILD=${BUILD:-$TOP/build/$BASE}
SERIES=$TOP/mk/series-${BASE:?BASE=7.3 or 6.12}
GLUE=$TOP/patches/$BASE
# Glue that every base takes as it is (patches/common/), else the base's.
glue_file() {	# patch
	if [ -f "$GLUE/$1" ]; then echo "$GLUE/$1"; else echo "$TOP/patches/common/$1"; fi
}
SGLUE=$TOP/mk/series-glue-$BASE
# Our files as mk/overlay.sh staged them for this base (with its
# backport patches applied).
OVERLAY=$BUILD/overlay
BASE=$BUILD/base
WORK=$BUILD/series-repo
OUT=$BUILD/patches

# The author and Signed-off-by: AUTHOR="Name <email>", else the user's git
# identity (this repository's, then the global one).  Never a placeholder:
# without either, stop.
if [ -n "${AUTHOR:-}" ]; then
	name=${AUTHOR% <*}
	email=$(echo "$AUTHOR" | sed -n 's/.*<\(.*\)>.*/\1/p')
else
	name=$(git -C "$TOP" config user.name || true)
	email=$(git -C "$TOP" config user.email || true)
fi
if [ -z "$name" ] || [ -z "$email" ]; then
	echo "patches: no author: set AUTHOR=\"Name <email>\" or git config user.name/user.email" >&2
	exit 1
fi

rm -rf "$WORK" "$OUT" && mkdir -p "$WORK" "$OUT"
cd "$WORK"
git init -q
git config user.name "$name"
git config user.email "$email"

# Every file any patch touches, at its base version (if it has one).
files=$(sed -n 's/^path: //p' "$SERIES")
for g in $(sed -n 's/^glue: //p' "$SERIES"); do
	files="$files $(sed -n 's|^+++ b/||p' "$(glue_file "$g")")"
done
sfiles=""
for g in $(sed -n 's/^series-glue: //p' "$SERIES"); do
	sfiles="$sfiles $(sed -n 's|^+++ b/||p' "$SGLUE/$g")"
done
files="$files $sfiles"
for f in $files; do
	if [ -e "$BASE/$f" ]; then
		mkdir -p "$(dirname "$f")" && cp "$BASE/$f" "$f"
	fi
done
git add -A && git commit -q --allow-empty -m base

# A KUnit directory's Makefile (drivers/perf/tests/, arch/arm64/kvm/tests/)
# names only the suites present so far.
tests_makefile() {
	for dir in drivers/perf/tests arch/arm64/kvm/tests; do
		mk=$dir/Makefile
		[ -e "$mk" ] || continue
		# (mk_line, not line: the series loop below reads into $line)
		while IFS= read -r mk_line; do
			o=$(echo "$mk_line" | sed -n 's/.*+= \(.*\)\.o$/\1/p')
			if [ -z "$o" ] || [ -e "$dir/$o.c" ]; then
				echo "$mk_line"
			fi
		done < "$OVERLAY/$mk" > "$mk"
	done
}

# drivers/perf/tests/.kunitconfig asks only for symbols that exist by then:
# one the series adds (not in the base's Kconfig files it touches, but in
# the build tree's) waits for the commit that defines it.
KCONFIGS="arch/arm64/kvm/Kconfig drivers/perf/Kconfig drivers/perf/tests/Kconfig"
ours_sym() {	# symbol
	for k in $KCONFIGS; do
		grep -qs "^config $1\$" "$BASE/$k" && return 1
	done
	for k in $KCONFIGS; do
		grep -qs "^config $1\$" "$BUILD/src/$k" && return 0
	done
	return 1
}
kunitconfig() {
	kc=drivers/perf/tests/.kunitconfig
	[ -e "$kc" ] || return 0
	while IFS= read -r kc_line; do
		sym=$(echo "$kc_line" | sed -n 's/^CONFIG_\([A-Z0-9_]*\)=.*/\1/p')
		# shellcheck disable=SC2086
		if [ -z "$sym" ] || ! ours_sym "$sym" ||
		   grep -qs "^config $sym\$" $KCONFIGS; then
			echo "$kc_line"
		fi
	done < "$OVERLAY/$kc" > "$kc"
}

apply_glue() {	# file
	sed -n '/^--- a\//,$p' "$1" > "$BUILD/series.glue"
	# --batch and no stdin: patch must never take an answer from the
	# series file the loop below is reading.
	patch -s -p1 --batch --no-backup-if-mismatch \
		-i "$BUILD/series.glue" < /dev/null ||
		{ echo "patches: $1 does not apply" >&2; exit 1; }
}

commit_block() {	# subject msgfile paths glue series-glue
	for p in $3; do mkdir -p "$(dirname "$p")" && cp "$OVERLAY/$p" "$p"; done
	tests_makefile
	for g in $4; do apply_glue "$(glue_file "$g")"; done
	for g in $5; do apply_glue "$SGLUE/$g"; done
	kunitconfig
	git add -A
	{ echo "$1"; echo; cat "$2"; } | git commit -q -s -F -
}

subject="" paths="" glue="" sglue="" inmsg=0
: > "$BUILD/series.msg"
flush() {
	[ -n "$subject" ] && commit_block "$subject" "$BUILD/series.msg" \
		"$paths" "$glue" "$sglue"
	subject="" paths="" glue="" sglue=""
	: > "$BUILD/series.msg"
}
while IFS= read -r line; do
	if [ $inmsg = 1 ]; then
		if [ "$line" = "." ]; then inmsg=0; else echo "$line" >> "$BUILD/series.msg"; fi
		continue
	fi
	case "$line" in
	"subject: "*) flush; subject=${line#subject: }; inmsg=1 ;;
	"path: "*) paths="$paths ${line#path: }" ;;
	"glue: "*) glue="$glue ${line#glue: }" ;;
	"series-glue: "*) sglue="$sglue ${line#series-glue: }" ;;
	esac
done < "$SERIES"
flush
rm -f "$BUILD/series.msg" "$BUILD/series.glue"

# The series must end where the build tree is: no state that only the
# series-glue made may be left over.
for f in $sfiles; do
	cmp -s "$f" "$OVERLAY/$f" ||
		{ echo "patches: the series leaves $f as series-glue made it, not ours" >&2; exit 1; }
done

git format-patch -q -o "$OUT" HEAD~$(($(git rev-list --count HEAD) - 1))
ls "$OUT"

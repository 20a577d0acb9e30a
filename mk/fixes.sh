#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The stock bugs we found, as an upstream-style series on the pristine
# base tree: no overlay, no glue.  The patches are fixes/<BASE>/*.patch
# (git format-patch form, one fix each, and the selftest that shows the
# KVM ones) and the
# cover letter's subject and text fixes/<BASE>/cover-letter.
#
#   mk/fixes.sh series   git am them on a git tree of the base
#                        (build/<BASE>/fixes/src) and write the series,
#                        cover letter included, to build/<BASE>/fixes/series
#   mk/fixes.sh check    each patch in order builds the project's arm64
#                        config and the arm32 CONFIG_ARM_PMUV3 one
#   mk/fixes.sh kernel   the stock+fixes kernel (the project's config) and
#                        the selftests its boots run, from the series' tree
#   mk/fixes.sh initramfs  the boots' initramfs, those selftests added
#   mk/fixes.sh without  the stock+fixes leg of make check without each fix
#                        in turn: the checks that fail without it
#
# The tree and its builds sit at the same paths under build/<BASE>/fixes/
# as ours under build/<BASE>/ (src/, kernel/), so that ccache shares every
# object the fixes do not touch.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
BASE=${BASE:-7.3}
BUILD=${BUILD:-$TOP/build/$BASE}
CROSS_COMPILE=${CROSS_COMPILE:-aarch64-linux-gnu-}
FIX=$BUILD/fixes
T=$FIX/src
PATCHES=$TOP/fixes/$BASE
export CCACHE_BASEDIR="$FIX"
export GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"
# The tree's own repository only, never one it sits in (build/ is in
# ours).
GIT="git --git-dir=$T/.git --work-tree=$T -c user.name=pmuv3-kvm -c user.email=pmuv3-kvm@localhost"

kmake() {	# out arch cross target...
	out=$1 arch=$2 cross=$3; shift 3
	make -C "$T" O="$out" ARCH="$arch" CROSS_COMPILE="$cross" \
		CC="ccache ${cross}gcc" -j"$(nproc)" "$@"
}

# A git tree of the pristine base, its one commit tagged "base"; made
# once, then reset to it for every series.
base_tree() {
	if [ ! -d "$T/.git" ] ||
	   ! $GIT rev-parse -q --verify base >/dev/null 2>&1; then
		rm -rf "$T" && mkdir -p "$T"
		rsync -a --exclude=/.stamp "$BUILD/base/" "$T/"
		# Debian's tree ignores its own top level (/*): add by force.
		git init -q "$T"
		$GIT add -f -A .
		$GIT commit -q -m "Linux $(base_version) (Debian linux-source)"
		$GIT tag base
	fi
	$GIT am --abort >/dev/null 2>&1 || true
	$GIT checkout -q -f -B fixes base
	$GIT clean -q -f -d -x
}

base_version() {
	sed -n 's/^\(VERSION\|PATCHLEVEL\|SUBLEVEL\) = //p' "$BUILD/base/Makefile" |
		paste -sd. -
}

# The series on the base tree.  FIXES_DROP="N ...": leave those patches
# out, to show what each one fixes (the checks that fail without it).
# The tree is left as it is when it already holds these patches (a reset
# would give every file they touch a new time, and kbuild would rebuild
# whatever includes them).
series() {
	want=$(cat "$PATCHES"/*.patch | sha256sum | cut -c1-16)-${FIXES_DROP:-all}
	if [ "$(cat "$FIX/applied" 2>/dev/null)" = "$want" ] &&
	   [ "$($GIT rev-parse --abbrev-ref HEAD 2>/dev/null)" = fixes ] &&
	   [ -z "$($GIT status --porcelain 2>/dev/null)" ]; then
		write_series
		return
	fi
	rm -f "$FIX/applied"
	base_tree
	for p in "$PATCHES"/*.patch; do
		n=$(basename "$p" | sed 's/^0*\([0-9]*\)-.*/\1/')
		case " ${FIXES_DROP:-} " in *" $n "*) continue ;; esac
		# Without a patch it builds on, a later one may not apply:
		# with FIXES_DROP it is left out too, and said so.
		if ! $GIT am -q --committer-date-is-author-date "$p"; then
			$GIT am --abort
			if [ -z "${FIXES_DROP:-}" ]; then
				echo "fixes: $(basename "$p") does not apply" >&2
				exit 1
			fi
			echo "  (left out $(basename "$p"): it does not apply without patch ${FIXES_DROP})" >&2
		fi
	done
	echo "$want" > "$FIX/applied"
	write_series
}

write_series() {
	if grep -n '@[A-Z][A-Z_0-9]*@' "$PATCHES"/*.patch "$PATCHES/cover-letter"; then
		echo "fixes: a figure is still to be filled in (above)" >&2
		exit 1
	fi
	rm -rf "$FIX/series"
	$GIT format-patch -q --cover-letter --zero-commit --no-signature \
		-o "$FIX/series" base..fixes
	cover=$(ls "$FIX"/series/0000-*)
	subject=$(head -1 "$PATCHES/cover-letter")
	sed -n '3,$p' "$PATCHES/cover-letter" > "$FIX/blurb"
	sed -i -e "s|\*\*\* SUBJECT HERE \*\*\*|$subject|" \
		-e "/\*\*\* BLURB HERE \*\*\*/{r $FIX/blurb
d}" "$cover"
	echo "  FIXES   $(base_version): $FIX/series"
	printf '    %s\n' "$subject"
	$GIT log --reverse --format='    %s' base..fixes
}

# The project's config, as our kernel's, and 32-bit ARM with the PMUv3
# driver (mk/configs/arm-pmuv3.config, as mk/build-configs.sh builds it).
configure() {
	mkdir -p "$FIX/kernel" "$FIX/arm32"
	frag=$TOP/arch/arm64/configs/pmuv3_kvm.config
	[ -f "$FIX/kernel/.config" ] && [ ! "$frag" -nt "$FIX/kernel/.config" ] ||
		KCONFIG_ALLCONFIG="$frag" \
			kmake "$FIX/kernel" arm64 "$CROSS_COMPILE" allnoconfig >/dev/null
	frag=$TOP/mk/configs/arm-pmuv3.config
	[ -f "$FIX/arm32/.config" ] && [ ! "$frag" -nt "$FIX/arm32/.config" ] ||
		KCONFIG_ALLCONFIG="$frag" \
			kmake "$FIX/arm32" arm arm-linux-gnueabihf- allnoconfig >/dev/null
}

# Each patch in order: both configs build with no warning.
check() {
	series
	configure
	n=$($GIT rev-list --count base..fixes)
	rc=0
	for i in $(seq $((n - 1)) -1 0); do
		$GIT checkout -q "fixes~$i"
		subj=$($GIT log -1 --format=%s)
		log=$FIX/check-$((n - i)).log
		if kmake "$FIX/kernel" arm64 "$CROSS_COMPILE" Image >"$log" 2>&1 &&
		   kmake "$FIX/arm32" arm arm-linux-gnueabihf- zImage >>"$log" 2>&1 &&
		   ! grep -q 'warning:' "$log"; then
			echo "fixes-check $((n - i))/$n: ok: $subj"
		else
			echo "fixes-check $((n - i))/$n: FAILED: $subj (see $log)"
			grep -m5 -E 'error|warning:' "$log" || tail -5 "$log"
			rc=1
		fi
	done
	$GIT checkout -q fixes
	return $rc
}

# The stock+fixes kernel and the selftests its boots run (from this
# tree: the series' own reproducer, and the base's tests of what it
# touches), in $FIX/kvm-bin.
kernel() {
	series >/dev/null
	configure
	kmake "$FIX/kernel" arm64 "$CROSS_COMPILE" Image >"$FIX/build.log" 2>&1 ||
		{ tail -20 "$FIX/build.log"; exit 1; }
	echo "  KERNEL  $FIX/kernel/arch/arm64/boot/Image"
	# The vGIC's own on 7.x, whose series changes how the PMU's line
	# reaches it.
	tests="pmu_host_guest_split vpmu_counter_access vpmu_sw_incr hypercalls get-reg-list"
	case $BASE in 6.*) ;; *) tests="$tests vgic_irq vgic_init" ;; esac
	rm -rf "$FIX/kvm-bin"
	"$TOP/mk/kvm-tests.sh" "$T" "$FIX/kernel" "$FIX/kvm-selftests" \
		"$FIX/kvm-bin" "$tests"
}

# The boots' initramfs: the base's (mk/initramfs.sh: perf, our programs,
# a Linux guest) followed by an archive of the selftests above in
# /fixes-bin (the kernel unpacks both).
initramfs() {
	stage=$FIX/initramfs
	rm -rf "$stage" && mkdir -p "$stage/fixes-bin"
	cp "$FIX"/kvm-bin/* "$stage/fixes-bin/"
	(cd "$stage" && find . | sort | cpio --quiet -o -H newc) > "$FIX/bin.cpio"
	cat "$BUILD/initramfs-vm.cpio" "$FIX/bin.cpio" > "$FIX/initramfs.cpio"
	echo "  CPIO    $FIX/initramfs.cpio"
}

# What each fix mends: the leg of make check (tests/check.sh fixes) run
# on the series less that one patch, for every patch but the selftest;
# each run's failed checks are printed.  The full series is built again
# at the end.
without() {
	for p in "$PATCHES"/*.patch; do
		n=$(basename "$p" | sed 's/^0*\([0-9]*\)-.*/\1/')
		grep -q '^Subject: .*selftests:' "$p" && continue
		echo "== without $(basename "$p" .patch)"
		FIXES_DROP=$n "$TOP/tests/check.sh" fixes |
			grep -E '^(boot |fixes |  FAIL |[0-9]+ passed)' |
			grep -v -E 'FAIL not ok [0-9]+ [a-z-]+/stock_fixes$'
	done
	kernel >/dev/null && initramfs >/dev/null
}

case "${1:-series}" in
series) series ;;
check) check ;;
kernel) kernel ;;
initramfs) initramfs ;;
without) without ;;
*) echo "usage: $0 series|check|kernel|initramfs|without" >&2; exit 2 ;;
esac

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Lay our files (arch/ drivers/ include/ Documentation/ tools/) over the
# prepared tree, $BUILD/src.  They are written for the default base, mainline; an
# older base's backport patches (patches/<BASE>/backport/*.patch, against
# our files) are applied to a staged copy first, as a stable backport
# would adapt them.  rsync compares checksums, so kbuild sees only the
# files whose content changed.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:?}
STAGE=$BUILD/overlay
DIRS="arch drivers include Documentation tools"

rm -rf "$STAGE" && mkdir -p "$STAGE"
(cd "$TOP" && cp -a $DIRS "$STAGE/")
# The KVM selftests' arm64 directory is aarch64/ up to 6.13.
KST=tools/testing/selftests/kvm
if [ ! -d "$BUILD/src/$KST/arm64" ] && [ -d "$BUILD/src/$KST/aarch64" ]; then
	mv "$STAGE/$KST/arm64" "$STAGE/$KST/aarch64"
fi
for p in $(ls "$TOP/patches/${BASE:?}/backport/"*.patch 2>/dev/null | sort); do
	patch -s -p1 -d "$STAGE" --no-backup-if-mismatch < "$p" ||
		{ echo "overlay: $p does not apply to our files" >&2; exit 1; }
done
rsync -rc --out-format='  OVERLAY %n' $(cd "$STAGE" && echo $DIRS | sed "s|[^ ]*|$STAGE/&|g") "$BUILD/src/"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Install what building and testing need, on Debian 12, as root.
# Quiet and quick when everything is already there.
set -e

PKGS="linux-source-6.12 gcc-aarch64-linux-gnu libc6-dev-arm64-cross
      qemu-system-arm ccache mmdebstrap make gcc flex bison bc libssl-dev
      libelf-dev xz-utils cpio kmod rsync patch python3 python3-docutils git
      perl gcc-arm-linux-gnueabihf qemu-efi-aarch64"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
		grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages:$missing (run as root, or install them)" >&2
	exit 1
fi
echo "deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends $missing

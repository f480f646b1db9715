#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make deps: install what the build and the guest need, once.  Not root and
# something missing: name the packages and fail.

set -euo pipefail

pkgs="linux-source-6.12 qemu-system-x86 busybox-static flex bison bc
      libelf-dev libssl-dev cpio ccache perl xz-utils gcc make file
      kmod rsync sparse python3-ply"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "[pm-async] error: missing packages:$missing" >&2
	echo "[pm-async] install them as root: apt-get install --no-install-recommends$missing" >&2
	exit 1
fi
echo "[pm-async] installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null

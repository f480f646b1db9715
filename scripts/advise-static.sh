#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# advise-static.sh: build a static pm-async-advise for the guest in
# $BUILD/advise-static and print its path.  It is an out-of-tree build of
# tools/power/pm-async (make O=DIR), so the host build there is left alone.

set -euo pipefail
. "$(dirname "$0")/common.sh"

adv=$BUILD/advise-static
say "building pm-async-advise (static)"
mkdir -p "$adv"
make -s -C "$TOP/tools/power/pm-async" O="$adv" LDFLAGS=-static \
	"$adv/pm-async-advise" >/dev/null
echo "$adv/pm-async-advise"

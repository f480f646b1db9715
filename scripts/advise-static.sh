#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# advise-static.sh: build a static pm-async-advise for the guest in
# $BUILD/advise-static and print its path.  It is built from a copy so the
# host build in scripts/advise is left alone; the shared helpers come from
# scripts/lib through the Makefile's LIB variable.

set -euo pipefail
. "$(dirname "$0")/common.sh"

adv=$BUILD/advise-static
say "building pm-async-advise (static)"
mkdir -p "$adv"
cp -p "$TOP"/scripts/advise/Makefile "$TOP"/scripts/advise/*.[ch] "$adv/"
make -s -C "$adv" LIB="$TOP/scripts/lib" LDFLAGS=-static pm-async-advise >/dev/null
echo "$adv/pm-async-advise"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unit tests of the harness itself (TAP): the series/overlay tree builder,
# export, and the TAP summariser, on a tiny fake kernel source.

set -uo pipefail
H=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
n=0
fails=0

ok()
{
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		fails=$((fails + 1))
		[ -f "$T/log" ] && sed 's/^/# /' "$T/log"
	fi
}

echo "TAP version 13"
echo "1..16"

# A fake "Debian kernel source": three files in a tarball.
mkdir -p "$T/tar/linux-source-6.12/drivers/base" "$T/tar/linux-source-6.12/Documentation"
echo "obj-y += x.o" >"$T/tar/linux-source-6.12/drivers/base/Makefile"
mkdir -p "$T/tar/linux-source-6.12/tools" && echo all: >"$T/tar/linux-source-6.12/tools/Makefile"
printf 'VERSION = 6\nPATCHLEVEL = 12\n' >"$T/tar/linux-source-6.12/Makefile"
printf 'int a;\nint b;\n' >"$T/tar/linux-source-6.12/drivers/a.c"
printf 'Docs\n' >"$T/tar/linux-source-6.12/Documentation/index.rst"
tar -C "$T/tar" -cJf "$T/src.tar.xz" linux-source-6.12

# Patches made with git, as a developer would.
git init -q "$T/mk"
cp -r "$T/tar/linux-source-6.12/." "$T/mk/"
git -C "$T/mk" add -A
git -C "$T/mk" -c user.name=t -c user.email=t@t commit -qm base
sed -i 's/int b;/int b = 1;/' "$T/mk/drivers/a.c"
git -C "$T/mk" -c user.name=t -c user.email=t@t commit -qam "PM: sleep: lab change"
printf 'Docs\nlab\n' >"$T/mk/Documentation/index.rst"
git -C "$T/mk" -c user.name=t -c user.email=t@t commit -qam "PM: sleep: engine change"
git -C "$T/mk" format-patch -q -2 -o "$T/p"

top=$T/repo
mkdir -p "$top/patches" "$top/drivers/base"
cp "$T"/p/*.patch "$top/patches/"
p1=$(basename "$T"/p/0001-*)
p2=$(basename "$T"/p/0002-*)
echo 'int lab;' >"$top/drivers/base/lab.c"
printf '# test series\n\n%s\n#+ drivers/base/lab.c\n#stock\n%s\n' "$p1" "$p2" >"$top/patches/series"

export PMA_TOP=$top PMA_BUILD=$T/build PMA_KERNEL_TAR=$T/src.tar.xz
export PMA_KERNEL_VERSION=6.12.1-1~test
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
src=$T/build/patched/src
stock=$T/build/stock/src

"$H/tree.sh" >"$T/log" 2>&1
ok $? "tree: unpack, apply two patches and one overlay file"

[ "$(git -C "$src" rev-list --count base..HEAD)" = 2 ] &&
	grep -q 'int b = 1;' "$src/drivers/a.c" && grep -q lab "$src/Documentation/index.rst" &&
	[ -f "$src/drivers/base/lab.c" ] && [ -f "$stock/drivers/base/lab.c" ] &&
	! grep -q lab "$stock/Documentation/index.rst" && grep -q 'int b = 1;' "$stock/drivers/a.c" &&
	[ "$(cat "$T/build/VERSION")" = 6.12.1-1~test ]
ok $? "tree: patched has both patches, stock stops at #stock, version recorded"

[ "$(git -C "$src" log -1 --format=%s)" = "PM: sleep: engine change" ] &&
	[ "$(git -C "$stock" log -1 --format=%s)" = "PM: sleep: lab change" ]
ok $? "tree: commits carry the patch subjects"

touch -d '2000-01-01' "$src/drivers/a.c"
"$H/tree.sh" >"$T/log" 2>&1 && grep -q "up to date" "$T/log"
ok $? "tree: second run is a no-op"

sed -i 's/^+lab$/+lab v2/' "$top/patches/$p2"
"$H/tree.sh" >"$T/log" 2>&1 && grep -q 'lab v2' "$src/Documentation/index.rst" &&
	[ "$(stat -c %Y "$src/drivers/a.c")" = "$(date -d 2000-01-01 +%s)" ]
ok $? "tree: a changed patch updates only the files it changes"

echo 'int lab2;' >"$top/drivers/base/lab.c"
echo dirty >>"$src/drivers/a.c"
"$H/tree.sh" >"$T/log" 2>&1
[ $? != 0 ] && grep -q "uncommitted changes" "$T/log" && grep -q dirty "$src/drivers/a.c"
ok $? "tree: refuses to overwrite uncommitted work"
git -C "$src" checkout -q -- drivers/a.c

git -C "$src" commit -q --allow-empty -m "work in progress"
"$H/tree.sh" >"$T/log" 2>&1
[ $? != 0 ] && grep -q "make export" "$T/log"
ok $? "tree: refuses to drop commits that patches/ does not hold"
git -C "$src" reset -q --hard HEAD~1

"$H/tree.sh" >"$T/log" 2>&1 && grep -q 'int lab2;' "$src/drivers/base/lab.c"
ok $? "tree: an edited overlay file reaches the tree"

echo 'int stray;' >"$top/drivers/base/stray.c"
"$H/tree.sh" >"$T/log" 2>&1
[ $? != 0 ] && grep -q "drivers/base/stray.c" "$T/log"
ok $? "tree: an overlay file no patch claims is an error"
rm "$top/drivers/base/stray.c"

cp "$top/patches/$p2" "$T/p2.save"
sed -i 's/^ Docs$/ Dogs/' "$top/patches/$p2"
"$H/tree.sh" >"$T/log" 2>&1
[ $? != 0 ] && grep -q "patch $p2 does not apply (rejected file: Documentation/index.rst)" "$T/log"
ok $? "tree: a patch that does not apply is named with the rejected file"
cp "$T/p2.save" "$top/patches/$p2"
"$H/tree.sh" >"$T/log" 2>&1

# Edit in the tree, then export: a fixup to the engine patch and a new file.
sed -i 's/^lab v2$/lab v3/' "$src/Documentation/index.rst"
git -C "$src" commit -q -a --amend --no-edit
mkdir -p "$src/drivers/base" "$src/tools/new/sub"
echo 'int newfile;' >"$src/drivers/base/new.c"
echo 'x' >"$src/tools/new/sub/a.sh"
echo 'y' >"$src/tools/new/b.sh"
git -C "$src" add -f drivers/base/new.c tools/new
git -C "$src" commit -q -m "PM: sleep: add new.c"
"$H/export.sh" >"$T/log" 2>&1 &&
	grep -q 'lab v3' "$top"/patches/0002-*.patch && [ -f "$top/drivers/base/new.c" ] &&
	grep -q '^#+ drivers/base/new.c$' "$top/patches/series" &&
	grep -q '^#+ tools/new/$' "$top/patches/series" && [ -f "$top/tools/new/sub/a.sh" ] &&
	[ "$(grep -c '^#stock$' "$top/patches/series")" = 1 ] &&
	! grep -q '^diff --git' "$top"/patches/0003-*.patch && grep -q '^# test series' "$top/patches/series"
ok $? "export: patches, series and overlay files regenerated from the tree"

"$H/tree.sh" >"$T/log" 2>&1 && grep -q "up to date" "$T/log"
ok $? "export: the tree matches the repository afterwards"

echo 'int changed;' >"$src/drivers/base/new.c"
git -C "$src" commit -q -a -m "fix new.c"
"$H/export.sh" >"$T/log" 2>&1
[ $? != 0 ] && grep -q "squash it" "$T/log"
ok $? "export: a later commit changing an overlay file is refused"
git -C "$src" reset -q --hard HEAD~1

# The TAP summariser: leaf counting, skips, plans and crashed streams.
printf 'junk\n@@TAP a\nKTAP version 1\n1..2\n    1..2\n    ok 1 x\n    not ok 2 y\nnot ok 1 s\nok 2 t # SKIP no\n@@TAPEND a rc=1\n@@TAP b\n1..3\nok 1 z\n@@PMA-END rc=1\n' >"$T/tap"
TAP_TOTALS=$T/tot "$H/tap-summary.sh" g "$T/tap" >"$T/log" 2>&1
[ "$(cat "$T/tot")" = "2 2 1" ] && grep -q 'died after 1 of 3' "$T/log"
ok $? "tap-summary: leaves, skips and a stream that died are counted"

# The guest's static advisor builds from a clean build directory (it once
# needed a stray build/lib to find the shared helpers).
adv=$(PMA_TOP=$(cd "$H/.." && pwd) PMA_BUILD=$T/advbuild "$H/advise-static.sh" 2>"$T/log") &&
	[ "$adv" = "$T/advbuild/advise-static/pm-async-advise" ] &&
	file -L "$adv" | grep -q 'statically linked' && "$adv" --help >/dev/null 2>&1
ok $? "advise-static: a static advisor builds in an empty build directory"

# make run hands CMD to qemu-run.sh unchanged, whatever quotes it holds:
# the Makefile with stand-in scripts (S=) that record what they get.
mkdir -p "$T/fake"
for f in deps tree build-kernel mkinitramfs; do
	printf '#!/bin/sh\nexit 0\n' >"$T/fake/$f.sh"
done
printf '#!/bin/sh\nprintf "%%s\\n" "$@" >"%s"\n' "$T/args" >"$T/fake/qemu-run.sh"
chmod +x "$T"/fake/*.sh
cmd="echo \"it's\" 'quoted' \$HOME \$(x); uname -r"
make -s -C "$H/.." run S="$T/fake" KERNEL=stock FLAVOUR=bench CMD="$cmd" >"$T/log" 2>&1 &&
	[ "$(tail -n 1 "$T/args")" = "$cmd" ] && [ "$(head -n 4 "$T/args" | tr '\n' ' ')" = "-k stock -f bench " ]
ok $? "make run: CMD with quotes, \$VAR and \$(...) reaches qemu-run.sh unchanged"

[ $fails = 0 ]

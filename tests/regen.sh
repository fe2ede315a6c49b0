#!/bin/sh
# regen.sh - scripts/regen-golden on a copy of the golden files, with a
# stand-in callgrind_annotate first in PATH: when it fails, regen-golden
# fails loudly and leaves every golden file as it was; "regen-golden
# NAME" rewrites NAME's files and no other; a name not in CASES is an
# error that writes nothing.
#
# usage: regen.sh SRCDIR
set -eu

src=$1
. "$src/tests/needs.sh"
needs python3 python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0

# The skeleton tests/filetimes.sh touches, and the golden files.
td=$tmp/td
mkdir -p "$td/src" "$td/edge/src" "$td/edge/relocated" "$td/profiles" \
    "$td/bad" "$td/asm/src" "$td/asm/bin" "$td/asm/newer" "$tmp/bin"
: >"$td/edge/src/newer.c"
: >"$td/asm/newer/loop"
cp -R "$src/testdata/golden" "$td/golden"
sums() {
	(cd "$td/golden" && find . -type f | LC_ALL=C sort | xargs cksum)
}
sums >"$tmp/before"
export CGA_TESTDATA="$td"

# 1. A callgrind_annotate that fails: exit 1, a message, nothing written.
cat >"$tmp/bin/callgrind_annotate" <<'STUB'
#!/bin/sh
echo "stand-in: cannot read $*" >&2
exit 2
STUB
chmod +x "$tmp/bin/callgrind_annotate"
rc=0
PATH=$tmp/bin:$PATH "$src/scripts/regen-golden" >"$tmp/out" 2>&1 || rc=$?
sums >"$tmp/after"
if [ $rc -eq 0 ] || ! grep -q "callgrind_annotate failed (exit 2)" \
    "$tmp/out" || ! cmp -s "$tmp/before" "$tmp/after"; then
	echo "regen: a failing callgrind_annotate: status $rc, files" \
	    "changed: $(cmp -s "$tmp/before" "$tmp/after" && echo no ||
	    echo yes)"
	cat "$tmp/out"
	fail=1
fi

# 2. A name not in CASES: exit 1, nothing written.
rc=0
"$src/scripts/regen-golden" no-such-case >"$tmp/out" 2>&1 || rc=$?
sums >"$tmp/after"
if [ $rc -eq 0 ] || ! cmp -s "$tmp/before" "$tmp/after"; then
	echo "regen: an unknown case: status $rc"
	fail=1
fi

# 3. One compat case and one own case named: their files only.
cat >"$tmp/bin/callgrind_annotate" <<'STUB'
#!/bin/sh
echo "stand-in report of $*"
STUB
cat >"$tmp/bin/prog" <<'STUB'
#!/bin/sh
echo "own report of $*"
echo "own message" >&2
exit 3
STUB
chmod +x "$tmp/bin/callgrind_annotate" "$tmp/bin/prog"
compat=$(awk '$1 == "compat" { print $2; exit }' "$td/golden/CASES")
own=$(awk '$1 == "own" { print $2; exit }' "$td/golden/CASES")
rc=0
PATH=$tmp/bin:$PATH "$src/scripts/regen-golden" -p "$tmp/bin/prog" \
    "$compat" "$own" >"$tmp/out" 2>&1 || rc=$?
sums >"$tmp/after"
diff "$tmp/before" "$tmp/after" | sed -n 's/^> [0-9]* [0-9]* \.\///p' |
    LC_ALL=C sort >"$tmp/changed"
printf '%s\n' "$compat.out" "$own.err" "$own.out" "$own.rc" |
    LC_ALL=C sort >"$tmp/want"
if [ $rc -ne 0 ] || ! cmp -s "$tmp/want" "$tmp/changed"; then
	echo "regen: regen-golden $compat $own: status $rc; changed:"
	cat "$tmp/changed"
	cat "$tmp/out"
	fail=1
fi
args=$(awk -v c="$compat" '$2 == c { $1 = ""; $2 = ""; sub(/^  /, ""); print }' \
    "$td/golden/CASES")
if [ "$(cat "$td/golden/$compat.out")" != "stand-in report of $args" ] ||
    [ "$(cat "$td/golden/$own.rc")" != 3 ] ||
    [ "$(cat "$td/golden/$own.err")" != "own message" ]; then
	echo "regen: the files written are not the reports"
	fail=1
fi
[ $fail -eq 0 ] && echo "regen: ok (a failing tool, an unknown case," \
    "two cases named)"
exit $fail

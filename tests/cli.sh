#!/bin/sh
# cli.sh - the command line as a user meets it: the profile found when
# none is named, write errors on --help and --version.
#
# usage: cli.sh PROGRAM TESTDATA
set -u

prog=$1 td=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0

# No profile named: the one found here is said on standard output only
# for the text report (as callgrind_annotate does); the machine-read
# formats stay clean, and the line goes to standard error.
mkdir "$tmp/here"
cp "$td/profiles/cg-default.out" "$tmp/here/callgrind.out.4242"
cd "$tmp/here" || exit 2
"$prog" --auto=no >out 2>err
head -1 out | grep -qx "Reading data from 'callgrind.out.4242'..." ||
    { echo "FAIL: text: no Reading line first"; fail=1; }
for fmt in "--format=json" "--totals" "--format=markdown"; do
	"$prog" $fmt >out 2>err ||
	    { echo "FAIL: $fmt: exit $?"; fail=1; }
	grep -q "Reading data" out &&
	    { echo "FAIL: $fmt: the Reading line is in the report"; fail=1; }
	grep -qx "cg-annotate: reading data from 'callgrind.out.4242'" err ||
	    { echo "FAIL: $fmt: the file read is not said on stderr"; fail=1; }
done
"$prog" --format=json 2>/dev/null | jq -e '.totals.Ir == 201989' \
    >/dev/null 2>&1 || { echo "FAIL: --format=json is not JSON"; fail=1; }
[ "$("$prog" --totals 2>/dev/null)" = "Ir 201989" ] ||
    { echo "FAIL: --totals is not one line"; fail=1; }
cd "$tmp" || exit 2

# --help and --version, like reports, say when they cannot be written.
if [ -w /dev/full ]; then
	for opt in --help --version; do
		"$prog" $opt >/dev/full 2>err
		rc=$?
		[ $rc -eq 1 ] ||
		    { echo "FAIL: $opt >/dev/full: exit $rc"; fail=1; }
		grep -q "^cg-annotate: standard output: error: " err ||
		    { echo "FAIL: $opt >/dev/full: no message"; fail=1; }
	done
fi

[ $fail -eq 0 ] || exit 1
echo "cli: ok"

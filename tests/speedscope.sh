#!/bin/sh
# speedscope.sh - --format=speedscope as speedscope reads it: on every
# test and real profile the export is valid against the JSON schema of
# speedscope's own package (scripts/fetch-speedscope-schema), has one
# profile per event, and each profile's weights add up to the event's
# folded stacks; the same input gives the same file.
#
# usage: speedscope.sh PROGRAM TESTDATA SCHEMA
set -u

prog=$1 td=$2 schema=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/needs.sh"
needs python3 python3
needs_py jsonschema python3-jsonschema
[ -s "$schema" ] || {
	echo "speedscope.sh: needs $schema (scripts/fetch-speedscope-schema)" >&2
	exit 1
}
cd "$td" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0 n=0
for f in profiles/*.out producers/*.out edge/*.out asm/*.out real/*.gz; do
	"$prog" --format=speedscope "$f" >"$tmp/a.json" 2>/dev/null || {
		rc=$?
		# Profiles with fatal errors are refused, as in text.
		[ $rc -eq 1 ] && continue
		echo "FAIL: $f: exit $rc"
		fail=1
		continue
	}
	"$prog" --format=speedscope "$f" 2>/dev/null | cmp -s - "$tmp/a.json" ||
	    { echo "FAIL: $f: two runs differ"; fail=1; }
	# Each event's folded stacks, the total its profile must have.
	set --
	for ev in $("$prog" --totals "$f" 2>/dev/null | cut -d' ' -f1); do
		"$prog" --format=folded --sort="$ev" "$f" >"$tmp/$ev.folded" \
		    2>/dev/null
		set -- "$@" "$ev=$tmp/$ev.folded"
	done
	python3 "$here/sscheck.py" "$schema" "$tmp/a.json" "$@" ||
	    { echo "FAIL: $f"; fail=1; }
	n=$((n + 1))
done
[ $n -gt 50 ] || { echo "FAIL: only $n exports checked"; fail=1; }
[ $fail -eq 0 ] && echo "speedscope: ok ($n profiles)"
exit $fail

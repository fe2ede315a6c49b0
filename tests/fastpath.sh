#!/bin/sh
# fastpath.sh - the parser's fast path for cost lines and its careful
# path read every profile alike: a profile with CRLF line ends (which
# the fast path leaves to the careful one) must give the very same
# report, warnings and exit status as the same profile with LF ends.
# Machine code kept (--asm=yes) too: each instruction's counts, jumps
# and calls, printed from the profile alone (no objdump: the programs
# are not beside the copy).
#
# usage: fastpath.sh PROGRAM TESTDATA
set -u

prog=$1
data=$2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0

cr=$(printf '\r')
mkdir "$tmp/in" || exit 2
OBJDUMP=/nonexistent/objdump
export OBJDUMP
for f in "$data"/profiles/*.out "$data"/edge/*.out "$data"/asm/*.out; do
	# A profile with CRLF ends already is read by the careful path.
	grep -q "$cr" "$f" && continue
	sed 's/$/\r/' "$f" >"$tmp/in/crlf"
	touch -r "$f" "$tmp/in/crlf"	# the same age, beside the objects
	for args in "--auto=no --inclusive=yes --tree=both" \
	    "--format=json --auto=no" "--asm=yes --auto=no --threshold=100"; do
		# shellcheck disable=SC2086
		"$prog" $args "$f" >"$tmp/lf.out" 2>"$tmp/lf.err"
		a=$?
		# shellcheck disable=SC2086
		"$prog" $args "$tmp/in/crlf" >"$tmp/crlf.out" 2>"$tmp/crlf.err"
		b=$?
		sed "s|$tmp/in/crlf|$f|g" "$tmp/crlf.out" >"$tmp/crlf.out2"
		sed "s|$tmp/in/crlf|$f|g" "$tmp/crlf.err" >"$tmp/crlf.err2"
		if [ $a -ne $b ] || ! cmp -s "$tmp/lf.out" "$tmp/crlf.out2" ||
		    ! cmp -s "$tmp/lf.err" "$tmp/crlf.err2"; then
			echo "FAIL: $f ($args): LF and CRLF differ"
			diff "$tmp/lf.out" "$tmp/crlf.out2" | head -5
			diff "$tmp/lf.err" "$tmp/crlf.err2" | head -5
			fail=1
		fi
		n=$((n + 1))
	done
done
[ $n -gt 0 ] || { echo "FAIL: no profiles in $data"; exit 1; }
[ $fail -eq 0 ] || exit 1
echo "fastpath: $n reports alike"

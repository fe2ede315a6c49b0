#!/bin/sh
# producers.sh - the profiles of every producer under testdata/producers
# (made by scripts/gen-producers) read as their producer meant: no
# warning for a valid construct, the totals equal to the producer's own
# (its summary: line, else its totals: line), JSON valid with the same
# totals, and a --diff of a profile against itself all zero.
#
# usage: producers.sh PROGRAM TESTDATA
set -u

prog=$1 td=$2
cd "$td" || exit 2
command -v jq >/dev/null 2>&1 || {
	echo "producers: jq is needed (apt-get install -y jq)"
	exit 1
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0 n=0

for f in producers/*.out; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	"$prog" --auto=no "$f" >/dev/null 2>"$tmp/err" ||
	    { echo "FAIL: $f: exit $?"; fail=1; }
	# valgrind 3.19 itself refers to function ids it never defined
	# when --mangle-names=no: those warnings are the file's truth.
	case $f in
	*/vg-mangle-names.out)
		grep -v "undefined compressed name id" "$tmp/err" \
		    >"$tmp/err2" || :
		mv "$tmp/err2" "$tmp/err" ;;
	esac
	if [ -s "$tmp/err" ]; then
		echo "FAIL: $f: warnings:"
		head -3 "$tmp/err"
		fail=1
	fi
	# The producer's totals, as PROGRAM TOTALS take them: its
	# summary: line, else its totals: line (callgrind's differ when
	# the program's last system call came after the summary).
	ev=$(grep -m1 '^events:' "$f" | sed 's/^events: *//')
	tot=$(grep -m1 '^summary:' "$f" | sed 's/^summary: *//')
	[ -n "$tot" ] ||
	    tot=$(grep '^totals:' "$f" | tail -1 | sed 's/^totals: *//')
	want=$(echo "$ev" "|" "$tot" | awk -F'|' '{
	    ne = split($1, e, " "); split($2, v, " ")
	    for (i = 1; i <= ne; i++) print e[i], v[i] }')
	got=$("$prog" --totals "$f" 2>/dev/null)
	[ "$got" = "$want" ] ||
	    { echo "FAIL: $f: totals '$got', the producer's '$want'"; fail=1; }
	json=$("$prog" --format=json --auto=no "$f" 2>/dev/null |
	    jq -r '.totals | to_entries[] | "\(.key) \(.value // ".")"') ||
	    { echo "FAIL: $f: JSON not valid"; fail=1; }
	[ "$json" = "$want" ] ||
	    { echo "FAIL: $f: JSON totals '$json'"; fail=1; }
	# A profile against itself: every change is 0, nothing is listed.
	d=$("$prog" --diff --totals "$f" "$f" 2>/dev/null | awk '$2 != 0')
	[ -z "$d" ] || { echo "FAIL: $f: --diff with itself: $d"; fail=1; }
done
[ $n -ge 11 ] || { echo "FAIL: only $n producer profiles"; fail=1; }
[ $fail -eq 0 ] || exit 1
echo "producers: ok ($n profiles)"

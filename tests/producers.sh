#!/bin/sh
# producers.sh - the profiles of every producer under testdata/producers
# (made by scripts/gen-producers) read as their producer meant: no
# warning for a valid construct, the totals equal to the producer's own
# (its summary: lines, else its totals: lines, else its own report as
# producers/TOTALS holds it), JSON valid with the same totals, and a
# --diff of a profile against itself all zero.
#
# usage: producers.sh PROGRAM TESTDATA
set -u

prog=$1 td=$2
cd "$td" || exit 2
. "$(dirname "$0")/needs.sh"
needs jq jq
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
	# pyprof2calltree rounds each function's time to whole ns: its
	# summary: is below the sum of its lines by up to one a line, and
	# the warning says so, truly.
	case $f in
	*/vg-mangle-names.out)
		grep -v "undefined compressed name id" "$tmp/err" \
		    >"$tmp/err2" || :
		mv "$tmp/err2" "$tmp/err" ;;
	*/cprofile.out)
		grep -v "summary: below, or totals: unlike" "$tmp/err" \
		    >"$tmp/err2" || :
		mv "$tmp/err2" "$tmp/err" ;;
	esac
	if [ -s "$tmp/err" ]; then
		echo "FAIL: $f: warnings:"
		head -3 "$tmp/err"
		fail=1
	fi
	# The producer's totals: its summary: lines (summed over its parts;
	# callgrind's totals: may differ when the program's last system call
	# came after the summary), else its totals: lines, else what the
	# producer itself reported (producers/TOTALS, from gen-producers).
	ev=$(grep -m1 '^events:' "$f" | sed 's/^events: *//')
	key=summary
	grep -q '^summary:' "$f" || key=totals
	if grep -q "^$key:" "$f"; then
		want=$(grep "^$key:" "$f" | sed "s/^$key: *//" |
		    awk -v ev="$ev" '{ for (i = 1; i <= NF; i++) s[i] += $i }
		    END { ne = split(ev, e, " ")
		        for (i = 1; i <= ne; i++) printf "%s %.0f\n", e[i], s[i] }')
	else
		own=$(grep "^${f#producers/} " producers/TOTALS | cut -d' ' -f2-)
		if [ "$own" = "-" ]; then
			want=$("$prog" --totals "$f" 2>/dev/null)
		elif [ -n "$own" ]; then
			want=$own
		else
			echo "FAIL: $f: no totals of the producer's"
			fail=1
			continue
		fi
	fi
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
[ $n -ge 19 ] || { echo "FAIL: only $n producer profiles"; fail=1; }
[ $fail -eq 0 ] || exit 1
echo "producers: ok ($n profiles)"

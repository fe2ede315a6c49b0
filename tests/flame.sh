#!/bin/sh
# flame.sh - flame graphs as a person meets them: on every test profile
# the folded stacks add up to the sum of the event's self costs and come
# out the same twice; an xtree file's stacks are its blocks; the SVG is
# well-formed (xmllint), its script parses (node --check), and
# rsvg-convert renders it to a PNG of the expected size that is not
# blank (tests/pngcheck.py).
#
# usage: flame.sh PROGRAM TESTDATA
set -u

prog=$1 td=$2
here=$(cd "$(dirname "$0")" && pwd)
. "$(dirname "$0")/needs.sh"
needs xmllint libxml2-utils
needs rsvg-convert librsvg2-bin
needs python3 python3
needs node nodejs
cd "$td" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0 n=0

# rowsum PROFILE: the first event's self costs, every row.
rowsum() {
	"$prog" --auto=no --threshold=100 --show-percs=no "$1" 2>/dev/null |
	    awk '/ file:function$/ { list = 1; getline; next }
	    list && /^$/ { exit }
	    list && $1 != "." { gsub(",", "", $1); print $1 }' | total
}

# total: the exact sum of the numbers on standard input, one a line.
total() {
	python3 -c 'import sys; print(sum(int(l) for l in sys.stdin if l.strip()))'
}

for f in profiles/*.out producers/*.out edge/*.out asm/*.out; do
	"$prog" --format=folded "$f" >"$tmp/a" 2>/dev/null || continue
	"$prog" --format=folded "$f" 2>/dev/null | cmp -s - "$tmp/a" ||
	    { echo "FAIL: $f: two runs differ"; fail=1; }
	sum=$(awk '{ print $NF }' "$tmp/a" | total)
	want=$(rowsum "$f")
	[ "$sum" = "$want" ] ||
	    { echo "FAIL: $f: folded counts add up to $sum, not $want"; fail=1; }
	# Every line a stack and a count.
	awk 'NF < 2 || $NF !~ /^[0-9]+$/ { exit 1 }' "$tmp/a" ||
	    { echo "FAIL: $f: a line is not STACK COUNT"; fail=1; }
	"$prog" --format=svg "$f" >"$tmp/a.svg" 2>/dev/null
	xmllint --noout "$tmp/a.svg" 2>/dev/null ||
	    { echo "FAIL: $f: SVG not well-formed"; fail=1; }
	n=$((n + 1))
done
[ $n -gt 40 ] || { echo "FAIL: only $n profiles"; fail=1; }

# --diff: "STACK OLD NEW", each column adding up to its profile's.
"$prog" --diff --format=folded profiles/diff-old.out profiles/diff-new.out \
    >"$tmp/d" 2>/dev/null
a=$(awk '{ print $(NF - 1) }' "$tmp/d" | total)
b=$(awk '{ print $NF }' "$tmp/d" | total)
[ "$a" = "$(rowsum profiles/diff-old.out)" ] &&
    [ "$b" = "$(rowsum profiles/diff-new.out)" ] ||
    { echo "FAIL: --diff folded columns add up to $a and $b"; fail=1; }

# The stacks of xtree files are their blocks, for every event.
for f in producers/xt-*.out; do
	for ev in $(sed -n 's/^events: *//p' "$f" | head -1); do
		awk -v ev="$ev" '
		/^events:/ { for (i = 2; i <= NF; i++) col[$i] = i - 1 }
		/^$/ { n = 0; calls = 0; next }
		/^c?fn=/ { s = substr($0, index($0, "=") + 1)
			if (match(s, /^\([0-9]+\)/)) {
				id = substr(s, 1, RLENGTH); rest = substr(s, RLENGTH + 2)
				if (rest != "") name[id] = rest
				s = name[id]
			}
			if ($0 ~ /^fn=/) frame[++n] = s
			next }
		/^calls=/ { calls = 1; next }
		/^[0-9+*-]/ { if (calls) { calls = 0; next }
			if (NF < 2) next
			v = $(col[ev] + 1)
			if (v + 0 == 0) next
			st = frame[1]
			for (i = 2; i <= n; i++) st = st ";" frame[i]
			sum[st] += v }
		END { for (s in sum) print s, sum[s] }' "$f" | sort >"$tmp/want"
		"$prog" --format=folded --sort="$ev" "$f" 2>"$tmp/err" |
		    sort >"$tmp/got"
		cmp -s "$tmp/want" "$tmp/got" || {
			echo "FAIL: $f $ev: stacks are not the file's blocks"
			diff "$tmp/want" "$tmp/got" | head -5
			fail=1
		}
		[ -s "$tmp/err" ] &&
		    { echo "FAIL: $f: xtree stacks said to be estimated"; fail=1; }
	done
done

# Rendered by a real renderer: the size expected, not blank.
for f in profiles/cg-default.out profiles/cg-cxx.out producers/xt-massif.out \
    edge/recursion.out real/python3.out.gz real/sqlite3.out.gz; do
	"$prog" --format=svg "$f" >"$tmp/r.svg" 2>/dev/null
	rsvg-convert -o "$tmp/r.png" "$tmp/r.svg" ||
	    { echo "FAIL: $f: rsvg-convert"; fail=1; continue; }
	set -- $(python3 "$here/pngcheck.py" "$tmp/r.png")
	[ "${1:-0}" -eq 1200 ] && [ "${2:-0}" -gt 100 ] &&
	    [ "${3:-0}" -gt 2000 ] ||
	    { echo "FAIL: $f: PNG ${1:-?}x${2:-?}, ${3:-?} pixels drawn"; fail=1; }
done
# Real programs: the program's own code warm wherever it lies (python3
# runs /usr/bin/python3.11), libraries blue; the long command line cut
# between the buttons, whole in the title's tooltip; counts with
# separators in the tooltips.
"$prog" --format=svg real/python3.out.gz >"$tmp/r.svg" 2>/dev/null
# fill FRAME: the fill of the frame named FRAME.
fill() {
	grep -o "data-n=\"$1\"><title>[^<]*</title><rect [^>]*fill=\"rgb([0-9,]*)" \
	    "$tmp/r.svg" | head -1 | sed 's/.*rgb(//'
}
case $(fill Py_RunMain) in
2[0-9][0-9],*) ;;
*) echo "FAIL: python3: Py_RunMain not warm: $(fill Py_RunMain)"; fail=1 ;;
esac
case $(fill __libc_start_main@@GLIBC_2.34) in
*,2[0-9][0-9]\)) ;;
*) echo "FAIL: python3: libc not blue"; fail=1 ;;
esac
grep -q "font-size=\"17\"><title>Flame graph: Ir .*json.loads(json.dumps(d))</title>Flame graph: Ir .*$(printf '\342\200\246')</text>" \
    "$tmp/r.svg" || { echo "FAIL: python3: the title not cut"; fail=1; }
grep -q '<title>all: 102,[0-9][0-9][0-9],[0-9][0-9][0-9] (100.00% of all)</title>' \
    "$tmp/r.svg" || { echo "FAIL: python3: the total's tooltip"; fail=1; }

# The script is JavaScript that parses.
sed -n '/<!\[CDATA\[/,/\]\]>/p' "$tmp/r.svg" | sed '1d;$d' >"$tmp/s.js"
node --check "$tmp/s.js" || { echo "FAIL: the script does not parse"; fail=1; }
[ $fail -eq 0 ] && echo "flame: ok ($n profiles)"
exit $fail

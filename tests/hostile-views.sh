#!/bin/sh
# hostile-views.sh - names a profile may hold, drawn as they are by the
# tools that read our pictures: non-characters (U+FFFE, U+FFFF) in a
# function's, the command's and an event's name keep the SVG well-formed
# (xmllint) and the DOT file readable by Graphviz; backslashes in names
# and files (Net\Handler\Go, C:\src\Net\Graph.cpp) are drawn as
# backslashes, not as Graphviz's \N, \G and \E; a frame that ends in a
# number ("worker 7") never reads as flamegraph.pl's second count, here
# or in any test profile.
#
# usage: hostile-views.sh PROGRAM TESTDATA
set -u

prog=$1 td=$2
. "$(dirname "$0")/needs.sh"
needs dot graphviz
needs xmllint libxml2-utils
needs rsvg-convert librsvg2-bin
needs cmark-gfm cmark-gfm
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0

fffe=$(printf '\357\277\276') ffff=$(printf '\357\277\277')
cat >"$tmp/p.out" <<EOF
# callgrind format
cmd: prog$ffff --run
events: Ir I$fffe
fl=C:\\src\\Net\\Graph.cpp
fn=main
1 10 1
cfn=Net\\Handler\\Go
calls=2 1
1 60 6
cfn=worker 7
calls=1 1
1 20 2
fn=Net\\Handler\\Go
1 60 6
fn=worker 7
1 15 1
cfn=bad$fffe$ffff name
calls=1 1
1 5 1
fn=bad$fffe$ffff name
1 5 1
EOF
cd "$tmp" || exit 2

for ev in Ir "I$fffe"; do
	"$prog" --format=svg --show="$ev" p.out >p.svg 2>err ||
	    { echo "FAIL: svg $ev: exit $?"; cat err; fail=1; }
	xmllint --noout p.svg || { echo "FAIL: svg $ev: not well-formed"; fail=1; }
	rsvg-convert -o p.png p.svg || { echo "FAIL: svg $ev: not drawn"; fail=1; }
	"$prog" --format=dot --show="$ev" --node-threshold=0 p.out >p.dot 2>err ||
	    { echo "FAIL: dot $ev: exit $?"; cat err; fail=1; }
	dot -Tsvg p.dot >d.svg 2>err ||
	    { echo "FAIL: dot $ev: Graphviz refuses it:"; cat err; fail=1; }
	xmllint --noout d.svg ||
	    { echo "FAIL: dot $ev: Graphviz's SVG not well-formed"; fail=1; }
	# The label and the tooltip of the node, as drawn.
	grep -q '>Net\\Handler\\Go</text>' d.svg ||
	    { echo "FAIL: dot $ev: Net\\Handler\\Go not drawn as it is"; fail=1; }
	grep -q 'xlink:title="C:\\src\\Net\\Graph.cpp:Net\\Handler\\Go"' d.svg ||
	    { echo "FAIL: dot $ev: the tooltip's backslashes"; fail=1; }
	grep -q 'bad\\' d.svg && { echo "FAIL: dot $ev: a name expanded"; fail=1; }
done

# Markdown: a name is never one of GitHub's autolinks.
printf 'events: Ir\nfl=https://evil.example/a.c\nfn=www.evil.example\n1 5\n' \
    >url.out
"$prog" --format=markdown url.out >url.md 2>/dev/null
cmark-gfm --extension table --extension autolink url.md >url.html
grep -q '<a ' url.html && { echo "FAIL: markdown: a link"; fail=1; }
grep -q 'https://evil.example/a.c:www.evil.example' url.html ||
    { echo "FAIL: markdown: the name is not shown"; fail=1; }

# Folded stacks: a count is never read from a name.
"$prog" --format=folded p.out >p.folded 2>/dev/null
grep -qx 'main;worker_7 15' p.folded ||
    { echo "FAIL: folded: worker 7:"; cat p.folded; fail=1; }
n=0
for f in "$td"/profiles/*.out "$td"/producers/*.out "$td"/edge/*.out p.out; do
	"$prog" --format=folded "$f" >p.folded 2>/dev/null || continue
	n=$((n + 1))
	if grep -E '[ 	][0-9]+(\.[0-9]*)? [0-9]+$' p.folded >bad; then
		echo "FAIL: folded $f: a line with two counts:"
		head -3 bad
		fail=1
	fi
done
[ $fail -eq 0 ] && echo "hostile-views: ok ($n folded profiles)"
exit $fail

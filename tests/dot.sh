#!/bin/sh
# dot.sh - --format=dot is read by Graphviz: on every test profile (and
# with --group, --fold, --root) dot(1) lays it out as SVG, which xmllint
# finds well-formed; the same input gives the same graph; every edge
# joins two nodes drawn.  On the profiles of real programs (testdata/
# real: recursion, inlining, libraries) the graph at the default
# thresholds is one piece, as ccomps(1) counts them.
#
# usage: dot.sh PROGRAM TESTDATA
set -u

prog=$1 td=$2
. "$(dirname "$0")/needs.sh"
needs dot graphviz
needs ccomps graphviz
needs xmllint libxml2-utils
cd "$td" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0 n=0
for f in profiles/*.out producers/*.out edge/*.out asm/*.out real/*.gz; do
	for o in "" --group=object --fold=all "--root=main --node-threshold=0"; do
		# shellcheck disable=SC2086
		"$prog" --format=dot $o "$f" >"$tmp/a.dot" 2>/dev/null || {
			rc=$?
			# Profiles with fatal errors are refused, as in text.
			[ $rc -eq 1 ] && continue
			echo "FAIL: $f $o: exit $rc"
			fail=1
			continue
		}
		# shellcheck disable=SC2086
		"$prog" --format=dot $o "$f" 2>/dev/null | cmp -s - "$tmp/a.dot" ||
		    { echo "FAIL: $f $o: two runs differ"; fail=1; }
		dot -Tsvg "$tmp/a.dot" >"$tmp/a.svg" 2>"$tmp/err" &&
		    [ ! -s "$tmp/err" ] ||
		    { echo "FAIL: $f $o: dot: $(head -3 "$tmp/err")"; fail=1; }
		xmllint --noout "$tmp/a.svg" 2>/dev/null ||
		    { echo "FAIL: $f $o: SVG not well-formed"; fail=1; }
		awk '/^\t"n[0-9]+" \[/ { split($1, a, "\""); node[a[2]] = 1 }
		    /^\t"n[0-9]+" -> / { split($0, a, "\""); if (!(a[2] in node) ||
		    !(a[4] in node)) bad = 1 }
		    END { exit bad }' "$tmp/a.dot" ||
		    { echo "FAIL: $f $o: an edge to a node not drawn"; fail=1; }
		n=$((n + 1))
	done
done
[ $n -gt 100 ] || { echo "FAIL: only $n graphs laid out"; fail=1; }
for f in real/*.gz; do
	"$prog" --format=dot "$f" >"$tmp/a.dot" 2>/dev/null
	k=$(ccomps -v "$tmp/a.dot" 2>&1 >/dev/null |
	    awk '/components/ { print $(NF - 2) }')
	[ "$k" = 1 ] ||
	    { echo "FAIL: $f: the graph is in ${k:-?} pieces, not 1"; fail=1; }
	n=$((n + 1))
done
[ $fail -eq 0 ] && echo "dot: ok ($n graphs)"
exit $fail

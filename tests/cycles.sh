#!/bin/sh
# cycles.sh - a member of a recursion cycle costs, inclusive, the larger
# of its gprof share and the calls it receives from outside its cycle:
# checked by cycles.py, which reads the call lines of the profile on its
# own, on real recursive programs (sqlite3, python3) and on the test
# programs that recurse; the report, JSON and DOT agree on a member;
# grouped rows form no cycle.
#
# usage: cycles.sh PROGRAM TESTDATA
set -u

prog=$1 td=$2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/needs.sh"
needs python3 python3
cd "$td" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0 n=0
for f in real/sqlite3.out.gz real/python3.out.gz profiles/cg-default.out \
    profiles/cg-recs1.out profiles/cg-recs3.out profiles/cg-ctx-recs.out \
    producers/vg-inline.out producers/xdebug-one.out producers/yappi.out \
    edge/recursion.out; do
	"$prog" --format=json --inclusive=yes --threshold=100 "$f" \
	    >"$tmp/a.json" 2>/dev/null ||
	    { echo "FAIL: $f: exit $?"; fail=1; continue; }
	python3 "$here/cycles.py" "$f" "$tmp/a.json" >"$tmp/out" ||
	    { echo "FAIL: $f:"; head -5 "$tmp/out"; fail=1; }
	n=$((n + 1))
done
# sqlite3_step enters the statement loop's cycle from outside: its
# inclusive is the calls into it (89.6%), not its gprof share (0.00%),
# in the text report as in the graph, where it stays drawn.
f=real/sqlite3.out.gz
"$prog" --inclusive=yes "$f" | grep -q '^22,440,356 (89.59%)  ???:sqlite3_step ' ||
    { echo "FAIL: $f: sqlite3_step's inclusive in the text report"; fail=1; }
"$prog" --format=dot "$f" | grep -q 'label=<sqlite3_step<BR/>.*89.59%' ||
    { echo "FAIL: $f: sqlite3_step not drawn at 89.59%"; fail=1; }
# Grouped by object, no cycle swallows the program: libsqlite3 costs at
# least its costliest function (sqlite3_step), the program at least its
# start.
"$prog" --group=object --inclusive=yes "$f" >"$tmp/g" 2>&1
grep -q '<cycle' "$tmp/g" && { echo "FAIL: $f: a cycle of objects"; fail=1; }
grep -q '^22,440,356 (89.59%)  /usr/lib/x86_64-linux-gnu/libsqlite3' "$tmp/g" ||
    { echo "FAIL: $f: libsqlite3's inclusive cost"; fail=1; }
grep -q '^23,130,783 (92.35%)  /usr/bin/sqlite3$' "$tmp/g" ||
    { echo "FAIL: $f: sqlite3's inclusive cost"; fail=1; }
[ $fail -eq 0 ] && echo "cycles: ok ($n profiles)"
exit $fail

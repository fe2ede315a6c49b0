#!/bin/sh
# pathological.sh - inputs built to be slow or to blow up memory, each of
# which must finish well within ctest's timeout with a clean result.
#
# usage: pathological.sh PROGRAM CASE
#   names      10^6 distinct function names
#   samename   10^6 files with a function of the same name, and calls
#              between them (--tree=both)
#   longline   one 10 MB line (a function name)
#   chain      a call chain 10^5 deep, with --inclusive=yes --tree=both
#   cycle      a cycle of 10^5 functions, each calling a leaf of its own,
#              with --inclusive=yes --tree=both (the cycle's callees)
#   hugelines  line numbers near 2^64, annotated
#   bigsource  a source file of 10^6 lines with costs spread through it
#   hugesource a sparse source file of 64 GB (two lines, then a hole),
#              its second line annotated: read as far as needed only
#   formulachain  5 * 10^4 event: formulas, each naming the one before,
#              the last overriding CEst: --show, --sort and --fail-above
#              on it (expanded recursively, it overflowed the stack)
#   formulawide   10^5 event: formulas and one naming them all (looked
#              up one by one, it took 24 s)
#   manyevents 10^5 events and 2 * 10^4 functions: refused at the
#              events: line (dense cost vectors asked for 16 GB)
#   longname   a name of 10^8 bytes, plain, from a pipe and gzipped (a
#              zstd file of 101 KB held a name of 3 GB): refused, in 600
#              MB of address space
#   longregex  4 names of 10^6 bytes, matched by --function, --fail-above,
#              --root and --mod-funcname expressions (glibc's regexec
#              took 12 s for 10 names of 5 * 10^4 bytes: its time grew
#              with the square of a name's length)
#   flamechain a call chain 10^5 deep, each function with a cost of its
#              own, as folded stacks in 1 GB of memory:
#              refused with a message, nothing printed (it asked for 8 GB)
#   flamechain2   the same chain with two events, as speedscope makes
#              the stacks of both in one walk: refused likewise
#   flameladder   2,000 levels of two functions each calling both of the
#              next level: folded stacks in 1 GB that add up; with the
#              cost at the bottom (2^k stacks k levels up), estimated
#              coarser until they fit, and said so (it wrote 1.4 GB in
#              1 GB of memory, then was refused)
set -u

prog=$1 case=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
. "$(dirname "$0")/limit.sh"
cd "$tmp" || exit 2

fail() {
	echo "pathological: $case: FAIL: $*"
	exit 1
}

case $case in
longregex)
	awk 'BEGIN { print "events: Ir"; print "fl=src/a.c"
	    for (i = 0; i < 4; i++) { printf "fn="
	        for (k = 0; k < 250000; k++) printf "src/"
	        print "x" i; print "1 " i + 1 } }' >p.out
	"$prog" --auto=no --function='src/.*parse' p.out >out 2>err ||
	    fail "--function: exit $?"
	grep -q "^10 (100.0%)  PROGRAM TOTALS (calculated)$" out ||
	    fail "--function: totals"
	grep -q 'src/src/' out && fail "--function: a name matched"
	"$prog" --auto=no --function='src/x3$' p.out >out 2>err ||
	    fail "--function x3: exit $?"
	[ "$(grep -c 'src/src/' out)" -eq 1 ] || fail "--function x3: not one"
	"$prog" --auto=no --fail-above='Ir:1:src/.*x[23]$' p.out >out 2>err
	[ $? -eq 3 ] || fail "--fail-above: not exceeded"
	[ "$(grep -c 'limit exceeded' err)" -eq 2 ] || fail "--fail-above: two"
	: >err
	"$prog" --format=dot --root='src/.*x0$' p.out >out 2>err ||
	    fail "--root: exit $?"
	sed 's/^1 4$/1 40/' p.out >q.out
	"$prog" --diff --mod-funcname='s/(src\/)+/S/' p.out q.out >out 2>err ||
	    fail "--mod-funcname: exit $?"
	grep -q '^36 (360.0%)  src/a.c:Sx3$' out || fail "--mod-funcname: not rewritten"
	;;
manyevents)
	awk 'BEGIN { printf "events:"; for (i = 0; i < 100000; i++) printf " E%d", i
	    print ""; print "fl=a.c"
	    for (i = 0; i < 20000; i++) { print "fn=f" i; print "1 1" } }' >p.out
	limited 1024 "$prog" p.out >out 2>err2
	rc=$?
	[ $rc -eq 1 ] && [ ! -s out ] || fail "exit $rc: $(cat err2)"
	grep -qx "cg-annotate: p.out:1: error: too many events, not read: more than 256, the limit" \
	    err2 || fail "$(cat err2)"
	;;
longname)
	{ printf 'events: Ir\nfl=a.c\nfn='
	  head -c 100000000 /dev/zero | tr '\0' 'a'; printf '\n1 5\n'; } >p.out
	gzip -1 -c p.out >p.out.gz
	for how in file pipe gzip; do
		case $how in
		file)	limited 600 "$prog" p.out >out 2>err2 ;;
		pipe)	limited 600 "$prog" - <p.out >out 2>err2 ;;
		gzip)	limited 600 "$prog" p.out.gz >out 2>err2 ;;
		esac
		rc=$?
		[ $rc -eq 1 ] && [ ! -s out ] || fail "$how: exit $rc"
		grep -q ":3: error: line too long, not read: more than 67108864 bytes, the limit$" \
		    err2 || fail "$how: $(cut -c1-200 err2)"
	done
	;;
flamechain)
	awk 'BEGIN { n = 100000; print "events: Ir"; print "fl=a.c"
	    for (i = 0; i < n; i++) { print "fn=f" i; print "1 1"
	        if (i + 1 < n) { print "cfn=f" i + 1; print "calls=1 1"
	            print "1 " n - i - 1 } } }' >p.out
	# SVG makes its frames by the same code (the time of a run under
	# ASan, 45 s, is spent once).
	for fmt in folded; do
		limited 1024 "$prog" --format=$fmt p.out >out \
		    2>err2
		rc=$?
		[ $rc -eq 1 ] || fail "$fmt: exit $rc: $(cat err2)"
		[ -s out ] && fail "$fmt: a partial report"
		grep -q "p.out: error: too large to show: flame graph stacks: more than 268435456 frames" \
		    err2 || fail "$fmt: $(cat err2)"
	done
	;;
flamechain2)
	awk 'BEGIN { n = 100000; print "events: Ir Dr"; print "fl=a.c"
	    for (i = 0; i < n; i++) { print "fn=f" i; print "1 1 2"
	        if (i + 1 < n) { print "cfn=f" i + 1; print "calls=1 1"
	            print "1 " n - i - 1 " " 2 * (n - i - 1) } } }' >p.out
	limited 1024 "$prog" --format=speedscope p.out >out 2>err2
	rc=$?
	[ $rc -eq 1 ] || fail "exit $rc: $(cat err2)"
	[ -s out ] && fail "a partial report"
	grep -q "p.out: error: too large to show: flame graph stacks: more than 268435456 frames" \
	    err2 || fail "$(cat err2)"
	;;
flameladder)
	awk 'BEGIN { n = 2000; print "events: Ir"; print "fl=a.c"
	    for (i = 0; i < n; i++) for (s = 0; s < 2; s++) {
	        print "fn=" (s ? "b" : "a") i; print "1 " i % 7 + 1
	        if (i + 1 < n) for (t = 0; t < 2; t++) {
	            print "cfn=" (t ? "b" : "a") i + 1; print "calls=1 1"
	            print "1 " (n - i) * 4 } } }' >p.out
	limited 1024 "$prog" --format=folded p.out >out 2>err2 ||
	    fail "exit $?: $(cat err2)"
	want=$(awk 'BEGIN { for (i = 0; i < 2000; i++) s += 2 * (i % 7 + 1)
	    print s }')
	[ "$(awk '{ s += $NF } END { print s }' out)" = "$want" ] ||
	    fail "the stacks do not add up to $want"
	awk 'BEGIN { n = 2000; print "events: Ir"; print "fl=a.c"
	    for (i = 0; i < n; i++) for (s = 0; s < 2; s++) {
	        print "fn=" (s ? "b" : "a") i
	        print "1 " (i == n - 1 ? 1000000000 : 1)
	        if (i + 1 < n) for (t = 0; t < 2; t++) {
	            print "cfn=" (t ? "b" : "a") i + 1; print "calls=1 1"
	            print "1 1000000000" } } }' >q.out
	limited 1024 "$prog" --format=folded q.out >out 2>err2 ||
	    fail "the steep ladder: exit $?: $(cat err2)"
	[ "$(awk '{ s += $NF } END { print s }' out)" = 2000003998 ] ||
	    fail "the steep ladder's stacks do not add up to 2000003998"
	grep -q "^cg-annotate: q.out: stacks estimated coarser than 1/100000: shares below 1/100 of the total go up whole" \
	    err2 || fail "the steep ladder: $(cat err2)"
	# The export's stacks are the flame graph's.
	limited 1024 "$prog" --format=speedscope q.out >q.json 2>err2 ||
	    fail "the steep ladder, speedscope: exit $?: $(cat err2)"
	[ "$(jq '[.profiles[0].weights[]] | add' q.json)" = 2000003998 ] &&
	    [ "$(jq '.profiles[0].samples | length' q.json)" = \
	    "$(wc -l <out)" ] ||
	    fail "the steep ladder: speedscope's stacks are not folded's"
	: >err2
	;;
formulachain)
	awk 'BEGIN { print "events: Ir"; print "event: E0 = Ir"
	    for (i = 1; i < 50000; i++) print "event: E" i " = E" i - 1
	    print "event: CEst = 2 E49999"; print "fl=a.c"; print "fn=main"
	    print "1 21" }' >p.out
	for o in --show=CEst --sort=CEst --fail-above=CEst:1; do
		"$prog" --auto=no $o p.out >out 2>err
		rc=$?
		case $o in
		--fail*) [ $rc -eq 3 ] || fail "$o: exit $rc"
			grep -q "CEst is 42$" err || fail "$o: $(cat err)"
			: >err ;;
		--sort*) [ $rc -eq 0 ] || fail "$o: exit $rc"
			grep -q "^Event sort order: CEst$" out ||
			    fail "$o: not sorted by CEst" ;;
		*)	[ $rc -eq 0 ] || fail "$o: exit $rc"
			grep -q "^42 (100.0%) .*PROGRAM TOTALS (calculated)$" \
			    out || fail "$o: CEst is not 2 Ir: $(cat out)" ;;
		esac
	done
	# A cycle as long, told once.
	sed 's/^event: E0 = Ir$/event: E0 = E49999/' p.out >q.out
	"$prog" --auto=no --show=CEst q.out >out 2>cycle.err &&
	    fail "a cycle: exit 0"
	[ "$(grep -c "refers back to itself" cycle.err)" -eq 1 ] ||
	    fail "a cycle: $(cat cycle.err)"
	;;
formulawide)
	awk 'BEGIN { print "events: Ir"
	    for (i = 0; i < 100000; i++) print "event: A" i " = Ir"
	    printf "event: CEst = A0"
	    for (i = 1; i < 100000; i++) printf " + A%d", i
	    print ""; print "fl=a.c"; print "fn=main"; print "1 3" }' >p.out
	"$prog" --auto=no --show=CEst p.out >out 2>err || fail "exit $?"
	grep -q "^300,000 (100.0%)  PROGRAM TOTALS (calculated)$" out ||
	    fail "CEst is not 10^5 Ir: $(head -20 out)"
	;;
hugesource)
	printf 'int a;\nint b;\n' >big.c
	truncate -s 64G big.c || { echo "pathological: no sparse file here"; exit 0; }
	printf 'events: Ir\nfl=big.c\nfn=f\n2 7\n' >p.out
	"$prog" --context=0 p.out >out 2>err || fail "exit $?"
	grep -q "^7 (100.0%)  int b;$" out || fail "line 2 not annotated"
	grep -q "^7 (100.0%)  events annotated$" out || fail "wrong sum"
	;;
names)
	awk 'BEGIN { print "events: Ir"; print "fl=a.c"
	    for (i = 0; i < 1000000; i++) { print "fn=f" i; print i % 97 + 1, 1 } }' \
	    >p.out
	"$prog" --auto=no --threshold=100 p.out >out 2>err || fail "exit $?"
	grep -q "^1,000,000 (100.0%)  PROGRAM TOTALS (calculated)$" out ||
	    fail "wrong totals"
	[ "$(grep -c 'a.c:f' out)" -eq 1000000 ] || fail "not every function"
	;;
samename)
	awk 'BEGIN { n = 1000000; print "events: Ir"
	    for (i = 0; i < n; i++) { print "fl=d" i ".c"; print "fn=f"
	        print "1 1"; if (i + 1 < n) { print "cfl=d" i + 1 ".c"
	        print "cfn=f"; print "calls=1 1"; print "1 1" } } }' >p.out
	"$prog" --auto=no --threshold=100 --tree=calling p.out >out 2>err ||
	    fail "exit $?"
	grep -q "^1,000,000 (100.0%)  PROGRAM TOTALS (calculated)$" out ||
	    fail "wrong totals"
	[ "$(grep -c '^1 ( 0.00%)  \*  d[0-9]*\.c:f$' out)" -eq 1000000 ] ||
	    fail "not every function"
	[ "$(grep -c '>   d[0-9]*\.c:f (1x) \[\]$' out)" -eq 999999 ] ||
	    fail "not every call"
	;;
longline)
	{ printf 'events: Ir\nfl=a.c\nfn='; head -c 10000000 /dev/zero |
	    tr '\0' x; printf '\n1 5\nfn=g\n2 7\n'; } >p.out
	"$prog" --auto=no p.out >out 2>err || fail "exit $?"
	grep -q "^12 (100.0%)  PROGRAM TOTALS" out || fail "wrong totals"
	[ "$(wc -c <out)" -gt 10000000 ] || fail "long name not printed"
	;;
chain)
	awk 'BEGIN { n = 100000; print "events: Ir"; print "fl=c.c"
	    for (i = 0; i < n; i++) { print "fn=f" i; print "1 1"
	        if (i + 1 < n) { print "cfn=f" i + 1; print "calls=1 1"
	            print "1", n - i - 1 } } }' >p.out
	"$prog" --auto=no --inclusive=yes --tree=both --threshold=100 p.out \
	    >out 2>err || fail "exit $?"
	grep -q "^100,000 (100.0%)  \*  c.c:f0$" out || fail "f0 not 100%"
	grep -q "^ *1 ( 0.00%)  \*  c.c:f99999$" out || fail "leaf wrong"
	;;
cycle)
	awk 'BEGIN { n = 100000; print "events: Ir"; print "fl=c.c"
	    print "fn=main"; print "1 1"; print "cfn=f0"; print "calls=1 1"
	    print "1", 2 * n
	    for (i = 0; i < n; i++) { print "fn=f" i; print "1 1"
	        print "cfn=f" (i + 1) % n; print "calls=1 1"; print "1 1"
	        print "cfn=leaf" i; print "calls=1 1"; print "1 1" }
	    for (i = 0; i < n; i++) { print "fn=leaf" i; print "1 1" } }' \
	    >p.out
	"$prog" --auto=no --inclusive=yes --tree=both --threshold=100 p.out \
	    >out 2>err || fail "exit $?"
	grep -q "^ *200,000 (100.0%)  \*  <cycle 1>$" out || fail "no cycle"
	[ "$(grep -c '  >   c.c:leaf' out)" -ge 100000 ] || fail "callees"
	;;
hugelines)
	printf 'x\ny\n' >h.c
	printf 'events: Ir\nfl=h.c\nfn=f\n1 1\n18446744073709551614 2\n9223372036854775808 3\n0 4\n' \
	    >p.out
	"$prog" p.out >out 2>err || fail "exit $?"
	grep -q "<bogus line 18446744073709551614>" out || fail "no bogus line"
	grep -q "<counts for unidentified lines in h.c>" out ||
	    fail "no line 0"
	;;
bigsource)
	awk 'BEGIN { for (i = 1; i <= 1000000; i++) print "line", i }' >b.c
	awk 'BEGIN { print "events: Ir"; print "fl=b.c"; print "fn=f"
	    for (i = 1; i <= 1000000; i += 10) print i, 1 }' >p.out
	"$prog" --context=1 p.out >out 2>err || fail "exit $?"
	grep -q "^100,000 (100.0%)  events annotated$" out ||
	    fail "not every line annotated"
	;;
*)
	fail "unknown case"
	;;
esac
[ -s err ] && fail "unexpected messages: $(head -3 err)"
echo "pathological: $case: ok"

#!/bin/sh
# lines.sh - a function's lines in a file are kept apart while reading
# only where the report reads them so, and what a user sees is the same:
# annotated sources line by line (files found, files named), JSON's
# lines whatever is found, the same function list whether or not the
# source is at hand, and a derived event below 0 told of its line when
# a formula with a minus is defined (--event, or an event: line).
#
# usage: lines.sh PROGRAM
set -u

prog=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
. "$(dirname "$0")/needs.sh"
needs jq jq
cd "$tmp" || exit 2

cat >p.out <<'EOF'
events: Ir Dr
event: Y = Ir - Dr
fl=a.c
fn=f
1 1 5
2 10 0
fn=main
3 1 0
cfn=f
calls=1 1
3 11 5
EOF
sed '/^event:/d' p.out >q.out
printf 'int f(void)\n{\n  return 0;\n}\nint main(void) { return f(); }\n' >a.c

# The function list, from its header to the blank line after it.
list() {
	sed -n '/file:function$/,/^$/p' "$1"
}

# Found: annotated line by line, each line's cost its own.
"$prog" p.out >found 2>err || { echo "FAIL: found: exit $?"; fail=1; }
grep -qx ' 1 ( 8.33%) 5 (100.0%)  int f(void)' found &&
    grep -qx '10 (83.33%) 0           {' found ||
    { echo "FAIL: found: a.c is not annotated line by line"; fail=1; }
# Named (--auto=no): the same lines.
"$prog" --auto=no p.out a.c >named 2>err ||
    { echo "FAIL: named: exit $?"; fail=1; }
grep -q 'User-annotated source: a.c' named &&
    grep -qx '10 (83.33%) 0           {' named ||
    { echo "FAIL: named: a.c is not annotated line by line"; fail=1; }

# Not found: listed as such, the same function list; JSON still gives
# each line apart.
mv a.c a.c.away
"$prog" p.out >away 2>err || { echo "FAIL: away: exit $?"; fail=1; }
grep -q 'could not be found' away ||
    { echo "FAIL: away: a.c is not said to be missing"; fail=1; }
list found >l1
list away >l2
[ -s l1 ] && cmp -s l1 l2 ||
    { echo "FAIL: away: another function list"; diff l1 l2; fail=1; }
n=$("$prog" --format=json p.out 2>/dev/null |
    jq -c '[.files[0].lines[] | [.line, .self.Ir]]')
[ "$n" = "[[1,1],[2,10],[3,1]]" ] ||
    { echo "FAIL: json: lines $n"; fail=1; }

# A formula with a minus: below 0 on line 1 (1 - 5), not in f's sum
# (11 - 5), told of the line whether or not a source is annotated.
for args in "--event=X=Ir-Dr --show=X q.out" "--show=Y p.out" \
    "--event=X=Ir-Dr --show=X --format=markdown q.out"; do
	# shellcheck disable=SC2086
	"$prog" --auto=no $args >out 2>err && {
		echo "FAIL: $args: exit 0"; fail=1; }
	grep -q "derived event below 0: .* in a cost line of 'a.c:f'" err ||
	    { echo "FAIL: $args: not told"; cat err; fail=1; }
done
# Read as one with a profile that defines it: the second profile's
# lines are kept apart too.
cat >r.out <<'EOF2'
events: Ir Dr
fl=b.c
fn=g
1 1 5
2 10 0
EOF2
sed -n '1,2p' p.out >s.out
printf 'fl=c.c\nfn=h\n1 9 1\n' >>s.out
"$prog" --auto=no --show=Y s.out r.out >out 2>err && {
	echo "FAIL: two profiles: exit 0"; fail=1; }
grep -q "derived event below 0: .* in a cost line of 'b.c:g'" err ||
    { echo "FAIL: two profiles: not told"; cat err; fail=1; }

# Without a minus, the sum.
"$prog" --auto=no --event=X=Ir+Dr --show=X --totals q.out >out 2>err &&
    [ "$(cat out)" = "X 17" ] ||
    { echo "FAIL: --event=X=Ir+Dr: $(cat out err)"; fail=1; }

exit $fail

#!/bin/sh
# parts.sh - several parts read as one profile give the totals of the
# same program profiled in one dump; compressed profiles give the same
# reports as plain ones; corrupt compressed data is a clean error.
#
# usage: parts.sh PROGRAM TESTDATA
set -u

prog=$1
cd "$2/profiles" || exit 2
fail=0

totals() {
	"$prog" --auto=no "$@" 2>/dev/null | grep "PROGRAM TOTALS"
}

want=$(totals cg-threads.out)
[ -n "$want" ] || { echo "FAIL: no totals for cg-threads.out"; exit 1; }
for args in "mt/callgrind.out.4242" "cg-combined.out" \
    "dumps/callgrind.out.4242.1 dumps/callgrind.out.4242.2 dumps/callgrind.out.4242"; do
	# shellcheck disable=SC2086
	got=$(totals $args)
	[ "$got" = "$want" ] || {
		echo "FAIL: $args: '$got', want '$want'"
		fail=1
	}
done

# Compressed on standard input: the very same report.
"$prog" - <cg-default.out >plain.$$ 2>&1
for f in cg-default.out.gz cg-default.out.zst; do
	"$prog" - <"$f" >comp.$$ 2>&1
	cmp -s plain.$$ comp.$$ || { echo "FAIL: $f differs"; fail=1; }
	"$prog" --inclusive=yes --tree=both "$f" >/dev/null 2>&1 ||
	    { echo "FAIL: $f by name"; fail=1; }
done

# Corrupt and cut compressed data: one clean error, exit status 1.
head -c 3000 cg-default.out.gz >cut.$$
printf '\037\213garbage' >bad.$$
for f in cut.$$ bad.$$; do
	"$prog" "$f" >/dev/null 2>err.$$
	rc=$?
	[ $rc -eq 1 ] || { echo "FAIL: $f: exit $rc"; fail=1; }
	[ "$(wc -l <err.$$)" -eq 1 ] || { echo "FAIL: $f:"; cat err.$$; fail=1; }
done
rm -f plain.$$ comp.$$ cut.$$ bad.$$ err.$$
[ $fail -eq 0 ] || exit 1
echo "parts: ok"

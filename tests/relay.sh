#!/bin/sh
# relay.sh - compressed input and pipes are read in a second thread
# (relay.c): a profile of many blocks gives the very same report and
# messages from gzip, zstd, a pipe and the plain file; a read error
# comes after the warnings about the lines before it; a fatal error
# stops the reading even when the pipe stays open.
#
# usage: relay.sh PROGRAM SYNTH
set -u

prog=$1
synth=$2
tmp=$(mktemp -d) || exit 2
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0
. "$(dirname "$0")/needs.sh"
needs gzip gzip
needs zstd zstd

# Five million bytes (five blocks) with two lines the parser warns
# about: one in the first block, one in the third.
"$synth" -g -e 13 -b 5000000 >"$tmp/p.gen" || exit 2
n=$(wc -l <"$tmp/p.gen")
awk -v a=200 -v b=$((n / 2)) '
	NR == a || NR == b { print "what is this line " NR }
	{ print }' "$tmp/p.gen" >"$tmp/p.out"
gzip -1 -c "$tmp/p.out" >"$tmp/p.out.gz"
zstd -q -3 -c "$tmp/p.out" >"$tmp/p.out.zst"

"$prog" --inclusive=yes "$tmp/p.out" >"$tmp/want.out" 2>"$tmp/want.err"
want_rc=$?
[ "$(grep -c 'what is this line' "$tmp/want.err")" -eq 2 ] ||
    { echo "FAIL: the plain file does not warn twice:"; cat "$tmp/want.err";
    fail=1; }
check() {
	# check LABEL: compare $tmp/got.* with the plain file's.
	[ "$rc" -eq "$want_rc" ] || { echo "FAIL: $1: exit $rc"; fail=1; }
	# The report names its file: compare what follows.
	sed "s|$tmp/p.out[.a-z]*|FILE|g" "$tmp/want.out" >"$tmp/w.out"
	sed "s|$tmp/p.out[.a-z]*|FILE|g; s|'-'|'FILE'|; s|^\( *\)-: |\1FILE: |" \
	    "$tmp/got.out" >"$tmp/g.out"
	cmp -s "$tmp/w.out" "$tmp/g.out" ||
	    { echo "FAIL: $1: another report:"; diff "$tmp/w.out" "$tmp/g.out" |
	    head -5; fail=1; }
	sed "s|$tmp/p.out[.a-z]*|FILE|g" "$tmp/want.err" >"$tmp/w.err"
	sed "s|$tmp/p.out[.a-z]*|FILE|g; s|^\([^:]*: \)-:|\1FILE:|" \
	    "$tmp/got.err" >"$tmp/g.err"
	cmp -s "$tmp/w.err" "$tmp/g.err" ||
	    { echo "FAIL: $1: other messages:"; diff "$tmp/w.err" "$tmp/g.err";
	    fail=1; }
}
for f in p.out.gz p.out.zst; do
	"$prog" --inclusive=yes "$tmp/$f" >"$tmp/got.out" 2>"$tmp/got.err"
	rc=$?
	check "$f"
	"$prog" --inclusive=yes - <"$tmp/$f" >"$tmp/got.out" 2>"$tmp/got.err"
	rc=$?
	check "$f on standard input"
done
cat "$tmp/p.out" | "$prog" --inclusive=yes - >"$tmp/got.out" 2>"$tmp/got.err"
rc=$?
check "a pipe"

# Cut at three quarters: both warnings, then the read error, last.
size=$(wc -c <"$tmp/p.out.gz")
head -c $((size * 3 / 4)) "$tmp/p.out.gz" >"$tmp/cut.gz"
"$prog" "$tmp/cut.gz" >/dev/null 2>"$tmp/cut.err"
rc=$?
[ $rc -eq 1 ] || { echo "FAIL: cut: exit $rc"; fail=1; }
if [ "$(wc -l <"$tmp/cut.err")" -ne 3 ] ||
    ! sed -n 1p "$tmp/cut.err" | grep -q ":200: .*what is this line 200" ||
    ! sed -n 2p "$tmp/cut.err" | grep -q "what is this line" ||
    ! sed -n 3p "$tmp/cut.err" | grep -q "gzip data cut short"; then
	echo "FAIL: cut: messages out of order:"
	cat "$tmp/cut.err"
	fail=1
fi

# A fatal error stops the reading of a pipe its writer keeps open.
mkfifo "$tmp/fifo" || exit 2
(printf 'version: 99\nevents: Ir\n'; exec sleep 600) >"$tmp/fifo" &
pid=$!
timeout 120 "$prog" - <"$tmp/fifo" >/dev/null 2>"$tmp/fatal.err"
rc=$?
kill "$pid" 2>/dev/null
pid=
[ $rc -eq 1 ] || { echo "FAIL: fatal error on an open pipe: exit $rc"; fail=1; }
grep -q "unsupported format version" "$tmp/fatal.err" ||
    { echo "FAIL: fatal error on an open pipe:"; cat "$tmp/fatal.err";
    fail=1; }

[ $fail -eq 0 ] || exit 1
echo "relay: ok"

#!/bin/sh
# terminal.sh - names holding control characters are printed verbatim to
# a pipe but made visible on a terminal; "| head -1" ends quietly; a long
# read shows its progress on a terminal only.
#
# usage: terminal.sh PROGRAM
set -u

prog=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
. "$(dirname "$0")/needs.sh"
needs script bsdutils
cd "$tmp" || exit 2
printf 'events: Ir\nfl=a.c\nfn=evil\033[2Jname\n1 5\n' >p.out
fail=0

# A pipe: the bytes as they are.
"$prog" --auto=no p.out >pipe.txt 2>err || { echo "FAIL: exit $?"; fail=1; }
grep -q "$(printf 'a.c:evil\033\\[2Jname')" pipe.txt ||
    { echo "FAIL: pipe output changed the name"; fail=1; }

# A terminal (script(1) gives the program a pseudo-terminal).
script -qec "'$prog' --auto=no p.out" /dev/null >tty.txt 2>&1
grep -q 'a.c:evil\\033\[2Jname' tty.txt ||
    { echo "FAIL: terminal output not made visible"; fail=1; }
grep -q "$(printf '\033')" tty.txt &&
    { echo "FAIL: an escape reached the terminal"; fail=1; }

# A closed pipe: no message, even with SIGPIPE ignored by the parent.
awk 'BEGIN { print "events: Ir"; print "fl=a.c"
    for (i = 0; i < 200000; i++) { print "fn=f" i; print "1 1" } }' >big.out
( trap '' PIPE; "$prog" --auto=no --threshold=100 big.out 2>err2 | head -1 \
    >/dev/null )
[ -s err2 ] && { echo "FAIL: message on a closed pipe: $(cat err2)"; fail=1; }

# A long read shows a progress line on a terminal, erased at the end;
# never on a pipe, in CI or for JSON.  CGA_PROGRESS_DELAY=0 shows it at
# once, so that nothing here depends on the machine's speed.
awk 'BEGIN { print "events: Ir"; for (i = 0; i < 200000; i++) {
    print "fl=f" i % 50 ".c"; print "fn=g" i; print i % 90 + 1, 7 } }' >long.out
env -u CI CGA_PROGRESS_DELAY=0 script -qec "'$prog' --auto=no long.out \
    >rep.txt" /dev/null >tty.txt 2>&1
grep -q "cg-annotate: reading long.out: [0-9]* of [0-9]* MB" tty.txt ||
    { echo "FAIL: no progress line on a terminal"; fail=1; }
[ "$(tail -c 4 tty.txt | od -An -c | tr -d ' ')" = '\r033[K' ] ||
    { echo "FAIL: the progress line is not erased at the end"; fail=1; }
grep -q "^1,400,000 (100.0%)  PROGRAM TOTALS" rep.txt ||
    { echo "FAIL: the report beside the progress line"; fail=1; }
env CI=1 CGA_PROGRESS_DELAY=0 script -qec \
    "'$prog' --auto=no long.out >/dev/null" /dev/null >tty.txt 2>&1
grep -q "reading" tty.txt && { echo "FAIL: progress in CI"; fail=1; }
env -u CI CGA_PROGRESS_DELAY=0 script -qec \
    "'$prog' --format=json long.out >/dev/null" /dev/null >tty.txt 2>&1
grep -q "reading" tty.txt &&
    { echo "FAIL: progress with --format=json"; fail=1; }
CGA_PROGRESS_DELAY=0 "$prog" --auto=no long.out >/dev/null 2>err
[ -s err ] && { echo "FAIL: progress on a pipe"; fail=1; }

[ $fail -eq 0 ] || exit 1
echo "terminal: ok"

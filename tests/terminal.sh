#!/bin/sh
# terminal.sh - names holding control characters are printed verbatim to
# a pipe but made visible on a terminal; and "| head -1" ends quietly.
#
# usage: terminal.sh PROGRAM
set -u

prog=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 2
printf 'events: Ir\nfl=a.c\nfn=evil\033[2Jname\n1 5\n' >p.out
fail=0

# A pipe: the bytes as they are.
"$prog" --auto=no p.out >pipe.txt 2>err || { echo "FAIL: exit $?"; fail=1; }
grep -q "$(printf 'a.c:evil\033\\[2Jname')" pipe.txt ||
    { echo "FAIL: pipe output changed the name"; fail=1; }

# A terminal (script(1) gives the program a pseudo-terminal).
if command -v script >/dev/null 2>&1; then
	script -qec "'$prog' --auto=no p.out" /dev/null >tty.txt 2>&1
	grep -q 'a.c:evil\\033\[2Jname' tty.txt ||
	    { echo "FAIL: terminal output not made visible"; fail=1; }
	grep -q "$(printf '\033')" tty.txt &&
	    { echo "FAIL: an escape reached the terminal"; fail=1; }
else
	echo "terminal: script(1) not found, terminal case skipped"
fi

# A closed pipe: no message, even with SIGPIPE ignored by the parent.
awk 'BEGIN { print "events: Ir"; print "fl=a.c"
    for (i = 0; i < 200000; i++) { print "fn=f" i; print "1 1" } }' >big.out
( trap '' PIPE; "$prog" --auto=no --threshold=100 big.out 2>err2 | head -1 \
    >/dev/null )
[ -s err2 ] && { echo "FAIL: message on a closed pipe: $(cat err2)"; fail=1; }

[ $fail -eq 0 ] || exit 1
echo "terminal: ok"

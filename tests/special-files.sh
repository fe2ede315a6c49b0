#!/bin/sh
# special-files.sh - a profile naming a FIFO, a directory and a device as
# source files: none is read, none blocks, each is reported; a FIFO the
# user names that is not a profile is not annotated.
#
# usage: special-files.sh PROGRAM
set -u

prog=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 2
mkfifo fifo.c
mkdir dir.c
cat >prof.out <<'PROF'
events: Ir
fl=fifo.c
fn=f
1 10
fl=dir.c
fn=g
1 20
fl=/dev/zero
fn=h
1 30
fl=/proc/self/status
fn=i
1 40
PROF
fail=0
# Auto-annotation: listed as not found, with a warning each.  (timeout
# stops a run that blocks on the FIFO; a run takes a tenth of a second.)
timeout 120 "$prog" prof.out >out 2>err
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: exit status $rc"; fail=1; }
for f in fifo.c dir.c /dev/zero /proc/self/status; do
	grep -qx "  $f" out || { echo "FAIL: $f not listed"; fail=1; }
	grep -q "^cg-annotate: $f: warning: not a regular file" err ||
	    { echo "FAIL: no warning for $f"; fail=1; }
done
grep -q "annotated source" out && { echo "FAIL: something annotated"; fail=1; }
# Named by the user, a FIFO is read once (it may be a profile, as
# <(zcat run.out.gz) is); one that is not a profile is not a source
# file to annotate: an error.
echo "int main(void) { return 0; }" >fifo.c &
timeout 120 "$prog" prof.out fifo.c >out 2>err
rc=$?
wait
[ $rc -eq 1 ] || { echo "FAIL: user FIFO: exit status $rc"; fail=1; }
grep -q "^cg-annotate: fifo.c: error: cannot open" err ||
    { echo "FAIL: user FIFO: no error"; fail=1; }
if [ $fail -ne 0 ]; then
	cat out err
	exit 1
fi
echo "special-files: ok"

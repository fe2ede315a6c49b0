#!/bin/sh
# golden.sh - run one golden case and compare the whole result.
#
# usage: golden.sh PROGRAM TESTDATA NAME [ARGS...]
# Runs "PROGRAM ARGS..." in TESTDATA and compares its standard output with
# TESTDATA/golden/NAME.out byte for byte, its standard error with
# NAME.err (empty if there is no such file) and its exit status with
# NAME.rc (0 if there is none).  Prints a unified diff on failure.
set -u

prog=$1 td=$2 name=$3
shift 3
exp=$td/golden/$name
here=$(cd "$(dirname "$0")" && pwd)
. "$here/needs.sh"
case " $* " in
*" --asm=yes "*)
	needs objdump binutils ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

cd "$td" || exit 2
# Fixed modification times (the same as scripts/regen-golden sets).
sh "$here/filetimes.sh" . || exit 2
LC_ALL=C "$prog" "$@" >"$tmp/out" 2>"$tmp/err"
echo $? >"$tmp/rc"
[ -f "$exp.err" ] && cp "$exp.err" "$tmp/exp.err" || : >"$tmp/exp.err"
[ -f "$exp.rc" ] && cp "$exp.rc" "$tmp/exp.rc" || echo 0 >"$tmp/exp.rc"

fail=0
diff -u "$exp.out" "$tmp/out" || fail=1
diff -u "$tmp/exp.err" "$tmp/err" || fail=1
diff -u "$tmp/exp.rc" "$tmp/rc" || fail=1
if [ $fail -ne 0 ]; then
	echo "golden: $name: FAIL ($prog $*)"
	exit 1
fi
echo "golden: $name: ok"

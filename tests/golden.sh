#!/bin/sh
# golden.sh - run one golden case and compare the whole result.
#
# usage: golden.sh PROGRAM TESTDATA NAME [ARGS...]
# (scripts/regen-golden sets the same modification times.)
# Runs "PROGRAM ARGS..." in TESTDATA and compares its standard output with
# TESTDATA/golden/NAME.out byte for byte, its standard error with
# NAME.err (empty if there is no such file) and its exit status with
# NAME.rc (0 if there is none).  Prints a unified diff on failure.
set -u

prog=$1 td=$2 name=$3
shift 3
exp=$td/golden/$name
. "$(dirname "$0")/needs.sh"
case " $* " in
*" --asm=yes "*)
	needs objdump binutils ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

cd "$td" || exit 2
# Fixed modification times, so that "source newer than profile" depends
# on nothing but edge/src/newer.c, which is newer on purpose.  Every
# stamp is the same each time (tests run in parallel).
find src edge/src edge/relocated -type f ! -name newer.c \
    -exec touch -m -d @978307200 {} +
find profiles edge bad -maxdepth 1 -type f -name '*.out' \
    -exec touch -m -d @1009843200 {} +
touch -m -d @1893456000 edge/src/newer.c
# Objects older than their profiles, but asm/newer/loop.
find asm/src asm/bin -type f -exec touch -m -d @978307200 {} +
find asm -maxdepth 1 -type f -name '*.out' -exec touch -m -d @1009843200 {} +
touch -m -d @1893456000 asm/newer/loop
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

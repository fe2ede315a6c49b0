#!/bin/sh
# pprof.sh - --format=pprof as Go's pprof reads it (scripts/build-pprof):
# on every test and real profile, the export's sample types, -raw sums,
# -traces, -top per event and -list per routine and line agree with
# cg-annotate's own report (pprofcheck.py); -disasm on the testdata/asm
# program gives each instruction the cost --asm=yes prints; the same
# input gives the same bytes; a terminal is refused.
# With "exports" (the sanitizer build), only what runs cg-annotate: each
# export made twice, valid gzip, the same bytes, the JSON report and
# --asm=yes; Go's pprof, most of this test's time, reads the exports in
# the plain build's run.
#
# usage: pprof.sh PROGRAM TESTDATA PPROF [exports]
set -u

prog=$1 td=$2 pprof=$3 only=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/needs.sh"
needs python3 python3
needs gzip gzip
needs script bsdutils
[ -x "$pprof" ] || {
	echo "pprof.sh: needs $pprof (scripts/build-pprof)" >&2
	exit 1
}
cd "$td" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0 n=0
for f in profiles/*.out producers/*.out edge/*.out asm/*.out real/*.gz; do
	"$prog" --format=pprof "$f" >"$tmp/a.pb.gz" 2>/dev/null || {
		rc=$?
		# Profiles with fatal errors are refused, as in text.
		[ $rc -eq 1 ] && continue
		echo "FAIL: $f: exit $rc"
		fail=1
		continue
	}
	gzip -t "$tmp/a.pb.gz" || { echo "FAIL: $f: not gzip"; fail=1; }
	"$prog" --format=pprof "$f" 2>/dev/null | cmp -s - "$tmp/a.pb.gz" ||
	    { echo "FAIL: $f: two runs differ"; fail=1; }
	"$prog" --format=json --threshold=100 "$f" >"$tmp/a.json" 2>/dev/null
	opt=
	# One address given two lines: --asm's model keeps the first.
	[ "$f" = edge/repeats.out ] && opt=--no-lines
	[ "$only" = exports ] ||
	    python3 "$here/pprofcheck.py" $opt "$pprof" "$tmp/a.pb.gz" \
	    "$tmp/a.json" >"$tmp/out" 2>&1 ||
	    { echo "FAIL: $f:"; head -5 "$tmp/out"; fail=1; }
	n=$((n + 1))
done
[ $n -gt 50 ] || { echo "FAIL: only $n exports checked"; fail=1; }

# Machine code: pprof -disasm against --asm=yes, in the program and in a
# shared object of its own, function by function (functions that call
# nothing: pprofcheck.py).
for f in asm/loop-instr.out real/bzip2.out.gz; do
	"$prog" --format=pprof "$f" >"$tmp/a.pb.gz" 2>/dev/null &&
	    "$prog" --asm=yes --threshold=100 --auto=no "$f" >"$tmp/asm.txt" \
	    2>/dev/null || { echo "FAIL: $f: export"; fail=1; continue; }
	case $f in
	asm/*) fns='classify lib_scale' ;;
	*) fns='mainGtU BZ2_hbMakeCodeLengths' ;;
	esac
	[ "$only" = exports ] && continue
	for re in $fns; do
		python3 "$here/pprofcheck.py" --disasm "$pprof" "$tmp/a.pb.gz" \
		    "$tmp/asm.txt" "$re" >"$tmp/out" 2>&1 ||
		    { echo "FAIL: $f:"; cat "$tmp/out"; fail=1; }
	done
done

# Binary data is not written to a terminal.
script -qec "$prog --format=pprof profiles/cg-default.out" /dev/null \
    >"$tmp/tty" 2>&1
grep -q "redirect it to a file" "$tmp/tty" ||
    { echo "FAIL: a terminal got the export"; fail=1; }
[ $fail -eq 0 ] && echo "pprof: ok ($n profiles${only:+, $only only})"
exit $fail

#!/bin/sh
# roundtrip.sh - --format=callgrind reads back as it was read: for every
# test and real profile and each option set, "cg-annotate OPTIONS -" on
# the export prints what it prints on the profile (rtcmp.py: a profile
# of several parts is exported as one, their list aside); the export's
# own options (--fold, --event, --part) give what they give on the
# profile; callgrind_annotate reads the export as the profile; the same
# input gives the same bytes.
#
# usage: roundtrip.sh PROGRAM TESTDATA
set -u

prog=$1 td=$2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/needs.sh"
needs python3 python3
needs callgrind_annotate valgrind
needs gzip gzip
cd "$td" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0 n=0

# Read from standard input, the profile and its export get one name.
# same WHAT PROFILE OPTIONS EXPORT READ: "cg-annotate OPTIONS" on the
# profile prints what "cg-annotate READ" prints on its export made with
# EXPORT.
same() {
	"$prog" $3 - <"$tmp/in" >"$tmp/a" 2>/dev/null
	"$prog" --format=callgrind $4 "$2" 2>/dev/null |
	    "$prog" $5 - >"$tmp/b" 2>/dev/null
	python3 "$here/rtcmp.py" "$tmp/a" "$tmp/b" >"$tmp/d" 2>&1 || {
		echo "FAIL: $2: $1 [$3] [$4 | $5]:"
		sed 's/^/    /' "$tmp/d"
		fail=1
	}
}

for f in profiles/*.out producers/*.out edge/*.out asm/*.out real/*.gz; do
	case $f in
	# One address given two lines: the machine code model keeps one.
	edge/repeats.out|edge/format.out) continue ;;
	# A cost line before any fn=: function ??? of no object, which an
	# fn= line written back puts in the current one.
	edge/warnings.out) continue ;;
	esac
	case $f in *.gz) gzip -dc "$f" >"$tmp/in" ;; *) cp "$f" "$tmp/in" ;; esac
	"$prog" --format=callgrind "$f" >"$tmp/x.out" 2>/dev/null || {
		[ $? -eq 1 ] && continue	# refused, as in text
		echo "FAIL: $f: export"
		fail=1
		continue
	}
	"$prog" --format=callgrind "$f" 2>/dev/null | cmp -s - "$tmp/x.out" ||
	    { echo "FAIL: $f: two runs differ"; fail=1; }
	for o in "" "--inclusive=yes --tree=both" \
	    "--format=json --threshold=100" \
	    "--fold=all --inclusive=yes --auto=no --threshold=100"; do
		same "read" "$f" "$o" "" "$o"
	done
	case $f in
	asm/*|real/bzip2*)
		same "machine code" "$f" "--asm=yes --auto=no" "" \
		    "--asm=yes --auto=no" ;;
	esac
	n=$((n + 1))
done
[ $n -gt 50 ] || { echo "FAIL: only $n profiles"; fail=1; }

# The export's own options: as the report's on the profile.
for f in profiles/cg-callers2.out profiles/cg-recs3.out producers/vg-inline.out; do
	cp "$f" "$tmp/in"
	same "folded" "$f" "--fold=all" "--fold=all" ""
done
cp profiles/cg-cache.out "$tmp/in"
"$prog" --event=Mem=Ir+Dr --show=Mem,Ir - <"$tmp/in" >"$tmp/a" 2>/dev/null
"$prog" --format=callgrind --event=Mem=Ir+Dr profiles/cg-cache.out |
    "$prog" --show=Mem,Ir - >"$tmp/b" 2>/dev/null
cmp -s "$tmp/a" "$tmp/b" || { echo "FAIL: --event's formula"; fail=1; }
cp profiles/cg-combined.out "$tmp/in"
same "one part" profiles/cg-combined.out "--part=2" "--part=2" ""

# callgrind_annotate reads the export as the profile.
for f in profiles/cg-default.out profiles/cg-cache.out asm/loop-jumps.out \
    real/bzip2-cache.out.gz producers/xdebug-one.out; do
	case $f in *.gz) gzip -dc "$f" >"$tmp/in.out" ;;
	*) cp "$f" "$tmp/in.out" ;; esac
	"$prog" --format=callgrind "$f" >"$tmp/x.out" 2>/dev/null
	callgrind_annotate --inclusive=yes --tree=both "$tmp/in.out" \
	    >"$tmp/a" 2>&1
	callgrind_annotate --inclusive=yes --tree=both "$tmp/x.out" \
	    >"$tmp/b" 2>&1
	python3 "$here/rtcmp.py" --multiset "$tmp/a" "$tmp/b" >"$tmp/d" ||
	    { echo "FAIL: callgrind_annotate on $f's export:"; cat "$tmp/d";
	    fail=1; }
done
# A callee of no object called from a function of one: its calls name
# no object (a bare cob=), or a reader would take the caller's for it.
printf 'events: Ir\nob=/bin/prog\nfl=a.c\nfn=main\n1 10\ncob=\ncfi=a.c\ncfn=g\ncalls=1 1\n1 5\nob=\nfl=a.c\nfn=g\n1 5\n' >"$tmp/noob.out"
"$prog" --format=callgrind "$tmp/noob.out" >"$tmp/x.out" 2>/dev/null
awk '/^cob=$/ { bare = 1 } /^cfn=/ { ok = bare; bare = 0 }
    END { exit !ok }' "$tmp/x.out" ||
    { echo "FAIL: no bare cob= before the call to g:"; cat "$tmp/x.out";
    fail=1; }

[ $fail -eq 0 ] && echo "roundtrip: ok ($n profiles)"
exit $fail

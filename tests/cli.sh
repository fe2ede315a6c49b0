#!/bin/sh
# cli.sh - the command line as a user meets it: the profile found when
# none is named, a file that is not a profile, write errors on --help
# and --version, the environment objdump runs in.
#
# usage: cli.sh PROGRAM TESTDATA
set -u

prog=$1 td=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
. "$(dirname "$0")/needs.sh"
needs gzip gzip
needs jq jq

# No profile named: the one found here is said on standard output only
# for the text report (as callgrind_annotate does); the machine-read
# formats stay clean, and the line goes to standard error.
mkdir "$tmp/here"
cp "$td/profiles/cg-default.out" "$tmp/here/callgrind.out.4242"
cd "$tmp/here" || exit 2
"$prog" --auto=no >out 2>err
head -1 out | grep -qx "Reading data from 'callgrind.out.4242'..." ||
    { echo "FAIL: text: no Reading line first"; fail=1; }
for fmt in "--format=json" "--totals" "--format=markdown"; do
	"$prog" $fmt >out 2>err ||
	    { echo "FAIL: $fmt: exit $?"; fail=1; }
	grep -q "Reading data" out &&
	    { echo "FAIL: $fmt: the Reading line is in the report"; fail=1; }
	grep -qx "cg-annotate: reading data from 'callgrind.out.4242'" err ||
	    { echo "FAIL: $fmt: the file read is not said on stderr"; fail=1; }
done
"$prog" --format=json 2>/dev/null | jq -e '.totals.Ir == 201989' \
    >/dev/null 2>&1 || { echo "FAIL: --format=json is not JSON"; fail=1; }
[ "$("$prog" --totals 2>/dev/null)" = "Ir 201989" ] ||
    { echo "FAIL: --totals is not one line"; fail=1; }
cd "$tmp" || exit 2

# A prefix names what callgrind appends to it (.N, -NN, .N-NN) and
# nothing else: not another process's callgrind.out.10 for .1, not a
# saved report, and never as a glob pattern.  A file of that name that
# is not a profile is left out with a note.
mkdir "$tmp/prefix"
cd "$tmp/prefix" || exit 2
p=$td/profiles/cg-default.out
: >callgrind.out.1
cp "$p" callgrind.out.10
cp "$p" callgrind.out.1.2
cp "$p" callgrind.out.1-01
cp "$p" callgrind.out.1.2-02
echo "a saved report" >callgrind.out.1-01.txt
echo "a saved report" >callgrind.out.1.3
cp "$p" 'run[1].1'
cp "$p" run1.1
"$prog" --auto=no callgrind.out.1 >out 2>err ||
    { echo "FAIL: prefix: exit $?"; cat err; fail=1; }
sed -n '/^Parts:/,/^Events/p' out | grep -v "^Parts:\|^Events" |
    sed 's/^ *//; s/:.*//' | sort >parts
printf 'callgrind.out.1-01\ncallgrind.out.1.2\ncallgrind.out.1.2-02\n' \
    >want
cmp -s parts want ||
    { echo "FAIL: prefix: parts read:"; cat parts; fail=1; }
grep -qx "cg-annotate: callgrind.out.1.3: not a profile, left out" err ||
    { echo "FAIL: prefix: no note for callgrind.out.1.3"; fail=1; }
grep -q "\.txt" err out &&
    { echo "FAIL: prefix: a .txt file was looked at"; fail=1; }
[ "$("$prog" --totals 'run[1]' 2>/dev/null)" = "Ir 201989" ] ||
    { echo "FAIL: prefix 'run[1]' taken as a pattern"; fail=1; }

# A pipe named after the first profile is a profile by its content.
mkfifo fifo
cat "$p" >fifo &
[ "$("$prog" --totals "$p" fifo 2>err)" = "Ir 403978" ] ||
    { echo "FAIL: a profile from a pipe was not read"; cat err; fail=1; }
wait
gzip -c "$p" >p.gz
gunzip -c p.gz >fifo &
[ "$("$prog" --totals "$p" fifo 2>err)" = "Ir 403978" ] ||
    { echo "FAIL: a second profile from a pipe"; cat err; fail=1; }
wait
cat p.gz >fifo &
[ "$("$prog" --totals "$p" fifo 2>err)" = "Ir 403978" ] ||
    { echo "FAIL: gzip data from a pipe"; cat err; fail=1; }
wait
cd "$tmp" || exit 2

# A file that is not a profile (an archive, a text file, the same
# gzip-compressed) gets one error, exit 1, not a warning a line.
cd "$tmp" || exit 2
cp "$td/src/prog.c" prog.c
tar cf files.tar prog.c here
gzip -c files.tar >files.tar.gz
for f in files.tar prog.c files.tar.gz; do
	"$prog" "$f" >out 2>err
	rc=$?
	[ $rc -eq 1 ] && [ "$(cat err)" = "cg-annotate: $f: error: not a \
Callgrind or Cachegrind profile" ] || {
		echo "FAIL: $f: exit $rc, said:"
		head -3 err
		fail=1
	}
done

# --help and --version, like reports, say when they cannot be written.
if [ -w /dev/full ]; then
	for opt in --help --version; do
		"$prog" $opt >/dev/full 2>err
		rc=$?
		[ $rc -eq 1 ] ||
		    { echo "FAIL: $opt >/dev/full: exit $rc"; fail=1; }
		grep -q "^cg-annotate: standard output: error: " err ||
		    { echo "FAIL: $opt >/dev/full: no message"; fail=1; }
	done
fi

# objdump runs in the user's environment, glibc's malloc asked for huge
# pages (GLIBC_TUNABLES) unless the user's own tunables say otherwise.
cd "$tmp" || exit 2
printf '#!/bin/sh\nprintf "%%s|%%s\\n" "${GLIBC_TUNABLES-unset}" "${CGA_MARK-unset}" >>%s/env\n' \
    "$tmp" >objdump
chmod +x objdump
printf 'positions: instr line\nevents: Ir\nob=%s/asm/bin/loop\nfl=x.c\nfn=f\n0x1139 3 7\n' \
    "$td" >asm.out
for tun in "" "glibc.malloc.top_pad=0" "glibc.malloc.hugetlb=0"; do
	rm -f env
	if [ -z "$tun" ]; then
		env -u GLIBC_TUNABLES CGA_MARK=m "$prog" --asm=yes --auto=no \
		    --objdump="$tmp/objdump" asm.out >/dev/null 2>&1
		want="glibc.malloc.hugetlb=1|m"
	else
		GLIBC_TUNABLES=$tun CGA_MARK=m "$prog" --asm=yes --auto=no \
		    --objdump="$tmp/objdump" asm.out >/dev/null 2>&1
		case $tun in
		*hugetlb*) want="$tun|m" ;;
		*) want="$tun:glibc.malloc.hugetlb=1|m" ;;
		esac
	fi
	[ "$(cat env 2>/dev/null)" = "$want" ] || {
		echo "FAIL: objdump's environment with GLIBC_TUNABLES='$tun':" \
		    "$(cat env 2>/dev/null), not $want"
		fail=1
	}
done

# Functions 192 KB apart go to objdump in one run when their object is
# big enough that a run's fixed cost (its code and symbols read whole)
# outweighs listing the gap: a 64th of the object's size; apart in a
# small one.
printf '#!/bin/sh\nfor a; do case $a in --st*) printf "%%s " "$a" ;; esac; done >>%s/runs\necho >>%s/runs\n' \
    "$tmp" "$tmp" >objdump
cp "$td/asm/bin/loop" small
cp small big
truncate -s 16M big
for obj in small big; do
	rm -f runs
	printf 'positions: instr line\nevents: Ir\nob=%s\nfl=x.c\nfn=f\n0x1139 3 7\nfn=g\n0x31139 4 5\n' \
	    "$tmp/$obj" >gap.out
	"$prog" --asm=yes --auto=no --objdump="$tmp/objdump" gap.out \
	    >/dev/null 2>&1
	case $obj in
	small) want="--start-address=0x1139 --stop-address=0x1149 |--start-address=0x31139 --stop-address=0x31149 |" ;;
	big) want="--start-address=0x1139 --stop-address=0x31149 |" ;;
	esac
	[ "$(tr '\n' '|' <runs 2>/dev/null)" = "$want" ] || {
		echo "FAIL: objdump's runs on $obj: $(tr '\n' '|' <runs 2>/dev/null), not $want"
		fail=1
	}
done

[ $fail -eq 0 ] || exit 1
echo "cli: ok"

#!/bin/sh
# sites.sh - a big profile exported to pprof is read first with the
# calls' sites of its machine code alone (main.c, MAIN_SITES_BYTES),
# then again with every instruction if its functions could be split by
# instruction: what is written and said is what one read with every
# instruction gives (the same profile through a FIFO of the same name,
# which cannot be read twice).  Two shapes of cga-synth: a large C++
# program, every function as one (the sites are enough), and one small
# program (read again, split by instruction).  With strace (where it
# may trace), the number of times each is opened is checked too.
#
# usage: sites.sh PROGRAM SYNTH
set -u

prog=$1
synth=$2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0

# opens FILE CMD...: how many times CMD opens FILE (strace), or "-".
opens() {
	f=$1
	shift
	strace -qq -o /dev/null true >/dev/null 2>&1 || { echo -; return; }
	strace -f -qq -e trace=openat -o "$tmp/trace" "$@" >/dev/null \
	    2>&1 || true
	grep -c "\"$f\"" "$tmp/trace"
}

for shape in cxx one; do
	case $shape in
	cxx)	args="-g -x"; want="with every function as one"; reads=1 ;;
	one)	args=""; want="split over their instructions"; reads=2 ;;
	esac
	# 36 MB: past MAIN_SITES_BYTES (32 MB).
	"$synth" $args -b 36000000 >"$tmp/src.out" || exit 2
	cp "$tmp/src.out" "$tmp/p.out"
	"$prog" --format=pprof "$tmp/p.out" >"$tmp/sites.pb.gz" \
	    2>"$tmp/sites.err"
	rc1=$?
	n=$(opens "$tmp/p.out" "$prog" --format=pprof "$tmp/p.out")
	rm "$tmp/p.out"
	mkfifo "$tmp/p.out" || exit 2
	cat "$tmp/src.out" >"$tmp/p.out" &
	"$prog" --format=pprof "$tmp/p.out" >"$tmp/all.pb.gz" \
	    2>"$tmp/all.err"
	rc2=$?
	wait
	rm "$tmp/p.out"
	if [ $rc1 -ne 0 ] || [ $rc2 -ne 0 ]; then
		echo "FAIL $shape: exit $rc1 read by name, $rc2 from a FIFO"
		fail=1
	fi
	if ! cmp -s "$tmp/sites.pb.gz" "$tmp/all.pb.gz"; then
		echo "FAIL $shape: the export differs from one read with" \
		    "every instruction"
		fail=1
	fi
	if ! cmp -s "$tmp/sites.err" "$tmp/all.err"; then
		echo "FAIL $shape: the messages differ:"
		diff "$tmp/sites.err" "$tmp/all.err" | head -10
		fail=1
	fi
	# Not vacuous: which way the budget went.
	if ! grep -q "$want" "$tmp/sites.err"; then
		echo "FAIL $shape: not \"$want\":"
		cat "$tmp/sites.err"
		fail=1
	fi
	if [ "$n" != - ] && [ "$n" != $reads ]; then
		echo "FAIL $shape: read $n times, not $reads"
		fail=1
	fi
	[ "$n" = - ] && echo "sites.sh: no strace: the reads not counted"
done
exit $fail

#!/bin/sh
# fold.sh - --fold, --group and derived events, checked against other
# reports: a folded profile's report is that of the same run made without
# separating (callgrind --separate-recs=1), function list, inclusive
# costs and call trees alike, but for the object shown for a name two
# objects share; grouped rows add up to the totals; derived totals are
# their formulas of the recorded totals, on every test profile.
#
# usage: fold.sh PROGRAM TESTDATA
set -u

prog=$1 td=$2
[ -x "$prog" ] || { echo "fold: $prog is not a program"; exit 2; }
cd "$td" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0

# body PROFILE OPTIONS...: the report after its header, objects dropped.
body() {
	f=$1
	shift
	"$prog" --auto=no --threshold=100 "$@" "$f" |
	    sed -e '1,/^Auto-annotation:/d' -e 's/ \[[^]]*\]$//'
}

# rowsum PROFILE [OPTIONS...]: the first event's rows, every row printed.
rowsum() {
	f=$1
	shift
	"$prog" --auto=no --threshold=100 --show-percs=no "$@" "$f" \
	    2>/dev/null | awk '
	    / (file:function|object|file)$/ { list = 1; getline; next }
	    list && /^$/ { exit }
	    list && $1 != "." { gsub(",", "", $1); s += $1 }
	    END { printf "%.0f\n", s }'
}

for opts in "" "--inclusive=yes --tree=both" "--tree=caller"; do
	# shellcheck disable=SC2086
	body profiles/cg-recs1.out $opts >"$tmp/plain"
	[ "$(wc -l <"$tmp/plain")" -gt 100 ] ||
	    { echo "FAIL: cg-recs1.out $opts: no report"; fail=1; }
	# shellcheck disable=SC2086
	body profiles/cg-callers2.out $opts >"$tmp/contexts"
	for t in contexts:cg-callers2:plain all:cg-ctx-recs:plain \
	    recursion:cg-ctx-recs:contexts; do
		how=${t%%:*} f=${t#*:} want=${t##*:}
		f=${f%:*}
		# shellcheck disable=SC2086
		body "profiles/$f.out" --fold="$how" $opts >"$tmp/folded"
		cmp -s "$tmp/$want" "$tmp/folded" || {
			echo "FAIL: --fold=$how $f $opts is not $want:"
			diff "$tmp/$want" "$tmp/folded" | head -20
			fail=1
		}
	done
done

# Rows of every grouping and folding add up to the totals, with every
# row printed; no inclusive cost is above the total.
checked=0
for f in profiles/*.out edge/recursion.out producers/vg-callers2.out; do
	tot=$("$prog" --totals "$f" 2>/dev/null | head -1 | cut -d' ' -f2)
	case $tot in ''|.) continue ;; esac
	self=$(rowsum "$f")
	for o in --group=object --group=file --fold=all --fold=recursion; do
		sum=$(rowsum "$f" "$o")
		[ "$sum" = "$self" ] && [ "$sum" -gt 0 ] || {
			echo "FAIL: $f $o: rows add up to $sum, not $self"
			fail=1
		}
		# summary: lines may be a little above the self costs.
		body "$f" "$o" --inclusive=yes | awk -v t="$tot" -v u="$self" \
		    -v f="$f" -v o="$o" '/^ *[0-9,]+ / { v = $1;
		    gsub(",", "", v); if (v + 0 > t + 0 && v + 0 > u + 0) {
		    print "FAIL: " f " " o ": " $0; bad = 1 } }
		    END { exit bad }' || fail=1
		checked=$((checked + 1))
	done
done
[ $checked -gt 60 ] || { echo "FAIL: only $checked reports checked"; fail=1; }

# Derived totals are their formulas of the recorded totals.
for f in profiles/cg-cache.out profiles/cachegrind-cache.out; do
	"$prog" --totals "$f" >"$tmp/t"
	"$prog" --totals --show=L1m,LLm,Bm,CEst "$f" >"$tmp/d"
	[ "$(wc -l <"$tmp/d")" -eq 4 ] ||
	    { echo "FAIL: $f: no derived totals"; fail=1; }
	awk 'NR == FNR { v[$1] = $2; next }
	    { w[$1] = $2 }
	    END {
		l1 = v["I1mr"] + v["D1mr"] + v["D1mw"]
		ll = v["ILmr"] + v["DLmr"] + v["DLmw"]
		bm = v["Bim"] + v["Bcm"]
		ce = v["Ir"] + 10 * bm + 10 * l1 + 100 * ll
		if (w["L1m"] != l1 || w["LLm"] != ll || w["Bm"] != bm ||
		    w["CEst"] != ce) {
			print "FAIL: " FILENAME ": " w["L1m"] " " w["LLm"] " " \
			    w["Bm"] " " w["CEst"] ", not " l1 " " ll " " bm \
			    " " ce
			exit 1
		}
	    }' "$tmp/t" "$tmp/d" || fail=1
done

[ $fail -eq 0 ] && echo "fold: ok"
exit $fail

#!/bin/sh
# markdown.sh - --format=markdown on every test profile (and a
# difference of each against a fixed one): the totals table equals
# --totals; every table row has as many cells as its header; the same
# input gives the same bytes; and a real GitHub-flavoured Markdown
# renderer (cmark-gfm) makes every row a table row, with no name
# escaping into markup.
#
# usage: markdown.sh PROGRAM TESTDATA
set -u

prog=$1 td=$2
. "$(dirname "$0")/needs.sh"
needs cmark-gfm cmark-gfm
cd "$td" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0

# The cells of a table row: its unescaped "|" less one.
cells() {
	sed 's/\\\\//g; s/\\|//g' | awk -F'|' '{ print NF - 2 }'
}

# Check the tables of one Markdown report in $tmp/md: each row has the
# cells of its header, and cmark-gfm renders as many <tr> as there are
# rows and no tag but those of tables, lists, paragraphs and emphasis.
check_tables() {
	awk '
	/^\|/ { if (!intable) { intable = 1; n++ } print n, $0; next }
	{ intable = 0 }' "$tmp/md" >"$tmp/rows"
	for t in $(cut -d' ' -f1 "$tmp/rows" | sort -u); do
		grep "^$t " "$tmp/rows" | cut -d' ' -f2- >"$tmp/t"
		want=$(head -1 "$tmp/t" | cells)
		if cells <"$tmp/t" | grep -vqx "$want"; then
			echo "FAIL: $1: table $t: a row without $want cells"
			fail=1
		fi
	done
	rows=$(wc -l <"$tmp/rows")
	cmark-gfm --extension table --extension strikethrough \
	    --extension autolink "$tmp/md" >"$tmp/html"
	trs=$(grep -o '<tr>' "$tmp/html" | wc -l)
	# The delimiter rows are not table rows.
	delims=$(grep -c '^| \(:---\|---:\) ' "$tmp/md")
	if [ "$trs" -ne $((rows - delims)) ]; then
		echo "FAIL: $1: $((rows - delims)) table rows, $trs rendered"
		fail=1
	fi
	if sed 's/<\/\{0,1\}\(table\|thead\|tbody\|tr\|th\|td\|p\|ul\|li\|strong\|h3\)\( align="[a-z]*"\)\{0,1\}>//g' \
	    "$tmp/html" | grep -q '<[a-z/]'; then
		echo "FAIL: $1: a name became markup:"
		sed 's/<\/\{0,1\}\(table\|thead\|tbody\|tr\|th\|td\|p\|ul\|li\|strong\|h3\)\( align="[a-z]*"\)\{0,1\}>//g' \
		    "$tmp/html" | grep '<[a-z/]' | head -3
		fail=1
	fi
}

n=0
for f in profiles/*.out profiles/*.gz profiles/*.zst edge/*.out; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	"$prog" --format=markdown --threshold=100 "$f" >"$tmp/md" 2>/dev/null
	"$prog" --format=markdown --threshold=100 "$f" 2>/dev/null |
	    cmp -s - "$tmp/md" ||
	    { echo "FAIL: $f: two runs differ"; fail=1; }
	# The row under the totals table's delimiter, as "EVENT VALUE".
	a=$(awk '/^\*\*Program totals\*\*/ { t = 1 } t && /^\|/ { r++ }
	    t && r == 1 { print; } t && r == 3 { print; exit }' "$tmp/md" |
	    sed 's/^| //; s/ |$//; s/ | /|/g; s/,//g; s/\\\(.\)/\1/g' |
	    awk -F'|' 'NR == 1 { for (i = 1; i <= NF; i++) e[i] = $i; next }
	    { for (i = 1; i <= NF; i++) print e[i], $i }')
	b=$("$prog" --totals "$f" 2>/dev/null)
	[ -n "$a" ] && [ "$a" = "$b" ] ||
	    { echo "FAIL: $f: Markdown totals '$a', --totals '$b'"; fail=1; }
	check_tables "$f"
	# The difference against a fixed profile, where the events agree.
	if "$prog" --format=markdown --diff --threshold=100 \
	    --fail-above=Ir:1:. profiles/cg-default.out "$f" \
	    >"$tmp/md" 2>/dev/null || [ $? -eq 3 ]; then
		check_tables "--diff $f"
	fi
done
[ $n -gt 10 ] || { echo "FAIL: only $n profiles"; fail=1; }
[ $fail -eq 0 ] || exit 1
echo "markdown: ok ($n profiles)"

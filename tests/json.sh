#!/bin/sh
# json.sh - --format=json output is valid JSON (checked by jq), counts are
# integers, and its totals equal the text report's on every test profile.
#
# usage: json.sh PROGRAM TESTDATA
set -u

prog=$1 td=$2
. "$(dirname "$0")/needs.sh"
needs jq jq
cd "$td" || exit 2
fail=0
for f in golden/json-*.out golden/*-json.out; do
	jq -e '.schema == "cg-annotate/1"' "$f" >/dev/null ||
	    { echo "FAIL: $f is not a cg-annotate/1 document"; fail=1; }
done
# A derived event: last among the events, with its formula, counted
# everywhere; groups and folding say so.
jq -e '.events[-1] == {"name": "CEst", "long_name": "Cycle Estimation",
    "formula": "Ir + 10 Bm + 10 L1m + 20 Ge + 100 L2m + 100 LLm"} and
    .totals.CEst == 525611 and .shown == ["CEst"] and
    ([.functions[].self.CEst] | length > 0 and all(. >= 0))' \
    golden/cest-json.out >/dev/null ||
    { echo "FAIL: CEst in cest-json"; fail=1; }
jq -e '.rows == "files" and .fold == "none" and
    ([.functions[] | .label == .file and .label == .name] | all)' \
    golden/group-json.out >/dev/null ||
    { echo "FAIL: file rows in group-json"; fail=1; }
jq -e '.fold == "all" and ([.functions[].name | test("'"'"'")] | any | not)' \
    golden/fold-json.out >/dev/null ||
    { echo "FAIL: names left unfolded in fold-json"; fail=1; }
# Machine code: instructions by address, each function's costs adding
# up to its self cost, calls and jumps as the profile gives them.
jq -e '.machine_code.instructions_recorded and .machine_code.jumps_recorded
    and (.machine_code.functions | length >= 3) and
    ([.machine_code.functions[] | (.asm | map(.cost.Ir // 0) | add) ==
    .self.Ir] | all) and
    ([.machine_code.functions[] | [.asm[].address |
    ltrimstr("0x") | explode | reduce .[] as $c (0; . * 16 +
    (if $c >= 97 then $c - 87 else $c - 48 end))] | . == sort] | all) and
    ([.machine_code.functions[].asm[].jumps[] |
    select(.conditional) | .taken <= .executed] | all) and
    ([.machine_code.functions[] | select(.name == "work") | .asm[] |
    select(.calls | length > 0) | .calls[].callee] |
    index("asm/src/loop.c:classify") != null)' \
    golden/asm-json.out >/dev/null ||
    { echo "FAIL: machine code in asm-json"; fail=1; }
# Every count anywhere is an integer or null, never a float.
for f in golden/json-*.out golden/*-json.out; do
	jq -e '[.. | numbers | select(. != floor)] | length == 0' "$f" \
	    >/dev/null || { echo "FAIL: $f has a float"; fail=1; }
done
# Hostile names survive: invalid UTF-8 as U+FFFD, escapes as \u001b.
jq -e '[.functions[].name] | index("bad\ufffd\ufffdutf8") != null' \
    golden/json-hostile.out >/dev/null ||
    { echo "FAIL: invalid UTF-8 not replaced"; fail=1; }
jq -e '[.functions[].name] | index("esc\u001b[31mred") != null' \
    golden/json-hostile.out >/dev/null ||
    { echo "FAIL: ESC not kept as \\u001b"; fail=1; }
# The totals, as JSON and as text, on every test profile.
for f in profiles/*.out profiles/*.gz profiles/*.zst; do
	[ -f "$f" ] || continue
	a=$("$prog" --format=json --auto=no "$f" 2>/dev/null |
	    jq -r '.totals | to_entries[] | "\(.key) \(.value // ".")"')
	b=$("$prog" --totals "$f" 2>/dev/null)
	[ -n "$a" ] && [ "$a" = "$b" ] ||
	    { echo "FAIL: $f: JSON totals '$a', text '$b'"; fail=1; }
done
# Every cycle a printed function belongs to is in "cycles".
for f in profiles/*.out edge/*.out; do
	for o in "" "--inclusive=yes"; do
		"$prog" --format=json --auto=no --threshold=100 $o "$f" \
		    2>/dev/null | jq -e '([.functions[].cycle |
		    select(. != null)] | unique) - [.cycles[].name] |
		    length == 0' >/dev/null ||
		    { echo "FAIL: $f $o: a cycle named but not listed"; fail=1; }
	done
done
[ $fail -eq 0 ] || exit 1
echo "json: ok"

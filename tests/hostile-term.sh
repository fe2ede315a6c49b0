#!/bin/sh
# hostile-term.sh - nothing of a profile's reaches a terminal raw: a
# profile that is its own source file, holding escape sequences that set
# the clipboard (OSC 52), the window title and colours, a C1 control
# (U+009B, CSI) and a bidi override (U+202E) in a source line, a name and
# objdump's text (a stub objdump), shown on a pseudo-terminal (script(1))
# in every format, in a UTF-8 locale and in the C locale, from a file and
# from standard input; and in the browser, driven through tmux, where
# the pane's title stays and no colour of the profile's is drawn
# (capture-pane -e).
#
# usage: hostile-term.sh PROGRAM TESTDATA
set -u

prog=$1 td=$2
. "$(dirname "$0")/needs.sh"
needs script bsdutils
needs tmux tmux
tmp=$(mktemp -d)
sock=cga-hostile-$$
trap 'tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 2
fail=0

esc=$(printf '\033') bel=$(printf '\007')
csi1=$(printf '\302\233') rlo=$(printf '\342\200\256')
evil="${esc}]52;c;UFdORUQ=${bel}${esc}]2;PWNTITLE${bel}${esc}[5;45mBLINK${esc}[0m ${csi1}5;45m ${rlo}gnp.exe"
# prof.out names itself as the source of main; stdin.out names
# /dev/stdin, which is the profile itself when it is read from there.
for f in prof.out stdin.out; do
	name=$f
	[ $f = stdin.out ] && name=/dev/stdin
	{
		echo "# callgrind format"
		echo "# $evil"
		echo "positions: instr line"
		echo "events: Ir"
		echo "ob=$td/asm/bin/loop"
		echo "fl=$name"
		echo "fn=main$evil"
		echo "0x1100 2 10"
		echo "cfn=callee$evil"
		echo "calls=1 0x1110 4"
		echo "0x1100 2 5"
		echo "fn=callee$evil"
		echo "0x1110 4 5"
	} >$f
done
cat >objdump <<EOF
#!/bin/sh
printf '%s\n' "0000000000001100 <main>:" "    1100:	call 1110 $evil" \
    "    1110:	ret $evil"
EOF
chmod +x objdump

# clean FILE LABEL: FILE holds no escape, BEL, C1 control or bidi override.
clean() {
	if grep -q "$esc\|$bel\|$csi1\|$rlo" "$1"; then
		echo "FAIL: $2: a control reached the terminal:"
		grep -a "$esc\|$bel\|$csi1\|$rlo" "$1" | od -c | head -5
		fail=1
	fi
}

# onterm LANG ARGS...: run the program on a pseudo-terminal.
onterm() {
	l=$1
	shift
	env LANG="$l" LC_ALL= script -qec "$*" /dev/null >tty.txt 2>&1 </dev/null
}

n=0
for l in C.UTF-8 C; do
	for args in "" "--format=json" "--format=markdown" "--format=dot" \
	    "--format=folded" "--format=svg" "--inclusive=yes --tree=both" \
	    "--asm=yes --objdump=./objdump" "--diff prof.out"; do
		onterm $l "'$prog' $args prof.out"
		clean tty.txt "LANG=$l $args"
		n=$((n + 1))
	done
	onterm $l "'$prog' - <stdin.out"
	clean tty.txt "LANG=$l - <stdin.out"
	grep -q 'PWNTITLE' tty.txt ||
	    { echo "FAIL: LANG=$l: /dev/stdin's lines not shown"; fail=1; }
	# The name as one argument, not as words of script(1)'s shell.
	printf '%s' "nosuch$evil.out" >name.txt
	onterm $l "'$prog' \"\$(cat name.txt)\""
	clean tty.txt "LANG=$l a message"
	grep -q 'nosuch\\033\]52;c;.*: error: cannot open' tty.txt ||
	    { echo "FAIL: LANG=$l: the message is not shown"; fail=1; }
done
# What is shown, and how.
onterm C.UTF-8 "'$prog' prof.out"
grep -q '# \\033\]52;c;UFdORUQ=\\a\\033\]2;PWNTITLE\\a\\033\[5;45mBLINK' \
    tty.txt || { echo "FAIL: the source line is not shown escaped"; fail=1; }
grep -q '\\302\\2335;45m \\342\\200\\256gnp.exe' tty.txt ||
    { echo "FAIL: C1 and bidi controls are not shown escaped"; fail=1; }
# A pipe gets the bytes as they are.
"$prog" prof.out 2>/dev/null | grep -qF "# $evil" ||
    { echo "FAIL: a pipe does not get the source line as it is"; fail=1; }

# showing PATTERN [-F]: wait until the pane shows PATTERN (a fixed
# string with -F), at most 30 s; the pane is left in pane.txt.
showing() {
	i=0
	while [ $i -lt 300 ]; do
		sleep 0.1
		tmux -L "$sock" capture-pane -p >pane.txt 2>/dev/null
		grep -q ${2:-} -- "$1" pane.txt && return 0
		i=$((i + 1))
	done
}

# The browser: the source view and the machine code of main.
for keys in "s" "a"; do
	[ $keys = s ] && want='# \033]52;c' || want='call 1110 \033]52;c'

	# A server of its own: the last one may still be going away.
	sock=cga-hostile-$$-$keys
	tmux -L "$sock" -f /dev/null new-session -d -x 160 -y 30 \
	    "LANG=C.UTF-8 NO_COLOR=1 $prog --tui --asm=yes --objdump=./objdump \
	    prof.out; sleep 60" 2>/dev/null
	# The list first, then the key, then its view.
	showing ' functions [0-9]*/'
	tmux -L "$sock" send-keys "$keys" 2>/dev/null
	showing "$want" -F
	tmux -L "$sock" capture-pane -p -e >pane-e.txt 2>/dev/null
	title=$(tmux -L "$sock" display-message -p '#{pane_title}' 2>/dev/null)
	tmux -L "$sock" kill-server 2>/dev/null
	grep -qF "$want" pane.txt ||
	    { echo "FAIL: tui $keys: the escapes are not shown"; cat pane.txt;
	    fail=1; }
	grep -q "$esc\[[0-9;]*5;45m\|$esc\[[0-9;]*45m" pane-e.txt &&
	    { echo "FAIL: tui $keys: the profile's colour drawn"; fail=1; }
	case $title in *PWN*)
		echo "FAIL: tui $keys: the title was set"; fail=1 ;;
	esac
	n=$((n + 1))
done
[ $fail -eq 0 ] && echo "hostile-term: ok ($n runs)"
exit $fail

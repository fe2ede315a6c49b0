#!/bin/sh
# tui.sh - the terminal browser driven as a person drives it: in tmux,
# keys sent with send-keys, the screen read with capture-pane and
# compared with testdata/tui/NAME.screen (80x24 and 120x40: the list, a
# function, going there and back, source, machine code, search, another
# event, inclusive costs, help, a resize; machine code of a real
# program, bzip2); the terminal's settings the
# same after q and after SIGTERM; a clear error without a terminal.
#
# usage: tui.sh PROGRAM TESTDATA [--regen]
set -u

prog=$1 td=$2 regen=${3:-}
. "$(dirname "$0")/needs.sh"
needs tmux tmux
needs objdump binutils
cd "$td" || exit 2
tmp=$(mktemp -d)
sock=cga-tui-$$
# gone SOCK: end tmux server SOCK and remove its socket file.
gone() {
	tmux -L "$1" kill-server 2>/dev/null
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$1"
}
trap 'gone "$sock"; rm -rf "$tmp"' EXIT INT TERM
fail=0

# settle: wait until the screen stops changing (at most 30 s).
settle() {
	prev= i=0
	while [ $i -lt 300 ]; do
		sleep 0.1
		cur=$(tmux -L "$sock" capture-pane -p 2>/dev/null)
		if [ -n "$cur" ] && [ "$cur" = "$prev" ]; then
			return 0
		fi
		prev=$cur
		i=$((i + 1))
	done
}

# handled N: wait until the browser has handled N keys, as its log
# ($CGA_TUI_LOG: a line when ready, one a key) says (at most 60 s), then
# until the terminal shows it: no dependence on the machine's speed.
handled() {
	i=0
	while [ "$(cat "$tmp/log" 2>/dev/null | wc -l)" -lt "$1" ] &&
	    [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	settle
}

# screen NAME WxH "ARGS" KEYS...: open ARGS in a WxH terminal, send each
# KEYS argument (a tmux key; "type:TEXT" types TEXT into a prompt, which
# the Enter after it ends; "resize:WxH" resizes), compare the last
# screen with testdata/tui/NAME.screen.
screen() {
	name=$1 size=$2 args=$3
	shift 3
	# A server of its own: the last one may still be going away.
	sock=cga-tui-$$-$name
	rm -f "$tmp/log"
	tmux -L "$sock" -f /dev/null new-session -d -x "${size%x*}" \
	    -y "${size#*x}" "NO_COLOR=1 CGA_TUI_LOG=$tmp/log $prog --tui \
	    $args; sleep 60" 2>/dev/null
	n=1
	handled $n
	for k in "$@"; do
		case $k in
		resize:*)
			k=${k#resize:}
			tmux -L "$sock" resize-window -x "${k%x*}" \
			    -y "${k#*x}" 2>/dev/null
			n=$((n + 1))
			;;
		type:*)
			tmux -L "$sock" send-keys -l "${k#type:}" 2>/dev/null
			settle
			continue
			;;
		*)	tmux -L "$sock" send-keys "$k" 2>/dev/null
			# A key opening a prompt is handled with its Enter.
			case $k in /|t) continue ;; esac
			n=$((n + 1))
			;;
		esac
		handled $n
	done
	tmux -L "$sock" capture-pane -p >"$tmp/$name" 2>/dev/null
	gone "$sock"
	if [ "$regen" = "--regen" ]; then
		cp "$tmp/$name" "tui/$name.screen"
		return
	fi
	cmp -s "tui/$name.screen" "$tmp/$name" || {
		echo "FAIL: screen $name:"
		diff -u "tui/$name.screen" "$tmp/$name" | head -20
		fail=1
	}
}

p=profiles/cg-default.out
screen list-80x24 80x24 "$p"
screen list-120x40 120x40 "$p"
screen func 80x24 "$p" Down Down Enter
screen func-120x40 120x40 "$p" Down Down Enter
# A row of code inlined from a header opens its function, whole: self,
# inclusive, calls of all its rows, the rows listed.
screen func-inlined 80x24 "$p" Down Enter
screen callee 80x24 "$p" Down Down Enter Down Down Down Down Down Enter
screen back 80x24 "$p" Down Down Enter Down Down Down Down Down Enter Left
screen forward 80x24 "$p" Down Down Enter Down Down Down Down Down Enter \
    Left Right
screen source 80x24 "$p" s
screen source-next 80x24 "$p" s n n N
screen search 80x24 "$p" / type:fib Enter
screen search-next 80x24 "$p" / type:elf Enter n n N
screen inclusive 80x24 "$p" i
screen fold 80x24 "$p" f
screen threshold 80x24 "$p" t type:50 Enter
screen help 80x24 "$p" ?
screen resize 80x24 "$p" Down resize:100x30
# e: a menu of the events; Down and Enter sort by the next one.
screen event-menu 80x24 profiles/cg-cache.out e Down
screen event 80x24 profiles/cg-cache.out e Down Enter
screen event-cest 80x24 "--sort=CEst --show=CEst,Ir profiles/cg-cache.out"
# Folding with derived events and grouping: the profile made again by
# the browser's second thread, as the report makes it.
screen fold-derived 80x24 "--sort=CEst --show=CEst,Ir profiles/cg-ctx-recs.out" f f
screen fold-round 80x24 "$p" f f f f i
screen fold-group 80x24 "--group=file profiles/cg-ctx-recs.out" f f f
screen asm 80x24 "--asm=yes --function=^asm/ asm/loop-jumps.out" Down a
# Folded, the machine code is made for the function opened from the
# browser's own profile (no folding keeps a copy of all of it): the same
# rows as unfolded, this profile having no contexts to fold.
screen asm-fold 80x24 "--asm=yes --function=^asm/ asm/loop-jumps.out" \
    f f f Down a
tail -n +2 "$tmp/asm-fold" >"$tmp/asm-fold.rows"
tail -n +2 tui/asm.screen | cmp -s - "$tmp/asm-fold.rows" || {
	echo "FAIL: machine code folded differs from unfolded"
	diff -u tui/asm.screen "$tmp/asm-fold" | head -20
	fail=1
}

# With --asm=yes, machine code is made for the function whose view is
# opened, never for the selections that sort, fold or set inclusive
# costs (each used to disassemble every listed function): the objdump
# the browser runs notes each run.
printf '#!/bin/sh\necho run >>"%s"\nexec objdump "$@"\n' "$tmp/odruns" \
    >"$tmp/od"
chmod +x "$tmp/od"
sock=cga-tui-$$-odruns
rm -f "$tmp/log" "$tmp/odruns"
tmux -L "$sock" -f /dev/null new-session -d -x 80 -y 24 "NO_COLOR=1 \
    CGA_TUI_LOG=$tmp/log $prog --tui --asm=yes --objdump=$tmp/od \
    --function=^asm/ asm/loop-jumps.out; sleep 60" 2>/dev/null
n=1
handled $n
for k in i f e Down Enter f Down; do
	tmux -L "$sock" send-keys "$k" 2>/dev/null
	n=$((n + 1))
	handled $n
done
before=$(cat "$tmp/odruns" 2>/dev/null | wc -l)
tmux -L "$sock" send-keys a 2>/dev/null
handled $((n + 1))
after=$(cat "$tmp/odruns" 2>/dev/null | wc -l)
gone "$sock"
if [ "$before" -ne 0 ] || [ "$after" -ne 1 ]; then
	echo "FAIL: objdump ran $before times for i f e Down Enter f Down, $after" \
	    "after a (want 0 and 1)"
	fail=1
fi
screen asm-none 80x24 "$p" a
# A real program's machine code: bzip2 built from Debian's source with
# -g (binary and sources in testdata/real), its hottest function, then
# another after going round inclusive costs and foldings.
# A real program with 13 events at 80 and 120 columns: names first and
# in view, as many event columns as fit, the title line; the source at
# its hottest line, in the middle of the screen.
c=real/bzip2-cache.out.gz
screen real-list 80x24 "$c"
screen real-list-120x40 120x40 "$c"
screen real-source 80x24 "$c" s
r="--asm=yes real/bzip2.out.gz"
screen real-asm 80x24 "$r" a
screen real-asm-round 80x24 "$r" a Left Down a Left i f f Down Enter a

# The terminal's settings are those before, after q and after SIGTERM.
for how in q TERM; do
	sock=cga-tui-$$-$how
	rm -f "$tmp/log"
	tmux -L "$sock" -f /dev/null new-session -d -x 80 -y 24 \
	    "stty -g >$tmp/before; sh -c 'echo \$\$ >$tmp/pid; \
	    CGA_TUI_LOG=$tmp/log exec $prog --tui $p'; echo \$? >$tmp/rc; \
	    stty -g >$tmp/after; sleep 60" 2>/dev/null
	handled 1
	if [ $how = q ]; then
		tmux -L "$sock" send-keys Down Enter q q 2>/dev/null
	else
		kill -TERM "$(cat "$tmp/pid")"
	fi
	i=0
	while [ ! -s "$tmp/after" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	gone "$sock"
	cmp -s "$tmp/before" "$tmp/after" ||
	    { echo "FAIL: terminal settings changed after $how"; fail=1; }
	want=0
	[ $how = TERM ] && want=143
	[ "$(cat "$tmp/rc" 2>/dev/null)" = $want ] ||
	    { echo "FAIL: exit $(cat "$tmp/rc" 2>/dev/null) after $how, not $want"; fail=1; }
	rm -f "$tmp/before" "$tmp/after" "$tmp/rc"
done

# Without a terminal: a clear error, exit 2.
"$prog" --tui "$p" </dev/null >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "needs a terminal" "$tmp/err" ||
    { echo "FAIL: --tui without a terminal: exit $rc, '$(cat "$tmp/err")'"; fail=1; }
[ $fail -eq 0 ] && echo "tui: ok"
exit $fail

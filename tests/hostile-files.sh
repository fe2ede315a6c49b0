#!/bin/sh
# hostile-files.sh - what a profile names on disk cannot make --asm or
# the annotation take memory or time out of proportion: a function whose
# instructions span 96 MB of an object is not disassembled (a note says
# why), in 1 GB of address space; an objdump that never ends is stopped
# after $CGA_OBJDUMP_TIMEOUT seconds and said so; files of the kernel
# (/proc, /sys, a cgroup's when one is mounted) are never read as
# sources.
#
# usage: hostile-files.sh PROGRAM TESTDATA
set -u

prog=$1 td=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
. "$(dirname "$0")/limit.sh"
cd "$tmp" || exit 2
fail=0

# A function from 0x1000 to 0x6001000 of a small object.
cat >span.out <<EOF
positions: instr line
events: Ir
ob=$td/asm/bin/loop
fl=x.c
fn=big
0x1000 1 5
0x6001000 2 5
fn=small
0x1139 3 7
EOF
limited 1024 "$prog" --asm=yes --auto=no span.out >out 2>err ||
    { echo "FAIL: span: exit $?"; cat err; fail=1; }
grep -q "^(machine code not read: the profile's instructions of this function span 100,663,297 bytes, above the limit of 1,048,576)$" out ||
    { echo "FAIL: span: no note"; fail=1; }
[ "$(grep -c '(not read)$' out)" -eq 2 ] ||
    { echo "FAIL: span: its instructions not listed as not read"; fail=1; }
"$prog" --asm=yes --auto=no --format=json span.out 2>/dev/null |
    grep -q '"not_read": "span above the limit"' ||
    { echo "FAIL: span: not said in JSON"; fail=1; }

# An objdump that never ends, and what it starts.
printf '#!/bin/sh\nsleep 100000 &\necho $! >%s/pid\nwait\n' "$tmp" >objdump
chmod +x objdump
CGA_OBJDUMP_TIMEOUT=1 "$prog" --asm=yes --auto=no --objdump="$tmp/objdump" \
    span.out >out 2>err || { echo "FAIL: timeout: exit $?"; fail=1; }
grep -q "^  .*/asm/bin/loop: not disassembled: $tmp/objdump took more than 1 s, stopped$" \
    out || { echo "FAIL: timeout: not said:"; tail -3 out; fail=1; }
# Gone at once or nearly: SIGKILL to its group (at most 10 s).
i=0
while [ -s pid ] && kill -0 "$(cat pid)" 2>/dev/null && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
if [ -s pid ] && kill -0 "$(cat pid)" 2>/dev/null; then
	echo "FAIL: timeout: what objdump started goes on"
	kill "$(cat pid)"
	fail=1
fi

# Files of the kernel, named as sources.
{
	echo "events: Ir"
	for f in /proc/self/status /sys/kernel/mm/transparent_hugepage/enabled \
	    /sys/fs/cgroup/cgroup.procs /sys/fs/cgroup/cpu/cgroup.procs; do
		[ -e "$f" ] || continue
		echo "fl=$f"
		echo "fn=f$f"
		echo "1 10"
	done
} >kernel.out
n=$(grep -c '^fl=' kernel.out)
"$prog" kernel.out >out 2>err || { echo "FAIL: kernel: exit $?"; fail=1; }
[ "$(grep -c 'not a regular file, not annotated' err)" -eq "$n" ] ||
    { echo "FAIL: kernel: $n files, not all refused:"; cat err; fail=1; }
[ $fail -eq 0 ] && echo "hostile-files: ok ($n kernel files)"
exit $fail

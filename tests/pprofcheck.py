#!/usr/bin/env python3
# pprofcheck.py - check a --format=pprof export with Go's pprof against
# cg-annotate's own JSON report of the same profile:
#   -raw:    one sample type per event shown, in order; every event's
#            samples add up to the sum of its self costs;
#   -traces: the stacks of the default event add up to that sum;
#   -top:    each function's flat value equals its self cost, for every
#            event (summed by name, as pprof shows functions);
#   -list:   each ROUTINE (a function in one file) has the self cost of
#            that file:function row, and where the source is found each
#            line's flat value equals the source line's cost (summed over
#            the functions, as the annotation prints it), first event.
#
# With --disasm, instead: pprof -disasm=NAME gives every instruction of
# function NAME, one that calls nothing, the cost that cg-annotate
# --asm=yes prints for it (ASM, its text report).  With -show=^NAME$:
# Debian's pprof (2021) takes an object's load address from whichever
# node of the graph it meets first (a map's order), which must be one of
# that object's.
# With --no-lines, -list checks routines, not lines (a profile that gives
# one address two lines: the machine code model keeps one).
#
# usage: pprofcheck.py [--no-lines] PPROF EXPORT REPORT.json
#        pprofcheck.py --disasm PPROF EXPORT ASM NAME
import collections
import json
import posixpath
import re
import subprocess
import sys

def disasm(pprof, export, asm, regex):
    want = {}
    mine = False
    for ln in open(asm, errors="replace"):
        h = re.match(r"^-- Machine code: .*:(.*?)(?: \[.*\])?$", ln)
        if h:
            mine = h.group(1) == regex
            continue
        m = mine and re.match(r"^\s*([\d,]+) \(\s*[\d.]+%\)\s+0x([0-9a-f]+)\s", ln)
        if m:
            want[int(m.group(2), 16)] = int(m.group(1).replace(",", ""))
    # (Debian's pprof finds no symbol for an anchored -disasm.)
    r = subprocess.run([pprof, "-disasm=" + regex, "-show=^%s$" % regex,
                        export], capture_output=True, text=True)
    got = {}
    for ln in r.stdout.split("\n"):
        m = re.match(r"^\s*(\S+)\s+(\S+)\s+([0-9a-f]+):\s", ln)
        if m and m.group(1) != ".":
            got[int(m.group(3), 16)] = int(m.group(1))
    if not got:
        sys.exit("FAIL: pprof -disasm=%s: no costs (%s)" %
                 (regex, r.stderr.strip()[:300]))
    bad = [a for a in got if want.get(a) != got[a]]
    if bad:
        sys.exit("FAIL: pprof -disasm=%s: 0x%x: %d, --asm %s" %
                 (regex, bad[0], got[bad[0]], want.get(bad[0])))
    print("ok: -disasm=%s: %d instructions" % (regex, len(got)))
    sys.exit(0)


if sys.argv[1] == "--disasm":
    disasm(*sys.argv[2:6])
nolines = sys.argv[1] == "--no-lines"
if nolines:
    del sys.argv[1]
pprof, export, report = sys.argv[1:4]
rep = json.load(open(report))
events = rep["shown"]
fails = []


def run(*args):
    r = subprocess.run([pprof] + list(args) + [export], capture_output=True,
                       text=True, errors="replace")
    if r.returncode != 0:
        sys.exit("pprof %s: exit %d: %s" % (" ".join(args), r.returncode,
                                            r.stderr.strip()[:500]))
    return r.stdout


MARK = "cgacheckmark"


def session(cmds):
    # One pprof reads the export once and runs each list of interactive
    # commands in cmds; returns each list's output (its stdout and
    # stderr, in order), split at a command pprof does not know.
    script = MARK + "\n" + "".join(
        "".join(c + "\n" for c in cmd) + MARK + "\n" for cmd in cmds)
    r = subprocess.run([pprof, export], input=script + "quit\n",
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, errors="replace")
    outs = r.stdout.split('unrecognized command: "%s"\n' % MARK)
    if r.returncode != 0 or len(outs) != len(cmds) + 2:
        sys.exit("pprof: exit %d, %d outputs of %d: %s" %
                 (r.returncode, len(outs) - 2, len(cmds),
                  r.stdout.strip()[-500:]))
    return outs[1:-1]


def unitcmd(k):
    # Values in the event's own unit: a number and the unit's name.
    return "unit=" + ("minimum" if units[k] == "count" else units[k])


def clean(path):
    # pprof shows paths cleaned, as Go's filepath.Clean makes them.
    return posixpath.normpath(path) if path else path


def fail(what):
    if len(fails) < 20:
        print("FAIL: %s: %s" % (export, what))
    fails.append(what)


# Counts above 2^63 - 1 do not fit pprof's values (the export says so).
if any((f["self"].get(ev) or 0) >= 2**63 for f in rep["functions"]
       for ev in events):
    print("skipped: counts above 2^63 - 1")
    sys.exit(0)

# -raw: sample types and sums of every event.
raw = run("-raw")
lines = raw.split("\n")
i = lines.index("Samples:")
types = [t.split("/")[0] for t in lines[i + 1].split()]
units = [t.split("/")[1].split("[")[0] for t in lines[i + 1].split()]
if types != events:
    fail("sample types %s, not %s" % (types, events))
sums = [0] * len(types)
for ln in lines[i + 2:]:
    m = re.match(r"^\s+((?:-?\d+\s+)*-?\d+):", ln)
    if not m:
        if ln.startswith("Locations"):
            break
        continue
    for k, v in enumerate(m.group(1).split()):
        sums[k] += int(v)
# The events' self costs (a summary: line may say otherwise).
totals = {ev: sum(f["self"].get(ev) or 0 for f in rep["functions"])
          for ev in events}
for k, ev in enumerate(events):
    if sums[k] != totals[ev]:
        fail("-raw: %s adds up to %d, not %d" % (ev, sums[k], totals[ev]))

# The other reports from one pprof: -traces (the default event), -list
# (the first) and -top (every event, every node).
dflt = rep["sort"][0]
d = events.index(dflt) if dflt in events else 0
outs = session([[unitcmd(d), "traces"],
                ["sample_index=0", unitcmd(0), "list ."]] +
               [["nodecount=0", "nodefraction=0", "edgefraction=0",
                 "sample_index=%d" % k, unitcmd(k), "top"]
                for k in range(len(events))])

# -traces: the default event's stacks add up to its total.
s = 0
for blk in outs[0].split("-----------+")[1:]:
    for ln in blk.split("\n")[1:]:
        m = re.match(r"^\s*(-?\d+)\S*\s+\S", ln)
        if m:
            s += int(m.group(1))
            break
# (pprof -traces prints values through a double: 53 bits exact.)
if s != totals[events[d]] and not (totals[events[d]] >= 2**53 and
                                   abs(s - totals[events[d]]) <
                                   totals[events[d]] / 2**50):
    fail("-traces: %s stacks add up to %d, not %d" % (dflt, s, totals[dflt]))

# -top: flat per function name, every event.
want = [collections.Counter() for _ in events]
row = collections.Counter()
for f in rep["functions"]:
    for k, ev in enumerate(events):
        # pprof shows a function with no name as <unknown>.
        want[k][f["name"] or "<unknown>"] += f["self"].get(ev) or 0
    row[(f["name"], clean(f["file"]))] += f["self"].get(events[0]) or 0
for k, ev in enumerate(events):
    got = collections.Counter()
    body = outs[2 + k].split("cum%\n", 1)
    if len(body) != 2:
        if sums[k] != 0:
            fail("-top %s: no table" % ev)
        continue
    for ln in body[1].split("\n"):
        parts = ln.split(None, 5)
        if len(parts) == 6:
            got[parts[5]] += int(re.match(r"-?\d+", parts[0]).group(0))
    for name in set(got) | set(n for n in want[k] if want[k][n]):
        if got[name] != want[k][name]:
            fail("-top %s: %s flat %d, self %d" %
                 (ev, name, got[name], want[k][name]))

# -list: each routine's flat, and lines where the source is found.
files = {}
for f in rep.get("files") or []:
    files[clean(f["name"])] = {
        ln["line"]: ln["self"].get(events[0]) or 0 for ln in f["lines"]}
out = outs[1]
# No function has a source file: nothing to list.
if out.startswith("no matches found for regexp: .\n"):
    out = ""
elif out and not out.startswith("Total: "):
    fail("-list: %s" % out.strip()[:300])
perline = collections.Counter()
shown = set()
cur = None
for ln in out.split("\n"):
    m = re.match(r"^ROUTINE =+ (.*) in (.*)$", ln)
    if m:
        cur = (m.group(1), m.group(2))
        continue
    m = re.match(r"^\s*(\S+)\s+(\S+) \(flat, cum\)", ln)
    if m and cur:
        flat = 0 if m.group(1) == "." else \
            int(re.match(r"-?\d+", m.group(1)).group(0))
        if flat != row[cur]:
            fail("-list: %s in %s: flat %d, self %d" %
                 (cur[0], cur[1], flat, row[cur]))
        continue
    m = re.match(r"^\s*(\S+)\s+(\S+)\s+(\d+):", ln)
    if m and cur:
        shown.add((cur[1], int(m.group(3))))
        if m.group(1) != ".":
            perline[(cur[1], int(m.group(3)))] += \
                int(re.match(r"-?\d+", m.group(1)).group(0))
# Lines pprof lists (those of its source file near the costs).
nlines = 0
for path, line in shown:
    if not nolines and path in files and line in files[path]:
        cost = files[path][line]
        nlines += 1
        if perline[(path, line)] != cost:
            fail("-list: %s:%d flat %d, annotation %d" %
                 (path, line, perline[(path, line)], cost))
if fails:
    sys.exit(1)
print("ok: %d events, %d functions, %d lines listed" %
      (len(events), len(want[0]), nlines))

#!/usr/bin/env python3
"""cycles.py - check the inclusive cost cg-annotate gives each member of a
cycle against the call lines of the profile itself, read here on their
own: a member's inclusive (first event) must be the larger of its gprof
share (its self cost and the calls it makes that leave the cycle) and
the sum of the calls it receives from outside the cycle.

usage: cycles.py PROFILE JSON   (JSON: --format=json --inclusive=yes
                                 --threshold=100 of PROFILE)
Functions are matched by file and name, as the rows are.
Prints how many members it checked; exits 1 on a difference.
"""
import gzip
import json
import sys


def names_of(space, value, table):
    """The name a (compressed) name field stands for."""
    value = value.strip()
    if value.startswith("("):
        close = value.index(")")
        key = value[1:close]
        rest = value[close + 1:].strip()
        if rest:
            table[space][key] = rest
        return table[space][key]
    return value


def calls_of(path):
    """The (caller, callee, inclusive first event) of every call line,
    each function as (object, file, name), the caller's file that of
    the code making the call."""
    opener = gzip.open if path.endswith(".gz") else open
    table = {"fn": {}, "fl": {}, "ob": {}}
    npos = 1
    calls = []
    ob = fl = fi = fn = cob = cfi = cfn = None
    pending = False
    with opener(path, "rt", encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            key, _, value = line.partition("=")
            if line.startswith("positions:"):
                npos = len(line.split(":", 1)[1].split())
            elif key == "fn":
                fn = names_of("fn", value, table)
                fi = fl
            elif key == "cfn":
                cfn = names_of("fn", value, table)
            elif key == "jfn":
                names_of("fn", value, table)
            elif key == "fl":
                fl = fi = names_of("fl", value, table)
            elif key in ("fi", "fe"):
                fi = names_of("fl", value, table)
            elif key in ("cfi", "cfl"):
                cfi = names_of("fl", value, table)
            elif key == "jfi":
                names_of("fl", value, table)
            elif key == "ob":
                ob = names_of("ob", value, table)
            elif key == "cob":
                cob = names_of("ob", value, table)
            elif key == "calls":
                pending = True
            elif pending and line[:1] in "0123456789+-*":
                fields = line.split()
                cost = int(fields[npos], 0) if len(fields) > npos else 0
                calls.append(((ob, fi, fn),
                              (cob or ob, cfi or fi, cfn), cost))
                pending = False
                cob = cfi = None
    return calls


def main():
    calls = calls_of(sys.argv[1])
    with open(sys.argv[2], encoding="utf-8") as f:
        report = json.load(f)
    event = report["events"][0]["name"]
    # A row is a file:function, over objects (as callgrind_annotate's).
    rows = {(r["file"], r["name"]): r for r in report["functions"]}
    cycle = {k: r["cycle"] for k, r in rows.items()}
    into = {}
    out = {}
    for a, b, c in calls:
        a, b = a[1:], b[1:]
        if a == b:
            continue
        if cycle.get(b) is not None and cycle.get(a) != cycle[b]:
            into[b] = into.get(b, 0) + c
        if cycle.get(a) is not None and cycle.get(b) != cycle[a]:
            out[a] = out.get(a, 0) + c
    checked = bad = 0
    for k, r in sorted(rows.items()):
        if r["cycle"] is None:
            continue
        share = r["self"][event] + out.get(k, 0)
        want = max(share, into.get(k, 0))
        got = r["inclusive"][event]
        if got != want:
            print("cycles.py: %s in %s: inclusive %d, want %d (share %d,"
                  " calls from outside %d)" % (":".join(k),
                                               r["cycle"], got, want,
                                               share, into.get(k, 0)))
            bad += 1
        checked += 1
    print("cycles.py: %d members checked, %d entered from outside above"
          " their share" % (checked, sum(1 for k, r in rows.items()
                                         if r["cycle"] is not None and
                                         into.get(k, 0) >
                                         r["self"][event] + out.get(k, 0))))
    sys.exit(1 if bad or checked == 0 else 0)


main()

#!/usr/bin/env python3
# rtcmp.py - compare two cg-annotate reports, A of a profile and B of its
# --format=callgrind export read back, byte for byte; where the profile
# had several parts (summed into one by the export) the list of parts
# is left out of both first: the "Parts:" block of the text header, the
# "parts" of JSON.  With --multiset, compare the lines of two reports
# as multisets, the second line (the profile's name) left out:
# callgrind_annotate prints annotated files and equal rows in its hash
# order, which changes from run to run.
#
# usage: rtcmp.py [--multiset] A B
import json
import sys

multiset = sys.argv[1] == "--multiset"
if multiset:
    del sys.argv[1]
a, b = (open(f, "rb").read().decode("utf-8", "replace") for f in sys.argv[1:3])


def nparts(text):
    if text.lstrip().startswith("{"):
        return len(json.loads(text).get("parts") or [])
    return 2 if "\nParts:" in text else 1


def drop_parts(text):
    if text.lstrip().startswith("{"):
        d = json.loads(text)
        d.pop("parts", None)
        return json.dumps(d, indent=1)
    out, skip = [], False
    for ln in text.split("\n"):
        if ln.startswith("Parts:"):
            skip = True
            continue
        if skip and ln.startswith("   "):
            continue
        skip = False
        out.append(ln)
    return "\n".join(out)


if multiset:
    a = sorted(a.split("\n")[2:] + a.split("\n")[:1])
    b = sorted(b.split("\n")[2:] + b.split("\n")[:1])
else:
    if nparts(a) > 1:
        a, b = drop_parts(a), drop_parts(b)
    a, b = a.split("\n"), b.split("\n")
if a != b:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            print("line %d:\n< %s\n> %s" % (i + 1, x[:200], y[:200]))
            break
    else:
        print("lengths %d and %d" % (len(a), len(b)))
    sys.exit(1)

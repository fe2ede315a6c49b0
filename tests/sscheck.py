#!/usr/bin/env python3
"""sscheck.py - check a --format=speedscope export: valid against
speedscope's schema, one sampled profile per event shown, every stack's
frames among the shared ones, the weights adding up to each profile's
endValue, and each profile's total equal to the event's folded stacks.

usage: sscheck.py SCHEMA EXPORT [EVENT=FOLDED...]
(FOLDED: the event's --format=folded output.)  Sums are the views' own,
modulo 2^64, as hostile profiles' overflow.
"""
import json
import sys

import jsonschema


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    with open(sys.argv[2], encoding="utf-8") as f:
        data = json.load(f)
    jsonschema.validate(data, schema)
    nframes = len(data["shared"]["frames"])
    want = {}
    for arg in sys.argv[3:]:
        event, path = arg.split("=", 1)
        with open(path, encoding="utf-8", errors="replace") as f:
            want[event] = sum(int(line.rsplit(" ", 1)[1]) for line in f
                              if line.strip()) % 2**64
    bad = 0
    for p in data["profiles"]:
        if p["type"] != "sampled" or len(p["samples"]) != len(p["weights"]):
            print("sscheck.py: %s: not sampled, or samples and weights"
                  " differ" % p["name"])
            bad += 1
        if any(i < 0 or i >= nframes for s in p["samples"] for i in s):
            print("sscheck.py: %s: a frame out of range" % p["name"])
            bad += 1
        if sum(p["weights"]) % 2**64 != p["endValue"]:
            print("sscheck.py: %s: weights add up to %d, not %d"
                  % (p["name"], sum(p["weights"]), p["endValue"]))
            bad += 1
        event = p["name"].split(" ")[0]
        if event in want and want[event] != p["endValue"]:
            print("sscheck.py: %s: total %d, folded stacks %s"
                  % (p["name"], p["endValue"], want[event]))
            bad += 1
    if len(data["profiles"]) < len(want):
        print("sscheck.py: %d profiles for %d events"
              % (len(data["profiles"]), len(want)))
        bad += 1
    sys.exit(1 if bad else 0)


main()

#!/bin/sh
# filetimes.sh - give the test data its fixed modification times, so
# that "source newer than profile" depends on nothing but
# edge/src/newer.c and asm/newer/loop, which are newer on purpose.  Every
# stamp is the same each time (tests run in parallel, and change nothing
# another reads).  tests/golden.sh and scripts/regen-golden both run it.
#
# usage: filetimes.sh TESTDATA
set -eu

cd "$1"
find src edge/src edge/relocated -type f ! -name newer.c \
    -exec touch -m -d @978307200 {} +
find profiles edge bad -maxdepth 1 -type f -name '*.out' \
    -exec touch -m -d @1009843200 {} +
touch -m -d @1893456000 edge/src/newer.c
# Objects older than their profiles, but asm/newer/loop.
find asm/src asm/bin -type f -exec touch -m -d @978307200 {} +
find asm -maxdepth 1 -type f -name '*.out' -exec touch -m -d @1009843200 {} +
touch -m -d @1893456000 asm/newer/loop

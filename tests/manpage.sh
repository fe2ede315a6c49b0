#!/bin/sh
# manpage.sh - the man page lints clean (mandoc -Tlint, warnings and up).
#
# usage: manpage.sh MANPAGE
set -u
. "$(dirname "$0")/needs.sh"
needs mandoc mandoc
exec mandoc -Tlint -Wwarning "$1"

#!/bin/sh
# modmap.sh - the module map of man/cg-annotate-internals.7 is true:
# every source file of src/ is named there (a header by its module's .c
# file, if it has one), and every .c or .h file it names under MODULES
# is in src/.
#
# usage: modmap.sh SRCDIR PAGE
set -u

src=$1 page=$2
fail=0
for f in $(cd "$src" && find . -name '*.[ch]' | sed 's|^\./||' | sort); do
	b=${f##*/}
	case $f in
	*.h) [ -f "$src/${f%.h}.c" ] && b=${b%.h}.c ;;
	esac
	if ! grep -q "^\.It Pa .*\<$b\>" "$page"; then
		echo "modmap: $f is not in the module map of ${page##*/}"
		fail=1
	fi
done
for b in $(sed -n '/^\.Sh MODULES/,/^\.Sh /p' "$page" |
    sed -n 's/^\.It Pa //p' | tr -d ',' | tr ' ' '\n' |
    grep '\.[ch]$' | sort -u); do
	if [ -z "$(find "$src" -name "$b")" ]; then
		echo "modmap: ${page##*/} names $b, which src/ does not hold"
		fail=1
	fi
done
[ $fail -eq 0 ] && echo "modmap: ok"
exit $fail

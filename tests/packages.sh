#!/bin/sh
# packages.sh - every package a test script names in a "needs COMMAND
# PACKAGE" line is one scripts/bootstrap installs, so that README's test
# command on a fresh machine installs what the tests run.
#
# usage: packages.sh TOP
set -u

top=$1
fail=0 n=0
# bootstrap's list, without running it: the words of its *_packages=
# assignments.
have=$(sed -n '/^[a-z]*_packages="/,/"$/p' "$top/scripts/bootstrap" |
    sed 's/^[a-z_]*="//; s/"$//')
[ -n "$have" ] || { echo "FAIL: no package list in scripts/bootstrap"; exit 1; }
for p in $(sed -n 's/^[ \t]*needs\(_py\)\{0,1\} [^ ]* \([^ ]*\).*/\2/p' "$top"/tests/*.sh |
    sort -u); do
	n=$((n + 1))
	case " $(echo $have) " in
	*" $p "*) ;;
	*) echo "FAIL: a test needs package $p, which scripts/bootstrap does" \
	    "not install"; fail=1 ;;
	esac
done
[ $n -gt 5 ] || { echo "FAIL: only $n packages named by needs lines"; fail=1; }
[ $fail -eq 0 ] && echo "packages: ok ($n packages)"
exit $fail

# needs.sh - sourced by the test scripts, which name the commands they run
# besides the shell's and coreutils' own.
#
# needs COMMAND PACKAGE: stop the test (exit 1) with
# "NAME: needs COMMAND (apt-get install PACKAGE)" when COMMAND is not on
# PATH, before anything runs that would fail for a reason it does not say.
# NAME is the test script's name.  scripts/bootstrap installs every
# PACKAGE named here.
needs() {
	command -v "$1" >/dev/null 2>&1 && return 0
	echo "${0##*/}: needs $1 (apt-get install $2)" >&2
	exit 1
}

# needs_py MODULE PACKAGE: the same for a module python3 imports.
needs_py() {
	python3 -c "import $1" >/dev/null 2>&1 && return 0
	echo "${0##*/}: needs python3's $1 (apt-get install $2)" >&2
	exit 1
}

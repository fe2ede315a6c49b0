#!/bin/sh
# layers.sh - check the layering of src/ (man/cg-annotate-internals.7):
#
#   layer 1  base/      utilities: allocation, messages, numbers, names
#   layer 2  model/     the cost model
#   layer 3  read/      bytes -> model: input, relay, parse (parse_*.c,
#                       parser.h), ahead, load, inputs
#   layer 4  analysis/  function totals, call graph, diff, limits
#   layer 5  select/    the rows every view prints
#   layer 6  view/      one file per output format, and what they share
#   layer 7  tui/       the terminal browser, above the views
#   layer 8  src/       the command: options.c, main.c
#
# A file may include headers of its own layer and of lower ones only,
# each named by its path under src/ ("model/profile.h": one include root).
# Within read/, each module may include only the ones before it in the
# order above (the parser never reaches up to what drives it).  A view
# (view/report_*.c, view/annotate.c) includes of view/ only the shared
# cells.h, header.h, json.h and report.h: views never use each other.
# No two modules include each other, directly or through others.
#
# usage: layers.sh SRCDIR
set -u

src=$1
cd "$src" || exit 2

# The layer of a file, by its folder ("" for a file outside src/).
layer_of() {
	case $1 in
	base/*) echo 1 ;;
	model/*) echo 2 ;;
	read/*) echo 3 ;;
	analysis/*) echo 4 ;;
	select/*) echo 5 ;;
	view/*) echo 6 ;;
	tui/*) echo 7 ;;
	*/*) echo "" ;;
	*) echo 8 ;;
	esac
}

# The rank of a read/ module in the reading order.
read_rank() {
	case $1 in
	input) echo 1 ;;
	relay) echo 2 ;;
	parse|parse_*|parser) echo 3 ;;
	ahead) echo 4 ;;
	load) echo 5 ;;
	inputs) echo 6 ;;
	*) echo 0 ;;
	esac
}

fail=0
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT INT TERM

for f in $(find . -name '*.[ch]' | sed 's|^\./||' | sort); do
	fl=$(layer_of "$f")
	if [ -z "$fl" ]; then
		echo "layers: $f: in no layer (a folder the rule does not name)"
		fail=1
		continue
	fi
	fmod=${f##*/}
	fmod=${fmod%.*}
	for h in $(sed -n 's/^#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$f"); do
		# version.h is generated into the build folder: base;
		# view/pprof.pb-c.h (protoc-c, from view/pprof.proto) too,
		# in its view's layer.
		if [ "$h" = version.h ] || { [ "$h" = view/pprof.pb-c.h ] &&
		    [ -f view/pprof.proto ]; }; then
			continue
		fi
		# One include root: the line names the header's folder.
		hp=$h
		if [ ! -f "$hp" ]; then
			echo "layers: $f: includes \"$h\", not a path under src/"
			fail=1
			continue
		fi
		hl=$(layer_of "$hp")
		hmod=${h##*/}
		hmod=${hmod%.h}
		if [ "$hl" -gt "$fl" ]; then
			echo "layers: $f (layer $fl) includes $hp (layer $hl)," \
			    "a layer above it"
			fail=1
		fi
		if [ "$fl" -eq 3 ] && [ "$hl" -eq 3 ] &&
		    [ "$(read_rank "$hmod")" -gt "$(read_rank "$fmod")" ]; then
			echo "layers: $f includes $hp, which reads after it"
			fail=1
		fi
		case $f in
		view/report_*.c|view/annotate.c)
			case $hp in
			view/cells.h|view/header.h|view/json.h|view/report.h) ;;
			view/*)
				echo "layers: $f, a view, includes $hp"
				fail=1 ;;
			esac ;;
		esac
		[ "$hmod" != "$fmod" ] && echo "$fmod $hmod" >>"$edges"
	done
done

# An include cycle between modules is a loop for tsort(1).
if ! tsort "$edges" >/dev/null 2>"$edges.err"; then
	echo "layers: modules that include each other:"
	sed 's/^/    /' "$edges.err"
	fail=1
fi
rm -f "$edges.err"

if [ $fail -ne 0 ]; then
	echo "layers: FAIL"
	exit 1
fi
echo "layers: ok ($(sort -u "$edges" | wc -l) includes between modules)"

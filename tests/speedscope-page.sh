#!/bin/sh
# speedscope-page.sh - an export loaded in speedscope's own page (its npm
# package's, scripts/fetch-speedscope-schema) in headless Chromium, as a
# person opens it: the page names the profile by the first event, says
# the stacks are estimated and that it is 1 of 13, and draws the flame
# graph (a screenshot with the flame graph's colours, tests/pngcheck.py).
#
# usage: speedscope-page.sh PROGRAM TESTDATA PAGE
set -u

prog=$1 td=$2 page=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/needs.sh"
needs python3 python3
needs chromium chromium
[ -s "$page/index.html" ] || {
	echo "speedscope-page.sh: needs $page (scripts/fetch-speedscope-schema)" >&2
	exit 1
}
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
fail=0
cd "$td" || exit 2
"$prog" --format=speedscope real/bzip2-cache.out.gz >"$tmp/p.json" \
    2>/dev/null || { echo "FAIL: export"; exit 1; }
ln -s "$page" "$tmp/release"
# A web server on a free port of the loopback, for the page and the file.
python3 - "$tmp" >/dev/null 2>&1 <<'PY' &
import functools, http.server, os, sys
d = sys.argv[1]
h = functools.partial(http.server.SimpleHTTPRequestHandler, directory=d)
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), h)
with open(os.path.join(d, "port.tmp"), "w") as f:
    f.write(str(s.server_address[1]))
os.rename(os.path.join(d, "port.tmp"), os.path.join(d, "port"))
s.serve_forever()
PY
pid=$!
n=0
while [ ! -s "$tmp/port" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
port=$(cat "$tmp/port" 2>/dev/null) || { echo "FAIL: no web server"; exit 1; }
url="http://127.0.0.1:$port/release/index.html#profileURL=http://127.0.0.1:$port/p.json"
# WebGL in software (SwiftShader): no GPU here.
chrome() {
	timeout 120 chromium --headless=new --no-sandbox --no-first-run \
	    --user-data-dir="$tmp/chrome" --use-angle=swiftshader \
	    --enable-unsafe-swiftshader --virtual-time-budget=10000 \
	    --window-size=1000,700 "$@" "$url" 2>/dev/null
}
chrome --dump-dom >"$tmp/dom.html"
for want in '<title>real/bin/bzip2 -9 -c - speedscope</title>' \
    'Ir (stacks estimated from the call graph)' '(1/13)'; do
	grep -qF "$want" "$tmp/dom.html" ||
	    { echo "FAIL: the page does not show '$want'"; fail=1; }
done
chrome --screenshot="$tmp/shot.png" >/dev/null
set -- $(python3 "$here/pngcheck.py" "$tmp/shot.png" 2>/dev/null)
# speedscope's frames are drawn in shades of its palette: hundreds.
[ "${1:-0}" -eq 1000 ] && [ "${4:-0}" -gt 200 ] ||
    { echo "FAIL: screenshot ${1:-?}x${2:-?}, ${4:-?} colours"; fail=1; }
[ $fail -eq 0 ] && echo "speedscope-page: ok"
exit $fail

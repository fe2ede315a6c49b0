# limit.sh - sourced by the test scripts that bound a run's memory.
#
# limited MB PROGRAM ARGS...: run PROGRAM in MB megabytes: its address
# space (ulimit -v), or, for a build with AddressSanitizer, which
# reserves terabytes of address space, its resident size
# (hard_rss_limit_mb: the run is stopped when it grows past it).
limited() {
	_mb=$1
	shift
	if grep -q __asan_init "$1" 2>/dev/null; then
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}hard_rss_limit_mb=$_mb" \
		    "$@"
	else
		( ulimit -v $((_mb * 1024)); exec "$@" )
	fi
}

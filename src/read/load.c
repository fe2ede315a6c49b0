/*
 * load.c - reads one profile file into the model: opens it (input.c:
 * plain, gzip or zstd, or standard input) and drives the parser over
 * it, in two threads when the file is large enough (ahead.c; a
 * compressed one decompressed by a third, relay.c), else block by
 * block, read in a second thread (relay.c) when it is compressed or
 * not a file.  The parser itself never reads a file.
 */
#include "base/compat.h"

#include <sys/stat.h>

#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "base/strtab.h"
#include "base/xmalloc.h"
#include "read/ahead.h"
#include "read/input.h"
#include "read/load.h"
#include "read/parse.h"
#include "read/relay.h"

#define LOAD_BLOCK	(1024 * 1024)
#define LOAD_ROOM_MIN	(16 * 1024 * 1024)	/* smaller files: no room, */
#define LOAD_ROOM_MAX	(64 * 1024 * 1024)	/*   else half, up to this */
#define LOAD_PACKED	3	/* a compressed file holds this many times
				   its size, at least (gzip -1: 2.8, zstd
				   -3: 3.5, on the 13-event synthetic) */

static int	load_input(struct profile *, struct input *, const char *,
		    uint64_t, const struct parse_opts *);
static uint64_t	load_size(int);
static void	load_room(uint64_t, int);

/*
 * Read the profile in file path ("-" for standard input) into p.
 * Return 0, or -1 after the messages saying why.
 */
int
load_file(struct profile *p, const char *path, const struct parse_opts *o)
{
	struct input	*in;

	if ((in = input_open(path)) == NULL)
		return -1;
	return load_input(p, in, path, strcmp(path, "-") == 0 ? 0 :
	    load_size(input_fd(in)), o);
}

/*
 * Read the profile open on fd (a copy of a pipe, say), named name in
 * messages, into p; fd is closed.  Return as load_file().
 */
int
load_fd(struct profile *p, int fd, const char *name,
    const struct parse_opts *o)
{
	struct input	*in;

	if ((in = input_fdopen(fd, name)) == NULL)
		return -1;
	return load_input(p, in, name, load_size(fd), o);
}

/* Return the size of the regular file open on fd, else 0. */
static uint64_t
load_size(int fd)
{
	struct stat	st;

	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode))
		return 0;
	return (uint64_t)st.st_size;
}

/*
 * Before reading a file of size bytes, compressed or not, give malloc's
 * heap room on huge pages (xmalloc_room()) for half its text, up to
 * LOAD_ROOM_MAX (a compressed file's text reckoned as LOAD_PACKED times
 * its size: the 13-event synthetic in zstd, 85 MB, 1.60 -> 1.47 s with
 * the room that makes): the tables made while reading, a few of them
 * big and thousands small, are new memory, and where a page trap is
 * dear that was most of the time.  At one sitting, in turns (medians of
 * 3 to 5 runs): cc1 with instruction positions, 56 MB, 237 -> 157 ms,
 * peak 42.8 -> 47.9 MB; cc1plus with cache simulation, 140 MB, 559 ->
 * 361 ms, 84 -> 110 MB; the 13-event synthetic, 100 MB, 619 -> 502 ms,
 * 88 -> 107 MB; the large C++ program, 100 MB, 704 -> 572 ms, 119 -> 133
 * MB, and 300 MB, 1.97 -> 1.85 s, 306 -> 335 MB.  A smaller text is read
 * in two malloc arenas (ahead.c), the second thread's not in the heap,
 * and its peak is small beside the room (cc1 with cache simulation,
 * 13.6 MB: 11 MB).
 */
static void
load_room(uint64_t size, int compressed)
{
	if (compressed)
		size = size < UINT64_MAX / LOAD_PACKED ? size * LOAD_PACKED :
		    UINT64_MAX;
	if (size < LOAD_ROOM_MIN)
		return;
	xmalloc_room(size / 2 < LOAD_ROOM_MAX ? (size_t)(size / 2) :
	    LOAD_ROOM_MAX);
}

/*
 * Feed what in holds (size bytes of file, 0 if not known) to a new
 * parser of p, showing progress if the read is long; close in.
 */
static int
load_input(struct profile *p, struct input *in, const char *name,
    uint64_t size, const struct parse_opts *o)
{
	struct parser	*ps;
	struct relay	*r;
	struct strsrc	*names = NULL;
	const char	*buf;
	char		*block;
	uint64_t	 tell, text;
	ssize_t		 n;
	int		 fd, rc;

	load_room(size, input_compressed(in));
	ps = parser_create(p, name, o);
	/*
	 * A file read from its start (size: a regular file) holds the long
	 * names it is read for: they are left there, read back if printed
	 * (most are not), neither copied nor compressed.
	 */
	if (size > 0 && input_from_start(in) &&
	    (names = strtab_source(input_plain_fd(in), name)) != NULL)
		parser_names_in(ps, names);
	msg_progress_begin(name, size);
	/* The text's size, reckoned. */
	text = size < UINT64_MAX / LOAD_PACKED ? size * LOAD_PACKED :
	    UINT64_MAX;
	if ((fd = input_plain_fd(in)) == -1 &&
	    (n = ahead_stream(ps, in, name, text, o)) != 1) {
		/* Decompressed or piped in chunks, read in two threads. */
		if (n < 0)
			input_report(in);
	} else if (fd == -1 && (r = relay_start(in, LOAD_BLOCK)) != NULL) {
		/* Decompressing or piping while the parser reads. */
		while ((n = relay_next(r, &buf, &tell)) > 0) {
			if (parser_feed(ps, buf, (size_t)n) == -1)
				break;
			msg_progress(tell);
		}
		relay_stop(r);
		if (n < 0)
			input_report(in);
	} else if (fd == -1 || (n = ahead_read(ps, fd, name, o)) == 1) {
		block = xmalloc(LOAD_BLOCK);
		while ((n = input_read(in, block, LOAD_BLOCK)) > 0) {
			if (parser_feed(ps, block, (size_t)n) == -1)
				break;
			msg_progress(input_tell(in));
		}
		free(block);
	}
	msg_progress_end();
	input_close(in);
	/* A read error was reported; what was read is not checked further. */
	if (n < 0)
		parser_fail(ps);
	rc = parser_finish(ps);
	strtab_source_drop(names);
	return rc;
}

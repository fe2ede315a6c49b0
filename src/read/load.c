/*
 * load.c - reads one profile file into the model: opens it (input.c:
 * plain, gzip or zstd, or standard input) and drives the parser over
 * it, in two threads when the file is large enough (ahead.c), else
 * block by block.  The parser itself never reads a file.
 */
#include "compat.h"

#include <stdlib.h>

#include "ahead.h"
#include "input.h"
#include "load.h"
#include "parse.h"
#include "xmalloc.h"

#define LOAD_BLOCK	(1024 * 1024)

static int	load_input(struct profile *, struct input *, const char *,
		    const struct parse_opts *);

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
	return load_input(p, in, path, o);
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
	return load_input(p, in, name, o);
}

/* Feed what in holds to a new parser of p; close in. */
static int
load_input(struct profile *p, struct input *in, const char *name,
    const struct parse_opts *o)
{
	struct parser	*ps;
	char		*block;
	ssize_t		 n;
	int		 fd;

	ps = parser_create(p, name, o);
	if ((fd = input_plain_fd(in)) == -1 ||
	    (n = ahead_read(ps, fd, name, o)) == 1) {
		block = xmalloc(LOAD_BLOCK);
		while ((n = input_read(in, block, LOAD_BLOCK)) > 0)
			if (parser_feed(ps, block, (size_t)n) == -1)
				break;
		free(block);
	}
	input_close(in);
	/* A read error was reported; what was read is not checked further. */
	if (n < 0)
		parser_fail(ps);
	return parser_finish(ps);
}

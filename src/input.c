/*
 * input.c - opens a profile ("-" is standard input) and reads it in
 * blocks with read(2), so memory use does not grow with the file.
 */
#include "compat.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input.h"
#include "msg.h"
#include "xmalloc.h"

struct input {
	int		 fd;
	const char	*name;
};

/* Open path for reading; print a diagnostic and return NULL on failure. */
struct input *
input_open(const char *path)
{
	struct input	*in;
	int		 fd;

	if (strcmp(path, "-") == 0)
		fd = STDIN_FILENO;
	else if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		msg(MSG_OPEN, path, 0, "%s", strerror(errno));
		return NULL;
	}
	in = xmalloc(sizeof(*in));
	in->fd = fd;
	in->name = path;
	return in;
}

/* Read up to size bytes; return 0 at the end, -1 (reported) on error. */
ssize_t
input_read(struct input *in, char *buf, size_t size)
{
	ssize_t	n;

	for (;;) {
		if ((n = read(in->fd, buf, size)) >= 0)
			return n;
		if (errno == EINTR)
			continue;
		msg(MSG_READ, in->name, 0, "%s", strerror(errno));
		return -1;
	}
}

/* Close the input (standard input stays open). */
void
input_close(struct input *in)
{
	if (in == NULL)
		return;
	if (in->fd != STDIN_FILENO)
		close(in->fd);
	free(in);
}

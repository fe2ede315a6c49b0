/*
 * input.c - opens a profile ("-" is standard input) and reads it in
 * blocks with read(2), so memory use does not grow with the file.
 * gzip and zstd data (files or standard input) are recognised by their
 * magic bytes and decompressed on the fly: gzip with ISA-L's inflate
 * where the build has it, else with zlib's, zstd with libzstd.  A read
 * error is reported at once, or, for an input read in another thread
 * (relay.c), kept until input_report() prints it in order.
 */
#include "base/compat.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>
#if defined(CGA_HAVE_ISAL)
#include <isa-l/igzip_lib.h>
#endif

#include "base/hooks.h"
#include "base/msg.h"
#include "base/xmalloc.h"
#include "read/input.h"

#define INPUT_RAW	(256 * 1024)	/* compressed bytes read at a time */
#define INPUT_FIRST	(4 * 1024)	/*   the first time, to look at */

enum input_kind {
	INPUT_PLAIN,
	INPUT_GZIP,
	INPUT_ZSTD
};

struct input {
	int		 fd;
	const char	*name;
	enum input_kind	 kind;
	unsigned char	*raw;		/* compressed bytes read */
	size_t		 rlen, rpos;	/* bytes held, bytes used */
	int		 eof;		/* read(2) said end of file */
	int		 done;		/* the last stream ended there */
	uint64_t	 nread;		/* bytes read(2) so far */
	off_t		 origin;	/* the descriptor's offset at first,
					   or -1 */
	z_stream	 z;
#if defined(CGA_HAVE_ISAL)
	struct inflate_state *isal;	/* or NULL: zlib's z */
#endif
	ZSTD_DCtx	*zd;
	int		 defer;		/* keep a read error for later */
	char		*err;		/* the error kept, or NULL */
};

static ssize_t	input_fill(struct input *, size_t);
static void	input_error(struct input *, const char *, ...)
		    __attribute__((__format__(__printf__, 2, 3)));
static void	input_gzip_start(struct input *);
static ssize_t	input_gzip(struct input *, char *, size_t);
#if defined(CGA_HAVE_ISAL)
static ssize_t	input_isal(struct input *, char *, size_t);
static const char *input_isal_error(int);
#endif
static ssize_t	input_zstd(struct input *, char *, size_t);

/* Report a read error of in, or keep it for input_report(). */
static void
input_error(struct input *in, const char *fmt, ...)
{
	va_list	ap;
	char	buf[512];

	va_start(ap, fmt);
	(void)vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!in->defer) {
		msg(MSG_READ, in->name, 0, "%s", buf);
		return;
	}
	free(in->err);
	in->err = xstrdup(buf);
}

/*
 * With on, keep read errors of in for input_report() instead of
 * printing them (for a thread that must print nothing); else print them.
 */
void
input_defer(struct input *in, int on)
{
	in->defer = on;
}

/* Print the read error kept, if any. */
void
input_report(struct input *in)
{
	if (in->err == NULL)
		return;
	msg(MSG_READ, in->name, 0, "%s", in->err);
	free(in->err);
	in->err = NULL;
}

/*
 * Read up to max more raw bytes after the unused ones (no more than
 * INPUT_RAW in all); return how many, 0, -1.
 */
static ssize_t
input_fill(struct input *in, size_t max)
{
	ssize_t	n;

	if (in->rpos > 0) {
		memmove(in->raw, in->raw + in->rpos, in->rlen - in->rpos);
		in->rlen -= in->rpos;
		in->rpos = 0;
	}
	for (;;) {
		n = read(in->fd, in->raw + in->rlen,
		    INPUT_RAW - in->rlen < max ? INPUT_RAW - in->rlen : max);
		if (n >= 0)
			break;
		if (errno == EINTR)
			continue;
		input_error(in, "%s", strerror(errno));
		return -1;
	}
	if (n == 0)
		in->eof = 1;
	in->rlen += (size_t)n;
	in->nread += (uint64_t)n;
	return n;
}

/* Open path for reading; print a diagnostic and return NULL on failure. */
struct input *
input_open(const char *path)
{
	int	fd;

	if (strcmp(path, "-") == 0)
		fd = STDIN_FILENO;
	else if ((fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC)) == -1) {
		msg(MSG_OPEN, path, 0, "%s", strerror(errno));
		return NULL;
	}
	return input_fdopen(fd, path);
}

/*
 * Start reading the open descriptor fd, named name in messages; it is
 * closed by input_close() (unless it is standard input).  Return NULL
 * after a message if it cannot be read.
 */
struct input *
input_fdopen(int fd, const char *name)
{
	struct input	*in;

	in = xcalloc(1, sizeof(*in));
	in->fd = fd;
	in->name = name;
	in->origin = lseek(fd, 0, SEEK_CUR);
	in->raw = xmalloc(INPUT_RAW);
	/*
	 * Look at the first bytes for a compression format's magic: a few
	 * kilobytes, as a plain file is then read elsewhere (ahead.c).
	 */
	while (in->rlen < 4 && !in->eof)
		if (input_fill(in, INPUT_FIRST) < 0) {
			input_close(in);
			return NULL;
		}
	if (in->rlen >= 2 && in->raw[0] == 0x1f && in->raw[1] == 0x8b) {
		in->kind = INPUT_GZIP;
		input_gzip_start(in);
	} else if (in->rlen >= 4 && in->raw[0] == 0x28 && in->raw[1] == 0xb5 &&
	    in->raw[2] == 0x2f && in->raw[3] == 0xfd) {
		in->kind = INPUT_ZSTD;
		if ((in->zd = ZSTD_createDCtx()) == NULL)
			errx(1, "zstd: cannot start a stream");
	}
	return in;
}

/* Return the descriptor in reads. */
int
input_fd(const struct input *in)
{
	return in->fd;
}

/* Return how many bytes of the file (compressed ones, if so) were read. */
uint64_t
input_tell(const struct input *in)
{
	return in->nread;
}

/*
 * Start inflating gzip data: with ISA-L where built with it (its inflate
 * took 0.35 s on 300 MB of profile where zlib's took 0.94 s), unless a
 * test asks for zlib's.
 */
static void
input_gzip_start(struct input *in)
{
#if defined(CGA_HAVE_ISAL)
	if (!hooks.gzip_zlib) {
		in->isal = xmalloc(sizeof(*in->isal));
		isal_inflate_init(in->isal);
		in->isal->crc_flag = ISAL_GZIP;
		return;
	}
#endif
	if (inflateInit2(&in->z, 15 + 32) != Z_OK)
		errx(1, "zlib: cannot start a stream");
}

#if defined(CGA_HAVE_ISAL)
/* Return what ISA-L's inflate error r means. */
static const char *
input_isal_error(int r)
{
	switch (r) {
	case ISAL_INVALID_BLOCK:
		return "invalid block";
	case ISAL_INVALID_SYMBOL:
		return "invalid code";
	case ISAL_INVALID_LOOKBACK:
		return "invalid distance too far back";
	case ISAL_INVALID_WRAPPER:
		return "incorrect header check";
	case ISAL_UNSUPPORTED_METHOD:
		return "unknown compression method";
	case ISAL_INCORRECT_CHECKSUM:
		return "incorrect data check";
	case ISAL_NEED_DICT:
		return "a preset dictionary is needed";
	default:
		return "unknown error";
	}
}

/*
 * Inflate gzip data (any number of members) into buf with ISA-L.  Its
 * inflate may take input ahead of the output it gives (held in its
 * state): it is called again while it makes progress, input or not.
 */
static ssize_t
input_isal(struct input *in, char *buf, size_t size)
{
	struct inflate_state	*s = in->isal;
	uint32_t		 ain, aout;
	int			 r;

	s->next_out = (uint8_t *)buf;
	s->avail_out = (uint32_t)(size > UINT32_MAX ? UINT32_MAX : size);
	while (s->avail_out > 0) {
		if (in->rpos == in->rlen && in->done) {
			/* Between members: one more, or the end. */
			if (in->eof)
				break;
			if (input_fill(in, INPUT_RAW) < 0)
				return -1;
			continue;
		}
		s->next_in = in->raw + in->rpos;
		s->avail_in = ain = (uint32_t)(in->rlen - in->rpos);
		aout = s->avail_out;
		r = isal_inflate(s);
		in->rpos = in->rlen - s->avail_in;
		if (r < 0) {
			input_error(in, "corrupt gzip data: %s",
			    input_isal_error(r));
			return -1;
		}
		if (s->block_state == ISAL_BLOCK_FINISH) {
			/* Another member may follow. */
			in->done = 1;
			isal_inflate_reset(s);
			s->crc_flag = ISAL_GZIP;
			continue;
		}
		in->done = 0;
		if (s->avail_in == ain && s->avail_out == aout) {
			/* No progress without more input. */
			if (in->eof)
				break;
			if (input_fill(in, INPUT_RAW) < 0)
				return -1;
		}
	}
	if (in->eof && in->rpos == in->rlen && !in->done &&
	    s->avail_out > 0) {
		input_error(in, "gzip data cut short");
		return -1;
	}
	return (ssize_t)(size - s->avail_out);
}
#endif

/* Inflate gzip data (any number of members) into buf. */
static ssize_t
input_gzip(struct input *in, char *buf, size_t size)
{
	int	r;

#if defined(CGA_HAVE_ISAL)
	if (in->isal != NULL)
		return input_isal(in, buf, size);
#endif
	in->z.next_out = (unsigned char *)buf;
	in->z.avail_out = (uInt)(size > UINT32_MAX ? UINT32_MAX : size);
	while (in->z.avail_out > 0) {
		if (in->rpos == in->rlen) {
			if (in->eof)
				break;
			if (input_fill(in, INPUT_RAW) < 0)
				return -1;
			continue;
		}
		in->z.next_in = in->raw + in->rpos;
		in->z.avail_in = (uInt)(in->rlen - in->rpos);
		r = inflate(&in->z, Z_NO_FLUSH);
		in->rpos = in->rlen - in->z.avail_in;
		if (r == Z_STREAM_END) {
			/* Another member may follow. */
			in->done = 1;
			if (inflateReset(&in->z) != Z_OK)
				errx(1, "zlib: cannot reset a stream");
			continue;
		}
		if (r != Z_OK && r != Z_BUF_ERROR) {
			input_error(in, "corrupt gzip data: %s",
			    in->z.msg != NULL ? in->z.msg : "unknown error");
			return -1;
		}
		in->done = 0;
		if (r == Z_BUF_ERROR) {
			/* No progress without more input. */
			if (in->eof)
				break;
			if (input_fill(in, INPUT_RAW) < 0)
				return -1;
		}
	}
	if (in->eof && in->rpos == in->rlen && !in->done &&
	    in->z.avail_out > 0) {
		input_error(in, "gzip data cut short");
		return -1;
	}
	return (ssize_t)(size - in->z.avail_out);
}

/* Decompress zstd data (any number of frames) into buf. */
static ssize_t
input_zstd(struct input *in, char *buf, size_t size)
{
	ZSTD_outBuffer	 out = { buf, size, 0 };
	ZSTD_inBuffer	 zin;
	size_t		 r;

	while (out.pos < out.size) {
		if (in->rpos == in->rlen) {
			if (in->eof)
				break;
			if (input_fill(in, INPUT_RAW) < 0)
				return -1;
			continue;
		}
		zin.src = in->raw + in->rpos;
		zin.size = in->rlen - in->rpos;
		zin.pos = 0;
		r = ZSTD_decompressStream(in->zd, &out, &zin);
		in->rpos += zin.pos;
		if (ZSTD_isError(r)) {
			input_error(in, "corrupt zstd data: %s",
			    ZSTD_getErrorName(r));
			return -1;
		}
		in->done = r == 0;
	}
	if (in->eof && in->rpos == in->rlen && !in->done && out.pos < size) {
		input_error(in, "zstd data cut short");
		return -1;
	}
	return (ssize_t)out.pos;
}

/* Read up to size bytes; return 0 at the end, -1 (reported) on error. */
ssize_t
input_read(struct input *in, char *buf, size_t size)
{
	size_t	n;

	switch (in->kind) {
	case INPUT_GZIP:
		return input_gzip(in, buf, size);
	case INPUT_ZSTD:
		return input_zstd(in, buf, size);
	case INPUT_PLAIN:
		break;
	}
	/* Plain: first what was read to look for magic, then read(2). */
	if (in->rpos < in->rlen) {
		n = in->rlen - in->rpos < size ? in->rlen - in->rpos : size;
		memcpy(buf, in->raw + in->rpos, n);
		in->rpos += n;
		return (ssize_t)n;
	}
	for (;;) {
		ssize_t	r = read(in->fd, buf, size);

		if (r >= 0) {
			in->nread += (uint64_t)r;
			return r;
		}
		if (errno == EINTR)
			continue;
		input_error(in, "%s", strerror(errno));
		return -1;
	}
}

/* Return nonzero if the input is compressed. */
int
input_compressed(const struct input *in)
{
	return in->kind != INPUT_PLAIN;
}

/*
 * Return the descriptor of a plain (uncompressed) named file, which may
 * be read at any offset with pread(2), or -1.
 */
int
input_plain_fd(const struct input *in)
{
	return in->kind == INPUT_PLAIN && in->fd != STDIN_FILENO ? in->fd : -1;
}

/*
 * Return nonzero if the input is a plain file read from its first byte:
 * the bytes read are at the same offsets in it.
 */
int
input_from_start(const struct input *in)
{
	return input_plain_fd(in) != -1 && in->origin == 0;
}

/* Close the input (standard input stays open). */
void
input_close(struct input *in)
{
	if (in == NULL)
		return;
#if defined(CGA_HAVE_ISAL)
	if (in->isal != NULL)
		free(in->isal);
	else
#endif
	if (in->kind == INPUT_GZIP)
		inflateEnd(&in->z);
	if (in->zd != NULL)
		ZSTD_freeDCtx(in->zd);
	if (in->fd != STDIN_FILENO)
		close(in->fd);
	free(in->err);
	free(in->raw);
	free(in);
}

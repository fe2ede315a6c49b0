/*
 * spool.c - a stream kept in memory until it is copied to another: what
 * a helper thread prints of a report while the main thread prints the
 * rest (report_text.c).  open_memstream(3) keeps one buffer that it
 * grows by copying and clears as it grows, so that each page of the
 * text is written fresh two or three times, and a fresh page is a trap
 * (on one hypervisor 13-17 us a page: 3,000 traps, 40 ms, for cc1plus's
 * 4.3 MB).  Here the text goes into blocks that are never copied, each
 * twice the one before up to 2 MB, and those of 2 MB on huge pages
 * where the system lets a program ask.
 */
#define _GNU_SOURCE	/* fopencookie() */
#include "base/compat.h"

#include <sys/types.h>

#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/spool.h"
#include "base/xmalloc.h"

#define SPOOL_FIRST	(256 * 1024)		/* the first block */
#define SPOOL_BLOCK	(2 * 1024 * 1024)	/* blocks double up to this */

struct block {
	char	*bytes;
	size_t	 size, used;
};

struct spool {
	FILE		*f;		/* the stream, until copied */
	struct block	*blocks;
	size_t		 nblocks, cap;
};

static ssize_t	spool_write(void *, const char *, size_t);

/* The stream's write function: append n bytes of buf to the blocks. */
static ssize_t
spool_write(void *cookie, const char *buf, size_t n)
{
	struct spool	*sp = cookie;
	struct block	*b;
	size_t		 left = n, k, size;

	while (left > 0) {
		b = sp->nblocks > 0 ? &sp->blocks[sp->nblocks - 1] : NULL;
		if (b == NULL || b->used == b->size) {
			size = b == NULL ? SPOOL_FIRST : b->size < SPOOL_BLOCK ?
			    2 * b->size : SPOOL_BLOCK;
			sp->blocks = xgrow(sp->blocks, &sp->cap,
			    sp->nblocks + 1, sizeof(*sp->blocks));
			b = &sp->blocks[sp->nblocks++];
			b->bytes = size < SPOOL_BLOCK ? xmalloc(size) :
			    xmalloc_huge(size);
			b->size = size;
			b->used = 0;
		}
		k = b->size - b->used < left ? b->size - b->used : left;
		memcpy(b->bytes + b->used, buf, k);
		b->used += k;
		buf += k;
		left -= k;
	}
	return (ssize_t)n;
}

/* Return a new spool, empty, whose stream is spool_stream(). */
struct spool *
spool_open(void)
{
	static const cookie_io_functions_t io = { .write = spool_write };
	struct spool	*sp;

	sp = xcalloc(1, sizeof(*sp));
	if ((sp->f = fopencookie(sp, "w", io)) == NULL)
		err(1, "fopencookie");
	return sp;
}

/* Return the stream writing into sp. */
FILE *
spool_stream(const struct spool *sp)
{
	return sp->f;
}

/*
 * Close the stream of sp and write everything it took to out; return 0,
 * or -1 if the stream had failed (out's errors are left in out).
 */
int
spool_copy(struct spool *sp, FILE *out)
{
	size_t	i;
	int	rc;

	rc = sp->f == NULL || fclose(sp->f) != 0 ? -1 : 0;
	sp->f = NULL;
	if (rc == -1)
		return -1;
	for (i = 0; i < sp->nblocks; i++)
		if (fwrite(sp->blocks[i].bytes, 1, sp->blocks[i].used,
		    out) != sp->blocks[i].used)
			break;
	return 0;
}

/* Free a spool, closing its stream if it was not copied. */
void
spool_free(struct spool *sp)
{
	size_t	i;

	if (sp == NULL)
		return;
	if (sp->f != NULL)
		(void)fclose(sp->f);
	for (i = 0; i < sp->nblocks; i++)
		free(sp->blocks[i].bytes);
	free(sp->blocks);
	free(sp);
}

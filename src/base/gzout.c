/*
 * gzout.c - gzip output compressed in a second thread.  The caller fills
 * one buffer while the thread compresses and writes the other; when the
 * caller's is full it waits for the thread to be done with its own, and
 * they swap.  Compressing took a third of the pprof export's time on one
 * thread.  A failed write marks the stream, which the caller's caller
 * checks (as every view's output).
 */
#include "base/compat.h"

#include <err.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "base/gzout.h"
#include "base/xmalloc.h"

#define GZOUT_BUF	(1 << 20)	/* bytes a buffer */

struct gzout {
	FILE		*out;
	z_stream	 z;
	unsigned char	 zbuf[65536];	/* compressed, to write */
	unsigned char	*fill;		/* the caller's buffer, */
	size_t		 nfill;		/*   bytes in it */
	unsigned char	*work;		/* the thread's, */
	size_t		 nwork;		/*   bytes in it, */
	int		 busy;		/*   until compressed */
	int		 last;		/* the end: finish the stream */
	pthread_mutex_t	 lock;
	pthread_cond_t	 cond;
	pthread_t	 thr;
};

static void	*gzout_thread(void *);
static void	 gzout_deflate(struct gzout *, const void *, size_t, int);
static void	 gzout_hand(struct gzout *, int);

/* Compress n bytes at data into g's stream and write what comes out. */
static void
gzout_deflate(struct gzout *g, const void *data, size_t n, int flush)
{
	size_t	got;

	g->z.next_in = (unsigned char *)(uintptr_t)data;
	g->z.avail_in = (uInt)n;
	do {
		g->z.next_out = g->zbuf;
		g->z.avail_out = sizeof(g->zbuf);
		(void)deflate(&g->z, flush);
		got = sizeof(g->zbuf) - g->z.avail_out;
		/*
		 * Unlocked: out is the caller's, who writes nothing to it
		 * until gzout_close() and may hold its lock meanwhile
		 * (report_print() does).
		 */
		if (got > 0)
			(void)fwrite_unlocked(g->zbuf, 1, got, g->out);
	} while (g->z.avail_out == 0 || g->z.avail_in > 0);
}

/* The thread: compress each buffer handed to it, until the last. */
static void *
gzout_thread(void *arg)
{
	struct gzout	*g = arg;
	int		 last;

	for (;;) {
		pthread_mutex_lock(&g->lock);
		while (!g->busy)
			pthread_cond_wait(&g->cond, &g->lock);
		last = g->last;
		pthread_mutex_unlock(&g->lock);
		gzout_deflate(g, g->work, g->nwork, last ? Z_FINISH :
		    Z_NO_FLUSH);
		pthread_mutex_lock(&g->lock);
		g->busy = 0;
		pthread_cond_broadcast(&g->cond);
		pthread_mutex_unlock(&g->lock);
		if (last)
			return NULL;
	}
}

/*
 * Hand the caller's buffer to the thread once it is done with its own
 * (last: the end of the stream), and take that one to fill.
 */
static void
gzout_hand(struct gzout *g, int last)
{
	unsigned char	*t;

	pthread_mutex_lock(&g->lock);
	while (g->busy)
		pthread_cond_wait(&g->cond, &g->lock);
	t = g->work;
	g->work = g->fill;
	g->nwork = g->nfill;
	g->fill = t;
	g->nfill = 0;
	g->last = last;
	g->busy = 1;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

/*
 * Start a gzip stream on out, compressed at level (zlib's, 1 the
 * fastest) in a second thread; the caller writes nothing else to out
 * until gzout_close().
 */
struct gzout *
gzout_open(FILE *out, int level)
{
	struct gzout	*g = xcalloc(1, sizeof(*g));

	g->out = out;
	if (deflateInit2(&g->z, level, Z_DEFLATED, 15 + 16, 8,
	    Z_DEFAULT_STRATEGY) != Z_OK)
		errx(1, "deflateInit2: out of memory");
	g->fill = xreallocarray(NULL, GZOUT_BUF, 1);
	g->work = xreallocarray(NULL, GZOUT_BUF, 1);
	if (pthread_mutex_init(&g->lock, NULL) != 0 ||
	    pthread_cond_init(&g->cond, NULL) != 0 ||
	    pthread_create(&g->thr, NULL, gzout_thread, g) != 0)
		errx(1, "cannot start a thread to compress the output");
	return g;
}

/* Add n bytes at data to g's stream. */
void
gzout_write(struct gzout *g, const void *data, size_t n)
{
	const unsigned char	*d = data;
	size_t			 k;

	while (n > 0) {
		if (g->nfill == GZOUT_BUF)
			gzout_hand(g, 0);
		k = GZOUT_BUF - g->nfill;
		k = n < k ? n : k;
		memcpy(g->fill + g->nfill, d, k);
		g->nfill += k;
		d += k;
		n -= k;
	}
}

/* End g's stream, once all of it is written, and free it. */
void
gzout_close(struct gzout *g)
{
	gzout_hand(g, 1);
	pthread_join(g->thr, NULL);
	(void)deflateEnd(&g->z);
	pthread_mutex_destroy(&g->lock);
	pthread_cond_destroy(&g->cond);
	free(g->fill);
	free(g->work);
	free(g);
}

/*
 * relay.c - reading an input in a second thread while the caller parses
 * what was read: decompressing gzip or zstd data, or reading a pipe,
 * takes as long as parsing it, and the two now overlap.  The thread
 * fills a ring of blocks in order; the caller takes them in order.  It
 * prints nothing: a read error is kept with the input and printed by
 * the caller when it gets there (input_report()), after whatever the
 * blocks before it made the parser say, as when one thread reads.
 */
#include "base/compat.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/xmalloc.h"
#include "read/input.h"
#include "read/relay.h"

/*
 * Blocks in the ring.  Parsing a big profile is slower where it meets
 * new lines than where it adds to lines it has, for stretches of
 * megabytes; a decompressor held back by a full ring there loses time
 * that a longer ring lets it spend working ahead (the 300 MB 13-event
 * synthetic, gzip: 0.87 s -> 0.84 s).  A pipe's writer works in its own
 * process, and a longer ring only holds more of what it wrote.
 */
#define RELAY_BLOCKS	16		/* at most */
#define RELAY_PIPED	4		/* uncompressed standard input */

struct block {
	char		*buf;
	ssize_t		 n;		/* bytes, 0 at the end, -1 error */
	uint64_t	 tell;		/* input_tell() after reading it */
};

struct relay {
	pthread_mutex_t	 lock;
	pthread_cond_t	 cond;
	pthread_t	 thr;
	struct input	*in;
	size_t		 size;		/* bytes a block */
	size_t		 nblocks;	/* in the ring */
	struct block	 ring[RELAY_BLOCKS];
	uint64_t	 filled;	/* blocks the thread has read */
	uint64_t	 taken;		/* blocks the caller has taken */
	int		 started;	/* thr runs */
	int		 quit;		/* the caller wants no more */
	int		 ended;		/* the thread has read its last */
};

static void	*relay_thread(void *);

/*
 * The second thread: read blocks into the ring while there is room,
 * until the end of the input, an error, or the caller stops.  Only in
 * read(2) may it be cancelled (relay_stop()), holding nothing.
 */
static void *
relay_thread(void *arg)
{
	struct relay	*r = arg;
	struct block	*b;
	ssize_t		 n;
	int		 old;

	(void)pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
	for (;;) {
		pthread_mutex_lock(&r->lock);
		/* The block taken last may still be in use: keep it. */
		while (!r->quit && r->filled - r->taken >= r->nblocks - 1)
			pthread_cond_wait(&r->cond, &r->lock);
		if (r->quit) {
			pthread_mutex_unlock(&r->lock);
			break;
		}
		b = &r->ring[r->filled % r->nblocks];
		pthread_mutex_unlock(&r->lock);

		(void)pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, &old);
		n = input_read(r->in, b->buf, r->size);
		(void)pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);

		pthread_mutex_lock(&r->lock);
		b->n = n;
		b->tell = input_tell(r->in);
		r->filled++;
		if (n <= 0)
			r->ended = 1;
		pthread_cond_broadcast(&r->cond);
		pthread_mutex_unlock(&r->lock);
		if (n <= 0)
			break;
	}
	return NULL;
}

/*
 * Start reading in, blocks of size bytes, in a second thread; return
 * NULL (nothing read) where there is no second processor or thread.
 */
struct relay *
relay_start(struct input *in, size_t size)
{
	struct relay	*r;
	size_t		 i;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return NULL;
	r = xcalloc(1, sizeof(*r));
	r->in = in;
	r->size = size;
	r->nblocks = input_compressed(in) ? RELAY_BLOCKS : RELAY_PIPED;
	for (i = 0; i < r->nblocks; i++)
		r->ring[i].buf = xmalloc(size);
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->cond, NULL);
	input_defer(in, 1);
	if (pthread_create(&r->thr, NULL, relay_thread, r) != 0) {
		input_defer(in, 0);
		relay_stop(r);
		return NULL;
	}
	r->started = 1;
	return r;
}

/*
 * Give the next block read in *buf (valid until the next call) and the
 * input's position after it in *tell; return its length, 0 at the end,
 * or -1 after a read error (kept with the input: input_report()).
 */
ssize_t
relay_next(struct relay *r, const char **buf, uint64_t *tell)
{
	struct block	*b;

	pthread_mutex_lock(&r->lock);
	while (r->filled == r->taken)
		pthread_cond_wait(&r->cond, &r->lock);
	b = &r->ring[r->taken % r->nblocks];
	if (b->n > 0) {
		r->taken++;
		pthread_cond_broadcast(&r->cond);
	}
	pthread_mutex_unlock(&r->lock);
	*buf = b->buf;
	*tell = b->tell;
	return b->n;
}

/*
 * Stop reading, at the end or before, and free what r holds (the input
 * stays open).  A thread waiting in read(2) for a pipe that says no
 * more is cancelled there.
 */
void
relay_stop(struct relay *r)
{
	size_t	i;

	if (r == NULL)
		return;
	if (r->started) {
		pthread_mutex_lock(&r->lock);
		r->quit = 1;
		if (!r->ended)
			(void)pthread_cancel(r->thr);
		pthread_cond_broadcast(&r->cond);
		pthread_mutex_unlock(&r->lock);
		(void)pthread_join(r->thr, NULL);
	}
	pthread_cond_destroy(&r->cond);
	pthread_mutex_destroy(&r->lock);
	for (i = 0; i < r->nblocks; i++)
		free(r->ring[i].buf);
	free(r);
}

/*
 * relay.c - reading an input in a second thread while the caller parses
 * what was read: decompressing gzip or zstd data, or reading a pipe,
 * takes as long as parsing it, and the two now overlap.  The thread
 * fills a ring of blocks in order; the caller takes them in order.  It
 * prints nothing: a read error is kept with the input and printed by
 * the caller when it gets there (input_report()), after whatever the
 * blocks before it made the parser say, as when one thread reads.  Cut
 * (relay_cut()), the blocks are chunks of a profile for two threads to
 * parse (ahead.c): each ends where the caller's function says, a block
 * grows until there is such a place, and the caller takes any block in
 * the ring and gives them back in order.  A cut relay has no thread of
 * its own: the two threads that parse read (decompress) its blocks in
 * turn, one at a time (relay_pump()), whenever they would otherwise
 * wait, or the main thread's next chunks run short.  A third thread on
 * two processors took the parsers' time slices by turns and their
 * caches with them: the 13-event synthetic of 300 MB in gzip, 1.25 ->
 * 1.08 s, user CPU 2.09 -> 1.83 s; in zstd 1.27 -> 1.12 s.
 */
#define _GNU_SOURCE		/* pthread_getattr_np() */
#include "base/compat.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/xmalloc.h"
#include "read/input.h"
#include "read/relay.h"

#if defined(__SANITIZE_ADDRESS__)
#define RELAY_ASAN	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RELAY_ASAN	1
#endif
#endif
#ifdef RELAY_ASAN
#include <sanitizer/asan_interface.h>
#endif

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
#define RELAY_GROW	8		/* a cut relay's block that finds no
					   cut grows up to this many times
					   the size asked, then ends there */

struct block {
	char		*buf;
	size_t		 cap;		/* bytes buf holds */
	ssize_t		 n;		/* bytes, 0 at the end, -1 error */
	uint64_t	 start;		/* the offset of its first byte */
	uint64_t	 tell;		/* input_tell() after reading it */
	int		 seam;		/* cut: it starts where one ended */
};

struct relay {
	pthread_mutex_t	 lock;
	pthread_cond_t	 cond;
	pthread_t	 thr;
	struct input	*in;
	size_t		 size;		/* bytes a block */
	size_t		 nblocks;	/* in the ring */
	struct block	 ring[RELAY_BLOCKS];
	uint64_t	 filled;	/* blocks read */
	uint64_t	 taken;		/* blocks the caller has taken */
	int		 started;	/* thr runs */
	int		 filling;	/* cut: a caller is reading a block
					   (relay_pump()) */
	int		 quit;		/* the caller wants no more */
	int		 ended;		/* the last block is read */
	size_t		(*cut)(const char *, size_t); /* cut: where a block
					   may end, 0 if nowhere */
	char		*carry;		/* cut: what follows the cut, */
	size_t		 ncarry;	/*   bytes, */
	size_t		 carry_cap;
	ssize_t		 pend;		/*   the read that ended the last */
	int		 pending;	/*   block, if it ended the input */
	uint64_t	 off;		/*   the next block's start, */
	int		 seam;		/*   and whether it is at a cut */
};

static void	relay_publish(struct relay *, struct block *, ssize_t);
static int	relay_pump_locked(struct relay *);
static ssize_t	relay_read(struct relay *, char *, size_t);
static ssize_t	relay_fill(struct relay *, struct block *);
static ssize_t	relay_fill_cut(struct relay *, struct block *);
static struct relay *relay_new(struct input *, size_t, size_t);
static void	*relay_thread(void *);
static void	 relay_unwound(void *);

/*
 * Read up to len bytes into buf, the relay's thread cancellable only
 * there (see relay_stop(); a cut relay's readers are its callers);
 * return input_read()'s answer.
 */
static ssize_t
relay_read(struct relay *r, char *buf, size_t len)
{
	ssize_t	n;
	int	old;

	if (r->cut != NULL)
		return input_read(r->in, buf, len);
	(void)pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, &old);
	n = input_read(r->in, buf, len);
	(void)pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
	return n;
}

/*
 * Read the next block into b; return input_read()'s answer.  A block is
 * made here, by the thread that first fills it: its pages are fresh, and
 * a fresh page costs a trap that some hypervisors make slow (the ring of
 * a gzip file of 300 MB, 16 MB, took the caller 24-36 ms to make before
 * anything was read; here each is made as it is needed).
 */
static ssize_t
relay_fill(struct relay *r, struct block *b)
{
	if (r->cut != NULL)
		return relay_fill_cut(r, b);
	if (b->buf == NULL) {
		b->buf = xmalloc(r->size);
		b->cap = r->size;
	}
	return relay_read(r, b->buf, r->size);
}

/*
 * Read the next chunk into b: what followed the last cut, then reads
 * until it holds r->size bytes or more and r->cut() finds where it may
 * end (reading on to twice as many bytes each time it does not, up to
 * RELAY_GROW times r->size, where it ends uncut), or the input ends.
 * Return its length, or the read that ended the input (0, -1) if
 * nothing is left before it; such a read after bytes is answered by
 * the next call.
 */
static ssize_t
relay_fill_cut(struct relay *r, struct block *b)
{
	size_t	len = 0, at, want = r->size;
	ssize_t	n = 1;

	b->seam = r->seam;
	r->seam = 1;
	if (r->pending) {
		r->pending = 0;
		return r->pend;
	}
	if (r->ncarry > want)
		want = r->ncarry;
	if (b->cap < want) {
		free(b->buf);
		b->buf = xmalloc(want);
		b->cap = want;
	}
	if (r->ncarry > 0)
		memcpy(b->buf, r->carry, r->ncarry);
	len = r->ncarry;
	r->ncarry = 0;
	for (;;) {
		while (len < want) {
			n = relay_read(r, b->buf + len, b->cap - len);
			if (n <= 0)
				break;
			len += (size_t)n;
		}
		if (n <= 0)
			break;
		if ((at = r->cut(b->buf, len)) > 0) {
			r->carry = xgrow(r->carry, &r->carry_cap, len - at, 1);
			memcpy(r->carry, b->buf + at, len - at);
			r->ncarry = len - at;
			len = at;
			break;
		}
		if (len / RELAY_GROW >= r->size) {
			/* The next block starts in the middle of this. */
			r->seam = 0;
			break;
		}
		want = len / RELAY_GROW >= r->size / 2 ? r->size * RELAY_GROW :
		    len * 2;
		if (b->cap < want) {
			b->buf = xreallocarray(b->buf, want, 1);
			b->cap = want;
		}
	}
	if (n <= 0 && len == 0)
		return n;
	if (n <= 0) {
		r->pending = 1;
		r->pend = n;
	}
	return (ssize_t)len;
}

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
	pthread_cleanup_push(relay_unwound, NULL);
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

		n = relay_fill(r, b);

		pthread_mutex_lock(&r->lock);
		relay_publish(r, b, n);
		pthread_mutex_unlock(&r->lock);
		if (n <= 0)
			break;
	}
	pthread_cleanup_pop(0);
	return NULL;
}

/*
 * Make block b, just read (n: relay_fill()'s answer), the next of the
 * ring, and wake who waits for it (called with the lock held).
 */
static void
relay_publish(struct relay *r, struct block *b, ssize_t n)
{
	b->n = n;
	b->start = r->off;
	if (n > 0)
		r->off += (uint64_t)n;
	b->tell = input_tell(r->in);
	r->filled++;
	if (n <= 0)
		r->ended = 1;
	pthread_cond_broadcast(&r->cond);
}

/*
 * Read the next block of a cut relay in the calling thread, if no
 * other is reading one, the input goes on and the ring has room (called
 * with the lock held, let go while reading); return 1 if it did, else 0.
 */
static int
relay_pump_locked(struct relay *r)
{
	struct block	*b;
	ssize_t		 n;

	if (r->cut == NULL || r->filling || r->ended || r->quit ||
	    r->filled - r->taken >= r->nblocks)
		return 0;
	r->filling = 1;
	b = &r->ring[r->filled % r->nblocks];
	pthread_mutex_unlock(&r->lock);
	n = relay_fill(r, b);
	pthread_mutex_lock(&r->lock);
	r->filling = 0;
	relay_publish(r, b, n);
	return 1;
}

/*
 * Read the next block of a cut relay in the calling thread, if it can
 * (see relay_pump_locked()); return 1 if it did, else 0: the caller,
 * with nothing else to do, spends its time reading ahead.
 */
int
relay_pump(struct relay *r)
{
	int	done;

	pthread_mutex_lock(&r->lock);
	done = relay_pump_locked(r);
	pthread_mutex_unlock(&r->lock);
	return done;
}

/*
 * Return how many blocks of a cut relay are read, without waiting.
 */
uint64_t
relay_filled(struct relay *r)
{
	uint64_t	filled;

	pthread_mutex_lock(&r->lock);
	filled = r->filled;
	pthread_mutex_unlock(&r->lock);
	return filled;
}

/*
 * The thread, cancelled in read(2), is unwound without AddressSanitizer
 * knowing: the frames it left keep their redzones marked, and the
 * sanitizer's own code, ending the thread, writes there and reports an
 * underflow.  Unmark the stack below this frame, which no frame uses.
 */
static void
relay_unwound(void *arg)
{
#ifdef RELAY_ASAN
	pthread_attr_t	 a;
	void		*low;
	size_t		 size;
	char		*here = __builtin_frame_address(0);

	(void)arg;
	if (pthread_getattr_np(pthread_self(), &a) != 0)
		return;
	if (pthread_attr_getstack(&a, &low, &size) == 0 &&
	    here - 4096 > (char *)low)
		__asan_unpoison_memory_region(low,
		    (size_t)(here - 4096 - (char *)low));
	(void)pthread_attr_destroy(&a);
#else
	(void)arg;
#endif
}

/*
 * Make the relay of in, nblocks blocks of size bytes (made as they are
 * first filled), not started.
 */
static struct relay *
relay_new(struct input *in, size_t size, size_t nblocks)
{
	struct relay	*r;

	r = xcalloc(1, sizeof(*r));
	r->in = in;
	r->size = size;
	r->nblocks = nblocks;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->cond, NULL);
	return r;
}

/* Start r's thread; return r, or NULL (r freed) if there is none. */
static struct relay *
relay_run(struct relay *r)
{
	input_defer(r->in, 1);
	if (pthread_create(&r->thr, NULL, relay_thread, r) != 0) {
		input_defer(r->in, 0);
		relay_stop(r);
		return NULL;
	}
	r->started = 1;
	return r;
}

/*
 * Start reading in, blocks of size bytes, in a second thread; return
 * NULL (nothing read) where there is no second processor or thread.
 */
struct relay *
relay_start(struct input *in, size_t size)
{
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return NULL;
	return relay_run(relay_new(in, size, input_compressed(in) ?
	    RELAY_BLOCKS : RELAY_PIPED));
}

/*
 * Make ready to read in, cut into chunks of size bytes or more, each
 * ending where cut() says a chunk of it may (the offset of a byte after
 * the first, or 0 if none; the last ends at the end), for relay_block()
 * and relay_release(), read by the callers' threads as they ask
 * (relay_pump(), relay_wait(), relay_block()); return NULL (nothing
 * read) where there is no second processor.  Read errors are kept with
 * the input (input_report()), whichever thread meets them.
 */
struct relay *
relay_cut(struct input *in, size_t size, size_t (*cut)(const char *, size_t))
{
	struct relay	*r;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return NULL;
	r = relay_new(in, size, RELAY_CUT_BLOCKS);
	r->cut = cut;
	input_defer(in, 1);
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
 * Return how many blocks of a cut relay are read (their last, if the
 * input is over, is its end: no bytes, or -1 for an error), reading
 * (or waiting for another thread to read) until there are more than k
 * unless the input is over or the relay is told to quit.
 */
uint64_t
relay_wait(struct relay *r, uint64_t k)
{
	uint64_t	filled;

	pthread_mutex_lock(&r->lock);
	while (r->filled <= k && !r->quit && !r->ended)
		if (!relay_pump_locked(r))
			pthread_cond_wait(&r->cond, &r->lock);
	filled = r->filled;
	pthread_mutex_unlock(&r->lock);
	return filled;
}

/*
 * Describe block k of a cut relay, not released, in *rc (its bytes
 * valid until it is released), reading it first if it is the next;
 * return its length, 0 at the end, or -1 after a read error
 * (input_report()).
 */
ssize_t
relay_block(struct relay *r, uint64_t k, struct relay_chunk *rc)
{
	struct block	*b;

	pthread_mutex_lock(&r->lock);
	while (r->filled <= k)
		if (!relay_pump_locked(r))
			pthread_cond_wait(&r->cond, &r->lock);
	b = &r->ring[k % r->nblocks];
	pthread_mutex_unlock(&r->lock);
	rc->buf = b->buf;
	rc->n = b->n;
	rc->start = b->start;
	rc->tell = b->tell;
	rc->seam = b->seam;
	return b->n;
}

/* Give back the blocks of a cut relay before k, to be read into again. */
void
relay_release(struct relay *r, uint64_t k)
{
	pthread_mutex_lock(&r->lock);
	if (k > r->taken) {
		r->taken = k;
		pthread_cond_broadcast(&r->cond);
	}
	pthread_mutex_unlock(&r->lock);
}

/* Tell a cut relay to read no more, and relay_wait() not to wait. */
void
relay_quit(struct relay *r)
{
	pthread_mutex_lock(&r->lock);
	r->quit = 1;
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
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
	free(r->carry);
	free(r);
}

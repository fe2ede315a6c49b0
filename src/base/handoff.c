/*
 * handoff.c - records of 32-bit words made in a second thread and taken,
 * in order, by the caller's.  The maker fills one buffer while the taker
 * takes the records of the other; when the maker's is full it waits for
 * the taker to be done with its own, and they swap, so memory holds two
 * buffers whatever the number of records.  The flame graph's stacks are
 * walked by the maker and put into their tree by the caller: on the
 * large C++ synthetic, the tree was a third of making them.  The tree is
 * the caller's to keep, so it is made in the caller's thread: made in the
 * second, its tables took a malloc arena of their own, 30 MB more of
 * pprof's peak on cc1plus.  The callgrind export's position and cost
 * lines are made likewise, and written by the caller between the names
 * it compresses.  Two makers may share the making, each its blocks of
 * records in turn, the taker taking the blocks in order, the first
 * maker's first: each maker's buffers go to the taker as before, the
 * last of a block marked so (handoff_block()).  The callgrind export's
 * text, split so, takes the two cores where one made it and the caller
 * waited on it three quarters of the time.
 */
#include "base/compat.h"

#include <err.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/handoff.h"
#include "base/xmalloc.h"

#define HANDOFF_WORDS	((size_t)1 << 18)	/* words a buffer, at least */
#define HANDOFF_MAKERS	2			/* makers, at most */

struct handoff {
	handoff_make_fn	*make;		/* the second thread's work */
	void		*make_arg;
	uint32_t	*fill;		/* the maker's buffer, */
	size_t		 nfill, fill_cap; /*   words in it, room */
	uint32_t	*work;		/* the taker's, */
	size_t		 nwork, work_cap;
	int		 busy;		/*   until taken */
	int		 ends;		/*   the last of a block */
	int		 last;		/* the end: the maker returned */
	int		 failed;	/* the taker's work said to stop */
	int		 turns;		/* makers taking turns (1: blocks are
					   not marked) */
	size_t		 deep;		/* words the maker's buffer may grow
					   to while the taker is busy */
	pthread_mutex_t	 lock;
	pthread_cond_t	 cond;
};

static void	*handoff_thread(void *);
static int	 handoff_hand(struct handoff *, int, int);

/* The second thread: make the records, then hand the last over. */
static void *
handoff_thread(void *arg)
{
	struct handoff	*h = arg;

	h->make(h->make_arg, h);
	(void)handoff_hand(h, 1, 1);
	return NULL;
}

/*
 * Hand the maker's buffer to the taker once it is done with its own
 * (ends: the last of a block; last: the end), and take that one to
 * fill.  Return -1 if the taker's work has failed.
 */
static int
handoff_hand(struct handoff *h, int ends, int last)
{
	uint32_t	*t;
	size_t		 cap;
	int		 failed;

	pthread_mutex_lock(&h->lock);
	while (h->busy)
		pthread_cond_wait(&h->cond, &h->lock);
	t = h->work;
	cap = h->work_cap;
	h->work = h->fill;
	h->work_cap = h->fill_cap;
	h->nwork = h->nfill;
	h->fill = t;
	h->fill_cap = cap;
	h->nfill = 0;
	h->ends = ends;
	h->last = last;
	h->busy = 1;
	failed = h->failed;
	pthread_cond_broadcast(&h->cond);
	pthread_mutex_unlock(&h->lock);
	return failed ? -1 : 0;
}

/*
 * Run make(make_arg, h) in a second thread, which gives records of words
 * by handoff_room() and handoff_put(); take each buffer of them here, in
 * order, by take(take_arg, words, n), which returns -1 to have the rest
 * dropped (and handoff_room() say so).  Return -1 if take failed, once
 * make has returned.
 */
int
handoff_run(handoff_make_fn *make, void *make_arg, handoff_fn *take,
    void *take_arg)
{
	return handoff_turns(make, &make_arg, 1, take, take_arg);
}

/*
 * handoff_run() with n makers (at most HANDOFF_MAKERS), make(args[i], h)
 * each in a thread of its own, which take turns: the blocks of records
 * each ends by handoff_block() are taken one of each maker in turn, the
 * first maker's first, until every maker has returned.
 */
int
handoff_turns(handoff_make_fn *make, void **args, size_t n,
    handoff_fn *take, void *take_arg)
{
	struct handoff	 hs[HANDOFF_MAKERS], *h;
	pthread_t	 thr[HANDOFF_MAKERS];
	size_t		 i, cur = 0, left = n;
	int		 done[HANDOFF_MAKERS] = { 0 }, last, ends, stop = 0;

	if (n < 1 || n > HANDOFF_MAKERS)
		errx(1, "handoff: %zu makers", n);
	memset(hs, 0, sizeof(hs));
	for (i = 0; i < n; i++) {
		h = &hs[i];
		h->make = make;
		h->make_arg = args[i];
		h->turns = (int)n;
		h->fill_cap = h->work_cap = HANDOFF_WORDS;
		h->fill = xreallocarray(NULL, h->fill_cap, sizeof(*h->fill));
		h->work = xreallocarray(NULL, h->work_cap, sizeof(*h->work));
		if (pthread_mutex_init(&h->lock, NULL) != 0 ||
		    pthread_cond_init(&h->cond, NULL) != 0 ||
		    pthread_create(&thr[i], NULL, handoff_thread, h) != 0)
			errx(1, "cannot start a thread");
	}
	while (left > 0) {
		h = &hs[cur];
		pthread_mutex_lock(&h->lock);
		while (!h->busy)
			pthread_cond_wait(&h->cond, &h->lock);
		last = h->last;
		ends = h->ends;
		pthread_mutex_unlock(&h->lock);
		/* After a failure, what comes is dropped. */
		if (!stop && h->nwork > 0 &&
		    take(take_arg, h->work, h->nwork) == -1)
			stop = 1;
		pthread_mutex_lock(&h->lock);
		h->failed = stop;
		h->busy = 0;
		pthread_cond_broadcast(&h->cond);
		pthread_mutex_unlock(&h->lock);
		if (last) {
			done[cur] = 1;
			left--;
		}
		/* The next maker's turn: one whose end is not taken yet. */
		if (ends && left > 0)
			do
				cur = (cur + 1) % n;
			while (done[cur]);
	}
	for (i = 0; i < n; i++) {
		h = &hs[i];
		pthread_join(thr[i], NULL);
		pthread_mutex_destroy(&h->lock);
		pthread_cond_destroy(&h->cond);
		free(h->fill);
		free(h->work);
	}
	return stop ? -1 : 0;
}

/*
 * Let the maker of h run ahead of a taker busy with its buffer, its own
 * growing up to words (handoff_room()), instead of waiting.  For a
 * maker whose records may all be dropped: the flame graph's walks that
 * stop as too fine are made for nothing, and the taker, which makes a
 * node of the tree for most of their frames, is the slower; the walk
 * ahead ends sooner and the taker is told to drop the rest.
 */
void
handoff_deep(struct handoff *h, size_t words)
{
	h->deep = words;
}

/*
 * Return whether the maker's buffer in h, full, grew to take n more
 * words because the taker is busy and it may (handoff_deep()).
 */
static int
handoff_ahead(struct handoff *h, size_t n)
{
	int	busy;

	if (h->nfill + n > h->deep)
		return 0;
	pthread_mutex_lock(&h->lock);
	busy = h->busy;
	pthread_mutex_unlock(&h->lock);
	if (!busy)
		return 0;
	h->fill = xgrow(h->fill, &h->fill_cap, h->nfill + n,
	    sizeof(*h->fill));
	return 1;
}

/*
 * Return room for a record of n words at the end of h's buffer (to be
 * kept by handoff_put()), handing the buffer over first if it has no
 * room (or growing it, handoff_deep()); NULL if the taker's work has
 * failed.
 */
uint32_t *
handoff_room(struct handoff *h, size_t n)
{
	if (h->nfill + n > h->fill_cap && !handoff_ahead(h, n)) {
		if (handoff_hand(h, 0, 0) == -1)
			return NULL;
		if (n > h->fill_cap)
			h->fill = xgrow(h->fill, &h->fill_cap, n,
			    sizeof(*h->fill));
	}
	return h->fill + h->nfill;
}

/* Keep the n words written at handoff_room(). */
void
handoff_put(struct handoff *h, size_t n)
{
	h->nfill += n;
}

/*
 * End a block of records: with makers taking turns, the buffer goes to
 * the taker now and the next maker's block comes after it.  Return -1
 * if the taker's work has failed.
 */
int
handoff_block(struct handoff *h)
{
	if (h->turns < 2)
		return 0;
	return handoff_hand(h, 1, 0);
}

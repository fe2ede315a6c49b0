/*
 * ahead.c - reading a large profile file in two threads.  The file is
 * cut into chunks at lines "fn=" that either thread may read: the main
 * thread reads in order every chunk the second thread has not taken;
 * the second thread takes the first chunk ahead that it can read before
 * the main thread gets there (each thread measures how fast it goes) and
 * reads it into a profile of its own, from a state it does not know: the
 * names of compressed ids defined before it and the object and file in
 * force are placeholders (parser_spec()).  When the main thread
 * reaches such a chunk it adopts it (parser_adopt()): if what the chunk
 * assumed holds, its placeholders are resolved, its profile merged and
 * its parser's state taken over; if not, or if the chunk would have
 * printed a message (msg_divert() counts them), the chunk is read again
 * in order.  The result is the same as reading the file from start to
 * end, messages included.  A compressed file is read so too
 * (ahead_stream()): the two threads decompress it (relay.c) into chunks
 * in memory, each ending before a line "fn=", in turn, when either
 * would wait or the main thread has fewer than AHEAD_LEAD ahead, and
 * take them from there.  This module knows nothing of the
 * format but where its header ends and where a line "fn=" starts.
 */
#include "base/compat.h"

#include <sys/stat.h>

#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/hooks.h"
#include "base/msg.h"
#include "base/num.h"
#include "base/xmalloc.h"
#include "model/profile.h"
#include "read/ahead.h"
#include "read/input.h"
#include "read/parse.h"
#include "read/parse_ahead.h"
#include "read/relay.h"

#define AHEAD_BLOCK	(256 * 1024)		/* one read, */
#define AHEAD_BLOCK_SMALL (64 * 1024)		/*   below AHEAD_ARENAS */
#define AHEAD_MIN	(4 * 1024 * 1024)	/* smaller files: one thread */
#define AHEAD_CHUNK	(2 * 1024 * 1024)	/* a chunk, about */
#define AHEAD_WINDOW	(64 * 1024)		/* looked at for a boundary */
#define AHEAD_POOL	4			/* profiles kept for reuse */
#define AHEAD_HELD	3			/* chunks read ahead, at most, */
#define AHEAD_HELD_SMALL 2			/*   below AHEAD_ARENAS */
#define AHEAD_ARENAS	(16 * 1024 * 1024)	/* smaller: two malloc arenas */
#define AHEAD_MMAP	(128 * 1024)		/* malloc's mmap threshold, */
#define AHEAD_MMAP_AFTER (8 * 1024 * 1024)	/*   once read */
#define AHEAD_RING	RELAY_CUT_BLOCKS	/* chunks in memory, at most */
#define AHEAD_LEAD	4			/* decompressed ahead of the main
						   thread before the second
						   thread reads one ahead */

/* A stretch of a chunk read ahead, from a line "fn=" on. */
struct seg {
	uint64_t	 start;		/* its first byte */
	uint64_t	 stop;		/* where its parser stopped */
	struct profile	*p;		/* what it read, */
	struct parser	*ps;		/*   and the state it ended in */
	unsigned	 nmsg;		/* messages it would have printed */
};

/*
 * A chunk of a file.  The second thread reads those it takes as
 * segments: a header line (a new part) ends one, the next starts at the
 * next line "fn=", and the main thread reads what lies between.
 */
struct chunk {
	uint64_t	 start, end;	/* the bytes [start, end) */
	const char	*mem;		/* in memory (a relay's), or NULL */
	uint64_t	 tell;		/*   the input's position after it */
	int		 seam;		/* it starts at a line "fn=" */
	struct seg	*segs;
	size_t		 nsegs, segs_cap;
	int		 ahead;		/* the second thread took it, */
	int		 done;		/*   and is done with it */
};

/* Seconds a byte, measured. */
struct rate {
	double		 sec;
	uint64_t	 bytes;
};

/* What the two threads share while reading a file. */
struct ahead {
	pthread_mutex_t	 lock;
	pthread_cond_t	 cond;
	int		 fd;		/* a file, */
	struct strsrc	*names;		/*   long names left in it, or NULL */
	struct relay	*r;		/*   or chunks in memory: */
	char		*hdr;		/*   the header's bytes, */
	int		 ended;		/*   all known, */
	int		 failed;	/*   the last after a read error */
	const char	*path;
	size_t		 block;		/* bytes a read */
	const struct parse_opts *o;
	struct parse_opts opts;		/*   (o, its lines not summed) */
	const struct profile *lead;	/* the main thread's profile */
	uint64_t	 hdr_end;	/* the file's header: [0, hdr_end) */
	struct fileids	*fileids;	/* what every parser knows of file
					   ids' lines kept (parse_ahead.h) */
	struct chunk	*chunks;	/* in memory: a ring (ahead_at()) */
	size_t		 nchunks;	/*   known */
	size_t		 cur;		/* the chunk the main thread is at, */
	double		 cur_end;	/*   when it should be done with it */
	size_t		 held;		/* chunks taken ahead, not adopted, */
	size_t		 hold;		/*   at most */
	size_t		 last;		/* the last chunk taken ahead, or 0 */
	struct rate	 feed;		/* how fast the main thread reads, */
	struct rate	 adopt;		/*   adopts, */
	struct rate	 ahead;		/*   and the second thread reads */
	int		 quit;
	struct profile_size size;	/* second thread: its last segment's */
	struct parser_size psize;	/*   profile and parser */
	struct profile	*pool[AHEAD_POOL]; /* profiles taken, to use again */
	size_t		 npool;
};

static struct chunk *ahead_at(const struct ahead *, size_t);
static void	ahead_learn(struct ahead *);
static int	ahead_more(struct ahead *, size_t, int);
static int	ahead_pump(struct ahead *);
static double	ahead_now(void);
static double	ahead_cost(const struct rate *, const struct chunk *);
static void	ahead_count(struct rate *, const struct chunk *, double);
static size_t	ahead_next(struct ahead *);
static int	ahead_feed(const struct ahead *, struct parser *,
		    const struct chunk *, char *, uint64_t, uint64_t);
static void	ahead_chunk(struct ahead *, struct chunk *, char *);
static struct profile *ahead_profile(struct ahead *);
static void	ahead_free_segs(struct ahead *, struct chunk *);
static void	*ahead_thread(void *);
static int	ahead_header_end(int, uint64_t, uint64_t *);
static int	ahead_header_scan(const char *, size_t, uint64_t *);
static size_t	ahead_scan_fn(const char *, size_t);
static size_t	ahead_cut(const char *, size_t);
static uint64_t	ahead_find_fn(int, uint64_t, uint64_t, char *);
static uint64_t	ahead_step(uint64_t, uint64_t, uint64_t);
static size_t	ahead_bounds(int, uint64_t, uint64_t, uint64_t, uint64_t,
		    struct chunk **);
static int	ahead_take(struct ahead *, struct parser *, struct chunk *,
		    char *, uint64_t *);
static void	ahead_malloc(void);
static void	ahead_malloc_done(void);
static int	ahead_run(struct ahead *, struct parser *, uint64_t,
		    const struct parse_opts *);

/* Return chunk k of a (known: k < a->nchunks). */
static struct chunk *
ahead_at(const struct ahead *a, size_t k)
{
	return &a->chunks[a->r != NULL ? k % AHEAD_RING : k];
}

/*
 * Learn the chunks in memory that the relay has read since last asked
 * (called with the lock held).
 */
static void
ahead_learn(struct ahead *a)
{
	struct relay_chunk	 rc;
	struct chunk		*c;
	uint64_t		 n;

	if (a->r == NULL || a->ended)
		return;
	for (n = relay_filled(a->r); a->nchunks < n; a->nchunks++) {
		if (relay_block(a->r, a->nchunks, &rc) <= 0) {
			a->ended = 1;
			a->failed = rc.n < 0;
			return;
		}
		c = ahead_at(a, a->nchunks);
		memset(c, 0, sizeof(*c));
		c->start = rc.start;
		c->end = rc.start + (uint64_t)rc.n;
		c->mem = rc.buf;
		c->tell = rc.tell;
		c->seam = rc.seam;
	}
}

/*
 * Wait, with the lock held, until chunk k is known or none will be (for
 * the second thread, ahead, also once told to quit); return nonzero if
 * it is.  A file's chunks are all known at the start.
 */
static int
ahead_more(struct ahead *a, size_t k, int ahead)
{
	ahead_learn(a);
	while (k >= a->nchunks && a->r != NULL && !a->ended &&
	    !(ahead && a->quit)) {
		pthread_mutex_unlock(&a->lock);
		(void)relay_wait(a->r, k);
		pthread_mutex_lock(&a->lock);
		ahead_learn(a);
	}
	return k < a->nchunks;
}

/*
 * Read (decompress) the next chunk of a relay in this thread, the lock
 * let go meanwhile, if it can (relay_pump()); return 1 if it did.
 */
static int
ahead_pump(struct ahead *a)
{
	int	done;

	if (a->r == NULL || a->ended)
		return 0;
	pthread_mutex_unlock(&a->lock);
	done = relay_pump(a->r);
	pthread_mutex_lock(&a->lock);
	ahead_learn(a);
	return done;
}

/* Return the time in seconds, from an arbitrary start. */
static double
ahead_now(void)
{
	struct timespec	ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Return the seconds that chunk c should take at rate r. */
static double
ahead_cost(const struct rate *r, const struct chunk *c)
{
	if (r->bytes == 0)
		return 0;
	return r->sec / (double)r->bytes * (double)(c->end - c->start);
}

/* Count sec seconds spent on chunk c in rate r. */
static void
ahead_count(struct rate *r, const struct chunk *c, double sec)
{
	r->sec += sec;
	r->bytes += c->end - c->start;
}

/*
 * Return the chunk that the second thread should take next (called
 * with the lock held): the first known after its last that starts at a
 * line "fn=" and that it can read, at the speed measured so far, before
 * the main thread reaches it, or a->nchunks if none.  Until both
 * threads have read a chunk, it is the one after the main thread's
 * next.  Tests may want the odd chunks.
 */
static size_t
ahead_next(struct ahead *a)
{
	const struct chunk *c;
	size_t	k, first;
	double	eta;

	if (hooks.alternate) {
		/* The main thread reads those not at a line "fn=". */
		k = a->last == 0 ? 1 : a->last + 2;
		while (k < a->nchunks && (k < a->cur || !ahead_at(a, k)->seam))
			k += 2;
		return k < a->nchunks ? k : a->nchunks;
	}
	first = a->last + 1 > a->cur + 2 ? a->last + 1 : a->cur + 2;
	while (first < a->nchunks && !ahead_at(a, first)->seam)
		first++;
	if (a->feed.bytes == 0 || a->ahead.bytes == 0 || first >= a->nchunks)
		return first < a->nchunks ? first : a->nchunks;
	eta = a->cur_end - ahead_now();
	if (eta < 0)
		eta = 0;
	for (k = a->cur + 1; k < a->nchunks; k++) {
		c = ahead_at(a, k);
		if (k >= first && c->seam && eta >= ahead_cost(&a->ahead, c))
			return k;
		eta += ahead_cost(c->ahead ? &a->adopt : &a->feed, c);
	}
	return a->nchunks;
}

/*
 * Feed the bytes [from, to) of a's file, within chunk c (NULL: of the
 * header), to ps: from memory, or through buf (a->block bytes); stop
 * early if the parser stops.  Return -1 on a read error (said).
 */
static int
ahead_feed(const struct ahead *a, struct parser *ps, const struct chunk *c,
    char *buf, uint64_t from, uint64_t to)
{
	ssize_t	n;

	parser_seek(ps, from);
	if (a->r != NULL) {
		if (from < to)
			parser_feed(ps, c == NULL ? a->hdr + from :
			    c->mem + (from - c->start), (size_t)(to - from));
		return 0;
	}
	while (from < to && !parser_stopped(ps)) {
		n = pread(a->fd, buf, to - from < a->block ? to - from :
		    a->block, (off_t)from);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			msg(MSG_READ, a->path, 0, "%s", strerror(errno));
			return -1;
		}
		if (n == 0)
			break;		/* the file shrank: read what is */
		parser_feed(ps, buf, (size_t)n);
		from += (uint64_t)n;
	}
	return 0;
}

/* Read chunk c ahead as segments, through buf. */
static void
ahead_chunk(struct ahead *a, struct chunk *c, char *buf)
{
	struct seg	*sg;
	uint64_t	 from = c->start;
	int		 stacks;

	while (from < c->end) {
		c->segs = xgrow(c->segs, &c->segs_cap, c->nsegs + 1,
		    sizeof(*c->segs));
		sg = &c->segs[c->nsegs++];
		memset(sg, 0, sizeof(*sg));
		sg->start = from;
		msg_divert(&sg->nmsg);
		sg->p = ahead_profile(a);
		sg->ps = parser_create(sg->p, a->path, a->o);
		parser_share_fileids(sg->ps, a->fileids);
		parser_names_in(sg->ps, a->names);
		stacks = 0;
		if (ahead_feed(a, sg->ps, NULL, buf, 0, a->hdr_end) == 0 &&
		    !(stacks = parser_stacks(sg->ps)) &&
		    parser_spec(sg->ps) == 0) {
			profile_reserve(sg->p, &a->size);
			parser_reserve(sg->ps, &a->psize);
			(void)ahead_feed(a, sg->ps, c, buf, from, c->end);
			profile_size(sg->p, &a->size);
			parser_size(sg->ps, &a->psize);
		} else
			sg->nmsg++;
		msg_divert(NULL);
		if (stacks) {
			/* An xtree file's stacks: nothing more read ahead. */
			pthread_mutex_lock(&a->lock);
			a->quit = 1;
			pthread_mutex_unlock(&a->lock);
		}
		/* A last line without a newline is the main thread's. */
		sg->stop = parser_resume(sg->ps);
		if (sg->nmsg > 0 || sg->stop >= c->end)
			break;
		if (a->r != NULL)
			from = sg->stop + ahead_scan_fn(c->mem + (sg->stop -
			    c->start), (size_t)(c->end - sg->stop));
		else
			from = ahead_find_fn(a->fd, sg->stop, c->end, buf);
	}
}

/*
 * Return an empty profile for a segment: one used before, if any; its
 * long names are compressed as the main thread's profile's are (if it
 * compresses them yet), to be adopted as they are.
 */
static struct profile *
ahead_profile(struct ahead *a)
{
	struct profile	*p = NULL;

	pthread_mutex_lock(&a->lock);
	if (a->npool > 0)
		p = a->pool[--a->npool];
	pthread_mutex_unlock(&a->lock);
	if (p == NULL)
		p = profile_create();
	else
		profile_clear(p);
	profile_follow(p, a->lead);
	return p;
}

/*
 * Free the segments of chunk c; their profiles go to the pool for the
 * second thread to fill again (their pages are touched already).
 */
static void
ahead_free_segs(struct ahead *a, struct chunk *c)
{
	size_t	i;

	for (i = 0; i < c->nsegs; i++) {
		parser_discard(c->segs[i].ps);
		pthread_mutex_lock(&a->lock);
		if (a->npool < AHEAD_POOL) {
			a->pool[a->npool++] = c->segs[i].p;
			c->segs[i].p = NULL;
		}
		pthread_mutex_unlock(&a->lock);
		profile_free(c->segs[i].p);
	}
	free(c->segs);
	c->segs = NULL;
	c->nsegs = c->segs_cap = 0;
}

/*
 * The second thread: take chunks ahead of the main thread (see
 * ahead_next()) and read them, holding at most a->hold that the main
 * thread has not adopted.
 */
static void *
ahead_thread(void *arg)
{
	struct ahead	*a = arg;
	struct chunk	*c;
	char		*buf;
	size_t		 k;
	double		 t;

	buf = a->r != NULL ? NULL : xmalloc(a->block);
	pthread_mutex_lock(&a->lock);
	for (;;) {
		/* ahead_pump() lets go of the lock: look again after it. */
		while (!a->quit && a->held >= a->hold)
			if (!ahead_pump(a) && !a->quit && a->held >= a->hold)
				pthread_cond_wait(&a->cond, &a->lock);
		if (a->quit)
			break;
		ahead_learn(a);
		/* Decompressing: keep the main thread's next chunks read. */
		if (a->r != NULL && a->nchunks < a->cur + AHEAD_LEAD &&
		    ahead_pump(a))
			continue;
		if ((k = ahead_next(a)) >= a->nchunks) {
			/* In memory, wait for the next chunk, if any. */
			if (a->r == NULL || a->ended || !ahead_more(a, k, 1))
				break;
			continue;
		}
		c = ahead_at(a, k);
		c->ahead = 1;
		a->last = k;
		a->held++;
		pthread_cond_broadcast(&a->cond);
		pthread_mutex_unlock(&a->lock);
		t = ahead_now();
		ahead_chunk(a, c, buf);
		t = ahead_now() - t;
		pthread_mutex_lock(&a->lock);
		ahead_count(&a->ahead, c, t);
		c->done = 1;
		pthread_cond_broadcast(&a->cond);
	}
	pthread_mutex_unlock(&a->lock);
	free(buf);
	return NULL;
}

/*
 * Find where the header at the start of fd (size bytes) ends: the first
 * line that is neither blank, a comment nor "key: value".  Return -1 if
 * it is not within the first window.
 */
static int
ahead_header_end(int fd, uint64_t size, uint64_t *end)
{
	char		*buf;
	ssize_t		 n;
	int		 rc;

	buf = xmalloc(AHEAD_WINDOW);
	n = pread(fd, buf, size < AHEAD_WINDOW ? size : AHEAD_WINDOW, 0);
	rc = ahead_header_scan(buf, n > 0 ? (size_t)n : 0, end);
	free(buf);
	return rc;
}

/*
 * Find where the header at the start of the n bytes at buf ends, as
 * ahead_header_end(); return -1 if not within them.
 */
static int
ahead_header_scan(const char *buf, size_t n, uint64_t *end)
{
	const char	*s, *e, *nl, *k;

	for (s = buf, e = buf + n;
	    (nl = memchr(s, '\n', e - s)) != NULL; s = nl + 1) {
		for (k = s; k < nl && num_is_space(*k); k++)
			continue;
		if (k == nl || *k == '#' || *k == '\r')
			continue;
		for (k = s; k < nl && *k != '=' && *k != ':' &&
		    !num_is_space(*k); k++)
			continue;
		if (k < nl && *k == ':')
			continue;
		*end = (uint64_t)(s - buf);
		return 0;
	}
	return -1;
}

/*
 * Return the offset in the n bytes at s of the first line "fn=" (one
 * starting at s does not count), or n if there is none.
 */
static size_t
ahead_scan_fn(const char *s, size_t n)
{
	const char	*p, *e;

	if (n < 4)
		return n;
	for (p = s, e = s + n - 3; p < e; p++)
		if ((p = memchr(p, '\n', e - p)) == NULL)
			break;
		else if (memcmp(p + 1, "fn=", 3) == 0)
			return (size_t)(p + 1 - s);
	return n;
}

/*
 * Return where a chunk of the n bytes at s may end (relay_cut()): at
 * the last line "fn=" whole in them (one starting at s does not count),
 * or 0.
 */
static size_t
ahead_cut(const char *s, size_t n)
{
	size_t	i;

	for (i = n >= 4 ? n - 3 : 0; i > 0; i--)
		if (s[i - 1] == '\n' && memcmp(s + i, "fn=", 3) == 0)
			return i;
	return 0;
}

/*
 * Return the offset of the first line "fn=" after offset at (a line
 * starting there does not count) and before limit, or limit; buf holds
 * AHEAD_WINDOW bytes.  One usually follows within a few kilobytes: the
 * reads start small and double.
 */
static uint64_t
ahead_find_fn(int fd, uint64_t at, uint64_t limit, char *buf)
{
	ssize_t		 r;
	size_t		 k, want = 4096;

	while (at < limit) {
		r = pread(fd, buf, limit - at < want ? limit - at : want,
		    (off_t)at);
		if (r < 4)
			break;
		/* A newline followed by "fn=". */
		if ((k = ahead_scan_fn(buf, (size_t)r)) < (size_t)r)
			return at + k;
		at += (uint64_t)r - 3;
		if (want < AHEAD_WINDOW)
			want *= 2;
	}
	return limit;
}

/*
 * Return the length of the next chunk when rest bytes remain: step, but
 * an eighth of the rest near the end, down to least, so that the two
 * threads end close together.
 */
static uint64_t
ahead_step(uint64_t rest, uint64_t step, uint64_t least)
{
	if (rest / 8 < step)
		step = rest / 8;
	return step > least ? step : least;
}

/*
 * Cut fd (size bytes, its header ending at from) into chunks of about
 * step bytes (less near the end, not below least), each starting at a
 * line "fn=" (the first at 0); return how many, in *cp.
 */
static size_t
ahead_bounds(int fd, uint64_t size, uint64_t from, uint64_t step,
    uint64_t least, struct chunk **cp)
{
	struct chunk	*c = NULL;
	size_t		 n = 0, cap = 0;
	char		*buf;
	uint64_t	 at, start = 0;

	buf = xmalloc(AHEAD_WINDOW);
	for (at = from + step; at < size;
	    at = start + ahead_step(size - start, step, least)) {
		if ((at = ahead_find_fn(fd, at, size, buf)) == size)
			break;
		c = xgrow(c, &cap, n + 1, sizeof(*c));
		memset(&c[n], 0, sizeof(c[n]));
		c[n].start = start;
		c[n].end = start = at;
		c[n].seam = n > 0;
		n++;
	}
	free(buf);
	c = xgrow(c, &cap, n + 1, sizeof(*c));
	memset(&c[n], 0, sizeof(c[n]));
	c[n].start = start;
	c[n].end = size;
	c[n].seam = n > 0;
	*cp = c;
	return n + 1;
}

/*
 * Take over chunk c, read ahead, in ps, which has read up to its start
 * (*at): adopt each of its segments, and read what lies between them and
 * any that cannot be adopted; *at becomes where ps must go on.  Return
 * -1 after a read error (said), else 0.
 */
static int
ahead_take(struct ahead *a, struct parser *ps, struct chunk *c, char *buf,
    uint64_t *at)
{
	struct seg	*sg;
	size_t		 i;
	int		 rc = 0;

	for (i = 0; i < c->nsegs && rc == 0 && !parser_stopped(ps); i++) {
		sg = &c->segs[i];
		if (*at < sg->start)
			rc = ahead_feed(a, ps, c, buf, *at, sg->start);
		*at = sg->start;
		if (rc == 0 && !parser_stopped(ps) &&
		    parser_adopt(ps, sg->ps, sg->nmsg) == 0) {
			*at = sg->stop;
			if (hooks.nadopted != NULL)
				(*hooks.nadopted)++;
		}
	}
	return rc;
}

/*
 * Have malloc map every table of AHEAD_MMAP bytes and more on its own,
 * as it does by default until tables are freed: it then raises that
 * threshold to their size, up to 32 MB, and tables that grow copy
 * themselves within the heap, leaving holes that stay resident (11 MB of
 * cc1's 27 MB heap).  Mapped, they grow without copies (mremap(2)) and
 * are returned when freed.  Against a threshold of 8 MB with the heap
 * prefaulted by the second thread, the peak fell by 14-35 MB on every
 * benchmark file of 56 MB and more (cc1's: 68 -> 44 MB), for no time on
 * the 300 MB files and 8% on cc1's; on smaller files it does not change.
 */
static void
ahead_malloc(void)
{
#if defined(M_MMAP_THRESHOLD)
	(void)mallopt(M_MMAP_THRESHOLD, AHEAD_MMAP);
#endif
}

/*
 * The file read, have malloc take tables below AHEAD_MMAP_AFTER from the
 * heap again, as its own threshold would have risen to had ahead_malloc()
 * not fixed it: the views' big tables, made and freed one after another
 * (an export's per event), then reuse the heap's pages instead of
 * mapping fresh ones each time.  Page faults: speedscope of the 100 MB
 * large-C++ synthetic 40,000 -> 25,600, of cc1plus 15,400 -> 11,800;
 * pprof of cc1 with cache simulation 25,100 -> 19,700; peaks 0-8 MB
 * higher.
 */
static void
ahead_malloc_done(void)
{
#if defined(M_MMAP_THRESHOLD)
	(void)mallopt(M_MMAP_THRESHOLD, AHEAD_MMAP_AFTER);
#endif
}

/*
 * Read the plain file fd in two threads if it is worth it; return 1 if
 * not (nothing read), else 0, or -1 after a read error.
 */
int
ahead_read(struct parser *ps, int fd, const char *path,
    const struct parse_opts *o)
{
	struct ahead	 a;
	struct stat	 st;
	uint64_t	 size, step, least;
	int		 rc;

	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode))
		return 1;
	size = (uint64_t)st.st_size;
	if (hooks.chunk > 0) {
		step = hooks.chunk;
		least = (step + 7) / 8;
	} else if (size < AHEAD_MIN || sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return 1;
	else {
		step = AHEAD_CHUNK;
		least = AHEAD_CHUNK / 8;
	}
	memset(&a, 0, sizeof(a));
	if (ahead_header_end(fd, size, &a.hdr_end) == -1 ||
	    (a.nchunks = ahead_bounds(fd, size, a.hdr_end, step, least,
	    &a.chunks)) < 2) {
		free(a.chunks);
		return 1;
	}
	a.fd = fd;
	a.names = parser_names_file(ps);
	a.path = path;
	rc = ahead_run(&a, ps, size, o);
	free(a.chunks);
	return rc;
}

/*
 * Read the compressed file in (size: the bytes it is reckoned to hold,
 * 0 if not a file) in two threads, decompressed by a third into chunks
 * in memory, if it is worth it.  Not a pipe: a chunk would wait for its
 * last byte where the parser may go on, or stop, without it.  Return 1
 * if not (nothing read), else 0, or -1 after a read error (kept with
 * the input: input_report()).
 */
int
ahead_stream(struct parser *ps, struct input *in, const char *path,
    uint64_t size, const struct parse_opts *o)
{
	struct ahead		 a;
	struct relay_chunk	 rc0;
	size_t			 step;
	int			 rc;

	if (size == 0 || !input_compressed(in))
		return 1;
	if (hooks.chunk > 0)
		step = hooks.chunk;
	else if (size < AHEAD_MIN)
		return 1;
	else
		step = AHEAD_CHUNK;
	memset(&a, 0, sizeof(a));
	if ((a.r = relay_cut(in, step, ahead_cut)) == NULL)
		return 1;
	a.chunks = xcalloc(AHEAD_RING, sizeof(*a.chunks));
	a.path = path;
	a.fd = -1;
	/* The header, for every chunk read ahead; none if not in the first. */
	if (relay_block(a.r, 0, &rc0) > 0 && ahead_header_scan(rc0.buf,
	    (size_t)rc0.n < AHEAD_WINDOW ? (size_t)rc0.n : AHEAD_WINDOW,
	    &a.hdr_end) == 0) {
		a.hdr = xmalloc(a.hdr_end + 1);
		memcpy(a.hdr, rc0.buf, a.hdr_end);
	}
	rc = ahead_run(&a, ps, size, o);
	relay_stop(a.r);
	free(a.hdr);
	free(a.chunks);
	return rc == 0 && a.failed ? -1 : rc;
}

/*
 * Read a's chunks into ps, the main thread's parser, those it can
 * ahead in a second thread (size: the file's bytes, reckoned); return 0,
 * or -1 after a read error (said).
 */
static int
ahead_run(struct ahead *a, struct parser *ps, uint64_t size,
    const struct parse_opts *o)
{
	struct chunk	*c;
	pthread_t	 thr;
	uint64_t	 at = 0;
	double		 t0;
	char		*buf;
	size_t		 k;
	int		 rc = 0, started = 0;

	a->o = o;
	if (o != NULL && o->lines != NULL && !parser_sums(ps)) {
		/* No file's lines summed here (parser_create()): nor ahead. */
		a->opts = *o;
		a->opts.lines = NULL;
		a->o = &a->opts;
	}
	a->lead = parser_profile(ps);
	a->fileids = fileids_new();
	parser_share_fileids(ps, a->fileids);
#ifdef M_ARENA_MAX
	/*
	 * The second thread's profiles are freed by the main thread.  With
	 * one malloc arena they are made in it and their memory is used
	 * again for the next ones, so the peak stays flat however big the
	 * file (two arenas: cc1's 56 MB 12 MB more and 3% slower).  On a
	 * small file both threads build their tables from nothing at the
	 * start: an arena each spares them waiting for one lock (cc1 with
	 * cache simulation, 13.6 MB: 2-5% faster, the same peak), unless
	 * stacks are kept: a flame graph or an export follows, whose big
	 * tables, made and freed, reuse the second thread's pages in one
	 * arena (speedscope of that file: 20,000 -> 11,000 page faults,
	 * 8-19% faster; text, callgrind and pprof the same either way).
	 */
	(void)mallopt(M_ARENA_MAX, size >= AHEAD_ARENAS || (o != NULL &&
	    o->stacks) ? 1 : 2);
#endif
	/*
	 * The chunks' profiles held ahead are a large part of a small
	 * file's peak: cc1 with cache simulation, 13.6 MB, 11.8 MB holding
	 * three, 11.1 MB holding two, in the same time.
	 */
	a->hold = size >= AHEAD_ARENAS ? AHEAD_HELD : AHEAD_HELD_SMALL;
	/*
	 * Each thread's buffer is fresh memory, a sizeable share of a small
	 * file's run (cc1 with cache simulation, 13.6 MB: 3-5 ms faster in
	 * reads of 64 KB, 100 page faults fewer); a large file is read from
	 * the host's cache faster in larger reads (the large C++ program of
	 * 300 MB: 10% slower in reads of 64 KB).
	 */
	a->block = size >= AHEAD_ARENAS ? AHEAD_BLOCK : AHEAD_BLOCK_SMALL;
	ahead_malloc();
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->cond, NULL);
	/* Without a header known, the main thread reads alone. */
	if ((a->r == NULL || a->hdr != NULL) &&
	    pthread_create(&thr, NULL, ahead_thread, a) == 0)
		started = 1;
	else if (a->r != NULL)
		a->quit = 1;
	else {
		pthread_mutex_destroy(&a->lock);
		pthread_cond_destroy(&a->cond);
		parser_share_fileids(ps, NULL);
		fileids_free(a->fileids);
		ahead_malloc_done();
		return 1;
	}
	buf = a->r != NULL ? NULL : xmalloc(a->block);
	for (k = 0; rc == 0 && !parser_stopped(ps); k++) {
		pthread_mutex_lock(&a->lock);
		if (!ahead_more(a, k, 0)) {
			pthread_mutex_unlock(&a->lock);
			break;
		}
		c = ahead_at(a, k);
		a->cur = k;
		while (hooks.alternate && k % 2 == 1 && c->seam &&
		    !c->ahead && !a->quit)
			pthread_cond_wait(&a->cond, &a->lock);
		while (c->ahead && !c->done)
			if (!ahead_pump(a) && !c->done)
				pthread_cond_wait(&a->cond, &a->lock);
		t0 = ahead_now();
		a->cur_end = t0 + ahead_cost(c->ahead ? &a->adopt : &a->feed, c);
		pthread_mutex_unlock(&a->lock);
		if (c->ahead) {
			rc = ahead_take(a, ps, c, buf, &at);
			ahead_free_segs(a, c);
		}
		if (rc == 0 && at < c->end)
			rc = ahead_feed(a, ps, c, buf, at, c->end);
		at = c->end;
		msg_progress(a->r != NULL ? c->tell : at);
		pthread_mutex_lock(&a->lock);
		ahead_count(c->ahead ? &a->adopt : &a->feed, c,
		    ahead_now() - t0);
		if (c->ahead) {
			a->held--;
			pthread_cond_broadcast(&a->cond);
		}
		/* Past it before its memory is read into again. */
		a->cur = k + 1;
		pthread_mutex_unlock(&a->lock);
		if (a->r != NULL)
			relay_release(a->r, k + 1);
	}
	pthread_mutex_lock(&a->lock);
	a->quit = 1;
	pthread_cond_broadcast(&a->cond);
	pthread_mutex_unlock(&a->lock);
	if (a->r != NULL)
		relay_quit(a->r);
	if (started)
		pthread_join(thr, NULL);
	for (k = 0; k < (a->r != NULL ? AHEAD_RING : a->nchunks); k++)
		ahead_free_segs(a, &a->chunks[k]);
	while (a->npool > 0)
		profile_free(a->pool[--a->npool]);
	/*
	 * No malloc_trim(): the chunks' profiles' tables of 128 KB and more
	 * were mapped and are returned as they are freed, and the rest is
	 * used again by the report; trimming took 1.2-1.8 ms, and the pages
	 * it gave back were faulted in again (cc1 with cache simulation:
	 * 4.5 ms a run; the peak unchanged on every benchmark profile, with
	 * or without --asm=yes).
	 */
	pthread_mutex_destroy(&a->lock);
	pthread_cond_destroy(&a->cond);
	parser_share_fileids(ps, NULL);
	fileids_free(a->fileids);
	free(buf);
	ahead_malloc_done();
	return rc;
}

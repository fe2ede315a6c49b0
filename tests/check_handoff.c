/*
 * check_handoff.c - records made in a second thread, taken in order; or
 * made by two, each its blocks in turn; or made ahead of a slow taker.
 */
#include "base/compat.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/handoff.h"
#include "check_suites.h"
#include "check_util.h"

#define NREC	200000		/* records made */
#define BIG	300000		/* words of the one record larger than a
				   buffer */
#define BIGAT	77777		/* its place */

/* The maker's plan and the taker's findings. */
struct hcase {
	uint32_t	 stop_after;	/* the taker fails at this buffer (0:
					   never) */
	uint32_t	 made;		/* records given */
	int		 refused;	/* handoff_room() said NULL */
	uint32_t	 taken;		/* records taken, in order */
	uint32_t	 buffers;	/* calls of the taker */
	int		 bad;		/* a record out of order or wrong */
};

/* Return the length of record i: 2 to 41 words, one of BIG words. */
static size_t
hlen(uint32_t i)
{
	return i == BIGAT ? BIG : 2 + (i * 7919u) % 40;
}

/*
 * Give record i to h: its number, then words of it and their place;
 * return -1 if handoff_room() refused.
 */
static int
hrecord(struct handoff *h, uint32_t i)
{
	uint32_t	*r;
	size_t		 n = hlen(i), j;

	if ((r = handoff_room(h, n)) == NULL)
		return -1;
	r[0] = i;
	for (j = 1; j < n; j++)
		r[j] = i ^ (uint32_t)j;
	handoff_put(h, n);
	return 0;
}

/* Make NREC records (hrecord()). */
static void
hmake(void *arg, struct handoff *h)
{
	struct hcase	*c = arg;
	uint32_t	 i;

	for (i = 0; i < NREC; i++) {
		if (hrecord(h, i) == -1) {
			c->refused = 1;
			return;
		}
		c->made++;
	}
}

/* Check the records of one buffer against hmake()'s; fail if told to. */
static int
htake(void *arg, const uint32_t *w, size_t n)
{
	struct hcase	*c = arg;
	const uint32_t	*end = w + n;
	size_t		 len, j;

	c->buffers++;
	while (w < end) {
		if (w[0] != c->taken) {
			c->bad = 1;
			return -1;
		}
		len = hlen(w[0]);
		if ((size_t)(end - w) < len) {
			c->bad = 1;	/* a record cut between buffers */
			return -1;
		}
		for (j = 1; j < len; j++)
			if (w[j] != (w[0] ^ (uint32_t)j))
				c->bad = 1;
		w += len;
		c->taken++;
	}
	return c->buffers == c->stop_after ? -1 : 0;
}

/* Every record arrives whole and in order, the large one too. */
START_TEST(test_handoff_order)
{
	struct hcase	c;

	memset(&c, 0, sizeof(c));
	ck_assert_int_eq(handoff_run(hmake, &c, htake, &c), 0);
	ck_assert_int_eq(c.bad, 0);
	ck_assert_int_eq(c.refused, 0);
	ck_assert_uint_eq(c.made, NREC);
	ck_assert_uint_eq(c.taken, NREC);
	/* Several buffers: the swap is what is tested. */
	ck_assert_uint_gt(c.buffers, 3);
}
END_TEST

/*
 * A taker's failure stops the maker (handoff_room() says so) and is
 * returned; nothing is taken after it.
 */
START_TEST(test_handoff_fail)
{
	struct hcase	c;
	uint32_t	taken;

	memset(&c, 0, sizeof(c));
	c.stop_after = 2;
	ck_assert_int_eq(handoff_run(hmake, &c, htake, &c), -1);
	ck_assert_int_eq(c.bad, 0);
	ck_assert_int_eq(c.refused, 1);
	ck_assert_uint_lt(c.made, NREC);
	ck_assert_uint_eq(c.buffers, 2);
	taken = c.taken;
	ck_assert_uint_lt(taken, c.made + 1);
}
END_TEST

/* A maker that gives nothing: the taker is never called. */
static void
hnone(void *arg, struct handoff *h)
{
	(void)arg;
	(void)h;
}

START_TEST(test_handoff_empty)
{
	struct hcase	c;

	memset(&c, 0, sizeof(c));
	ck_assert_int_eq(handoff_run(hnone, &c, htake, &c), 0);
	ck_assert_uint_eq(c.buffers, 0);
}
END_TEST

/* Two makers' plan: blocks of records, the blocks' ends. */
struct tcase {
	struct hcase	*c;		/* the records, shared */
	uint32_t	 first;		/* the maker's first block */
	uint32_t	 nblocks;	/* blocks in all */
	int		 refused;
};

/*
 * Block b's first record: blocks of 1 to 3,000 records, one of them
 * holding the record of BIG words.
 */
static uint32_t
tstart(uint32_t b)
{
	uint32_t	i, n = 0;

	for (i = 0; i < b; i++)
		n += 1 + ((i + 1) * 2654435761u) % 3000;
	return n < NREC ? n : NREC;
}

/* Make every second block of records, from t->first on, as hmake(). */
static void
tmake(void *arg, struct handoff *h)
{
	struct tcase	*t = arg;
	uint32_t	 b, i;

	for (b = t->first; b < t->nblocks; b += 2) {
		for (i = tstart(b); i < tstart(b + 1); i++)
			if (hrecord(h, i) == -1) {
				t->refused = 1;
				return;
			}
		if (handoff_block(h) == -1) {
			t->refused = 1;
			return;
		}
	}
}

/* Run two makers of the records in blocks; stop the taker as c says. */
static int
turns_run(struct hcase *c, struct tcase *t)
{
	void		*args[2];
	uint32_t	 nb;
	int		 i;

	for (nb = 0; tstart(nb) < NREC; nb++)
		continue;
	for (i = 0; i < 2; i++) {
		memset(&t[i], 0, sizeof(t[i]));
		t[i].c = c;
		t[i].first = (uint32_t)i;
		t[i].nblocks = nb;
		args[i] = &t[i];
	}
	return handoff_turns(tmake, args, 2, htake, c);
}

/*
 * Two makers in turn: every record arrives whole and in order, though
 * each maker hands its blocks as they come (an odd number of them: the
 * first maker makes the last).
 */
START_TEST(test_handoff_turns)
{
	struct hcase	c;
	struct tcase	t[2];
	uint32_t	nb;

	for (nb = 0; tstart(nb) < NREC; nb++)
		continue;
	ck_assert_uint_gt(nb, 100);
	memset(&c, 0, sizeof(c));
	ck_assert_int_eq(turns_run(&c, t), 0);
	ck_assert_int_eq(c.bad, 0);
	ck_assert_int_eq(t[0].refused, 0);
	ck_assert_int_eq(t[1].refused, 0);
	ck_assert_uint_eq(c.taken, NREC);
	/* A buffer a block, at least. */
	ck_assert_uint_ge(c.buffers, nb);
}
END_TEST

/* The taker's failure stops both makers; what was taken was in order. */
START_TEST(test_handoff_turns_fail)
{
	struct hcase	c;
	struct tcase	t[2];

	memset(&c, 0, sizeof(c));
	c.stop_after = 7;
	ck_assert_int_eq(turns_run(&c, t), -1);
	ck_assert_int_eq(c.bad, 0);
	ck_assert_int_eq(t[0].refused, 1);
	ck_assert_int_eq(t[1].refused, 1);
	ck_assert_uint_eq(c.buffers, 7);
	ck_assert_uint_lt(c.taken, NREC);
}
END_TEST

/*
 * One block, the first maker's: the second makes nothing, and the
 * block's records come whole and in order.
 */
START_TEST(test_handoff_turns_one)
{
	struct hcase	c;
	struct tcase	t[2];
	void		*args[2];
	int		 i;

	memset(&c, 0, sizeof(c));
	for (i = 0; i < 2; i++) {
		memset(&t[i], 0, sizeof(t[i]));
		t[i].c = &c;
		t[i].first = (uint32_t)i;
		t[i].nblocks = 1;
		args[i] = &t[i];
	}
	ck_assert_int_eq(handoff_turns(tmake, args, 2, htake, &c), 0);
	ck_assert_int_eq(c.bad, 0);
	ck_assert_uint_gt(tstart(1), 1);
	ck_assert_uint_eq(c.taken, tstart(1));
}
END_TEST

/* A maker allowed ahead (handoff_deep()), and a taker that waits on it. */
struct dcase {
	struct hcase	 c;
	size_t		 deep;		/* words the maker may hold */
	uint32_t	 wait_for;	/* the taker's first call waits for
					   this many records made */
	size_t		 most;		/* the longest buffer taken */
	pthread_mutex_t	 lock;
	pthread_cond_t	 cond;
};

/* Make NREC records as hmake() does, ahead of the taker up to d->deep. */
static void
dmake(void *arg, struct handoff *h)
{
	struct dcase	*d = arg;
	uint32_t	 i;

	handoff_deep(h, d->deep);
	for (i = 0; i < NREC; i++) {
		if (hrecord(h, i) == -1) {
			d->c.refused = 1;
			return;
		}
		pthread_mutex_lock(&d->lock);
		d->c.made++;
		pthread_cond_broadcast(&d->cond);
		pthread_mutex_unlock(&d->lock);
	}
}

/* Take as htake() does, the first buffer once d->wait_for are made. */
static int
dtake(void *arg, const uint32_t *w, size_t n)
{
	struct dcase	*d = arg;

	pthread_mutex_lock(&d->lock);
	while (d->c.buffers == 0 && d->c.made < d->wait_for)
		pthread_cond_wait(&d->cond, &d->lock);
	pthread_mutex_unlock(&d->lock);
	if (n > d->most)
		d->most = n;
	return htake(&d->c, w, n);
}

/* Run dmake() and dtake() with deep and wait_for; return handoff_run()'s. */
static int
deep_run(struct dcase *d, size_t deep, uint32_t wait_for)
{
	int	rc;

	memset(d, 0, sizeof(*d));
	d->deep = deep;
	d->wait_for = wait_for;
	pthread_mutex_init(&d->lock, NULL);
	pthread_cond_init(&d->cond, NULL);
	rc = handoff_run(dmake, d, dtake, d);
	pthread_mutex_destroy(&d->lock);
	pthread_cond_destroy(&d->cond);
	return rc;
}

/*
 * A maker allowed as far ahead as it needs makes every record while the
 * taker waits on its first buffer (else both would wait for ever, and
 * the test time out), and the records come whole and in order.
 */
START_TEST(test_handoff_deep)
{
	struct dcase	d;

	ck_assert_int_eq(deep_run(&d, (size_t)1 << 24, NREC), 0);
	ck_assert_int_eq(d.c.bad, 0);
	ck_assert_int_eq(d.c.refused, 0);
	ck_assert_uint_eq(d.c.taken, NREC);
	/* It did go ahead: the taker found more than a buffer's worth. */
	ck_assert_uint_gt(d.most, (size_t)1 << 20);
}
END_TEST

/*
 * A maker allowed a million words ahead goes that far past a taker that
 * waits for 40,000 records (about 900,000 words), and no further: no
 * buffer taken holds more (or the one record larger than a buffer).
 */
START_TEST(test_handoff_deep_bound)
{
	struct dcase	d;

	ck_assert_int_eq(deep_run(&d, (size_t)1 << 20, 40000), 0);
	ck_assert_int_eq(d.c.bad, 0);
	ck_assert_uint_eq(d.c.taken, NREC);
	ck_assert_uint_gt(d.most, (size_t)1 << 18);
	ck_assert_uint_le(d.most, ((size_t)1 << 20) + BIG);
}
END_TEST

Suite *
make_handoff_suite(void)
{
	Suite	*s = suite_create("handoff");
	TCase	*tc = tcase_create("core");

	tcase_set_timeout(tc, CHECK_TIMEOUT);
	tcase_add_test(tc, test_handoff_order);
	tcase_add_test(tc, test_handoff_fail);
	tcase_add_test(tc, test_handoff_empty);
	tcase_add_test(tc, test_handoff_turns);
	tcase_add_test(tc, test_handoff_turns_fail);
	tcase_add_test(tc, test_handoff_turns_one);
	tcase_add_test(tc, test_handoff_deep);
	tcase_add_test(tc, test_handoff_deep_bound);
	suite_add_tcase(s, tc);
	return s;
}

/* check_handoff.c - records made in a second thread, taken in order. */
#include "base/compat.h"

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

/* Make NREC records: its number, then words of it and their place. */
static void
hmake(void *arg, struct handoff *h)
{
	struct hcase	*c = arg;
	uint32_t	 i, *r;
	size_t		 n, j;

	for (i = 0; i < NREC; i++) {
		n = hlen(i);
		if ((r = handoff_room(h, n)) == NULL) {
			c->refused = 1;
			return;
		}
		r[0] = i;
		for (j = 1; j < n; j++)
			r[j] = i ^ (uint32_t)j;
		handoff_put(h, n);
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

Suite *
make_handoff_suite(void)
{
	Suite	*s = suite_create("handoff");
	TCase	*tc = tcase_create("core");

	tcase_set_timeout(tc, CHECK_TIMEOUT);
	tcase_add_test(tc, test_handoff_order);
	tcase_add_test(tc, test_handoff_fail);
	tcase_add_test(tc, test_handoff_empty);
	suite_add_tcase(s, tc);
	return s;
}

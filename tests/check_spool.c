/*
 * check_spool.c - a spool gives back exactly what was written to its
 * stream, in order, across its blocks of every size.
 */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/spool.h"
#include "base/xmalloc.h"
#include "check_suites.h"
#include "check_util.h"

#define TOTAL	(7 * 1024 * 1024 + 12345)	/* past the fourth block */

/* The byte at i of the text the tests write. */
static char
pattern(size_t i)
{
	return (char)('a' + (i * 7 + (i >> 13)) % 26);
}

/*
 * Written in pieces of many sizes (one byte, odd sizes, one larger than
 * a block), by fwrite() and fprintf(), the text comes back whole.
 */
START_TEST(test_spool_copy)
{
	static const size_t	 pieces[] = { 1, 4095, 70001, 3 * 1024 * 1024,
				    17, 262144, 1 };
	struct spool		*sp = spool_open();
	FILE			*out;
	char			*want, *got = NULL;
	size_t			 i, at = 0, n, k = 0, len = 0;

	want = xmalloc(TOTAL);
	for (i = 0; i < TOTAL; i++)
		want[i] = pattern(i);
	while (at < TOTAL) {
		n = pieces[k++ % (sizeof(pieces) / sizeof(pieces[0]))];
		if (n > TOTAL - at)
			n = TOTAL - at;
		if (n == 1)
			fprintf(spool_stream(sp), "%c", want[at]);
		else
			ck_assert_uint_eq(fwrite(want + at, 1, n,
			    spool_stream(sp)), n);
		at += n;
	}
	out = open_memstream(&got, &len);
	ck_assert_ptr_nonnull(out);
	fputs("before:", out);
	ck_assert_int_eq(spool_copy(sp, out), 0);
	fclose(out);
	ck_assert_uint_eq(len, 7 + TOTAL);
	ck_assert_int_eq(memcmp(got, "before:", 7), 0);
	ck_assert_int_eq(memcmp(got + 7, want, TOTAL), 0);
	spool_free(sp);
	free(got);
	free(want);
}
END_TEST

/* Nothing written copies nothing; a spool not copied is freed whole. */
START_TEST(test_spool_empty)
{
	struct spool	*sp = spool_open();
	FILE		*out;
	char		*got = NULL;
	size_t		 len = 0;

	out = open_memstream(&got, &len);
	ck_assert_int_eq(spool_copy(sp, out), 0);
	fclose(out);
	ck_assert_uint_eq(len, 0);
	spool_free(sp);
	free(got);
	sp = spool_open();
	fputs("never copied", spool_stream(sp));
	spool_free(sp);
	spool_free(NULL);
}
END_TEST

Suite *
make_spool_suite(void)
{
	Suite	*s = suite_create("spool");
	TCase	*tc = check_tcase();

	tcase_add_test(tc, test_spool_copy);
	tcase_add_test(tc, test_spool_empty);
	suite_add_tcase(s, tc);
	return s;
}

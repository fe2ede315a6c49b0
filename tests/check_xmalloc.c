/*
 * check_xmalloc.c - the allocators' fills: xfill() fills what memset()
 * would, and xahead() makes pages present without changing a byte.
 */
#include "base/compat.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "check_suites.h"
#include "check_util.h"

#define BUF	(1024 * 1024)

/* The byte at i of the pattern the tests lay down. */
static unsigned char
pattern(size_t i)
{
	return (unsigned char)(i * 7 + (i >> 12));
}

/* Fill buf with the pattern. */
static void
lay(unsigned char *buf, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		buf[i] = pattern(i);
}

/* xfill() sets exactly the bytes it is given, small or large, aligned or not. */
START_TEST(test_fill)
{
	static const size_t sizes[] = { 0, 1, 4095, 4096, 65535, 65536,
	    65537, 200000, 1 << 19 };
	static const size_t offs[] = { 0, 3, 4096 + 5, 65536 - 1 };
	unsigned char	*buf = xmalloc(BUF), *want = xmalloc(BUF);
	size_t		 s, o;

	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
		for (o = 0; o < sizeof(offs) / sizeof(offs[0]); o++) {
			lay(buf, BUF);
			lay(want, BUF);
			memset(want + offs[o], 0xc3, sizes[s]);
			xfill(buf + offs[o], 0xc3, sizes[s]);
			ck_assert_int_eq(memcmp(buf, want, BUF), 0);
		}
	free(want);
	free(buf);
}
END_TEST

/*
 * xahead() on written memory, at every kind of step (the start, within a
 * stretch, across one or several, to the end, past it, in a small
 * array), leaves every byte as it was; on fresh memory it is still
 * written and read as any, also when asked element by element
 * (xahead_at()).
 */
START_TEST(test_ahead)
{
	static const size_t steps[][3] = {
		{ 0, 1, BUF }, { 0, 100000, BUF }, { 10, 20, BUF },
		{ 65535, 65537, BUF }, { 65536, 65536 * 3 + 7, BUF },
		{ BUF - 10, BUF, BUF }, { BUF - 10, BUF + 10, BUF },
		{ 0, 100, 4096 }, { 4000, 70000, 65536 }, { 5, 65536 + 5,
		    BUF - 3 },
	};
	unsigned char	*buf = xmalloc(BUF), *want = xmalloc(BUF), *fresh;
	size_t		 s, i;

	lay(buf, BUF);
	lay(want, BUF);
	for (s = 0; s < sizeof(steps) / sizeof(steps[0]); s++) {
		xahead(buf, steps[s][0], steps[s][1], steps[s][2]);
		xahead(buf + 1, steps[s][0], steps[s][1], steps[s][2] - 1);
	}
	ck_assert_int_eq(memcmp(buf, want, BUF), 0);
	fresh = xmalloc(BUF);
	for (i = 0; i < BUF; i += 1000) {
		xahead(fresh, i, i + 1000 < BUF ? i + 1000 : BUF, BUF);
		memset(fresh + i, 0x11, i + 1000 < BUF ? 1000 : BUF - i);
	}
	memset(want, 0x11, BUF);
	ck_assert_int_eq(memcmp(fresh, want, BUF), 0);
	/* Element by element (104 bytes, an arc's 13 costs), as arrays are. */
	for (i = 0; i < BUF / 104; i++) {
		xahead_at(fresh, i, 104, BUF / 104);
		memset(fresh + i * 104, 0x22, 104);
	}
	memset(want, 0x22, BUF / 104 * 104);
	ck_assert_int_eq(memcmp(fresh, want, BUF), 0);
	free(fresh);
	free(want);
	free(buf);
}
END_TEST

Suite *
make_xmalloc_suite(void)
{
	Suite	*s = suite_create("xmalloc");
	TCase	*tc = check_tcase();

	tcase_add_test(tc, test_fill);
	tcase_add_test(tc, test_ahead);
	suite_add_tcase(s, tc);
	return s;
}

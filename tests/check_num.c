/* check_num.c - number and subposition parsing. */
#include "base/compat.h"

#include <stdio.h>
#include <string.h>

#include "base/num.h"
#include "check_suites.h"
#include "check_util.h"
#include "view/cells.h"

/* Parse s whole as a number; return the result, value in *v. */
static enum num_result
parse(const char *s, uint64_t *v, size_t *used)
{
	const char	*p = s;
	enum num_result	 r;

	*v = 12345;
	r = num_parse_u64(&p, s + strlen(s), v);
	*used = (size_t)(p - s);
	return r;
}

START_TEST(test_decimal)
{
	uint64_t	v;
	size_t		n;

	ck_assert_int_eq(parse("0", &v, &n), NUM_OK);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(parse("42 7", &v, &n), NUM_OK);
	ck_assert_uint_eq(v, 42);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(parse("18446744073709551615", &v, &n), NUM_OK);
	ck_assert_uint_eq(v, UINT64_MAX);
	ck_assert_int_eq(parse("18446744073709551616", &v, &n), NUM_OVERFLOW);
	ck_assert_int_eq(parse("99999999999999999999999", &v, &n),
	    NUM_OVERFLOW);
}
END_TEST

START_TEST(test_hex)
{
	uint64_t	v;
	size_t		n;

	ck_assert_int_eq(parse("0x10", &v, &n), NUM_OK);
	ck_assert_uint_eq(v, 16);
	ck_assert_int_eq(parse("0XfF\t1", &v, &n), NUM_OK);
	ck_assert_uint_eq(v, 255);
	ck_assert_uint_eq(n, 4);
	ck_assert_int_eq(parse("0xffffffffffffffff", &v, &n), NUM_OK);
	ck_assert_uint_eq(v, UINT64_MAX);
	ck_assert_int_eq(parse("0x10000000000000000", &v, &n), NUM_OVERFLOW);
	ck_assert_int_eq(parse("0x", &v, &n), NUM_NONE);
	ck_assert_int_eq(parse("0xg", &v, &n), NUM_NONE);
}
END_TEST

START_TEST(test_not_numbers)
{
	uint64_t	v;
	size_t		n;

	ck_assert_int_eq(parse("", &v, &n), NUM_NONE);
	ck_assert_int_eq(parse("x1", &v, &n), NUM_NONE);
	ck_assert_int_eq(parse("12x", &v, &n), NUM_NONE);
	ck_assert_int_eq(parse("-1", &v, &n), NUM_NONE);
	ck_assert_int_eq(parse("1.5", &v, &n), NUM_NONE);
	ck_assert_uint_eq(v, 12345);
}
END_TEST

START_TEST(test_subpos)
{
	static const struct {
		const char		*s;
		enum num_result		 r;
		enum subpos_kind	 kind;
		uint64_t		 v;
	} t[] = {
		{ "17", NUM_OK, SUBPOS_ABS, 17 },
		{ "0x1a", NUM_OK, SUBPOS_ABS, 26 },
		{ "+3", NUM_OK, SUBPOS_PLUS, 3 },
		{ "-0x10", NUM_OK, SUBPOS_MINUS, 16 },
		{ "*", NUM_OK, SUBPOS_SAME, 0 },
		{ "**", NUM_NONE, SUBPOS_ABS, 0 },
		{ "+", NUM_NONE, SUBPOS_ABS, 0 },
		{ "+x", NUM_NONE, SUBPOS_ABS, 0 },
		{ "+99999999999999999999", NUM_OVERFLOW, SUBPOS_PLUS, 0 },
	};
	enum subpos_kind	 kind;
	const char		*p;
	uint64_t		 v;
	size_t			 i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		p = t[i].s;
		ck_assert_int_eq(num_parse_subpos(&p, p + strlen(p), &kind,
		    &v), t[i].r);
		if (t[i].r == NUM_OK) {
			ck_assert_int_eq(kind, t[i].kind);
			ck_assert_uint_eq(v, t[i].v);
			ck_assert_ptr_eq(p, t[i].s + strlen(t[i].s));
		}
	}
}
END_TEST

/*
 * Percentages are written as printf's " (%5.2f%%)" (or "%5.1f" when
 * wide) writes them, byte for byte, also next to halfway cases
 * (300,000 values).
 */
START_TEST(test_percent_format)
{
	static const double	 edge[] = { 0, 0.001, 0.004999, 0.005, 0.125,
	    0.135, 0.145, 1.005, 2.675, 9.995, 9.99499999, 10, 12.345,
	    33.333333333, 50, 66.665, 99.99, 99.994999, 99.995, 99.996,
	    100, 123.456, 1e6, 1.5e21 };
	char			 got[64], want[64];
	double			 perc;
	uint64_t		 x = 0x2545f4914f6cdd1dULL;
	size_t			 i, n;

	for (i = 0; i < 300000; i++) {
		if (i < sizeof(edge) / sizeof(edge[0]))
			perc = edge[i];
		else {
			x ^= x >> 12;
			x ^= x << 25;
			x ^= x >> 27;
			/* Near hundredths and halves of them, and anywhere. */
			perc = i % 3 == 0 ? (double)(x % 10000000) / 100000 :
			    i % 3 == 1 ? (double)(x % 20000) / 200 :
			    (double)(x % 10000) / 100 * 1.0000000001;
		}
		snprintf(want, sizeof(want), perc > -9.995 && perc < 99.995 ?
		    " (%5.2f%%)" : " (%5.1f%%)", perc);
		n = cells_fmt_perc(got, sizeof(got), perc);
		ck_assert_uint_eq(n, strlen(want));
		if (strcmp(got, want) != 0)
			ck_abort_msg("%.17g: got '%s', want '%s'", perc, got,
			    want);
	}
}
END_TEST

/*
 * Thousands separators as the old tool puts them (1,234,567), checked
 * against digits from printf with a comma before every third from the
 * right: each power of ten and its neighbours, 2^64 - 1 and 200,000
 * numbers of every length; with a minus sign too; and without
 * separators (num_u64(), two digits at a time), printf's digits; in
 * hexadecimal (num_hex()), printf's "0x%llx".
 */
START_TEST(test_commify)
{
	char		 got[40], digits[32], want[48];
	uint64_t	 v, x = 0x9e3779b97f4a7c15ULL, p = 1;
	size_t		 i, j, k, n, len;
	struct snum	 s;

	for (i = 0; i < 200000 + 3 * 20 + 1; i++) {
		if (i < 3 * 20) {
			/* 10^k - 1, 10^k, 10^k + 1 (up to 10^19). */
			if (i % 3 == 0 && i > 0)
				p *= 10;
			v = p + i % 3 - 1;
		} else if (i == 3 * 20)
			v = UINT64_MAX;
		else {
			x ^= x >> 12;
			x ^= x << 25;
			x ^= x >> 27;
			v = x >> (x % 64);	/* any length */
		}
		len = (size_t)snprintf(digits, sizeof(digits), "%llu",
		    (unsigned long long)v);
		for (j = k = 0; j < len; j++) {
			if (j > 0 && (len - j) % 3 == 0)
				want[k++] = ',';
			want[k++] = digits[j];
		}
		want[k] = '\0';
		n = num_u64(v, got);
		ck_assert_uint_eq(n, len);
		ck_assert_str_eq(got, digits);
		len = (size_t)snprintf(digits, sizeof(digits), "0x%llx",
		    (unsigned long long)v);
		n = num_hex(v, got);
		ck_assert_uint_eq(n, len);
		ck_assert_str_eq(got, digits);
		n = num_commify(v, got);
		ck_assert_uint_eq(n, k);
		ck_assert_str_eq(got, want);
		s.neg = 1;
		s.mag = v;
		n = num_scommify(s, got);
		ck_assert_uint_eq(n, k + 1);
		ck_assert(got[0] == '-' && strcmp(got + 1, want) == 0);
	}
}
END_TEST

Suite *
make_num_suite(void)
{
	Suite	*s = suite_create("num");
	TCase	*tc = check_tcase();

	tcase_add_test(tc, test_decimal);
	tcase_add_test(tc, test_hex);
	tcase_add_test(tc, test_not_numbers);
	tcase_add_test(tc, test_subpos);
	tcase_add_test(tc, test_percent_format);
	tcase_add_test(tc, test_commify);
	suite_add_tcase(s, tc);
	return s;
}

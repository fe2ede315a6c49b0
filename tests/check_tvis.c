/*
 * check_tvis.c - the terminal rule: names escaped as vis(3) escapes them
 * in the C locale, printable UTF-8 kept on a UTF-8 terminal, controls
 * never, and the same bytes out however the input is cut; runs of plain
 * ASCII found a word at a time as a byte at a time finds them.
 */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vis.h>

#include "base/ascii.h"
#include "base/tvis.h"
#include "check_suites.h"
#include "check_util.h"

/* Encode s (len bytes) into a new string. */
static char *
enc(const char *s, size_t len, enum tvis_mode m, enum tvis_kind k)
{
	char	*buf = malloc(tvis_size(len));

	ck_assert_ptr_nonnull(buf);
	tvis_encode(buf, s, len, m, k);
	return buf;
}

/* ASCII names are what strvisx() made before: the messages' goldens. */
START_TEST(test_vis_compatible)
{
	char		 in[64], want[4 * 64 + 1], *got;
	unsigned	 seed = 7;
	size_t		 len;
	int		 i, j;

	for (i = 0; i < 20000; i++) {
		len = (size_t)(i % 64);
		for (j = 0; j < (int)len; j++) {
			seed = seed * 1103515245u + 12345u;
			/* Some runs of digits after NULs, some high bytes. */
			in[j] = (char)(i % 3 == 0 ? "\0" "17\\\t\n\033"
			    "\302\233"[seed >> 16 & 7] : (char)(seed >> 16));
		}
		strvisx(want, in, len, VIS_CSTYLE | VIS_OCTAL | VIS_TAB |
		    VIS_NL);
		got = enc(in, len, TVIS_ASCII, TVIS_NAME);
		ck_assert_str_eq(got, want);
		free(got);
	}
}
END_TEST

/* What a UTF-8 terminal is given as it is, and what it never is. */
START_TEST(test_utf8)
{
	static const struct {
		const char	*in, *out;
		enum tvis_kind	 kind;
	} cases[] = {
		{ "caf\303\251", "caf\303\251", TVIS_NAME },
		{ "\302\233[2J", "\\302\\233[2J", TVIS_NAME },	/* C1 CSI */
		{ "\302\240nbsp", "\302\240nbsp", TVIS_NAME },
		{ "a\342\200\256b", "a\\342\\200\\256b", TVIS_NAME }, /* RLO */
		{ "\342\201\246x", "\\342\\201\\246x", TVIS_NAME },	/* LRI */
		{ "\342\200\250", "\\342\\200\\250", TVIS_NAME },	/* LS */
		{ "\357\277\276", "\\357\\277\\276", TVIS_NAME },	/* FFFE */
		{ "\360\237\230\200", "\360\237\230\200", TVIS_NAME },
		{ "\355\240\200", "\\355\\240\\200", TVIS_NAME }, /* surrogate */
		{ "\300\257", "\\300\\257", TVIS_NAME },		/* overlong */
		{ "\343\201", "\\343\\201", TVIS_NAME },		/* cut */
		{ "\033]52;c;QQ==\007", "\\033]52;c;QQ==\\a", TVIS_TEXT },
		{ "\tx\\n\r\n", "\tx\\n\r\n", TVIS_TEXT },
		{ "a\rb\n", "a\\rb\n", TVIS_TEXT },
		{ "\tx\\n\n", "\tx\\n\\n", TVIS_LINE },
		{ "\tx\\", "\\tx\\\\", TVIS_NAME },
	};
	char	*got;
	size_t	 i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		got = enc(cases[i].in, strlen(cases[i].in), TVIS_UTF8,
		    cases[i].kind);
		ck_assert_msg(strcmp(got, cases[i].out) == 0, "case %zu: %s",
		    i, got);
		free(got);
	}
	got = enc("caf\303\251\033", 6, TVIS_RAW, TVIS_NAME);
	ck_assert_str_eq(got, "caf\303\251\033");
	free(got);
}
END_TEST

/* A stream cut anywhere writes what one piece would. */
START_TEST(test_stream_cuts)
{
	static const char in[] = "x\303\251\r\n\302\233\360\237\230\200\r"
	    "\342\200\256\0" "7\tz\n\343\201";
	size_t	 len = sizeof(in) - 1, a, b, n1, n2;
	char	*whole, *got;
	FILE	*mem, *f;

	whole = enc(in, len, TVIS_UTF8, TVIS_TEXT);
	for (a = 0; a <= len; a++)
		for (b = a; b <= len; b++) {
			got = NULL;
			n1 = 0;
			mem = open_memstream(&got, &n1);
			ck_assert_ptr_nonnull(mem);
			f = tvis_fopen(mem, TVIS_UTF8);
			/* Unbuffered: each fwrite() reaches the cookie. */
			setvbuf(f, NULL, _IONBF, 0);
			fwrite(in, 1, a, f);
			fwrite(in + a, 1, b - a, f);
			fwrite(in + b, 1, len - b, f);
			ck_assert_int_eq(fclose(f), 0);
			ck_assert_int_eq(fclose(mem), 0);
			n2 = strlen(whole);
			ck_assert_msg(n1 == n2 && memcmp(got, whole, n1) == 0,
			    "cut at %zu and %zu: %s", a, b, got);
			free(got);
		}
	free(whole);
}
END_TEST

/* The run ascii_run() finds, a byte at a time. */
static size_t
run_slow(const char *s, size_t len, unsigned char a, unsigned char b)
{
	const unsigned char	*u = (const unsigned char *)s;
	size_t			 i;

	for (i = 0; i < len; i++)
		if (u[i] < 0x20 || u[i] > 0x7e || u[i] == a || u[i] == b)
			break;
	return i;
}

/*
 * ascii_run() against run_slow(): every byte value at every place of
 * plain strings up to three words long, next to another such byte or
 * not (borrows and carries between a word's bytes), for the pairs the
 * writers ask; then random strings, mostly plain.
 */
START_TEST(test_ascii_run)
{
	static const unsigned char pairs[][2] = {
		{ ';', '\'' }, { '"', '\\' }, { 0, 0 }, { 0x7f, 0xff }
	};
	char		s[32];
	size_t		len, at, i, k;
	unsigned	c, d;
	unsigned long	seed = 12345;

	for (k = 0; k < sizeof(pairs) / sizeof(pairs[0]); k++) {
		for (len = 0; len <= 24; len++)
			for (at = 0; at < len; at++)
				for (c = 0; c < 256; c++)
					for (d = 0; d < 256; d += 37) {
						memset(s, 'x', len);
						s[at] = (char)c;
						if (at > 0)
							s[at - 1] = (char)d;
						ck_assert_uint_eq(ascii_run(s, len,
						    pairs[k][0], pairs[k][1]),
						    run_slow(s, len, pairs[k][0],
						    pairs[k][1]));
					}
		for (i = 0; i < 200000; i++) {
			len = i % sizeof(s);
			for (at = 0; at < len; at++) {
				seed = seed * 6364136223846793005UL +
				    1442695040888963407UL;
				c = (unsigned)(seed >> 33);
				s[at] = (char)(c % 64 != 0 ? 0x20 + c % 95 :
				    c >> 8);
			}
			ck_assert_uint_eq(ascii_run(s, len, pairs[k][0],
			    pairs[k][1]), run_slow(s, len, pairs[k][0],
			    pairs[k][1]));
		}
	}
}
END_TEST

Suite *
make_tvis_suite(void)
{
	Suite	*s = suite_create("tvis");
	TCase	*tc = check_tcase();

	tcase_add_test(tc, test_vis_compatible);
	tcase_add_test(tc, test_utf8);
	tcase_add_test(tc, test_stream_cuts);
	tcase_add_test(tc, test_ascii_run);
	suite_add_tcase(s, tc);
	return s;
}

/* check_names.c - interning, id tables and name compression. */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cost.h"
#include "base/keytab.h"
#include "base/msg.h"
#include "base/strtab.h"
#include "base/xmalloc.h"
#include "check_suites.h"
#include "check_util.h"
#include "model/profile.h"
#include "read/parse.h"

START_TEST(test_strtab)
{
	struct strtab	*st = strtab_create();
	uint32_t	 a, b, i;
	char		 buf[32];

	ck_assert_uint_eq(strtab_intern(st, "", 0), 0);
	a = strtab_intern(st, "main", 4);
	b = strtab_intern(st, "mainx", 4);
	ck_assert_uint_eq(a, b);
	ck_assert_str_eq(strtab_get(st, a), "main");
	ck_assert_uint_ne(strtab_intern(st, "ma\0n", 4), a);
	ck_assert_uint_eq(strtab_len(st, strtab_intern(st, "ma\0n", 4)), 4);
	/* Many strings: ids stay dense and lookups stay right over growth. */
	for (i = 0; i < 100000; i++) {
		snprintf(buf, sizeof(buf), "f%u", i);
		ck_assert_uint_eq(strtab_intern(st, buf, strlen(buf)), i + 3);
	}
	for (i = 0; i < 100000; i += 997) {
		snprintf(buf, sizeof(buf), "f%u", i);
		ck_assert_uint_eq(strtab_intern(st, buf, strlen(buf)), i + 3);
		ck_assert_str_eq(strtab_get(st, i + 3), buf);
	}
	ck_assert_uint_eq(strtab_count(st), 100003);
	strtab_free(st);
}
END_TEST

/*
 * Copying strings between tables, as a chunk read ahead is adopted:
 * new ones get the next ids, known ones theirs, bytes and lengths kept;
 * loading ahead reads only what is there (ASan).
 */
START_TEST(test_strtab_copy)
{
	struct strtab	*src = strtab_create(), *dst = strtab_create();
	char		 buf[32];
	uint32_t	 i, id;

	for (i = 0; i < 5000; i++) {
		snprintf(buf, sizeof(buf), "name%u", i);
		ck_assert_uint_eq(strtab_intern(src, buf, strlen(buf)), i + 1);
		if (i % 2 == 0)
			(void)strtab_intern(dst, buf, strlen(buf));
	}
	ck_assert_uint_eq(strtab_count(dst), 2501);
	for (i = 1; i <= 5000; i++) {
		if (i + 8 <= 5000)
			strtab_copy_prefetch(dst, src, i + 8);
		id = strtab_copy(dst, src, i);
		ck_assert_str_eq(strtab_get(dst, id), strtab_get(src, i));
		ck_assert_uint_eq(strtab_len(dst, id), strtab_len(src, i));
		/* Even names were there first; odd ones come in order. */
		ck_assert_uint_eq(id, (i - 1) % 2 == 0 ? (i - 1) / 2 + 1 :
		    2501 + (i - 1) / 2);
	}
	ck_assert_uint_eq(strtab_count(dst), 5001);
	ck_assert_uint_eq(strtab_copy(dst, src, 0), 0);
	strtab_free(src);
	strtab_free(dst);
}
END_TEST

START_TEST(test_keytab)
{
	struct keytab	kt;
	uint64_t	k[3];
	uint32_t	i;
	int		created;

	keytab_init(&kt, 3);
	for (i = 0; i < 50000; i++) {
		k[0] = i;
		k[1] = i * 7;
		k[2] = UINT64_MAX - i;
		ck_assert_uint_eq(keytab_get(&kt, k, &created), i);
		ck_assert_int_eq(created, 1);
	}
	k[0] = 123;
	k[1] = 861;
	k[2] = UINT64_MAX - 123;
	keytab_prefetch(&kt, k, 0);
	keytab_prefetch(&kt, k, 1);
	ck_assert_uint_eq(keytab_get(&kt, k, &created), 123);
	ck_assert_int_eq(created, 0);
	ck_assert_uint_eq(keytab_find(&kt, k), 123);
	ck_assert_uint_eq(keytab_key(&kt, 123)[1], 861);
	k[1] = 862;
	ck_assert_uint_eq(keytab_find(&kt, k), KEYTAB_NONE);
	keytab_free(&kt);
}
END_TEST

/*
 * An indexed table: keys whose indexed word is their own, keys that
 * share it (a few, many), found, refused, cleared and filled again.
 */
START_TEST(test_keytab_indexed)
{
	struct keytab	kt;
	uint64_t	k[2];
	uint32_t	i, round, used;
	int		created;

	keytab_init_indexed(&kt, 2, 1);
	for (round = 0; round < 2; round++) {
		/* i's word is i / 3 for i < 3000 (three share it), then
		 * 1000 for 2000 more (one word, many keys), then its own. */
		for (i = 0; i < 6000; i++) {
			k[0] = i;
			k[1] = i < 3000 ? i / 3 : i < 5000 ? 1000 : i;
			ck_assert_uint_eq(keytab_get(&kt, k, &created), i);
			ck_assert_int_eq(created, 1);
		}
		for (i = 0; i < 6000; i++) {
			k[0] = i;
			k[1] = i < 3000 ? i / 3 : i < 5000 ? 1000 : i;
			/* Loading ahead reads only what is there (ASan). */
			keytab_prefetch(&kt, k, 0);
			keytab_prefetch(&kt, k, 1);
			ck_assert_uint_eq(keytab_get(&kt, k, &created), i);
			ck_assert_int_eq(created, 0);
			ck_assert_uint_eq(keytab_find(&kt, k), i);
			k[0] = i + 1000000;
			keytab_prefetch(&kt, k, 1);
			ck_assert_uint_eq(keytab_find(&kt, k), KEYTAB_NONE);
		}
		k[0] = 5;
		k[1] = 7000;		/* beyond the index */
		keytab_prefetch(&kt, k, 0);
		keytab_prefetch(&kt, k, 1);
		ck_assert_uint_eq(keytab_find(&kt, k), KEYTAB_NONE);
		ck_assert_uint_eq(keytab_key(&kt, 4000)[1], 1000);
		ck_assert_uint_eq(kt.n, 6000);
		/* Only the keys that share their word are hashed, once. */
		for (i = used = 0; i <= kt.mask; i++)
			used += kt.slots[i] != 0;
		ck_assert_uint_eq(used, 5000);
		ck_assert_uint_eq(kt.nhashed, 5000);
		keytab_clear(&kt);
		ck_assert_uint_eq(kt.n, 0);
		k[0] = 1;
		k[1] = 0;
		ck_assert_uint_eq(keytab_find(&kt, k), KEYTAB_NONE);
	}
	keytab_free(&kt);
}
END_TEST

START_TEST(test_compression)
{
	struct profile	*p;
	int		 rc;

	p = load("events: Ir\n"
	    "ob=(1) obj\n"
	    "fl=(1) a.c\n"
	    "fn=(1) main\n"
	    "1 10\n"
	    /* id 1 in the fn space is main, in the fl space a.c. */
	    "fn=(2) (below main)\n"
	    "2 20\n"
	    "fn=(1)\n"
	    "3 30\n"
	    "fl=(2)b.c\n"
	    "fn=(3)   spaced\n"
	    "4 40\n"
	    "fn=(1)\n"
	    "5 50\n", &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_int_ge(func_find(p, "obj", "a.c", "main"), 0);
	ck_assert_int_ge(func_find(p, "obj", "a.c", "(below main)"), 0);
	ck_assert_int_ge(func_find(p, "obj", "b.c", "spaced"), 0);
	ck_assert_int_ge(func_find(p, "obj", "b.c", "main"), 0);
	ck_assert_uint_eq(self_cost(p, "main", "a.c", 3, 0), 30);
	ck_assert_uint_eq(self_cost(p, "main", "b.c", 5, 0), 50);
	ck_assert_uint_eq(self_cost(p, "(below main)", "a.c", 2, 0), 20);
	profile_free(p);
}
END_TEST

/*
 * Compressed ids defined far beyond those before them, which the direct
 * array reaches only later (ids moved to it as it grows), and one too
 * far for it ever: all found again by number.
 */
START_TEST(test_compression_sparse)
{
	struct profile	*p;
	char		*text;
	size_t		 len = 0, cap = 1 << 20;
	int		 i, rc;

	text = xmalloc(cap);
	len += snprintf(text + len, cap - len, "events: Ir\nfl=a.c\n"
	    "fn=(50000) far\n1 1\nfn=(123456789012) farther\n1 2\n");
	for (i = 1; i <= 40000; i++)
		len += snprintf(text + len, cap - len, "fn=(%d) f%d\n1 1\n",
		    i, i);
	len += snprintf(text + len, cap - len, "fn=(50000)\n1 10\n"
	    "fn=(123456789012)\n1 20\nfn=(7)\n1 30\n");
	ck_assert_uint_lt(len, cap);
	p = load(text, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(func_self(p, "far", 0), 11);
	ck_assert_uint_eq(func_self(p, "farther", 0), 22);
	ck_assert_uint_eq(func_self(p, "f7", 0), 31);
	ck_assert_uint_eq(func_self(p, "f40000", 0), 1);
	profile_free(p);
	free(text);
}
END_TEST

START_TEST(test_compression_errors)
{
	struct profile	*p;
	int		 rc;

	msg_reset();
	p = load("events: Ir\n"
	    "fl=(1) a.c\n"
	    "fn=(7)\n"			/* undefined: "?\?\?(7)" */
	    "1 10\n"
	    "fn=(8)\n"			/* another: "?\?\?(8)" */
	    "1 1\n"
	    "fn=(7)\n"			/* the same one, said once */
	    "1 2\n"
	    "fn=(2) two\n"
	    "fn=(2) deux\n"		/* redefined: the new name wins */
	    "2 20\n"
	    "fn=(2)\n"
	    "3 30\n"
	    "fn=(3 broken\n"		/* no ")": taken literally */
	    "4 40\n", &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(msg_count(MSG_UNDEFINED_ID), 2);
	ck_assert_uint_eq(msg_count(MSG_REDEFINED_ID), 1);
	ck_assert_uint_eq(msg_count(MSG_BAD_NAME_ID), 1);
	ck_assert_uint_eq(func_self(p, "?\?\?(7)", 0), 12);
	ck_assert_uint_eq(func_self(p, "?\?\?(8)", 0), 1);
	ck_assert_uint_eq(func_self(p, "???", 0), COST_NONE);
	ck_assert_uint_eq(func_self(p, "deux", 0), 50);
	ck_assert_uint_eq(func_self(p, "two", 0), COST_NONE);
	ck_assert_uint_eq(func_self(p, "(3 broken", 0), 40);
	profile_free(p);
}
END_TEST

START_TEST(test_strip_prefix)
{
	struct profile		*p = profile_create();
	struct parse_opts	 o = { .strip_prefix = "/home/u/src/" };
	const char		*text = "events: Ir\n"
	    "fl=/home/u/src/a.c\n"
	    "fn=f\n"
	    "1 1\n"
	    "cfi=(4) /home/u/src/b.c\n"
	    "cfn=g\n"
	    "calls=1 1\n"
	    "1 5\n"
	    "fi=/home/u/src/sub/c.h\n"
	    "2 2\n"
	    "fl=/home/u/srcx.c\n"
	    "fn=h\n"
	    "3 3\n";

	ck_assert_int_eq(parse_buffer(p, "t", text, strlen(text), &o), 0);
	/* Every kind of file name loses the prefix, and only the prefix. */
	ck_assert_int_ge(func_find(p, "", "a.c", "f"), 0);
	ck_assert_int_ge(func_find(p, "", "b.c", "g"), 0);
	ck_assert_uint_eq(self_cost(p, "f", "sub/c.h", 2, 0), 2);
	ck_assert_int_ge(func_find(p, "", "/home/u/srcx.c", "h"), 0);
	profile_free(p);
}
END_TEST

Suite *
make_names_suite(void)
{
	Suite	*s = suite_create("names");
	TCase	*tc = check_tcase();

	tcase_add_test(tc, test_strtab);
	tcase_add_test(tc, test_keytab);
	tcase_add_test(tc, test_strtab_copy);
	tcase_add_test(tc, test_keytab_indexed);
	tcase_add_test(tc, test_compression);
	tcase_add_test(tc, test_compression_sparse);
	tcase_add_test(tc, test_compression_errors);
	tcase_add_test(tc, test_strip_prefix);
	suite_add_tcase(s, tc);
	return s;
}

/* check_parse.c - the parser, one construct of the format at a time. */
#include "base/compat.h"

#include <string.h>

#include "base/cost.h"
#include "base/msg.h"
#include "check_suites.h"
#include "check_util.h"
#include "model/profile.h"
#include "read/parse.h"

START_TEST(test_cost_lines)
{
	struct profile	*p;
	int		 rc;

	p = load("events: A B C\n"
	    "fl=a.c\nfn=f\n"
	    "1 10 20 30\n"
	    "2 5\n"			/* missing counts: never recorded */
	    "3 . 7 .\n"			/* "." is never recorded too */
	    "0x4 0x10 0XA 0\n"		/* hex everywhere */
	    "1\t1  1\t 1  \n", &rc);	/* tabs and trailing blanks */
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(self_cost(p, "f", "a.c", 1, 0), 11);
	ck_assert_uint_eq(self_cost(p, "f", "a.c", 2, 1), COST_NONE);
	ck_assert_uint_eq(self_cost(p, "f", "a.c", 3, 0), COST_NONE);
	ck_assert_uint_eq(self_cost(p, "f", "a.c", 3, 1), 7);
	ck_assert_uint_eq(self_cost(p, "f", "a.c", 4, 0), 16);
	ck_assert_uint_eq(self_cost(p, "f", "a.c", 4, 1), 10);
	ck_assert_uint_eq(self_cost(p, "f", "a.c", 4, 2), 0);
	profile_free(p);
}
END_TEST

START_TEST(test_subpositions)
{
	struct profile	*p;
	int		 rc;

	p = load("positions: instr line\n"
	    "events: Ir\n"
	    "fl=a.c\nfn=f\n"
	    "0x100 10 1\n"
	    "+4 * 2\n"			/* line 10 */
	    "+2 +3 4\n"			/* line 13 */
	    "-6 -1 8\n"			/* line 12 */
	    "* * 16\n", &rc);		/* line 12 */
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(self_cost(p, "f", "a.c", 10, 0), 3);
	ck_assert_uint_eq(self_cost(p, "f", "a.c", 13, 0), 4);
	ck_assert_uint_eq(self_cost(p, "f", "a.c", 12, 0), 24);
	profile_free(p);

	/* instr alone: every cost is on line 0. */
	p = load("positions: instr\nevents: Ir\nfl=a.c\nfn=f\n"
	    "0x10 5\n+1 6\n", &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(self_cost(p, "f", "a.c", 0, 0), 11);
	profile_free(p);
}
END_TEST

START_TEST(test_calls)
{
	struct profile	*p;
	uint64_t	 n;
	int		 rc;

	p = load("events: Ir\n"
	    "ob=o\nfl=a.c\nfn=main\n"
	    "1 1\n"
	    "cfn=g\n"
	    "calls=2 10\n"
	    "1 100\n"
	    "cfn=g\n"
	    "calls=0x3 10\n"
	    "2 50\n"
	    "cfn=h\n"
	    "calls=0 20\n"		/* calls=0: still call cost */
	    "3 7\n"
	    "cob=lib\ncfi=b.c\ncfn=k\n"
	    "calls=1 5\n"
	    "4 9\n"
	    "cfn=k\n"			/* cob/cfi apply to one call only */
	    "calls=1 5\n"
	    "5 11\n"
	    "fn=g\n10 150\n", &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(func_self(p, "main", 0), 1);
	ck_assert_uint_eq(call_cost(p, "main", "g", 0, &n), 150);
	ck_assert_uint_eq(n, 5);
	ck_assert_uint_eq(call_cost(p, "main", "h", 0, &n), 7);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_ge(func_find(p, "lib", "b.c", "k"), 0);
	ck_assert_int_ge(func_find(p, "o", "a.c", "k"), 0);
	ck_assert_int_ge(func_find(p, "o", "a.c", "h"), 0);
	ck_assert_uint_eq(func_self(p, "h", 0), COST_NONE);
	profile_free(p);
}
END_TEST

START_TEST(test_inlined_files)
{
	struct profile	*p;
	uint64_t	 n;
	int		 rc;

	p = load("events: Ir\n"
	    "fl=a.c\nfn=f\n"
	    "1 1\n"
	    "fi=inl.h\n"
	    "5 2\n"
	    "cfn=helper\n"		/* no cfi: callee in the current file */
	    "calls=1 9\n"
	    "5 4\n"
	    "fe=other.h\n"
	    "6 8\n"
	    "fn=g\n"			/* fn= resets the file to the last fl= */
	    "7 16\n", &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(self_cost(p, "f", "a.c", 1, 0), 1);
	ck_assert_uint_eq(self_cost(p, "f", "inl.h", 5, 0), 2);
	ck_assert_uint_eq(self_cost(p, "f", "other.h", 6, 0), 8);
	ck_assert_uint_eq(self_cost(p, "g", "a.c", 7, 0), 16);
	ck_assert_int_ge(func_find(p, "", "inl.h", "helper"), 0);
	ck_assert_uint_eq(call_cost(p, "f", "helper", 0, &n), 4);
	ck_assert_int_ge(func_find(p, "", "a.c", "g"), 0);
	profile_free(p);
}
END_TEST

/*
 * fi= and fe= by compressed id, back and forth: each slot remembers the
 * pair it last led to, for its function and its name as it was then
 * (parser_touch()).
 */
START_TEST(test_inlined_ids)
{
	struct profile	*p;
	int		 rc;

	p = load("events: Ir\n"
	    "fl=(1) a.c\nfn=(1) f\n"
	    "1 1\n"
	    "fi=(2) inl.h\n"
	    "5 2\n"
	    "fe=(1)\n"
	    "2 4\n"
	    "fi=(2)\n"
	    "5 8\n"
	    "fn=(2) g\n"		/* another function, the same slot */
	    "fi=(2)\n"
	    "6 16\n"
	    "fe=(1)\n"
	    "7 32\n"
	    "fn=(1)\n"
	    "fi=(2)\n"
	    "5 64\n"
	    "fi=(2) other.h\n"	/* the id named again: warned, then used */
	    "9 128\n"
	    "fe=(1)\n"
	    "fi=(2)\n"
	    "9 256\n", &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(self_cost(p, "f", "a.c", 1, 0), 1);
	ck_assert_uint_eq(self_cost(p, "f", "a.c", 2, 0), 4);
	ck_assert_uint_eq(self_cost(p, "f", "inl.h", 5, 0), 74);
	ck_assert_uint_eq(self_cost(p, "g", "inl.h", 6, 0), 16);
	ck_assert_uint_eq(self_cost(p, "g", "a.c", 7, 0), 32);
	ck_assert_uint_eq(self_cost(p, "f", "other.h", 9, 0), 384);
	profile_free(p);
}
END_TEST

START_TEST(test_jumps)
{
	struct profile	*p;
	int		 rc;

	msg_reset();
	p = load("positions: line\nevents: Ir\n"
	    "fl=a.c\nfn=f\n"
	    "10 1\n"
	    "jump=3 20\n"
	    "+5\n"			/* position only: now line 15 */
	    "* 2\n"
	    "jcnd=2/5 30\n"
	    "+1\n"
	    "* 4\n"
	    "jfi=(1) j.c\n"
	    "jfn=(1) jf\n"
	    "jcnd=1 3 40\n"		/* the spec's spelling */
	    "* 9\n", &rc);		/* costs after a jump: ignored */
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(self_cost(p, "f", "a.c", 15, 0), 2);
	ck_assert_uint_eq(self_cost(p, "f", "a.c", 16, 0), 4);
	ck_assert_uint_eq(func_self(p, "f", 0), 7);
	ck_assert_uint_eq(msg_count(MSG_JUMP_COSTS), 1);
	ck_assert_uint_eq(msg_count(MSG_BAD_JUMP), 0);
	profile_free(p);
}
END_TEST

START_TEST(test_header)
{
	const struct part		*pt;
	const struct event_def		*d;
	struct profile			*p;
	int				 rc;

	p = load("# callgrind format\nversion: 1\ncreator: me 1.0\n"
	    "pid: 12\ncmd:  ./x -y \npart: 3\nthread: 2\n"
	    "desc: I1 cache: \ndesc: Trigger: end\n"
	    "event: Ir : Instructions\nevent: S = Ir + 2 Dr\n"
	    "events: Ir Dr\nsummary: 5 6\n"
	    "fl=a.c\nfn=f\n1 5 6\ntotals: 5 6\n", &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(profile_nparts(p), 1);
	pt = profile_part(p, 0);
	ck_assert_str_eq(profile_str(p, pt->creator), "me 1.0");
	ck_assert_str_eq(profile_str(p, pt->pid), "12");
	ck_assert_str_eq(profile_str(p, pt->cmd), "./x -y ");
	ck_assert_str_eq(profile_str(p, pt->part), "3");
	ck_assert_str_eq(profile_str(p, pt->thread), "2");
	ck_assert_uint_eq(pt->ndesc, 2);
	ck_assert_str_eq(profile_str(p, pt->desc[0]), "I1 cache: ");
	ck_assert_uint_eq(pt->summary[1], 6);
	ck_assert_uint_eq(pt->totals[0], 5);
	ck_assert_uint_eq(profile_nevent_defs(p), 2);
	d = profile_event_def(p, 0);
	ck_assert_str_eq(profile_str(p, d->longname), "Instructions");
	d = profile_event_def(p, 1);
	ck_assert_str_eq(profile_str(p, d->name), "S");
	ck_assert_str_eq(profile_str(p, d->formula), "Ir + 2 Dr");
	profile_free(p);
}
END_TEST

START_TEST(test_parts)
{
	struct profile	*p;
	int		 rc;

	msg_reset();
	p = load("events: A B\nfl=a.c\nfn=f\n1 1 2\ntotals: 1 2\n"
	    "part: 2\nevents: B A\nsummary: 20 10\n"
	    "fl=a.c\nfn=f\n1 20 10\n"
	    "part: 3\nevents: A C\nfn=f\n1 100 7\n", &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(profile_nparts(p), 3);
	/* Part 2's columns are mapped by name; C is not an event. */
	ck_assert_uint_eq(func_self(p, "f", 0), 111);
	ck_assert_uint_eq(func_self(p, "f", 1), 22);
	ck_assert_uint_eq(profile_part(p, 1)->summary[0], 10);
	ck_assert_uint_eq(msg_count(MSG_EVENTS_DIFFER), 1);
	profile_free(p);
}
END_TEST

START_TEST(test_fatal)
{
	struct profile	*p;
	int		 rc;

	msg_reset();
	p = load("fl=a.c\nfn=f\n", &rc);
	ck_assert_int_eq(rc, -1);
	ck_assert_uint_eq(msg_count(MSG_NO_EVENTS), 1);
	profile_free(p);
	p = load("fn=f\n1 2\nevents: Ir\n", &rc);
	ck_assert_int_eq(rc, -1);
	ck_assert_uint_eq(msg_count(MSG_DATA_BEFORE_EVENTS), 1);
	profile_free(p);
	p = load("version: 2\nevents: Ir\n", &rc);
	ck_assert_int_eq(rc, -1);
	ck_assert_uint_eq(msg_count(MSG_BAD_VERSION), 1);
	profile_free(p);
	p = load("", &rc);
	ck_assert_int_eq(rc, -1);
	profile_free(p);
	ck_assert_int_eq(msg_rc(), 1);
}
END_TEST

START_TEST(test_crlf_and_last_line)
{
	struct profile	*p;
	int		 rc;

	p = load("events: Ir\r\nfl=a.c\r\nfn=f\r\n1 5\r\n2 7", &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_int_ge(func_find(p, "", "a.c", "f"), 0);
	ck_assert_uint_eq(func_self(p, "f", 0), 12);
	profile_free(p);
}
END_TEST

START_TEST(test_chunked_feed)
{
	static const char	 text[] = "events: Ir Dr\nfl=(1) a.c\n"
	    "fn=(1) f\n1 5 1\n+1 7\ncfn=(2) g\ncalls=1 3\n* 9 9\n"
	    "fn=(2)\n3 9 9\n";
	struct profile		*p = profile_create();
	struct parser		*ps;
	size_t			 i;

	/* One byte at a time gives the same model as the whole buffer. */
	ps = parser_create(p, "t", NULL);
	for (i = 0; i < sizeof(text) - 1; i++)
		ck_assert_int_eq(parser_feed(ps, text + i, 1), 0);
	ck_assert_int_eq(parser_finish(ps), 0);
	ck_assert_uint_eq(self_cost(p, "f", "a.c", 2, 0), 7);
	ck_assert_uint_eq(func_self(p, "g", 1), 9);
	ck_assert_uint_eq(profile_nlines(p), 3);
	ck_assert_uint_eq(profile_narcs(p), 1);
	profile_free(p);
}
END_TEST

/* A profile whose cost lines often end as the line before them. */
static const char	 repeats[] = "events: Ir Dr\npositions: instr line\n"
    "fl=(1) a.c\nfn=(1) main\n"
    "0x10 3 1 2\n+1 3 1 2\n+1 3 1 2\n-2 3 1 2\n"
    "+1 +1 1 2\n+1 +1 1 2\n+1 * 1 2\n"
    "+1 8 1 20\n+1 8 1 2\n+1 8 1 2  \n"
    "+1 9 12345678901234567 3\n+1 9 1 2\n+1 9 1 2\n\n+1 9 1 2\n"
    "cfn=(2) g\ncalls=2 0x100 20\n+1 9 1 2\n+1 9 1 2\n"
    "fn=(2)\n0x100 20 5\n+1 20 5\n";

/* Read repeats[] fed in pieces: the first of first bytes, then of step. */
static struct profile *
read_pieces(size_t first, size_t step)
{
	struct profile	*p = profile_create();
	struct parser	*ps = parser_create(p, "t", NULL);
	size_t		 at = 0, n, len = sizeof(repeats) - 1;

	while (at < len) {
		n = at == 0 && first > 0 ? first : step;
		if (n > len - at)
			n = len - at;
		ck_assert_int_eq(parser_feed(ps, repeats + at, n), 0);
		at += n;
	}
	ck_assert_int_eq(parser_finish(ps), 0);
	return p;
}

/*
 * A cost line that ends as the one before it adds the same counts to
 * its own line; one with a relative line position, after a call or
 * with other counts is read.  However the bytes are fed (the fast path
 * compares 16 bytes ahead only where they were fed together), the model
 * is the same: line by line, in the same order.
 */
START_TEST(test_repeated_tails)
{
	struct profile	*ref, *p;
	uint32_t	 i, fn[2], file[2];
	uint64_t	 line[2];
	size_t		 first, step;

	ref = read_pieces(0, sizeof(repeats));
	ck_assert_uint_eq(self_cost(ref, "main", "a.c", 3, 0), 4);
	ck_assert_uint_eq(self_cost(ref, "main", "a.c", 3, 1), 8);
	ck_assert_uint_eq(self_cost(ref, "main", "a.c", 4, 0), 1);
	ck_assert_uint_eq(self_cost(ref, "main", "a.c", 5, 0), 2);
	ck_assert_uint_eq(self_cost(ref, "main", "a.c", 8, 0), 3);
	ck_assert_uint_eq(self_cost(ref, "main", "a.c", 8, 1), 24);
	ck_assert_uint_eq(self_cost(ref, "main", "a.c", 9, 0),
	    12345678901234571ULL);
	ck_assert_uint_eq(self_cost(ref, "main", "a.c", 9, 1), 11);
	ck_assert_uint_eq(self_cost(ref, "g", "a.c", 20, 0), 10);
	ck_assert_uint_eq(profile_narcs(ref), 1);
	for (first = 0; first < 24; first++)
		for (step = 1; step <= 40; step += first == 0 ? 1 : 13) {
			p = read_pieces(first, step);
			ck_assert_uint_eq(profile_nlines(p),
			    profile_nlines(ref));
			for (i = 0; i < profile_nlines(ref); i++) {
				profile_line(ref, i, &fn[0], &file[0],
				    &line[0]);
				profile_line(p, i, &fn[1], &file[1], &line[1]);
				ck_assert_uint_eq(fn[0], fn[1]);
				ck_assert_uint_eq(file[0], file[1]);
				ck_assert_uint_eq(line[0], line[1]);
				ck_assert_uint_eq(line_count(ref, i, 0),
				    line_count(p, i, 0));
				ck_assert_uint_eq(line_count(ref, i, 1),
				    line_count(p, i, 1));
			}
			ck_assert_uint_eq(profile_narcs(p), 1);
			profile_free(p);
		}
	profile_free(ref);
}
END_TEST

START_TEST(test_warnings)
{
	struct profile	*p;
	int		 rc;

	msg_reset();
	p = load("events: Ir Dr\n"
	    "1 5\n"				/* before fn=: to ??? */
	    "fl=a.c\nfn=f\n"
	    "2 1 2 3\n"				/* too many counts */
	    "3 1 zz\n"				/* not a number */
	    "4 -3 1\n"				/* negative: 0 */
	    "5 18446744073709551615\n"		/* the "none" marker */
	    "6 18446744073709551614\n"
	    "6 1\n"				/* sum overflows */
	    "whatever\n"
	    "xx=1\n"
	    "calls=1 2\n"			/* then no cost line */
	    "fn=f\n", &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(msg_count(MSG_NO_FUNCTION), 1);
	ck_assert_uint_eq(func_self(p, "???", 0), 5);
	ck_assert_uint_eq(msg_count(MSG_TOO_MANY_COUNTS), 1);
	ck_assert_uint_eq(msg_count(MSG_BAD_COSTLINE), 1);
	ck_assert_uint_eq(msg_count(MSG_NEGATIVE_COUNT), 1);
	ck_assert_uint_eq(msg_count(MSG_NUMBER_TOO_LARGE), 1);
	ck_assert_uint_eq(msg_count(MSG_COST_OVERFLOW), 1);
	ck_assert_uint_eq(msg_count(MSG_UNKNOWN_LINE), 2);
	ck_assert_uint_eq(msg_count(MSG_CALLS_NO_COST), 1);
	ck_assert_uint_eq(func_self(p, "f", 0), COST_MAX);
	ck_assert_int_eq(msg_rc(), 0);
	profile_free(p);
}
END_TEST

Suite *
make_parse_suite(void)
{
	Suite	*s = suite_create("parse");
	TCase	*tc = check_tcase();

	tcase_add_test(tc, test_cost_lines);
	tcase_add_test(tc, test_subpositions);
	tcase_add_test(tc, test_calls);
	tcase_add_test(tc, test_inlined_files);
	tcase_add_test(tc, test_inlined_ids);
	tcase_add_test(tc, test_jumps);
	tcase_add_test(tc, test_header);
	tcase_add_test(tc, test_parts);
	tcase_add_test(tc, test_fatal);
	tcase_add_test(tc, test_crlf_and_last_line);
	tcase_add_test(tc, test_chunked_feed);
	tcase_add_test(tc, test_repeated_tails);
	tcase_add_test(tc, test_warnings);
	suite_add_tcase(s, tc);
	return s;
}

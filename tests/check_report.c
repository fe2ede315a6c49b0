/*
 * check_report.c - the text report printed in two threads (a long list
 * of functions: its last third by a helper, into memory) is the report
 * printed in one, for every test profile and several option sets; the
 * pprof export kept within its budget of frames; the stack views the
 * same with the stacks' ends put in order in place as by a copy; the
 * callgrind export made by two threads in turns as by one; the flame
 * graph's frames in depth-first order.
 */
#include "base/compat.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cost.h"
#include "base/hooks.h"
#include "base/keytab.h"
#include "base/msg.h"
#include "base/strtab.h"
#include "base/xmalloc.h"
#include "check_suites.h"
#include "check_util.h"
#include "model/profile.h"
#include "read/input.h"
#include "read/load.h"
#include "read/parse.h"
#include "select/flamesel.h"
#include "select/select.h"
#include "view/format.h"
#include "view/pprof.pb-c.h"
#include "view/report.h"

static size_t	report_rows_seen;	/* function lines compared */

/* Return the report of p with options o (the hooks as the caller set). */
static char *
report_of(const struct profile *p, const struct report_opts *o,
    const struct report_run *run)
{
	FILE	*out;
	char	*text = NULL;
	size_t	 len = 0;

	ck_assert_ptr_nonnull(out = open_memstream(&text, &len));
	ck_assert_int_eq(report_print(out, p, NULL, o, run), 0);
	ck_assert_int_eq(fclose(out), 0);
	return text;
}

/* Count the lines of the function list of report text. */
static size_t
report_count_rows(const char *text)
{
	const char	*s, *e;
	size_t		 n = 0;

	if ((s = strstr(text, " file:function\n")) == NULL ||
	    (s = strchr(s + 1, '\n')) == NULL ||
	    (s = strchr(s + 1, '\n')) == NULL)
		return 0;
	if ((e = strstr(s, "\n\n")) == NULL)
		return 0;
	for (; s < e; s++)
		n += *s == '\n';
	return n;
}

/* Compare the reports of path printed in one thread and in two. */
static void
report_compare(const char *path, void *arg __unused)
{
	struct report_opts	 o;
	struct report_run	 run;
	struct profile		*p = profile_create();
	char			*want, *got;
	int			 k;

	if (load_file(p, path, NULL) != 0) {
		profile_free(p);
		return;
	}
	for (k = 0; k < 4; k++) {
		memset(&o, 0, sizeof(o));
		o.format = &formats[0];
		memset(&run, 0, sizeof(run));
		run.profile_name = path;
		o.threshold = k == 0 ? "99" : "100";
		o.show_percs = k != 2;
		o.inclusive = k == 3;
		hooks.split = SIZE_MAX;
		want = report_of(p, &o, &run);
		hooks.split = 1;
		got = report_of(p, &o, &run);
		hooks.split = 0;
		if (strcmp(want, got) != 0)
			ck_abort_msg("%s, option set %d: printed in two threads "
			    "differs", path, k);
		report_rows_seen += report_count_rows(want);
		free(want);
		free(got);
	}
	profile_free(p);
}

START_TEST(test_report_split)
{
	size_t	nfiles;

	msg_set_quiet(1);
	nfiles = each_profile("profiles", report_compare, NULL);
	nfiles += each_profile("edge", report_compare, NULL);
	/* Not vacuous: many lists long enough for the helper to print. */
	ck_assert_uint_ge(nfiles, 25);
	ck_assert_uint_gt(report_rows_seen, 1000);
	msg_reset();
}
END_TEST

/* Compare path's stack views with its ends put in order in place. */
static void
report_ends(const char *path, void *arg)
{
	static const char *const fmts[] = { "speedscope", "folded" };
	struct report_opts	 o;
	struct report_run	 run;
	struct parse_opts	 po;
	struct profile		*p = profile_create();
	size_t			*nstacks = arg, i;
	char			*want, *got;
	int			 k;

	memset(&po, 0, sizeof(po));
	po.stacks = 1;
	if (load_file(p, path, &po) != 0) {
		profile_free(p);
		return;
	}
	(void)profile_done(p);
	for (i = 0; i < 2; i++)
		for (k = 0; k < 2; k++) {
			memset(&o, 0, sizeof(o));
			o.format = format_find(fmts[i]);
			o.threshold = "100";
			o.inclusive = k;
			memset(&run, 0, sizeof(run));
			run.profile_name = path;
			want = report_of(p, &o, &run);
			hooks.ends_in_place = 1;
			got = report_of(p, &o, &run);
			hooks.ends_in_place = 0;
			if (strcmp(want, got) != 0)
				ck_abort_msg("%s, --format=%s: the ends put in "
				    "order in place differ", path, fmts[i]);
			*nstacks += strchr(want, ';') != NULL;
			free(want);
			free(got);
		}
	profile_free(p);
}

START_TEST(test_report_ends)
{
	size_t	nfiles, nstacks = 0;

	msg_set_quiet(1);
	nfiles = each_profile("profiles", report_ends, &nstacks);
	nfiles += each_profile("producers", report_ends, &nstacks);
	/* Not vacuous: stacks of more than one frame, in many files. */
	ck_assert_uint_ge(nfiles, 25);
	ck_assert_uint_ge(nstacks, 40);
	msg_reset();
}
END_TEST

/*
 * Return p (read from path, its machine code kept if instrs is set),
 * or NULL if it cannot be read.
 */
static struct profile *
report_load(const char *path, int instrs)
{
	struct parse_opts	 po;
	struct profile		*p = profile_create();

	memset(&po, 0, sizeof(po));
	if (instrs)
		po.instrs = PARSE_INSTRS_ALL;
	if (load_file(p, path, &po) != 0) {
		profile_free(p);
		return NULL;
	}
	(void)profile_done(p);
	return p;
}

/* Return p's export in format, every function (read from path). */
static char *
report_format_of(const struct profile *p, const char *path,
    const char *format)
{
	struct report_opts	 o;
	struct report_run	 run;

	memset(&o, 0, sizeof(o));
	o.format = format_find(format);
	o.threshold = "100";
	memset(&run, 0, sizeof(run));
	run.profile_name = path;
	return report_of(p, &o, &run);
}

/* Return the callgrind export of p, in blocks of block items. */
static char *
report_callgrind_of(const struct profile *p, const char *path, size_t block)
{
	char	*text;

	hooks.cgw_block = block;
	text = report_format_of(p, path, "callgrind");
	hooks.cgw_block = 0;
	return text;
}

/*
 * Compare path's callgrind export made in blocks of one item or more
 * (each function's a block: two threads, in turn) with it made in one
 * block (one thread); count in *nfns the functions written.
 */
static void
report_turns(const char *path, void *arg)
{
	struct profile		*p;
	size_t			*nfns = arg;
	char			*want, *got;
	const char		*s;
	size_t			 block;

	if ((p = report_load(path, 1)) == NULL)
		return;
	want = report_callgrind_of(p, path, SIZE_MAX);
	for (block = 1; block <= 64; block *= 8) {
		got = report_callgrind_of(p, path, block);
		if (strcmp(want, got) != 0)
			ck_abort_msg("%s: the callgrind export made in blocks "
			    "of %zu items differs", path, block);
		free(got);
	}
	for (s = want; (s = strstr(s, "\nfn=")) != NULL; s++)
		(*nfns)++;
	free(want);
	profile_free(p);
}

START_TEST(test_report_callgrind_turns)
{
	size_t	nfiles, nfns = 0;

	msg_set_quiet(1);
	nfiles = each_profile("profiles", report_turns, &nfns);
	nfiles += each_profile("asm", report_turns, &nfns);
	nfiles += each_profile("producers", report_turns, &nfns);
	/* Not vacuous: many functions, each a block. */
	ck_assert_uint_ge(nfiles, 25);
	ck_assert_uint_ge(nfns, 1000);
	msg_reset();
}
END_TEST

/*
 * Compare path's speedscope export, each event's profile written in a
 * second thread while the next is made, with it made and written in
 * turn in one thread; count in *nmulti the exports of several events.
 */
static void
report_ss_pipe(const char *path, void *arg)
{
	struct profile		*p;
	size_t			*nmulti = arg;
	char			*want, *got;
	const char		*s;
	size_t			 n = 0;

	if ((p = report_load(path, 0)) == NULL)
		return;
	hooks.ss_serial = 1;
	want = report_format_of(p, path, "speedscope");
	hooks.ss_serial = 0;
	got = report_format_of(p, path, "speedscope");
	if (strcmp(want, got) != 0)
		ck_abort_msg("%s: the speedscope export written in a second "
		    "thread differs", path);
	for (s = want; (s = strstr(s, "\"sampled\"")) != NULL; s++)
		n++;
	*nmulti += n > 1;
	free(want);
	free(got);
	profile_free(p);
}

/*
 * Every test profile's speedscope export is the same written in a
 * second thread, event by event, as written in one.
 */
START_TEST(test_report_speedscope_pipe)
{
	size_t	nfiles, nmulti = 0;

	msg_set_quiet(1);
	nfiles = each_profile("profiles", report_ss_pipe, &nmulti);
	nfiles += each_profile("producers", report_ss_pipe, &nmulti);
	nfiles += each_profile("real", report_ss_pipe, &nmulti);
	/* Not vacuous: several events in many of them. */
	ck_assert_uint_ge(nfiles, 25);
	ck_assert_uint_ge(nmulti, 5);
	msg_reset();
}
END_TEST

/*
 * Check that the frames of path's flame graph, in their depth-first
 * order (s->dfs), are those found from child to next sibling, up to a
 * parent's sibling after the last: each once; count the frames.
 */
static void
report_dfs(const char *path, void *arg)
{
	struct report_opts	 o;
	struct report_run	 run;
	struct selection	*sel;
	const struct flamesel	*s;
	struct profile		*p;
	size_t			*nframes = arg, k = 0;
	uint32_t		 v;

	if ((p = report_load(path, 0)) == NULL)
		return;
	memset(&o, 0, sizeof(o));
	o.format = format_find("svg");
	o.threshold = "100";
	memset(&run, 0, sizeof(run));
	run.profile_name = path;
	ck_assert_ptr_nonnull(sel = select_build(p, NULL, &o, &run));
	s = sel->flame;
	for (v = s->frames[0].child; v != UINT32_MAX; k++) {
		ck_assert_msg(k + 1 < s->nframes && s->dfs[k] == v,
		    "%s: frame %zu depth first is %u, not %u", path, k,
		    k + 1 < s->nframes ? s->dfs[k] : 0, v);
		if (s->frames[v].child != UINT32_MAX) {
			v = s->frames[v].child;
			continue;
		}
		while (v != 0 && s->frames[v].next == UINT32_MAX)
			v = s->frames[v].parent;
		v = v == 0 ? UINT32_MAX : s->frames[v].next;
	}
	ck_assert_uint_eq(k + 1, s->nframes);
	*nframes += k;
	select_free(sel);
	profile_free(p);
}

/*
 * Every test profile's flame graph frames, in the depth-first order the
 * stack views take them in, are those the frames' links give.
 */
START_TEST(test_report_dfs)
{
	size_t	nframes = 0;

	msg_set_quiet(1);
	each_profile("profiles", report_dfs, &nframes);
	each_profile("producers", report_dfs, &nframes);
	each_profile("real", report_dfs, &nframes);
	/* Not vacuous: deep and wide stacks among them. */
	ck_assert_uint_ge(nframes, 10000);
	msg_reset();
}
END_TEST

/*
 * Sum the samples of the gzip-compressed pprof message in file fp (read
 * as a profile is: input.c) by their leaf's function, a name in a file
 * (or, byname set, a name in any file), event by event: in kt, the pair
 * of their string indexes (the file's 0 by name), an id of sums
 * (nk a sample, *sums_cap allocated); count their location ids in *ids,
 * their leaves at line 0 and with an address; return the message,
 * unpacked, to be freed.
 */
static Perftools__Profiles__Profile *
pprof_sums(FILE *fp, int byname, struct keytab *kt, uint64_t **sums,
    size_t *sums_cap, size_t nk, uint64_t *ids, size_t *at0, size_t *addr)
{
	Perftools__Profiles__Profile *m;
	Perftools__Profiles__Location *l;
	Perftools__Profiles__Function *f;
	struct input	*in;
	char		*raw = NULL;
	uint64_t	 key;
	size_t		 rcap = 0, len = 0, i, k;
	ssize_t		 r;
	uint32_t	 j;
	int		 created;

	ck_assert_int_eq(fflush(fp), 0);
	ck_assert_int_eq(lseek(fileno(fp), 0, SEEK_SET), 0);
	ck_assert_ptr_nonnull(in = input_fdopen(dup(fileno(fp)), "pprof"));
	do {
		raw = xgrow(raw, &rcap, len + 65536, 1);
		ck_assert_int_ge(r = input_read(in, raw + len, rcap - len), 0);
		len += (size_t)r;
	} while (r > 0);
	ck_assert_int_eq(input_compressed(in), 1);
	input_close(in);
	m = perftools__profiles__profile__unpack(NULL, len, (uint8_t *)raw);
	free(raw);
	ck_assert_ptr_nonnull(m);
	*ids = 0;
	*at0 = *addr = 0;
	for (i = 0; i < m->n_sample; i++) {
		ck_assert_uint_ge(m->sample[i]->n_location_id, 1);
		ck_assert_uint_eq(m->sample[i]->n_value, nk);
		*ids += m->sample[i]->n_location_id;
		/* Location and function ids are their index + 1 here. */
		l = m->location[m->sample[i]->location_id[0] - 1];
		ck_assert_uint_eq(l->id, m->sample[i]->location_id[0]);
		f = m->function[l->line[0]->function_id - 1];
		ck_assert_uint_eq(f->id, l->line[0]->function_id);
		*at0 += l->line[0]->line == 0;
		*addr += l->address != 0;
		key = keytab_pair((uint32_t)f->name, byname ? 0 :
		    (uint32_t)f->filename);
		j = keytab_get(kt, &key, &created);
		if (created) {
			*sums = xgrow(*sums, sums_cap, ((size_t)j + 1) * nk,
			    sizeof(**sums));
			memset(*sums + (size_t)j * nk, 0, nk * sizeof(**sums));
		}
		for (k = 0; k < nk; k++)
			(*sums)[(size_t)j * nk + k] +=
			    (uint64_t)m->sample[i]->value[k];
	}
	return m;
}

/* Check that files a and b hold the same bytes. */
static void
same_bytes(FILE *a, FILE *b)
{
	char	x[65536], y[65536];
	size_t	n, m;

	ck_assert_int_eq(fflush(a), 0);
	ck_assert_int_eq(fflush(b), 0);
	rewind(a);
	rewind(b);
	do {
		n = fread(x, 1, sizeof(x), a);
		m = fread(y, 1, sizeof(y), b);
		ck_assert_uint_eq(n, m);
		ck_assert(memcmp(x, y, n) == 0);
	} while (n > 0);
}

/*
 * Check that the sums of pprof_sums() (kt, nk events, byname as it was)
 * of message m are the self costs of p's functions of those names in
 * those files (of their lines in that file; byname, in every file), and
 * that no other function has any.
 */
static void
pprof_check_self(const struct profile *p, const Perftools__Profiles__Profile
    *m, int byname, const struct keytab *kt, const uint64_t *sums, size_t nk)
{
	struct strtab	*st = strtab_create();
	uint32_t	 i, fn, file, ffile, obj, name, a, b, j;
	uint64_t	*want, *c, line, key;
	size_t		 k;

	/* pprof's strings, each once, at their index. */
	for (i = 0; i < m->n_string_table; i++)
		ck_assert_uint_eq(strtab_intern(st, m->string_table[i],
		    strlen(m->string_table[i])), i);
	want = xcalloc(((size_t)kt->n + 1) * nk, sizeof(*want));
	c = xreallocarray(NULL, profile_nevents(p), sizeof(*c));
	for (i = 0; i < profile_nlines(p); i++) {
		profile_line(p, i, &fn, &file, &line);
		profile_func(p, fn, &obj, &ffile, &name);
		a = strtab_find(st, profile_str(p, name),
		    profile_strlen(p, name));
		b = byname ? 0 : strtab_find(st, profile_str(p, file),
		    profile_strlen(p, file));
		key = keytab_pair(a, b);
		if (a >= m->n_string_table || b >= m->n_string_table ||
		    (j = keytab_find(kt, &key)) == KEYTAB_NONE)
			j = kt->n;	/* not in the samples */
		profile_line_cost(p, i, c);
		for (k = 0; k < nk; k++)
			if (c[k] != COST_NONE)
				want[(size_t)j * nk + k] += c[k];
	}
	for (j = 0; j < kt->n; j++)
		for (k = 0; k < nk; k++)
			ck_assert_uint_eq(sums[(size_t)j * nk + k],
			    want[(size_t)j * nk + k]);
	for (k = 0; k < nk; k++)
		ck_assert_uint_eq(want[(size_t)kt->n * nk + k], 0);
	strtab_free(st);
	free(want);
	free(c);
}

/*
 * pprof's samples within a budget of frames (a hook, in place of
 * millions): the costliest functions keep their lines or instructions,
 * the others go whole; below what every function whole takes, each goes
 * as one (at line 0 of its own file), the costliest whole where they
 * fit; past that too, every function as one, and the message says how
 * many frames that holds.  Every function's self cost of every event
 * stays exact (in each file, or in all as one), and the message says
 * what was done.
 */
START_TEST(test_report_pprof_budget)
{
	struct report_opts	 o;
	struct report_run	 run;
	struct parse_opts	 po;
	struct profile		*p = profile_create(), *q = profile_create();
	Perftools__Profiles__Profile *m;
	const char		*path = CGA_TESTDATA "/real/sqlite3.out.gz";
	const char		*say[4] = { NULL, "the others whole",
				    "with every function as one",
				    "the others as one" };
	struct keytab		 kt;
	uint64_t		*sums = NULL, ids, full = 0, one = 0, most = 0;
	size_t			 at0, addr, k, nk, cap = 0, keys[4];
	FILE			*out, *uncut;
	int			 pass, said, byname, j, rc;

	msg_set_quiet(1);
	memset(&po, 0, sizeof(po));
	po.instrs = 1;
	ck_assert_int_eq(load_file(p, path, &po), 0);
	(void)profile_done(p);
	po.instrs = PARSE_INSTRS_SITES;
	ck_assert_int_eq(load_file(q, path, &po), 0);
	(void)profile_done(q);
	nk = profile_nevents(p);
	for (pass = 0; pass < 4; pass++) {
		memset(&o, 0, sizeof(o));
		o.format = format_find("pprof");
		o.threshold = "100";
		memset(&run, 0, sizeof(run));
		run.profile_name = path;
		/* None, a quarter, next to none, a little above as one. */
		most = pass == 0 ? 0 : pass == 1 ? full / 4 : pass == 2 ? 1 :
		    one + 1000;
		hooks.pprof_frames = (size_t)most;
		ck_assert_ptr_nonnull(out = tmpfile());
		ck_assert_int_eq(report_print(out, p, NULL, &o, &run), 0);
		/* The dry walk cut at the budget changes no byte. */
		ck_assert_ptr_nonnull(uncut = tmpfile());
		hooks.pprof_uncut = 1;
		ck_assert_int_eq(report_print(uncut, p, NULL, &o, &run), 0);
		hooks.pprof_uncut = 0;
		same_bytes(out, uncut);
		ck_assert_int_eq(fclose(uncut), 0);
		/*
		 * Read with the calls' sites alone: the same bytes where
		 * every function goes as one or whole, else asks for every
		 * instruction having written nothing.
		 */
		ck_assert_ptr_nonnull(uncut = tmpfile());
		rc = report_print(uncut, q, NULL, &o, &run);
		if (pass < 2) {
			ck_assert_int_eq(rc, REPORT_NEED_INSTRS);
			ck_assert_int_eq(fflush(uncut), 0);
			ck_assert_int_eq(ftell(uncut), 0);
		} else {
			ck_assert_int_eq(rc, 0);
			same_bytes(out, uncut);
		}
		ck_assert_int_eq(fclose(uncut), 0);
		hooks.pprof_frames = 0;
		keytab_init(&kt, 1);
		/* As one, a function's self cost is in its own file. */
		byname = pass >= 2;
		/* The leaves' functions by name and file, counted. */
		m = pprof_sums(out, 0, &kt, &sums, &cap, nk, &ids, &at0,
		    &addr);
		keys[pass] = kt.n;
		if (byname) {
			perftools__profiles__profile__free_unpacked(m, NULL);
			keytab_free(&kt);
			keytab_init(&kt, 1);
			m = pprof_sums(out, 1, &kt, &sums, &cap, nk, &ids,
			    &at0, &addr);
		}
		ck_assert_int_eq(fclose(out), 0);
		/* What the comments say of the budget (pass 0: nothing). */
		for (k = 0, said = 0; k < m->n_comment; k++)
			for (j = pass > 0 ? pass : 1; j <= (pass > 0 ? pass :
			    3); j++)
				said += strstr(m->string_table[m->comment[k]],
				    say[j]) != NULL;
		if (pass == 0) {
			/* Every instruction its own leaf: not vacuous. */
			full = ids;
			ck_assert_uint_gt(full, 400000);
			ck_assert_int_eq(said, 0);
			ck_assert_uint_gt(addr, 50000);
		} else if (pass == 1) {
			ck_assert_uint_le(ids, most);
			ck_assert_int_eq(said, 1);
			ck_assert_uint_gt(at0, 0);
			ck_assert_uint_gt(addr, 0);
		} else if (pass == 2) {
			/* Over even as one: every leaf at line 0. */
			one = ids;
			ck_assert_uint_gt(ids, most);
			ck_assert_uint_lt(ids, full / 4);
			ck_assert_int_eq(said, 1);
			ck_assert_uint_eq(at0, m->n_sample);
			ck_assert_uint_eq(addr, 0);
			ck_assert_uint_lt(keys[2], keys[0]);
		} else {
			ck_assert_uint_le(ids, most);
			ck_assert_uint_gt(ids, one);
			ck_assert_int_eq(said, 1);
			ck_assert_uint_eq(at0, m->n_sample);
			/* Some functions by file again, not all. */
			ck_assert_uint_gt(keys[3], keys[2]);
		}
		/* Each function's self cost (in each file), every event. */
		pprof_check_self(p, m, byname, &kt, sums, nk);
		keytab_free(&kt);
		perftools__profiles__profile__free_unpacked(m, NULL);
	}
	free(sums);
	profile_free(q);
	profile_free(p);
	msg_reset();
}
END_TEST

Suite *
make_report_suite(void)
{
	Suite	*s = suite_create("report");
	TCase	*tc = check_tcase();

	tcase_add_test(tc, test_report_split);
	tcase_add_test(tc, test_report_pprof_budget);
	tcase_add_test(tc, test_report_ends);
	tcase_add_test(tc, test_report_callgrind_turns);
	tcase_add_test(tc, test_report_speedscope_pipe);
	tcase_add_test(tc, test_report_dfs);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * check_ahead.c - reading a file in two threads, chunks read ahead and
 * taken over, gives what reading it in order gives: the same reports
 * (text with trees, inclusive costs and parts; JSON with every line's
 * cost), the same model (every function, line and arc in the order of
 * their ids) and the same messages, for every test profile, valid or
 * not, cut into chunks of many sizes (down to one function a chunk).  And
 * the relay's thread, which reads compressed input and pipes, prints
 * nothing itself and stops when told, even in the middle of a read.
 * gzip data is read the same by both inflaters (ISA-L's, zlib's): every
 * test profile, members of every kind, output taken in blocks of any
 * size, and data cut short, damaged or followed by garbage refused.
 */
#include "base/compat.h"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "base/hooks.h"
#include "base/msg.h"
#include "base/strtab.h"
#include "base/xmalloc.h"
#include "check_suites.h"
#include "check_util.h"
#include "model/instrs.h"
#include "model/profile.h"
#include "model/stacks.h"
#include "read/input.h"
#include "read/load.h"
#include "read/parse.h"
#include "read/parse_ahead.h"
#include "read/parser.h"
#include "read/relay.h"
#include "select/select.h"
#include "view/format.h"
#include "view/report.h"

static size_t	ahead_said;	/* runs that printed messages */
static size_t	ahead_timed;	/* segments taken over when the second
				   thread chose its chunks */
static size_t	ahead_stacked;	/* runs that kept stacks */
static size_t	ahead_streamed;	/* segments taken over from a gzip copy's
				   chunks in memory */

/*
 * Print the machine code costs p kept, in the order of their ids: every
 * instruction (function, address, file, line, counts), jump and call.
 */
static void
ahead_instrs(FILE *out, const struct profile *p)
{
	const struct instrs	*t = profile_instrs(p);
	const struct ijump	*j;
	const struct icall	*c;
	uint64_t		*cost, addr, line;
	uint32_t		 i, fn, file, obj, ffile, name;
	unsigned		 e, n;

	if (t == NULL) {
		fputs("no machine code\n", out);
		return;
	}
	n = instrs_nevents(t);
	cost = xcalloc(n + 1, sizeof(*cost));
	for (i = 0; i < instrs_count(t); i++) {
		instrs_get(t, i, &fn, &addr, &file, &line);
		profile_func(p, fn, &obj, &ffile, &name);
		fprintf(out, "i %s %#llx %s:%llu", profile_str(p, name),
		    (unsigned long long)addr, profile_str(p, file),
		    (unsigned long long)line);
		instrs_cost(t, i, cost);
		for (e = 0; e < n; e++)
			fprintf(out, " %llu", (unsigned long long)cost[e]);
		fputc('\n', out);
	}
	free(cost);
	for (i = 0; i < instrs_njumps(t); i++) {
		j = instrs_jump(t, i);
		profile_func(p, j->fn, &obj, &ffile, &name);
		fprintf(out, "j %s %d %#llx %#llx %llu %llu\n",
		    profile_str(p, name), j->cond, (unsigned long long)j->addr,
		    (unsigned long long)j->target,
		    (unsigned long long)j->executed,
		    (unsigned long long)j->taken);
	}
	for (i = 0; i < instrs_ncalls(t); i++) {
		c = instrs_call(t, i);
		profile_func(p, c->fn, &obj, &ffile, &name);
		fprintf(out, "c %s %#llx", profile_str(p, name),
		    (unsigned long long)c->addr);
		profile_func(p, c->callee, &obj, &ffile, &name);
		fprintf(out, " %s %llu", profile_str(p, name),
		    (unsigned long long)c->count);
		for (e = 0; e < n; e++)
			fprintf(out, " %llu",
			    (unsigned long long)instrs_call_cost(t, i)[e]);
		fputc('\n', out);
	}
}

/*
 * Print the model p holds, in the order of its ids: every function,
 * every line (function, file, number, counts), every stack kept (an
 * xtree file's) and every call arc; a line or arc twice, which a report
 * would sum, shows here.
 */
static void
ahead_model(FILE *out, const struct profile *p)
{
	const struct stacks *st;
	uint64_t	*cost, line;
	const uint64_t	*c;
	const uint32_t	*fr;
	uint32_t	 i, fn, file, obj, ffile, name, pair, callee;
	unsigned	 e, n = profile_nevents(p);
	size_t		 j, nfr;

	cost = xcalloc(n + 1, sizeof(*cost));
	for (i = 0; i < profile_nfuncs(p); i++) {
		profile_func(p, i, &obj, &ffile, &name);
		fprintf(out, "f %s %s %s\n", profile_str(p, obj),
		    profile_str(p, ffile), profile_str(p, name));
	}
	for (i = 0; i < profile_nlines(p); i++) {
		profile_line(p, i, &fn, &file, &line);
		profile_line_cost(p, i, cost);
		fprintf(out, "l %u %s:%llu", fn, profile_str(p, file),
		    (unsigned long long)line);
		for (e = 0; e < n; e++)
			fprintf(out, " %llu", (unsigned long long)cost[e]);
		fputc('\n', out);
	}
	if ((st = profile_stacks(p)) != NULL && stacks_count(st) > 0)
		ahead_stacked++;
	for (i = 0; st != NULL && i < stacks_count(st);
	    i++) {
		fr = stacks_frames(st, i, &nfr);
		fputs("s", out);
		for (j = 0; j < nfr; j++)
			fprintf(out, " %u", fr[j]);
		for (e = 0; e < n; e++)
			fprintf(out, " %llu",
			    (unsigned long long)stacks_cost(st, i)[e]);
		fputc('\n', out);
	}
	for (i = 0; i < profile_narcs(p); i++) {
		profile_arc(p, i, &fn, &callee, &file, &line);
		pair = profile_arc_pair(p, i);
		fprintf(out, "a %u %u %s:%llu %u %llu", pair, fn,
		    profile_str(p, file), (unsigned long long)line, callee,
		    (unsigned long long)profile_arc_count(p, i));
		c = profile_arc_cost(p, i);
		for (e = 0; e < n; e++)
			fprintf(out, " %llu", (unsigned long long)c[e]);
		fputc('\n', out);
	}
	free(cost);
}

/*
 * Read path with the options base and chunks of about chunk bytes (0:
 * in order), or its gzip copy gz (if not NULL) under its name, and
 * return what it printed on stderr, then its two reports, as one
 * string.
 */
static char *
ahead_run(const char *path, const char *gz, const struct parse_opts *po,
    size_t chunk, int alternate, size_t *nadopted)
{
	struct report_opts	 o;
	struct report_run	 run;
	struct profile		*p = profile_create();
	FILE			*err, *out;
	char			*text = NULL, line[4096];
	size_t			 len = 0;
	int			 saved, rc, fd;

	hooks.chunk = chunk;
	hooks.alternate = alternate;
	hooks.nadopted = nadopted;
	memset(&o, 0, sizeof(o));
	o.format = &formats[0];
	memset(&run, 0, sizeof(run));
	run.profile_name = path;
	o.threshold = "100";
	o.show_percs = 1;
	o.tree = REPORT_TREE_CALLER | REPORT_TREE_CALLING;
	o.inclusive = 1;
	o.per_part = 1;
	if (po->drop_calls) {
		/* The report that reads no calls (parse_opts' drop_calls). */
		o.tree = 0;
		o.inclusive = 0;
	}

	msg_reset();
	msg_set_quiet(0);
	ck_assert_ptr_nonnull(err = tmpfile());
	fflush(stderr);
	ck_assert_int_ne(saved = dup(STDERR_FILENO), -1);
	ck_assert_int_ne(dup2(fileno(err), STDERR_FILENO), -1);
	if (gz != NULL) {
		ck_assert_int_ne(fd = open(gz, O_RDONLY), -1);
		rc = load_fd(p, fd, path, po);
	} else
		rc = load_file(p, path, po);
	(void)profile_done(p);
	memset(&hooks, 0, sizeof(hooks));
	msg_flush();
	fflush(stderr);
	ck_assert_int_ne(dup2(saved, STDERR_FILENO), -1);
	close(saved);
	msg_set_quiet(1);

	if (ftell(err) > 0)
		ahead_said++;
	ck_assert_ptr_nonnull(out = open_memstream(&text, &len));
	rewind(err);
	while (fgets(line, sizeof(line), err) != NULL)
		fputs(line, out);
	fclose(err);
	fprintf(out, "parse: %d\n", rc);
	if (rc == 0) {
		fprintf(out, "report: %d\n", report_print(out, p, NULL, &o,
		    &run));
		o.format = format_find("json");
		fprintf(out, "json: %d\n", report_print(out, p, NULL, &o,
		    &run));
		ahead_model(out, p);
		if (po->instrs)
			ahead_instrs(out, p);
	}
	fclose(out);
	profile_free(p);
	return text;
}

/* Return the name of a new gzip copy of path, made with zlib. */
static char *
ahead_gzip(const char *path)
{
	char	*gz, buf[8192];
	FILE	*f;
	gzFile	 z;
	size_t	 n;
	int	 fd;

	gz = xstrdup("/tmp/check_ahead.XXXXXX");
	ck_assert_int_ne(fd = mkstemp(gz), -1);
	ck_assert_ptr_nonnull(z = gzdopen(fd, "wb1"));
	ck_assert_ptr_nonnull(f = fopen(path, "rb"));
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		ck_assert_int_eq(gzwrite(z, buf, (unsigned)n), (int)n);
	fclose(f);
	ck_assert_int_eq(gzclose(z), Z_OK);
	return gz;
}

static const size_t	 ahead_chunks[] = { 1, 3, 64, 700, 5000, 40000 };
#define AHEAD_NCHUNKS	(sizeof(ahead_chunks) / sizeof(ahead_chunks[0]))

/*
 * Read path (from its copy gz if not NULL) in chunks of ahead_chunks[]
 * from the first'th on, twice each: the second thread reading the odd
 * chunks (segments taken over counted in *odd), then the chunks it
 * chooses by the speeds it measures (*timed); fail unless each read
 * gives want.
 */
static void
ahead_rounds(const char *path, const char *gz, const struct parse_opts *base,
    size_t first, const char *want, size_t *odd, size_t *timed)
{
	char	*got;
	size_t	 i;
	int	 alternate;

	for (i = 2 * first; i < 2 * AHEAD_NCHUNKS; i++) {
		alternate = i % 2 == 0;
		got = ahead_run(path, gz, base, ahead_chunks[i / 2], alternate,
		    alternate ? odd : timed);
		if (strcmp(want, got) != 0)
			ck_abort_msg("%s%s, chunks of %zu%s: differs from "
			    "reading in order", path, gz != NULL ? ", gzip" : "",
			    ahead_chunks[i / 2],
			    alternate ? ", odd ones ahead" : "");
		free(got);
	}
}

/*
 * Compare path read in order and in chunks of several sizes, with the
 * options base, and so its gzip copy, decompressed into chunks in memory
 * (chunks of a few bytes find no line "fn=" and are read in order: not
 * tried).  Return how many segments were taken over when the second
 * thread read the odd chunks (how many it reads otherwise depends on
 * timing).
 */
static size_t
ahead_compare(const char *path, const struct parse_opts *base)
{
	char	*want, *gz;
	size_t	 adopted = 0, timed = 0, streamed = 0;

	want = ahead_run(path, NULL, base, 0, 0, NULL);
	ahead_rounds(path, NULL, base, 0, want, &adopted, &timed);
	gz = ahead_gzip(path);
	ahead_rounds(path, gz, base, 2, want, &streamed, &timed);
	unlink(gz);
	free(gz);
	free(want);
	ahead_streamed += streamed;
	ahead_timed += timed;
	return adopted;
}

/* The options of a run of ahead_dirs() and what it took over. */
struct ahead_each {
	struct parse_opts	 po;
	size_t			 adopted;
};

/* Compare profile path read in order and ahead (arg: a struct ahead_each). */
static void
ahead_one(const char *path, void *arg)
{
	struct ahead_each	*a = arg;

	a->adopted += ahead_compare(path, &a->po);
}

/*
 * Compare every profile of the testdata folders dirs (n of them) read in
 * order and ahead with the options po (NULL: none); add the profiles to
 * *nfiles and return the segments taken over.
 */
static size_t
ahead_dirs(const char *const *dirs, size_t n, const struct parse_opts *po,
    size_t *nfiles)
{
	struct ahead_each	a;
	size_t			i;

	memset(&a, 0, sizeof(a));
	if (po != NULL)
		a.po = *po;
	for (i = 0; i < n; i++)
		*nfiles += each_profile(dirs[i], ahead_one, &a);
	return a.adopted;
}

/*
 * What the parsers of one file share of its compressed file ids: each
 * id's last word, kept apart or summed, unknown until said, for ids
 * from 0 to 2^64 - 1.
 */
START_TEST(test_fileids)
{
	static const uint64_t	 ids[] = { 0, 1, 5, 4095, 1048575, 1048576,
				    (uint64_t)1 << 40, UINT64_MAX };
	struct fileids		*fi = fileids_new();
	size_t			 i, n = sizeof(ids) / sizeof(ids[0]);

	for (i = 0; i < n; i++)
		ck_assert_int_eq(fileids_get(fi, ids[i]), FILEIDS_UNKNOWN);
	for (i = 0; i < n; i++)
		fileids_put(fi, ids[i], i % 2);
	for (i = 0; i < n; i++) {
		ck_assert_int_eq(fileids_get(fi, ids[i]), i % 2 ?
		    FILEIDS_KEPT : FILEIDS_SUMMED);
		ck_assert_int_eq(fileids_get(fi, ids[i] ^ 2), FILEIDS_UNKNOWN);
	}
	/* An id named again says what it names now. */
	for (i = 0; i < n; i++)
		fileids_put(fi, ids[i], (i + 1) % 2);
	for (i = 0; i < n; i++)
		ck_assert_int_eq(fileids_get(fi, ids[i]), i % 2 ?
		    FILEIDS_SUMMED : FILEIDS_KEPT);
	fileids_free(fi);
}
END_TEST

START_TEST(test_ahead_valid)
{
	static const char *const dirs[] = { "profiles", "edge" };
	size_t			 nfiles = 0, adopted;

	adopted = ahead_dirs(dirs, 2, NULL, &nfiles);
	/* Not vacuous: most chunks of valid profiles are taken over. */
	ck_assert_uint_ge(nfiles, 25);
	ck_assert_uint_gt(adopted, 5000);
	ck_assert_uint_gt(ahead_timed, 0);
	/* And from gzip copies' chunks in memory, most too. */
	ck_assert_uint_gt(ahead_streamed, 1500);
	msg_reset();
}
END_TEST

/* --part, --thread and a prefix stripped from file names, read ahead. */
START_TEST(test_ahead_options)
{
	static const char	*files[] = { "cg-combined.out",
	    "cg-threads.out", "mt/callgrind.out.4242-02", "cg-cxx.out" };
	struct parse_opts	 po;
	char			 path[1024];
	size_t			 i, k, adopted = 0;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/profiles/%s", CGA_TESTDATA,
		    files[i]);
		for (k = 0; k < 4; k++) {
			memset(&po, 0, sizeof(po));
			if (k == 0)
				po.part = "2";
			else if (k == 1)
				po.part = "1";
			else if (k == 2)
				po.thread = "2";
			else
				po.strip_prefix = "/";
			adopted += ahead_compare(path, &po);
		}
	}
	ck_assert_uint_gt(adopted, 100);
	msg_reset();
}
END_TEST

/*
 * Stacks kept (flame graphs and exports): an xtree file's read in order
 * (none ahead: a block's stack runs over its lines "fn="), every other
 * file read ahead as without them, on every valid and broken test
 * profile and valgrind's xtree files.
 */
START_TEST(test_ahead_stacks)
{
	static const char *const dirs[] = { "producers", "profiles", "edge",
	    "bad" };
	struct parse_opts	 po;
	size_t			 nfiles = 0, adopted;

	memset(&po, 0, sizeof(po));
	po.stacks = 1;
	adopted = ahead_dirs(dirs, 4, &po, &nfiles);
	ck_assert_uint_ge(nfiles, 60);
	ck_assert_uint_gt(adopted, 5000);
	/* Not vacuous: the xtree files' stacks were kept and compared. */
	ck_assert_uint_ge(ahead_stacked, 3 * 13);
	msg_reset();
}
END_TEST

/*
 * Write to f a C++ name of some hundreds of bytes to a few thousand,
 * that of function i.
 */
static void
far_name(FILE *f, uint32_t i)
{
	uint32_t	k;

	fprintf(f, "ns%u::Impl%u<", i % 7, i);
	for (k = 0; k < 3 + i % 41; k++)
		fprintf(f, "std::map<std::__cxx11::basic_string<char>, "
		    "ns%u::Node%u const*>, ", k % 5, i + k);
	fputs(">::run()", f);
}

/*
 * Write a profile of n functions with long names (C++ names and file
 * names of hundreds of bytes and more, by compressed id and literal,
 * some ending with CR LF, code inlined from long-named headers) to a
 * new file, and return its name, to be unlinked.
 */
static char *
far_profile(uint32_t n)
{
	char		*path;
	FILE		*f;
	uint32_t	 i;
	int		 fd;

	path = xstrdup("/tmp/check_ahead.XXXXXX");
	ck_assert_int_ne(fd = mkstemp(path), -1);
	ck_assert_ptr_nonnull(f = fdopen(fd, "w"));
	fputs("# callgrind format\nversion: 1\ncreator: check_ahead\n"
	    "cmd: far\npositions: line\nevents: Ir\n\nob=(1) /bin/far\n", f);
	for (i = 0; i < n; i++) {
		if (i % 4 == 0)
			fprintf(f, "fl=(%u) /usr/include/c++/12/bits/d%u/"
			    "%0300u.h\n", i + 1, i, i);
		else
			fprintf(f, "fl=(%u) f%u.cc\n", i + 1, i);
		if (i % 3 == 2) {
			fputs("fn=", f);	/* literal, named again below */
			far_name(f, i);
		} else {
			fprintf(f, "fn=(%u) ", i + 1);
			far_name(f, i);
		}
		fputs(i % 5 == 0 ? "\r\n" : "\n", f);
		fprintf(f, "%u %u\n", 10 + i % 9, 1 + i % 13);
		if (i % 6 == 1)
			fprintf(f, "fi=(%u) /usr/include/c++/12/inline/%0400u.h"
			    "\n3 4\nfe=(%u)\n", 100000 + i % 11, i % 11, i + 1);
		if (i > 2) {
			if ((i - 1) % 3 == 2) {
				fputs("cfn=", f);
				far_name(f, i - 1);
				fputc('\n', f);
			} else
				fprintf(f, "cfn=(%u)\n", i);
			fprintf(f, "calls=2 20\n%u %u\n", 11 + i % 5, 7 + i);
		}
	}
	ck_assert_int_eq(fclose(f), 0);
	return path;
}

/*
 * Return how many strings of the profile in path are left in a file,
 * read in chunks of about chunk bytes (0: in order), or from its gzip
 * copy gz if not NULL.
 */
static uint32_t
far_count(const char *path, const char *gz, size_t chunk)
{
	struct parse_opts	 po;
	struct profile		*p = profile_create();
	uint32_t		 n;
	int			 fd;

	memset(&po, 0, sizeof(po));
	hooks.chunk = chunk;
	if (gz != NULL) {
		ck_assert_int_ne(fd = open(gz, O_RDONLY), -1);
		ck_assert_int_eq(load_fd(p, fd, path, &po), 0);
	} else
		ck_assert_int_eq(load_file(p, path, &po), 0);
	memset(&hooks, 0, sizeof(hooks));
	n = strtab_nfar(profile_strtab(p));
	profile_free(p);
	return n;
}

/*
 * Long names left in the file (read back when printed) as it is read
 * in order or ahead, of a file read in blocks that end within names:
 * the same reports and model as its gzip copy gives, whose names are
 * kept in memory.
 */
START_TEST(test_ahead_far)
{
	struct parse_opts	 po;
	char			*path, *gz;

	path = far_profile(1200);
	memset(&po, 0, sizeof(po));
	ck_assert_uint_gt(ahead_compare(path, &po), 1000);
	/* Not vacuous: the names were left in the file, not the copy's. */
	ck_assert_uint_ge(far_count(path, NULL, 0), 1400);
	ck_assert_uint_ge(far_count(path, NULL, 64 * 1024), 1400);
	gz = ahead_gzip(path);
	ck_assert_uint_eq(far_count(path, gz, 0), 0);
	unlink(gz);
	free(gz);
	unlink(path);
	free(path);
	msg_reset();
}
END_TEST

/*
 * Machine code kept (--asm): every instruction, jump and call read
 * ahead and taken over as when read in order, on the programs of
 * testdata/asm and every valid and broken test profile.
 */
START_TEST(test_ahead_instrs)
{
	static const char *const dirs[] = { "asm", "profiles", "edge", "bad" };
	struct parse_opts	 po;
	size_t			 nfiles = 0, adopted;

	memset(&po, 0, sizeof(po));
	po.instrs = 1;
	adopted = ahead_dirs(dirs, 4, &po, &nfiles);
	ck_assert_uint_ge(nfiles, 60);
	ck_assert_uint_gt(adopted, 5000);
	msg_reset();
}
END_TEST

/* Keep apart the lines of a file whose name has an even length. */
static int
ahead_even(void *arg __unused, const char *name)
{
	return strlen(name) % 2 == 0;
}

static size_t	ahead_summed;	/* profiles whose lines were summed */

/* Cut text (of ahead_run()) to its text report, or NULL if none. */
static char *
ahead_report_part(char *text)
{
	char	*s, *e;

	if ((s = strstr(text, "parse: 0\n")) == NULL ||
	    (e = strstr(s, "\nreport: ")) == NULL)
		return NULL;
	*e = '\0';
	return s;
}

/*
 * Check that path read with po prints the report that reading it with
 * all prints (what for the message); return nonzero if the whole of
 * what they print (the model's too) differs.
 */
static int
ahead_same_report(const char *path, const struct parse_opts *all,
    const struct parse_opts *po, const char *what)
{
	char	*want, *got, *w, *g;
	int	 differ;

	want = ahead_run(path, NULL, all, 0, 0, NULL);
	got = ahead_run(path, NULL, po, 0, 0, NULL);
	differ = strcmp(want, got) != 0;
	w = ahead_report_part(want);
	g = ahead_report_part(got);
	if (w != NULL && (g == NULL || strcmp(w, g) != 0))
		ck_abort_msg("%s: %s, the report differs", path, what);
	free(want);
	free(got);
	return differ;
}

/*
 * Read path with the lines of some files summed (arg: a struct
 * ahead_each): read ahead, the model is that of reading in order; the
 * text report (trees, inclusive costs, parts) is that of keeping every
 * line apart.
 */
static void
ahead_lines_one(const char *path, void *arg)
{
	struct ahead_each	*a = arg;
	struct parse_opts	 all;

	a->adopted += ahead_compare(path, &a->po);
	memset(&all, 0, sizeof(all));
	if (ahead_same_report(path, &all, &a->po, "lines summed"))
		ahead_summed++;
}

static size_t	ahead_dropped;	/* profiles with calls not kept */

/*
 * Read path with the lines of some files summed and the calls made from
 * them not kept (arg: a struct ahead_each): read ahead, the model is
 * that of reading in order; the report that reads no calls (self costs
 * of each part) is that of keeping every line and call; the calls kept
 * are those made from the files whose lines are kept, all of them.
 */
static void
ahead_calls_one(const char *path, void *arg)
{
	struct ahead_each	*a = arg;
	struct parse_opts	 all;
	struct profile		*p, *q;
	uint64_t		 line;
	uint32_t		 i, fn, callee, file, kept = 0;

	a->adopted += ahead_compare(path, &a->po);
	memset(&all, 0, sizeof(all));
	all.drop_calls = 1;	/* no line summed: every call kept */
	(void)ahead_same_report(path, &all, &a->po, "calls not kept");

	p = profile_create();
	q = profile_create();
	msg_set_quiet(1);
	if (load_file(p, path, &all) == 0 && load_file(q, path, &a->po) == 0) {
		for (i = 0; i < profile_narcs(q); i++) {
			profile_arc(q, i, &fn, &callee, &file, &line);
			ck_assert_msg(!profile_file_summed(q, file),
			    "%s: a call kept from %s, summed", path,
			    profile_str(q, file));
		}
		/* Every call from a file kept, kept. */
		for (i = 0; i < profile_narcs(p); i++) {
			profile_arc(p, i, &fn, &callee, &file, &line);
			file = profile_str_find(q, profile_str(p, file));
			kept += !profile_file_summed(q, file);
		}
		ck_assert_msg(profile_narcs(q) == kept,
		    "%s: %u calls kept of %u", path, profile_narcs(q), kept);
		if (kept < profile_narcs(p))
			ahead_dropped++;
	}
	profile_free(q);
	profile_free(p);
	msg_reset();
}

/*
 * Give each valid test profile to one with a (struct ahead_each);
 * return how many there were, checking that they were many and that
 * reading ahead took many segments over.
 */
static size_t
ahead_valid(struct ahead_each *a, void (*one)(const char *, void *))
{
	static const char *const dirs[] = { "profiles", "edge" };
	size_t			 i, nfiles = 0;

	for (i = 0; i < 2; i++)
		nfiles += each_profile(dirs[i], one, a);
	ck_assert_uint_ge(nfiles, 25);
	ck_assert_uint_gt(a->adopted, 5000);
	msg_reset();
	return nfiles;
}

/*
 * Lines of some files summed as they are read (parse_opts' lines): the
 * same model read ahead as in order, the same report as every line
 * kept, on every valid test profile.
 */
START_TEST(test_ahead_lines)
{
	struct ahead_each	 a;
	size_t			 nfiles;

	memset(&a, 0, sizeof(a));
	a.po.lines = ahead_even;
	nfiles = ahead_valid(&a, ahead_lines_one);
	/* Not vacuous: most profiles had lines summed. */
	ck_assert_uint_ge(ahead_summed, nfiles / 2);
}
END_TEST

/*
 * The calls made from the lines summed not kept as well (parse_opts'
 * drop_calls), on every valid test profile.
 */
START_TEST(test_ahead_calls)
{
	struct ahead_each	 a;
	size_t			 nfiles;

	memset(&a, 0, sizeof(a));
	a.po.lines = ahead_even;
	a.po.drop_calls = 1;
	nfiles = ahead_valid(&a, ahead_calls_one);
	/* Not vacuous: a third of the profiles had calls not kept. */
	ck_assert_uint_ge(ahead_dropped, nfiles / 3);
}
END_TEST

START_TEST(test_ahead_bad)
{
	static const char *const dirs[] = { "bad" };
	size_t			 nfiles = 0;

	(void)ahead_dirs(dirs, 1, NULL, &nfiles);
	ck_assert_uint_gt(nfiles, 30);
	/* Not vacuous: the messages are compared. */
	ck_assert_uint_gt(ahead_said, 30 * 13);
	msg_reset();
}
END_TEST

/*
 * A gzip copy cut short, read in chunks decompressed into memory: the
 * messages of the lines before the cut, then the read error, as read in
 * order; on every valid test profile cut at four places.
 */
static void
ahead_cut_one(const char *path, void *arg)
{
	struct parse_opts	 po;
	char			*gz, *cut, *want, *got, *data;
	size_t			*ncut = arg, len, k, i;
	FILE			*f;
	int			 fd;

	memset(&po, 0, sizeof(po));
	gz = ahead_gzip(path);
	data = check_file_bytes(gz, &len);
	cut = xstrdup("/tmp/check_ahead.XXXXXX");
	ck_assert_int_ne(fd = mkstemp(cut), -1);
	close(fd);
	for (k = 1; k < 5; k++) {
		ck_assert_ptr_nonnull(f = fopen(cut, "wb"));
		ck_assert_uint_eq(fwrite(data, 1, len * k / 5, f),
		    len * k / 5);
		fclose(f);
		want = ahead_run(cut, NULL, &po, 0, 0, NULL);
		ck_assert_ptr_nonnull(strstr(want, "gzip data cut short"));
		for (i = 0; i < 2; i++) {
			got = ahead_run(cut, NULL, &po, i == 0 ? 64 : 700, i,
			    NULL);
			if (strcmp(want, got) != 0)
				ck_abort_msg("%s, gzip cut at %zu/5: differs "
				    "from reading in order", path, k);
			free(got);
		}
		free(want);
		(*ncut)++;
	}
	unlink(cut);
	unlink(gz);
	free(cut);
	free(gz);
	free(data);
}

START_TEST(test_ahead_cut)
{
	size_t	ncut = 0;

	(void)each_profile("profiles", ahead_cut_one, &ncut);
	ck_assert_uint_ge(ncut, 4 * 20);
	msg_reset();
}
END_TEST

/* A read error in the relay's thread is printed by the caller, at the end. */
START_TEST(test_relay_error)
{
	char		 path[] = "/tmp/check_relay.XXXXXX", src[4096];
	FILE		*f;
	size_t		 len;
	int		 fd;
	struct input	*in;
	struct relay	*r;
	const char	*buf;
	uint64_t	 tell;
	ssize_t		 n;
	size_t		 blocks = 0;

	/* A gzip profile cut short. */
	snprintf(src, sizeof(src), "%s/profiles/cg-default.out.gz",
	    CGA_TESTDATA);
	ck_assert_ptr_nonnull(f = fopen(src, "rb"));
	len = fread(src, 1, 3000, f);
	fclose(f);
	ck_assert_uint_eq(len, 3000);
	ck_assert_int_ne(fd = mkstemp(path), -1);
	ck_assert_int_eq(write(fd, src, len), (ssize_t)len);
	close(fd);

	msg_reset();
	ck_assert_ptr_nonnull(in = input_open(path));
	r = relay_start(in, 512);
	if (sysconf(_SC_NPROCESSORS_ONLN) >= 2)
		ck_assert_ptr_nonnull(r);
	if (r != NULL) {
		while ((n = relay_next(r, &buf, &tell)) > 0)
			blocks++;
		ck_assert_int_eq(n, -1);
		ck_assert_uint_gt(blocks, 2);
		/* Its thread is done, and printed nothing. */
		ck_assert_uint_eq(msg_count(MSG_READ), 0);
		relay_stop(r);
		input_report(in);
		ck_assert_uint_eq(msg_count(MSG_READ), 1);
	}
	input_close(in);
	unlink(path);
	msg_reset();
}
END_TEST

/* Where a block of test_relay_pump() may end: after its last newline. */
static size_t
relay_cut_nl(const char *s, size_t n)
{
	while (n > 1 && s[n - 1] != '\n')
		n--;
	return n > 1 ? n : 0;
}

/*
 * A second thread reading a cut relay's blocks ahead while the first
 * does, until the input is over or the relay told to quit.
 */
static void *
relay_pumper(void *arg)
{
	struct relay	*r = arg;
	uint64_t	 k, n = 0;

	for (;;) {
		k = relay_filled(r);
		if (relay_wait(r, k) <= k)
			break;
		if (++n % 16 == 0)
			sched_yield();
	}
	return NULL;
}

/*
 * A cut relay is read by its callers' threads, one block at a time: the
 * ring fills and then reads no more until a block is given back; two
 * threads reading by turns, one of them also taking the blocks in
 * order, give every byte once and in order, however they meet.
 */
START_TEST(test_relay_pump)
{
	char			 src[4096], *gz, *want, *got;
	struct relay_chunk	 rc;
	struct input		*in;
	struct relay		*r;
	pthread_t		 thr;
	size_t			 wlen, glen = 0, i, round;
	uint64_t		 k;

	snprintf(src, sizeof(src), "%s/profiles/cg-instr-jumps.out",
	    CGA_TESTDATA);
	want = check_file_bytes(src, &wlen);
	ck_assert_uint_gt(wlen, 64 * 1024);
	gz = ahead_gzip(src);
	for (round = 0; round < 40; round++) {
		ck_assert_ptr_nonnull(in = input_open(gz));
		r = relay_cut(in, 512, relay_cut_nl);
		if (r == NULL) {	/* one processor */
			input_close(in);
			break;
		}
		/* Nothing is read until asked; then the ring fills, no more. */
		ck_assert_uint_eq(relay_filled(r), 0);
		for (i = 0; relay_pump(r); i++)
			;
		ck_assert_uint_eq(i, RELAY_CUT_BLOCKS);
		ck_assert_int_eq(relay_pump(r), 0);
		ck_assert_uint_eq(relay_filled(r), RELAY_CUT_BLOCKS);
		ck_assert_int_eq(pthread_create(&thr, NULL, relay_pumper, r),
		    0);
		got = xmalloc(wlen + 1);
		glen = 0;
		for (k = 0; relay_wait(r, k) > k; k++) {
			if (relay_block(r, k, &rc) <= 0)
				break;
			ck_assert_uint_eq(rc.start, glen);
			ck_assert_uint_le(glen + (size_t)rc.n, wlen);
			memcpy(got + glen, rc.buf, (size_t)rc.n);
			glen += (size_t)rc.n;
			relay_release(r, k + 1);
		}
		ck_assert_int_eq(rc.n, 0);
		relay_quit(r);
		pthread_join(thr, NULL);
		ck_assert_uint_eq(glen, wlen);
		ck_assert_int_eq(memcmp(got, want, wlen), 0);
		free(got);
		relay_stop(r);
		input_close(in);
	}
	unlink(gz);
	free(gz);
	free(want);
}
END_TEST

/* Stopped while its thread waits on a pipe nobody writes to. */
START_TEST(test_relay_stop)
{
	int		 pfd[2];
	struct input	*in;
	struct relay	*r;
	const char	*buf;
	uint64_t	 tell;

	ck_assert_int_eq(pipe(pfd), 0);
	ck_assert_int_eq(write(pfd[1], "version: 1\n", 11), 11);
	ck_assert_ptr_nonnull(in = input_fdopen(pfd[0], "pipe"));
	if ((r = relay_start(in, 512)) != NULL) {
		/* What was read to look for a magic number, then nothing. */
		ck_assert_int_gt(relay_next(r, &buf, &tell), 0);
		relay_stop(r);
	}
	input_close(in);
	close(pfd[1]);
}
END_TEST

/* gzip data made by zlib's deflate, and what it holds. */
struct gzcase {
	unsigned char	*gz;		/* the compressed bytes */
	size_t		 len, cap;
	size_t		 mid;		/* where the second member starts */
	char		*plain;		/* what they hold */
	size_t		 plen;
	size_t		 files;
};

/*
 * Append a gzip member holding the n bytes at data to c, at level (0:
 * stored blocks); with named, its header has a name, a comment, an
 * extra field and its own CRC.
 */
static void
gz_member(struct gzcase *c, const char *data, size_t n, int level,
    int named)
{
	z_stream	 z;
	gz_header	 h;
	unsigned char	 extra[4] = { 'C', 'G', 0, 0 };

	memset(&z, 0, sizeof(z));
	ck_assert_int_eq(deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8,
	    Z_DEFAULT_STRATEGY), Z_OK);
	if (named) {
		memset(&h, 0, sizeof(h));
		h.name = (Bytef *)"callgrind.out.1";
		h.comment = (Bytef *)"a comment";
		h.extra = extra;
		h.extra_len = sizeof(extra);
		h.hcrc = 1;
		ck_assert_int_eq(deflateSetHeader(&z, &h), Z_OK);
	}
	c->gz = xgrow(c->gz, &c->cap, c->len + deflateBound(&z, n) + 64, 1);
	z.next_in = (Bytef *)(uintptr_t)data;
	z.avail_in = (uInt)n;
	z.next_out = c->gz + c->len;
	z.avail_out = (uInt)(c->cap - c->len);
	ck_assert_int_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
	c->len = c->cap - z.avail_out;
	deflateEnd(&z);
	c->plain = xreallocarray(c->plain, c->plen + n + 1, 1);
	memcpy(c->plain + c->plen, data, n);
	c->plen += n;
}

/*
 * Read the file path with the inflater asked (zlib's or not) in reads of
 * block bytes; return what was read (*n bytes) or NULL after an error,
 * whose message must have been told.
 */
static char *
gz_read(const char *path, int zlib, size_t block, size_t *n)
{
	struct input	*in;
	char		*out = NULL;
	size_t		 cap = 0;
	ssize_t		 r;

	hooks.gzip_zlib = zlib;
	msg_reset();
	ck_assert_ptr_nonnull(in = input_open(path));
	ck_assert_int_ne(input_compressed(in), 0);
	*n = 0;
	for (;;) {
		out = xgrow(out, &cap, *n + block, 1);
		if ((r = input_read(in, out + *n, block)) <= 0)
			break;
		*n += (size_t)r;
	}
	input_close(in);
	hooks.gzip_zlib = 0;
	if (r < 0) {
		ck_assert_uint_eq(msg_count(MSG_READ), 1);
		free(out);
		out = NULL;
	} else
		ck_assert_uint_eq(msg_count(MSG_READ), 0);
	msg_reset();
	return out;
}

/* Write the len bytes at gz to path. */
static void
gz_write(const char *path, const unsigned char *gz, size_t len)
{
	FILE	*f;

	ck_assert_ptr_nonnull(f = fopen(path, "wb"));
	ck_assert_uint_eq(fwrite(gz, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

/*
 * Check that both inflaters read the len bytes of gzip data at gz as
 * plain (plen bytes), in reads of blocks of every size; or, if plain is
 * NULL, that both refuse it with a message.  With plain NULL and plen 1,
 * only that they agree (both refuse, or read the same bytes); return
 * whether they refused.
 */
static int
gz_check(const unsigned char *gz, size_t len, const char *plain,
    size_t plen)
{
	static const size_t	 blocks[] = { 7, 65536, 1, 4096, 1 << 20 };
	char			 path[] = "/tmp/check_gzip.XXXXXX", *out[2];
	size_t			 b, nb, n[2];
	int			 fd, zlib, refused = 0;

	ck_assert_int_ne(fd = mkstemp(path), -1);
	close(fd);
	gz_write(path, gz, len);
	/* Byte by byte only for small data, and not to be refused. */
	nb = plain == NULL ? 2 : plen > 100000 ? 2 : 5;
	for (b = 0; b < nb; b++) {
		for (zlib = 0; zlib <= 1; zlib++)
			out[zlib] = gz_read(path, zlib, blocks[b], &n[zlib]);
		if (plain == NULL && plen == 1) {
			ck_assert((out[0] == NULL) == (out[1] == NULL));
			refused = out[0] == NULL;
			if (!refused) {
				ck_assert_uint_eq(n[0], n[1]);
				ck_assert(memcmp(out[0], out[1], n[0]) == 0);
			}
		}
		for (zlib = 0; zlib <= 1; zlib++) {
			if (plain == NULL && plen == 0)
				ck_assert_msg(out[zlib] == NULL, "%s inflate, "
				    "blocks of %zu: read", zlib ? "zlib's" :
				    "the default", blocks[b]);
			else if (plain != NULL) {
				ck_assert_msg(out[zlib] != NULL, "%s inflate, "
				    "blocks of %zu: refused", zlib ? "zlib's" :
				    "the default", blocks[b]);
				ck_assert_uint_eq(n[zlib], plen);
				ck_assert(memcmp(out[zlib], plain, plen) == 0);
			}
			free(out[zlib]);
		}
	}
	unlink(path);
	return refused;
}

/* Add the test profile path to the gzip case arg, as a member. */
static void
gz_profile(const char *path, void *arg)
{
	struct gzcase	*all = arg, one;
	char		*data;
	size_t		 n;

	data = check_file_bytes(path, &n);
	/* Alone, at one of three levels, then one member of them all. */
	memset(&one, 0, sizeof(one));
	gz_member(&one, data, n, (int)(all->files % 3) * 4 + 1,
	    all->files % 2);
	gz_check(one.gz, one.len, one.plain, one.plen);
	gz_member(all, data, n, all->files % 10, all->files % 4 == 1);
	all->files++;
	free(one.gz);
	free(one.plain);
	free(data);
}

/* Both inflaters give every test profile, whatever its members. */
START_TEST(test_gzip_valid)
{
	struct gzcase	 all;
	unsigned char	*bad;

	memset(&all, 0, sizeof(all));
	each_profile("profiles", gz_profile, &all);
	each_profile("edge", gz_profile, &all);
	each_profile("bad", gz_profile, &all);
	ck_assert_uint_gt(all.files, 80);
	/* An empty member among them. */
	gz_member(&all, "", 0, 6, 1);
	gz_member(&all, "version: 1\n", 11, 0, 0);
	gz_check(all.gz, all.len, all.plain, all.plen);

	/* The same with its last byte (the size's) wrong, or garbage after. */
	bad = xmalloc(all.len + 4);
	memcpy(bad, all.gz, all.len);
	bad[all.len - 1] ^= 1;
	gz_check(bad, all.len, NULL, 0);
	bad[all.len - 1] ^= 1;
	memcpy(bad + all.len, "\0\0\0\0", 4);
	gz_check(bad, all.len + 4, NULL, 0);
	free(bad);
	free(all.gz);
	free(all.plain);
}
END_TEST

/* Both inflaters refuse data cut short or damaged, and say so. */
START_TEST(test_gzip_bad)
{
	struct gzcase	 c;
	unsigned char	*bad;
	char		 text[20000];
	size_t		 i, cut, tried = 0, refused = 0;
	uint64_t	 seed = 7;

	for (i = 0; i < sizeof(text); i++)
		text[i] = "fn=(1)\n0 1 2\ncalls=3 4\n"[check_rnd(&seed) % 24];
	memset(&c, 0, sizeof(c));
	gz_member(&c, text, sizeof(text), 6, 1);
	c.mid = c.len;
	gz_member(&c, text, sizeof(text), 1, 0);
	gz_check(c.gz, c.len, c.plain, c.plen);
	/* Cut anywhere: in a header, the data, a trailer, between members. */
	for (cut = 2; cut < c.len; cut += cut < 40 ? 1 : 97)
		gz_check(c.gz, cut, NULL, 0);
	/*
	 * A byte changed: both agree, and refuse a changed CRC or size
	 * (each member's last eight bytes), and most other changes.
	 */
	bad = xmalloc(c.len);
	for (i = 10; i < c.len; i += i + 16 < c.len ? 37 : 1) {
		memcpy(bad, c.gz, c.len);
		bad[i] ^= 0x5a;
		tried++;
		if (i + 8 >= c.len || (i < c.mid && i + 8 >= c.mid))
			gz_check(bad, c.len, NULL, 0);
		refused += gz_check(bad, c.len, NULL, 1);
	}
	ck_assert_uint_gt(refused * 10, tried * 9);
	free(bad);
	free(c.gz);
	free(c.plain);
}
END_TEST

Suite *
make_ahead_suite(void)
{
	Suite	*s = suite_create("ahead");
	TCase	*tc = check_tcase();

	tcase_add_test(tc, test_fileids);
	tcase_add_test(tc, test_ahead_valid);
	tcase_add_test(tc, test_ahead_options);
	tcase_add_test(tc, test_ahead_lines);
	tcase_add_test(tc, test_ahead_calls);
	tcase_add_test(tc, test_ahead_instrs);
	tcase_add_test(tc, test_ahead_far);
	tcase_add_test(tc, test_ahead_stacks);
	tcase_add_test(tc, test_ahead_bad);
	tcase_add_test(tc, test_ahead_cut);
	tcase_add_test(tc, test_relay_error);
	tcase_add_test(tc, test_relay_stop);
	tcase_add_test(tc, test_relay_pump);
	tcase_add_test(tc, test_gzip_valid);
	tcase_add_test(tc, test_gzip_bad);
	suite_add_tcase(s, tc);
	return s;
}

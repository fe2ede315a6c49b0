/*
 * main.c - the cg-annotate command, step by step: the options, the
 * profiles and sources named, reading the profiles into the model, the
 * report, the exit status.  Everything else lives in the library.
 */
#include "base/compat.h"

#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/diff.h"
#include "analysis/gate.h"
#include "base/msg.h"
#include "base/srcfile.h"
#include "base/tvis.h"
#include "base/xmalloc.h"
#include "model/profile.h"
#include "options.h"
#include "read/inputs.h"
#include "read/load.h"
#include "read/parse.h"
#include "tui/tui.h"
#include "usage.h"
#include "view/report.h"

/*
 * Profiles of this many bytes in all are read for an export that can
 * do with the calls' sites (FORMAT_SITES) without each instruction
 * first: big ones mostly hold more stacks than pprof takes split by
 * instruction (cc1plus, 140 MB: 4.3 s with every instruction, 2.0 s
 * without), and those that do not are read again at little cost (cc1,
 * 56 MB: 2.07 s, 2.16 s read twice, the second read in the memory the
 * first let go); small ones would pay a fifth more (cc1 with cache
 * simulation, 13.6 MB: 0.75 s, 0.97 s).
 */
#define MAIN_SITES_BYTES	((off_t)32 << 20)
#define MAIN_ROOM_MIN		((size_t)16 << 20)
#define MAIN_ROOM_MAX		((size_t)128 << 20)

static int	 main_report(const struct options *);
static int	 main_sites(const struct options *, const struct inputs *);
static struct srcfind *main_lines(const struct options *,
		    const struct report_run *, struct parse_opts *);
static int	 main_no_lines(void *, const char *);
static int	 main_reads_calls(const struct report_opts *);
static int	 main_load(struct profile *, const struct inputs *,
		    const struct parse_opts *, const struct report_run *);
static int	 main_diff(const struct options *);
static int	 main_inputs(const struct options *, struct inputs *,
		    struct report_run *, char **);
static enum tvis_mode main_output(void);
static int	 main_print(const struct profile *, const struct profile *,
		    const struct report_opts *, const struct report_run *);
static void	 main_progress(const struct report_opts *);
static void	 main_no_calls(const struct profile *,
		    const struct report_opts *);
static int	 main_status(int);
static int	 main_finish(int);
static char	*main_default_input(void);
static int	 strptrcmp(const void *, const void *);

int
main(int argc, char *argv[])
{
	struct options	op;
	int		rc;

	/* --help and --version: exit 0 once they are written. */
	if (options_parse(&op, argc, argv) == OPTIONS_DONE)
		return main_finish(0);
	rc = op.diff ? main_diff(&op) : main_report(&op);
	options_free(&op);
	return rc;
}

/*
 * The report on the profiles named (or the one found here): read them
 * all into one model and print it.  Return the exit status.
 */
static int
main_report(const struct options *op)
{
	struct report_run run;
	struct inputs	 in;
	struct parse_opts po;
	struct profile	*p;
	struct srcfind	*sf;
	char		*found = NULL;
	int		 rc, r, sites;

	memset(&run, 0, sizeof(run));
	if (main_inputs(op, &in, &run, &found) == -1) {
		inputs_free(&in);
		free(run.user_files);
		free(found);
		return main_finish(1);
	}
	if (op->report.tui && (!isatty(STDIN_FILENO) ||
	    !isatty(STDOUT_FILENO))) {
		warnx("--tui needs a terminal on standard input and output");
		inputs_free(&in);
		free(run.user_files);
		free(found);
		return main_finish(2);
	}
	if ((op->report.format->needs & FORMAT_BINARY) &&
	    isatty(STDOUT_FILENO)) {
		warnx("--format=%s writes compressed binary data: redirect "
		    "it to a file (> profile.pb.gz)", op->report.format->name);
		inputs_free(&in);
		free(run.user_files);
		free(found);
		return main_finish(2);
	}
	/* ncurses shows a control character as ^X: names go as they are. */
	if (!op->report.tui)
		run.visible_names = main_output();
	main_progress(&op->report);
	p = profile_create();
	po = op->parse;
	sf = run.find = main_lines(op, &run, &po);
	if ((sites = main_sites(op, &in)))
		po.instrs = PARSE_INSTRS_SITES;
	rc = main_load(p, &in, &po, &run);
	if (rc == 0 && !op->report.tui)
		main_no_calls(p, &op->report);
	if (rc == 0 && op->report.tui)
		rc = tui_run(p, &op->report, &run);
	else if (rc == 0 && sites) {
		/* What is said is said once: by this print or the next. */
		msg_hold();
		r = main_print(p, NULL, &op->report, &run);
		msg_release(r != REPORT_NEED_INSTRS);
		if (r == REPORT_NEED_INSTRS) {
			/*
			 * Read again, every instruction kept, quietly
			 * unless it fails (the file gone since).
			 */
			profile_free(p);
			p = profile_create();
			po.instrs = op->parse.instrs;
			msg_hold();
			rc = main_load(p, &in, &po, &run);
			msg_release(rc != 0);
			if (rc == 0)
				r = main_print(p, NULL, &op->report, &run);
		}
		if (rc == 0)
			rc = main_status(r);
	} else if (rc == 0)
		rc = main_status(main_print(p, NULL, &op->report, &run));
	rc = main_finish(rc);
	profile_free(p);
	srcfind_free(sf);
	inputs_free(&in);
	free(run.user_files);
	free(found);
	return rc;
}

/*
 * Say in po which files' lines the report reads one by one, so that
 * reading keeps only those apart: every file's for a format that writes
 * every line (FORMAT_LINENO) or where --event defines a term below 0
 * (told of the line it makes negative); those that annotation would
 * find, for annotation and the browser's sources (return what finds
 * them, shared by the reading threads); else (--diff shows no source)
 * none.  The calls made from the lines summed are kept only if the
 * report reads calls (main_reads_calls()).
 */
static struct srcfind *
main_lines(const struct options *op, const struct report_run *run,
    struct parse_opts *po)
{
	const struct report_opts *o = &op->report;
	struct srcfind	*sf;
	size_t		 i;

	if (o->format->needs & FORMAT_LINENO)
		return NULL;
	for (i = 0; i < op->nevents; i++)
		if (strchr(op->events[i].formula, '-') != NULL)
			return NULL;
	po->drop_calls = !main_reads_calls(o);
	if (!op->diff && (o->tui || ((o->format->needs & FORMAT_ANNOTATE) &&
	    !o->totals_only && o->group != PROFILE_ROWS_OBJECTS &&
	    (o->auto_annotate || run->nuser_files > 0)))) {
		sf = srcfind_new(o->include, o->ninclude);
		po->lines = srcfind_may_find;
		po->lines_arg = sf;
		return sf;
	}
	po->lines = main_no_lines;
	return NULL;
}

/*
 * Return nonzero if the report reads calls other than those of the
 * sources it annotates: inclusive costs, trees, call graphs, stacks, the
 * browser.  Self costs, annotated sources (whose lines are kept, and so
 * their calls) and machine code (calls kept per instruction) do not.
 */
static int
main_reads_calls(const struct report_opts *o)
{
	return o->inclusive || o->tree != 0 || o->tui ||
	    (o->format->needs & (FORMAT_CALLS | FORMAT_GRAPH |
	    FORMAT_STACKS)) != 0;
}

/* No file's lines are kept apart. */
static int
main_no_lines(void *arg, const char *name)
{
	(void)arg;
	(void)name;
	return 0;
}

/*
 * Read the profiles of in into p with o; return 0, else 1 after a
 * message.
 */
static int
main_load(struct profile *p, const struct inputs *in,
    const struct parse_opts *o, const struct report_run *run)
{
	int	rc;

	rc = inputs_load(p, in, o) == 0 ? 0 : 1;
	if (profile_done(p))
		msg(MSG_COST_OVERFLOW, run->profile_name, 0, NULL);
	return rc;
}

/*
 * Return whether the profiles of in are read first with the calls'
 * sites of their machine code alone (FORMAT_SITES): if the format can
 * do with them, and they can be read again (regular files read by
 * name), MAIN_SITES_BYTES or more in all.
 */
static int
main_sites(const struct options *op, const struct inputs *in)
{
	struct stat	st;
	off_t		bytes = 0;
	size_t		i;

	if (!(op->report.format->needs & FORMAT_SITES) ||
	    op->parse.instrs != PARSE_INSTRS_ALL || op->report.tui)
		return 0;
	for (i = 0; i < in->nprofiles; i++) {
		if (in->fds[i] != -1 || stat(in->profiles[i], &st) == -1 ||
		    !S_ISREG(st.st_mode))
			return 0;
		bytes += st.st_size;
	}
	return bytes >= MAIN_SITES_BYTES;
}

/*
 * Say when what is asked needs calls and the profile records none (a
 * Cachegrind file): inclusive costs, trees, call graphs and stacks would
 * show self costs only, and nothing else would say so.
 */
static void
main_no_calls(const struct profile *p, const struct report_opts *o)
{
	const char	*what[4];
	char		 buf[256];	/* the four joined fit */
	size_t		 n = 0, i, len;

	if (profile_narcs(p) > 0 || profile_stacks(p) != NULL)
		return;
	if (o->inclusive)
		what[n++] = "--inclusive=yes shows self costs";
	if (o->tree != 0)
		what[n++] = "--tree has no callers or callees to show";
	if (o->format->needs & FORMAT_GRAPH)
		what[n++] = "the graph has no edges";
	if (o->format->needs & FORMAT_STACKS)
		what[n++] = "each function is a stack of its own";
	for (i = 0, len = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
		    i > 0 ? "; " : "", what[i]);
	if (n > 0)
		msg_note("the profile records no calls: %s", buf);
}

/*
 * --diff OLD NEW: read both (each may be compressed) and print NEW -
 * OLD; their events (the model's, from each first events: line) must
 * be the same, in any order.  Return the exit status.
 */
static int
main_diff(const struct options *op)
{
	struct report_run	 run;
	struct profile		*old, *new;
	struct parse_opts	 po = op->parse;
	int			 rc;

	memset(&run, 0, sizeof(run));
	run.visible_names = main_output();
	main_progress(&op->report);
	old = profile_create();
	new = profile_create();
	run.old_name = op->args[0];
	run.profile_name = op->args[1];
	(void)main_lines(op, &run, &po);
	rc = load_file(old, run.old_name, &po) == -1 ||
	    load_file(new, run.profile_name, &po) == -1;
	if (profile_done(old))
		msg(MSG_COST_OVERFLOW, run.old_name, 0, NULL);
	if (profile_done(new))
		msg(MSG_COST_OVERFLOW, run.profile_name, 0, NULL);
	if (rc == 0 && diff_events(old, new, NULL) == -1) {
		msg(MSG_INPUTS_DIFFER, run.profile_name, 0, "'%s' in %s, "
		    "'%s' here", profile_str(old, profile_events_list(old)),
		    run.old_name, profile_str(new, profile_events_list(new)));
		rc = 1;
	} else if (rc == 0)
		rc = main_status(main_print(new, old, &op->report, &run));
	rc = main_finish(rc);
	profile_free(old);
	profile_free(new);
	return rc;
}

/*
 * Sort the operands into profiles and source files (with none, the
 * first callgrind.out* or cachegrind.out* here, into *found); check that
 * each source file named can be read, and keep them in run, sorted, once
 * each, with the profiles' name and number.  Return -1 after a message
 * if one cannot.
 */
static int
main_inputs(const struct options *op, struct inputs *in,
    struct report_run *run, char **found)
{
	const struct report_opts *o = &op->report;
	struct srcfile		 sf;
	char			**files = NULL;
	size_t			 i, n = 0;

	if (op->nargs == 0) {
		if ((*found = main_default_input()) == NULL) {
			warnx("no profile named and no callgrind.out* or "
			    "cachegrind.out* here");
			options_usage(2);
		}
		/* As callgrind_annotate; not into what a program reads. */
		if ((o->format->needs & FORMAT_SAYS_READING) &&
		    !o->totals_only)
			printf("Reading data from '%s'...\n", *found);
		else
			msg_note("reading data from '%s'", *found);
		inputs_classify(in, found, 1);
		run->profile_name = *found;
	} else {
		inputs_classify(in, op->args, op->nargs);
		run->profile_name = op->args[0];
	}
	for (i = 0; i < in->nsources; i++) {
		if (srcfile_find(in->sources[i], o->include, o->ninclude,
		    &sf) != SRCFILE_OK) {
			msg(MSG_OPEN, in->sources[i], 0, "not a readable "
			    "regular file in the current directory or any -I "
			    "directory");
			free(files);
			return -1;
		}
		srcfile_free(&sf);
		files = xreallocarray(files, n + 1, sizeof(*files));
		files[n++] = in->sources[i];
	}
	if (n > 1)
		qsort(files, n, sizeof(*files), strptrcmp);
	for (i = 0; i + 1 < n; i++)
		if (strcmp(files[i], files[i + 1]) == 0) {
			memmove(files + i, files + i + 1,
			    (n - i - 1) * sizeof(*files));
			n--;
			i--;
		}
	run->user_files = files;
	run->nuser_files = n;
	run->prefix = in->prefix;
	run->nfiles = in->nprofiles;
	return 0;
}

/*
 * Make standard output ready for a report and return how names reach it
 * (tvis.c): on a terminal, nothing of a profile's may act on it.  The
 * buffer is given: without one, glibc ignores the size asked for and
 * writes 4 KiB at a time.  "| head" ends us at once and quietly, even if
 * SIGPIPE was ignored by whoever started us.
 */
static enum tvis_mode
main_output(void)
{
	static char	buf[256 * 1024];

	if (setvbuf(stdout, buf, _IOFBF, sizeof(buf)) != 0)
		err(1, "setvbuf");
	signal(SIGPIPE, SIG_DFL);
	return tvis_mode_of(STDOUT_FILENO);
}

/*
 * Print the report of p (against old with --diff) on standard output,
 * through the rule of tvis.c when that is a terminal: every format, and
 * the source lines and objdump's text in it, is text from files that
 * are not ours.  Return what report_print() returns.  The report's
 * tables are first given heap room on huge pages as large as what the
 * model holds, up to MAIN_ROOM_MAX (xmalloc_room_more()): the read's
 * room is used up by then, and the exports' tables are as many as the
 * model's, each fresh page a trap (speedscope of the 100 MB large-C++
 * synthetic 24,900 -> 13,800 page faults, 2.15 -> 1.96 s; pprof of
 * cc1plus 16,700 -> 7,700, 1.46 -> 1.19 s; the plain report of the 300
 * MB one 1.28 -> 1.02 s, of cc1plus the same; peaks 0-8 MB higher).
 * A report of rows (FORMAT_ROWS) of a model under MAIN_ROOM_MIN gets
 * none: its tables are a few megabytes, each of which would make a huge
 * page resident to spare a few traps (cc1 with cache simulation holds
 * 8.1 MB there, 7.0 of it mapped; --inclusive=yes --tree=both peaks
 * 11.5-13.1 MB -> 11.0-11.7 MB).  The exports' tables grow with the
 * model whatever its size, and keep their room.
 */
static int
main_print(const struct profile *p, const struct profile *old,
    const struct report_opts *o, const struct report_run *run)
{
	FILE	*out = stdout;
	int	 r;

	if (run->visible_names != TVIS_RAW)
		out = tvis_fopen(stdout, run->visible_names);
	xmalloc_room_more((o->format->needs & FORMAT_ROWS) ? MAIN_ROOM_MIN :
	    0, MAIN_ROOM_MAX);
	r = report_print(out, p, old, o, run);
	if (out != stdout)
		fclose(out);
	return r;
}

/*
 * A read that lasts (CGA_PROGRESS_DELAY seconds, 1 by default) shows
 * its progress on stderr: when that is a terminal, not in CI, and not
 * for JSON, which programs read.
 */
static void
main_progress(const struct report_opts *o)
{
	const char	*d = getenv("CGA_PROGRESS_DELAY");
	char		*end;
	double		 delay = 1.0;

	if (d != NULL && *d != '\0') {
		delay = strtod(d, &end);
		if (*end != '\0' || delay < 0)
			delay = 1.0;
	}
	msg_progress_enable(isatty(STDERR_FILENO) && getenv("CI") == NULL &&
	    !(o->format->needs & FORMAT_QUIET), delay);
}

/* Turn what report_print() returned into the exit status. */
static int
main_status(int r)
{
	switch (r) {
	case -1:
		/* A usage error, or a formula the profile cannot compute. */
		return msg_rc() == MSGL_USAGE ? 2 : 1;
	case REPORT_ERR_FILE:
		return 1;
	case GATE_EXIT:
		return GATE_EXIT;
	default:
		return 0;
	}
}

/* Flush standard output; return the exit status rc, or the worse. */
static int
main_finish(int rc)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		msg(MSG_WRITE, "standard output", 0, "%s", strerror(errno));
		if (rc == 0 || rc == GATE_EXIT)
			rc = 1;
	}
	msg_flush();
	if (msg_rc() > rc && rc != GATE_EXIT)
		rc = msg_rc();
	return rc;
}

/* Return the first callgrind.out*, else cachegrind.out*, or NULL. */
static char *
main_default_input(void)
{
	static const char	*patterns[] = { "callgrind.out*",
	    "cachegrind.out*" };
	glob_t			 g;
	char			*s = NULL;
	size_t			 i;

	for (i = 0; i < 2 && s == NULL; i++) {
		if (glob(patterns[i], 0, NULL, &g) == 0 && g.gl_pathc > 0)
			s = xstrdup(g.gl_pathv[0]);
		globfree(&g);
	}
	return s;
}

/* Order C strings given by pointer. */
static int
strptrcmp(const void *a, const void *b)
{
	return strcmp(*(const char * const *)a, *(const char * const *)b);
}

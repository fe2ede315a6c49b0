/*
 * main.c - the cg-annotate command: options, reading the profile,
 * printing the report.  Everything else lives in the library.
 */
#include "compat.h"

#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msg.h"
#include "diff.h"
#include "gate.h"
#include "inputs.h"
#include "parse.h"
#include "profile.h"
#include "report.h"
#include "srcfile.h"
#include "version.h"
#include "xmalloc.h"

enum {
	OPT_AUTO = 256,
	OPT_CONTEXT,
	OPT_DIFF,
	OPT_FAIL_ABOVE,
	OPT_FORMAT,
	OPT_INCLUSIVE,
	OPT_MOD_FILENAME,
	OPT_MOD_FUNCNAME,
	OPT_PART,
	OPT_PER_PART,
	OPT_SHOW,
	OPT_SHOW_PERCS,
	OPT_SORT,
	OPT_THREAD,
	OPT_THRESHOLD,
	OPT_TOTALS,
	OPT_TREE,
	OPT_VERSION
};

static const struct option longopts[] = {
	{ "auto",	required_argument,	NULL,	OPT_AUTO },
	{ "context",	required_argument,	NULL,	OPT_CONTEXT },
	{ "diff",	no_argument,		NULL,	OPT_DIFF },
	{ "fail-above",	required_argument,	NULL,	OPT_FAIL_ABOVE },
	{ "format",	required_argument,	NULL,	OPT_FORMAT },
	{ "help",	no_argument,		NULL,	'h' },
	{ "include",	required_argument,	NULL,	'I' },
	{ "inclusive",	required_argument,	NULL,	OPT_INCLUSIVE },
	{ "mod-filename", required_argument,	NULL,	OPT_MOD_FILENAME },
	{ "mod-funcname", required_argument,	NULL,	OPT_MOD_FUNCNAME },
	{ "part",	required_argument,	NULL,	OPT_PART },
	{ "per-part",	no_argument,		NULL,	OPT_PER_PART },
	{ "show",	required_argument,	NULL,	OPT_SHOW },
	{ "show-percs",	optional_argument,	NULL,	OPT_SHOW_PERCS },
	{ "sort",	required_argument,	NULL,	OPT_SORT },
	{ "thread",	required_argument,	NULL,	OPT_THREAD },
	{ "threshold",	required_argument,	NULL,	OPT_THRESHOLD },
	{ "totals",	no_argument,		NULL,	OPT_TOTALS },
	{ "tree",	required_argument,	NULL,	OPT_TREE },
	{ "version",	no_argument,		NULL,	OPT_VERSION },
	{ NULL,		0,			NULL,	0 }
};

static __dead void	usage(int);
static void		help(void);
static int		yesno(const char *, const char *);
static int		is_percentage(const char *);
static int		sort_item(char *, char **);
static size_t		split_events(char *, char ***);
static char		*pwd_prefix(void);
static char		*default_input(void);
static char		*dir_slash(const char *);
static int		 resolve_gates(const struct profile *,
			    const struct report_opts *);
static int		 report_rc(int);
static int		 main_output(void);
static int		 main_diff(const char *, const char *,
			    struct report_opts *, struct namemod *,
			    struct namemod *);
static int		 finish(int);
static char		*include_dir(const char *);
static int		 strptrcmp(const void *, const void *);

/* Print the synopsis to stderr and exit 2. */
static __dead void
usage(int status)
{
	int	w = (int)strlen(getprogname());

	fprintf(stderr, "usage: %s [--auto=yes|no] [--context=N] "
	    "[--fail-above=EVENT:LIMIT[:REGEX]]\n"
	    "       %*s [--format=text|json] [-I dir] [--inclusive=yes|no] "
	    "[--part=N]\n"
	    "       %*s [--per-part] [--show=A,B,...] [--show-percs=yes|no]\n"
	    "       %*s [--sort=A[:N],B[:N],...] [--thread=N] "
	    "[--threshold=N] [--totals]\n"
	    "       %*s [--tree=none|caller|calling|both] "
	    "[profile ... [source ...]]\n"
	    "       %s --diff [--mod-filename=s/RE/REPL/[g]] "
	    "[--mod-funcname=s/RE/REPL/[g]]\n"
	    "       %*s [options] old-profile new-profile\n"
	    "       %s --help | --version\n", getprogname(), w, "", w, "",
	    w, "", w, "", getprogname(), w, "", getprogname());
	exit(status);
}

/* Print the option summary (as in the man page) to stdout. */
static void
help(void)
{
	printf("usage: %s [options] [profile ... [source ...]]\n"
	    "\n"
	    "Print the totals, the function totals, the call tree and "
	    "annotated sources of\na Callgrind or Cachegrind profile.\n"
	    "\n"
	    "  -h, --help            print this help and exit\n"
	    "  --version             print the version and exit\n"
	    "  --auto=yes|no         annotate the source files of the "
	    "printed functions [yes]\n"
	    "  --context=N           lines of context around annotated "
	    "lines [8]\n"
	    "  --diff OLD NEW        report NEW - OLD, sorted by the size "
	    "of the changes\n"
	    "  --fail-above=EVENT:LIMIT[:REGEX]\n"
	    "                        exit 3 if EVENT's total (or, with "
	    "REGEX, a function's)\n"
	    "                        is above LIMIT; with --diff its "
	    "change, LIMIT may be N%%\n"
	    "  --format=text|json    the report as text [text] or as one "
	    "JSON document\n"
	    "  -I DIR, --include=DIR look for source files under DIR too "
	    "(also -IDIR, -I=DIR)\n"
	    "  --inclusive=yes|no    sort and print functions by inclusive "
	    "cost, with\n"
	    "                        recursion counted once and cycles "
	    "shown [no]\n"
	    "  --mod-filename=s/REGEX/REPL/[g], --mod-funcname=s/REGEX/REPL/"
	    "[g]\n"
	    "                        with --diff, rewrite file or "
	    "function names first\n"
	    "  --part=N              read only the parts numbered N "
	    "(part: N)\n"
	    "  --per-part            list each part's totals under "
	    "PROGRAM TOTALS\n"
	    "  --show=A,B,...        only show counts of events A,B,... "
	    "[all]\n"
	    "  --show-percs=yes|no   show a percentage after each non-zero "
	    "count [yes]\n"
	    "  --sort=A[:N],B[:N],...\n"
	    "                        sort functions by events A,B,... "
	    "[event order];\n"
	    "                        N is a per-event threshold in percent, "
	    "which replaces\n"
	    "                        --threshold\n"
	    "  --thread=N            read only the parts of thread N "
	    "(thread: N)\n"
	    "  --threshold=N         print functions until they add up to "
	    "N%% of the\n"
	    "                        primary sort event; 100 prints all "
	    "[99]\n"
	    "  --totals              print only the program totals, "
	    "\"EVENT VALUE\" lines\n"
	    "  --tree=none|caller|calling|both\n"
	    "                        print the callers and/or callees of "
	    "each function [none]\n"
	    "\n"
	    "With no profile, the first callgrind.out* in the current "
	    "directory is read,\n"
	    "else the first cachegrind.out*; \"-\" reads standard input.  "
	    "Further profiles\n(recognised by their content) are added "
	    "in; a profile that is missing or\nempty is taken as the "
	    "prefix of dump and thread files (callgrind.out.4242.1,\n"
	    "callgrind.out.4242-01, ...).  Other files named are annotated "
	    "whether or not\ntheir functions are printed.  gzip and zstd "
	    "profiles are read as they are.\n",
	    getprogname());
}

/* Parse a yes|no option value or exit with a usage error. */
static int
yesno(const char *opt, const char *arg)
{
	if (arg == NULL || strcmp(arg, "yes") == 0)
		return 1;
	if (strcmp(arg, "no") == 0)
		return 0;
	warnx("%s takes yes or no, not '%s'", opt, arg);
	usage(2);
}

/* Return nonzero if s is a number from 0 to 100, with an optional %. */
static int
is_percentage(const char *s)
{
	const char	*p;
	char		*end;
	double		 v;

	for (p = s; *p != '\0' && (*p == '.' || (*p >= '0' && *p <= '9'));
	    p++)
		continue;
	if (p == s || (*p != '\0' && strcmp(p, "%") != 0))
		return 0;
	v = strtod(s, &end);
	if (end != p)
		return 0;
	return v >= 0 && v <= 100;
}

/*
 * Split a --sort item "EV" or "EV:N" or "EV:N%" in place: the name ends
 * at the first colon, *thr is N ("0" if none).  Return 1 if N was given;
 * an N that is not a percentage is a usage error.
 */
static int
sort_item(char *item, char **thr)
{
	char	*colon, *t;
	size_t	 n;

	*thr = "0";
	if ((colon = strchr(item, ':')) == NULL)
		return 0;
	/* Event names are letters and digits: a colon starts N. */
	t = colon + 1;
	n = strspn(t, "0123456789.");
	if (!is_percentage(t)) {
		warnx("--sort threshold '%s' is not a percentage from 0 to "
		    "100", t);
		usage(2);
	}
	t[n] = '\0';
	*thr = t;
	*strchr(item, ':') = '\0';
	return 1;
}

/*
 * Split a comma-separated list in place into *list (trailing empty
 * items dropped, as Perl's split does); return the number of items.
 */
static size_t
split_events(char *s, char ***list)
{
	size_t	 n = 0;
	char	*item;

	free(*list);
	*list = NULL;
	while ((item = strsep(&s, ",")) != NULL) {
		*list = xreallocarray(*list, n + 1, sizeof(**list));
		(*list)[n++] = item;
	}
	while (n > 0 && *(*list)[n - 1] == '\0')
		n--;
	if (n == 0) {
		free(*list);
		*list = NULL;
	}
	return n;
}

/* Give every --fail-above its event's index; -1 after a usage error. */
static int
resolve_gates(const struct profile *p, const struct report_opts *o)
{
	size_t	i;

	for (i = 0; i < o->ngates; i++) {
		o->gates[i].ev = profile_event_index(p, o->gates[i].event);
		if (o->gates[i].ev < 0) {
			report_unknown_event(p, "--fail-above",
			    o->gates[i].event);
			return -1;
		}
	}
	return 0;
}

/* Turn a reporter's result into the exit status. */
static int
report_rc(int r)
{
	switch (r) {
	case -1:
		return 2;
	case 1:
		return 1;
	case GATE_EXIT:
		return GATE_EXIT;
	default:
		return 0;
	}
}

/* Flush standard output; return the exit status rc, or the worse. */
static int
finish(int rc)
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

/*
 * --diff OLD NEW: read both (each may be compressed) and print NEW -
 * OLD; the events must agree.
 */
/*
 * Make standard output ready for a report and return nonzero if it is a
 * terminal, where names cannot carry escape sequences through.  The
 * buffer is given: without one, glibc ignores the size asked for and
 * writes 4 KiB at a time.  "| head" ends us at once and quietly, even if
 * SIGPIPE was ignored by whoever started us.
 */
static int
main_output(void)
{
	static char	buf[256 * 1024];

	if (setvbuf(stdout, buf, _IOFBF, sizeof(buf)) != 0)
		err(1, "setvbuf");
	signal(SIGPIPE, SIG_DFL);
	return isatty(STDOUT_FILENO);
}

static int
main_diff(const char *oldname, const char *newname, struct report_opts *o,
    struct namemod *mf, struct namemod *mn)
{
	struct parse_opts	 po;
	struct profile		*old, *new;
	char			*prefix;
	int			 rc = 0;

	o->visible_names = main_output();
	prefix = pwd_prefix();
	memset(&po, 0, sizeof(po));
	po.strip_prefix = prefix;
	old = profile_create();
	new = profile_create();
	o->old_name = oldname;
	o->profile_name = newname;
	if (parse_file(old, oldname, &po) == -1 ||
	    parse_file(new, newname, &po) == -1)
		rc = 1;
	else if (profile_part(old, 0)->events != profile_part(new, 0)->events &&
	    strcmp(profile_str(old, profile_part(old, 0)->events),
	    profile_str(new, profile_part(new, 0)->events)) != 0) {
		msg(MSG_INPUTS_DIFFER, newname, 0, "'%s' in %s, '%s' here",
		    profile_str(old, profile_part(old, 0)->events), oldname,
		    profile_str(new, profile_part(new, 0)->events));
		rc = 1;
	} else if (resolve_gates(new, o) == -1)
		rc = 2;
	else
		rc = report_rc(report_diff(stdout, old, new, o));
	rc = finish(rc);
	profile_free(old);
	profile_free(new);
	free(prefix);
	(void)mf;
	(void)mn;
	return rc;
}

/* Return a copy of dir with "/" appended. */
static char *
dir_slash(const char *dir)
{
	size_t	 len = strlen(dir);
	char	*s;

	s = xmalloc(len + 2);
	memcpy(s, dir, len);
	s[len] = '/';
	s[len + 1] = '\0';
	return s;
}

/*
 * Return an -I directory as used: a leading "=" (from -I=DIR) dropped,
 * one trailing "/" trimmed and "/" added, as callgrind_annotate does.
 */
static char *
include_dir(const char *arg)
{
	char	*s, *d;
	size_t	 len;

	if (*arg == '=')
		arg++;
	d = xstrdup(arg);
	len = strlen(d);
	if (len > 0 && d[len - 1] == '/')
		d[len - 1] = '\0';
	s = dir_slash(d);
	free(d);
	return s;
}

/* Order C strings given by pointer. */
static int
strptrcmp(const void *a, const void *b)
{
	return strcmp(*(const char * const *)a, *(const char * const *)b);
}

/* Return "$PWD/" (the logical working directory) to strip from names. */
static char *
pwd_prefix(void)
{
	struct stat	 a, b;
	const char	*pwd = getenv("PWD");
	char		*cwd, *s;

	if (pwd != NULL && *pwd == '/' && stat(pwd, &a) == 0 &&
	    stat(".", &b) == 0 && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino)
		return dir_slash(pwd);
	if ((cwd = getcwd(NULL, 0)) == NULL)
		return NULL;
	s = dir_slash(cwd);
	free(cwd);
	return s;
}

/* Return the first callgrind.out*, else cachegrind.out*, or NULL. */
static char *
default_input(void)
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

int
main(int argc, char *argv[])
{
	struct report_opts	 o;
	struct parse_opts	 po;
	struct inputs		 in;
	struct profile		*p;
	const char		*part_sel = NULL, *thread_sel = NULL;
	struct namemod		 mod_file, mod_func, *mod;
	struct gate		*gates = NULL;
	char			 errbuf[256];
	size_t			 ngates = 0;
	int			 diff = 0;
	char			*input = NULL, *prefix;
	size_t			 i;
	const char		*errstr;
	int			 ch, rc, per_event;

	memset(&o, 0, sizeof(o));
	memset(&mod_file, 0, sizeof(mod_file));
	memset(&mod_func, 0, sizeof(mod_func));
	o.threshold = "99";
	o.context = 8;
	o.show_percs = 1;
	o.auto_annotate = 1;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":hI:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'h':
			help();
			return 0;
		case 'I':
			o.include = xreallocarray(o.include, o.ninclude + 1,
			    sizeof(*o.include));
			o.include[o.ninclude++] = include_dir(optarg);
			break;
		case OPT_CONTEXT:
			o.context = (int)strtonum(optarg, 0, 1000000, &errstr);
			if (errstr != NULL) {
				warnx("--context takes a number of lines, "
				    "not '%s'", optarg);
				usage(2);
			}
			break;
		case OPT_AUTO:
			o.auto_annotate = yesno("--auto", optarg);
			break;
		case OPT_INCLUSIVE:
			o.inclusive = yesno("--inclusive", optarg);
			break;
		case OPT_PART:
		case OPT_THREAD:
			if (strtonum(optarg, 0, INT64_MAX, &errstr), errstr !=
			    NULL) {
				warnx("%s takes a number, not '%s'", ch ==
				    OPT_PART ? "--part" : "--thread", optarg);
				usage(2);
			}
			if (ch == OPT_PART)
				part_sel = optarg;
			else
				thread_sel = optarg;
			break;
		case OPT_PER_PART:
			o.per_part = 1;
			break;
		case OPT_DIFF:
			diff = 1;
			break;
		case OPT_TOTALS:
			o.totals_only = 1;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "json") == 0)
				o.format = REPORT_JSON;
			else if (strcmp(optarg, "text") == 0)
				o.format = REPORT_TEXT;
			else {
				warnx("--format takes text or json, not '%s'",
				    optarg);
				usage(2);
			}
			break;
		case OPT_MOD_FILENAME:
		case OPT_MOD_FUNCNAME:
			mod = ch == OPT_MOD_FILENAME ? &mod_file : &mod_func;
			namemod_free(mod);
			if (namemod_parse(mod, optarg, errbuf,
			    sizeof(errbuf)) == -1) {
				warnx("%s: %s: %s", ch == OPT_MOD_FILENAME ?
				    "--mod-filename" : "--mod-funcname",
				    optarg, errbuf);
				usage(2);
			}
			break;
		case OPT_FAIL_ABOVE:
			gates = xreallocarray(gates, ngates + 1,
			    sizeof(*gates));
			if (gate_parse(&gates[ngates], optarg, errbuf,
			    sizeof(errbuf)) == -1) {
				warnx("--fail-above=%s: %s", optarg, errbuf);
				usage(2);
			}
			ngates++;
			break;
		case OPT_TREE:
			if (strcmp(optarg, "none") == 0)
				o.tree = 0;
			else if (strcmp(optarg, "caller") == 0)
				o.tree = REPORT_TREE_CALLER;
			else if (strcmp(optarg, "calling") == 0)
				o.tree = REPORT_TREE_CALLING;
			else if (strcmp(optarg, "both") == 0)
				o.tree = REPORT_TREE_CALLER |
				    REPORT_TREE_CALLING;
			else {
				warnx("--tree takes none, caller, calling or "
				    "both, not '%s'", optarg);
				usage(2);
			}
			break;
		case OPT_SHOW:
			o.nshow = split_events(optarg, &o.show);
			break;
		case OPT_SHOW_PERCS:
			o.show_percs = yesno("--show-percs", optarg);
			break;
		case OPT_SORT:
			o.nsort = split_events(optarg, &o.sort);
			free(o.sort_thr);
			o.sort_thr = NULL;
			per_event = 0;
			o.sort_thr = xreallocarray(NULL, o.nsort,
			    sizeof(*o.sort_thr));
			for (i = 0; i < o.nsort; i++)
				per_event |= sort_item(o.sort[i], &o.sort_thr[i]);
			if (!per_event) {
				free(o.sort_thr);
				o.sort_thr = NULL;
			}
			break;
		case OPT_THRESHOLD:
			if (!is_percentage(optarg)) {
				warnx("--threshold takes a percentage from 0 "
				    "to 100, not '%s'", optarg);
				usage(2);
			}
			optarg[strcspn(optarg, "%")] = '\0';
			o.threshold = optarg;
			break;
		case OPT_VERSION:
			printf("cg-annotate %s\n", CGA_VERSION);
			return 0;
		case ':':
			warnx("option %s needs a value", argv[optind - 1]);
			usage(2);
		default:
			if (optopt != 0)
				warnx("unknown option -%c", optopt);
			else
				warnx("unknown option %s", argv[optind - 1]);
			usage(2);
		}
	}
	argc -= optind;
	argv += optind;
	if (diff && argc != 2) {
		warnx("--diff takes two profiles, OLD and NEW");
		usage(2);
	}
	o.gates = gates;
	o.ngates = ngates;
	o.mod_file = &mod_file;
	o.mod_func = &mod_func;
	if (diff) {
		rc = main_diff(argv[0], argv[1], &o, &mod_file, &mod_func);
		goto out;
	}
	if (argc == 0) {
		if ((input = default_input()) == NULL) {
			warnx("no profile named and no callgrind.out* or "
			    "cachegrind.out* here");
			usage(2);
		}
		printf("Reading data from '%s'...\n", input);
		inputs_classify(&in, &input, 1);
	} else {
		input = argv[0];
		inputs_classify(&in, argv, (size_t)argc);
	}
	/* The source files to annotate, sorted. */
	for (i = 0; i < in.nsources; i++) {
		struct srcfile	sf;

		if (srcfile_find(in.sources[i], o.include, o.ninclude, 1,
		    &sf) != SRCFILE_OK) {
			msg(MSG_OPEN, in.sources[i], 0, "not a readable "
			    "regular file in the current directory or any -I "
			    "directory");
			rc = finish(1);
			inputs_free(&in);
			goto out;
		}
		o.user_files = xreallocarray(o.user_files, o.nuser_files + 1,
		    sizeof(*o.user_files));
		o.user_files[o.nuser_files++] = in.sources[i];
	}
	if (o.nuser_files > 1)
		qsort(o.user_files, o.nuser_files, sizeof(*o.user_files),
		    strptrcmp);
	for (i = 0; i + 1 < o.nuser_files; i++)
		if (strcmp(o.user_files[i], o.user_files[i + 1]) == 0) {
			memmove(o.user_files + i, o.user_files + i + 1,
			    (o.nuser_files - i - 1) * sizeof(*o.user_files));
			o.nuser_files--;
			i--;
		}
	o.prefix = in.prefix;
	o.nfiles = in.nprofiles;
	o.profile_name = input;

	o.visible_names = main_output();
	prefix = pwd_prefix();
	memset(&po, 0, sizeof(po));
	po.strip_prefix = prefix;
	po.part = part_sel;
	po.thread = thread_sel;
	p = profile_create();
	rc = inputs_load(p, &in, &po) == 0 ? 0 : 1;
	if (rc == 0 && resolve_gates(p, &o) == -1)
		rc = 2;
	if (rc == 0)
		rc = report_rc(report_text(stdout, p, &o));
	rc = finish(rc);
	profile_free(p);
	free(prefix);
	inputs_free(&in);
out:
	for (i = 0; i < o.ninclude; i++)
		free(o.include[i]);
	free(o.include);
	free(o.user_files);
	for (i = 0; i < ngates; i++)
		gate_free(&gates[i]);
	free(gates);
	namemod_free(&mod_file);
	namemod_free(&mod_func);
	free(o.show);
	free(o.sort);
	free(o.sort_thr);
	return rc;
}

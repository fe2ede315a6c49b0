/*
 * options.c - the command line of cg-annotate: the options, as
 * callgrind_annotate spells them and cg-annotate's own, parsed into one
 * struct options by a table (optdefs[]); the synopsis, --help and the
 * words options take are in usage.c.
 */
#include "base/compat.h"

#include <sys/stat.h>

#include <err.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/derive.h"
#include "analysis/diff.h"
#include "analysis/gate.h"
#include "base/rematch.h"
#include "base/xmalloc.h"
#include "options.h"
#include "usage.h"
#include "version.h"
#include "view/format.h"

/*
 * The long options, each with what it does: a function given the value
 * (NULL if it takes none) that returns 1 when the run is over (--help,
 * --version) and exits 2 on a usage error; or, without one, the int of
 * struct options at offset flag that the option sets: to 1 if it takes
 * no value, else to its yes or no.  getopt_long() reads a table made
 * from this one (options_longopts()).
 */
struct optdef {
	const char	*name;
	int		 has_arg;
	int		(*set)(struct options *, char *);
	size_t		 flag;
};

#define OPT_FUNC(f)	f, 0
#define OPT_FLAG(field)	NULL, offsetof(struct options, field)

static int	 opt_context(struct options *, char *);
static int	 opt_edge_threshold(struct options *, char *);
static int	 opt_event(struct options *, char *);
static int	 opt_fail_above(struct options *, char *);
static int	 opt_fold(struct options *, char *);
static int	 opt_format(struct options *, char *);
static int	 opt_function(struct options *, char *);
static int	 opt_group(struct options *, char *);
static int	 opt_help(struct options *, char *);
static int	 opt_include(struct options *, char *);
static int	 opt_leaf(struct options *, char *);
static int	 opt_mod_filename(struct options *, char *);
static int	 opt_mod_funcname(struct options *, char *);
static int	 opt_node_threshold(struct options *, char *);
static int	 opt_objdir(struct options *, char *);
static int	 opt_objdump(struct options *, char *);
static int	 opt_part(struct options *, char *);
static int	 opt_root(struct options *, char *);
static int	 opt_show(struct options *, char *);
static int	 opt_sort(struct options *, char *);
static int	 opt_thread(struct options *, char *);
static int	 opt_threshold(struct options *, char *);
static int	 opt_tree(struct options *, char *);
static int	 opt_version(struct options *, char *);

static const struct optdef optdefs[] = {
	{ "asm",	required_argument,	OPT_FLAG(report.asm_annotate) },
	{ "auto",	required_argument,	OPT_FLAG(report.auto_annotate) },
	{ "context",	required_argument,	OPT_FUNC(opt_context) },
	{ "diff",	no_argument,		OPT_FLAG(diff) },
	{ "edge-threshold", required_argument,	OPT_FUNC(opt_edge_threshold) },
	{ "event",	required_argument,	OPT_FUNC(opt_event) },
	{ "fail-above",	required_argument,	OPT_FUNC(opt_fail_above) },
	{ "fold",	required_argument,	OPT_FUNC(opt_fold) },
	{ "format",	required_argument,	OPT_FUNC(opt_format) },
	{ "function",	required_argument,	OPT_FUNC(opt_function) },
	{ "group",	required_argument,	OPT_FUNC(opt_group) },
	{ "help",	no_argument,		OPT_FUNC(opt_help) },
	{ "include",	required_argument,	OPT_FUNC(opt_include) },
	{ "inclusive",	required_argument,	OPT_FLAG(report.inclusive) },
	{ "leaf",	required_argument,	OPT_FUNC(opt_leaf) },
	{ "mod-filename", required_argument,	OPT_FUNC(opt_mod_filename) },
	{ "mod-funcname", required_argument,	OPT_FUNC(opt_mod_funcname) },
	{ "node-threshold", required_argument,	OPT_FUNC(opt_node_threshold) },
	{ "objdir",	required_argument,	OPT_FUNC(opt_objdir) },
	{ "objdump",	required_argument,	OPT_FUNC(opt_objdump) },
	{ "part",	required_argument,	OPT_FUNC(opt_part) },
	{ "per-part",	no_argument,		OPT_FLAG(report.per_part) },
	{ "root",	required_argument,	OPT_FUNC(opt_root) },
	{ "show",	required_argument,	OPT_FUNC(opt_show) },
	{ "show-percs",	optional_argument,	OPT_FLAG(report.show_percs) },
	{ "sort",	required_argument,	OPT_FUNC(opt_sort) },
	{ "thread",	required_argument,	OPT_FUNC(opt_thread) },
	{ "threshold",	required_argument,	OPT_FUNC(opt_threshold) },
	{ "totals",	no_argument,		OPT_FLAG(report.totals_only) },
	{ "tree",	required_argument,	OPT_FUNC(opt_tree) },
	{ "tui",	no_argument,		OPT_FLAG(report.tui) },
	{ "version",	no_argument,		OPT_FUNC(opt_version) },
};

#define NOPTDEFS	(sizeof(optdefs) / sizeof(optdefs[0]))
#define OPT_FIRST	256		/* getopt_long()'s value of optdefs[0] */


static int		 yesno(const char *, const char *);
static int		 is_percentage(const char *);
static int		 sort_item(char *, char **);
static size_t		 split_events(char *, char ***);
static char		*dir_slash(const char *);
static char		*include_dir(const char *);
static char		*options_pwd(void);
static void		 options_sort(struct report_opts *, char *);
static void		 options_regex(const char *, const char *,
			    struct rematch ***, size_t *);
static unsigned		 options_timeout(const char *);
static int		 options_set(struct options *, const struct optdef *,
			    char *);
static void		 options_dir(char ***, size_t *, const char *);
static void		 options_defaults(struct options *);
static void		 options_longopts(struct option *);
static void		 options_check(struct options *);
static void		 options_percent(const char *, const char *, double *);
static void		 options_mod(const char *, char *, struct namemod *);
static const char	*options_number(const char *, const char *);

/* Parse a yes|no option value or exit with a usage error. */
static int
yesno(const char *opt, const char *arg)
{
	if (arg == NULL || strcmp(arg, "yes") == 0)
		return 1;
	if (strcmp(arg, "no") == 0)
		return 0;
	warnx("%s takes yes or no, not '%s'", opt, arg);
	options_usage(2);
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
		options_usage(2);
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

/* Return "$PWD/" (the logical working directory) to strip from names. */
static char *
options_pwd(void)
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

/*
 * --sort=A[:N],B[:N],...: the events, and their thresholds if any item
 * gave one.
 */
static void
options_sort(struct report_opts *o, char *arg)
{
	size_t	i;
	int	per_event = 0;

	o->nsort = split_events(arg, &o->sort);
	free(o->sort_thr);
	o->sort_thr = xreallocarray(NULL, o->nsort, sizeof(*o->sort_thr));
	for (i = 0; i < o->nsort; i++)
		per_event |= sort_item(o->sort[i], &o->sort_thr[i]);
	if (!per_event) {
		free(o->sort_thr);
		o->sort_thr = NULL;
	}
}

/* Add the POSIX ERE arg of option opt to *re, or a usage error. */
static void
options_regex(const char *opt, const char *arg, struct rematch ***re,
    size_t *n)
{
	char	err[256];

	*re = xreallocarray(*re, *n + 1, sizeof(**re));
	if (((*re)[*n] = rematch_new(arg, 0, err, sizeof(err))) == NULL) {
		warnx("%s=%s: %s", opt, arg, err);
		options_usage(2);
	}
	(*n)++;
}

/*
 * Parse the command line into *op (callgrind_annotate's defaults where
 * an option is not given); a usage error exits 2.  Return OPTIONS_DONE
 * after printing --help or --version.
 */
enum options_result
options_parse(struct options *op, int argc, char *argv[])
{
	struct option	 longopts[NOPTDEFS + 1];
	int		 ch, done = 0;

	options_defaults(op);
	options_longopts(longopts);
	opterr = 0;
	while (!done &&
	    (ch = getopt_long(argc, argv, ":hI:", longopts, NULL)) != -1) {
		if (ch >= OPT_FIRST && ch < OPT_FIRST + (int)NOPTDEFS)
			done = options_set(op, &optdefs[ch - OPT_FIRST],
			    optarg);
		else if (ch == 'h')
			done = opt_help(op, NULL);
		else if (ch == 'I')
			done = opt_include(op, optarg);
		else if (ch == ':') {
			warnx("option %s needs a value", argv[optind - 1]);
			options_usage(2);
		} else {
			/* A value given to a long option that takes none. */
			if (optopt >= OPT_FIRST &&
			    optopt < OPT_FIRST + (int)NOPTDEFS)
				warnx("option --%s takes no value",
				    optdefs[optopt - OPT_FIRST].name);
			else if (optopt != 0)
				warnx("unknown option -%c", optopt);
			else
				warnx("unknown option %s", argv[optind - 1]);
			options_usage(2);
		}
	}
	if (done)
		return OPTIONS_DONE;
	op->args = argv + optind;
	op->nargs = (size_t)(argc - optind);
	options_check(op);
	return OPTIONS_RUN;
}

/*
 * Do what option d says with its value arg: call its function, or set
 * its flag.  Return 1 when the run is over (--help, --version).
 */
static int
options_set(struct options *op, const struct optdef *d, char *arg)
{
	char	opt[32];
	int	*flag;

	if (d->set != NULL)
		return d->set(op, arg);
	flag = (int *)(void *)((char *)op + d->flag);
	if (d->has_arg == no_argument)
		*flag = 1;
	else {
		snprintf(opt, sizeof(opt), "--%s", d->name);
		*flag = yesno(opt, arg);
	}
	return 0;
}

/* Set the defaults of *op: callgrind_annotate's where it has the option. */
static void
options_defaults(struct options *op)
{
	struct report_opts	*o = &op->report;

	memset(op, 0, sizeof(*op));
	o->threshold = "99";
	o->context = 8;
	o->show_percs = 1;
	o->auto_annotate = 1;
	o->node_threshold = 0.5;
	o->edge_threshold = 0.1;
	o->mod_file = &op->mod_file;
	o->mod_func = &op->mod_func;
	o->format = &formats[0];
}

/* Fill lo (NOPTDEFS + 1 long) with getopt_long()'s table of optdefs. */
static void
options_longopts(struct option *lo)
{
	size_t	i;

	for (i = 0; i < NOPTDEFS; i++) {
		lo[i].name = optdefs[i].name;
		lo[i].has_arg = optdefs[i].has_arg;
		lo[i].flag = NULL;
		lo[i].val = OPT_FIRST + (int)i;
	}
	memset(&lo[NOPTDEFS], 0, sizeof(lo[NOPTDEFS]));
}

/*
 * Check what the options say together, and complete them from the
 * environment: $PWD, $OBJDUMP, $CGA_OBJDUMP_TIMEOUT.
 */
static void
options_check(struct options *op)
{
	struct report_opts	*o = &op->report;

	if (op->diff && op->nargs != 2) {
		warnx("--diff takes two profiles, OLD and NEW");
		options_usage(2);
	}
	if (op->diff && (o->format->needs & FORMAT_ONE)) {
		warnx("--format=%s writes one profile: not with --diff "
		    "(export each, and compare them there)", o->format->name);
		options_usage(2);
	}
	if (o->tui && (op->diff || !(o->format->needs & FORMAT_BROWSE) ||
	    o->totals_only)) {
		warnx("--tui browses one report: not with --diff, --format or "
		    "--totals");
		options_usage(2);
	}
	op->parse.strip_prefix = op->pwd = options_pwd();
	/* Machine code is kept while reading for --asm=yes. */
	op->parse.instrs = o->asm_annotate ||
	    (o->format->needs & FORMAT_INSTRS) != 0 ? PARSE_INSTRS_ALL : 0;
	/* Flame graphs use the stacks of xtree files. */
	op->parse.stacks = (o->format->needs & FORMAT_STACKS) != 0;
	if (o->objdump == NULL && (o->objdump = getenv("OBJDUMP")) != NULL &&
	    *o->objdump == '\0')
		o->objdump = NULL;
	if (o->objdump == NULL)
		o->objdump = "objdump";
	o->objdump_timeout = options_timeout(getenv("CGA_OBJDUMP_TIMEOUT"));
}



/* --context=N, lines. */
static int
opt_context(struct options *op, char *arg)
{
	const char	*errstr;

	op->report.context = (int)strtonum(arg, 0, 1000000, &errstr);
	if (errstr != NULL) {
		warnx("--context takes a number of lines, not '%s'", arg);
		options_usage(2);
	}
	return 0;
}


/* Set *v to the percentage arg of option opt, or a usage error. */
static void
options_percent(const char *opt, const char *arg, double *v)
{
	if (!is_percentage(arg)) {
		warnx("%s takes a percentage from 0 to 100, not '%s'", opt,
		    arg);
		options_usage(2);
	}
	*v = strtod(arg, NULL);
}

/* --edge-threshold=PCT */
static int
opt_edge_threshold(struct options *op, char *arg)
{
	options_percent("--edge-threshold", arg, &op->report.edge_threshold);
	return 0;
}

/* --node-threshold=PCT */
static int
opt_node_threshold(struct options *op, char *arg)
{
	options_percent("--node-threshold", arg, &op->report.node_threshold);
	return 0;
}

/* --event=NAME=FORMULA, added to those before. */
static int
opt_event(struct options *op, char *arg)
{
	char	errbuf[256];

	op->events = xreallocarray(op->events, op->nevents + 1,
	    sizeof(*op->events));
	if (derive_opt_parse(&op->events[op->nevents], arg, errbuf,
	    sizeof(errbuf)) == -1) {
		warnx("--event=%s: %s", arg, errbuf);
		options_usage(2);
	}
	op->report.events = op->events;
	op->report.nevents = ++op->nevents;
	return 0;
}

/* --fail-above=EVENT:LIMIT[:REGEX], added to those before. */
static int
opt_fail_above(struct options *op, char *arg)
{
	struct report_opts	*o = &op->report;
	char			 errbuf[256];

	o->gates = xreallocarray(o->gates, o->ngates + 1, sizeof(*o->gates));
	if (gate_parse(&o->gates[o->ngates], arg, errbuf,
	    sizeof(errbuf)) == -1) {
		warnx("--fail-above=%s: %s", arg, errbuf);
		options_usage(2);
	}
	o->ngates++;
	return 0;
}

/* --fold=none|recursion|contexts|all */
static int
opt_fold(struct options *op, char *arg)
{
	op->report.fold = options_choice("--fold", folds, arg);
	return 0;
}

/* --format=NAME, a row of format.c. */
static int
opt_format(struct options *op, char *arg)
{
	op->report.format = options_format(arg);
	return 0;
}

/* --function=REGEX, added to those before. */
static int
opt_function(struct options *op, char *arg)
{
	options_regex("--function", arg, &op->report.functions,
	    &op->report.nfunctions);
	return 0;
}

/* --group=function|object|file */
static int
opt_group(struct options *op, char *arg)
{
	op->report.group = (enum profile_rows)options_choice("--group",
	    groups, arg);
	return 0;
}

/* -h, --help: the summary of the options; the run is over. */
static int
opt_help(struct options *op __unused, char *arg __unused)
{
	options_help();
	return 1;
}

/* -I DIR, --include=DIR, added to those before. */
static int
opt_include(struct options *op, char *arg)
{
	options_dir(&op->report.include, &op->report.ninclude, arg);
	return 0;
}


/* --leaf=REGEX, added to those before. */
static int
opt_leaf(struct options *op, char *arg)
{
	options_regex("--leaf", arg, &op->report.leaves, &op->report.nleaves);
	return 0;
}

/* Set *mod to the rewrite arg of option opt (the last one counts). */
static void
options_mod(const char *opt, char *arg, struct namemod *mod)
{
	char	errbuf[256];

	namemod_free(mod);
	if (namemod_parse(mod, arg, errbuf, sizeof(errbuf)) == -1) {
		warnx("%s: %s: %s", opt, arg, errbuf);
		options_usage(2);
	}
}

/* --mod-filename=s/REGEX/REPL/[g] */
static int
opt_mod_filename(struct options *op, char *arg)
{
	options_mod("--mod-filename", arg, &op->mod_file);
	return 0;
}

/* --mod-funcname=s/REGEX/REPL/[g] */
static int
opt_mod_funcname(struct options *op, char *arg)
{
	options_mod("--mod-funcname", arg, &op->mod_func);
	return 0;
}

/* --objdir=DIR, added to those before. */
static int
opt_objdir(struct options *op, char *arg)
{
	options_dir(&op->report.objdirs, &op->report.nobjdirs, arg);
	return 0;
}

/* Add the directory arg, ending "/", to the n of *dirs (-I, --objdir). */
static void
options_dir(char ***dirs, size_t *n, const char *arg)
{
	*dirs = xreallocarray(*dirs, *n + 1, sizeof(**dirs));
	(*dirs)[(*n)++] = include_dir(arg);
}

/* --objdump=PATH */
static int
opt_objdump(struct options *op, char *arg)
{
	if (*arg == '\0') {
		warnx("--objdump takes a program");
		options_usage(2);
	}
	op->report.objdump = arg;
	return 0;
}

/* Return arg if it is a number, as --part and --thread take, or exit 2. */
static const char *
options_number(const char *opt, const char *arg)
{
	const char	*errstr;

	if (strtonum(arg, 0, INT64_MAX, &errstr), errstr != NULL) {
		warnx("%s takes a number, not '%s'", opt, arg);
		options_usage(2);
	}
	return arg;
}

/* --part=N */
static int
opt_part(struct options *op, char *arg)
{
	op->parse.part = options_number("--part", arg);
	return 0;
}

/* --thread=N */
static int
opt_thread(struct options *op, char *arg)
{
	op->parse.thread = options_number("--thread", arg);
	return 0;
}


/* --root=REGEX, added to those before. */
static int
opt_root(struct options *op, char *arg)
{
	options_regex("--root", arg, &op->report.roots, &op->report.nroots);
	return 0;
}

/* --show=A,B,... */
static int
opt_show(struct options *op, char *arg)
{
	op->report.nshow = split_events(arg, &op->report.show);
	return 0;
}


/* --sort=A[:N],B[:N],... */
static int
opt_sort(struct options *op, char *arg)
{
	options_sort(&op->report, arg);
	return 0;
}

/* --threshold=N[%] */
static int
opt_threshold(struct options *op, char *arg)
{
	if (!is_percentage(arg)) {
		warnx("--threshold takes a percentage from 0 to 100, not "
		    "'%s'", arg);
		options_usage(2);
	}
	arg[strcspn(arg, "%")] = '\0';
	op->report.threshold = arg;
	return 0;
}


/* --tree=none|caller|calling|both */
static int
opt_tree(struct options *op, char *arg)
{
	op->report.tree = options_choice("--tree", trees, arg);
	return 0;
}


/* --version: the version; the run is over. */
static int
opt_version(struct options *op __unused, char *arg __unused)
{
	printf("cg-annotate %s\n", CGA_VERSION);
	return 1;
}

/*
 * Return the seconds a run of objdump may take: $CGA_OBJDUMP_TIMEOUT
 * (v) if it is a whole number from 1 to 86400, else 60.
 */
static unsigned
options_timeout(const char *v)
{
	unsigned long	 n;
	char		*end;

	if (v == NULL || *v < '0' || *v > '9')
		return 60;
	n = strtoul(v, &end, 10);
	return *end == '\0' && n >= 1 && n <= 86400 ? (unsigned)n : 60;
}

/* Free what options_parse() allocated. */
void
options_free(struct options *op)
{
	struct report_opts	*o = &op->report;
	size_t			 i;

	for (i = 0; i < o->ninclude; i++)
		free(o->include[i]);
	free(o->include);
	for (i = 0; i < o->ngates; i++)
		gate_free(&o->gates[i]);
	for (i = 0; i < op->nevents; i++)
		derive_opt_free(&op->events[i]);
	free(op->events);
	for (i = 0; i < o->nobjdirs; i++)
		free(o->objdirs[i]);
	free(o->objdirs);
	for (i = 0; i < o->nfunctions; i++)
		rematch_free(o->functions[i]);
	free(o->functions);
	for (i = 0; i < o->nroots; i++)
		rematch_free(o->roots[i]);
	free(o->roots);
	for (i = 0; i < o->nleaves; i++)
		rematch_free(o->leaves[i]);
	free(o->leaves);
	free(o->gates);
	namemod_free(&op->mod_file);
	namemod_free(&op->mod_func);
	free(o->show);
	free(o->sort);
	free(o->sort_thr);
	free(op->pwd);
}

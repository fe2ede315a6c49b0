/*
 * usage.c - what the command says of its options: the usage message,
 * --help, and the words an option takes (--fold, --format, --group,
 * --tree), from one table each, which options.c parses with.
 */
#include "base/compat.h"

#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/fold.h"
#include "base/xmalloc.h"
#include "model/profile.h"
#include "select/reportopts.h"
#include "usage.h"
#include "view/format.h"

const struct choice trees[] = {
	{ "none", 0 }, { "caller", REPORT_TREE_CALLER },
	{ "calling", REPORT_TREE_CALLING },
	{ "both", REPORT_TREE_CALLER | REPORT_TREE_CALLING }, { NULL, 0 }
};
const struct choice folds[] = {
	{ "none", 0 }, { "recursion", FOLD_RECURSION },
	{ "contexts", FOLD_CONTEXTS },
	{ "all", FOLD_RECURSION | FOLD_CONTEXTS }, { NULL, 0 }
};
const struct choice groups[] = {
	{ "function", PROFILE_ROWS_FUNCTIONS },
	{ "object", PROFILE_ROWS_OBJECTS }, { "file", PROFILE_ROWS_FILES },
	{ NULL, 0 }
};

/* The words of the options that take one of a list, as --help shows. */
struct usage_words {
	char	fold[128], format[128], group[128], tree[128];
};

static void		 usage_words(struct usage_words *);
static const char	*options_words(const struct choice *, const char *,
			    const char *, char *, size_t);
static struct choice	*options_formats(void);

/* Print the synopsis to stderr and exit 2. */
__dead void
options_usage(int status)
{
	struct usage_words u;
	int		w = (int)strlen(getprogname());

	usage_words(&u);
	fprintf(stderr, "usage: %s [--asm=yes|no] [--auto=yes|no] "
	    "[--context=N]\n"
	    "       %*s [--event=NAME=FORMULA] [--function=REGEX] "
	    "[--objdir=DIR]\n"
	    "       %*s [--objdump=PATH] [--fail-above=EVENT:LIMIT[:REGEX]]\n"
	    "       %*s [--node-threshold=PCT] [--edge-threshold=PCT] "
	    "[--root=REGEX]\n"
	    "       %*s [--leaf=REGEX] [--inclusive=yes|no] [-I dir] "
	    "[--part=N]\n"
	    "       %*s [--fold=%s]\n"
	    "       %*s [--format=%s]\n"
	    "       %*s [--group=%s] [--per-part] "
	    "[--show=A,B,...]\n"
	    "       %*s [--show-percs=yes|no] [--sort=A[:N],B[:N],...] "
	    "[--thread=N]\n"
	    "       %*s [--threshold=N] [--totals] [--tui]\n"
	    "       %*s [--tree=%s]\n"
	    "       %*s [profile ... [source ...]]\n"
	    "       %s --diff [--mod-filename=s/RE/REPL/[g]]\n"
	    "       %*s [--mod-funcname=s/RE/REPL/[g]] [options]\n"
	    "       %*s old-profile new-profile\n"
	    "       %s --help | --version\n", getprogname(),
	    w, "", w, "", w, "", w, "", w, "", u.fold, w, "", u.format, w, "",
	    u.group, w, "", w, "", w, "", u.tree, w, "", getprogname(), w, "",
	    w, "", getprogname());
	exit(status);
}

/* Fill u with the words --fold, --format, --group and --tree take. */
static void
usage_words(struct usage_words *u)
{
	struct choice	*fc = options_formats();

	options_words(folds, "|", "|", u->fold, sizeof(u->fold));
	options_words(fc, "|", "|", u->format, sizeof(u->format));
	free(fc);
	options_words(groups, "|", "|", u->group, sizeof(u->group));
	options_words(trees, "|", "|", u->tree, sizeof(u->tree));
}

/* Print the option summary (as in the man page) to stdout. */
void
options_help(void)
{
	struct usage_words u;

	usage_words(&u);
	printf("usage: %s [options] [profile ... [source ...]]\n"
	    "\n"
	    "Print the totals, the function totals, the call tree and "
	    "annotated sources of\na Callgrind or Cachegrind profile.\n"
	    "\n"
	    "  -h, --help            print this help and exit\n"
	    "  --version             print the version and exit\n"
	    "  --asm=yes|no          annotate the machine code of the "
	    "printed functions (a\n"
	    "                        profile made with --dump-instr=yes; "
	    "objdump) [no]\n"
	    "  --auto=yes|no         annotate the source files of the "
	    "printed functions [yes]\n"
	    "  --context=N           lines of context around annotated "
	    "lines [8]\n"
	    "  --diff OLD NEW        report NEW - OLD, sorted by the size "
	    "of the changes\n"
	    "  --event=NAME=FORMULA  define a derived event, e.g. "
	    "'CEst=Ir+10*Bm'; built in:\n"
	    "                        L1m, L2m, LLm, Bm, CEst; computed when "
	    "--show, --sort or\n"
	    "                        --fail-above name it\n"
	    "  --fail-above=EVENT:LIMIT[:REGEX]\n"
	    "                        exit 3 if EVENT's total (or, with "
	    "REGEX, a function's)\n"
	    "                        is above LIMIT; with --diff its "
	    "change, LIMIT may be N%%\n"
	    "  --fold=%s\n"
	    "                        sum callgrind's recursion levels (f'2) "
	    "and/or caller\n"
	    "                        contexts (f'g'h) into the function "
	    "[none]\n"
	    "  --edge-threshold=PCT  with --format=dot, the calls drawn "
	    "[0.1]\n"
	    "  --format=%s\n"
	    "                        the report as text [text], as one JSON "
	    "document, as\n"
	    "                        GitHub-flavoured Markdown (CI "
	    "summaries); or a call\n"
	    "                        graph for Graphviz, collapsed stacks, "
	    "a flame graph\n"
	    "  --function=REGEX      print only the functions whose "
	    "file:function label\n"
	    "                        REGEX matches (list, trees, sources, "
	    "machine code)\n"
	    "  --group=%s\n"
	    "                        list objects or source files instead "
	    "of functions\n"
	    "                        [function]\n"
	    "  -I DIR, --include=DIR look for source files under DIR too "
	    "(also -IDIR, -I=DIR)\n"
	    "  --inclusive=yes|no    sort and print functions by inclusive "
	    "cost, with\n"
	    "                        recursion counted once and cycles "
	    "shown [no]\n"
	    "  --leaf=REGEX          with --format=dot, only what calls "
	    "matching functions\n"
	    "  --mod-filename=s/REGEX/REPL/[g], --mod-funcname=s/REGEX/REPL/"
	    "[g]\n"
	    "                        with --diff, rewrite file or "
	    "function names first\n"
	    "  --node-threshold=PCT  with --format=dot, the functions drawn "
	    "[0.5]\n"
	    "  --objdir=DIR          with --asm, look for objects under DIR "
	    "too\n"
	    "  --objdump=PATH        with --asm, the disassembler [$OBJDUMP "
	    "or objdump],\n"
	    "                        stopped after $CGA_OBJDUMP_TIMEOUT "
	    "seconds [60]\n"
	    "  --part=N              read only the parts numbered N "
	    "(part: N)\n"
	    "  --per-part            list each part's totals under "
	    "PROGRAM TOTALS\n"
	    "  --root=REGEX          with --format=dot, only what the "
	    "matching functions call\n"
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
	    "  --tui                 browse the profile in the terminal "
	    "(keys: ? in it)\n"
	    "  --tree=%s\n"
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
	    getprogname(), u.fold, u.format, u.group, u.tree);
}

/*
 * Write the words of c into buf, separated by sep, the last two by last
 * ("none, caller, calling or both"; "none|caller|calling|both"), and
 * return buf.
 */
static const char *
options_words(const struct choice *c, const char *sep, const char *last,
    char *buf, size_t size)
{
	size_t	i;

	*buf = '\0';
	for (i = 0; c[i].word != NULL; i++) {
		if (i > 0)
			strlcat(buf, c[i + 1].word == NULL ? last : sep, size);
		strlcat(buf, c[i].word, size);
	}
	return buf;
}

/*
 * Return the value of the word arg of option opt among those of c, or
 * a usage error naming them all ("--tree takes none, caller, calling or
 * both, not 'x'").
 */
int
options_choice(const char *opt, const struct choice *c, const char *arg)
{
	char	words[256];
	size_t	i;

	for (i = 0; c[i].word != NULL; i++)
		if (strcmp(arg, c[i].word) == 0)
			return c[i].value;
	warnx("%s takes %s, not '%s'", opt, options_words(c, ", ", " or ",
	    words, sizeof(words)), arg);
	options_usage(2);
}

/*
 * Return the names of the formats (format.c) as choices, the row's
 * index each; the caller frees them.
 */
static struct choice *
options_formats(void)
{
	struct choice	*c;
	size_t		 i, n;

	for (n = 0; formats[n].name != NULL; n++)
		continue;
	c = xreallocarray(NULL, n + 1, sizeof(*c));
	for (i = 0; i < n; i++) {
		c[i].word = formats[i].name;
		c[i].value = (int)i;
	}
	c[n].word = NULL;
	return c;
}

/* Return the format --format=arg names, or a usage error. */
const struct format *
options_format(const char *arg)
{
	struct choice	*c = options_formats();
	int		 i;

	i = options_choice("--format", c, arg);
	free(c);
	return &formats[i];
}

/*
 * report_folded.c - --format=folded: Brendan Gregg's collapsed stacks,
 * "main;parse;lex 1234", one line for each path of the flame graph
 * frames (flamesel.c) that stacks end in, depth first in name order, for
 * flamegraph.pl, inferno and speedscope.  The counts add up to the sum
 * of the event's self costs.  With --diff, "STACK OLD NEW", the input of
 * flamegraph.pl's difffolded: both counts, every stack of either.
 * Estimated stacks are said so once on standard error.  A frame that
 * ends in spaces and a number ("worker 7") has those spaces written as
 * underscores ("worker_7"): flamegraph.pl would read the number as a
 * count of its own.
 */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "base/xmalloc.h"
#include "select/flamesel.h"
#include "select/select.h"
#include "view/report.h"

/*
 * Write frame name s, its spaces before a number that ends it (what
 * flamegraph.pl takes for a count: spaces, digits, a point and digits)
 * as underscores.
 */
static void
folded_frame(FILE *out, const char *s)
{
	size_t	len = strlen(s), i = len, num, sp;

	while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
		i--;
	if (i > 0 && s[i - 1] == '.') {
		i--;
		num = i;
		while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
			i--;
		if (i == num)
			i = len;	/* a point without digits before it */
	}
	/* i == len: no number at the end. */
	for (sp = i; sp > 0 && s[sp - 1] == ' '; sp--)
		continue;
	if (i == len || sp == i) {
		fputs(s, out);
		return;
	}
	fwrite(s, 1, sp, out);
	for (; sp < i; sp++)
		putc('_', out);
	fputs(s + i, out);
}

/* Print the stacks of sel as collapsed-stack lines.  Return 0. */
int
report_folded(FILE *out, const struct selection *sel)
{
	const struct flamesel	*s = sel->flame;
	const struct frame	*fr;
	uint32_t		*path, v;
	size_t			 depth, i, k;

	if (!s->exact)
		msg_note("stacks estimated from the call graph: each "
		    "function's cost spread over its callers in proportion "
		    "to their calls' cost (see the man page)");
	path = xreallocarray(NULL, s->depth + 2, sizeof(*path));
	/* Depth first, children in order: the path to v is path[]. */
	for (k = 0; k + 1 < s->nframes; k++) {
		v = s->dfs[k];
		fr = &s->frames[v];
		depth = fr->depth;
		path[depth - 1] = v;
		if (fr->self > 0 || flamesel_old_self(s, v) > 0) {
			for (i = 0; i < depth; i++) {
				if (i > 0)
					fputc(';', out);
				folded_frame(out, flamesel_name(s,
				    s->frames[path[i]].name));
			}
			if (sel->d != NULL)
				fprintf(out, " %llu", (unsigned long long)
				    flamesel_old_self(s, v));
			fprintf(out, " %llu\n", (unsigned long long)fr->self);
		}
	}
	free(path);
	return 0;
}

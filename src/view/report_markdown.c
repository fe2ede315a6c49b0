/*
 * report_markdown.c - --format=markdown: GitHub-flavoured Markdown for
 * CI job summaries and pull-request comments.  A heading and a line
 * naming the command and the events; the program totals as a table;
 * the printed functions as a table (the shown events, with percentages
 * of the totals unless --show-percs=no, and "file:function"); with
 * --diff the old, new and changed totals and each printed function's
 * change, signed; with --fail-above a line per limit that applied.
 * Every name is escaped so that it reads as plain text wherever it is
 * pasted: Markdown's syntax characters get a backslash, control bytes
 * are shown as \xNN.
 */
#include "base/compat.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "analysis/callgraph.h"
#include "analysis/diff.h"
#include "analysis/fntotals.h"
#include "analysis/gate.h"
#include "base/cost.h"
#include "base/num.h"
#include "base/utf8.h"
#include "model/profile.h"
#include "select/select.h"
#include "view/report.h"

static void	md_text(FILE *, const char *);
static const char *md_count(char *, uint64_t);
static const char *md_change(char *, struct snum, int);
static void	md_cells(FILE *, const char *, int, double, int, int);
static void	md_perc(FILE *, double, int);
static void	md_head(FILE *, const struct selection *, int);
static void	md_event_cols(FILE *, const struct selection *,
		    const char *, int);
static double	md_share(double, uint64_t);
static void	md_rule(FILE *, const struct selection *, int, int, int);
static void	md_totals_row(FILE *, const struct selection *, const char *,
		    const uint64_t *);
static void	md_totals(FILE *, const struct selection *);
static void	md_functions(FILE *, const struct selection *);
static void	md_diff_totals(FILE *, const struct selection *);
static void	md_diff_functions(FILE *, const struct selection *);
static void	md_gate_value(FILE *, const struct gate_result *);
static void	md_gates(FILE *, const struct selection *);

/*
 * Write s as Markdown text that reads as s: the punctuation that GitHub
 * Markdown could take for syntax inside a line or a table cell gets a
 * backslash (emphasis, code, links, HTML, tables, headings,
 * strikethrough, entities, math); control bytes and bytes that are not
 * UTF-8 are shown as \xNN (a backslash before a letter stands as it
 * is).  The colon of "://" and the point of "www." get one too, so that
 * no name becomes one of GitHub's extended autolinks.
 */
static void
md_text(FILE *out, const char *s)
{
	const unsigned char	*u = (const unsigned char *)s;
	size_t			 n;

	while (*u != '\0') {
		if ((*u == ':' && u[1] == '/' && u[2] == '/') ||
		    (*u == '.' && u - (const unsigned char *)s >= 3 &&
		    strncasecmp((const char *)u - 3, "www", 3) == 0)) {
			putc('\\', out);
			putc(*u++, out);
			continue;
		}
		if (*u < 0x20 || *u == 0x7f || (n = utf8_len(u)) == 0) {
			fprintf(out, "\\x%02x", *u++);
			continue;
		}
		if (n == 1 && strchr("\\`*_[]<>|#~&$", *u) != NULL)
			putc('\\', out);
		fwrite(u, 1, n, out);
		u += n;
	}
}

/* Return a count with thousands separators in buf, "." if never recorded. */
static const char *
md_count(char *buf, uint64_t v)
{
	if (v == COST_NONE)
		return ".";
	num_commify(v, buf);
	return buf;
}

/* Return a change with its sign and separators in buf, "." if undefined. */
static const char *
md_change(char *buf, struct snum v, int def)
{
	if (!def)
		return ".";
	buf[0] = '+';
	num_scommify(v, buf + (!v.neg && v.mag > 0));
	return buf;
}

/*
 * Write the cells of one event in a row: its value (text), and if percs
 * its percentage, signed if sign; "." where it is not defined.
 */
static void
md_cells(FILE *out, const char *text, int def, double perc, int sign,
    int percs)
{
	fprintf(out, " %s |", text);
	if (!percs)
		return;
	fputc(' ', out);
	if (def)
		md_perc(out, perc, sign);
	else
		fputc('.', out);
	fputs(" |", out);
}

/* Write a percentage with two decimals, signed if asked for. */
static void
md_perc(FILE *out, double perc, int sign)
{
	fprintf(out, sign ? "%+.2f%%" : "%.2f%%", perc);
}

/* Return the percentage that v is of base, 0 without a base. */
static double
md_share(double v, uint64_t base)
{
	if (base == COST_NONE || base == 0)
		return 0;
	return v * 100.0 / (double)base;
}

/*
 * The heading, and a line naming the command, the events shown and
 * sorted by, the thresholds given, and names rewritten (--diff).
 */
static void
md_head(FILE *out, const struct selection *sel, int diff)
{
	const struct profile	*p = sel->p;
	const char		*cmd = profile_str(p, profile_part(p, 0)->cmd);
	const char		*thr;
	size_t			 i;
	int			 any = 0;

	fputs("### cg-annotate: ", out);
	md_text(out, sel->run->profile_name);
	if (diff) {
		fputs(" minus ", out);
		md_text(out, sel->run->old_name);
	}
	fputs("\n\nCommand: ", out);
	md_text(out, *cmd != '\0' ? cmd : "(unknown)");
	fputs(" · Events:", out);
	for (i = 0; i < sel->nshow; i++) {
		fputc(' ', out);
		md_text(out, profile_str(p, profile_event(p, sel->show[i])));
	}
	fputs(" · Sorted by:", out);
	for (i = 0; i < sel->nsort; i++) {
		fputc(' ', out);
		md_text(out, profile_str(p, profile_event(p, sel->sort[i])));
	}
	for (i = 0; i < sel->nsort; i++) {
		if (strcmp(thr = select_threshold(sel, i), "0") == 0)
			continue;
		fputs(any++ ? ", " : " · Threshold: ", out);
		md_text(out, profile_str(p, profile_event(p, sel->sort[i])));
		fprintf(out, " %s%%", thr);
	}
	if (!diff && sel->o->inclusive)
		fputs(" · Inclusive costs", out);
	if (diff && (sel->o->mod_file->set || sel->o->mod_func->set))
		fprintf(out, " · Names rewritten: %s", sel->o->mod_file->set &&
		    sel->o->mod_func->set ? "files, functions" :
		    sel->o->mod_file->set ? "files" : "functions");
	fputs("\n\n", out);
}

/* The header cells of the shown events, each with a "%" column. */
static void
md_event_cols(FILE *out, const struct selection *sel, const char *suffix,
    int percs)
{
	size_t	i;

	for (i = 0; i < sel->nshow; i++) {
		fputs(" ", out);
		md_text(out, profile_str(sel->p, profile_event(sel->p,
		    sel->show[i])));
		fprintf(out, "%s |", suffix);
		if (percs)
			fputs(" % |", out);
	}
}

/*
 * The delimiter row: left text columns, the events' number columns
 * (right-aligned), then right text columns (left-aligned).
 */
static void
md_rule(FILE *out, const struct selection *sel, int left, int percs,
    int right)
{
	size_t	i;

	fputc('|', out);
	for (i = 0; i < (size_t)left; i++)
		fputs(" :--- |", out);
	for (i = 0; i < sel->nshow * (percs ? 2 : 1); i++)
		fputs(" ---: |", out);
	for (i = 0; i < (size_t)right; i++)
		fputs(" :--- |", out);
	fputc('\n', out);
}

/* A row of totals: its label cell (if label is set), then the counts. */
static void
md_totals_row(FILE *out, const struct selection *sel, const char *label,
    const uint64_t *c)
{
	char	buf[32];
	size_t	k;

	fputc('|', out);
	if (label != NULL)
		fprintf(out, " %s |", label);
	for (k = 0; k < sel->nshow; k++)
		md_cells(out, md_count(buf, c[sel->show[k]]), 1, 0, 0, 0);
	fputc('\n', out);
}

/* The program totals of one profile. */
static void
md_totals(FILE *out, const struct selection *sel)
{
	fputs("**Program totals**", out);
	if (sel->source == TOTALS_CALCULATED)
		fputs(" (calculated)", out);
	fputs("\n\n|", out);
	md_event_cols(out, sel, "", 0);
	fputc('\n', out);
	md_rule(out, sel, 0, 0, 0);
	md_totals_row(out, sel, NULL, sel->total);
	fputc('\n', out);
}

/* The printed functions (and cycles) of one profile. */
static void
md_functions(FILE *out, const struct selection *sel)
{
	const struct selentry	*en;
	char			 buf[32];
	uint64_t		 v;
	size_t			 i, k;
	int			 percs = sel->o->show_percs, e;

	fprintf(out, "**%s** (%s cost; %zu printed)\n\n|",
	    profile_rows(sel->p) == PROFILE_ROWS_OBJECTS ? "Objects" :
	    profile_rows(sel->p) == PROFILE_ROWS_FILES ? "Files" :
	    "Functions", sel->o->inclusive ? "inclusive" : "self", sel->nents);
	md_event_cols(out, sel, "", percs);
	fprintf(out, " %s |\n", select_rowname(sel));
	md_rule(out, sel, 0, percs, 1);
	for (i = 0; i < sel->nents; i++) {
		en = &sel->ents[i];
		fputc('|', out);
		for (k = 0; k < sel->nshow; k++) {
			e = sel->show[k];
			v = en->cost[e];
			md_cells(out, md_count(buf, v), v != COST_NONE,
			    md_share((double)v, sel->total[e]), 0, percs);
		}
		fputc(' ', out);
		md_text(out, select_label(sel, en));
		fputs(" |\n", out);
	}
	fputc('\n', out);
}

/* The old, new and changed totals of a difference. */
static void
md_diff_totals(FILE *out, const struct selection *sel)
{
	const struct diff	*d = sel->d;
	char			 buf[32];
	size_t			 k;
	int			 e;

	fputs("**Program totals**\n\n| |", out);
	md_event_cols(out, sel, "", 0);
	fputc('\n', out);
	md_rule(out, sel, 1, 0, 0);
	md_totals_row(out, sel, "old", d->old_total);
	md_totals_row(out, sel, "new", d->new_total);
	fputs("| change |", out);
	for (k = 0; k < sel->nshow; k++) {
		e = sel->show[k];
		fprintf(out, " %s", md_change(buf, sel->tdelta[e],
		    sel->tdef[e]));
		if (sel->tdef[e] && d->old_total[e] != COST_NONE &&
		    d->old_total[e] > 0) {
			fputs(" (", out);
			md_perc(out, md_share(num_sdouble(sel->tdelta[e]),
			    d->old_total[e]), 1);
			fputc(')', out);
		}
		fputs(" |", out);
	}
	fputs("\n\n", out);
}

/*
 * The printed functions' changes, largest first, with percentages of
 * OLD's totals.
 */
static void
md_diff_functions(FILE *out, const struct selection *sel)
{
	const struct seldiff	*r;
	const struct diff	*d = sel->d;
	char			 buf[32];
	size_t			 i, k;
	int			 percs = sel->o->show_percs, e;

	fprintf(out, "**Changes by %s** (largest first; %zu of %zu "
	    "printed)\n\n|", profile_rows(sel->p) == PROFILE_ROWS_OBJECTS ?
	    "object" : profile_rows(sel->p) == PROFILE_ROWS_FILES ? "file" :
	    "function", sel->ndsel, sel->ndrows);
	md_event_cols(out, sel, " change", percs);
	fprintf(out, " %s |\n", select_rowname(sel));
	md_rule(out, sel, 0, percs, 1);
	for (i = 0; i < sel->ndsel; i++) {
		r = &sel->drows[i];
		fputc('|', out);
		for (k = 0; k < sel->nshow; k++) {
			e = sel->show[k];
			md_cells(out, md_change(buf, r->delta[e], r->def[e]),
			    r->def[e], md_share(num_sdouble(r->delta[e]),
			    d->old_total[e]), 1, percs);
		}
		fputc(' ', out);
		md_text(out, r->r->label);
		fputs(" |\n", out);
	}
	fputc('\n', out);
}

/*
 * Write what one limit found: a value, or a change and its share (only
 * digits and signs, which need no escape).
 */
static void
md_gate_value(FILE *out, const struct gate_result *g)
{
	char	buf[GATE_VALUE_MAX];

	md_text(out, g->gate->event);
	if (g->what != NULL) {
		fputs(" of ", out);
		md_text(out, g->what);
	}
	fprintf(out, " %s", gate_value(g, buf, sizeof(buf)));
}

/*
 * A line per --fail-above: passed or failed; for a limit on the
 * totals, the value; for one on functions, how many it applied to, and
 * under it each function above the limit.
 */
static void
md_gates(FILE *out, const struct selection *sel)
{
	const struct report_opts	*o = sel->o;
	const struct gate_result	*g;
	size_t				 i, k, n, nfailed, total = 0;

	if (o->ngates == 0)
		return;
	for (i = 0; i < sel->ngres; i++)
		total += sel->gres[i].failed != 0;
	fprintf(out, "**Limits**: %s\n\n", total > 0 ? "failed" : "passed");
	for (k = 0; k < o->ngates; k++) {
		n = nfailed = 0;
		for (i = 0; i < sel->ngres; i++)
			if (sel->gres[i].gate == &o->gates[k]) {
				n++;
				nfailed += sel->gres[i].failed != 0;
			}
		fputs(nfailed > 0 ? "- **failed**: " : "- passed: ", out);
		fputs("--fail-above=", out);
		md_text(out, o->gates[k].spec);
		if (!o->gates[k].has_re) {
			for (i = 0; i < sel->ngres; i++)
				if (sel->gres[i].gate == &o->gates[k]) {
					fputs(": ", out);
					md_gate_value(out, &sel->gres[i]);
				}
			fputc('\n', out);
			continue;
		}
		fprintf(out, ": %zu of %zu matching function%s above the "
		    "limit\n", nfailed, n, n == 1 ? "" : "s");
		for (i = 0; i < sel->ngres; i++) {
			g = &sel->gres[i];
			if (g->gate != &o->gates[k] || !g->failed)
				continue;
			fputs("  - ", out);
			md_gate_value(out, g);
			fputc('\n', out);
		}
	}
	fputc('\n', out);
}

/* Print a selection as GitHub-flavoured Markdown.  Return 0. */
int
report_markdown(FILE *out, const struct selection *sel)
{
	md_head(out, sel, sel->d != NULL);
	if (sel->d != NULL) {
		md_diff_totals(out, sel);
		if (!sel->o->totals_only)
			md_diff_functions(out, sel);
	} else {
		md_totals(out, sel);
		if (!sel->o->totals_only)
			md_functions(out, sel);
	}
	md_gates(out, sel);
	return 0;
}

/*
 * report_dot.c - --format=dot: the call graph as Graphviz DOT, the
 * functions and calls graphsel.c chose.  A node is labelled with the
 * function's name, its object's file name in a smaller font (the path
 * in its tooltip), its inclusive and (in brackets) self percentages and
 * the calls into it; an edge with the percentage of its calls'
 * inclusive cost and their count; the graph's label says so.  Nodes and
 * edges are coloured and edges widened on gprof2dot's temperature scale,
 * blue (cold) through green and yellow to red (hot); calls inside a
 * cycle or to the function itself are dashed and grey, their cost being
 * the cycle's.  Cycles are clusters labelled "<cycle N>".  Every name is
 * escaped for DOT's HTML-like or quoted strings, any byte of it.
 */
#include "base/compat.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/callgraph.h"
#include "analysis/fntotals.h"
#include "base/cost.h"
#include "base/num.h"
#include "base/utf8.h"
#include "model/profile.h"
#include "select/graphsel.h"
#include "select/select.h"
#include "view/report.h"

static void	dot_quoted(FILE *, const char *, int);
static void	dot_html(FILE *, const char *);
static double	dot_weight(uint64_t, uint64_t);
static void	dot_color(FILE *, double);
static void	dot_pct(FILE *, uint64_t, uint64_t);
static double	dot_change(uint64_t, uint64_t, uint64_t);
static void	dot_change_pct(FILE *, uint64_t, uint64_t, uint64_t);
static void	dot_change_color(FILE *, double);


/*
 * Write s inside a DOT quoted string: a label if tooltip is 0, else a
 * tooltip.  Graphviz expands \N, \G, \E and their like in both, after
 * taking "\\" for one backslash in a label and only "\\\\" in a
 * tooltip; a name's backslashes stay backslashes.
 */
static void
dot_quoted(FILE *out, const char *s, int tooltip)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 n;

	while (*p != '\0') {
		if (*p == '\\')
			fputs(tooltip ? "\\\\\\\\" : "\\\\", out);
		else if (*p == '"') {
			fputc('\\', out);
			fputc(*p, out);
		} else if (*p < 0x20 || *p == 0x7f || (n = utf8_char(p)) == 0)
			fputs("\xef\xbf\xbd", out);	/* U+FFFD */
		else {
			fwrite(p, 1, n, out);
			p += n;
			continue;
		}
		p++;
	}
}

/*
 * Write s as the text of an HTML-like label: XML character data, where
 * Graphviz also expands \N, \G and \E, and takes "\\" for a backslash.
 */
static void
dot_html(FILE *out, const char *s)
{
	const char	*bs;

	while ((bs = strchr(s, '\\')) != NULL) {
		utf8_xmln(out, s, (size_t)(bs - s));
		fputs("\\\\", out);
		s = bs + 1;
	}
	utf8_xml(out, s);
}

/* Return v as a share of total, from 0 to 1. */
static double
dot_weight(uint64_t v, uint64_t total)
{
	double	w;

	if (v == COST_NONE || v == 0)
		return 0;
	if (total == COST_NONE || total == 0)
		return 1;
	w = (double)v / (double)total;
	return w > 1 ? 1 : w;
}

/*
 * Write the colour of weight w on the temperature scale: the hue goes
 * from blue (240 degrees) to red (0), brighter and more saturated as it
 * gets hotter.
 */
static void
dot_color(FILE *out, double w)
{
	double	h = (1 - w) * 240 / 360, s = 0.8 + 0.2 * w, l = 0.3 + 0.2 * w;
	double	q = l < 0.5 ? l * (1 + s) : l + s - l * s, p = 2 * l - q;
	double	t[3] = { h + 1.0 / 3, h, h - 1.0 / 3 }, c;
	int	i;

	fputc('#', out);
	for (i = 0; i < 3; i++) {
		if (t[i] < 0)
			t[i] += 1;
		if (t[i] > 1)
			t[i] -= 1;
		if (t[i] < 1.0 / 6)
			c = p + (q - p) * 6 * t[i];
		else if (t[i] < 0.5)
			c = q;
		else if (t[i] < 2.0 / 3)
			c = p + (q - p) * (2.0 / 3 - t[i]) * 6;
		else
			c = p;
		fprintf(out, "%02x", (unsigned)lround(c * 255));
	}
}

/* Write v as a percentage of total, or "." if it is not recorded. */
static void
dot_pct(FILE *out, uint64_t v, uint64_t total)
{
	if (v == COST_NONE)
		fputc('.', out);
	else if (total == COST_NONE || total == 0)
		fputs("-", out);
	else
		fprintf(out, "%.2f%%", 100.0 * (double)v / (double)total);
}

/*
 * Return the change from old to new as a share of total (negative:
 * faster), clamped to -1..1; a function new in NEW changes by all of it.
 */
static double
dot_change(uint64_t new, uint64_t old, uint64_t total)
{
	double	d;

	if (new == COST_NONE)
		new = 0;
	if (old == COST_NONE)
		old = 0;
	if (total == COST_NONE || total == 0)
		return new > old ? 1 : new < old ? -1 : 0;
	d = ((double)new - (double)old) / (double)total;
	return d > 1 ? 1 : d < -1 ? -1 : d;
}

/* Write the change from old to new as a signed percentage of total. */
static void
dot_change_pct(FILE *out, uint64_t new, uint64_t old, uint64_t total)
{
	double	d;

	if (new == COST_NONE)
		new = 0;
	if (old == COST_NONE)
		old = 0;
	if (total == COST_NONE || total == 0) {
		fputs(new > old ? "+" : new < old ? "-" : "0", out);
		return;
	}
	d = 100.0 * ((double)new - (double)old) / (double)total;
	if (new == old)
		fputs("0", out);
	else
		fprintf(out, "%+.2f%%", d);
}

/*
 * Write the colour of change d (a share of the total): grey for none,
 * redder as it grows slower, bluer as it grows faster, full at 10%.
 */
static void
dot_change_color(FILE *out, double d)
{
	double	t = d < 0 ? -d * 10 : d * 10;
	int	hot[3] = { 0xd7, 0x19, 0x1c }, cold[3] = { 0x2c, 0x7b, 0xb6 };
	int	grey[3] = { 0x90, 0x90, 0x90 }, *to = d < 0 ? cold : hot, i;

	if (t > 1)
		t = 1;
	fputc('#', out);
	for (i = 0; i < 3; i++)
		fprintf(out, "%02x", (unsigned)lround(grey[i] +
		    (to[i] - grey[i]) * t));
}

/* Print the call graph of sel as one DOT digraph.  Return 0. */
int
report_dot(FILE *out, const struct selection *sel)
{
	const struct graphsel	*s = sel->graph;
	const struct profile	*p = sel->p;
	const struct part	*pt = profile_part(p, 0);
	const struct gnode	*n;
	const struct gedge	*e;
	const struct fnrow	*row;
	const char		*obj, *base;
	uint64_t		 total = sel->base[s->ev];
	char			 num[32];
	double			 w, pw;
	size_t			 i, k;
	uint32_t		 cy;

	fputs("digraph \"callgraph\" {\n\tgraph [fontname=\"Helvetica\", "
	    "labelloc=t, nodesep=0.25, ranksep=0.35, label=\"", out);
	if (*profile_str(p, pt->cmd) != '\0') {
		dot_quoted(out, profile_str(p, pt->cmd), 0);
		fputs(" \xe2\x80\x94 ", out);
	}
	dot_quoted(out, profile_str(p, profile_event(p, (unsigned)s->ev)), 0);
	/* A legend: what the numbers are. */
	fputs(s->diff ? " \xe2\x80\x94 change from OLD (red: slower, blue: "
	    "faster) \xe2\x80\x94 cg-annotate\\n"
	    "node: change of inclusive cost (inclusive cost in NEW), calls "
	    "into it; edge: change of the calls' inclusive cost, calls; "
	    "percentages of OLD's total\"];\n" :
	    " \xe2\x80\x94 cg-annotate\\n"
	    "node: inclusive cost (self cost), calls into it; edge: the "
	    "calls' inclusive cost, calls; percentages of the total\"];\n",
	    out);
	fputs("\tnode [shape=box, style=\"filled,rounded\", "
	    "fontname=\"Helvetica\", fontsize=10, fontcolor=\"#ffffff\", "
	    "height=0, width=0];\n"
	    "\tedge [fontname=\"Helvetica\", fontsize=9];\n", out);
	for (i = 0; i < s->ncycles; i++) {
		cy = s->cycles[i];
		fprintf(out, "\tsubgraph \"cluster_%u\" {\n\t\tlabel=\"",
		    (unsigned)cy);
		dot_quoted(out, sel->g->cycles[cy].label, 0);
		fputs("\";\n\t\tstyle=dashed;\n\t\tcolor=\"#808080\";\n", out);
		for (k = 0; k < s->nnodes; k++)
			if (s->nodes[k].cycle == cy)
				fprintf(out, "\t\t\"n%zu\";\n", k);
		fputs("\t}\n", out);
	}
	for (k = 0; k < s->nnodes; k++) {
		n = &s->nodes[k];
		row = &sel->t->rows[n->row];
		w = dot_weight(n->incl[s->ev], total);
		fprintf(out, "\t\"n%zu\" [label=<", k);
		dot_html(out, profile_rows(p) == PROFILE_ROWS_FUNCTIONS ?
		    profile_str(p, row->name) : fntotals_label(sel->t,
		    n->row));
		if (row->named && row->obj != 0) {
			/* The object's file name: its path is in the tooltip. */
			obj = profile_str(p, row->obj);
			if ((base = strrchr(obj, '/')) != NULL && base[1] != '\0')
				obj = base + 1;
			fputs("<BR/><FONT POINT-SIZE=\"8\">", out);
			dot_html(out, obj);
			fputs("</FONT>", out);
		}
		fputs("<BR/>", out);
		if (s->diff) {
			dot_change_pct(out, n->incl[s->ev], n->old_incl, total);
			fputs("<BR/>(", out);
			dot_pct(out, n->incl[s->ev], total);
			fputs(n->old_incl == COST_NONE ? ", new)" : ")", out);
		} else {
			dot_pct(out, n->incl[s->ev], total);
			fputs("<BR/>(", out);
			dot_pct(out, n->self[s->ev], total);
			fputc(')', out);
		}
		if (n->calls > 0) {
			num_commify(n->calls, num);
			fprintf(out, "<BR/>%s\xc3\x97", num);
		}
		fputs(">, tooltip=\"", out);
		dot_quoted(out, fntotals_label(sel->t, n->row), 1);
		if (row->named && row->obj != 0) {
			fputs(" [", out);
			dot_quoted(out, profile_str(p, row->obj), 1);
			fputc(']', out);
		}
		fputs("\", fillcolor=\"", out);
		if (s->diff)
			dot_change_color(out, dot_change(n->incl[s->ev],
			    n->old_incl, total));
		else
			dot_color(out, w);
		fputs("\"];\n", out);
	}
	for (i = 0; i < s->nedges; i++) {
		e = &s->edges[i];
		num_commify(e->count, num);
		fprintf(out, "\t\"n%zu\" -> \"n%zu\" [label=\"", e->from,
		    e->to);
		if (!e->inner) {
			if (s->diff)
				dot_change_pct(out, e->cost[s->ev], e->old_cost,
				    total);
			else
				dot_pct(out, e->cost[s->ev], total);
			fputs("\\n", out);
		}
		fprintf(out, "%s\xc3\x97\"", num);
		if (e->inner) {
			fputs(", style=dashed, color=\"#808080\", "
			    "fontcolor=\"#808080\"];\n", out);
			continue;
		}
		w = s->diff ? fabs(dot_change(e->cost[s->ev], e->old_cost,
		    total)) * 10 : dot_weight(e->cost[s->ev], total);
		if (w > 1)
			w = 1;
		pw = w * 4 > 0.5 ? w * 4 : 0.5;
		fprintf(out, ", penwidth=%.2f, arrowsize=%.2f, color=\"", pw,
		    0.5 * sqrt(pw) + 0.3);
		for (k = 0; k < 2; k++) {
			if (s->diff)
				dot_change_color(out, dot_change(e->cost[s->ev],
				    e->old_cost, total));
			else
				dot_color(out, w);
			fputs(k == 0 ? "\", fontcolor=\"" : "\"];\n", out);
		}
	}
	fputs("}\n", out);
	return 0;
}

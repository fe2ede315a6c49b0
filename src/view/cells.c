/*
 * cells.c - the count columns of every table in the report: each shown
 * event right-aligned in a width fitted to the table, with a percentage
 * of the program total, "." where the event was never recorded.
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "base/cost.h"
#include "base/num.h"
#include "base/xmalloc.h"
#include "model/profile.h"
#include "select/select.h"
#include "view/cells.h"

#define PERC_WIDTH	9	/* " (12.34%)" */

/* A row's cells, gathered to be written at once. */
struct cellrow {
	char	buf[1024];
	size_t	len;
};

static unsigned	cells_numlen(uint64_t);
static void	cells_put(const struct cells *, struct cellrow *,
		    const char *, size_t, unsigned);
static void	cells_flush(const struct cells *, struct cellrow *);

/*
 * Add text (len bytes) right-aligned in width columns, then a space, to
 * row r: what fprintf("%*s ") prints, without a format to read for each
 * of the many cells of a large report, and one write a row, not a cell.
 */
static void
cells_put(const struct cells *c, struct cellrow *r, const char *text,
    size_t len, unsigned width)
{
	static const char spaces[32] = "                                ";
	size_t	pad = len < width ? width - len : 0;

	if (r->len + pad + len + 1 > sizeof(r->buf)) {
		cells_flush(c, r);
		if (pad + len + 1 > sizeof(r->buf)) {
			/* A cell wider than the buffer. */
			while (pad-- > 0)
				putc(' ', c->out);
			fwrite(text, 1, len, c->out);
			putc(' ', c->out);
			return;
		}
	}
	/* The usual padding is one store of 32 spaces. */
	if (pad <= sizeof(spaces) && r->len + sizeof(spaces) <= sizeof(r->buf))
		memcpy(r->buf + r->len, spaces, sizeof(spaces));
	else
		memset(r->buf + r->len, ' ', pad);
	memcpy(r->buf + r->len + pad, text, len);
	r->buf[r->len + pad + len] = ' ';
	r->len += pad + len + 1;
}

/* Write out the cells gathered in r. */
static void
cells_flush(const struct cells *c, struct cellrow *r)
{
	fwrite(r->buf, 1, r->len, c->out);
	r->len = 0;
}

/*
 * Set up the count columns of a report of sel printed to out: the shown
 * events, percentages of sel's base if asked for.
 */
void
cells_init(struct cells *c, FILE *out, const struct selection *sel)
{
	memset(c, 0, sizeof(*c));
	c->out = out;
	c->p = sel->p;
	c->nev = sel->nev;
	c->show = sel->show;
	c->nshow = sel->nshow;
	c->show_percs = sel->o->show_percs;
	c->total = sel->base;
	c->visible = sel->run->visible_names;
}

/* Return the number of decimal digits of v. */
static unsigned
cells_numlen(uint64_t v)
{
	unsigned	n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* Return column widths starting at the lengths of the event names. */
unsigned *
cells_widths_new(const struct cells *c)
{
	unsigned	*w, i;

	w = xreallocarray(NULL, c->nev, sizeof(*w));
	for (i = 0; i < c->nev; i++)
		w[i] = (unsigned)strlen(profile_str(c->p,
		    profile_event(c->p, i)));
	return w;
}

/* Widen the columns in w to fit cost v (all events, as the old tool). */
void
cells_widths_add(const struct cells *c, unsigned *w, const uint64_t *v)
{
	unsigned	i, len, width;

	for (i = 0; i < c->nev; i++) {
		if (v[i] == COST_NONE)
			continue;
		len = cells_numlen(v[i]);
		width = len + (len - 1) / 3;
		if (c->show_percs)
			width += PERC_WIDTH;
		if (width > w[i])
			w[i] = width;
	}
}

/* Print the shown event names, each padded to its column. */
void
cells_events(const struct cells *c, const unsigned *w)
{
	const char	*name;
	size_t		 i, len;

	for (i = 0; i < c->nshow; i++) {
		name = profile_str(c->p, profile_event(c->p, c->show[i]));
		len = strlen(name);
		cells_name(c, name);
		fprintf(c->out, "%*s ", len < w[c->show[i]] ?
		    (int)(w[c->show[i]] - len) : 0, "");
	}
}

/* Return the percentage x is of base, as callgrind_annotate computes. */
static double
cells_perc(double x, uint64_t base)
{
	if (base == COST_NONE || base == 0)
		return 0;
	return x * 100.0 / (double)base;
}

/*
 * Format a percentage as the old tool: " (%5.2f%%)", or one decimal if
 * wide.  The common case, 0 to 99.99, is written without printf when
 * perc * 100 is clearly not halfway between two hundredths: printf
 * rounds perc's exact value, and the product is within 1e-11 of it.
 */
size_t
cells_fmt_perc(char *buf, size_t size, double perc)
{
	double	t, f;
	long	r;
	size_t	n = 0;

	if (perc >= 0 && perc < 99.995 && size >= 10) {
		t = perc * 100.0;
		f = t - (double)(long)t;
		if (f < 0.5 - 1e-7 || f > 0.5 + 1e-7) {
			r = (long)t + (f > 0.5);
			buf[n++] = ' ';
			buf[n++] = '(';
			buf[n++] = r >= 1000 ? (char)('0' + r / 1000) : ' ';
			buf[n++] = (char)('0' + r / 100 % 10);
			buf[n++] = '.';
			buf[n++] = (char)('0' + r / 10 % 10);
			buf[n++] = (char)('0' + r % 10);
			buf[n++] = '%';
			buf[n++] = ')';
			buf[n] = '\0';
			return n;
		}
	}
	return (size_t)snprintf(buf, size, perc > -9.995 && perc < 99.995 ?
	    " (%5.2f%%)" : " (%5.1f%%)", perc);
}

/* Widen the columns in w to fit signed costs v (defined where def). */
void
cells_swidths_add(const struct cells *c, unsigned *w, const struct snum *v,
    const unsigned char *def)
{
	char		buf[32];
	unsigned	i, width;

	for (i = 0; i < c->nev; i++) {
		if (!def[i])
			continue;
		width = (unsigned)num_scommify(v[i], buf);
		if (c->show_percs)
			width += PERC_WIDTH;
		if (width > w[i])
			w[i] = width;
	}
}

/*
 * Print the shown signed counts of v ("." where not def) with their
 * percentages of the totals (which, in a difference, are the old ones).
 */
void
cells_scost(const struct cells *c, const struct snum *v,
    const unsigned char *def, const unsigned *w)
{
	struct cellrow	r;
	char		text[64];
	size_t		i, len;
	int		e;

	r.len = 0;
	for (i = 0; i < c->nshow; i++) {
		e = c->show[i];
		if (!def[e]) {
			text[0] = '.';
			text[1] = '\0';
			len = 1;
		} else
			len = num_scommify(v[e], text);
		if (c->show_percs) {
			if (def[e] && v[e].mag != 0)
				len += cells_fmt_perc(text + len,
				    sizeof(text) - len,
				    cells_perc(num_sdouble(v[e]), c->total[e]));
			else {
				memset(text + len, ' ', PERC_WIDTH);
				len += PERC_WIDTH;
				text[len] = '\0';
			}
		}
		cells_put(c, &r, text, len, w[e]);
	}
	cells_flush(c, &r);
}

/* Print the shown counts of v with percentages, right-aligned. */
void
cells_cost(const struct cells *c, const uint64_t *v, const unsigned *w)
{
	struct cellrow	 r;
	char		 text[64];
	size_t		 i, len;
	uint64_t	 x, base;
	double		 perc;
	int		 e;

	r.len = 0;
	for (i = 0; i < c->nshow; i++) {
		e = c->show[i];
		x = v != NULL ? v[e] : COST_NONE;
		if (x == COST_NONE) {
			text[0] = '.';
			text[1] = '\0';
			len = 1;
		} else
			len = num_commify(x, text);
		if (c->show_percs) {
			if (x != COST_NONE && x != 0) {
				base = c->total[e];
				if (base == COST_NONE || base == 0)
					perc = 0;
				else if (x <= UINT64_MAX / 100)
					perc = (double)(x * 100) /
					    (double)base;
				else
					perc = (double)x * 100.0 /
					    (double)base;
				len += cells_fmt_perc(text + len,
				    sizeof(text) - len, perc);
			} else {
				memset(text + len, ' ', PERC_WIDTH);
				len += PERC_WIDTH;
				text[len] = '\0';
			}
		}
		cells_put(c, &r, text, len, w[e]);
	}
	cells_flush(c, &r);
}

/*
 * Print a name taken from the profile: verbatim, or on a terminal with
 * control characters (and other bytes a terminal could act on) made
 * visible as C escapes (tvis.c), so that a profile cannot drive the
 * terminal.
 */
void
cells_name(const struct cells *c, const char *s)
{
	cells_namelen(c, s, strlen(s));
}

/* Print s, of len bytes (no NUL among them), as cells_name() does. */
void
cells_namelen(const struct cells *c, const char *s, size_t len)
{
	tvis_write(c->out, s, len, 0, c->visible, TVIS_NAME);
}

/*
 * Print the label "file:name" (string ids of c's profile; a group's
 * name alone) as
 * cells_name() prints it whole, without making it (no escape depends
 * on the characters around it but a NUL's, and a name holds none).
 */
void
cells_label(const struct cells *c, uint32_t file, uint32_t name)
{
	/* A group's label is its name. */
	if (profile_rows(c->p) != PROFILE_ROWS_FUNCTIONS) {
		cells_namelen(c, profile_str(c->p, name),
		    profile_strlen(c->p, name));
		return;
	}
	cells_namelen(c, profile_str(c->p, file), profile_strlen(c->p, file));
	fputc(':', c->out);
	cells_namelen(c, profile_str(c->p, name), profile_strlen(c->p, name));
}

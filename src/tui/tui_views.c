/*
 * tui_views.c - the browser's views, each a list of lines the cursor
 * moves over: the function list (the text report's rows, made when
 * shown), a function with its callers and callees, its annotated source,
 * its machine code, and the help.
 */
#include "base/compat.h"

#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/callgraph.h"
#include "analysis/fntotals.h"
#include "base/cost.h"
#include "base/xmalloc.h"
#include "model/profile.h"
#include "select/asmsel.h"
#include "select/select.h"
#include "select/srcsel.h"
#include "tui/tui_impl.h"
#include "view/cells.h"

static struct tview *tui_view_new(enum tkind, const char *);
static void	tui_end(struct tview *, int, uint32_t, int);
static void	tui_text(struct tview *, const char *, int, uint32_t, int);
static int	tui_heat(const struct selection *, const uint64_t *);
static uint32_t	tui_row(const struct selection *, const char *);
static uint32_t	*tui_func_rows(const struct selection *, uint32_t *,
		    size_t *);
static void	tui_name(const struct cells *, const struct selection *,
		    uint32_t, const char *, long);
static void	tui_title(struct tview *, const char *, const char *);
static void	tui_view_title(struct tview *, struct cells *,
		    const struct selection *, uint32_t, const char *,
		    const char *);

/*
 * Return a new view of kind (of the function label, or NULL), its lines
 * written to one memory stream as they are made.
 */
static struct tview *
tui_view_new(enum tkind kind, const char *label)
{
	struct tview	*v = xcalloc(1, sizeof(*v));

	v->kind = kind;
	v->label = label != NULL ? xstrdup(label) : NULL;
	if ((v->out = open_memstream(&v->store, &v->storelen)) == NULL)
		err(1, "open_memstream");
	return v;
}

/* End the line written to v's stream since the last one. */
static void
tui_end(struct tview *v, int pick, uint32_t go, int hot)
{
	struct tline	*l;

	fputc('\0', v->out);
	v->lines = xgrow(v->lines, &v->cap, v->n + 1, sizeof(*v->lines));
	l = &v->lines[v->n++];
	l->text = NULL;
	l->off = v->start;
	l->pick = pick;
	l->go = go;
	l->hot = hot;
	l->mark = 0;
	l->lazy = 0;
	v->start = (size_t)ftello(v->out);
}

/* Append the line text to view v. */
static void
tui_text(struct tview *v, const char *text, int pick, uint32_t go, int hot)
{
	fputs(text, v->out);
	tui_end(v, pick, go, hot);
}

/* Close v's stream and point its lines at their text; return v. */
struct tview *
tui_done(struct tview *v)
{
	size_t	i;

	if (v == NULL || v->out == NULL)
		return v;
	if (fclose(v->out) != 0)
		err(1, "open_memstream");
	v->out = NULL;
	for (i = 0; i < v->n; i++)
		if (!v->lines[i].lazy)
			v->lines[i].text = v->store + v->lines[i].off;
	return v;
}

/*
 * Write row's name (label if no row, or a row of a group) first, as the
 * narrowest terminal shows it, then its file and (a function's own row)
 * its object: the object's whole path if room is below 0 (a view's
 * title), else its file name; with room above 0, the file is shortened
 * from the left ("...") for the three to fit in room columns if it can.
 */
static void
tui_name(const struct cells *c, const struct selection *sel, uint32_t r,
    const char *label, long room)
{
	const struct fnrow	*row;
	const char		*obj = NULL, *base, *name, *file;
	long			 keep;

	if (r == CG_NONE || r == NONE ||
	    profile_rows(sel->p) != PROFILE_ROWS_FUNCTIONS) {
		cells_name(c, label);
		return;
	}
	row = &sel->t->rows[r];
	name = profile_str(sel->p, row->name);
	file = profile_str(sel->p, row->file);
	/* Code inlined from another file has no object of its own. */
	if (row->named && row->obj != 0) {
		obj = profile_str(sel->p, row->obj);
		if (room >= 0 && (base = strrchr(obj, '/')) != NULL &&
		    base[1] != '\0')
			obj = base + 1;
	}
	cells_name(c, name);
	fputs("  ", c->out);
	keep = room - (long)strlen(name) - 2 - (obj != NULL ?
	    (long)strlen(obj) + 3 : 0);
	if (room > 0 && (long)strlen(file) > keep && keep >= 12) {
		/* The end of the path says most: its file name. */
		file += strlen(file) - (size_t)(keep - 3);
		while (((unsigned char)*file & 0xc0) == 0x80)
			file++;
		fputs("...", c->out);
	}
	cells_name(c, file);
	if (obj != NULL) {
		fputs(" [", c->out);
		cells_name(c, obj);
		fputc(']', c->out);
	}
}

/* Set v's title: what, then text (NULL: none). */
static void
tui_title(struct tview *v, const char *what, const char *text)
{
	free(v->title);
	v->title = text != NULL ? xjoin(what, strlen(what), ' ', text,
	    strlen(text)) : xstrdup(what);
}

/*
 * Set v's title to what, then row r's name, file and object (label if
 * no row) as tui_name() writes them whole, through c.
 */
static void
tui_view_title(struct tview *v, struct cells *c, const struct selection *sel,
    uint32_t r, const char *label, const char *what)
{
	FILE	*keep = c->out, *f;
	char	*buf = NULL;
	size_t	 len = 0;

	if ((f = open_memstream(&buf, &len)) == NULL)
		err(1, "open_memstream");
	c->out = f;
	fprintf(f, "%s ", what);
	tui_name(c, sel, r, label, -1);
	if (fclose(f) != 0)
		err(1, "open_memstream");
	c->out = keep;
	free(v->title);
	v->title = buf;
}

/* Return how hot cost c is: 2 at 10% of the total and up, 1 at 1%. */
static int
tui_heat(const struct selection *sel, const uint64_t *c)
{
	uint64_t	v, tot;
	int		e = sel->sort[0];

	if (c == NULL || (v = c[e]) == COST_NONE || v == 0)
		return 0;
	tot = sel->base[e];
	if (tot == COST_NONE || tot == 0)
		return 0;
	if ((double)v * 10 >= (double)tot)
		return 2;
	return (double)v * 100 >= (double)tot;
}

/*
 * End a call line, its counts and name written: the call's count, and
 * the row it leads to.
 */
static void
tui_call_end(struct tview *v, const struct selection *sel,
    const uint64_t *cost, uint64_t count, uint32_t row)
{
	char	cnt[32];

	num_commify(count, cnt);
	fprintf(v->out, " (%sx)", cnt);
	tui_end(v, 1, row, tui_heat(sel, cost));
}

/*
 * Mark the line just ended as one with counts, cost, and keep in *hot
 * the line with the most of the first sort event so far (*best).
 */
static void
tui_mark(struct tview *v, const struct selection *sel, const uint64_t *cost,
    size_t *hot, uint64_t *best)
{
	uint64_t	c = cost[sel->sort[0]];

	v->lines[v->n - 1].mark = 1;
	if (c != COST_NONE && (*hot == SIZE_MAX || c > *best)) {
		*best = c;
		*hot = v->n - 1;
	}
}

/* The function list: the text report's rows. */
struct tview *
tui_view_list(struct tui *t)
{
	struct selection	*sel = t->sel;
	struct tview		*v = tui_view_new(TV_LIST, NULL);
	size_t			 i;

	v->sel = sel;
	v->width = t->key.width;
	tui_title(v, profile_rows(sel->p) == PROFILE_ROWS_OBJECTS ?
	    "Objects" : profile_rows(sel->p) == PROFILE_ROWS_FILES ? "Files" :
	    "Functions", sel->o->inclusive ? "by inclusive cost" :
	    "by self cost");
	cells_init(&v->cells, v->out, sel);
	v->w = cells_widths_new(&v->cells);
	for (i = 0; i < sel->nents; i++)
		cells_widths_add(&v->cells, v->w, sel->ents[i].cost);
	cells_events(&v->cells, v->w);
	fprintf(v->out, " %s", profile_rows(sel->p) == PROFILE_ROWS_FUNCTIONS ?
	    "function  file [object]" : select_rowname(sel));
	tui_end(v, 0, NONE, 0);
	/* A row's text is made when it is first shown or searched. */
	for (i = 0; i < sel->nents; i++) {
		tui_end(v, 1, sel->ents[i].row, tui_heat(sel,
		    sel->ents[i].cost));
		v->lines[v->n - 1].lazy = 1;
	}
	if (sel->nents == 0)
		tui_text(v, "  (no function above the threshold)", 0, NONE, 0);
	v->cur = 1;
	return v;
}

/* Return the text of line i of view v, making a list row's now. */
const char *
tui_text_at(struct tview *v, size_t i)
{
	const struct selection	*sel = v->sel;
	const struct selentry	*en;
	struct tline		*l = &v->lines[i];
	char			*buf = NULL;
	size_t			 len = 0;
	FILE			*f;

	if (l->text != NULL)
		return l->text;
	en = &sel->ents[i - 1];
	if ((f = open_memstream(&buf, &len)) == NULL)
		err(1, "open_memstream");
	v->cells.out = f;
	cells_cost(&v->cells, en->cost, v->w);
	fputs("  ", f);
	tui_name(&v->cells, sel, en->row, select_label(sel, en),
	    (long)v->width - (long)ftello(f));
	if (fclose(f) != 0)
		err(1, "open_memstream");
	v->cells.out = NULL;
	return l->text = buf;
}

/* Return the row labelled label in sel, or NONE. */
static uint32_t
tui_row(const struct selection *sel, const char *label)
{
	uint32_t	r;

	for (r = 0; r < sel->t->nrows; r++)
		if (strcmp(fntotals_label(sel->t, r), label) == 0)
			return r;
	return NONE;
}

/* A function: its costs, its callers and callees (Enter goes there). */
struct tview *
tui_view_func(struct tui *t, const char *label)
{
	struct selection	*sel = t->sel;
	struct tview		*v = tui_view_new(TV_FUNC, label);
	struct selentry		 en;
	struct selcall		*calls[2];
	uint64_t		*costs[2], *self, *incl, *alt;
	struct cells		 c;
	unsigned		*w, nev = (unsigned)sel->nev;
	size_t			 n[2], i, k, nr;
	uint32_t		 r, *rows;
	FILE			*f = v->out;

	tui_title(v, "Function:", label);
	if ((r = tui_row(sel, label)) == NONE) {
		tui_text(v, "  (not in this view of the profile)", 0,
		    NONE, 0);
		return v;
	}
	rows = tui_func_rows(sel, &r, &nr);
	self = xcalloc(3, nev * sizeof(*self));
	incl = self + nev;
	alt = incl + nev;
	cost_clear(self, nev);
	for (i = 0; i < nr; i++)
		cost_add(self, sel->t->rows[rows[i]].cost, nev);
	if (nr == 1) {
		en.row = r;
		en.cycle = CG_NONE;
		en.cost = sel->t->rows[r].cost;
		n[0] = select_calls(sel, &en, 1, &calls[0], &costs[0]);
		n[1] = select_calls(sel, &en, 0, &calls[1], &costs[1]);
	} else
		for (k = 0; k < 2; k++)
			n[k] = select_calls_rows(sel, rows, nr, k == 0,
			    &calls[k], &costs[k]);
	memcpy(incl, sel->g->incl + (size_t)r * nev, nev * sizeof(*incl));
	if (nr > 1 && (n[0] == 0 || sel->g->cycle[r] != CG_NONE)) {
		/*
		 * Called by nothing, or in a cycle: the function's inclusive
		 * cost holds its inlined code's self cost and calls too.
		 */
		memcpy(alt, self, nev * sizeof(*alt));
		for (i = 0; i < n[1]; i++)
			if (sel->g->cycle[r] == CG_NONE ||
			    sel->g->cycle[calls[1][i].row] != sel->g->cycle[r])
				cost_add(alt, calls[1][i].cost, nev);
		cost_max(incl, alt, nev);
	}
	cells_init(&c, f, sel);
	w = cells_widths_new(&c);
	cells_widths_add(&c, w, self);
	cells_widths_add(&c, w, incl);
	for (k = 0; k < 2; k++)
		for (i = 0; i < n[k]; i++)
			cells_widths_add(&c, w, calls[k][i].cost);
	tui_view_title(v, &c, sel, r, label, "Function:");
	cells_events(&c, w);
	tui_end(v, 0, NONE, 0);
	for (k = 0; k < 2; k++) {
		cells_cost(&c, k == 0 ? self : incl, w);
		fputs(k == 0 ? "  self" : "  inclusive", f);
		tui_end(v, 0, NONE, 0);
	}
	if (nr > 1) {
		/* Its rows: its own file's, and code inlined from others. */
		tui_text(v, "", 0, NONE, 0);
		tui_text(v, "Rows (self, code inlined from other files too):",
		    0, NONE, 0);
		for (i = 0; i < nr; i++) {
			cells_cost(&c, sel->t->rows[rows[i]].cost, w);
			fputs("  = ", f);
			tui_name(&c, sel, rows[i], fntotals_label(sel->t,
			    rows[i]), 0);
			tui_end(v, 0, NONE, tui_heat(sel,
			    sel->t->rows[rows[i]].cost));
		}
	}
	for (k = 0; k < 2; k++) {
		tui_text(v, "", 0, NONE, 0);
		tui_text(v, k == 0 ? "Callers:" : "Callees:", 0,
		    NONE, 0);
		if (n[k] == 0)
			tui_text(v, "  (none)", 0, NONE, 0);
		for (i = 0; i < n[k]; i++) {
			cells_cost(&c, calls[k][i].cost, w);
			fputs(k == 0 ? "  < " : "  > ", f);
			tui_name(&c, sel, calls[k][i].row,
			    fntotals_label(sel->t, calls[k][i].row), 0);
			tui_call_end(v, sel, calls[k][i].cost,
			    calls[k][i].count, calls[k][i].row);
		}
		free(calls[k]);
		free(costs[k]);
	}
	free(w);
	free(self);
	free(rows);
	for (v->cur = 0; v->cur < v->n && !v->lines[v->cur].pick; v->cur++)
		continue;
	if (v->cur == v->n)
		v->cur = 0;
	return v;
}

/*
 * Return the rows of the function of row *r (to free), *r made its own
 * row, first: a function is its own file's row and those of the code
 * inlined into it from other files (a group's row is itself).
 */
static uint32_t *
tui_func_rows(const struct selection *sel, uint32_t *r, size_t *nr)
{
	uint32_t	*owner, *rows, v;

	rows = xreallocarray(NULL, sel->t->nrows + 1, sizeof(*rows));
	*nr = 0;
	if (profile_rows(sel->p) != PROFILE_ROWS_FUNCTIONS) {
		rows[(*nr)++] = *r;
		return rows;
	}
	owner = fntotals_owners(sel->t);
	*r = owner[*r];
	rows[(*nr)++] = *r;
	for (v = 0; v < sel->t->nrows; v++)
		if (owner[v] == *r && v != *r)
			rows[(*nr)++] = v;
	free(owner);
	return rows;
}

/* The annotated source of a function's file, at its hottest line. */
struct tview *
tui_view_source(struct tui *t, const char *label)
{
	struct selection	*sel = t->sel;
	struct tview		*v = tui_view_new(TV_SOURCE, label);
	struct srcsel		*s;
	const struct annfile	*af;
	struct srcreader	*rd;
	struct cells		 c;
	unsigned		*w;
	uint32_t		 r, file;
	uint64_t		 ln = 0, best = 0;
	size_t			 i = 0, ci = 0, k, hot = SIZE_MAX;
	FILE			*f = v->out;

	tui_title(v, "Source of", label);
	if ((r = tui_row(sel, label)) == NONE) {
		tui_text(v, "  (not in this view of the profile)", 0,
		    NONE, 0);
		return v;
	}
	file = sel->t->rows[r].file;
	s = select_source_of(sel, file);
	af = s->nfiles > 0 ? &s->files[0] : NULL;
	if (af == NULL || af->found != SRCFILE_OK) {
		fprintf(f, "  %s: not found (-I DIR looks under DIR)",
		    profile_str(sel->p, file));
		tui_end(v, 0, NONE, 0);
		srcsel_free(s);
		return v;
	}
	cells_init(&c, f, sel);
	w = cells_widths_new(&c);
	for (k = 0; k < af->nlines; k++)
		cells_widths_add(&c, w, af->lines[k].cost);
	for (k = 0; k < af->ncalls; k++)
		cells_widths_add(&c, w, af->calls[k].cost);
	tui_title(v, "Source:", af->display);
	cells_events(&c, w);
	tui_end(v, 0, NONE, 0);
	rd = srcfile_reader(&af->src);
	while (srcfile_more(rd)) {
		ln++;
		while (i < af->nlines && af->lines[i].line < ln)
			i++;
		cells_cost(&c, i < af->nlines && af->lines[i].line == ln ?
		    af->lines[i].cost : NULL, w);
		fprintf(f, " %5llu ", (unsigned long long)ln);
		srcfile_line(rd, f);
		/* srcfile_line() ends the line: write over the newline. */
		fflush(f);
		if (v->storelen > v->start && v->store[v->storelen - 1] == '\n')
			fseeko(f, -1, SEEK_CUR);
		tui_end(v, 1, NONE,
		    i < af->nlines && af->lines[i].line == ln ?
		    tui_heat(sel, af->lines[i].cost) : 0);
		if (i < af->nlines && af->lines[i].line == ln)
			tui_mark(v, sel, af->lines[i].cost, &hot, &best);
		while (ci < af->ncalls && af->calls[ci].line < ln)
			ci++;
		for (; ci < af->ncalls && af->calls[ci].line == ln; ci++) {
			cells_cost(&c, af->calls[ci].cost, w);
			fputs(" => ", f);
			tui_name(&c, sel, af->calls[ci].callee,
			    fntotals_label(sel->t, af->calls[ci].callee), 0);
			tui_call_end(v, sel, af->calls[ci].cost,
			    af->calls[ci].count, af->calls[ci].callee);
		}
	}
	srcfile_reader_close(rd);
	free(w);
	srcsel_free(s);
	v->cur = hot != SIZE_MAX ? hot : 1 < v->n ? 1 : 0;
	v->center = 1;
	return v;
}

/* The machine code of a function (--asm=yes). */
struct tview *
tui_view_asm(struct tui *t, const char *label)
{
	struct selection	*sel = t->sel;
	struct tview		*v = tui_view_new(TV_ASM, label);
	struct asmsel		*s;
	const struct asmfunc	*af;
	const struct asmrow	*ar;
	struct asmrows		*rows;
	struct cells		 c;
	unsigned		*w;
	size_t			*rank, i, k, m, hot = SIZE_MAX;
	uint32_t		 r, obj, file, name, mf = NONE;
	uint64_t		 ml = 0, best = 0;
	char			 cnt[32], cnt2[32];
	const char		*text;
	FILE			*f = v->out;

	tui_title(v, "Machine code:", label);
	/* Folded or derived: the function's machine code made now. */
	if (sel->p != t->p && (r = tui_row(sel, label)) != NONE)
		tui_level_asm(t, sel->p, sel->t->rows[r].name);
	if (profile_instrs(sel->p) == NULL) {
		tui_text(v, (t->base->asm_annotate ?
		    "  No machine code: make the profile with valgrind "
		    "--tool=callgrind --dump-instr=yes" :
		    "  Machine code needs --asm=yes (and a profile made with "
		    "--dump-instr=yes)"), 0, NONE, 0);
		return v;
	}
	if ((r = tui_row(sel, label)) == NONE) {
		tui_text(v, "  (not in this view of the profile)", 0,
		    NONE, 0);
		return v;
	}
	/* Code inlined from a header: its function's machine code. */
	free(tui_func_rows(sel, &r, &k));
	rank = xreallocarray(NULL, sel->t->nrows + 1, sizeof(*rank));
	for (i = 0; i < sel->t->nrows; i++)
		rank[i] = i == r ? 0 : SIZE_MAX;
	s = select_asm_of(sel, rank);
	free(rank);
	cells_init(&c, f, sel);
	tui_view_title(v, &c, sel, r, label, "Machine code:");
	w = cells_widths_new(&c);
	rows = xcalloc(s->nfuncs + 1, sizeof(*rows));
	for (k = 0; k < s->nfuncs; k++) {
		asmsel_rows(s, &s->funcs[k], &rows[k]);
		for (i = 0; i < rows[k].n; i++)
			if (rows[k].row[i].cost != NULL)
				cells_widths_add(&c, w, rows[k].row[i].cost);
	}
	if (s->nfuncs == 0)
		tui_text(v, "  (no instruction of it in the profile)",
		    0, NONE, 0);
	for (k = 0; k < s->nfuncs; k++) {
		af = &s->funcs[k];
		profile_func(sel->p, af->fn, &obj, &file, &name);
		fputs("Machine code: ", f);
		cells_label(&c, file, name);
		fputs(" [", f);
		cells_name(&c, profile_str(sel->p, obj));
		fprintf(f, "]%s", s->objs[af->obj].found == OBJDUMP_OK ? "" :
		    " (object not read)");
		tui_end(v, 0, NONE, 0);
		cells_events(&c, w);
		tui_end(v, 0, NONE, 0);
		for (i = 0; i < rows[k].n; i++) {
			ar = &rows[k].row[i];
			if (ar->file != NONE && (ar->file != mf ||
			    ar->line != ml)) {
				fputs("-- ", f);
				cells_name(&c, profile_str(sel->p, ar->file));
				fprintf(f, ":%llu --", (unsigned long long)ar->line);
				tui_end(v, 0, NONE,
				    0);
				mf = ar->file;
				ml = ar->line;
			}
			cells_cost(&c, ar->cost, w);
			fprintf(f, "  0x%llx  ", (unsigned long long)ar->addr);
			text = asmsel_text(s, af, &rows[k], i);
			cells_name(&c, text != NULL ? text :
			    "(not in objdump's listing)");
			for (m = 0; m < ar->njumps; m++) {
				const struct asmjump *j = &af->jumps[ar->jump0 +
				    m];

				num_commify(j->taken, cnt);
				num_commify(j->executed, cnt2);
				if (j->cond)
					fprintf(f, "%s jcnd %s/%s -> 0x%llx",
					    m == 0 ? "  #" : ",", cnt, cnt2,
					    (unsigned long long)j->target);
				else
					fprintf(f, "%s jump %s -> 0x%llx",
					    m == 0 ? "  #" : ",", cnt,
					    (unsigned long long)j->target);
			}
			tui_end(v, 1, NONE,
			    tui_heat(sel, ar->cost));
			if (ar->cost != NULL)
				tui_mark(v, sel, ar->cost, &hot, &best);
			for (m = 0; m < ar->ncalls; m++) {
				const struct asmcall *ac = &af->calls[ar->call0 +
				    m];
				uint32_t	 o2, f2, n2, r2;

				profile_func(sel->p, ac->callee, &o2, &f2, &n2);
				cells_cost(&c, ac->cost, w);
				fputs(" => ", f);
				r2 = fntotals_row_find(sel->t, f2, n2);
				if (r2 != UINT32_MAX)
					tui_name(&c, sel, r2,
					    fntotals_label(sel->t, r2), 0);
				else
					cells_label(&c, f2, n2);
				tui_call_end(v, sel, ac->cost, ac->count, r2);
			}
		}
		tui_text(v, "", 0, NONE, 0);
	}
	free(w);
	for (k = 0; k < s->nfuncs; k++)
		asmsel_rows_free(&rows[k]);
	free(rows);
	asmsel_free(s);
	v->cur = hot != SIZE_MAX ? hot : 0;
	v->center = 1;
	return v;
}

/* The help screen: every key. */
struct tview *
tui_view_help(void)
{
	static const char *const text[] = {
		"Keys",
		"",
		"  Up, Down, k, j     move the cursor a line",
		"  PgUp, PgDn, Space  move it a page",
		"  Home, End, g, G    to the first or the last line",
		"  Enter              the function under the cursor, whole (the",
		"                     code inlined into it too): its costs,",
		"                     callers and callees; on a caller, callee or",
		"                     call row, that function",
		"  Left, Backspace, h back to the view before",
		"  Right, l           forward again",
		"  s                  the function's annotated source, at its",
		"                     hottest line",
		"  a                  its machine code (--asm=yes)",
		"  n, N               the next, previous line with cost (source,",
		"                     machine code) or search match (elsewhere)",
		"  /                  search by regular expression",
		"  e                  a menu of the events to sort by (derived",
		"                     too): Enter picks, Esc closes",
		"  i                  self or inclusive costs",
		"  f                  folding: none, recursion, contexts, all",
		"  t                  the threshold (percent, 100: every row)",
		"  ?                  this help",
		"",
		"A function is written name, file, [object]; the list shows",
		"as many event columns as the terminal's width allows (--show",
		"chooses them), the cursor's line in the middle after a jump.",
		"  q                  back, or quit from the function list",
		"",
		"Heat: red rows hold 10% of the total or more, yellow 1%.",
		"NO_COLOR set in the environment turns colours off.",
	};
	struct tview	*v = tui_view_new(TV_HELP, NULL);
	size_t		 i;

	tui_title(v, "Help", NULL);
	for (i = 0; i < sizeof(text) / sizeof(text[0]); i++)
		tui_text(v, text[i], 0, NONE, 0);
	return v;
}

/*
 * The events to sort by, as a menu over the view: the recorded ones, then
 * the derived ones offered, the cursor on the one sorted by now.
 */
struct tview *
tui_view_menu(const struct tui *t)
{
	struct tview	*v = tui_view_new(TV_MENU, NULL);
	size_t		 i;

	tui_title(v, "Sort by:", "Up, Down and Enter pick, Esc closes");
	for (i = 0; i < t->nevents; i++) {
		fprintf(v->out, "  %s %s", (int)i == t->key.ev ? "*" : " ",
		    t->events[i]);
		tui_end(v, 1, (uint32_t)i, 0);
	}
	v->cur = (size_t)t->key.ev;
	v->center = 1;
	return v;
}

/* Free a view. */
void
tui_view_free(struct tview *v)
{
	size_t	i;

	if (v == NULL)
		return;
	if (v->out != NULL)
		fclose(v->out);
	for (i = 0; i < v->n; i++)
		if (v->lines[i].lazy)
			free(v->lines[i].text);
	free(v->w);
	free(v->title);
	free(v->store);
	free(v->lines);
	free(v->label);
	free(v);
}

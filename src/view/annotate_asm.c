/*
 * annotate_asm.c - annotated machine code (--asm=yes), after the
 * annotated sources: for each function chosen by asmsel.c, a header
 * naming it and its object, then its instructions in address order,
 * each with its costs (the shown events, "." where none), address and
 * objdump's text, the source line it comes from whenever that changes,
 * its jumps ("# jcnd TAKEN/EXECUTED -> TARGET") and the calls made from
 * it (" => file:callee (Nx)"); runs of instructions without cost
 * further than --context from a costly one are one "..." row.  Then the
 * objects that could not be read.
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "base/cost.h"
#include "base/num.h"
#include "base/xmalloc.h"
#include "model/profile.h"
#include "select/asmsel.h"
#include "select/select.h"
#include "view/cells.h"
#include "view/header.h"
#include "view/report.h"

#define ATS	"@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n"
#define WARNBAR	"@@ WARNING @@ WARNING @@ WARNING @@ WARNING @@ WARNING @@ WARNING @@ WARNING @@\n"

static void	asm_function(const struct cells *, const struct selection *,
		    const struct asmfunc *, unsigned char *);
static void	asm_row(const struct cells *, const struct selection *,
		    const char *, const struct asmfunc *,
		    const struct asmrow *, const unsigned *, int);
static void	asm_unread(const struct cells *, const struct asmsel *);
static const char *asm_why(enum objdump_result);
static int	asm_shown(const struct asmrow *);

/* Say why an object could not be read. */
static const char *
asm_why(enum objdump_result r)
{
	switch (r) {
	case OBJDUMP_MISSING:
		return "not found";
	case OBJDUMP_UNREADABLE:
		return "cannot be opened";
	case OBJDUMP_NOT_REGULAR:
		return "not a regular file";
	case OBJDUMP_NOT_ELF:
		return "not an ELF object";
	default:
		return "not disassembled";
	}
}

/*
 * Return nonzero if row r is always shown: it has a cost, calls or
 * jumps, or the listing lacks it; the others are context around those.
 */
static int
asm_shown(const struct asmrow *r)
{
	return r->cost != NULL || r->j == ASM_UNLISTED || r->ncalls > 0 ||
	    r->njumps > 0;
}

/* Print one instruction (objdump's text, or NULL), its jumps, its calls. */
static void
asm_row(const struct cells *c, const struct selection *sel, const char *text,
    const struct asmfunc *f, const struct asmrow *r, const unsigned *w,
    int aw)
{
	const struct profile	*p = sel->p;
	const struct asmjump	*j;
	const struct asmcall	*k;
	char			 a[64], b[32];
	uint32_t		 obj, file, name;
	size_t			 i, n;

	cells_cost(c, r->cost, w);
	/* "  %*s  " of the address, without printf: a row per instruction. */
	n = num_hex(r->addr, b);
	memset(a, ' ', sizeof(a));
	i = n < (size_t)aw ? (size_t)aw - n : 0;
	memcpy(a + 2 + i, b, n);
	fwrite(a, 1, 2 + i + n + 2, c->out);
	if (text != NULL)
		cells_name(c, text);
	else
		fputs(f->unread != ASM_READ ? "(not read)" :
		    sel->asm_->objs[f->obj].found == OBJDUMP_OK ?
		    "(not in objdump's listing)" : "(object not read)", c->out);
	for (i = 0; i < r->njumps; i++) {
		j = &f->jumps[r->jump0 + i];
		fputs(i == 0 ? "  # " : ", ", c->out);
		num_commify(j->taken, a);
		if (j->cond) {
			num_commify(j->executed, b);
			fprintf(c->out, "jcnd %s/%s", a, b);
		} else
			fprintf(c->out, "jump %s", a);
		num_hex(j->target, a);
		fprintf(c->out, " -> %s", a);
	}
	fputc('\n', c->out);
	for (i = 0; i < r->ncalls; i++) {
		k = &f->calls[r->call0 + i];
		cells_cost(c, k->cost, w);
		profile_func(p, k->callee, &obj, &file, &name);
		fputs(" => ", c->out);
		cells_label(c, file, name);
		num_commify(k->count, a);
		fprintf(c->out, " (%sx)\n", a);
	}
}

/*
 * Print the listing of one function; the box about a newer object is
 * printed once for each object (warned[] says which were).
 */
static void
asm_function(const struct cells *c, const struct selection *sel,
    const struct asmfunc *f, unsigned char *warned)
{
	const struct asmsel	*s = sel->asm_;
	const struct asmobj	*ob = &s->objs[f->obj];
	const struct profile	*p = sel->p;
	const struct asmrow	*r;
	struct asmrows		 rows;
	FILE			*out = c->out;
	unsigned		*w;
	uint32_t		 obj, file, name, mfile = UINT32_MAX;
	uint64_t		 mline = 0;
	size_t			 i, k, ctx = (size_t)sel->o->context, near;
	unsigned char		*keep;
	char			 a[32], lim[32];
	int			 aw = 0, n, gap = 0;

	profile_func(p, f->fn, &obj, &file, &name);
	fputs(FANCY "-- Machine code: ", out);
	cells_label(c, file, name);
	fputs(" [", out);
	cells_name(c, profile_str(p, obj));
	fputs("]\n" FANCY, out);
	if (ob->newer && !warned[f->obj]) {
		warned[f->obj] = 1;
		fputs(ATS WARNBAR ATS "@ Object '", out);
		cells_name(c, ob->path);
		fprintf(out, "' is more recent than input file '%s'.\n"
		    "@ Annotations may not be correct.\n" ATS "\n",
		    sel->run->profile_name);
	}
	if (!s->have_jumps)
		fputs("(jumps not recorded: callgrind --collect-jumps=yes "
		    "records them)\n", out);
	if (f->unread == ASM_SPAN) {
		num_commify(f->hi - f->lo + 1, a);
		num_commify(ASM_MAX_SPAN, lim);
		fprintf(out, "(machine code not read: the profile's "
		    "instructions of this function span %s bytes, above the "
		    "limit of %s)\n", a, lim);
	} else if (f->unread == ASM_ROWS) {
		num_commify(ASM_MAX_ROWS, lim);
		fprintf(out, "(machine code not read: %s instructions listed "
		    "before it, the limit)\n", lim);
	}
	/* Its rows, made now and freed once printed. */
	asmsel_rows(s, f, &rows);
	w = cells_widths_new(c);
	cells_widths_add(c, w, f->self);
	for (i = 0; i < rows.n; i++) {
		if (rows.row[i].cost != NULL)
			cells_widths_add(c, w, rows.row[i].cost);
		for (k = 0; k < rows.row[i].ncalls; k++)
			cells_widths_add(c, w, f->calls[rows.row[i].call0 +
			    k].cost);
		n = (int)num_hex(rows.row[i].addr, a);
		if (n > aw)
			aw = n;
	}
	cells_events(c, w);
	fputs("\n\n", out);

	/* The rows kept: those with cost, and ctx rows around them. */
	keep = xcalloc(rows.n + 1, 1);
	for (i = 0, near = SIZE_MAX; i < rows.n; i++)
		if (asm_shown(&rows.row[i]))
			near = i;
		else if (near != SIZE_MAX && i - near <= ctx)
			keep[i] = 1;
	for (i = rows.n, near = SIZE_MAX; i-- > 0; )
		if (asm_shown(&rows.row[i])) {
			near = i;
			keep[i] = 1;
		} else if (near != SIZE_MAX && near - i <= ctx)
			keep[i] = 1;
	for (i = 0; i < rows.n; i++) {
		r = &rows.row[i];
		if (!keep[i]) {
			if (!gap) {
				cells_cost(c, NULL, w);
				fprintf(out, "  %*s\n", aw, "...");
			}
			gap = 1;
			continue;
		}
		gap = 0;
		if (r->file != UINT32_MAX && (r->file != mfile ||
		    r->line != mline)) {
			fputs("-- ", out);
			cells_name(c, profile_str(p, r->file));
			fprintf(out, ":%llu --\n", (unsigned long long)r->line);
			mfile = r->file;
			mline = r->line;
		}
		asm_row(c, sel, asmsel_text(sel->asm_, f, &rows, i), f, r, w,
		    aw);
	}
	fputc('\n', out);
	cells_cost(c, f->self, w);
	fprintf(out, "  %*s  instructions' total", aw, "");
	if (rows.unlisted > 0)
		fprintf(out, " (%zu not in objdump's listing)", rows.unlisted);
	fputs("\n\n", out);
	free(keep);
	free(w);
	asmsel_rows_free(&rows);
}

/* List the objects that could not be read, and why. */
static void
asm_unread(const struct cells *c, const struct asmsel *s)
{
	size_t	i, n = 0;
	int	missing = 0;

	for (i = 0; i < s->nobjs; i++) {
		if (s->objs[i].found == OBJDUMP_OK)
			continue;
		missing |= s->objs[i].found == OBJDUMP_MISSING;
		if (n++ == 0)
			fputs(FANCY "The following objects chosen for "
			    "machine-code annotation could not be read:\n"
			    FANCY, c->out);
		fputs("  ", c->out);
		cells_name(c, profile_str(c->p, s->objs[i].name));
		if (s->objs[i].path != NULL &&
		    strcmp(s->objs[i].path, profile_str(c->p,
		    s->objs[i].name)) != 0) {
			fputs(" (as ", c->out);
			cells_name(c, s->objs[i].path);
			fputc(')', c->out);
		}
		fprintf(c->out, ": %s", asm_why(s->objs[i].found));
		if (s->objs[i].why != NULL) {
			fputs(": ", c->out);
			cells_name(c, s->objs[i].why);
		}
		fputc('\n', c->out);
	}
	if (missing)
		fputs("(--objdir=DIR looks for objects under DIR)\n", c->out);
	if (n > 0)
		fputc('\n', c->out);
}

/*
 * Annotate the machine code of the functions chosen (--asm=yes), after
 * the sources.  Return 0.
 */
int
annotate_asm(FILE *out, const struct selection *sel)
{
	const struct asmsel	*s = sel->asm_;
	struct cells		 c;
	unsigned char		*warned;
	size_t			 i;

	if (s == NULL)
		return 0;
	cells_init(&c, out, sel);
	if (!s->have_instrs) {
		fputs(FANCY "-- Machine code: none in this profile: make it "
		    "with valgrind --tool=callgrind\n-- --dump-instr=yes "
		    "(and --collect-jumps=yes for jumps)\n" FANCY "\n", out);
		return 0;
	}
	warned = xcalloc(s->nobjs + 1, 1);
	for (i = 0; i < s->nfuncs; i++)
		asm_function(&c, sel, &s->funcs[i], warned);
	free(warned);
	asm_unread(&c, s);
	return 0;
}

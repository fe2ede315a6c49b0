/*
 * report_json.c - --format=json: one JSON document of a selection.  On
 * one profile: metadata, events, totals, the printed functions with
 * self and inclusive costs and their calls, cycles, the per-line costs
 * of the files that would be annotated, the limits' results.  On a
 * difference: both totals and their change, the printed functions'
 * old, new and changed costs, the limits' results.  The schema is
 * described in the man page.
 */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/callgraph.h"
#include "analysis/diff.h"
#include "analysis/fntotals.h"
#include "analysis/gate.h"
#include "base/cost.h"
#include "base/num.h"
#include "base/xmalloc.h"
#include "model/profile.h"
#include "select/asmsel.h"
#include "select/select.h"
#include "select/srcsel.h"
#include "version.h"
#include "view/json.h"
#include "view/report.h"

static void	json_cost(struct json *, const struct profile *,
		    const uint64_t *);
static void	json_sdelta(struct json *, const struct profile *,
		    const struct snum *, const unsigned char *);
static void	json_sid(struct json *, const struct profile *, uint32_t);
static void	json_meta(struct json *, const struct profile *);
static void	json_options(struct json *, const struct selection *);
static void	json_gates(struct json *, const struct selection *);
static void	json_functions(struct json *, const struct selection *);
static void	json_cycles(struct json *, const struct selection *);
static void	json_files(struct json *, const struct selection *);
static void	json_diff(struct json *, const struct selection *);
static void	json_asm(struct json *, const struct selection *);
static void	json_asm_row(struct json *, const struct profile *,
		    const struct asmfunc *, const struct asmrow *,
		    const char *);
static void	json_present(struct json *, const struct profile *,
		    const uint64_t *);
static void	json_pair(struct json *, const char *, const char *,
		    uint64_t);

/* Write a cost vector as an object of event: count (null if none). */
static void
json_cost(struct json *j, const struct profile *p, const uint64_t *c)
{
	unsigned	i, n = profile_nevents(p);

	json_open(j, '{');
	for (i = 0; i < n; i++) {
		json_key(j, profile_str(p, profile_event(p, i)));
		if (c == NULL || c[i] == COST_NONE)
			json_null(j);
		else
			json_u64(j, c[i]);
	}
	json_close(j, '}');
}

/* Write signed changes as an object of event: change (null if none). */
static void
json_sdelta(struct json *j, const struct profile *p, const struct snum *v,
    const unsigned char *def)
{
	unsigned	i, n = profile_nevents(p);

	json_open(j, '{');
	for (i = 0; i < n; i++) {
		json_key(j, profile_str(p, profile_event(p, i)));
		if (!def[i])
			json_null(j);
		else
			json_snum(j, v[i]);
	}
	json_close(j, '}');
}

/* Write a string id's string, or null for the empty string. */
static void
json_sid(struct json *j, const struct profile *p, uint32_t id)
{
	if (id == 0)
		json_null(j);
	else
		json_str(j, profile_str(p, id));
}

/* The metadata of a profile: inputs, parts, events. */
static void
json_meta(struct json *j, const struct profile *p)
{
	const struct event_def	*d;
	const struct part	*pt;
	const uint64_t		*c;
	size_t			 i, k;
	unsigned		 e;

	pt = profile_part(p, 0);
	json_key(j, "creator");
	json_sid(j, p, pt->creator);
	json_key(j, "command");
	json_sid(j, p, pt->cmd);
	json_key(j, "pid");
	json_sid(j, p, pt->pid);
	json_key(j, "parts");
	json_open(j, '[');
	for (i = 0; i < profile_nparts(p); i++) {
		pt = profile_part(p, i);
		json_open(j, '{');
		json_key(j, "file");
		json_sid(j, p, pt->file);
		json_key(j, "part");
		json_sid(j, p, pt->part);
		json_key(j, "thread");
		json_sid(j, p, pt->thread);
		json_key(j, "trigger");
		json_sid(j, p, pt->trigger);
		json_key(j, "desc");
		json_open(j, '[');
		for (k = 0; k < pt->ndesc; k++)
			json_str(j, profile_str(p, pt->desc[k]));
		json_close(j, ']');
		json_key(j, "left_out");
		json_bool(j, pt->skipped);
		json_key(j, "totals_source");
		json_str(j, (const char *[]){ "summary", "totals",
		    "calculated" }[totals_part(p, i, &c)]);
		json_key(j, "totals");
		json_cost(j, p, c);
		json_close(j, '}');
	}
	json_close(j, ']');
	json_key(j, "events");
	json_open(j, '[');
	for (e = 0; e < profile_nevents(p); e++) {
		json_open(j, '{');
		json_key(j, "name");
		json_str(j, profile_str(p, profile_event(p, e)));
		json_key(j, "long_name");
		for (k = 0; k < profile_nevent_defs(p); k++)
			if (profile_event_def(p, k)->name ==
			    profile_event(p, e))
				break;
		json_sid(j, p, k < profile_nevent_defs(p) ?
		    profile_event_def(p, k)->longname : 0);
		/* Derived events follow the recorded ones. */
		json_key(j, "formula");
		json_sid(j, p, e >= profile_nrecorded(p) &&
		    k < profile_nevent_defs(p) ?
		    profile_event_def(p, k)->formula : 0);
		json_close(j, '}');
	}
	json_close(j, ']');
	json_key(j, "derived_events");
	json_open(j, '[');
	for (k = 0; k < profile_nevent_defs(p); k++) {
		d = profile_event_def(p, k);
		if (d->formula == 0)
			continue;
		json_open(j, '{');
		json_key(j, "name");
		json_str(j, profile_str(p, d->name));
		json_key(j, "formula");
		json_str(j, profile_str(p, d->formula));
		json_key(j, "long_name");
		json_sid(j, p, d->longname);
		json_close(j, '}');
	}
	json_close(j, ']');
}

/* The options that shaped the report. */
static void
json_options(struct json *j, const struct selection *sel)
{
	size_t	i;

	json_key(j, "shown");
	json_open(j, '[');
	for (i = 0; i < sel->nshow; i++)
		json_str(j, profile_str(sel->p, profile_event(sel->p,
		    (unsigned)sel->show[i])));
	json_close(j, ']');
	json_key(j, "sort");
	json_open(j, '[');
	for (i = 0; i < sel->nsort; i++)
		json_str(j, profile_str(sel->p, profile_event(sel->p,
		    (unsigned)sel->sort[i])));
	json_close(j, ']');
	json_key(j, "thresholds");
	json_open(j, '[');
	for (i = 0; i < sel->nsort; i++)
		json_str(j, select_threshold(sel, i));
	json_close(j, ']');
	json_key(j, "inclusive");
	json_bool(j, sel->o->inclusive);
	json_key(j, "fold");
	json_str(j, (const char *[]){ "none", "recursion", "contexts",
	    "all" }[sel->o->fold & 3]);
	json_key(j, "rows");
	json_str(j, (const char *[]){ "functions", "objects", "files" }[
	    profile_rows(sel->p)]);
}

/* The results of the --fail-above limits. */
static void
json_gates(struct json *j, const struct selection *sel)
{
	const struct gate_result	*g;
	size_t				 i;

	json_key(j, "gates");
	json_open(j, '[');
	for (i = 0; i < sel->ngres; i++) {
		g = &sel->gres[i];
		json_open(j, '{');
		json_key(j, "limit");
		json_str(j, g->gate->spec);
		json_key(j, "event");
		json_str(j, g->gate->event);
		json_key(j, "function");
		if (g->what != NULL)
			json_str(j, g->what);
		else
			json_null(j);
		json_key(j, g->diff ? "change" : "value");
		json_snum(j, g->value);
		if (g->diff) {
			json_key(j, "old");
			json_u64(j, g->base);
		}
		json_key(j, "failed");
		json_bool(j, g->failed);
		json_close(j, '}');
	}
	json_close(j, ']');
	json_key(j, "failed");
	json_bool(j, sel->gates_failed);
}

/* The printed functions, with self and inclusive costs and calls. */
static void
json_functions(struct json *j, const struct selection *sel)
{
	const struct callgraph	*g = sel->g;
	const struct fnrow	*row;
	const struct cgedge	*e;
	uint32_t		 i, k;
	size_t			 n;

	json_key(j, "functions");
	json_open(j, '[');
	for (n = 0; n < sel->nents; n++) {
		if (sel->ents[n].row == CG_NONE)
			continue;
		i = sel->ents[n].row;
		row = &sel->t->rows[i];
		json_open(j, '{');
		json_key(j, "label");
		json_str(j, fntotals_label(sel->t, i));
		json_key(j, "file");
		json_str(j, profile_str(sel->p, row->file));
		json_key(j, "name");
		json_str(j, profile_str(sel->p, row->name));
		json_key(j, "object");
		if (row->named)
			json_str(j, profile_str(sel->p, row->obj));
		else
			json_null(j);
		json_key(j, "self");
		json_cost(j, sel->p, row->cost);
		json_key(j, "inclusive");
		json_cost(j, sel->p, g->incl + (size_t)i * sel->nev);
		json_key(j, "cycle");
		if (g->cycle[i] != CG_NONE)
			json_str(j, g->cycles[g->cycle[i]].label);
		else
			json_null(j);
		json_key(j, "calls");
		json_open(j, '[');
		for (k = g->out[i]; k < g->out[i + 1]; k++) {
			e = &g->edges[k];
			json_open(j, '{');
			json_key(j, "callee");
			json_str(j, fntotals_label(sel->t, e->to));
			json_key(j, "count");
			json_u64(j, e->count);
			json_key(j, "inclusive");
			json_cost(j, sel->p, e->cost);
			json_close(j, '}');
		}
		json_close(j, ']');
		json_close(j, '}');
	}
	json_close(j, ']');
}

/*
 * The cycles printed (--inclusive=yes) or that printed functions belong
 * to, with their members.
 */
static void
json_cycles(struct json *j, const struct selection *sel)
{
	const struct cgcycle	*cy;
	size_t			 n, m;

	json_key(j, "cycles");
	json_open(j, '[');
	for (n = 0; n < sel->ncycles; n++) {
		cy = &sel->g->cycles[sel->cycles[n]];
		json_open(j, '{');
		json_key(j, "name");
		json_str(j, cy->label);
		json_key(j, "inclusive");
		json_cost(j, sel->p, cy->incl);
		json_key(j, "members");
		json_open(j, '[');
		for (m = 0; m < cy->nmembers; m++)
			json_str(j, fntotals_label(sel->t, cy->members[m]));
		json_close(j, ']');
		json_close(j, '}');
	}
	json_close(j, ']');
}

/* Per-line self costs of the files annotation would list. */
static void
json_files(struct json *j, const struct selection *sel)
{
	const struct annfile	*f;
	size_t			 k, i;

	json_key(j, "files");
	json_open(j, '[');
	for (k = 0; sel->src != NULL && k < sel->src->nfiles; k++) {
		f = &sel->src->files[k];
		if (f->nlines == 0)
			continue;
		json_open(j, '{');
		json_key(j, "name");
		json_str(j, f->name);
		json_key(j, "lines");
		json_open(j, '[');
		for (i = 0; i < f->nlines; i++) {
			json_open(j, '{');
			json_key(j, "line");
			json_u64(j, f->lines[i].line);
			json_key(j, "self");
			json_cost(j, sel->p, f->lines[i].cost);
			json_close(j, '}');
		}
		json_close(j, ']');
		json_close(j, '}');
	}
	json_close(j, ']');
}

/* The body of the document of a difference. */
static void
json_diff(struct json *j, const struct selection *sel)
{
	const struct seldiff	*r;
	size_t			 i;

	json_key(j, "diff");
	json_open(j, '{');
	json_key(j, "old");
	json_str(j, sel->run->old_name);
	json_key(j, "new");
	json_str(j, sel->run->profile_name);
	json_close(j, '}');
	json_meta(j, sel->p);
	json_options(j, sel);
	json_key(j, "totals");
	json_open(j, '{');
	json_key(j, "old");
	json_cost(j, sel->p, sel->d->old_total);
	json_key(j, "new");
	json_cost(j, sel->p, sel->d->new_total);
	json_key(j, "change");
	json_sdelta(j, sel->p, sel->tdelta, sel->tdef);
	json_close(j, '}');
	json_key(j, "functions");
	json_open(j, '[');
	for (i = 0; i < sel->ndsel; i++) {
		r = &sel->drows[i];
		json_open(j, '{');
		json_key(j, "label");
		json_str(j, r->r->label);
		json_key(j, "file");
		json_str(j, r->r->file);
		json_key(j, "name");
		json_str(j, r->r->name);
		json_key(j, "old");
		json_cost(j, sel->p, r->r->old);
		json_key(j, "new");
		json_cost(j, sel->p, r->r->new);
		json_key(j, "change");
		json_sdelta(j, sel->p, r->delta, r->def);
		json_close(j, '}');
	}
	json_close(j, ']');
}

/* Write "a:b" as a string, or "a:LINE" when b is NULL. */
static void
json_pair(struct json *j, const char *a, const char *b, uint64_t line)
{
	char	*s, num[32];

	if (b == NULL) {
		snprintf(num, sizeof(num), "%llu", (unsigned long long)line);
		b = num;
	}
	s = xjoin(a, strlen(a), ':', b, strlen(b));
	json_str(j, s);
	free(s);
}

/* Write a cost vector as an object of the events it has a count of. */
static void
json_present(struct json *j, const struct profile *p, const uint64_t *c)
{
	unsigned	i, n = profile_nevents(p);

	json_open(j, '{');
	for (i = 0; c != NULL && i < n; i++)
		if (c[i] != COST_NONE) {
			json_key(j, profile_str(p, profile_event(p, i)));
			json_u64(j, c[i]);
		}
	json_close(j, '}');
}

/*
 * --asm=yes: the machine code of the functions annotated, each with its
 * instructions (address, objdump's text, source, cost, jumps, calls).
 */
static void
json_asm(struct json *j, const struct selection *sel)
{
	const struct asmsel	*s = sel->asm_;
	const struct asmfunc	*f;
	const struct asmobj	*ob;
	const struct profile	*p = sel->p;
	struct asmrows		 rows;
	uint32_t		 obj, file, name;
	size_t			 i, k;

	json_key(j, "machine_code");
	json_open(j, '{');
	json_key(j, "instructions_recorded");
	json_bool(j, s->have_instrs);
	json_key(j, "jumps_recorded");
	json_bool(j, s->have_jumps);
	json_key(j, "functions");
	json_open(j, '[');
	for (i = 0; i < s->nfuncs; i++) {
		f = &s->funcs[i];
		ob = &s->objs[f->obj];
		profile_func(p, f->fn, &obj, &file, &name);
		json_open(j, '{');
		json_key(j, "file");
		json_str(j, profile_str(p, file));
		json_key(j, "name");
		json_str(j, profile_str(p, name));
		json_key(j, "object");
		json_str(j, profile_str(p, obj));
		json_key(j, "object_read");
		json_bool(j, ob->found == OBJDUMP_OK);
		json_key(j, "object_newer");
		json_bool(j, ob->newer);
		if (f->unread != ASM_READ) {
			/* Only then: the documents of before stay. */
			json_key(j, "not_read");
			json_str(j, f->unread == ASM_SPAN ? "span above the "
			    "limit" : "instructions listed before it at the "
			    "limit");
		}
		json_key(j, "self");
		json_present(j, p, f->self);
		json_key(j, "asm");
		json_open(j, '[');
		/* Its rows, made now and freed once written. */
		asmsel_rows(s, f, &rows);
		for (k = 0; k < rows.n; k++)
			json_asm_row(j, p, f, &rows.row[k],
			    asmsel_text(s, f, &rows, k));
		asmsel_rows_free(&rows);
		json_close(j, ']');
		json_close(j, '}');
	}
	json_close(j, ']');
	json_key(j, "unread_objects");
	json_open(j, '[');
	for (i = 0; i < s->nobjs; i++) {
		ob = &s->objs[i];
		if (ob->found == OBJDUMP_OK)
			continue;
		json_open(j, '{');
		json_key(j, "object");
		json_str(j, profile_str(p, ob->name));
		json_key(j, "reason");
		json_str(j, ob->found == OBJDUMP_MISSING ? "not found" :
		    ob->found == OBJDUMP_UNREADABLE ? "cannot be opened" :
		    ob->found == OBJDUMP_NOT_REGULAR ? "not a regular file" :
		    ob->found == OBJDUMP_NOT_ELF ? "not an ELF object" :
		    ob->why != NULL ? ob->why : "not disassembled");
		json_close(j, '}');
	}
	json_close(j, ']');
	json_close(j, '}');
}

/*
 * One instruction r of function f, an object: its address, text
 * (objdump's, or NULL), source line, cost, jumps and calls.
 */
static void
json_asm_row(struct json *j, const struct profile *p,
    const struct asmfunc *f, const struct asmrow *r, const char *text)
{
	const struct asmjump	*jp;
	const struct asmcall	*c;
	uint32_t		 obj, file, name;
	size_t			 m;
	char			 buf[64];

	json_open(j, '{');
	json_key(j, "address");
	num_hex(r->addr, buf);
	json_str(j, buf);
	json_key(j, "text");
	if (text != NULL)
		json_str(j, text);
	else
		json_null(j);
	json_key(j, "source");
	if (r->file != UINT32_MAX)
		json_pair(j, profile_str(p, r->file), NULL, r->line);
	else
		json_null(j);
	json_key(j, "cost");
	json_present(j, p, r->cost);
	json_key(j, "jumps");
	json_open(j, '[');
	for (m = 0; m < r->njumps; m++) {
		jp = &f->jumps[r->jump0 + m];
		json_open(j, '{');
		json_key(j, "target");
		num_hex(jp->target, buf);
		json_str(j, buf);
		json_key(j, "conditional");
		json_bool(j, jp->cond);
		json_key(j, "executed");
		json_u64(j, jp->executed);
		json_key(j, "taken");
		json_u64(j, jp->taken);
		json_close(j, '}');
	}
	json_close(j, ']');
	json_key(j, "calls");
	json_open(j, '[');
	for (m = 0; m < r->ncalls; m++) {
		c = &f->calls[r->call0 + m];
		profile_func(p, c->callee, &obj, &file, &name);
		json_open(j, '{');
		json_key(j, "callee");
		json_pair(j, profile_str(p, file), profile_str(p, name), 0);
		json_key(j, "count");
		json_u64(j, c->count);
		json_key(j, "inclusive");
		json_cost(j, p, c->cost);
		json_close(j, '}');
	}
	json_close(j, ']');
	json_close(j, '}');
}

/* Print a selection as one JSON document.  Return 0. */
int
report_json(FILE *out, const struct selection *sel)
{
	struct json	j;

	json_init(&j, out);
	json_open(&j, '{');
	json_key(&j, "schema");
	json_str(&j, "cg-annotate/1");
	json_key(&j, "generator");
	json_str(&j, "cg-annotate " CGA_VERSION);
	if (sel->d != NULL)
		json_diff(&j, sel);
	else {
		json_key(&j, "profile");
		json_str(&j, sel->run->profile_name);
		json_meta(&j, sel->p);
		json_options(&j, sel);
		json_key(&j, "totals_source");
		json_str(&j, (const char *[]){ "summary", "totals",
		    "calculated" }[sel->source]);
		json_key(&j, "totals");
		json_cost(&j, sel->p, sel->total);
		json_functions(&j, sel);
		json_cycles(&j, sel);
		json_files(&j, sel);
		if (sel->asm_ != NULL)
			json_asm(&j, sel);
	}
	json_gates(&j, sel);
	json_close(&j, '}');
	json_end(&j);
	return 0;
}

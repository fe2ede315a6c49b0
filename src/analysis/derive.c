/*
 * derive.c - derived events: formulas read as KCachegrind reads them,
 * terms "[+|-] [FACTOR] [*] EVENT" (Ir + 10 Bm + 2*Dr), each expanded
 * once into integer factors of the recorded events, then computed on
 * any cost vector exactly, with a value below 0 or above 2^64 - 2 told.
 *
 * A name is looked up on the command line first (the last --event for
 * it), then in the profile's event: lines, then among the built-in
 * formulas, whose terms naming no event of the profile are left out.
 */
#include "base/compat.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/derive.h"
#include "base/cost.h"
#include "base/hash.h"
#include "base/msg.h"
#include "base/xmalloc.h"
#include "model/profile.h"

/* Exact sums of 64-bit counts times 63-bit factors. */
__extension__ typedef unsigned __int128 u128;

enum defkind { DEF_OPTION, DEF_PROFILE, DEF_BUILTIN };

/* A definition that may be used: its formula expanded on first use. */
struct def {
	enum defkind	 kind;
	const char	*name;
	const char	*formula;
	const char	*longname;	/* NULL if none */
	const char	*spec;		/* DEF_OPTION: the option as given */
	const char	*file;		/* DEF_PROFILE: where it is */
	uint64_t	 line;
	int		 state;		/* 0 new, 1 expanding, 2 done */
	int		 known;		/* done: some term names an event */
	int64_t		*coef;		/* done: a factor per recorded event */
};

struct derive {
	const struct profile *p;
	unsigned	 nrec;		/* recorded events */
	struct def	*defs;		/* options, profile, built-ins */
	size_t		 ndefs;
	uint32_t	*slots;		/* by name: 1 + the first def, or 0 */
	size_t		 nslots;	/* a power of 2 above 2 ndefs */
	struct def	**cols;		/* the derived events computed */
	unsigned	 ncols;
};

/* KCachegrind's built-in formulas (libcore's event types). */
static const struct {
	const char	*name, *formula, *longname;
} builtins[] = {
	{ "L1m", "I1mr + D1mr + D1mw", "L1 Miss Sum" },
	{ "L2m", "I2mr + D2mr + D2mw", "Last-level Miss Sum" },
	{ "LLm", "ILmr + DLmr + DLmw", "Last-level Miss Sum" },
	{ "Bm", "Bim + Bcm", "Mispredicted Branches" },
	{ "CEst", "Ir + 10 Bm + 10 L1m + 20 Ge + 100 L2m + 100 LLm",
	    "Cycle Estimation" },
};

/* One term of a formula. */
struct term {
	int		 neg;
	uint64_t	 factor;
	const char	*name;
	size_t		 len;
};

static const char *derive_term(const char *, struct term *, const char **);
static int	derive_is_name(char);
static struct def *derive_find(struct derive *, const char *, size_t);
static int	derive_expand(struct derive *, struct def *);
static int	derive_term_add(struct derive *, struct def *,
		    const struct term *, const char *, int, struct def *);
static void	derive_index(struct derive *);
static void	derive_error(const struct def *, const char *, ...)
		    __attribute__((__format__(__printf__, 2, 3)));

/* Return nonzero if c may be part of an event name in a formula. */
static int
derive_is_name(char c)
{
	return c != '\0' && c != ' ' && c != '\t' && c != '+' && c != '-' &&
	    c != '*' && c != '=' && c != ':';
}

/*
 * Read the term at s into *t; return where the next one starts, or NULL
 * with *why set if s holds no well-formed term.
 */
static const char *
derive_term(const char *s, struct term *t, const char **why)
{
	int	digits = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	t->neg = 0;
	t->factor = 1;
	if (*s == '+' || *s == '-') {
		t->neg = *s++ == '-';
		while (*s == ' ' || *s == '\t')
			s++;
	}
	if (*s >= '0' && *s <= '9') {
		t->factor = 0;
		for (; *s >= '0' && *s <= '9'; s++, digits++)
			if (t->factor > (uint64_t)INT64_MAX / 10 ||
			    (t->factor = t->factor * 10 + (uint64_t)(*s - '0')) >
			    (uint64_t)INT64_MAX) {
				*why = "factor above 2^63 - 1";
				return NULL;
			}
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '*')
			s++;
		while (*s == ' ' || *s == '\t')
			s++;
	}
	t->name = s;
	while (derive_is_name(*s))
		s++;
	t->len = (size_t)(s - t->name);
	if (t->len == 0) {
		*why = digits > 0 ? "factor without an event" :
		    "term without an event";
		return NULL;
	}
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/*
 * Check the syntax of formula; return 0, or -1 with the reason in err
 * (of errsize bytes).
 */
int
derive_formula_check(const char *formula, char *err, size_t errsize)
{
	struct term	 t;
	const char	*s = formula, *why = NULL;

	do {
		if ((s = derive_term(s, &t, &why)) == NULL) {
			strlcpy(err, why, errsize);
			return -1;
		}
	} while (*s != '\0');
	return 0;
}

/*
 * Parse --event=NAME=FORMULA's value into o; return 0, or -1 with the
 * reason in err (of errsize bytes).
 */
int
derive_opt_parse(struct derive_opt *o, const char *spec, char *err,
    size_t errsize)
{
	const char	*eq, *s;

	memset(o, 0, sizeof(*o));
	if ((eq = strchr(spec, '=')) == NULL) {
		strlcpy(err, "not of the form NAME=FORMULA", errsize);
		return -1;
	}
	for (s = spec; s < eq && derive_is_name(*s); s++)
		continue;
	if (s == spec || s != eq) {
		strlcpy(err, "NAME is empty or holds a space, +, -, * or :",
		    errsize);
		return -1;
	}
	if (derive_formula_check(eq + 1, err, errsize) == -1)
		return -1;
	o->spec = xstrdup(spec);
	o->name = xstrndup(spec, (size_t)(eq - spec));
	o->formula = xstrdup(eq + 1);
	return 0;
}

/* Free what derive_opt_parse() made. */
void
derive_opt_free(struct derive_opt *o)
{
	free(o->spec);
	free(o->name);
	free(o->formula);
}

/*
 * Start the derived events of profile p, with the definitions opts[]
 * of the command line (the last for a name wins), then p's event: lines
 * with a formula, then the built-in ones; none computed yet.
 */
struct derive *
derive_new(const struct profile *p, const struct derive_opt *opts,
    size_t nopts)
{
	const struct event_def	*ed;
	struct derive		*d;
	struct def		*df;
	size_t			 i, n;

	d = xcalloc(1, sizeof(*d));
	d->p = p;
	d->nrec = profile_nevents(p);
	n = nopts + profile_nevent_defs(p) + sizeof(builtins) /
	    sizeof(builtins[0]);
	d->defs = xcalloc(n, sizeof(*d->defs));
	for (i = nopts; i-- > 0; ) {
		df = &d->defs[d->ndefs++];
		df->kind = DEF_OPTION;
		df->name = opts[i].name;
		df->formula = opts[i].formula;
		df->spec = opts[i].spec;
	}
	for (i = 0; i < profile_nevent_defs(p); i++) {
		ed = profile_event_def(p, i);
		if (ed->formula == 0)
			continue;
		df = &d->defs[d->ndefs++];
		df->kind = DEF_PROFILE;
		df->name = profile_str(p, ed->name);
		df->formula = profile_str(p, ed->formula);
		df->longname = ed->longname != 0 ?
		    profile_str(p, ed->longname) : NULL;
		df->file = profile_str(p, ed->file);
		df->line = ed->line;
	}
	for (i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++) {
		df = &d->defs[d->ndefs++];
		df->kind = DEF_BUILTIN;
		df->name = builtins[i].name;
		df->formula = builtins[i].formula;
		df->longname = builtins[i].longname;
	}
	derive_index(d);
	return d;
}

/*
 * Index the definitions by name, the first of each name kept: a formula
 * names its terms' events by looking them up, and a profile may hold as
 * many definitions as lines.
 */
static void
derive_index(struct derive *d)
{
	size_t		 i, h;
	const char	*name;

	for (d->nslots = 16; d->nslots < 2 * d->ndefs; d->nslots *= 2)
		continue;
	d->slots = xcalloc(d->nslots, sizeof(*d->slots));
	for (i = 0; i < d->ndefs; i++) {
		name = d->defs[i].name;
		h = hash_bytes(name, strlen(name)) & (d->nslots - 1);
		while (d->slots[h] != 0 && strcmp(d->defs[d->slots[h] -
		    1].name, name) != 0)
			h = (h + 1) & (d->nslots - 1);
		if (d->slots[h] == 0)
			d->slots[h] = (uint32_t)i + 1;
	}
}

/* Return the first definition of the name s (len bytes), or NULL. */
static struct def *
derive_find(struct derive *d, const char *s, size_t len)
{
	const struct def	*df;
	size_t			 h;

	h = hash_bytes(s, len) & (d->nslots - 1);
	for (; d->slots[h] != 0; h = (h + 1) & (d->nslots - 1)) {
		df = &d->defs[d->slots[h] - 1];
		if (strlen(df->name) == len && memcmp(df->name, s, len) == 0)
			return &d->defs[d->slots[h] - 1];
	}
	return NULL;
}

/* Say why definition df cannot be computed, naming where it is. */
static void
derive_error(const struct def *df, const char *fmt, ...)
{
	va_list	 ap;
	char	 why[256];

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (df->kind == DEF_OPTION)
		msg_usage_error("--event=%s: %s", df->spec, why);
	else if (df->kind == DEF_PROFILE)
		msg(MSG_BAD_FORMULA, df->file, df->line, "'%s = %s': %s",
		    df->name, df->formula, why);
	else
		msg(MSG_BAD_FORMULA, NULL, 0, "built-in '%s = %s': %s",
		    df->name, df->formula, why);
}

/*
 * Add term t of df's formula to df's factors: the term names the
 * recorded event idx, or (idx < 0) the derived event sub, expanded
 * before, or nothing known (sub NULL); name is its name.  Return 0 (a
 * term a built-in formula leaves out included), or -1 after a message.
 */
static int
derive_term_add(struct derive *d, struct def *df, const struct term *t,
    const char *name, int idx, struct def *sub)
{
	int64_t		 f, add;
	unsigned	 e;

	f = t->neg ? -(int64_t)t->factor : (int64_t)t->factor;
	if (idx < 0 && (sub == NULL || !sub->known)) {
		if (df->kind != DEF_BUILTIN) {
			derive_error(df, "'%s' is not an event of the "
			    "profile (%s)%s", name, profile_str(d->p,
			    profile_events_list(d->p)), sub != NULL ?
			    " nor computed from them" : "");
			return -1;
		}
		return 0;	/* a built-in leaves it out */
	}
	df->known = 1;
	for (e = 0; e < d->nrec; e++) {
		if (idx >= 0 && e != (unsigned)idx)
			continue;
		if (__builtin_mul_overflow(f, idx >= 0 ? 1 : sub->coef[e],
		    &add) || __builtin_add_overflow(df->coef[e], add,
		    &df->coef[e])) {
			derive_error(df, "factors above 2^63 - 1");
			return -1;
		}
	}
	return 0;
}

/*
 * Expand the formula of top into factors of the recorded events, the
 * derived events it names expanded first.  The definitions being
 * expanded are a stack of our own, not the C stack: a profile can chain
 * as many as it has lines.  Return 0, or -1 after a message (a cycle,
 * an unknown event, a factor too large).
 */
static int
derive_expand(struct derive *d, struct def *top)
{
	struct frame {
		struct def	*df;
		const char	*s;	/* the next term */
	}		*st = NULL;
	size_t		 n = 0, cap = 0;
	struct term	 t;
	struct def	*df, *sub;
	const char	*next, *why = NULL;
	char		*name;
	int		 idx, rc = -1;

	for (df = top; ; ) {
		/* df is to be expanded: begin it, or find a cycle. */
		if (df->state == 1) {
			derive_error(df, "its definition refers back to itself");
			goto out;
		}
		if (df->state == 0) {
			df->state = 1;
			df->coef = xcalloc(d->nrec > 0 ? d->nrec : 1,
			    sizeof(*df->coef));
			st = xgrow(st, &cap, n + 1, sizeof(*st));
			st[n].df = df;
			st[n++].s = df->formula;
		}
		for (df = NULL; n > 0 && df == NULL; ) {
			struct frame *fr = &st[n - 1];

			if ((next = derive_term(fr->s, &t, &why)) == NULL) {
				derive_error(fr->df, "%s", why);
				goto out;
			}
			name = xstrndup(t.name, t.len);
			idx = profile_event_index(d->p, name);
			sub = idx < 0 ? derive_find(d, t.name, t.len) : NULL;
			if (sub != NULL && sub->state != 2) {
				free(name);
				df = sub;	/* first, then this term again */
				continue;
			}
			if (derive_term_add(d, fr->df, &t, name, idx, sub) ==
			    -1) {
				free(name);
				goto out;
			}
			free(name);
			fr->s = next;
			if (*next == '\0') {
				fr->df->state = 2;
				n--;
			}
		}
		if (df == NULL)
			break;
	}
	rc = 0;
out:
	free(st);
	return rc;
}

/*
 * Compute the derived event name from now on (if it is not computed
 * already); return its index among the derived events, -1 if no formula
 * defines it, or -2 after a message if its formula cannot be computed.
 */
int
derive_add(struct derive *d, const char *name)
{
	struct def	*df;
	unsigned	 i;

	for (i = 0; i < d->ncols; i++)
		if (strcmp(d->cols[i]->name, name) == 0)
			return (int)i;
	if (profile_event_index(d->p, name) >= 0)
		return -1;
	if ((df = derive_find(d, name, strlen(name))) == NULL)
		return -1;
	if (derive_expand(d, df) == -1)
		return -2;
	if (!df->known)
		return -1;
	d->cols = xreallocarray(d->cols, d->ncols + 1, sizeof(*d->cols));
	d->cols[d->ncols] = df;
	return (int)d->ncols++;
}

/* Return how many derived events are computed. */
unsigned
derive_count(const struct derive *d)
{
	return d->ncols;
}

/* Return the name of derived event i. */
const char *
derive_name(const struct derive *d, unsigned i)
{
	return d->cols[i]->name;
}

/* Return the formula of derived event i, as its definition gave it. */
const char *
derive_formula(const struct derive *d, unsigned i)
{
	return d->cols[i]->formula;
}

/* Return the long name of derived event i, NULL if it has none. */
const char *
derive_longname(const struct derive *d, unsigned i)
{
	return d->cols[i]->longname;
}

/*
 * Compute every derived event of the recorded counts in[] into out[]:
 * "never recorded" if every event it uses is, else exact.  Return 0,
 * or DERIVE_OVERFLOW and/or DERIVE_NEGATIVE bits, with *which the first
 * derived event that was.
 */
int
derive_eval(const struct derive *d, const uint64_t *in, uint64_t *out,
    unsigned *which)
{
	u128			 pos, neg, prod, max = ~(u128)0;
	const int64_t		*c;
	unsigned		 i, e;
	int			 any, rc = 0, bad;

	for (i = 0; i < d->ncols; i++) {
		c = d->cols[i]->coef;
		pos = neg = 0;
		any = 0;
		for (e = 0; e < d->nrec; e++) {
			if (c[e] == 0 || in[e] == COST_NONE)
				continue;
			any = 1;
			prod = (u128)in[e] * (uint64_t)(c[e] < 0 ?
			    -(uint64_t)c[e] : (uint64_t)c[e]);
			if (c[e] > 0)
				pos = pos > max - prod ? max : pos + prod;
			else
				neg = neg > max - prod ? max : neg + prod;
		}
		bad = 0;
		if (!any)
			out[i] = COST_NONE;
		else if (neg > pos) {
			out[i] = 0;
			bad = DERIVE_NEGATIVE;
		} else if (pos - neg > COST_MAX) {
			out[i] = COST_MAX;
			bad = DERIVE_OVERFLOW;
		} else
			out[i] = (uint64_t)(pos - neg);
		if (bad != 0 && rc == 0 && which != NULL)
			*which = i;
		rc |= bad;
	}
	return rc;
}

/* Free the derived events. */
void
derive_free(struct derive *d)
{
	size_t	i;

	if (d == NULL)
		return;
	for (i = 0; i < d->ndefs; i++)
		free(d->defs[i].coef);
	free(d->defs);
	free(d->slots);
	free(d->cols);
	free(d);
}

/*
 * gate.c - the limits of --fail-above: parsing EVENT:LIMIT[:REGEX],
 * checking a total or a function against one, and saying on standard
 * error which limits were exceeded.
 */
#include "base/compat.h"

#include <errno.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/gate.h"
#include "base/msg.h"
#include "base/num.h"
#include "base/rematch.h"
#include "base/xmalloc.h"

/*
 * Parse "EVENT:LIMIT" or "EVENT:LIMIT:REGEX" into g, where LIMIT is a
 * count or a percentage ("2%", "0.5%").  Return 0, or -1 with a reason
 * in err (of errsize bytes).
 */
int
gate_parse(struct gate *g, const char *spec, char *err, size_t errsize)
{
	const char	*c1, *c2;
	char		*lim, *end;
	size_t		 n;

	memset(g, 0, sizeof(*g));
	if ((c1 = strchr(spec, ':')) == NULL || c1 == spec) {
		strlcpy(err, "not of the form EVENT:LIMIT[:REGEX]", errsize);
		return -1;
	}
	c2 = strchr(c1 + 1, ':');
	n = c2 != NULL ? (size_t)(c2 - c1 - 1) : strlen(c1 + 1);
	lim = xstrndup(c1 + 1, n);
	if (n > 0 && lim[n - 1] == '%') {
		lim[n - 1] = '\0';
		g->percent = 1;
		errno = 0;
		g->limit_pct = strtod(lim, &end);
		/* Not NaN, infinite or out of range either. */
		if (end == lim || *end != '\0' || !(g->limit_pct >= 0) ||
		    g->limit_pct > DBL_MAX || errno == ERANGE) {
			free(lim);
			strlcpy(err, "LIMIT is not a percentage", errsize);
			return -1;
		}
	} else {
		errno = 0;
		g->limit = strtoull(lim, &end, 10);
		if (end != lim && *end == '\0' && errno == ERANGE) {
			free(lim);
			strlcpy(err, "LIMIT is above 2^64 - 1", errsize);
			return -1;
		}
		if (end == lim || *end != '\0' || *lim == '-') {
			free(lim);
			strlcpy(err, "LIMIT is not a count or a percentage",
			    errsize);
			return -1;
		}
	}
	free(lim);
	if (c2 != NULL) {
		char	*re = xstrdup(c2 + 1);

		if ((g->re = rematch_new(re, 0, err, errsize)) == NULL) {
			free(re);
			return -1;
		}
		free(re);
		g->has_re = 1;
	}
	g->event = xstrndup(spec, (size_t)(c1 - spec));
	g->spec = xstrdup(spec);
	return 0;
}

/* Free a gate. */
void
gate_free(struct gate *g)
{
	if (g->has_re)
		rematch_free(g->re);
	free(g->spec);
	free(g->event);
	memset(g, 0, sizeof(*g));
}

/*
 * Check one value against gate g: the program totals (label NULL) or a
 * function (label, and name matched by the gate's regex; a function
 * gate skips totals and unmatched names, a totals gate skips functions).
 * In a difference, value is the change and base the old cost.  Return
 * 1 and fill *res if the gate applies, else 0.
 */
int
gate_check(const struct gate *g, const char *label, const char *name,
    int diff, struct snum value, uint64_t base, struct gate_result *res)
{
	double	pct;

	if ((label == NULL) != !g->has_re)
		return 0;
	if (g->has_re && !rematch_test(g->re, name))
		return 0;
	memset(res, 0, sizeof(*res));
	res->gate = g;
	res->what = label;
	res->diff = diff;
	res->value = value;
	res->base = base;
	if (g->percent) {
		if (base == 0)
			res->failed = !value.neg && value.mag > 0;
		else {
			pct = num_sdouble(value) * 100.0 / (double)base;
			res->failed = pct > g->limit_pct;
		}
	} else
		res->failed = !value.neg && value.mag > g->limit;
	return 1;
}

/*
 * Write what a limit found into buf: "is N", or "changed by +N" with
 * its share of the old cost when there was one, "(+P% of B)".
 */
const char *
gate_value(const struct gate_result *r, char *buf, size_t size)
{
	char	v[32], b[32];

	num_scommify(r->value, v);
	if (!r->diff)
		snprintf(buf, size, "is %s", v);
	else if (r->base == 0)
		snprintf(buf, size, "changed by %s%s", !r->value.neg &&
		    r->value.mag > 0 ? "+" : "", v);
	else {
		num_commify(r->base, b);
		snprintf(buf, size, "changed by %s%s (%+.2f%% of %s)",
		    !r->value.neg && r->value.mag > 0 ? "+" : "", v,
		    num_sdouble(r->value) * 100.0 / (double)r->base, b);
	}
	return buf;
}

/* Say on standard error that a limit was exceeded, and by what. */
void
gate_report(const struct gate_result *r)
{
	char	buf[GATE_VALUE_MAX];

	msg_note("limit exceeded: --fail-above=%s: %s%s%s %s",
	    r->gate->spec, r->gate->event, r->what != NULL ? " of " : "",
	    r->what != NULL ? r->what : "", gate_value(r, buf, sizeof(buf)));
}

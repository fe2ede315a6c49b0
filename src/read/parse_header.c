/*
 * parse_header.c - header lines (events:, positions:, event:, summary:,
 * totals:, part:, ...) and the parts they start and end: each part's
 * sum of cost lines checked against its summary: and totals:.
 */
#include "base/compat.h"

#include <string.h>

#include "base/cost.h"
#include "base/keytab.h"
#include "base/msg.h"
#include "base/num.h"
#include "read/parse.h"
#include "read/parser.h"

static int	parser_header_key(const char *, const char *);
static void	parser_events(struct parser *, const char *, const char *);
static void	parser_event_def(struct parser *, const char *, const char *);
static void	parser_positions(struct parser *, const char *, const char *);
static void	parser_sumline(struct parser *, int, const char *,
		    const char *);

/* Give the current part a vector for the sum of its cost lines. */
void
parser_part_sum(struct parser *ps)
{
	struct part	*pt = parser_part(ps);

	if (pt->sum == NULL) {
		pt->sum = xreallocarray(NULL, ps->nevents, sizeof(*pt->sum));
		cost_clear(pt->sum, ps->nevents);
	}
	ps->part_sum = pt->sum;
}

/*
 * At the end of a part, check its summary: and totals: against the sum
 * of its cost lines: one warning naming both if a summary: is below the
 * sum (the format lets it be above: costs of no function) or totals:
 * differs from it.
 */
void
parser_end_part(struct parser *ps)
{
	const struct part	*pt = parser_part(ps);
	const uint64_t		*c;
	unsigned		 i, k;

	if (pt->skipped)
		return;
	for (k = 0; k < 2; k++) {
		c = k == 0 ? pt->summary : pt->totals;
		if (c == NULL || cost_is_zero(c, ps->nevents))
			continue;
		for (i = 0; i < ps->nevents; i++) {
			uint64_t	s = pt->sum != NULL ? pt->sum[i] :
			    COST_NONE;

			if (s == COST_NONE)
				s = 0;
			if (c[i] == COST_NONE || c[i] == s ||
			    (k == 0 && c[i] > s))
				continue;
			msg(MSG_SUMMARY_DIFFERS, ps->fname, 0,
			    "%s: %s %llu, cost lines %llu", profile_str(ps->p,
			    profile_event(ps->p, i)), k == 0 ? "summary:" :
			    "totals:", (unsigned long long)c[i],
			    (unsigned long long)s);
			break;
		}
	}
}

/* A "key: value" line: header values, events, summary and totals. */
void
parser_headerline(struct parser *ps, const char *s, const char *colon,
    const char *v, const char *end)
{
	struct part	*pt;
	uint64_t	 major;
	const char	*q;
	char		 ex[MSG_EXCERPT];

	if (ps->call_pending || ps->jump_pending)
		parser_drop_pending(ps);
	if (!parser_header_key(s, colon)) {
		parser_unknown(ps, MSG_UNKNOWN_LINE, s, (size_t)(colon - s + 1));
		return;
	}
	if (!ps->known)
		parser_known(ps);
	/* Keys that describe a part start a new one after cost data. */
	if (KEYIS(s, colon, "part") || KEYIS(s, colon, "pid") ||
	    KEYIS(s, colon, "thread") || KEYIS(s, colon, "cmd") ||
	    KEYIS(s, colon, "desc") || KEYIS(s, colon, "positions") ||
	    KEYIS(s, colon, "events")) {
		if (ps->body_seen) {
			parser_end_part(ps);
			profile_new_part(ps->p, ps->fname_id);
			ps->part = profile_nparts(ps->p) - 1;
			ps->body_seen = 0;
			memset(ps->pos, 0, sizeof(ps->pos));
			memset(ps->pos_set, 0, sizeof(ps->pos_set));
			ps->all_set = 0;
		}
	}
	pt = parser_part(ps);
	/* String values are kept verbatim, trailing blanks included. */
	if (KEYIS(s, colon, "events")) {
		parser_events(ps, v, end);
		pt = parser_part(ps);
		pt->events = ps->events_id;
	}
	else if (KEYIS(s, colon, "summary"))
		parser_sumline(ps, 0, v, end);
	else if (KEYIS(s, colon, "totals"))
		parser_sumline(ps, 1, v, end);
	else if (KEYIS(s, colon, "desc")) {
		profile_part_add_desc(ps->p, pt, profile_intern(ps->p, v,
		    end - v));
		if (end - v > 8 && memcmp(v, "Trigger:", 8) == 0)
			pt->trigger = profile_intern(ps->p, v + 8 + (v[8] == ' '),
			    end - v - 8 - (v[8] == ' '));
	}
	else if (KEYIS(s, colon, "cmd"))
		pt->cmd = profile_intern(ps->p, v, end - v);
	else if (KEYIS(s, colon, "pid"))
		pt->pid = profile_intern(ps->p, v, end - v);
	else if (KEYIS(s, colon, "thread"))
		pt->thread = profile_intern(ps->p, v, end - v);
	else if (KEYIS(s, colon, "part"))
		pt->part = profile_intern(ps->p, v, end - v);
	else if (KEYIS(s, colon, "creator")) {
		pt->creator = profile_intern(ps->p, v, end - v);
		/* valgrind's xtree files: a block per execution context. */
		ps->xstack = ps->want_stacks && end - v >= 6 &&
		    memcmp(v, "xtree-", 6) == 0;
		ps->fast = parser_fastok(ps);
	}
	else if (KEYIS(s, colon, "positions"))
		parser_positions(ps, v, end);
	else if (KEYIS(s, colon, "event"))
		parser_event_def(ps, v, end);
	else if (KEYIS(s, colon, "version")) {
		q = v;
		while (q < end && *q != '.' && !num_is_space(*q))
			q++;
		if (num_parse_u64(&v, q, &major) != NUM_OK) {
			msg(MSG_BAD_HEADER_VALUE, ps->fname, ps->lineno,
			    "version: %s", msg_excerpt(ex, sizeof(ex), v,
			    end - v));
		} else if (major >= 2) {
			msg(MSG_BAD_VERSION, ps->fname, ps->lineno,
			    "%llu; cg-annotate reads version 1",
			    (unsigned long long)major);
			ps->fatal = 1;
		}
	}
}

/* Return nonzero if the key of a "key: value" line is a header's. */
static int
parser_header_key(const char *s, const char *colon)
{
	static const char *const keys[] = { "cmd", "creator", "desc",
	    "event", "events", "part", "pid", "positions", "summary",
	    "thread", "totals", "version" };
	size_t	i, len = (size_t)(colon - s);

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strlen(keys[i]) == len && memcmp(s, keys[i], len) == 0)
			return 1;
	return 0;
}

/* events: NAME...; the first one fixes the profile's events. */
static void
parser_events(struct parser *ps, const char *s, const char *end)
{
	struct keytab	 seen;
	char		 ex[MSG_EXCERPT];
	uint32_t	*names = NULL;
	uint64_t	 key;
	size_t		 ncap = 0;
	unsigned	 n = 0, i;
	int		 created;
	const char	*w;
	int		 idx, differ = 0;

	keytab_init(&seen, 1);
	while ((s = num_skip_space(s, end)) < end) {
		for (w = s; s < end && !num_is_space(*s); s++)
			continue;
		if (n == PARSE_MAX_EVENTS) {
			/* Every cost vector has a count for each. */
			msg(MSG_TOO_MANY_EVENTS, ps->fname, ps->lineno,
			    "more than %u, the limit", PARSE_MAX_EVENTS);
			keytab_free(&seen);
			free(names);
			ps->fatal = 1;
			return;
		}
		names = xgrow(names, &ncap, (size_t)n + 1, sizeof(*names));
		names[n] = profile_intern(ps->p, w, s - w);
		key = names[n];
		(void)keytab_get(&seen, &key, &created);
		if (!created) {
			/* Dropping it would shift the counts after it. */
			msg(MSG_EVENTS_REPEATED, ps->fname, ps->lineno, "%s",
			    msg_excerpt(ex, sizeof(ex), w, s - w));
			keytab_free(&seen);
			free(names);
			ps->fatal = 1;
			return;
		}
		n++;
	}
	keytab_free(&seen);
	if (n == 0) {
		msg(MSG_EMPTY_EVENTS, ps->fname, ps->lineno, NULL);
		ps->fatal = 1;
		free(names);
		return;
	}
	if (profile_set_events(ps->p, names, n) == 0) {
		ps->colmap = xreallocarray(ps->colmap, n, sizeof(*ps->colmap));
		for (i = 0; i < n; i++)
			ps->colmap[i] = (int)i;
	} else {
		/* Map a later part's columns to the first part's events. */
		ps->colmap = xreallocarray(ps->colmap, n, sizeof(*ps->colmap));
		for (i = 0; i < n; i++) {
			idx = profile_event_index(ps->p,
			    profile_str(ps->p, names[i]));
			ps->colmap[i] = idx;
			if (idx < 0)
				differ = 1;
		}
		/* Another file's events are checked by its reader. */
		if ((differ || n != profile_nevents(ps->p)) &&
		    ps->have_events)
			msg(MSG_EVENTS_DIFFER, ps->fname, ps->lineno,
			    "counts of events not in the first are ignored");
	}
	/* The list as one string, for comparing inputs. */
	ps->events_id = profile_intern_list(ps->p, names, n);
	ps->ncols = n;
	if (!ps->have_events) {
		ps->have_events = 1;
		ps->nevents = profile_nevents(ps->p);
		ps->cost = xreallocarray(NULL, ps->nevents,
		    sizeof(*ps->cost));
	}
	ps->identity = n == ps->nevents;
	for (i = 0; i < n; i++)
		if (ps->colmap[i] != (int)i)
			ps->identity = 0;
	free(names);
	if (ps->early_summary != NULL) {
		parser_sumline(ps, 0, ps->early_summary,
		    ps->early_summary + strlen(ps->early_summary));
		free(ps->early_summary);
		ps->early_summary = NULL;
	}
}

/* event: NAME [= FORMULA] [: LONG NAME] */
static void
parser_event_def(struct parser *ps, const char *s, const char *end)
{
	struct event_def def;
	const char	*w, *f = NULL, *fend = NULL, *l = NULL;
	uint32_t	 name, formula = 0, longname = 0;

	for (w = s; s < end && !num_is_space(*s) && *s != '=' && *s != ':';
	    s++)
		continue;
	if (s == w) {
		msg(MSG_BAD_EVENT_DEF, ps->fname, ps->lineno, NULL);
		return;
	}
	name = profile_intern(ps->p, w, s - w);
	s = num_skip_space(s, end);
	if (s < end && *s == '=') {
		f = num_skip_space(s + 1, end);
		for (s = f; s < end && *s != ':'; s++)
			continue;
		for (fend = s; fend > f && num_is_space(fend[-1]); fend--)
			continue;
		if (fend == f) {
			msg(MSG_BAD_EVENT_DEF, ps->fname, ps->lineno, NULL);
			return;
		}
		formula = profile_intern(ps->p, f, fend - f);
	}
	if (s < end && *s == ':') {
		l = num_skip_space(s + 1, end);
		longname = profile_intern(ps->p, l, end - l);
		s = end;
	}
	if (s != end) {
		msg(MSG_BAD_EVENT_DEF, ps->fname, ps->lineno, NULL);
		return;
	}
	def.name = name;
	def.longname = longname;
	def.formula = formula;
	def.file = ps->fname_id;
	def.line = ps->lineno;
	profile_add_event_def(ps->p, &def);
	/*
	 * A term below 0 is told of the line it makes negative: every line
	 * kept apart from now on (in the usual header, before any).
	 */
	if (ps->lines != NULL && parser_minus(ps->p)) {
		ps->lines = NULL;
		profile_set_lines(ps->p, NULL, NULL);
	}
}

/*
 * positions: [instr] [bb] [line].  With no word at all, cost lines hold
 * no position, only counts (the grammar allows it; CodSpeed writes it):
 * their self costs are those of line 0, "unidentified lines".
 */
static void
parser_positions(struct parser *ps, const char *s, const char *end)
{
	const char	*w;
	char		 ex[MSG_EXCERPT];
	unsigned	 n = 0, words = 0;
	int		 line = -1, instr = -1;

	while ((s = num_skip_space(s, end)) < end) {
		for (w = s; s < end && !num_is_space(*s); s++)
			continue;
		words++;
		/* instr, bb, line: at most one each, in this order. */
		if (KEYIS(w, s, "line") && line < 0 && n < PARSE_MAXPOS) {
			line = (int)n;
			n++;
		} else if ((KEYIS(w, s, "instr") || KEYIS(w, s, "addr") ||
		    KEYIS(w, s, "bb")) && line < 0 && n < PARSE_MAXPOS - 1) {
			if (!KEYIS(w, s, "bb") && instr < 0)
				instr = (int)n;
			n++;
		} else
			msg(MSG_BAD_POSITIONS, ps->fname, ps->lineno, "%s",
			    msg_excerpt(ex, sizeof(ex), w, s - w));
	}
	if (n == 0 && words > 0) {
		msg(MSG_BAD_POSITIONS, ps->fname, ps->lineno,
		    "no position, \"line\" used");
		n = 1;
		line = 0;
	}
	ps->npos = n;
	ps->pos_line = line;
	ps->pos_instr = instr;
	ps->all_set = 0;
	memset(ps->pos_set, 0, sizeof(ps->pos_set));
}

/* summary: or totals: COUNTS, kept per part. */
static void
parser_sumline(struct parser *ps, int totals, const char *s, const char *end)
{
	struct part	*pt = parser_part(ps);
	uint64_t	*c = ps->cost, v;
	unsigned	 col;
	int		 ev;

	if (!ps->have_events) {
		if (!totals) {
			free(ps->early_summary);
			ps->early_summary = xstrndup(s, end - s);
		}
		return;
	}
	cost_clear(c, profile_nevents(ps->p));
	for (col = 0; (s = num_skip_space(s, end)) < end; col++) {
		if (col == ps->ncols) {
			msg(MSG_TOO_MANY_COUNTS, ps->fname, ps->lineno,
			    "%u events", ps->ncols);
			break;
		}
		if (*s == '.' && (s + 1 == end || num_is_space(s[1]))) {
			s++;
			continue;
		}
		if (num_parse_u64(&s, end, &v) != NUM_OK || v == COST_NONE) {
			msg(MSG_BAD_SUMMARY, ps->fname, ps->lineno, NULL);
			return;
		}
		if ((ev = ps->colmap[col]) >= 0)
			c[ev] = v;
	}
	profile_part_set_costs(ps->p, totals ? &pt->totals : &pt->summary, c);
}

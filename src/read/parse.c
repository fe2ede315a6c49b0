/*
 * parse.c - reads Callgrind and Cachegrind profiles into the profile
 * model: the parser made and fed, its lines split and each sent by its
 * kind (cost lines to parse_fast.c or parse_cost.c, name lines to
 * parse_names.c, header lines to parse_header.c).  Lines are slices of
 * the buffer, numbers are parsed by hand, names are interned once and
 * then named by id, and nothing is allocated per cost line.  The parser's
 * state is in parser.h, shared by those files only.
 *
 * Bad lines give a warning and are skipped; only a file without an
 * events: line, or with cost data before it, is an error.
 */
#include "base/compat.h"

#include <string.h>

#include "base/msg.h"
#include "base/num.h"
#include "read/parse.h"
#include "read/parse_ahead.h"
#include "read/parser.h"

static void	parser_dispatch(struct parser *, const char *, size_t);
static void	parser_toolong(struct parser *);
static void	parser_held_free(struct parser *);
static int	parser_lines(void *, const struct profile *, uint32_t);

/* Return the current part. */
struct part *
parser_part(struct parser *ps)
{
	return profile_part_mut(ps->p, ps->part);
}

/* Make a parser that adds the profile read from fname to p. */
struct parser *
parser_create(struct profile *p, const char *fname,
    const struct parse_opts *o)
{
	struct parser	*ps;

	ps = xcalloc(1, sizeof(*ps));
	ps->p = p;
	ps->fname = fname;
	ps->fname_id = profile_intern(p, fname, strlen(fname));
	if (o != NULL && o->strip_prefix != NULL) {
		ps->strip = o->strip_prefix;
		ps->striplen = strlen(o->strip_prefix);
	}
	if (o != NULL) {
		ps->sel_part = o->part;
		ps->sel_thread = o->thread;
	}
	profile_new_part(p, ps->fname_id);
	ps->part = profile_nparts(p) - 1;
	ps->npos = 1;
	ps->pos_line = 0;
	ps->pos_instr = -1;
	ps->keep = o != NULL && o->instrs == PARSE_INSTRS_ALL;
	ps->sites = o != NULL && o->instrs == PARSE_INSTRS_SITES;
	if (ps->sites)
		profile_instrs_sites(p);
	ps->want_stacks = o != NULL && o->stacks;
	if (o != NULL && o->lines != NULL && !parser_minus(p)) {
		ps->lines = o->lines;
		ps->lines_arg = o->lines_arg;
		profile_set_lines(p, parser_lines, ps);
		profile_keep_calls(p, !o->drop_calls);
	}
	ps->ob = ps->fl = ps->fi = 0;
	ps->fn = ps->fn_name = NONE;
	ps->cob = ps->cfi = ps->cfn = NONE;
	return ps;
}

/*
 * Return nonzero if p has an event defined by a formula with a minus (a
 * profile read into it before): its lines are all kept apart, as the
 * event's value below 0 is told of its line.
 */
int
parser_minus(const struct profile *p)
{
	const struct event_def	*d;
	size_t			 i;

	for (i = 0; i < profile_nevent_defs(p); i++) {
		d = profile_event_def(p, i);
		if (d->formula != 0 &&
		    strchr(profile_str(p, d->formula), '-') != NULL)
			return 1;
	}
	return 0;
}

/* Return nonzero if ps sums the lines of some files (parse_opts' lines). */
int
parser_sums(const struct parser *ps)
{
	return ps->lines != NULL;
}

/*
 * Say whether the lines of file (a string id of p) are kept apart, as
 * the options say; a chunk's placeholder as parser_placeholder_lines()
 * says.
 */
static int
parser_lines(void *arg, const struct profile *p, uint32_t file)
{
	struct parser	*ps = arg;

	if (parser_is_placeholder(ps, file))
		return parser_placeholder_lines(ps, file);
	return ps->lines(ps->lines_arg, profile_str(p, file));
}

/*
 * Feed len bytes of input; complete lines are parsed at once, a
 * partial last line is kept for the next call.  Return -1 once a fatal
 * error has stopped the parse.
 */
int
parser_feed(struct parser *ps, const char *data, size_t len)
{
	int	rc;

	rc = parser_feed_lines(ps, data, len);
	parser_forget(ps);
	return rc;
}

/*
 * Parse the line kept in buf (parser_keep()), now whole: its bytes are
 * the file's from buf_off on.
 */
void
parser_kept_line(struct parser *ps)
{
	ps->lineno++;
	ps->text = ps->buf;
	ps->text_end = ps->buf + ps->len;
	ps->text_off = ps->buf_off;
	parser_line(ps, ps->buf, ps->len);
	ps->text = ps->text_end = NULL;
}

/* Append n bytes to the pending partial line, ending it with a newline. */
void
parser_keep(struct parser *ps, const char *s, size_t n)
{
	if (ps->len + n > PARSE_MAX_LINE) {
		parser_toolong(ps);
		return;
	}
	if (ps->len + n + 1 > ps->size) {
		ps->size = ps->len + n + 1 > 2 * ps->size ? ps->len + n + 1 :
		    2 * ps->size;
		ps->buf = xreallocarray(ps->buf, ps->size, 1);
	}
	memcpy(ps->buf + ps->len, s, n);
	ps->len += n;
	/* Every line handed on is followed by a non-digit byte. */
	ps->buf[ps->len] = '\n';
}

/*
 * Stop at a line longer than PARSE_MAX_LINE: a name of gigabytes would
 * be held, and interned, whole.
 */
static void
parser_toolong(struct parser *ps)
{
	if (!ps->fatal)
		msg(MSG_LONG_LINE, ps->fname, ps->lineno + (ps->len > 0),
		    "more than %u bytes, the limit", PARSE_MAX_LINE);
	ps->fatal = 1;
	ps->len = 0;
}

/*
 * Parse what is left (a last line without newline), check the file was
 * a profile, and free the parser.  Return 0, or -1 on a fatal error.
 */
int
parser_finish(struct parser *ps)
{
	int	rc;

	if (!ps->fatal && ps->len > 0)
		parser_kept_line(ps);
	if (!ps->fatal) {
		if (ps->call_pending || ps->jump_pending)
			msg(MSG_CALLS_NO_COST, ps->fname, ps->lineno,
			    "at end of file");
		if (ps->body_seen)
			parser_end_part(ps);
		if (!parser_not_profile(ps) && !ps->have_events) {
			msg(MSG_NO_EVENTS, ps->fname, 0, NULL);
			ps->fatal = 1;
		}
	}
	rc = ps->fatal ? -1 : 0;
	parser_discard(ps);
	return rc;
}

/*
 * Say that the bytes fed are those of file (from its offset 0, as
 * parser_seek() says), where long names may be left to be read back
 * (strtab_intern_at()); NULL, the default: they are not a file's.  The
 * caller keeps file until the parse is finished.
 */
void
parser_names_in(struct parser *ps, struct strsrc *file)
{
	ps->names_file = file;
}

/* Return the file of parser_names_in(), or NULL. */
struct strsrc *
parser_names_file(const struct parser *ps)
{
	return ps->names_file;
}

/* Parse a whole profile held in memory. */
int
parse_buffer(struct profile *p, const char *name, const char *buf, size_t len,
    const struct parse_opts *o)
{
	struct parser	*ps;

	ps = parser_create(p, name, o);
	parser_feed(ps, buf, len);
	return parser_finish(ps);
}

/*
 * The input could not be read to its end (the reader said why): what was
 * read is not checked further, and parser_finish() fails.
 */
void
parser_fail(struct parser *ps)
{
	ps->fatal = 1;
}

/* Return nonzero if ps stopped: an error, or a chunk's header line. */
int
parser_stopped(const struct parser *ps)
{
	return ps->fatal || ps->stop;
}

/* Take one line (without its newline) by its kind. */
void
parser_line(struct parser *ps, const char *s, size_t len)
{
	if (len > PARSE_MAX_LINE) {
		parser_toolong(ps);
		return;
	}
	parser_dispatch(ps, s, len);
	ps->fast = parser_fastok(ps);
}

/* Dispatch one line (without its newline). */
static void
parser_dispatch(struct parser *ps, const char *s, size_t len)
{
	const char	*end, *eq, *t;

	parser_forget(ps);
	if (len > 0 && s[len - 1] == '\r')
		len--;
	end = s + len;
	if (s == end) {
		ps->nstack = 0;		/* a blank line ends an xtree block */
		return;
	}
	/* Cost lines are the bulk of every file: test for them first. */
	if ((unsigned)(*s - '0') <= 9 || *s == '+' || *s == '-' ||
	    *s == '*') {
		parser_costline(ps, s, end, 1);
		return;
	}
	if (*s == '#')
		return;
	if (num_is_space(*s)) {
		if ((t = num_skip_space(s, end)) == end)
			return;
		/*
		 * pprof's writer (google-pprof, jeprof) prints a line it
		 * does not know as nothing: " 81920" is a count there.
		 */
		if ((unsigned)(*t - '0') <= 9) {
			parser_costline_unplaced(ps, t, end);
			return;
		}
	}
	/* Xdebug's profiler_append=1 puts this between runs. */
	if (*s == '=' && (size_t)(end - s) >= 23 &&
	    memcmp(s, "==== NEW PROFILING FILE", 23) == 0)
		return;
	if (memchr(s, '\0', (size_t)(end - s)) != NULL) {
		parser_unknown(ps, MSG_NUL_BYTE, NULL, 0);
		parser_drop_pending(ps);
		return;
	}
	for (eq = s; eq < end && *eq != '=' && *eq != ':' &&
	    !num_is_space(*eq); eq++)
		continue;
	if (eq < end && *eq == '=') {
		parser_nameline(ps, s, eq, end);
		return;
	}
	if (eq < end && *eq == ':') {
		if (ps->spec) {
			/* Header lines are left to the main thread. */
			ps->stop = 1;
			ps->lineno--;
			return;
		}
		parser_headerline(ps, s, eq, num_skip_space(eq + 1, end), end);
		return;
	}
	parser_drop_pending(ps);
	parser_unknown(ps, MSG_UNKNOWN_LINE, s, (size_t)(end - s));
}

/*
 * Say that the line is unknown (id MSG_UNKNOWN_LINE, the line s of len
 * bytes) or holds a NUL byte (MSG_NUL_BYTE): at once after a profile
 * line, else when one comes (parser_known()); if none comes before a
 * cost line or the end, the file is not a profile and only that is said.
 * As many of each kind are held as would be printed.
 */
void
parser_unknown(struct parser *ps, enum msgid id, const char *s, size_t len)
{
	struct heldmsg	*h;
	char		 ex[MSG_EXCERPT];
	size_t		*n = &ps->nheld_id[id == MSG_NUL_BYTE];

	if (ps->known) {
		if (s != NULL)
			msg(id, ps->fname, ps->lineno, "%s",
			    msg_excerpt(ex, sizeof(ex), s, (ptrdiff_t)len));
		else
			msg(id, ps->fname, ps->lineno, NULL);
		return;
	}
	if ((*n)++ >= MSG_CAP)
		return;
	ps->held = xreallocarray(ps->held, ps->nheld + 1, sizeof(*ps->held));
	h = &ps->held[ps->nheld++];
	h->id = id;
	h->line = ps->lineno;
	h->ex[0] = '\0';
	if (s != NULL)
		msg_excerpt(h->ex, sizeof(h->ex), s, (ptrdiff_t)len);
}

/* A profile line was read: say what was held about the lines before. */
void
parser_known(struct parser *ps)
{
	size_t	i, k;

	if (ps->known)
		return;
	ps->known = 1;
	for (i = 0; i < ps->nheld; i++)
		if (ps->held[i].ex[0] != '\0')
			msg(ps->held[i].id, ps->fname, ps->held[i].line, "%s",
			    ps->held[i].ex);
		else
			msg(ps->held[i].id, ps->fname, ps->held[i].line, NULL);
	/* Those beyond the cap are only counted, as msg() would. */
	for (k = 0; k < 2; k++)
		for (i = MSG_CAP; i < ps->nheld_id[k]; i++)
			msg(k ? MSG_NUL_BYTE : MSG_UNKNOWN_LINE, ps->fname,
			    0, NULL);
	parser_held_free(ps);
}

/* Forget the messages held (they were said, or will not be). */
static void
parser_held_free(struct parser *ps)
{
	free(ps->held);
	ps->held = NULL;
	ps->nheld = 0;
}

/*
 * If no profile line came before this cost line or the end, say that the
 * file is not a profile (and nothing of its lines), stop, return 1.
 */
int
parser_not_profile(struct parser *ps)
{
	if (ps->known)
		return 0;
	msg(MSG_NOT_PROFILE, ps->fname, 0, NULL);
	ps->fatal = 1;
	parser_held_free(ps);
	return 1;
}

/* A calls= or jump line not followed by its cost line: warn, forget it. */
void
parser_drop_pending(struct parser *ps)
{
	if (ps->call_pending || ps->jump_pending)
		msg(MSG_CALLS_NO_COST, ps->fname, ps->lineno, NULL);
	ps->call_pending = ps->jump_pending = 0;
	ps->cob = ps->cfi = NONE;
}

/* A body line was read: later header lines start a new part. */
void
parser_body_seen(struct parser *ps)
{
	struct part	*pt;
	const char	*t;

	if (!ps->body_seen) {
		ps->body_seen = 1;
		pt = parser_part(ps);
		pt->has_data = 1;
		t = profile_str(ps->p, pt->thread);
		ps->skipping = (ps->sel_part != NULL && strcmp(ps->sel_part,
		    profile_str(ps->p, pt->part)) != 0) ||
		    (ps->sel_thread != NULL && strcmp(ps->sel_thread,
		    *t != '\0' ? t : "1") != 0);
		pt->skipped = ps->skipping;
		ps->part_sum = NULL;
	}
}

/* A "key=value" line: position names, calls and jumps. */
void
parser_nameline(struct parser *ps, const char *s, const char *eq,
    const char *end)
{
	const char	*v = eq + 1;
	enum namekey	 key;
	uint32_t	 slot, name;

	if (ps->call_pending || ps->jump_pending)
		parser_drop_pending(ps);
	/*
	 * An unknown key is reported and starts no part: a stray line
	 * (Xdebug's "==== NEW PROFILING FILE") before the first costs.
	 */
	if ((key = parser_namekey(s, eq)) == NK_NONE) {
		parser_unknown(ps, MSG_UNKNOWN_LINE, s, (size_t)(eq - s + 1));
		return;
	}
	if (!ps->known)
		parser_known(ps);
	parser_body_seen(ps);
	switch (key) {
	case NK_FN:
	case NK_FL:
	case NK_FI:
	case NK_CFN:
	case NK_CFI:
	case NK_COB:
	case NK_OB:
		name = parser_name(ps, parser_keyspace(key), v, end, &slot);
		parser_setname(ps, key, name, slot);
		break;
	case NK_FRFN:
		/*
		 * --mangle-names=no: the caller of the functions that
		 * follow (their context).  Its compressed id may be used
		 * later; the costs go to the plain names, summed over
		 * contexts.
		 */
		(void)parser_name(ps, IDS_FN, v, end, &slot);
		break;
	case NK_CALLS:
		parser_calls(ps, v, end);
		break;
	case NK_CFNI:
		/* CodSpeed's fork: the inlined function here. */
		(void)parser_name(ps, IDS_FN, v, end, &slot);
		break;
	case NK_JUMP:
	case NK_JCND:
		parser_jump(ps, key == NK_JCND, v, end);
		break;
	case NK_JFI:
		(void)parser_name(ps, IDS_FL, v, end, &slot);
		break;
	case NK_JFN:
		(void)parser_name(ps, IDS_FN, v, end, &slot);
		break;
	case NK_SKIP:
	case NK_NONE:
		/*
		 * --mangle-names=no: rec=, the recursion level that
		 * follows; --dump-bbs=yes: bb=, a basic block's address
		 * and counts, and ln=, the line of costs that carry it
		 * themselves.
		 */
		break;
	}
}

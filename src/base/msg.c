/*
 * msg.c - diagnostics: "prog: file:line: level: message: detail" on
 * stderr, made visible (tvis.c) whole, a cap on repeated messages of one
 * kind, and the worst level seen as the exit status (after mandoc's
 * mandoc_msg.c).
 */
#include "base/compat.h"

#include <pthread.h>
#include <stdarg.h>
#include <time.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "base/tvis.h"

static const struct {
	enum msglevel	 level;
	const char	*text;
} msg_table[MSG__MAX] = {
	{ MSGL_WARNING, "unknown line, ignored" },
	{ MSGL_WARNING, "malformed cost line, ignored" },
	{ MSGL_WARNING, "more counts than events, extra counts ignored" },
	{ MSGL_WARNING, "negative count, taken as 0" },
	{ MSGL_WARNING, "number too large (above 2^64 - 2), line ignored" },
	{ MSGL_WARNING, "sum of costs overflows 64 bits, kept at the maximum" },
	{ MSGL_WARNING, "negative line number, taken as 0" },
	{ MSGL_WARNING, "relative position before any absolute one, "
	    "taken relative to 0" },
	{ MSGL_WARNING, "cost line before any fn= line, "
	    "attributed to function '?\?\?'" },
	{ MSGL_WARNING, "undefined compressed name id, name taken as "
	    "'?\?\?(ID)'" },
	{ MSGL_WARNING, "compressed name id redefined, new name used" },
	{ MSGL_WARNING, "malformed compressed name, taken literally" },
	{ MSGL_WARNING, "calls= line not followed by a cost line, call ignored" },
	{ MSGL_WARNING, "malformed calls= line, ignored" },
	{ MSGL_WARNING, "malformed jump= or jcnd= line, ignored" },
	{ MSGL_WARNING, "costs after a jump position, ignored" },
	{ MSGL_WARNING, "unknown, repeated or misplaced word in positions: "
	    "line, ignored" },
	{ MSGL_WARNING, "malformed event: line, ignored" },
	{ MSGL_WARNING, "events: line differs from the first one" },
	{ MSGL_WARNING, "malformed summary: or totals: line, ignored" },
	{ MSGL_WARNING, "malformed header value" },
	{ MSGL_WARNING, "NUL byte in line, line ignored" },
	{ MSGL_WARNING, "not a regular file, not annotated" },
	{ MSGL_WARNING, "summary: below, or totals: unlike, the sum of the "
	    "cost lines" },
	{ MSGL_ERROR, "not a Callgrind or Cachegrind profile" },
	{ MSGL_ERROR, "no events: line, not a profile" },
	{ MSGL_ERROR, "events: line names no event" },
	{ MSGL_ERROR, "events: line names an event twice, not a profile" },
	{ MSGL_ERROR, "cost data before the events: line" },
	{ MSGL_ERROR, "unsupported format version" },
	{ MSGL_ERROR, "too many events, not read" },
	{ MSGL_ERROR, "line too long, not read" },
	{ MSGL_ERROR, "events differ from the first profile's" },
	{ MSGL_ERROR, "derived event cannot be computed" },
	{ MSGL_ERROR, "derived event below 0" },
	{ MSGL_ERROR, "cannot open" },
	{ MSGL_ERROR, "read error" },
	{ MSGL_ERROR, "write error" },
	{ MSGL_ERROR, "too large to show" },
};

static void	msg_vput(const char *, const char *, const char *, va_list)
		    __attribute__((__format__(__printf__, 3, 0)));
static void	msg_put(const char *, const char *, ...)
		    __attribute__((__format__(__printf__, 2, 3)));

/* The progress line of a long read (msg_progress()). */
static struct {
	int		 on;		/* wanted (a terminal, not CI, ...) */
	double		 delay;		/* seconds before it shows */
	const char	*name;
	uint64_t	 total;		/* bytes, or 0 if not known */
	double		 start, last;
	int		 shown;
} msg_prog = { 0, 1.0, NULL, 0, 0, 0, 0 };

static double	msg_now(void);

static unsigned long	 msg_counts[MSG__MAX];
static enum msglevel	 msg_worst = MSGL_OK;
static int		 msg_quiet;
static _Thread_local unsigned *msg_diverted;

/* Messages held back (msg_hold()): their text, and what was before. */
static struct {
	int		 on;
	pthread_mutex_t	 lock;
	char		*text;
	size_t		 len;
	FILE		*f;
	unsigned long	 counts[MSG__MAX];
	enum msglevel	 worst;
} msg_held = { 0, PTHREAD_MUTEX_INITIALIZER, NULL, 0, NULL, { 0 },
    MSGL_OK };

/*
 * Return how a message is made visible: as on a terminal even when
 * stderr is not one (a log read later on one), printable UTF-8 kept
 * where stderr is a UTF-8 terminal.
 */
static enum tvis_mode
msg_tvis(void)
{
	static int	mode = -1;

	if (mode == -1)
		mode = tvis_mode_of(STDERR_FILENO) == TVIS_UTF8 ?
		    TVIS_UTF8 : TVIS_ASCII;
	return (enum tvis_mode)mode;
}

/*
 * Print "prog: ", pre and the text of fmt on stderr, made visible
 * (tvis.c), then eol: the names a profile puts into a message (files,
 * functions, events, excerpts of lines) may hold escape sequences, and
 * stderr is often the terminal even when the report goes to a pager.
 */
static void
msg_vput(const char *eol, const char *pre, const char *fmt, va_list ap)
{
	char	*text = NULL, *vis;
	size_t	 len = 0;
	FILE	*f;

	if ((f = open_memstream(&text, &len)) == NULL)
		return;
	fputs(pre, f);
	if (fmt != NULL)
		vfprintf(f, fmt, ap);
	if (fclose(f) != 0) {
		free(text);
		return;
	}
	if ((vis = malloc(tvis_size(len))) != NULL) {
		tvis_encode(vis, text, len, msg_tvis(), TVIS_NAME);
		pthread_mutex_lock(&msg_held.lock);
		fprintf(msg_held.on && msg_held.f != NULL ? msg_held.f :
		    stderr, "%s: %s%s", getprogname(), vis, eol);
		pthread_mutex_unlock(&msg_held.lock);
		free(vis);
	}
	free(text);
}

/*
 * Hold the messages back from now on, printing none, until
 * msg_release() prints them or drops them as if never made (a read or
 * a report that may be done again).
 */
void
msg_hold(void)
{
	pthread_mutex_lock(&msg_held.lock);
	if (!msg_held.on) {
		msg_held.on = 1;
		msg_held.f = open_memstream(&msg_held.text, &msg_held.len);
		memcpy(msg_held.counts, msg_counts, sizeof(msg_counts));
		msg_held.worst = msg_worst;
	}
	pthread_mutex_unlock(&msg_held.lock);
}

/*
 * Stop holding messages back: print those held if print is set, else
 * drop them, their counts and levels too.
 */
void
msg_release(int print)
{
	pthread_mutex_lock(&msg_held.lock);
	if (msg_held.on) {
		msg_held.on = 0;
		if (msg_held.f != NULL && fclose(msg_held.f) == 0 && print)
			fwrite(msg_held.text, 1, msg_held.len, stderr);
		msg_held.f = NULL;
		free(msg_held.text);
		msg_held.text = NULL;
		msg_held.len = 0;
		if (!print) {
			memcpy(msg_counts, msg_held.counts,
			    sizeof(msg_counts));
			msg_worst = msg_held.worst;
		}
	}
	pthread_mutex_unlock(&msg_held.lock);
}

/* msg_vput() with arguments and no prefix. */
static void
msg_put(const char *eol, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	msg_vput(eol, "", fmt, ap);
	va_end(ap);
}

/* Print one diagnostic; file may be NULL, line 0 means no line. */
void
msg(enum msgid id, const char *file, uint64_t line, const char *fmt, ...)
{
	va_list	 ap;
	char	*pre = NULL;
	size_t	 len = 0;
	FILE	*f;

	if (msg_diverted != NULL) {
		(*msg_diverted)++;
		return;
	}
	if (msg_table[id].level > msg_worst)
		msg_worst = msg_table[id].level;
	if (++msg_counts[id] > MSG_CAP || msg_quiet)
		return;
	if ((f = open_memstream(&pre, &len)) == NULL)
		return;
	if (file != NULL && line > 0)
		fprintf(f, "%s:%llu: ", file, (unsigned long long)line);
	else if (file != NULL)
		fprintf(f, "%s: ", file);
	fprintf(f, "%s: %s%s", msg_table[id].level == MSGL_WARNING ?
	    "warning" : "error", msg_table[id].text, fmt != NULL ? ": " : "");
	if (fclose(f) == 0) {
		va_start(ap, fmt);
		msg_vput("\n", pre, fmt, ap);
		va_end(ap);
	}
	free(pre);
}

/*
 * Say something that is neither a warning nor an error (which file was
 * read, which limit was exceeded); the exit status does not change.
 */
void
msg_note(const char *fmt, ...)
{
	va_list	ap;

	if (msg_diverted != NULL || msg_quiet)
		return;
	va_start(ap, fmt);
	msg_vput("\n", "", fmt, ap);
	va_end(ap);
}

/* Report a bad command line; the exit status becomes 2. */
void
msg_usage_error(const char *fmt, ...)
{
	va_list	 ap;

	msg_worst = MSGL_USAGE;
	if (msg_quiet)
		return;
	va_start(ap, fmt);
	msg_vput("\n", "", fmt, ap);
	va_end(ap);
}

/* Say how many messages of each kind the cap held back. */
void
msg_flush(void)
{
	int	 id;

	for (id = 0; id < MSG__MAX; id++) {
		if (msg_counts[id] <= MSG_CAP || msg_quiet)
			continue;
		msg_put("\n", "%s: %lu more suppressed", msg_table[id].text,
		    msg_counts[id] - MSG_CAP);
		msg_counts[id] = MSG_CAP;
	}
	fflush(stderr);
}

/* Return the exit status the worst message so far calls for. */
int
msg_rc(void)
{
	return (int)msg_worst;
}

/* Forget all counts and levels (for tests and the fuzzer). */
void
msg_reset(void)
{
	int	 id;

	for (id = 0; id < MSG__MAX; id++)
		msg_counts[id] = 0;
	msg_worst = MSGL_OK;
}

/* Count messages without printing them (for tests and the fuzzer). */
void
msg_set_quiet(int quiet)
{
	msg_quiet = quiet;
}

/* Set whether messages are only counted; return the old setting. */
int
msg_quiet_set(int quiet)
{
	int	old = msg_quiet;

	msg_quiet = quiet;
	return old;
}

/* Return how many messages of one kind were issued. */
unsigned long
msg_count(enum msgid id)
{
	return msg_counts[id];
}

/* Return the fixed text of a message kind. */
const char *
msg_text(enum msgid id)
{
	return msg_table[id].text;
}

/*
 * Write into buf (of size bytes, at least MSG_EXCERPT) the first 60
 * bytes of s (msg() makes them visible); "..." marks a cut, and a NUL
 * byte ends the excerpt.  Return buf.
 */
const char *
msg_excerpt(char *buf, size_t size, const char *s, size_t len)
{
	size_t	n = len > 60 ? 60 : len;

	if (size < MSG_EXCERPT) {
		buf[0] = '\0';
		return buf;
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (n < len)
		strlcat(buf, "...", size);
	return buf;
}

/*
 * Count the messages of the calling thread in *count instead of printing
 * them or changing the exit status (a reader working ahead that may have
 * to be redone); NULL restores printing.
 */
void
msg_divert(unsigned *count)
{
	msg_diverted = count;
}

/* Return a monotonic time in seconds. */
static double
msg_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Let long reads show a progress line on stderr after delay seconds
 * (main() allows it only when stderr is a terminal, not in CI, and not
 * for JSON output).
 */
void
msg_progress_enable(int on, double delay)
{
	msg_prog.on = on;
	msg_prog.delay = delay;
}

/* A read of total bytes (0: not known) of file name starts. */
void
msg_progress_begin(const char *name, uint64_t total)
{
	if (!msg_prog.on)
		return;
	msg_prog.name = name;
	msg_prog.total = total;
	msg_prog.start = msg_prog.last = msg_now();
	msg_prog.shown = 0;
}

/*
 * done bytes of the read have been taken: once the read has lasted the
 * delay, show how far it is and how fast, at most ten times a second.
 */
void
msg_progress(uint64_t done)
{
	double	 now, mb = (double)done / 1e6;

	if (!msg_prog.on || msg_prog.name == NULL)
		return;
	now = msg_now();
	if (now - msg_prog.start < msg_prog.delay ||
	    (msg_prog.shown && now - msg_prog.last < 0.1))
		return;
	msg_prog.last = now;
	/* The line is rewritten in place: carriage return, erase. */
	fputs("\r\033[K", stderr);
	if (msg_prog.total > 0)
		msg_put("", "reading %s: %.0f of %.0f MB (%.0f%%), %.0f MB/s",
		    msg_prog.name, mb, (double)msg_prog.total / 1e6, 100.0 *
		    (double)done / (double)msg_prog.total,
		    mb / (now - msg_prog.start));
	else
		msg_put("", "reading %s: %.0f MB, %.0f MB/s", msg_prog.name,
		    mb, mb / (now - msg_prog.start));
	fflush(stderr);
	msg_prog.shown = 1;
}

/* The read is over: erase the progress line if one was shown. */
void
msg_progress_end(void)
{
	if (msg_prog.shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	msg_prog.name = NULL;
	msg_prog.shown = 0;
}

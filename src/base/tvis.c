/*
 * tvis.c - the one rule for what of a file that is not ours reaches a
 * terminal.  On a terminal, a byte is written as it is only when it is
 * printable ASCII, or part of a printable UTF-8 character on a UTF-8
 * terminal; every other byte is written as a C escape, as vis(3) writes
 * it (\033, \t, \\, \302\233): C0 controls, DEL, the C1 controls
 * U+0080-U+009F, the bidirectional controls (U+061C, U+200E, U+200F,
 * U+202A-U+202E, U+2066-U+2069), the line and paragraph separators
 * U+2028 and U+2029, non-characters, and bytes that are not UTF-8.
 * Text (source lines, objdump's text) keeps its tabs, its backslashes
 * and its lines' ends (a newline, or a carriage return before one); a
 * line drawn on a screen keeps tabs and backslashes; a name escapes them
 * all, so that its escapes read one way only.  Not on a terminal, every
 * byte goes as it is.
 */
#define _GNU_SOURCE	/* fopencookie() */
#include "base/compat.h"

#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/tvis.h"
#include "base/utf8.h"
#include "base/xmalloc.h"

static int	tvis_printable(unsigned);
static int	tvis_locale_utf8(void);

/*
 * Return nonzero if the locale of the environment (LC_ALL, LC_CTYPE or
 * LANG, the first set) names UTF-8, as a terminal's usually does.  The
 * program itself keeps the C locale.
 */
static int
tvis_locale_utf8(void)
{
	static const char *const vars[] = { "LC_ALL", "LC_CTYPE", "LANG" };
	const char	*v, *dot;
	size_t		 i;

	for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		if ((v = getenv(vars[i])) == NULL || *v == '\0')
			continue;
		if ((dot = strchr(v, '.')) == NULL)
			return 0;
		return strncasecmp(dot + 1, "UTF-8", 5) == 0 ||
		    strncasecmp(dot + 1, "utf8", 4) == 0;
	}
	return 0;
}

/* Return the mode for bytes written to descriptor fd. */
enum tvis_mode
tvis_mode_of(int fd)
{
	if (!isatty(fd))
		return TVIS_RAW;
	return tvis_locale_utf8() ? TVIS_UTF8 : TVIS_ASCII;
}

/* Return the size of a buffer that holds len bytes encoded, and a NUL. */
size_t
tvis_size(size_t len)
{
	return 4 * len + 1;
}

/* Return nonzero if a terminal may be given the character cp as it is. */
static int
tvis_printable(unsigned cp)
{
	if (cp < 0xa0)				/* C1 controls */
		return 0;
	if (cp == 0x61c || cp == 0x200e || cp == 0x200f ||
	    (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069))
		return 0;			/* separators, bidi */
	return !utf8_nonchar(cp);
}

/*
 * Write the len bytes at s into dst (tvis_size(len) bytes) as the rule
 * says for mode and kind; NUL-terminate it and return its length.
 */
size_t
tvis_encode(char *dst, const char *s, size_t len, enum tvis_mode mode,
    enum tvis_kind kind)
{
	static const char	 cesc[] = "\a\b\t\n\v\f\r", cname[] = "abtnvfr";
	const unsigned char	*p = (const unsigned char *)s;
	const char		*e;
	char			*d = dst;
	unsigned		 cp;
	size_t			 i;
	int			 n;

	if (mode == TVIS_RAW) {
		memcpy(dst, s, len);
		dst[len] = '\0';
		return len;
	}
	for (i = 0; i < len; i++) {
		unsigned c = p[i];

		if (c >= 0x20 && c < 0x7f && c != '\\') {
			*d++ = (char)c;
			continue;
		}
		if (kind != TVIS_NAME && (c == '\t' || c == '\\' ||
		    (kind == TVIS_TEXT && (c == '\n' || (c == '\r' &&
		    i + 1 < len && p[i + 1] == '\n'))))) {
			*d++ = (char)c;
			continue;
		}
		if (c >= 0x80 && mode == TVIS_UTF8 &&
		    (n = utf8_decode(p + i, len - i, &cp)) > 0 &&
		    tvis_printable(cp)) {
			memcpy(d, p + i, (size_t)n);
			d += n;
			i += (size_t)n - 1;
			continue;
		}
		*d++ = '\\';
		if (c == '\\')
			*d++ = '\\';
		else if (c != 0 && (e = memchr(cesc, (int)c, 7)) != NULL)
			*d++ = cname[e - cesc];
		else if (c == 0 && !(i + 1 < len && p[i + 1] >= '0' &&
		    p[i + 1] <= '7'))
			*d++ = '0';
		else {
			*d++ = (char)('0' + (c >> 6));
			*d++ = (char)('0' + ((c >> 3) & 7));
			*d++ = (char)('0' + (c & 7));
		}
	}
	*d = '\0';
	return (size_t)(d - dst);
}

/*
 * Write the len bytes at s to out as tvis_encode() encodes them.  If
 * more says that the bytes go on in a later call, the end of s that
 * could be the start of a character or of a line's end is left for
 * then; return the number of bytes written from s.
 */
size_t
tvis_write(FILE *out, const char *s, size_t len, int more,
    enum tvis_mode mode, enum tvis_kind kind)
{
	const unsigned char	*p = (const unsigned char *)s;
	char			 buf[4 * 256 + 1];
	size_t			 n = len, k, chunk;
	unsigned		 cp;

	if (mode == TVIS_RAW) {
		fwrite(s, 1, len, out);
		return len;
	}
	if (more) {
		/* A character cut short, or a carriage return or NUL. */
		for (k = n > 3 ? n - 3 : 0; k < n; k++)
			if (p[k] >= 0xc0 && utf8_decode(p + k, n - k, &cp) < 0) {
				n = k;
				break;
			}
		if (n > 0 && (p[n - 1] == '\r' || p[n - 1] == '\0'))
			n--;
	}
	/* In pieces that cut no character: a line may be any length. */
	for (k = 0; k < n; k += chunk) {
		chunk = n - k < 256 ? n - k : 256;
		while (k + chunk < n && (p[k + chunk] & 0xc0) == 0x80 &&
		    chunk > 252)
			chunk--;
		if (k + chunk < n && (p[k + chunk - 1] == '\r' ||
		    p[k + chunk - 1] == '\0'))
			chunk--;
		fwrite(buf, 1, tvis_encode(buf, s + k, chunk, mode, kind), out);
	}
	return n;
}

/* A stream that writes to another as the rule says (tvis_fopen()). */
struct tvis_stream {
	FILE		*under;
	enum tvis_mode	 mode;
	char		 carry[4];	/* the cut end of the last write */
	size_t		 ncarry;
};

/* Write size bytes of buf through the rule; return size, or -1. */
static ssize_t
tvis_stream_write(void *cookie, const char *buf, size_t size)
{
	struct tvis_stream	*t = cookie;
	char			 join[sizeof(t->carry) + 8];
	size_t			 n, w, from = 0;

	if (t->ncarry > 0) {
		/* The cut end first, with what follows it. */
		n = size < 8 ? size : 8;
		memcpy(join, t->carry, t->ncarry);
		memcpy(join + t->ncarry, buf, n);
		w = tvis_write(t->under, join, t->ncarry + n, 1, t->mode,
		    TVIS_TEXT);
		if (w < t->ncarry) {
			memmove(t->carry, join + w, t->ncarry + n - w);
			t->ncarry += n - w;
			return ferror(t->under) ? -1 : (ssize_t)size;
		}
		from = w - t->ncarry;
		t->ncarry = 0;
	}
	w = tvis_write(t->under, buf + from, size - from, 1, t->mode,
	    TVIS_TEXT);
	t->ncarry = size - from - w;
	memcpy(t->carry, buf + from + w, t->ncarry);
	return ferror(t->under) ? -1 : (ssize_t)size;
}

/* Write what is held back, flush the stream under and free t. */
static int
tvis_stream_close(void *cookie)
{
	struct tvis_stream	*t = cookie;
	int			 rc;

	tvis_write(t->under, t->carry, t->ncarry, 0, t->mode, TVIS_TEXT);
	rc = fflush(t->under) != 0 || ferror(t->under) ? -1 : 0;
	free(t);
	return rc;
}

/*
 * Return a stream whose bytes go to under as text by the rule for mode:
 * a report of any format on a terminal.  Closing it flushes under but
 * leaves it open.
 */
FILE *
tvis_fopen(FILE *under, enum tvis_mode mode)
{
	static const cookie_io_functions_t io = {
		.write = tvis_stream_write,
		.close = tvis_stream_close
	};
	struct tvis_stream	*t;
	FILE			*f;

	t = xcalloc(1, sizeof(*t));
	t->under = under;
	t->mode = mode;
	if ((f = fopencookie(t, "w", io)) == NULL)
		err(1, "fopencookie");
	return f;
}

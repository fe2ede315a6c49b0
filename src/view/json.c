/*
 * json.c - writes JSON as it goes, two spaces of indent per level, but
 * for arrays of numbers asked to be flat, on one line.
 * Strings may hold any bytes: control characters become \u escapes and
 * bytes that are not valid UTF-8 become U+FFFD, so the output is always
 * valid JSON; integers are written exactly, never as floats.
 */
#include "base/compat.h"

#include <string.h>

#include "base/ascii.h"
#include "base/utf8.h"
#include "view/json.h"

static void	json_item(struct json *);
static void	json_indent(struct json *, int);
static void	json_digits(struct json *, uint64_t);

/* Start a document on out. */
void
json_init(struct json *j, FILE *out)
{
	memset(j, 0, sizeof(*j));
	j->out = out;
}

/* Write a new line and the indent of depth d. */
static void
json_indent(struct json *j, int d)
{
	static const char	sp[] = "                                "
				    "                                ";
	int			n, k;

	fputc('\n', j->out);
	for (n = 2 * d; n > 0; n -= k) {
		k = n < (int)sizeof(sp) - 1 ? n : (int)sizeof(sp) - 1;
		fwrite(sp, 1, (size_t)k, j->out);
	}
}

/* Write the digits of v (no printf: JSON of machine code is GBs). */
static void
json_digits(struct json *j, uint64_t v)
{
	char	buf[24], *p = buf + sizeof(buf);

	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	fwrite(p, 1, (size_t)(buf + sizeof(buf) - p), j->out);
}

/* Before a value: a comma and a new line, unless it follows a key. */
static void
json_item(struct json *j)
{
	if (j->keyed) {
		j->keyed = 0;
		return;
	}
	if (j->flat > 0 && j->depth >= j->flat) {
		if (j->count[j->depth]++ > 0)
			fputc(',', j->out);
		return;
	}
	if (j->depth > 0) {
		if (j->count[j->depth] > 0)
			fputc(',', j->out);
		json_indent(j, j->depth);
	}
	j->count[j->depth]++;
}

/* Open an object ('{') or an array ('['). */
void
json_open(struct json *j, int c)
{
	json_item(j);
	fputc(c, j->out);
	if (j->depth + 1 < JSON_DEPTH)
		j->depth++;
	j->count[j->depth] = 0;
}

/* Open an array whose items follow each other on one line. */
void
json_open_flat(struct json *j)
{
	json_open(j, '[');
	if (j->flat == 0)
		j->flat = j->depth;
}

/* Close the object ('}') or array (']') open at this depth. */
void
json_close(struct json *j, int c)
{
	int	had = j->count[j->depth], flat = j->flat > 0 &&
		    j->depth >= j->flat;

	if (j->flat == j->depth)
		j->flat = 0;
	if (j->depth > 0)
		j->depth--;
	if (had > 0 && !flat)
		json_indent(j, j->depth);
	fputc(c, j->out);
}

/* Write a signed integer exactly, whatever its size. */
void
json_snum(struct json *j, struct snum v)
{
	json_item(j);
	if (v.neg)
		fputc('-', j->out);
	json_digits(j, v.mag);
}

/* Write a string value, escaped; runs that need none in one write. */
void
json_str(struct json *j, const char *str)
{
	const unsigned char	*s = (const unsigned char *)str, *run, *end;
	size_t			 n;

	json_item(j);
	fputc('"', j->out);
	end = s + strlen(str);
	for (run = s; s < end; ) {
		/* What needs no escape, a word at a time (long names). */
		if ((s += ascii_run((const char *)s, (size_t)(end - s), '"',
		    '\\')) == end)
			break;
		if (*s >= 0x80 && (n = utf8_len(s)) > 0) {
			s += n;
			continue;
		}
		fwrite(run, 1, (size_t)(s - run), j->out);
		if (*s == '"' || *s == '\\') {
			fputc('\\', j->out);
			fputc(*s++, j->out);
		} else if (*s < 0x20 || *s == 0x7f)
			fprintf(j->out, "\\u%04x", *s++);
		else {
			fputs("\\ufffd", j->out);
			s++;
		}
		run = s;
	}
	fwrite(run, 1, (size_t)(s - run), j->out);
	fputc('"', j->out);
}

/* Write an object key; its value follows. */
void
json_key(struct json *j, const char *key)
{
	json_str(j, key);
	fputs(": ", j->out);
	j->keyed = 1;
}

/* Write an unsigned integer. */
void
json_u64(struct json *j, uint64_t v)
{
	json_item(j);
	json_digits(j, v);
}

/*
 * Write a flat array of numbers already written, separated by commas,
 * in text (len bytes): a profile's stacks are millions, each the stack
 * above it and one more number.
 */
void
json_numbers(struct json *j, const char *text, size_t len)
{
	json_item(j);
	fputc('[', j->out);
	fwrite(text, 1, len, j->out);
	fputc(']', j->out);
}

/* Write true or false. */
void
json_bool(struct json *j, int v)
{
	json_item(j);
	fputs(v ? "true" : "false", j->out);
}

/* Write null. */
void
json_null(struct json *j)
{
	json_item(j);
	fputs("null", j->out);
}

/* End the document with a new line. */
void
json_end(struct json *j)
{
	fputc('\n', j->out);
}

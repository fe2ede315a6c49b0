/*
 * utf8.h - telling valid UTF-8 from other bytes, for the views that
 * write text a reader will decode (JSON, Markdown).  Inline: JSON asks
 * it of every byte of every name.
 */
#ifndef CGA_UTF8_H
#define CGA_UTF8_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/*
 * Decode the sequence of more than one byte at s (avail bytes there)
 * into *cp; return its length, 0 if the bytes are not one (overlong
 * forms, surrogates, above U+10FFFF, a byte below 0x80), or -1 if they
 * begin one that avail cuts.
 */
static inline int
utf8_decode(const unsigned char *s, size_t avail, unsigned *cp)
{
	unsigned	c = s[0];
	size_t		n, i;

	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	*cp = c & (0xff >> (n + 1));
	for (i = 1; i < n; i++) {
		if (i == avail)
			return -1;
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && *cp < 0x800) || (n == 4 && (*cp < 0x10000 ||
	    *cp > 0x10ffff)) || (*cp >= 0xd800 && *cp <= 0xdfff))
		return 0;
	return (int)n;
}

/*
 * Return nonzero if cp is a non-character: U+FDD0-U+FDEF, U+FFFE,
 * U+FFFF and their like in every plane.
 */
static inline int
utf8_nonchar(unsigned cp)
{
	return (cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) == 0xfffe;
}

/*
 * Return the length of the valid UTF-8 sequence at s (a NUL-terminated
 * string), or 0 if the bytes there are not one, nor, unless nonchars is
 * set, a character (see utf8_char()).
 */
static inline size_t
utf8_seq(const unsigned char *s, int nonchars)
{
	unsigned	cp;
	int		n;

	if (s[0] < 0x80)
		return 1;
	/* A NUL is no continuation byte: the string's end stops it. */
	if ((n = utf8_decode(s, SIZE_MAX, &cp)) <= 0 ||
	    (!nonchars && utf8_nonchar(cp)))
		return 0;
	return (size_t)n;
}

/*
 * Return the length of the valid UTF-8 sequence at s (a NUL-terminated
 * string), or 0 if the bytes there are not one: overlong forms,
 * surrogates and code points above U+10FFFF are not.
 */
static inline size_t
utf8_len(const unsigned char *s)
{
	return utf8_seq(s, 1);
}

/*
 * Return the length of the character at s as utf8_len() does, or 0 if
 * it is a non-character (utf8_nonchar()), which XML and Graphviz
 * refuse.
 */
static inline size_t
utf8_char(const unsigned char *s)
{
	return utf8_seq(s, 0);
}

/*
 * Write the len bytes at s (no NUL among them) as XML character data
 * (SVG, Graphviz's HTML-like labels): &, <, > and " as entities, control
 * bytes, bytes that are not UTF-8 and non-characters as U+FFFD.
 */
static inline void
utf8_xmln(FILE *out, const char *s, size_t len)
{
	const unsigned char	*p = (const unsigned char *)s;
	const unsigned char	*end = p + len;
	size_t			 n;

	while (p < end) {
		if (*p == '&')
			fputs("&amp;", out);
		else if (*p == '<')
			fputs("&lt;", out);
		else if (*p == '>')
			fputs("&gt;", out);
		else if (*p == '"')
			fputs("&quot;", out);
		else if (*p < 0x20 || *p == 0x7f || (n = utf8_char(p)) == 0 ||
		    n > (size_t)(end - p))
			fputs("&#xFFFD;", out);
		else {
			fwrite(p, 1, n, out);
			p += n;
			continue;
		}
		p++;
	}
}

/* Write the string s as XML character data, as utf8_xmln() does. */
static inline void
utf8_xml(FILE *out, const char *s)
{
	utf8_xmln(out, s, strlen(s));
}

#endif /* CGA_UTF8_H */

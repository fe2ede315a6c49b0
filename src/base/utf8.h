/*
 * utf8.h - telling valid UTF-8 from other bytes, for the views that
 * write text a reader will decode (JSON, Markdown).  Inline: JSON asks
 * it of every byte of every name.
 */
#ifndef CGA_UTF8_H
#define CGA_UTF8_H

#include <stddef.h>
#include <stdio.h>

/*
 * Return the length of the valid UTF-8 sequence at s (a NUL-terminated
 * string), or 0 if the bytes there are not one: overlong forms,
 * surrogates and code points above U+10FFFF are not.
 */
static inline size_t
utf8_len(const unsigned char *s)
{
	unsigned	c = s[0], cp;
	size_t		n, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	cp = c & (0xff >> (n + 1));
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 ||
	    cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/*
 * Write s as XML character data (SVG, Graphviz's HTML-like labels):
 * &, <, > and " as entities, control bytes and bytes that are not UTF-8
 * as U+FFFD.
 */
static inline void
utf8_xml(FILE *out, const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 n;

	while (*p != '\0') {
		if (*p == '&')
			fputs("&amp;", out);
		else if (*p == '<')
			fputs("&lt;", out);
		else if (*p == '>')
			fputs("&gt;", out);
		else if (*p == '"')
			fputs("&quot;", out);
		else if (*p < 0x20 || *p == 0x7f || (n = utf8_len(p)) == 0)
			fputs("&#xFFFD;", out);
		else {
			fwrite(p, 1, n, out);
			p += n;
			continue;
		}
		p++;
	}
}

#endif /* CGA_UTF8_H */

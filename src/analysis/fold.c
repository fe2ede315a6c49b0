/*
 * fold.c - folding callgrind's suffixes of function names.  Callgrind
 * names a recursion level and a caller context by appending to the
 * function's name, without quoting: "'N" (N >= 2) for the level, then
 * "'CALLER" for each caller, nearest first.  A name's own quotes (a
 * Rust lifetime "&'a str", a char in a template argument) are inside
 * brackets, where no suffix can be: the first quote outside every
 * bracket ends the function's name.
 */
#include "base/compat.h"

#include <string.h>

#include "analysis/fold.h"

static size_t	fold_base(const char *, size_t);

/*
 * Return the length of the function's own name at the front of s (len
 * bytes): up to the first quote outside brackets, "operator<" and its
 * kin not taken for brackets.  A name without a quote is all its own,
 * found at memchr()'s speed (most names; a large C++ program's are
 * kilobytes each).
 */
static size_t
fold_base(const char *s, size_t len)
{
	static const char	 ops[] = "<>=!+-*/%^&|~,";
	size_t			 i, depth = 0;

	if (memchr(s, '\'', len) == NULL)
		return len;
	for (i = 0; i < len; i++) {
		switch (s[i]) {
		case '\'':
			if (depth == 0)
				return i;
			break;
		case '(': case '<': case '[': case '{':
			depth++;
			break;
		case ')': case ']': case '}':
			if (depth > 0)
				depth--;
			break;
		case '>':
			/* "->" is no bracket. */
			if (depth > 0 && (i == 0 || s[i - 1] != '-'))
				depth--;
			break;
		case 'o':
			if (i + 8 > len || memcmp(s + i, "operator", 8) != 0 ||
			    (i > 0 && (s[i - 1] == '_' ||
			    (s[i - 1] >= '0' && s[i - 1] <= '9') ||
			    ((s[i - 1] | 0x20) >= 'a' && (s[i - 1] | 0x20) <= 'z'))))
				break;
			/* The operator's symbol: "()", "[]" or a run. */
			i += 8;
			if (i + 1 < len && ((s[i] == '(' && s[i + 1] == ')') ||
			    (s[i] == '[' && s[i + 1] == ']')))
				i += 2;
			else
				while (i < len && strchr(ops, s[i]) != NULL &&
				    s[i] != '\0')
					i++;
			i--;
			break;
		}
	}
	return len;
}

/*
 * Write name (len bytes) to out (at least len bytes) with the suffixes
 * folded away that how (FOLD_* bits) asks: the recursion level, the
 * caller contexts or both; return the length written.
 */
size_t
fold_name(const char *name, size_t len, int how, char *out)
{
	size_t	base, rec, n;

	base = fold_base(name, len);
	/* The level: "'" and digits, then the end or a context. */
	for (rec = base + 1; rec < len && name[rec] >= '0' && name[rec] <= '9';
	    rec++)
		continue;
	if (base >= len || rec == base + 1 || (rec < len && name[rec] != '\''))
		rec = base;
	memcpy(out, name, base);
	n = base;
	if (!(how & FOLD_RECURSION)) {
		memcpy(out + n, name + base, rec - base);
		n += rec - base;
	}
	if (!(how & FOLD_CONTEXTS)) {
		memcpy(out + n, name + rec, len - rec);
		n += len - rec;
	}
	return n;
}

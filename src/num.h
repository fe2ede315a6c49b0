/*
 * num.h - hand-rolled parsing of the profile format's numbers: decimal
 * or 0x-hexadecimal 64-bit counts, and subpositions (N, +N, -N, *).
 */
#ifndef CGA_NUM_H
#define CGA_NUM_H

#include <stdint.h>

enum num_result {
	NUM_OK = 0,
	NUM_NONE = -1,		/* no number here */
	NUM_OVERFLOW = -2	/* more than 64 bits */
};

/* Subposition kinds. */
enum subpos_kind {
	SUBPOS_ABS,		/* N */
	SUBPOS_PLUS,		/* +N */
	SUBPOS_MINUS,		/* -N */
	SUBPOS_SAME		/* * */
};

/* Return nonzero for the two field separators of the format. */
static inline int
num_is_space(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Parse a decimal or 0x-hex number at *pp (before end) into *v and
 * advance *pp past it.  The number must end at end or a separator.
 */
static inline enum num_result
num_parse_u64(const char **pp, const char *end, uint64_t *v)
{
	const char	*p = *pp;
	uint64_t	 n = 0;
	unsigned	 d;
	int		 over = 0;

	if (p == end || (unsigned)(*p - '0') > 9)
		return NUM_NONE;
	if (*p == '0' && end - p > 2 && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		if (p == end)
			return NUM_NONE;
		for (; p < end; p++) {
			if ((d = (unsigned)(*p - '0')) <= 9)
				;
			else if ((d = (unsigned)((*p | 0x20) - 'a')) <= 5)
				d += 10;
			else
				break;
			if (n >> 60)
				over = 1;
			n = n << 4 | d;
		}
		if (p == *pp + 2)
			return NUM_NONE;
	} else {
		for (; p < end && (d = (unsigned)(*p - '0')) <= 9; p++) {
			if (__builtin_mul_overflow(n, 10, &n) ||
			    __builtin_add_overflow(n, d, &n))
				over = 1;
		}
	}
	if (p < end && !num_is_space(*p))
		return NUM_NONE;
	*pp = p;
	if (over)
		return NUM_OVERFLOW;
	*v = n;
	return NUM_OK;
}

/* Parse one subposition at *pp into *kind and *v. */
static inline enum num_result
num_parse_subpos(const char **pp, const char *end, enum subpos_kind *kind,
    uint64_t *v)
{
	const char	*p = *pp;
	enum num_result	 r;

	if (p == end)
		return NUM_NONE;
	switch (*p) {
	case '*':
		if (p + 1 < end && !num_is_space(p[1]))
			return NUM_NONE;
		*kind = SUBPOS_SAME;
		*v = 0;
		*pp = p + 1;
		return NUM_OK;
	case '+':
		*kind = SUBPOS_PLUS;
		p++;
		break;
	case '-':
		*kind = SUBPOS_MINUS;
		p++;
		break;
	default:
		*kind = SUBPOS_ABS;
		break;
	}
	if ((r = num_parse_u64(&p, end, v)) == NUM_NONE)
		return r;
	*pp = p;
	return r;
}

/* Skip separators at *pp. */
static inline const char *
num_skip_space(const char *p, const char *end)
{
	while (p < end && num_is_space(*p))
		p++;
	return p;
}

#endif /* CGA_NUM_H */

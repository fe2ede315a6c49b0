/*
 * num.h - hand-rolled numbers: parsing the profile format's decimal
 * or 0x-hexadecimal 64-bit counts and subpositions (N, +N, -N, *);
 * counts written with thousands separators; 64-bit numbers as varints
 * (seven bits a byte, the low first; the top bit: more follow), as
 * protobuf and the machine code's cost store write them.
 *
 * The text parsed, [p, end), must be followed by a byte that is neither
 * a digit nor a separator (the parser guarantees a newline or a carriage
 * return at end; C strings have their NUL): the inner loops rely on it
 * and do not test for end.
 */
#ifndef CGA_NUM_H
#define CGA_NUM_H

#include <stddef.h>
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


enum num_result	num_parse_slow(const char **, const char *, uint64_t *);

/*
 * Parse a decimal or 0x-hex number at *pp (before end) into *v and
 * advance *pp past it.  The number must end at end or a separator.
 * Short decimal numbers, the bulk of every profile, take a fast path
 * without overflow checks (19 digits cannot overflow 64 bits).
 */
static inline enum num_result
num_parse_u64(const char **pp, const char *end, uint64_t *v)
{
	const char	*p = *pp;
	uint64_t	 n = 0;
	unsigned	 d;

	if (p == end || (d = (unsigned)(*p - '0')) > 9)
		return NUM_NONE;
	if (d == 0 && end - p > 1 && (p[1] | 0x20) == 'x')
		return num_parse_slow(pp, end, v);
	do {
		n = n * 10 + d;
		p++;
	} while ((d = (unsigned)(*p - '0')) <= 9);
	if (p - *pp > 19)
		return num_parse_slow(pp, end, v);
	if (p < end && !num_is_space(*p))
		return NUM_NONE;
	*pp = p;
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

/* Skip separators at p (the byte at end stops the loop). */
static inline const char *
num_skip_space(const char *p, const char *end)
{
	(void)end;
	while (num_is_space(*p))
		p++;
	return p;
}

/*
 * A signed number exact to 65 bits, as a change of a 64-bit count is
 * (NEW - OLD may be anything from -(2^64 - 1) to 2^64 - 1).
 */
struct snum {
	uint64_t	mag;		/* magnitude */
	int		neg;		/* negative (never with mag 0) */
};

size_t	num_commify(uint64_t, char *);
size_t	num_u64(uint64_t, char *);
size_t	num_hex(uint64_t, char *);
size_t	num_scommify(struct snum, char *);
double	num_sdouble(struct snum);

/* Return the bytes of v as a varint: 1 to 10. */
static inline size_t
num_varint_len(uint64_t v)
{
	size_t	n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/* Write v at o as a varint; return the byte after it. */
static inline uint8_t *
num_varint(uint8_t *o, uint64_t v)
{
	while (v >= 0x80) {
		*o++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*o++ = (uint8_t)v;
	return o;
}

#endif /* CGA_NUM_H */

/*
 * num.c - the careful path of number parsing: hexadecimal, and decimal
 * numbers long enough to overflow 64 bits; and numbers written with
 * thousands separators.
 */
#include "compat.h"

#include "num.h"

/* Parse a number at *pp with overflow checks; see num_parse_u64(). */
enum num_result
num_parse_slow(const char **pp, const char *end, uint64_t *v)
{
	const char	*p = *pp;
	uint64_t	 n = 0;
	unsigned	 d;
	int		 over = 0;

	if (p == end || (unsigned)(*p - '0') > 9)
		return NUM_NONE;
	if (*p == '0' && end - p > 1 && (p[1] | 0x20) == 'x') {
		p += 2;
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

/* Write v with thousands separators into buf; return its length. */
size_t
num_commify(uint64_t v, char *buf)
{
	char	digits[24];
	int	n = 0, i, j = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v > 0);
	for (i = n - 1; i >= 0; i--) {
		buf[j++] = digits[i];
		if (i > 0 && i % 3 == 0)
			buf[j++] = ',';
	}
	buf[j] = '\0';
	return (size_t)j;
}

/* Write v with a minus sign if negative and thousands separators. */
size_t
num_scommify(struct snum v, char *buf)
{
	if (!v.neg)
		return num_commify(v.mag, buf);
	buf[0] = '-';
	return num_commify(v.mag, buf + 1) + 1;
}

/* Return v as a double (for percentages). */
double
num_sdouble(struct snum v)
{
	return v.neg ? -(double)v.mag : (double)v.mag;
}

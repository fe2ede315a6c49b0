/*
 * num.c - the careful path of number parsing: hexadecimal, and decimal
 * numbers long enough to overflow 64 bits; and numbers written with
 * thousands separators.
 */
#include "base/compat.h"

#include <string.h>

#include "base/num.h"

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

/* "000" to "999": a group of three digits is copied, not computed. */
#define NUM_D10(p)	p "0" p "1" p "2" p "3" p "4" p "5" p "6" p "7" p "8" \
			p "9"
#define NUM_D100(p)	NUM_D10(p "0") NUM_D10(p "1") NUM_D10(p "2") \
			NUM_D10(p "3") NUM_D10(p "4") NUM_D10(p "5") \
			NUM_D10(p "6") NUM_D10(p "7") NUM_D10(p "8") \
			NUM_D10(p "9")
static const char num_groups[] = NUM_D100("0") NUM_D100("1") NUM_D100("2")
    NUM_D100("3") NUM_D100("4") NUM_D100("5") NUM_D100("6") NUM_D100("7")
    NUM_D100("8") NUM_D100("9");

/*
 * Write v with thousands separators into buf (27 bytes at most); return
 * its length.  The groups are written right to left from where the
 * number ends, one division by 1000 each, the first without its
 * leading zeros.
 */
size_t
num_commify(uint64_t v, char *buf)
{
	const char	*g;
	uint64_t	 t;
	size_t		 n, lead;
	char		*p;

	for (n = 0, t = v; t >= 1000; t /= 1000)
		n += 4;
	lead = t >= 100 ? 3 : t >= 10 ? 2 : 1;
	n += lead;
	buf[n] = '\0';
	for (p = buf + n; v >= 1000; v /= 1000) {
		g = num_groups + 3 * (v % 1000);
		p -= 4;
		p[0] = ',';
		p[1] = g[0];
		p[2] = g[1];
		p[3] = g[2];
	}
	g = num_groups + 3 * v + 3 - lead;
	while (lead-- > 0)
		buf[lead] = g[lead];
	return n;
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

/*
 * Write v in decimal into buf (at least 21 bytes), no separators, and a
 * NUL; return its length.
 */
size_t
num_u64(uint64_t v, char *buf)
{
	/* Two digits a division: the exports write millions of numbers. */
	static const char digits[] =
	    "00010203040506070809101112131415161718192021222324"
	    "25262728293031323334353637383940414243444546474849"
	    "50515253545556575859606162636465666768697071727374"
	    "75767778798081828384858687888990919293949596979899";
	char		 tmp[20], *d = tmp + sizeof(tmp);
	unsigned	 r;
	size_t		 n;

	if (v < 10) {		/* most counts of a cache simulation */
		buf[0] = (char)('0' + v);
		buf[1] = '\0';
		return 1;
	}
	while (v >= 100) {
		r = (unsigned)(v % 100);
		v /= 100;
		d -= 2;
		memcpy(d, digits + 2 * r, 2);
	}
	if (v >= 10) {
		d -= 2;
		memcpy(d, digits + 2 * v, 2);
	} else
		*--d = (char)('0' + v);
	n = (size_t)(tmp + sizeof(tmp) - d);
	memcpy(buf, d, n);
	buf[n] = '\0';
	return n;
}

/*
 * Write v as "0x" and its lowercase hexadecimal digits into buf (at
 * least 19 bytes), and a NUL; return its length: what printf's "0x%llx"
 * writes, for the millions of addresses of machine code.
 */
size_t
num_hex(uint64_t v, char *buf)
{
	static const char	 digits[] = "0123456789abcdef";
	size_t			 n = 1;
	uint64_t		 t;

	for (t = v >> 4; t != 0; t >>= 4)
		n++;
	buf[0] = '0';
	buf[1] = 'x';
	buf[n + 2] = '\0';
	for (t = n + 2; t > 2; v >>= 4)
		buf[--t] = digits[v & 15];
	return n + 2;
}

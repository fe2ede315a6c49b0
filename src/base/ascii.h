/*
 * ascii.h - runs of plain ASCII found eight bytes at a time: the names
 * of a large C++ program are kilobytes each, and a writer that looks at
 * every byte for the few it must change spends its time on the others.
 */
#ifndef CGA_ASCII_H
#define CGA_ASCII_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define ASCII_ONES	0x0101010101010101ULL
#define ASCII_HIGHS	0x8080808080808080ULL

/*
 * Return the length of the run at the front of s (len bytes) of
 * printable ASCII (0x20 to 0x7e) other than bytes a and b.  A word
 * holds a byte out of the run if its high bit is set in one of: the
 * byte itself (0x80 and above), the byte plus one (0x7f), the byte less
 * 0x20 where the byte's own bit is clear (below 0x20), its difference
 * from a or b less one likewise (a or b); a borrow or a carry may set a
 * wrong byte's bit, never one of a word without such a byte.  The word
 * found is then looked at byte by byte.
 */
static inline size_t
ascii_run(const char *s, size_t len, unsigned char a, unsigned char b)
{
	const unsigned char	*u = (const unsigned char *)s;
	uint64_t		 x, xa, xb;
	size_t			 i;

	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&x, u + i, sizeof(x));
		xa = x ^ (ASCII_ONES * a);
		xb = x ^ (ASCII_ONES * b);
		if ((x | (x + ASCII_ONES) | ((x - ASCII_ONES * 0x20) & ~x) |
		    ((xa - ASCII_ONES) & ~xa) | ((xb - ASCII_ONES) & ~xb)) &
		    ASCII_HIGHS)
			break;
	}
	for (; i < len; i++)
		if (u[i] < 0x20 || u[i] > 0x7e || u[i] == a || u[i] == b)
			break;
	return i;
}

#endif /* CGA_ASCII_H */

/*
 * loop.c - a PIE program for the asm annotation tests: an -O2 loop with
 * branches, a function inlined from a header, calls into a shared
 * library and to a function of its own.
 */
#include <stdio.h>
#include <stdlib.h>

#include "inl.h"

unsigned	lib_scale(unsigned, unsigned);

__attribute__((noinline)) static unsigned
classify(unsigned v)
{
	if (v % 3 == 0)
		return 1;
	if (v % 5 == 0)
		return 2;
	return v & 1 ? 3 : 4;
}

__attribute__((noinline)) static unsigned
work(unsigned n)
{
	unsigned	i, h = 1, counts[5] = { 0 };

	for (i = 0; i < n; i++) {
		h = mix(h, i);
		counts[classify(h)]++;
		if ((h & 0xff) == 0)
			h += lib_scale(h, 4);
	}
	return h + counts[1] + 2 * counts[2] + 3 * counts[3];
}

int
main(int argc, char *argv[])
{
	unsigned	n = argc > 1 ? (unsigned)atoi(argv[1]) : 2000;

	printf("%u\n", work(n));
	return 0;
}

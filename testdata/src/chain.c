/*
 * chain.c - test program without recursion: a call chain, calls through
 * function pointers and a header helper inlined into two functions, so
 * that inclusive costs can be compared with callgrind_annotate's.
 */
#include <stdio.h>

#include "util.h"

static unsigned
step3(unsigned x)
{
	return mix(x, 3) + mix(x, 5);
}

static unsigned
step2(unsigned x)
{
	return step3(x) ^ step3(x + 1);
}

static unsigned
step1(unsigned x)
{
	unsigned	i, h = x;

	for (i = 0; i < 8; i++)
		h += step2(h + i);
	return h;
}

static unsigned
add(unsigned a)
{
	return mix(a, 7) + 1;
}

static unsigned
sub(unsigned a)
{
	return a - 1;
}

int
main(void)
{
	unsigned	(*ops[2])(unsigned) = { add, sub };
	unsigned	acc = 1, i;

	for (i = 0; i < 40; i++)
		acc = step1(acc) + ops[i % 2](acc);
	printf("%u\n", acc);
	return 0;
}

/*
 * prog.c - test program for cg-annotate's profiles: a call chain,
 * direct recursion, mutual recursion of three functions, function
 * pointers, and an inlined header helper (util.h, also used by helper.c).
 */
#include <stdio.h>
#include <stdlib.h>

#include "util.h"

unsigned	helper(unsigned);

static unsigned
leaf(unsigned x)
{
	unsigned i, h = x;

	for (i = 0; i < 50; i++)
		h = mix(h, i);
	return h;
}

static unsigned
middle(unsigned x)
{
	return leaf(x) + leaf(x + 1);
}

static unsigned
top(unsigned x)
{
	return middle(x) ^ middle(x * 3);
}

static long
fib(int n)
{
	if (n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}

static int	ping(int);
static int	pong(int);
static int	pang(int);

static int
ping(int n)
{
	return n <= 0 ? 0 : 1 + pong(n - 1);
}

static int
pong(int n)
{
	return n <= 0 ? 1 : 2 + pang(n - 1);
}

static int
pang(int n)
{
	return n <= 0 ? 2 : 3 + ping(n - 1);
}

static unsigned
twice(unsigned x)
{
	return 2 * x;
}

static unsigned
square(unsigned x)
{
	return x * x;
}

static unsigned
apply(unsigned (*f)(unsigned), unsigned x)
{
	return f(x);
}

int
main(int argc, char *argv[])
{
	unsigned (*ops[2])(unsigned) = { twice, square };
	unsigned acc = 0;
	int i;

	(void)argv;
	for (i = 0; i < 20; i++)
		acc += top((unsigned)i);
	acc += (unsigned)fib(12 + argc);
	for (i = 0; i < 10; i++)
		acc += (unsigned)ping(3 * i);
	for (i = 0; i < 30; i++)
		acc = apply(ops[i % 2], acc);
	acc += helper(acc);
	printf("%u\n", acc);
	return 0;
}

/*
 * spin.c - busy for about half a second in a few functions, for the
 * sampling profilers (gperftools); allocates, for jemalloc's profiler.
 */
#include <stdlib.h>

static volatile unsigned long	sink;

static void
inner(unsigned long n)
{
	unsigned long	i;

	for (i = 0; i < n; i++)
		sink += i * i;
}

static void
outer(unsigned long n)
{
	inner(n);
	inner(n / 2);
}

int
main(void)
{
	char	*p;
	int	 i;

	for (i = 0; i < 64; i++) {
		p = malloc((size_t)(1 << 16) * (i % 4 + 1));
		p[0] = 1;
		sink += (unsigned char)p[0];
		free(p);
	}
	outer(300000000UL);
	return 0;
}

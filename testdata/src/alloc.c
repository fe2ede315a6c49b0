/*
 * alloc.c - allocates in a small tree of functions and frees it all:
 * a profile for valgrind's xtree files (memory, leaks).
 */
#include <stdlib.h>
#include <string.h>

static void *
leaf(size_t n)
{
	void	*p = malloc(n);

	memset(p, 1, n);
	return p;
}

static void **
branch(int k)
{
	void	**v = malloc(8 * sizeof(*v));
	int	  i;

	for (i = 0; i < 8; i++)
		v[i] = leaf((size_t)(16 * (k + i + 1)));
	return v;
}

static void
drop(void **v)
{
	int	i;

	for (i = 0; i < 8; i++)
		free(v[i]);
	free(v);
}

int
main(int argc, char **argv)
{
	void	**a = branch(1), **b = branch(2);
	char	 *kept = argc > 1 ? leaf(100) : NULL;

	(void)argv;
	drop(a);
	drop(b);
	if (kept != NULL)
		kept = NULL;	/* leaked on purpose when asked */
	return 0;
}

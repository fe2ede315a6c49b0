/*
 * threads.c - test program for cg-annotate's multi-part profiles: two
 * threads, and a function called twice (for --dump-before=phase).
 */
#include <pthread.h>
#include <stdio.h>

static unsigned
work(unsigned n)
{
	unsigned	i, h = n;

	for (i = 0; i < 2000 * n; i++)
		h = h * 31 + i;
	return h;
}

static void *
worker(void *arg)
{
	unsigned	*r = arg;

	*r = work(3);
	return NULL;
}

static unsigned
phase(unsigned n)
{
	return work(n);
}

int
main(void)
{
	pthread_t	t;
	unsigned	r = 0, acc;

	acc = phase(1);
	if (pthread_create(&t, NULL, worker, &r) != 0)
		return 1;
	pthread_join(t, NULL);
	acc += phase(2) + r;
	printf("%u\n", acc);
	return 0;
}

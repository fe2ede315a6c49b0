/* helper.c - a second file that inlines util.h's mix(). */
#include "util.h"

unsigned	helper(unsigned);

unsigned
helper(unsigned x)
{
	unsigned i, h = x;

	for (i = 0; i < 100; i++)
		h = mix(h, i * x);
	return h;
}

/* lib.c - a shared library for the asm annotation tests. */
unsigned	lib_scale(unsigned, unsigned);

unsigned
lib_scale(unsigned x, unsigned k)
{
	unsigned	r = 0;

	while (k-- > 0)
		r += x >> (k & 7);
	return r;
}

/* util.h - a small helper that the compiler inlines into two files. */
#ifndef UTIL_H
#define UTIL_H

static inline __attribute__((always_inline)) unsigned
mix(unsigned h, unsigned v)
{
	h ^= v;
	h *= 16777619u;
	return h;
}

#endif

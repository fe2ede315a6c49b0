/*
 * hash.h - a fast non-cryptographic hash for byte strings and words.
 */
#ifndef CGA_HASH_H
#define CGA_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Mix one 64-bit word into a well-spread value. */
static inline uint64_t
hash_word(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

__extension__ typedef unsigned __int128 hash_u128;

/* Multiply two words into 128 bits and fold the halves together. */
static inline uint64_t
hash_mum(uint64_t a, uint64_t b)
{
	hash_u128	r = (hash_u128)a * b;

	return (uint64_t)r ^ (uint64_t)(r >> 64);
}

/*
 * Hash len bytes, sixteen at a time: one wide multiply a step keeps
 * the chain from one step to the next short (names run to hundreds of
 * bytes).
 */
static inline uint64_t
hash_bytes(const void *p, size_t len)
{
	const unsigned char	*s = p;
	uint64_t		 h = 0x9e3779b97f4a7c15ULL ^ len, a, b;

	while (len >= 16) {
		memcpy(&a, s, 8);
		memcpy(&b, s + 8, 8);
		h ^= hash_mum(a ^ h ^ 0xa0761d6478bd642fULL,
		    b ^ 0xe7037ed1a0b428dbULL);
		s += 16;
		len -= 16;
	}
	a = b = 0;
	if (len > 8) {
		memcpy(&a, s, 8);
		memcpy(&b, s + 8, len - 8);
	} else
		memcpy(&a, s, len);
	return hash_word(h ^ hash_mum(a ^ h ^ 0xa0761d6478bd642fULL,
	    b ^ 0xe7037ed1a0b428dbULL));
}

#endif /* CGA_HASH_H */

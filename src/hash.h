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

/* Hash len bytes, eight at a time. */
static inline uint64_t
hash_bytes(const void *p, size_t len)
{
	const unsigned char	*s = p;
	uint64_t		 h = 0x9e3779b97f4a7c15ULL ^ len, w;

	while (len >= 8) {
		memcpy(&w, s, 8);
		h = (h ^ hash_word(w)) * 0x100000001b3ULL;
		s += 8;
		len -= 8;
	}
	w = 0;
	memcpy(&w, s, len);
	return hash_word(h ^ w);
}

#endif /* CGA_HASH_H */

/* inl.h - a function inlined into its callers (asm annotation tests). */
static inline unsigned
mix(unsigned h, unsigned v)
{
	h ^= v;
	h *= 0x9e3779b1u;
	return h ^ (h >> 15);
}

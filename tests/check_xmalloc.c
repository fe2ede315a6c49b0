/*
 * check_xmalloc.c - the allocators' fills: xfill() fills what memset()
 * would, and xahead() makes pages present without changing a byte;
 * xmalloc_room() gives the heap room on huge pages.
 */
#include "base/compat.h"

#include <sys/mman.h>

#include <inttypes.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/xmalloc.h"
#include "check_suites.h"
#include "check_util.h"

#define BUF	(1024 * 1024)

/* The byte at i of the pattern the tests lay down. */
static unsigned char
pattern(size_t i)
{
	return (unsigned char)(i * 7 + (i >> 12));
}

/* Fill buf with the pattern. */
static void
lay(unsigned char *buf, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		buf[i] = pattern(i);
}

/* Check that the n bytes at buf are the pattern. */
static void
check_laid(const unsigned char *buf, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (buf[i] != pattern(i))
			ck_abort_msg("byte %zu of %zu: %u, not %u", i, n,
			    buf[i], pattern(i));
}

/* xfill() sets exactly the bytes it is given, small or large, aligned or not. */
START_TEST(test_fill)
{
	static const size_t sizes[] = { 0, 1, 4095, 4096, 65535, 65536,
	    65537, 200000, 1 << 19 };
	static const size_t offs[] = { 0, 3, 4096 + 5, 65536 - 1 };
	unsigned char	*buf = xmalloc(BUF), *want = xmalloc(BUF);
	size_t		 s, o;

	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
		for (o = 0; o < sizeof(offs) / sizeof(offs[0]); o++) {
			lay(buf, BUF);
			lay(want, BUF);
			memset(want + offs[o], 0xc3, sizes[s]);
			xfill(buf + offs[o], 0xc3, sizes[s]);
			ck_assert_int_eq(memcmp(buf, want, BUF), 0);
		}
	free(want);
	free(buf);
}
END_TEST

/*
 * xahead() on written memory, at every kind of step (the start, within a
 * stretch, across one or several, to the end, past it, in a small
 * array), leaves every byte as it was; on fresh memory it is still
 * written and read as any, also when asked element by element
 * (xahead_at()).
 */
START_TEST(test_ahead)
{
	static const size_t steps[][3] = {
		{ 0, 1, BUF }, { 0, 100000, BUF }, { 10, 20, BUF },
		{ 65535, 65537, BUF }, { 65536, 65536 * 3 + 7, BUF },
		{ BUF - 10, BUF, BUF }, { BUF - 10, BUF + 10, BUF },
		{ 0, 100, 4096 }, { 4000, 70000, 65536 }, { 5, 65536 + 5,
		    BUF - 3 },
	};
	unsigned char	*buf = xmalloc(BUF), *want = xmalloc(BUF), *fresh;
	size_t		 s, i;

	lay(buf, BUF);
	lay(want, BUF);
	for (s = 0; s < sizeof(steps) / sizeof(steps[0]); s++) {
		xahead(buf, steps[s][0], steps[s][1], steps[s][2]);
		xahead(buf + 1, steps[s][0], steps[s][1], steps[s][2] - 1);
	}
	ck_assert_int_eq(memcmp(buf, want, BUF), 0);
	fresh = xmalloc(BUF);
	for (i = 0; i < BUF; i += 1000) {
		xahead(fresh, i, i + 1000 < BUF ? i + 1000 : BUF, BUF);
		memset(fresh + i, 0x11, i + 1000 < BUF ? 1000 : BUF - i);
	}
	memset(want, 0x11, BUF);
	ck_assert_int_eq(memcmp(fresh, want, BUF), 0);
	/* Element by element (104 bytes, an arc's 13 costs), as arrays are. */
	for (i = 0; i < BUF / 104; i++) {
		xahead_at(fresh, i, 104, BUF / 104);
		memset(fresh + i * 104, 0x22, 104);
	}
	memset(want, 0x22, BUF / 104 * 104);
	ck_assert_int_eq(memcmp(fresh, want, BUF), 0);
	free(fresh);
	free(want);
	free(buf);
}
END_TEST

#if !defined(__SANITIZE_ADDRESS__) && defined(MADV_HUGEPAGE)
/*
 * Look in /proc/self/smaps for the mapping holding address a: return 1
 * if it is the heap, setting *huge to whether it is marked for huge
 * pages ("hg" among its flags); 0 if it is another; -1 if none is.
 */
static int
heap_holds(uintptr_t a, int *huge)
{
	FILE		*f;
	char		 line[512];
	uintptr_t	 lo, hi;
	int		 in = 0, heap = -1;

	*huge = 0;
	if ((f = fopen("/proc/self/smaps", "r")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR, &lo, &hi) == 2) {
			in = lo <= a && a < hi;
			if (in)
				heap = strstr(line, "[heap]") != NULL;
		} else if (in && strncmp(line, "VmFlags:", 8) == 0)
			*huge = strstr(line, " hg") != NULL;
	}
	fclose(f);
	return heap;
}

/* Return whether this system marks memory for huge pages at all. */
static int
thp_marks(void)
{
	void	*probe;
	int	 thp;

	probe = mmap(NULL, 4 * BUF, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(probe, MAP_FAILED);
	thp = madvise(probe, 4 * BUF, MADV_HUGEPAGE) == 0;
	munmap(probe, 4 * BUF);
	return thp;
}

#endif

/*
 * Without room, malloc maps a block of 1 MB on its own (the threshold
 * fixed at 128 KB, as reading fixes it); after room is given, blocks of
 * every size come from the heap, past its first 2 MB in a part marked
 * for huge pages (asked of malloc() itself: xmalloc() marks blocks of 2
 * MB and more on its own), and hold what is written.  Sanitizers bring
 * their own malloc, and a root without /proc shows no mappings: nothing
 * to look at there.
 */
START_TEST(test_room)
{
#if defined(__SANITIZE_ADDRESS__) || !defined(MADV_HUGEPAGE)
	ck_assert_int_eq(1, 1);
#else
	unsigned char	*p[6];
	size_t		 sizes[6] = { 4096, BUF, BUF, BUF, BUF, 3 * BUF }, i;
	int		 huge, thp;
	FILE		*f;

	/* Without /proc (a bare chroot) there is nothing to look at. */
	if ((f = fopen("/proc/self/smaps", "r")) == NULL)
		return;
	fclose(f);
	thp = thp_marks();

	/* Freeing mapped blocks would raise it otherwise. */
	ck_assert_int_eq(mallopt(M_MMAP_THRESHOLD, 128 * 1024), 1);
	xmalloc_room(32 * BUF);
	for (i = 0; i < 6; i++) {
		p[i] = malloc(sizes[i]);
		ck_assert_ptr_nonnull(p[i]);
		lay(p[i], sizes[i]);
	}
	for (i = 0; i < 6; i++) {
		ck_assert_int_eq(heap_holds((uintptr_t)p[i] + sizes[i] - 1,
		    &huge), 1);
		if (thp && i >= 4)
			ck_assert_int_eq(huge, 1);
		ck_assert_int_eq(p[i][sizes[i] / 2], pattern(sizes[i] / 2));
		free(p[i]);
	}
	/* Too little room to be worth a huge page: nothing changes. */
	xmalloc_room(4096);
#endif
}
END_TEST

/*
 * xmalloc_room_more() gives the heap room for as much as is allocated:
 * with 6 MB allocated (mapped, the threshold at 128 KB), a block of 3 MB
 * is mapped before and comes from the heap after, in a part marked for
 * huge pages; not if 16 MB must be allocated for any room.
 */
START_TEST(test_room_more)
{
#if defined(__SANITIZE_ADDRESS__) || !defined(MADV_HUGEPAGE) || \
    !defined(__GLIBC__) || (__GLIBC__ == 2 && __GLIBC_MINOR__ < 33)
	ck_assert_int_eq(1, 1);
#else
	unsigned char	*big, *p;
	int		 huge;

	ck_assert_int_eq(mallopt(M_MMAP_THRESHOLD, 128 * 1024), 1);
	big = xmalloc(6 * BUF);
	lay(big, 6 * BUF);
	p = malloc(3 * BUF);
	ck_assert_ptr_nonnull(p);
	if (heap_holds((uintptr_t)p, &huge) == -1)
		return;		/* no /proc */
	ck_assert_int_eq(heap_holds((uintptr_t)p, &huge), 0);
	free(p);
	/* Less allocated than asked for: no room. */
	xmalloc_room_more(16 * BUF, 64 * BUF);
	p = malloc(3 * BUF);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(heap_holds((uintptr_t)p, &huge), 0);
	free(p);
	xmalloc_room_more(4 * BUF, 64 * BUF);
	p = malloc(3 * BUF);
	ck_assert_ptr_nonnull(p);
	lay(p, 3 * BUF);
	ck_assert_int_eq(heap_holds((uintptr_t)p + 3 * BUF - 1, &huge), 1);
	if (thp_marks())
		ck_assert_int_eq(huge, 1);
	check_laid(big, 6 * BUF);
	free(p);
	free(big);
#endif
}
END_TEST

/*
 * An array keeps its elements as it grows from a few in the heap to
 * megabytes (moved by xreallocarray() itself past 2 MB, by realloc()
 * below), and as it shrinks.
 */
START_TEST(test_grow)
{
	static const size_t	 sizes[] = { 4096, 200000, BUF, 3 * BUF + 8,
				    8 * BUF, 2 * BUF + 4096, 100, 5 * BUF };
	unsigned char		*p = NULL;
	size_t			 i, k, have = 0;

	/* Sanitizers' malloc takes no settings: the bytes still count. */
	(void)mallopt(M_MMAP_THRESHOLD, 128 * 1024);
	for (k = 0; k < 2; k++) {
		/* Once with the heap given room: blocks of MBs in it. */
		if (k == 1)
			xmalloc_room(32 * BUF);
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			p = xreallocarray(p, sizes[i], 1);
			if (have > sizes[i])
				have = sizes[i];
			check_laid(p, have);
			lay(p, sizes[i]);
			have = sizes[i];
		}
		free(p);
		p = NULL;
		have = 0;
	}
}
END_TEST

/*
 * A block mapped on its own that is resized to 2 MB or more is mapped as
 * whole huge pages, its header of two words within them (glibc on 64
 * bits: what keeps it on huge pages as mremap(2) moves it), keeping what
 * it held; a fresh one, or one resized below 2 MB, is as asked, in whole
 * small pages.
 */
START_TEST(test_whole)
{
#if defined(__SANITIZE_ADDRESS__) || !defined(MADV_HUGEPAGE) || \
    !defined(__GLIBC__) || SIZE_MAX <= 0xffffffffu
	ck_assert_int_eq(1, 1);
#else
	static const size_t	 sizes[] = { 3 * BUF, 4 * BUF + 100,
				    5 * BUF, 9 * BUF + 5, 12 * BUF };
	unsigned char		*p;
	size_t			 i, m;
	int			 huge;

	ck_assert_int_eq(mallopt(M_MMAP_THRESHOLD, 128 * 1024), 1);
	p = xreallocarray(NULL, sizes[0], 1);
	lay(p, sizes[0]);
	/* Mapped (a heap with room would hold it): 3 MB and a page. */
	ck_assert_int_ne(heap_holds((uintptr_t)p, &huge), 1);
	ck_assert_uint_eq(malloc_usable_size(p) + 16, sizes[0] + 4096);
	for (i = 1; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		p = xreallocarray(p, sizes[i], 1);
		check_laid(p, sizes[i - 1]);
		lay(p, sizes[i]);
		m = malloc_usable_size(p) + 16;
		ck_assert_uint_eq(m % (2 * BUF), 0);
		ck_assert_uint_ge(m, sizes[i] + 16);
		ck_assert_uint_lt(m, sizes[i] + 2 * BUF + 16);
	}
	/* Shrunk: to whole huge pages, or below one as asked. */
	p = xreallocarray(p, 3 * BUF, 1);
	check_laid(p, 3 * BUF);
	ck_assert_uint_eq(malloc_usable_size(p) + 16, 4 * BUF);
	p = xreallocarray(p, BUF, 1);
	check_laid(p, BUF);
	ck_assert_uint_eq(malloc_usable_size(p) + 16, BUF + 4096);
	free(p);
#endif
}
END_TEST

Suite *
make_xmalloc_suite(void)
{
	Suite	*s = suite_create("xmalloc");
	TCase	*tc = check_tcase();

	/* First: room in the heap would hold their blocks. */
	tcase_add_test(tc, test_whole);
	tcase_add_test(tc, test_room_more);
	tcase_add_test(tc, test_fill);
	tcase_add_test(tc, test_ahead);
	tcase_add_test(tc, test_room);
	tcase_add_test(tc, test_grow);
	suite_add_tcase(s, tc);
	return s;
}

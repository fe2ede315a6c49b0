/* check_xmalloc.c - unit tests of the allocators' huge page advice. */
#include "compat.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_suites.h"
#include "xmalloc.h"

#define NBLK	64
#define BLK	(64 * 1024)	/* below malloc's mmap threshold */

/*
 * Return 1 if the mapping holding addr is advised for huge pages ("hg"
 * in its VmFlags), 0 if not, -1 if /proc/self/smaps does not say.
 */
static int
vma_advised(uintptr_t addr)
{
	FILE		*f;
	char		 line[1024];
	uintmax_t	 lo, hi;
	int		 in = 0, rc = -1;

	if ((f = fopen("/proc/self/smaps", "r")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		/* A mapping's first line: "START-END perms ..." */
		if (sscanf(line, "%jx-%jx ", &lo, &hi) == 2) {
			in = addr >= lo && addr < hi;
			continue;
		}
		if (in && strncmp(line, "VmFlags:", 8) == 0) {
			rc = strstr(line, " hg") != NULL;
			break;
		}
	}
	fclose(f);
	return rc;
}

/*
 * After xmalloc_hugepages(), the stretch the heap grows by is advised
 * for huge pages, and what is allocated there holds what was written.
 * Where malloc is not glibc's on the heap (sanitizers, valgrind) or the
 * kernel has no transparent huge pages, there is nothing to see.
 */
START_TEST(test_hugepages)
{
	char		*blk[NBLK];
	void		*top0;
	size_t		 i, j;
	int		 adv;

	xmalloc_hugepages();
	top0 = sbrk(0);
	for (i = 0; i < NBLK; i++) {
		blk[i] = xmalloc(BLK);
		memset(blk[i], (int)i, BLK);
	}
	adv = vma_advised((uintptr_t)blk[NBLK - 1]);
	if (sbrk(0) != top0 && access("/sys/kernel/mm/transparent_hugepage",
	    F_OK) == 0)
		ck_assert_int_eq(adv, 1);
	for (i = 0; i < NBLK; i++) {
		for (j = 0; j < BLK; j += 4093)
			ck_assert_int_eq(blk[i][j], (char)i);
		free(blk[i]);
	}
}
END_TEST

Suite *
make_xmalloc_suite(void)
{
	Suite	*s = suite_create("xmalloc");
	TCase	*tc = tcase_create("hugepages");

	tcase_add_test(tc, test_hugepages);
	suite_add_tcase(s, tc);
	return s;
}

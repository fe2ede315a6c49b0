/*
 * check_srcfile.c - a source file is read only if it is the file found:
 * a name swapped between finding and reading (another file, a symlink to
 * a device) reads as empty, and never blocks.  The memory of names and
 * directories looked for gives the answers looking gives.
 */
#include "base/compat.h"

#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/srcfile.h"
#include "base/xmalloc.h"
#include "check_suites.h"
#include "check_util.h"

/* Read a found file whole into out (size bytes); return its length. */
static size_t
slurp(const struct srcfile *sf, char *out, size_t size)
{
	struct srcreader	*r = srcfile_reader(sf);
	FILE			*f = fmemopen(out, size, "w");
	size_t			 n;

	ck_assert_ptr_nonnull(f);
	while (srcfile_more(r))
		srcfile_line(r, f);
	srcfile_reader_close(r);
	n = (size_t)ftell(f);
	fclose(f);
	return n;
}

START_TEST(test_swapped)
{
	char		 dir[] = "/tmp/cga-srcfile-XXXXXX", a[64], b[64];
	char		 buf[256];
	struct srcfile	 sf;
	FILE		*f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/a.c", dir);
	snprintf(b, sizeof(b), "%s/b.c", dir);
	f = fopen(a, "w");
	fputs("int a;\n", f);
	fclose(f);
	f = fopen(b, "w");
	fputs("int b;\n", f);
	fclose(f);

	/* Found, then read: the same file. */
	ck_assert_int_eq(srcfile_find(a, NULL, 0, &sf), SRCFILE_OK);
	ck_assert_uint_eq(slurp(&sf, buf, sizeof(buf)), 7);
	ck_assert(memcmp(buf, "int a;\n", 7) == 0);
	/* Another file put in its place: nothing of it is read. */
	ck_assert_int_eq(rename(b, a), 0);
	ck_assert_uint_eq(slurp(&sf, buf, sizeof(buf)), 0);
	/* A symlink to a device in its place: nothing, and no wait. */
	ck_assert_int_eq(unlink(a), 0);
	ck_assert_int_eq(symlink("/dev/zero", a), 0);
	ck_assert_uint_eq(slurp(&sf, buf, sizeof(buf)), 0);
	srcfile_free(&sf);
	/* Found as it is now: not a regular file. */
	ck_assert_int_eq(srcfile_find(a, NULL, 0, &sf), SRCFILE_NOT_REGULAR);
	srcfile_free(&sf);
	unlink(a);
	rmdir(dir);
}
END_TEST

/*
 * Names looked for once each, SRCFIND_LOOKS (65,536) of them at most: a
 * name asked after those may be found (its lines are kept), unlooked;
 * one asked before keeps its answer.
 */
START_TEST(test_find_bound)
{
	char		 dir[] = "/tmp/cga-srcfind-XXXXXX", name[96], a[64];
	struct srcfind	*sf = srcfind_new(NULL, 0);
	FILE		*f;
	unsigned	 i;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/a.c", dir);
	ck_assert_ptr_nonnull(f = fopen(a, "w"));
	fclose(f);
	ck_assert_int_ne(srcfind_may_find(sf, a), 0);
	snprintf(name, sizeof(name), "%s/missing.c", dir);
	ck_assert_int_eq(srcfind_may_find(sf, name), 0);
	for (i = 2; i < 65536; i++) {
		snprintf(name, sizeof(name), "%s/no%u.c", dir, i);
		ck_assert_int_eq(srcfind_may_find(sf, name), 0);
	}
	/* Past the bound: not looked for. */
	snprintf(name, sizeof(name), "%s/no%u.c", dir, i);
	ck_assert_int_ne(srcfind_may_find(sf, name), 0);
	ck_assert_int_ne(srcfind_may_find(sf, name), 0);
	/* Asked before: as it was. */
	snprintf(name, sizeof(name), "%s/missing.c", dir);
	ck_assert_int_eq(srcfind_may_find(sf, name), 0);
	ck_assert_int_ne(srcfind_may_find(sf, a), 0);
	srcfind_free(sf);
	unlink(a);
	rmdir(dir);
}
END_TEST

/* Return dir/rel in buf (of size bytes). */
static char *
under(char *buf, size_t size, const char *dir, const char *rel)
{
	ck_assert_int_lt(snprintf(buf, size, "%s/%s", dir, rel), (int)size);
	return buf;
}

/* Make an empty file dir/rel. */
static void
touch(const char *dir, const char *rel)
{
	char	 path[256];
	FILE	*f;

	ck_assert_ptr_nonnull(f = fopen(under(path, sizeof(path), dir, rel),
	    "w"));
	fclose(f);
}

/* Remove dir/rel for each rel of the list ending in NULL, in its order. */
static void
removes(const char *dir, const char *const *rels)
{
	char	path[256];

	for (; *rels != NULL; rels++)
		(void)remove(under(path, sizeof(path), dir, *rels));
}

/*
 * Ask srcfile_find() and the memory mem (ninc include directories inc)
 * for name; both must say the same, and srcfind_may_find() agree.
 */
static void
same_find(struct srcfind *mem, const char *name, char **inc, size_t ninc)
{
	struct srcfile		 f1, f2;
	enum srcfile_result	 r1, r2;

	r1 = srcfile_find(name, inc, ninc, &f1);
	r2 = srcfind_find(mem, name, &f2);
	ck_assert_msg(r1 == r2, "%s, %zu dirs: %d, from memory %d", name,
	    ninc, (int)r1, (int)r2);
	ck_assert_int_eq(f1.path == NULL, f2.path == NULL);
	if (f1.path != NULL) {
		ck_assert_str_eq(f1.path, f2.path);
		ck_assert_int_eq(f1.dir, f2.dir);
	}
	ck_assert_int_eq(srcfind_may_find(mem, name) != 0, r1 == SRCFILE_OK);
	srcfile_free(&f1);
	srcfile_free(&f2);
}

/* Say what the memory mem finds of dir/rel now. */
static enum srcfile_result
mem_find(struct srcfind *mem, const char *dir, const char *rel)
{
	char			path[256];
	struct srcfile		f;
	enum srcfile_result	r;

	r = srcfind_find(mem, under(path, sizeof(path), dir, rel), &f);
	srcfile_free(&f);
	return r;
}

/*
 * With and without include directories, the memory finds what
 * srcfile_find() finds, for each kind of name, asked twice each (the
 * second answer from memory); then, the tree changed, it keeps its
 * answers of names missing and of paths in directories missing, and
 * looks again for the others.
 */
START_TEST(test_find_memory)
{
	static const char *const names[] = {
		"a.c", "sub/b.c", "sub/none.c", "nodir/c.c", "nodir/x/d.c",
		"nodir/e.c", "a.c/f.c", "sub", "fifo", "sub/../a.c", "g.c",
		"nodir2/h.c", "/", "/nodir-at-root-cga/i.c", "",
	};
	static const char *const made[] = {
		"nodir/c.c", "nodir/j.c", "nodir", "sub/none.c", NULL
	};
	static const char *const all[] = {
		"a.c", "sub/b.c", "sub/g.c", "fifo", "sub", NULL
	};
	char		 dir[] = "/tmp/cga-srcmem-XXXXXX", path[256], sub[256];
	char		*inc[2];
	struct srcfind	*mem;
	struct srcfile	 f;
	size_t		 i, ninc, round;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	inc[0] = under(sub, sizeof(sub), dir, "sub/");
	inc[1] = xstrdup(under(path, sizeof(path), dir, ""));
	ck_assert_int_eq(mkdir(under(path, sizeof(path), dir, "sub"), 0700),
	    0);
	touch(dir, "a.c");
	touch(dir, "sub/b.c");
	touch(dir, "sub/g.c");
	ck_assert_int_eq(mkfifo(under(path, sizeof(path), dir, "fifo"),
	    0600), 0);
	for (ninc = 0; ninc <= 2; ninc++) {
		mem = srcfind_new(inc, ninc);
		for (round = 0; round < 2; round++)
			for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
				same_find(mem, names[i], inc, ninc);
				same_find(mem, under(path, sizeof(path), dir,
				    names[i]), inc, ninc);
			}
		/* What is made since: from memory, missing; else found. */
		ck_assert_int_eq(mkdir(under(path, sizeof(path), dir,
		    "nodir"), 0700), 0);
		touch(dir, "nodir/c.c");
		touch(dir, "sub/none.c");
		touch(dir, "nodir/j.c");
		ck_assert_int_eq(srcfile_find(under(path, sizeof(path), dir,
		    "nodir/c.c"), inc, ninc, &f), SRCFILE_OK);
		srcfile_free(&f);
		ck_assert_int_eq(mem_find(mem, dir, "nodir/c.c"),
		    SRCFILE_MISSING);
		ck_assert_int_eq(srcfind_may_find(mem, path), 0);
		ck_assert_int_eq(mem_find(mem, dir, "sub/none.c"),
		    SRCFILE_MISSING);
		/* Never asked, but in a directory known missing. */
		ck_assert_int_eq(mem_find(mem, dir, "nodir/j.c"),
		    SRCFILE_MISSING);
		/* Found before: looked for again. */
		ck_assert_int_eq(mem_find(mem, dir, "a.c"), SRCFILE_OK);
		ck_assert_int_eq(unlink(under(path, sizeof(path), dir, "a.c")),
		    0);
		ck_assert_int_eq(mem_find(mem, dir, "a.c"), SRCFILE_MISSING);
		touch(dir, "a.c");
		srcfind_free(mem);
		removes(dir, made);
	}
	removes(dir, all);
	ck_assert_int_eq(rmdir(dir), 0);
	free(inc[1]);
}
END_TEST

Suite *
make_srcfile_suite(void)
{
	Suite	*s = suite_create("srcfile");
	TCase	*tc = check_tcase();

	tcase_add_test(tc, test_swapped);
	tcase_add_test(tc, test_find_bound);
	tcase_add_test(tc, test_find_memory);
	suite_add_tcase(s, tc);
	return s;
}

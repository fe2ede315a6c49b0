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

/* Make an empty file path. */
static void
touch(const char *path)
{
	FILE	*f;

	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	fclose(f);
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
	char		 dir[] = "/tmp/cga-srcmem-XXXXXX", path[256], *inc[2];
	char		 name[256], sub[256];
	struct srcfind	*mem;
	struct srcfile	 f1, f2;
	enum srcfile_result r1, r2;
	size_t		 i, n, ninc, round;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/sub/", dir);
	inc[0] = sub;
	inc[1] = path;
	snprintf(path, sizeof(path), "%s/", dir);
	inc[1] = xstrdup(path);
	snprintf(path, sizeof(path), "%s/a.c", dir);
	touch(path);
	snprintf(path, sizeof(path), "%s/sub", dir);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/sub/b.c", dir);
	touch(path);
	snprintf(path, sizeof(path), "%s/sub/g.c", dir);
	touch(path);
	snprintf(path, sizeof(path), "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	for (ninc = 0; ninc <= 2; ninc++) {
		mem = srcfind_new(inc, ninc);
		for (round = 0; round < 2; round++)
			for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
				for (n = 0; n < 2; n++) {
					/* The name as such, and under dir. */
					snprintf(name, sizeof(name), "%s%s%s",
					    n ? dir : "", n ? "/" : "",
					    names[i]);
					r1 = srcfile_find(name, inc, ninc, &f1);
					r2 = srcfind_find(mem, name, &f2);
					ck_assert_msg(r1 == r2, "%s, %zu dirs: "
					    "%d, from memory %d", name, ninc,
					    (int)r1, (int)r2);
					ck_assert_int_eq(f1.path == NULL,
					    f2.path == NULL);
					if (f1.path != NULL) {
						ck_assert_str_eq(f1.path,
						    f2.path);
						ck_assert_int_eq(f1.dir,
						    f2.dir);
					}
					ck_assert_int_eq(srcfind_may_find(mem,
					    name) != 0, r1 == SRCFILE_OK);
					srcfile_free(&f1);
					srcfile_free(&f2);
				}
		/* What is made since: from memory, missing; else found. */
		snprintf(path, sizeof(path), "%s/nodir", dir);
		ck_assert_int_eq(mkdir(path, 0700), 0);
		snprintf(path, sizeof(path), "%s/nodir/c.c", dir);
		touch(path);
		snprintf(path, sizeof(path), "%s/sub/none.c", dir);
		touch(path);
		snprintf(path, sizeof(path), "%s/nodir/j.c", dir);
		touch(path);
		snprintf(name, sizeof(name), "%s/nodir/c.c", dir);
		ck_assert_int_eq(srcfile_find(name, inc, ninc, &f1),
		    SRCFILE_OK);
		srcfile_free(&f1);
		ck_assert_int_eq(srcfind_find(mem, name, &f2),
		    SRCFILE_MISSING);
		ck_assert_int_eq(srcfind_may_find(mem, name), 0);
		snprintf(name, sizeof(name), "%s/sub/none.c", dir);
		ck_assert_int_eq(srcfind_find(mem, name, &f2),
		    SRCFILE_MISSING);
		/* Never asked, but in a directory known missing. */
		snprintf(name, sizeof(name), "%s/nodir/j.c", dir);
		ck_assert_int_eq(srcfind_find(mem, name, &f2),
		    SRCFILE_MISSING);
		/* Found before: looked for again. */
		snprintf(name, sizeof(name), "%s/a.c", dir);
		ck_assert_int_eq(srcfind_find(mem, name, &f2), SRCFILE_OK);
		srcfile_free(&f2);
		snprintf(path, sizeof(path), "%s/a.c", dir);
		ck_assert_int_eq(unlink(path), 0);
		ck_assert_int_eq(srcfind_find(mem, name, &f2),
		    SRCFILE_MISSING);
		touch(path);
		srcfind_free(mem);
		snprintf(path, sizeof(path), "%s/nodir/c.c", dir);
		unlink(path);
		snprintf(path, sizeof(path), "%s/nodir/j.c", dir);
		unlink(path);
		snprintf(path, sizeof(path), "%s/nodir", dir);
		rmdir(path);
		snprintf(path, sizeof(path), "%s/sub/none.c", dir);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/a.c", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/sub/b.c", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/sub/g.c", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/fifo", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/sub", dir);
	rmdir(path);
	rmdir(dir);
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

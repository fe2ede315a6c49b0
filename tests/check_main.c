/*
 * check_main.c - runs the unit test suites: "check_cga SUITE" one of
 * them (each is its own ctest entry), "check_cga" all of them,
 * "check_cga --list" their names, "check_cga --list-is NAME..." whether
 * those are their names (ctest's list of them: tests/CMakeLists.txt).
 */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "check_suites.h"

/* The suites, one per module, in the order they run. */
static const struct {
	const char	*name;
	Suite		*(*make)(void);
} suites[] = {
	{ "num", make_num_suite },
	{ "packed", make_packed_suite },
	{ "vpack", make_vpack_suite },
	{ "names", make_names_suite },
	{ "parse", make_parse_suite },
	{ "profile", make_profile_suite },
	{ "callgraph", make_callgraph_suite },
	{ "cut", make_cut_suite },
	{ "ahead", make_ahead_suite },
	{ "report", make_report_suite },
	{ "msg", make_msg_suite },
	{ "diff", make_diff_suite },
	{ "derive", make_derive_suite },
	{ "instrs", make_instrs_suite },
	{ "tvis", make_tvis_suite },
	{ "srcfile", make_srcfile_suite },
	{ "handoff", make_handoff_suite },
	{ "xmalloc", make_xmalloc_suite },
	{ "sort", make_sort_suite },
	{ "spool", make_spool_suite },
};

#define NSUITES	(sizeof(suites) / sizeof(suites[0]))

int
main(int argc, char *argv[])
{
	SRunner	*sr = NULL;
	size_t	 i;
	int	 failed;

	if (argc >= 2 && strcmp(argv[1], "--list-is") == 0) {
		for (i = 0; i < NSUITES; i++)
			if ((int)i + 2 >= argc ||
			    strcmp(argv[i + 2], suites[i].name) != 0)
				break;
		if (i == NSUITES && argc == (int)NSUITES + 2)
			return 0;
		fprintf(stderr, "check_cga: the suites are not those listed: "
		    "%s is not %s\n", (int)i + 2 < argc ? argv[i + 2] :
		    "(the end)", i < NSUITES ? suites[i].name : "(the end)");
		return 1;
	}
	if (argc > 2) {
		fprintf(stderr, "usage: check_cga [--list | --list-is NAME... | "
		    "SUITE]\n");
		return 2;
	}
	if (argc == 2 && strcmp(argv[1], "--list") == 0) {
		for (i = 0; i < NSUITES; i++)
			puts(suites[i].name);
		return 0;
	}
	msg_set_quiet(1);
	for (i = 0; i < NSUITES; i++) {
		if (argc == 2 && strcmp(argv[1], suites[i].name) != 0)
			continue;
		if (sr == NULL)
			sr = srunner_create(suites[i].make());
		else
			srunner_add_suite(sr, suites[i].make());
	}
	if (sr == NULL) {
		fprintf(stderr, "check_cga: no suite %s (--list names "
		    "them)\n", argv[1]);
		return 2;
	}
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

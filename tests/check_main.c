/* check_main.c - runs every unit test suite. */
#include "base/compat.h"

#include <stdlib.h>

#include "base/msg.h"
#include "check_suites.h"

int
main(void)
{
	SRunner	*sr;
	int	 failed;

	msg_set_quiet(1);
	sr = srunner_create(make_num_suite());
	srunner_add_suite(sr, make_packed_suite());
	srunner_add_suite(sr, make_names_suite());
	srunner_add_suite(sr, make_parse_suite());
	srunner_add_suite(sr, make_profile_suite());
	srunner_add_suite(sr, make_callgraph_suite());
	srunner_add_suite(sr, make_cut_suite());
	srunner_add_suite(sr, make_ahead_suite());
	srunner_add_suite(sr, make_report_suite());
	srunner_add_suite(sr, make_msg_suite());
	srunner_add_suite(sr, make_diff_suite());
	srunner_add_suite(sr, make_derive_suite());
	srunner_add_suite(sr, make_instrs_suite());
	srunner_add_suite(sr, make_tvis_suite());
	srunner_add_suite(sr, make_srcfile_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

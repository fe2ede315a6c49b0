/* check_suites.h - the unit test suites, one per module. */
#ifndef CHECK_SUITES_H
#define CHECK_SUITES_H

#include <check.h>

Suite	*make_num_suite(void);
Suite	*make_packed_suite(void);
Suite	*make_vpack_suite(void);
Suite	*make_names_suite(void);
Suite	*make_parse_suite(void);
Suite	*make_profile_suite(void);
Suite	*make_callgraph_suite(void);
Suite	*make_cut_suite(void);
Suite	*make_msg_suite(void);
Suite	*make_diff_suite(void);
Suite	*make_derive_suite(void);
Suite	*make_instrs_suite(void);
Suite	*make_ahead_suite(void);
Suite	*make_report_suite(void);
Suite	*make_tvis_suite(void);
Suite	*make_srcfile_suite(void);
Suite	*make_handoff_suite(void);
Suite	*make_xmalloc_suite(void);
Suite	*make_sort_suite(void);
Suite	*make_spool_suite(void);

#endif

// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-conformance: run every check group against rxe0 / uverbs0 and print
 * the table. Exit 0 only when every row matched; 2 when no device exists.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "conf.h"

int conf_fd = -1;

int main(void)
{
	struct utsname u;
	int failures;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("# rdma-conformance: scope check expected got verdict\n");
	if (!uname(&u))
		printf("# kernel %s\n", u.release);
	check_netlink();
	conf_fd = raw_open_context();
	if (conf_fd < 0) {
		conf_expect("setup.open_context_uverbs0", 0, errno);
		return 2;
	}
	check_header();
	check_context();
	check_attrs();
	check_idr();
	check_write();
	check_objects();
	check_gid();
	check_cq();
	check_qp();
	check_qp_states();
	check_srq_ah();
	check_mw();
#ifdef CONF_HAVE_LIBIBVERBS
	check_library();
#endif
	close(conf_fd);

	failures = conf_failures();
	printf("# %s: %d mismatching row(s)\n", failures ? "FAIL" : "PASS",
	       failures);
	return failures ? 1 : 0;
}

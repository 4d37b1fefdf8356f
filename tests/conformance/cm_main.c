// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-cm-conformance: the RDMA CM rows, printed as rdma-conformance
 * prints its table. Exit 0 only when every row matched; 2 when the CM
 * device cannot be opened.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cm.h"
#include "conf.h"

int main(void)
{
	struct utsname u;
	int failures, fd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("# rdma-cm-conformance: scope check expected got verdict\n");
	if (!uname(&u))
		printf("# kernel %s\n", u.release);
	fd = cm_open();
	if (fd < 0) {
		conf_expect("setup.open_" CM_DEV, 0, errno);
		return 2;
	}
	check_cm_frame();
	check_cm_bind(fd);
	check_cm_options(fd);
	check_cm_route(fd);
	close(fd);
	check_cm_rc();
	check_cm_ud();

	failures = conf_failures();
	printf("# %s: %d mismatching row(s)\n", failures ? "FAIL" : "PASS",
	       failures);
	return failures ? 1 : 0;
}

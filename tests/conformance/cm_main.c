// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-cm-conformance ADDR: the RDMA CM rows, printed as rdma-conformance
 * prints its table, with ADDR the IPv4 address rxe0's netdev holds. Exit
 * 0 only when every row matched; 2 on a bad argument or when the CM
 * device cannot be opened.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cm.h"
#include "conf.h"

char cm_addr[INET_ADDRSTRLEN], cm_addr_other[INET_ADDRSTRLEN];

/* cm_addr from s, and cm_addr_other the next host address after it (the
 * one before it when it is last in its /24): 0, or -1 if s is no IPv4. */
static int set_addrs(const char *s)
{
	struct in_addr a;
	uint32_t h;

	if (inet_pton(AF_INET, s, &a) != 1)
		return -1;
	h = ntohl(a.s_addr);
	inet_ntop(AF_INET, &a, cm_addr, sizeof(cm_addr));
	a.s_addr = htonl((h & 0xff) >= 0xfe ? h - 1 : h + 1);
	inet_ntop(AF_INET, &a, cm_addr_other, sizeof(cm_addr_other));
	return 0;
}

int main(int argc, char **argv)
{
	struct utsname u;
	int failures, fd;

	if (argc != 2 || set_addrs(argv[1])) {
		fprintf(stderr,
			"usage: %s ADDR (the IPv4 address of the RDMA "
			"device's netdev)\n",
			argv[0]);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("# rdma-cm-conformance: scope check expected got verdict\n");
	if (!uname(&u))
		printf("# kernel %s\n", u.release);
	printf("# address %s (not the host's: %s)\n", cm_addr, cm_addr_other);
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

// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Library discovery goes through RDMA netlink: a child process points
 * SYSFS_PATH at an empty directory before libibverbs first reads it, and
 * must still find rxe0, open it and query its port.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "conf.h"

/* Child: exit code 0 = found and usable, 1 = not found, 2 = open/query. */
static int discover_without_sysfs(const char *empty_dir)
{
	struct ibv_device **list;
	struct ibv_context *ctx;
	struct ibv_port_attr port;
	int i, n, code = 1;

	setenv("SYSFS_PATH", empty_dir, 1);
	list = ibv_get_device_list(&n);
	if (!list)
		return 1;
	for (i = 0; i < n; i++) {
		if (strcmp(ibv_get_device_name(list[i]), "rxe0"))
			continue;
		code = 2;
		ctx = ibv_open_device(list[i]);
		if (!ctx)
			break;
		if (!ibv_query_port(ctx, 1, &port) &&
		    port.state == IBV_PORT_ACTIVE)
			code = 0;
		ibv_close_device(ctx);
		break;
	}
	ibv_free_device_list(list);
	return code;
}

void check_lib_discovery(void)
{
	char dir[] = "/tmp/conf-empty-sysfs-XXXXXX";
	int status = 0, code = -1;
	pid_t pid;

	if (!mkdtemp(dir)) {
		conf_expect("lib.discovery.mkdtemp", 0, errno);
		return;
	}
	pid = fork();
	if (pid == 0)
		_exit(discover_without_sysfs(dir));
	if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status))
		code = WEXITSTATUS(status);
	rmdir(dir);
	conf_expect_u("lib.discovery.netlink_only_empty_sysfs", 0, code);
}

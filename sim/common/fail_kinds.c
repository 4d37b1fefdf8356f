// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "fail_kinds.h"

#include <string.h>

/*
 * Syscalls on simulated fds, then uverbs methods (ioctl) and write()
 * commands. A verb reachable both ways (GET_CONTEXT, QUERY_PORT) has one
 * name and is counted on either path; a command tunnelled through
 * INVOKE_WRITE counts as INVOKE_WRITE and as the command.
 */
const char *const sim_fail_kinds[] = {
	"ioctl",
	"write",
	"mmap",
	"open",
	"INVOKE_WRITE",
	"QUERY_PORT",
	"GET_CONTEXT",
	"QUERY_CONTEXT",
	"QUERY_GID_TABLE",
	"QUERY_GID_ENTRY",
	"ASYNC_EVENT_ALLOC",
	"PD_DESTROY",
	"DM_MR_REG",
	"MR_DESTROY",
	"REG_DMABUF_MR",
	"DM_ALLOC",
	"DM_FREE",
	"DM_MAP_OP_ADDR",
	"DM_QUERY",
	"DMABUF_ALLOC",
	"UAR_OBJ_ALLOC",
	"UAR_OBJ_DESTROY",
	"QUERY_DEVICE",
	"EX_QUERY_DEVICE",
	"ALLOC_PD",
	"DEALLOC_PD",
	"REG_MR",
	"DEREG_MR",
	NULL,
};

int sim_fail_kind_known(const char *name)
{
	unsigned int i;

	for (i = 0; sim_fail_kinds[i]; i++)
		if (!strcmp(sim_fail_kinds[i], name))
			return 1;
	return 0;
}

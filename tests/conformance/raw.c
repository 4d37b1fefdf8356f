// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Hand-built uverbs commands: no library in between the check and the ABI. */
#include <fcntl.h>
#include <unistd.h>

#include "conf.h"

int raw_open_context(void)
{
	struct ib_uverbs_get_context_resp resp = {};
	struct ib_uverbs_get_context cmd = {.response = (uintptr_t)&resp};
	int fd;

	fd = open(UVERBS_DEV, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (raw_write(fd, IB_USER_VERBS_CMD_GET_CONTEXT, &cmd, sizeof(cmd),
		      sizeof(resp))) {
		close(fd);
		return -1;
	}
	close(resp.async_fd);
	return fd;
}

void raw_query_port_cmd(struct raw_ioctl *cmd, void *resp, uint16_t len)
{
	raw_init(cmd, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT);
	raw_add(cmd, UVERBS_ATTR_QUERY_PORT_PORT_NUM, sizeof(uint64_t),
		UVERBS_ATTR_F_MANDATORY, 1);
	raw_add(cmd, UVERBS_ATTR_QUERY_PORT_RESP, len, UVERBS_ATTR_F_MANDATORY,
		(uintptr_t)resp);
}

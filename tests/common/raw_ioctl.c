// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "raw_ioctl.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

uint32_t raw_driver_id;

void raw_init(struct raw_ioctl *cmd, uint16_t object, uint16_t method)
{
	memset(cmd, 0, sizeof(*cmd));
	cmd->hdr.object_id = object;
	cmd->hdr.method_id = method;
	cmd->hdr.driver_id = raw_driver_id;
	cmd->hdr.length = sizeof(cmd->hdr);
}

struct ib_uverbs_attr *raw_add(struct raw_ioctl *cmd, uint16_t id, uint16_t len,
			       uint16_t flags, uint64_t data)
{
	struct ib_uverbs_attr *attr = &cmd->attrs[cmd->hdr.num_attrs++];

	attr->attr_id = id;
	attr->len = len;
	attr->flags = flags;
	attr->data = data;
	cmd->hdr.length += sizeof(*attr);
	return attr;
}

struct ib_uverbs_attr *raw_attr(struct raw_ioctl *cmd, uint16_t id,
				uint16_t len, uint64_t data)
{
	return raw_add(cmd, id, len, UVERBS_ATTR_F_MANDATORY, data);
}

void raw_finish(struct raw_ioctl *cmd)
{
	cmd->hdr.length =
		sizeof(cmd->hdr) + cmd->hdr.num_attrs * sizeof(cmd->attrs[0]);
}

int raw_call(int fd, struct raw_ioctl *cmd)
{
	return ioctl(fd, RDMA_VERBS_IOCTL, cmd) ? errno : 0;
}

int raw_call_new(int fd, struct raw_ioctl *cmd, uint32_t *handle)
{
	int ret = raw_call(fd, cmd);

	*handle = (uint32_t)cmd->attrs[0].data;
	return ret;
}

int raw_exec(int fd, struct raw_ioctl *cmd)
{
	raw_finish(cmd);
	return raw_call(fd, cmd);
}

int raw_exec_isolated(int fd, struct raw_ioctl *cmd)
{
	int status;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return errno;
	if (pid == 0)
		_exit(raw_exec(fd, cmd) & 0xff);
	if (waitpid(pid, &status, 0) != pid)
		return errno;
	return WIFSIGNALED(status) ? -WTERMSIG(status) : WEXITSTATUS(status);
}

int raw_write(int fd, uint32_t command, void *body, size_t body_len,
	      size_t resp_len)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		uint8_t body[256];
	} buf;
	size_t len = sizeof(buf.hdr) + body_len;

	if (body_len > sizeof(buf.body))
		return E2BIG;
	buf.hdr.command = command;
	buf.hdr.in_words = len / 4;
	buf.hdr.out_words = resp_len / 4;
	memcpy(buf.body, body, body_len);
	return write(fd, &buf, len) == (ssize_t)len ? 0 : errno;
}

int raw_write_ex(int fd, uint32_t command, void *body, size_t body_len,
		 void *resp, size_t resp_len)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_ex_cmd_hdr ex;
		uint8_t body[256];
	} buf;
	size_t len = sizeof(buf.hdr) + sizeof(buf.ex) + body_len;

	if (body_len > sizeof(buf.body))
		return E2BIG;
	memset(&buf, 0, sizeof(buf));
	buf.hdr.command = IB_USER_VERBS_CMD_FLAG_EXTENDED | command;
	buf.hdr.in_words = body_len / 8;
	buf.hdr.out_words = resp_len / 8;
	buf.ex.response = (uintptr_t)resp;
	memcpy(buf.body, body, body_len);
	return write(fd, &buf, len) == (ssize_t)len ? 0 : errno;
}

int raw_alloc_pd(int fd, uint32_t *pd_handle)
{
	struct ib_uverbs_alloc_pd_resp resp = {};
	struct ib_uverbs_alloc_pd cmd = {.response = (uintptr_t)&resp};
	int err;

	err = raw_write(fd, IB_USER_VERBS_CMD_ALLOC_PD, &cmd, sizeof(cmd),
			sizeof(resp));
	*pd_handle = resp.pd_handle;
	return err;
}

int raw_reg_mr_access(int fd, uint32_t pd_handle, void *buf, size_t len,
		      uint32_t access, struct ib_uverbs_reg_mr_resp *resp)
{
	struct ib_uverbs_reg_mr cmd = {
		.response = (uintptr_t)resp,
		.start = (uintptr_t)buf,
		.length = len,
		.hca_va = (uintptr_t)buf,
		.pd_handle = pd_handle,
		.access_flags = access,
	};

	memset(resp, 0, sizeof(*resp));
	return raw_write(fd, IB_USER_VERBS_CMD_REG_MR, &cmd, sizeof(cmd),
			 sizeof(*resp));
}

int raw_reg_mr(int fd, uint32_t pd_handle, void *buf, size_t len,
	       uint32_t *mr_handle)
{
	struct ib_uverbs_reg_mr_resp resp;
	int err = raw_reg_mr_access(fd, pd_handle, buf, len,
				    IB_UVERBS_ACCESS_LOCAL_WRITE, &resp);

	*mr_handle = resp.mr_handle;
	return err;
}

int raw_destroy_attr(int fd, uint16_t obj, uint16_t method, uint16_t attr,
		     uint32_t handle)
{
	struct raw_ioctl cmd;

	raw_init(&cmd, obj, method);
	raw_attr(&cmd, attr, 0, handle);
	return raw_call(fd, &cmd);
}

int raw_destroy(int fd, uint16_t obj, uint16_t method, uint32_t handle)
{
	return raw_destroy_attr(fd, obj, method, 0, handle);
}

int raw_destroy_pd(int fd, uint32_t pd_handle)
{
	return raw_destroy(fd, UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY,
			   pd_handle);
}

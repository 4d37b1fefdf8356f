// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Legacy write() of each command the library uses, some malformed writes,
 * and the INVOKE_WRITE ioctl that carries a write command.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "conf.h"

static int write_query_device(int fd, struct ib_uverbs_query_device_resp *r,
			      size_t resp_len)
{
	struct ib_uverbs_query_device cmd = {.response = (uintptr_t)r};

	return raw_write(fd, IB_USER_VERBS_CMD_QUERY_DEVICE, &cmd, sizeof(cmd),
			 resp_len);
}

static int write_query_port(int fd, uint8_t port,
			    struct ib_uverbs_query_port_resp *resp)
{
	struct ib_uverbs_query_port cmd = {
		.response = (uintptr_t)resp,
		.port_num = port,
	};

	return raw_write(fd, IB_USER_VERBS_CMD_QUERY_PORT, &cmd, sizeof(cmd),
			 sizeof(*resp));
}

static int write_handle_cmd(int fd, uint32_t command, uint32_t handle)
{
	return raw_write(fd, command, &handle, sizeof(handle), 0);
}

static void check_context_writes(void)
{
	struct ib_uverbs_query_device_resp dev;
	struct ib_uverbs_get_context_resp ctx;
	struct ib_uverbs_get_context cmd = {.response = (uintptr_t)&ctx};
	int fd, err;

	fd = open(UVERBS_DEV, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		conf_expect("write.open_uverbs0", 0, errno);
		return;
	}
	conf_expect("write.query_device.before_context", EINVAL,
		    write_query_device(fd, &dev, sizeof(dev)));
	err = raw_write(fd, IB_USER_VERBS_CMD_GET_CONTEXT, &cmd, sizeof(cmd),
			sizeof(ctx));
	conf_expect("write.get_context.ok", 0, err);
	if (!err)
		close(ctx.async_fd);
	conf_expect("write.get_context.second_on_same_fd", EINVAL,
		    raw_write(fd, IB_USER_VERBS_CMD_GET_CONTEXT, &cmd,
			      sizeof(cmd), sizeof(ctx)));
	close(fd);
}

static void check_query_writes(void)
{
	struct ib_uverbs_ex_query_device_resp ex = {};
	struct ib_uverbs_ex_query_device ex_cmd = {};
	struct ib_uverbs_query_device_resp dev = {};
	struct ib_uverbs_query_port_resp port = {};

	conf_expect("write.query_device.ok", 0,
		    write_query_device(conf_fd, &dev, sizeof(dev)));
	conf_expect_u("write.query_device.phys_port_cnt", 1, dev.phys_port_cnt);
	conf_expect("write.query_device.resp_4_bytes", ENOSPC,
		    write_query_device(conf_fd, &dev, 4));
	conf_expect("write.ex_query_device.ok", 0,
		    raw_write_ex(conf_fd, IB_USER_VERBS_EX_CMD_QUERY_DEVICE,
				 &ex_cmd, sizeof(ex_cmd), &ex, sizeof(ex)));
	conf_expect_u("write.ex_query_device.max_dm_size", 0, ex.max_dm_size);
	conf_expect("write.ex_query_device.resp_8_bytes", 0,
		    raw_write_ex(conf_fd, IB_USER_VERBS_EX_CMD_QUERY_DEVICE,
				 &ex_cmd, sizeof(ex_cmd), &ex, 8));
	ex_cmd.comp_mask = 1;
	conf_expect("write.ex_query_device.comp_mask_1", EINVAL,
		    raw_write_ex(conf_fd, IB_USER_VERBS_EX_CMD_QUERY_DEVICE,
				 &ex_cmd, sizeof(ex_cmd), &ex, sizeof(ex)));
	conf_expect("write.query_port.port1", 0,
		    write_query_port(conf_fd, 1, &port));
	conf_expect("write.query_port.port2", EINVAL,
		    write_query_port(conf_fd, 2, &port));
	conf_expect("write.query_port.port0", EINVAL,
		    write_query_port(conf_fd, 0, &port));
}

static void check_object_writes(void *page)
{
	uint32_t pd = 0, mr = 0, bad_mr;

	conf_expect("write.alloc_pd.ok", 0, raw_alloc_pd(conf_fd, &pd));
	conf_expect("write.reg_mr.ok", 0,
		    raw_reg_mr(conf_fd, pd, page, 4096, &mr));
	conf_expect("write.reg_mr.unknown_pd", ENOENT,
		    raw_reg_mr(conf_fd, pd + 1000, page, 4096, &bad_mr));
	conf_expect(
		"write.dealloc_pd.with_live_mr", EBUSY,
		write_handle_cmd(conf_fd, IB_USER_VERBS_CMD_DEALLOC_PD, pd));
	conf_expect("write.dereg_mr.ok", 0,
		    write_handle_cmd(conf_fd, IB_USER_VERBS_CMD_DEREG_MR, mr));
	conf_expect("write.dereg_mr.again", ENOENT,
		    write_handle_cmd(conf_fd, IB_USER_VERBS_CMD_DEREG_MR, mr));
	conf_expect(
		"write.dealloc_pd.ok", 0,
		write_handle_cmd(conf_fd, IB_USER_VERBS_CMD_DEALLOC_PD, pd));
	conf_expect(
		"write.dealloc_pd.again", ENOENT,
		write_handle_cmd(conf_fd, IB_USER_VERBS_CMD_DEALLOC_PD, pd));
}

static void check_malformed_writes(void)
{
	struct ib_uverbs_cmd_hdr hdr = {
		.command = IB_USER_VERBS_CMD_QUERY_DEVICE,
		.in_words = 4,
	};
	uint32_t body[2] = {};

	conf_expect("write.in_words_mismatch", EINVAL,
		    write(conf_fd, &hdr, sizeof(hdr)) < 0 ? errno : 0);
	conf_expect("write.unknown_command_0x7f", EOPNOTSUPP,
		    raw_write(conf_fd, 0x7f, body, sizeof(body), 0));
	conf_expect("write.short_header", EINVAL,
		    write(conf_fd, &hdr, 4) < 0 ? errno : 0);
}

static int invoke_write(uint32_t write_cmd, void *out, uint16_t out_len)
{
	struct ib_uverbs_query_device in = {};
	struct raw_ioctl cmd;

	raw_init(&cmd, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INVOKE_WRITE);
	raw_add(&cmd, UVERBS_ATTR_CORE_IN, sizeof(in), UVERBS_ATTR_F_MANDATORY,
		0);
	raw_add(&cmd, UVERBS_ATTR_CORE_OUT, out_len, UVERBS_ATTR_F_MANDATORY,
		(uintptr_t)out);
	/* Constants travel as u64: the kernel accepts no other length. */
	raw_add(&cmd, UVERBS_ATTR_WRITE_CMD, sizeof(uint64_t),
		UVERBS_ATTR_F_MANDATORY, write_cmd);
	return raw_exec(conf_fd, &cmd);
}

static void check_invoke_write(void)
{
	struct ib_uverbs_query_device_resp dev;

	conf_expect("invoke_write.query_device.ok", 0,
		    invoke_write(IB_USER_VERBS_CMD_QUERY_DEVICE, &dev,
				 sizeof(dev)));
	conf_expect("invoke_write.query_device.out_8_bytes", ENOSPC,
		    invoke_write(IB_USER_VERBS_CMD_QUERY_DEVICE, &dev, 8));
	conf_expect("invoke_write.unknown_write_cmd_0x7f", EOPNOTSUPP,
		    invoke_write(0x7f, &dev, sizeof(dev)));
}

void check_write(void)
{
	void *page;

	conf_print_header("legacy write() commands and INVOKE_WRITE");
	check_context_writes();
	check_query_writes();
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED) {
		conf_expect("write.mmap_page", 0, errno);
	} else {
		check_object_writes(page);
		munmap(page, 4096);
	}
	check_malformed_writes();
	check_invoke_write();
}

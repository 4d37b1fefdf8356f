// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Legacy uverbs write() commands, sent either with write() on cmd_fd or,
 * when the kernel has it, tunnelled through UVERBS_METHOD_INVOKE_WRITE.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdma/ib_user_verbs.h>

#include "cmd_write.h"

struct write_frame {
	uint32_t command;
	void *req;
	size_t req_len;
	void *resp;
	size_t resp_len;
	const void *drv_in;
	size_t drv_in_len;
	void *drv_out;
	size_t drv_out_len;
	bool extended;
};

static int invoke_write(struct ibv_context *ctx, const struct write_frame *f)
{
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_DEVICE,
			   UVERBS_METHOD_INVOKE_WRITE, 0);
	const struct ibv_udata udata = {
		.in = f->drv_in,
		.in_len = f->drv_in_len,
		.out = f->drv_out,
		.out_len = f->drv_out_len,
	};

	uint64_t command = f->command;

	if (f->extended)
		command |= IB_USER_VERBS_CMD_FLAG_EXTENDED;
	uverbs_attr_in_u64(cmd, UVERBS_ATTR_WRITE_CMD, command);
	uverbs_attr_in_ptr(cmd, UVERBS_ATTR_CORE_IN, f->req, f->req_len);
	if (f->resp_len)
		uverbs_attr_out_ptr(cmd, UVERBS_ATTR_CORE_OUT, f->resp,
				    f->resp_len);
	uverbs_cmd_add_udata(cmd, &udata);
	return uverbs_cmd_execute(ctx, cmd);
}

/*
 * The write() buffer: header(s), core request, driver request; the
 * response lands in core response + driver response, contiguous.
 */
static int plain_write(struct ibv_context *ctx, const struct write_frame *f)
{
	size_t hdr_len =
		sizeof(struct ib_uverbs_cmd_hdr) +
		(f->extended ? sizeof(struct ib_uverbs_ex_cmd_hdr) : 0);
	size_t in_len = hdr_len + f->req_len + f->drv_in_len;
	size_t out_len = f->resp_len + f->drv_out_len;
	struct ib_uverbs_cmd_hdr *hdr;
	struct ib_uverbs_ex_cmd_hdr *ex;
	uint8_t *in, *out = NULL;
	uint64_t response;
	ssize_t written;
	int ret = 0;

	in = calloc(1, in_len + out_len);
	if (!in)
		return errno = ENOMEM;
	if (out_len)
		out = in + in_len;
	response = (uint64_t)(uintptr_t)out;

	hdr = (void *)in;
	if (f->extended) {
		ex = (void *)(hdr + 1);
		hdr->command = IB_USER_VERBS_CMD_FLAG_EXTENDED | f->command;
		hdr->in_words = f->req_len / 8;
		hdr->out_words = f->resp_len / 8;
		ex->response = response;
		ex->provider_in_words = f->drv_in_len / 8;
		ex->provider_out_words = f->drv_out_len / 8;
		ex->cmd_hdr_reserved = 0;
	} else {
		hdr->command = f->command;
		hdr->in_words = in_len / 4;
		hdr->out_words = out_len / 4;
	}
	memcpy(in + hdr_len, f->req, f->req_len);
	/* The non-extended request starts with the response pointer. */
	if (!f->extended && f->resp_len)
		memcpy(in + hdr_len, &response, sizeof(response));
	if (f->drv_in_len)
		memcpy(in + hdr_len + f->req_len, f->drv_in, f->drv_in_len);

	written = write(ctx->cmd_fd, in, in_len);
	if (written < 0)
		ret = errno;
	else if ((size_t)written != in_len)
		ret = EIO;
	/*
	 * Copied on failure too: a failed POST_* still answers which work
	 * request failed. Untouched bytes are the zeroes written above.
	 */
	if (out) {
		memcpy(f->resp, out, f->resp_len);
		if (f->drv_out_len)
			memcpy(f->drv_out, out + f->resp_len, f->drv_out_len);
	}
	free(in);
	if (ret)
		errno = ret;
	return ret;
}

static int run_write(struct ibv_context *ctx, bool extended, uint32_t command,
		     void *req, size_t req_len, void *resp, size_t resp_len,
		     const struct ibv_udata *udata)
{
	size_t word = extended ? 8 : 4;
	uint16_t max_words = extended ? UINT16_MAX : UINT16_MAX / 4;
	struct write_frame f = {
		.command = command,
		.req = req,
		.req_len = req_len,
		.resp = resp,
		.resp_len = resp_len,
		.extended = extended,
	};

	if (udata) {
		f.drv_in = udata->in;
		f.drv_in_len = udata->in_len;
		f.drv_out = udata->out;
		f.drv_out_len = udata->out_len;
	}
	/* The header counts words; anything else cannot be framed. */
	if (f.req_len % word || f.resp_len % word || f.drv_in_len % word ||
	    f.drv_out_len % word ||
	    (f.req_len + f.drv_in_len) / word > max_words ||
	    (f.resp_len + f.drv_out_len) / word > max_words) {
		errno = EINVAL;
		return EINVAL;
	}
	if (f.resp_len)
		memset(f.resp, 0, f.resp_len);
	if (f.drv_out_len)
		memset(f.drv_out, 0, f.drv_out_len);
	if (get_priv(ctx)->use_ioctl_write)
		return invoke_write(ctx, &f);
	return plain_write(ctx, &f);
}

int verbs_write_cmd(struct ibv_context *ctx, uint32_t command, void *req,
		    size_t req_len, void *resp, size_t resp_len,
		    const struct ibv_udata *udata)
{
	/* Every core request that has a response starts with its pointer. */
	if (resp_len) {
		uint64_t response = (uint64_t)(uintptr_t)resp;

		if (req_len < sizeof(response)) {
			errno = EINVAL;
			return EINVAL;
		}
		memcpy(req, &response, sizeof(response));
	}
	return run_write(ctx, false, command, req, req_len, resp, resp_len,
			 udata);
}

int verbs_write_cmd_ex(struct ibv_context *ctx, uint32_t command, void *req,
		       size_t req_len, void *resp, size_t resp_len,
		       const struct ibv_udata *udata)
{
	return run_write(ctx, true, command, req, req_len, resp, resp_len,
			 udata);
}

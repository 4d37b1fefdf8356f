// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Running RDMA_VERBS_IOCTL; the attribute builders are in cmd_ioctl.h. */
#include <errno.h>
#include <sys/ioctl.h>

#include <config.h>

#include "cmd_ioctl.h"
#include "ibverbs.h"

#if defined(VERBS_ENABLE_VALGRIND) && __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define MARK_DEFINED(addr, len) VALGRIND_MAKE_MEM_DEFINED(addr, len)
#else
#define MARK_DEFINED(addr, len) ((void)(addr), (void)(len))
#endif

/*
 * The kernel refuses a repeated id; refuse it before the syscall. Only a
 * command whose ids collided in id_bits (see uverbs_attr_add) is compared
 * pair by pair, so the usual cost is nothing.
 */
static bool has_duplicate_ids(const struct uverbs_cmd *cmd)
{
	unsigned int i, j;

	if (!cmd->maybe_dup)
		return false;
	for (i = 0; i < cmd->num_attrs; i++)
		for (j = i + 1; j < cmd->num_attrs; j++)
			if (cmd->hdr.attrs[i].attr_id ==
			    cmd->hdr.attrs[j].attr_id)
				return true;
	return false;
}

#ifdef VERBS_ENABLE_VALGRIND
static void mark_outputs_defined(const struct uverbs_cmd *cmd)
{
	const struct ib_uverbs_attr *attr;
	unsigned int i;

	for (i = 0; i < cmd->num_attrs; i++) {
		attr = &cmd->hdr.attrs[i];
		if ((attr->flags & UVERBS_ATTR_F_VALID_OUTPUT) && attr->len)
			MARK_DEFINED((void *)(uintptr_t)attr->data, attr->len);
	}
	/* The kernel wrote new handles/fds back into the array. */
	MARK_DEFINED(cmd->hdr.attrs,
		     cmd->num_attrs * sizeof(cmd->hdr.attrs[0]));
}
#else
static inline void mark_outputs_defined(const struct uverbs_cmd *cmd)
{
	(void)cmd;
}
#endif

void uverbs_cmd_add_udata(struct uverbs_cmd *cmd, const struct ibv_udata *udata)
{
	if (!udata)
		return;
	if (udata->in_len) {
		cmd->uhw_in_idx = cmd->num_attrs;
		uverbs_attr_in_ptr(cmd, UVERBS_ATTR_UHW_IN, udata->in,
				   udata->in_len);
	}
	if (udata->out_len) {
		cmd->uhw_out_idx = cmd->num_attrs;
		uverbs_attr_out_ptr(cmd, UVERBS_ATTR_UHW_OUT, udata->out,
				    udata->out_len);
	}
}

int uverbs_cmd_execute(struct ibv_context *ctx, struct uverbs_cmd *cmd)
{
	struct ib_uverbs_ioctl_hdr *hdr = &cmd->hdr;

	if (cmd->overflow || has_duplicate_ids(cmd)) {
		errno = EINVAL;
		return EINVAL;
	}
	hdr->length = sizeof(*hdr) + cmd->num_attrs * sizeof(hdr->attrs[0]);
	hdr->object_id = cmd->object_id;
	hdr->method_id = cmd->method_id;
	hdr->num_attrs = cmd->num_attrs;
	hdr->reserved1 = 0;
	hdr->driver_id = get_priv(ctx)->driver_id;
	hdr->reserved2 = 0;

	if (ioctl(ctx->cmd_fd, RDMA_VERBS_IOCTL, hdr))
		return errno;
	mark_outputs_defined(cmd);
	return 0;
}

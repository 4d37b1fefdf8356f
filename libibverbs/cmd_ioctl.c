// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Encoding uverbs ioctl attributes and running RDMA_VERBS_IOCTL. */
#include <errno.h>
#include <stdlib.h>
#include <sys/ioctl.h>

#include "cmd_ioctl.h"
#include "ibverbs.h"

#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#else
#define VALGRIND_MAKE_MEM_DEFINED(addr, len) ((void)(addr), (void)(len))
#endif

/* The kernel takes at most 64 KiB - 1 per pointer attribute (u16 len). */
#define UVERBS_ATTR_MAX_LEN UINT16_MAX

static inline uint64_t ptr_to_u64(const void *ptr)
{
	return (uint64_t)(uintptr_t)ptr;
}

struct uverbs_cmd *uverbs_cmd_pick(struct uverbs_cmd *cmd,
				   struct uverbs_cmd *fallback)
{
	if (!cmd)
		return fallback;
	if (cmd->object_id == fallback->object_id &&
	    cmd->method_id == fallback->method_id)
		return cmd;
	fallback->overflow = true;
	return fallback;
}

struct ib_uverbs_attr *uverbs_attr_add(struct uverbs_cmd *cmd, uint16_t attr_id)
{
	struct ib_uverbs_attr *attr;

	if (cmd->num_attrs >= cmd->max_attrs) {
		cmd->overflow = true;
		return NULL;
	}
	attr = &cmd->hdr.attrs[cmd->num_attrs++];
	*attr = (struct ib_uverbs_attr){
		.attr_id = attr_id,
		.flags = UVERBS_ATTR_F_MANDATORY,
	};
	return attr;
}

/* A slot for a pointer-type payload of @len bytes, or NULL (overflow). */
static struct ib_uverbs_attr *add_sized(struct uverbs_cmd *cmd,
					uint16_t attr_id, size_t len)
{
	struct ib_uverbs_attr *attr;

	if (len > UVERBS_ATTR_MAX_LEN) {
		cmd->overflow = true;
		return NULL;
	}
	attr = uverbs_attr_add(cmd, attr_id);
	if (attr)
		attr->len = (uint16_t)len;
	return attr;
}

struct ib_uverbs_attr *uverbs_attr_in_ptr(struct uverbs_cmd *cmd,
					  uint16_t attr_id, const void *data,
					  size_t len)
{
	struct ib_uverbs_attr *attr = add_sized(cmd, attr_id, len);

	if (!attr)
		return NULL;
	if (len <= sizeof(attr->data)) {
		if (data)
			memcpy(&attr->data, data, len);
	} else {
		attr->data = ptr_to_u64(data);
	}
	return attr;
}

struct ib_uverbs_attr *uverbs_attr_in_u32(struct uverbs_cmd *cmd,
					  uint16_t attr_id, uint32_t value)
{
	return uverbs_attr_in_ptr(cmd, attr_id, &value, sizeof(value));
}

struct ib_uverbs_attr *uverbs_attr_in_u64(struct uverbs_cmd *cmd,
					  uint16_t attr_id, uint64_t value)
{
	return uverbs_attr_in_ptr(cmd, attr_id, &value, sizeof(value));
}

struct ib_uverbs_attr *uverbs_attr_in_enum(struct uverbs_cmd *cmd,
					   uint16_t attr_id, uint8_t elem_id,
					   const void *data, size_t len)
{
	struct ib_uverbs_attr *attr =
		uverbs_attr_in_ptr(cmd, attr_id, data, len);

	if (attr)
		attr->attr_data.enum_data.elem_id = elem_id;
	return attr;
}

struct ib_uverbs_attr *uverbs_attr_out_ptr(struct uverbs_cmd *cmd,
					   uint16_t attr_id, void *buf,
					   size_t len)
{
	struct ib_uverbs_attr *attr = add_sized(cmd, attr_id, len);

	if (attr)
		attr->data = ptr_to_u64(buf);
	return attr;
}

/* IDR and FD attributes: len 0, the value itself in data. */
static struct ib_uverbs_attr *add_scalar(struct uverbs_cmd *cmd,
					 uint16_t attr_id, int64_t value)
{
	struct ib_uverbs_attr *attr = uverbs_attr_add(cmd, attr_id);

	if (attr)
		attr->data_s64 = value;
	return attr;
}

struct ib_uverbs_attr *uverbs_attr_in_obj(struct uverbs_cmd *cmd,
					  uint16_t attr_id, uint32_t handle)
{
	return add_scalar(cmd, attr_id, handle);
}

struct ib_uverbs_attr *uverbs_attr_new_obj(struct uverbs_cmd *cmd,
					   uint16_t attr_id)
{
	return uverbs_attr_add(cmd, attr_id);
}

struct ib_uverbs_attr *uverbs_attr_in_fd(struct uverbs_cmd *cmd,
					 uint16_t attr_id, int fd)
{
	return fd == -1 ? NULL : add_scalar(cmd, attr_id, fd);
}

struct ib_uverbs_attr *uverbs_attr_new_fd(struct uverbs_cmd *cmd,
					  uint16_t attr_id)
{
	return uverbs_attr_add(cmd, attr_id);
}

/* The kernel refuses a repeated id; refuse it before the syscall. */
static bool has_duplicate_ids(const struct uverbs_cmd *cmd)
{
	unsigned int i, j;

	for (i = 0; i < cmd->num_attrs; i++)
		for (j = i + 1; j < cmd->num_attrs; j++)
			if (cmd->hdr.attrs[i].attr_id ==
			    cmd->hdr.attrs[j].attr_id)
				return true;
	return false;
}

static void mark_outputs_defined(const struct uverbs_cmd *cmd)
{
	const struct ib_uverbs_attr *attr;
	unsigned int i;

	for (i = 0; i < cmd->num_attrs; i++) {
		attr = &cmd->hdr.attrs[i];
		if ((attr->flags & UVERBS_ATTR_F_VALID_OUTPUT) && attr->len)
			VALGRIND_MAKE_MEM_DEFINED((void *)(uintptr_t)attr->data,
						  attr->len);
	}
	/* The kernel wrote new handles/fds back into the array. */
	VALGRIND_MAKE_MEM_DEFINED(cmd->hdr.attrs,
				  cmd->num_attrs * sizeof(cmd->hdr.attrs[0]));
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

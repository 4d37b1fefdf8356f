/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Building and running one uverbs ioctl (RDMA_VERBS_IOCTL on cmd_fd).
 *
 * A command is declared on the stack with room for its attributes, filled
 * with the uverbs_attr_*() helpers in any order, and run once with
 * uverbs_cmd_execute(). Providers declare the command with their driver
 * attributes and pass it to the core ibv_cmd_*() helper, which appends the
 * core attributes to the same buffer (UVERBS_CMD_CORE_SLACK slots are always
 * reserved for that), so every attribute pointer a caller holds stays valid
 * after execution and outputs are read straight from it.
 *
 * Encoding rules (kernel uAPI): every attribute starts MANDATORY; PTR_IN
 * payloads of at most 8 bytes travel inline in attr.data, larger ones as a
 * zero-extended user pointer; PTR_OUT is always a pointer and the kernel
 * sets UVERBS_ATTR_F_VALID_OUTPUT in attr.flags when it wrote it; IDR and FD
 * attributes have len 0; new objects come back in attr.data.
 */
#ifndef RDMA_DM_CMD_IOCTL_H
#define RDMA_DM_CMD_IOCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rdma/rdma_dm_uapi.h>

struct ibv_context;

/* Core helpers never add more than this many attributes of their own. */
#define UVERBS_CMD_CORE_SLACK 16

struct uverbs_cmd {
	uint16_t object_id;
	uint16_t method_id;
	uint16_t num_attrs;
	uint16_t max_attrs;
	/* An add beyond max_attrs or a payload > 64 KiB: execute -> EINVAL. */
	bool overflow;
	/*
	 * Write-compat index of the UHW attributes, filled by the helpers so
	 * a fallback to write() can find the driver payload.
	 */
	int uhw_in_idx;
	int uhw_out_idx;
	/* Last: its flexible hdr.attrs[] is the attribute array. */
	struct ib_uverbs_ioctl_hdr hdr;
};

/*
 * Declare a command named @name for (@object, @method) with room for @n
 * attributes of the caller plus UVERBS_CMD_CORE_SLACK for a core helper.
 */
#define DECLARE_UVERBS_CMD(name, object, method, n)                            \
	union {                                                                \
		struct uverbs_cmd cmd;                                         \
		uint8_t raw[sizeof(struct uverbs_cmd) +                        \
			    sizeof(struct ib_uverbs_attr) *                    \
				    ((n) + UVERBS_CMD_CORE_SLACK)];            \
	} name##_storage = { .cmd = {                                          \
		.object_id = (object),                                         \
		.method_id = (method),                                         \
		.max_attrs = (n) + UVERBS_CMD_CORE_SLACK,                      \
		.uhw_in_idx = -1,                                              \
		.uhw_out_idx = -1,                                             \
	} };                                                                   \
	struct uverbs_cmd *const name = &name##_storage.cmd

/*
 * Re-target a provider-declared (or NULL) command at a core method. Returns
 * @cmd if it already names (@object, @method), else @fallback (a command the
 * core helper declared itself). A provider command naming a different method
 * is a programming error: it is reported as overflow (EINVAL on execute).
 */
struct uverbs_cmd *uverbs_cmd_pick(struct uverbs_cmd *cmd,
				   struct uverbs_cmd *fallback);

/* The next free attribute slot, pre-filled with @attr_id and MANDATORY. */
struct ib_uverbs_attr *uverbs_attr_add(struct uverbs_cmd *cmd,
				       uint16_t attr_id);

/* PTR_IN: inline when len <= 8, else a pointer to @data (kept, not copied). */
struct ib_uverbs_attr *uverbs_attr_in_ptr(struct uverbs_cmd *cmd,
					  uint16_t attr_id, const void *data,
					  size_t len);
struct ib_uverbs_attr *uverbs_attr_in_u32(struct uverbs_cmd *cmd,
					  uint16_t attr_id, uint32_t value);
struct ib_uverbs_attr *uverbs_attr_in_u64(struct uverbs_cmd *cmd,
					  uint16_t attr_id, uint64_t value);
/* ENUM_IN: @elem_id selects the variant; payload as PTR_IN. */
struct ib_uverbs_attr *uverbs_attr_in_enum(struct uverbs_cmd *cmd,
					   uint16_t attr_id, uint8_t elem_id,
					   const void *data, size_t len);
/* PTR_OUT: always a pointer; check uverbs_attr_is_valid() afterwards. */
struct ib_uverbs_attr *uverbs_attr_out_ptr(struct uverbs_cmd *cmd,
					   uint16_t attr_id, void *buf,
					   size_t len);
/* IDR in: an existing object handle. */
struct ib_uverbs_attr *uverbs_attr_in_obj(struct uverbs_cmd *cmd,
					  uint16_t attr_id, uint32_t handle);
/* IDR new: the kernel returns the new handle (uverbs_attr_handle()). */
struct ib_uverbs_attr *uverbs_attr_new_obj(struct uverbs_cmd *cmd,
					   uint16_t attr_id);
/* FD in: nothing is added (NULL returned) when @fd is -1. */
struct ib_uverbs_attr *uverbs_attr_in_fd(struct uverbs_cmd *cmd,
					 uint16_t attr_id, int fd);
/* FD new: the kernel returns the new fd (uverbs_attr_fd()). */
struct ib_uverbs_attr *uverbs_attr_new_fd(struct uverbs_cmd *cmd,
					  uint16_t attr_id);

/* Clear MANDATORY: an older kernel that lacks this attribute ignores it. */
static inline struct ib_uverbs_attr *
uverbs_attr_optional(struct ib_uverbs_attr *attr)
{
	if (attr)
		attr->flags &= ~UVERBS_ATTR_F_MANDATORY;
	return attr;
}

static inline bool uverbs_attr_is_valid(const struct ib_uverbs_attr *attr)
{
	return attr && (attr->flags & UVERBS_ATTR_F_VALID_OUTPUT);
}

static inline uint32_t uverbs_attr_handle(const struct ib_uverbs_attr *attr)
{
	return (uint32_t)attr->data;
}

static inline int uverbs_attr_fd(const struct ib_uverbs_attr *attr)
{
	return (int)attr->data_s64;
}

/*
 * Fill the header (length, ids, zero reserved fields, the context's driver
 * id) and issue the ioctl. Returns 0, or a positive errno (errno is set too).
 * Outputs are marked defined for valgrind on success.
 */
int uverbs_cmd_execute(struct ibv_context *ctx, struct uverbs_cmd *cmd);

#endif /* RDMA_DM_CMD_IOCTL_H */

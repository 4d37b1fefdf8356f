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
struct ibv_udata;

/* Core helpers never add more than this many attributes of their own. */
#define UVERBS_CMD_CORE_SLACK 16

struct uverbs_cmd {
	uint16_t object_id;
	uint16_t method_id;
	uint16_t num_attrs;
	uint16_t max_attrs;
	/* An add beyond max_attrs or a payload > 64 KiB: execute -> EINVAL. */
	bool overflow;
	/* Two added ids share a bit of id_bits: execute compares them all. */
	bool maybe_dup;
	uint64_t id_bits;
	/*
	 * Write-compat index of the UHW attributes, filled by the helpers so
	 * a fallback to write() can find the driver payload.
	 */
	int uhw_in_idx;
	int uhw_out_idx;
	/* Last: its flexible hdr.attrs[] is the attribute array. */
	struct ib_uverbs_ioctl_hdr hdr;
};

/* The kernel takes at most 64 KiB - 1 per pointer attribute (u16 len). */
#define UVERBS_ATTR_MAX_LEN UINT16_MAX

/* Only the header is initialised: slots are written as they are added. */
static inline struct uverbs_cmd *uverbs_cmd_init(struct uverbs_cmd *cmd,
						 uint16_t object_id,
						 uint16_t method_id,
						 uint16_t max_attrs)
{
	cmd->object_id = object_id;
	cmd->method_id = method_id;
	cmd->num_attrs = 0;
	cmd->max_attrs = max_attrs;
	cmd->overflow = false;
	cmd->maybe_dup = false;
	cmd->id_bits = 0;
	cmd->uhw_in_idx = -1;
	cmd->uhw_out_idx = -1;
	return cmd;
}

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
	} name##_storage;                                                      \
	struct uverbs_cmd *const name =                                        \
		uverbs_cmd_init(&name##_storage.cmd, (object), (method),       \
				(n) + UVERBS_CMD_CORE_SLACK)

/*
 * Re-target a provider-declared (or NULL) command at a core method. Returns
 * @cmd if it already names (@object, @method), else @fallback (a command the
 * core helper declared itself). A provider command naming a different method
 * is a programming error: it is reported as overflow (EINVAL on execute).
 */
static inline struct uverbs_cmd *uverbs_cmd_pick(struct uverbs_cmd *cmd,
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

/*
 * The builders below are inline: a verb adds two to five attributes, and
 * a call each cost more than the encoding itself.
 */

/*
 * The bit of @attr_id in uverbs_cmd.id_bits: core ids and driver ids
 * (UVERBS_ID_DRIVER_NS | n) below 32 each get their own, so a collision
 * is a repeated id in practice and the exact check runs only then.
 */
static inline uint64_t uverbs_attr_id_bit(uint16_t attr_id)
{
	return 1ULL << ((attr_id ^ (attr_id >> 7)) & 63);
}

/* The next free attribute slot, pre-filled with @attr_id and MANDATORY. */
static inline struct ib_uverbs_attr *uverbs_attr_add(struct uverbs_cmd *cmd,
						     uint16_t attr_id)
{
	struct ib_uverbs_attr *attr;
	uint64_t bit = uverbs_attr_id_bit(attr_id);

	if (cmd->num_attrs >= cmd->max_attrs) {
		cmd->overflow = true;
		return NULL;
	}
	if (cmd->id_bits & bit)
		cmd->maybe_dup = true;
	cmd->id_bits |= bit;
	attr = &cmd->hdr.attrs[cmd->num_attrs++];
	*attr = (struct ib_uverbs_attr){
		.attr_id = attr_id,
		.flags = UVERBS_ATTR_F_MANDATORY,
	};
	return attr;
}

/* A slot for a pointer-type payload of @len bytes, or NULL (overflow). */
static inline struct ib_uverbs_attr *
uverbs_attr_add_sized(struct uverbs_cmd *cmd, uint16_t attr_id, size_t len)
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

/* PTR_IN: inline when len <= 8, else a pointer to @data (kept, not copied). */
static inline struct ib_uverbs_attr *uverbs_attr_in_ptr(struct uverbs_cmd *cmd,
							uint16_t attr_id,
							const void *data,
							size_t len)
{
	struct ib_uverbs_attr *attr = uverbs_attr_add_sized(cmd, attr_id, len);

	if (!attr)
		return NULL;
	if (len <= sizeof(attr->data)) {
		if (data)
			memcpy(&attr->data, data, len);
	} else {
		attr->data = (uint64_t)(uintptr_t)data;
	}
	return attr;
}

static inline struct ib_uverbs_attr *
uverbs_attr_in_u32(struct uverbs_cmd *cmd, uint16_t attr_id, uint32_t value)
{
	return uverbs_attr_in_ptr(cmd, attr_id, &value, sizeof(value));
}

static inline struct ib_uverbs_attr *
uverbs_attr_in_u64(struct uverbs_cmd *cmd, uint16_t attr_id, uint64_t value)
{
	return uverbs_attr_in_ptr(cmd, attr_id, &value, sizeof(value));
}

/* ENUM_IN: @elem_id selects the variant; payload as PTR_IN. */
static inline struct ib_uverbs_attr *
uverbs_attr_in_enum(struct uverbs_cmd *cmd, uint16_t attr_id, uint8_t elem_id,
		    const void *data, size_t len)
{
	struct ib_uverbs_attr *attr =
		uverbs_attr_in_ptr(cmd, attr_id, data, len);

	if (attr)
		attr->attr_data.enum_data.elem_id = elem_id;
	return attr;
}

/* PTR_OUT: always a pointer; check uverbs_attr_is_valid() afterwards. */
static inline struct ib_uverbs_attr *uverbs_attr_out_ptr(struct uverbs_cmd *cmd,
							 uint16_t attr_id,
							 void *buf, size_t len)
{
	struct ib_uverbs_attr *attr = uverbs_attr_add_sized(cmd, attr_id, len);

	if (attr)
		attr->data = (uint64_t)(uintptr_t)buf;
	return attr;
}

/* IDR and FD attributes: len 0, the value itself in data. */
static inline struct ib_uverbs_attr *
uverbs_attr_add_scalar(struct uverbs_cmd *cmd, uint16_t attr_id, int64_t value)
{
	struct ib_uverbs_attr *attr = uverbs_attr_add(cmd, attr_id);

	if (attr)
		attr->data_s64 = value;
	return attr;
}

/* IDR in: an existing object handle. */
static inline struct ib_uverbs_attr *
uverbs_attr_in_obj(struct uverbs_cmd *cmd, uint16_t attr_id, uint32_t handle)
{
	return uverbs_attr_add_scalar(cmd, attr_id, handle);
}

/* IDR new: the kernel returns the new handle (uverbs_attr_handle()). */
static inline struct ib_uverbs_attr *uverbs_attr_new_obj(struct uverbs_cmd *cmd,
							 uint16_t attr_id)
{
	return uverbs_attr_add(cmd, attr_id);
}

/* FD in: nothing is added (NULL returned) when @fd is -1. */
static inline struct ib_uverbs_attr *uverbs_attr_in_fd(struct uverbs_cmd *cmd,
						       uint16_t attr_id, int fd)
{
	return fd == -1 ? NULL : uverbs_attr_add_scalar(cmd, attr_id, fd);
}

/* FD new: the kernel returns the new fd (uverbs_attr_fd()). */
static inline struct ib_uverbs_attr *uverbs_attr_new_fd(struct uverbs_cmd *cmd,
							uint16_t attr_id)
{
	return uverbs_attr_add(cmd, attr_id);
}

/*
 * UHW_IN/UHW_OUT of @udata (NULL: none) onto @cmd, remembering their
 * slots for a write() fallback.
 */
void uverbs_cmd_add_udata(struct uverbs_cmd *cmd,
			  const struct ibv_udata *udata);

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
 * A repeated attribute id is EINVAL before the syscall, as the kernel would
 * answer. Built with ENABLE_VALGRIND, outputs are marked defined for
 * memcheck on success (rdma-sim marks what it writes itself).
 */
int uverbs_cmd_execute(struct ibv_context *ctx, struct uverbs_cmd *cmd);

#endif /* RDMA_DM_CMD_IOCTL_H */

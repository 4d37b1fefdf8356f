// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Per-context memory of missing ioctls and the write() fallback rule. */
#include <errno.h>

#include "cmd_write.h"

#define BITS_PER_WORD 64

bool verbs_is_unsupported(struct ibv_context *ctx, unsigned int op_idx)
{
	uint64_t *bits = get_priv(ctx)->unsupported_ioctls;
	uint64_t word = __atomic_load_n(&bits[op_idx / BITS_PER_WORD],
					__ATOMIC_RELAXED);

	return word >> (op_idx % BITS_PER_WORD) & 1;
}

bool verbs_note_unsupported(struct ibv_context *ctx, unsigned int op_idx,
			    int err)
{
	uint64_t *bits = get_priv(ctx)->unsupported_ioctls;
	size_t i;

	/* Threads may share a context: set bits atomically. */
	if (err == ENOTTY) {
		/* No ioctl interface at all: never try one again. */
		for (i = 0; i < sizeof(get_priv(ctx)->unsupported_ioctls) /
					sizeof(*bits);
		     i++)
			__atomic_store_n(&bits[i], UINT64_MAX,
					 __ATOMIC_RELAXED);
		return true;
	}
	if (err != EPROTONOSUPPORT)
		return false;
	__atomic_fetch_or(&bits[op_idx / BITS_PER_WORD],
			  1ULL << (op_idx % BITS_PER_WORD), __ATOMIC_RELAXED);
	return true;
}

static bool is_uhw_slot(const struct uverbs_cmd *cmd, unsigned int i)
{
	return (int)i == cmd->uhw_in_idx || (int)i == cmd->uhw_out_idx;
}

/* A driver attribute the legacy ABI has no place for? */
static bool needs_ioctl(const struct uverbs_cmd *cmd)
{
	const struct ib_uverbs_attr *attr;
	unsigned int i;

	for (i = 0; i < cmd->num_attrs; i++) {
		attr = &cmd->hdr.attrs[i];
		if ((attr->attr_id & UVERBS_ID_NS_MASK) &&
		    (attr->flags & UVERBS_ATTR_F_MANDATORY) &&
		    !is_uhw_slot(cmd, i))
			return true;
	}
	return false;
}

int verbs_execute_or_fallback(struct ibv_context *ctx, unsigned int op_idx,
			      struct uverbs_cmd *cmd)
{
	int ret;

	if (!verbs_is_unsupported(ctx, op_idx)) {
		ret = uverbs_cmd_execute(ctx, cmd);
		if (!verbs_note_unsupported(ctx, op_idx, ret))
			return ret;
	}
	if (cmd->overflow || needs_ioctl(cmd)) {
		errno = cmd->overflow ? EINVAL : EOPNOTSUPP;
		return errno;
	}
	return VERBS_USE_WRITE;
}

/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Functions shared by the exported-verbs files of libibverbs. */
#ifndef RDMA_DM_VERBS_INTERNAL_H
#define RDMA_DM_VERBS_INTERNAL_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

/*
 * What verbs_set_ops() puts in the public verbs_context.query_port slot:
 * asks the provider's query_port op for a full struct ibv_port_attr and
 * copies the first @port_attr_len bytes of it, so programs built against
 * older, shorter versions of the struct get exactly what they know.
 * 0 or a positive errno.
 */
int verbs_query_port_sized(struct ibv_context *context, uint8_t port_num,
			   struct ibv_port_attr *port_attr,
			   size_t port_attr_len);

/*
 * Keep [base, base + size) out of fork() children while registered
 * (only when ibv_fork_init() or RDMAV_FORK_SAFE/IBV_FORK_SAFE enabled
 * fork protection; otherwise a no-op returning 0), and hand it back.
 * Calls nest: a page returns to fork() when no range covers it.
 * 0 or a positive errno (errno set).
 */
int ibv_dontfork_range(void *base, size_t size);

/* The kernel copies DMA-pinned pages on fork (RDMA netlink SYS_GET). */
bool verbs_kernel_copies_on_fork(void);
int ibv_dofork_range(void *base, size_t size);

/*
 * Bad arguments at an exported verb: the errno-returning verbs answer
 * EINVAL, the pointer-returning ones NULL, both with errno EINVAL.
 */
static inline int verbs_einval(void)
{
	errno = EINVAL;
	return EINVAL;
}

static inline void *verbs_null_einval(void)
{
	errno = EINVAL;
	return NULL;
}

/* An errno-style result (0 or a positive errno) with errno set too. */
static inline int verbs_set_errno(int ret)
{
	if (ret)
		errno = ret;
	return ret;
}

/*
 * True, with errno EINVAL, when an exported verb is handed a NULL object
 * pointer, for the entry points whose failure value is neither NULL nor
 * an errno (-1, void, a mask): they return it instead of dereferencing.
 */
static inline bool verbs_null_arg(const void *obj)
{
	if (obj)
		return false;
	errno = EINVAL;
	return true;
}

/*
 * Turn IBV_REG_MR_MASK_BUF in @attr (a private copy) into what backs the
 * buffer: the address path for ordinary memory, the dma-buf path (fd,
 * offset in it, iova = the address) for a dma-buf. Nonzero (EINVAL) for
 * a buffer of another PD or a range outside it.
 */
int verbs_mr_attr_from_buf(struct ibv_pd *pd, struct ibv_mr_init_attr *attr);

#endif /* RDMA_DM_VERBS_INTERNAL_H */

// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Posting work requests through the kernel (POST_SEND, POST_RECV,
 * POST_SRQ_RECV writes), for providers without user-mapped queues or, with
 * an empty list, to kick the kernel. The request is the fixed header, the
 * WRs in uverbs form, then every SGE; the kernel answers the 1-based index
 * of the WR that failed (0: none).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/ib_user_verbs.h>

#include "cmd_write.h"

/* struct ib_uverbs_post_send/_recv/_srq_recv share this header. */
struct post_hdr {
	uint64_t response;
	uint32_t handle;
	uint32_t wr_count;
	uint32_t sge_count;
	uint32_t wqe_size;
};

_Static_assert(sizeof(struct post_hdr) == sizeof(struct ib_uverbs_post_send) &&
		       sizeof(struct post_hdr) ==
			       sizeof(struct ib_uverbs_post_recv) &&
		       sizeof(struct ib_uverbs_sge) == sizeof(struct ibv_sge),
	       "one header layout for the three POST commands");

/* A WR list seen as: next pointer, SGE count and SGE array at offsets. */
struct wr_shape {
	size_t next;
	size_t num_sge;
	size_t sg_list;
	size_t kern_size; /* sizeof the uverbs WR */
};

static const struct wr_shape send_shape = {
	offsetof(struct ibv_send_wr, next),
	offsetof(struct ibv_send_wr, num_sge),
	offsetof(struct ibv_send_wr, sg_list),
	sizeof(struct ib_uverbs_send_wr),
};

static const struct wr_shape recv_shape = {
	offsetof(struct ibv_recv_wr, next),
	offsetof(struct ibv_recv_wr, num_sge),
	offsetof(struct ibv_recv_wr, sg_list),
	sizeof(struct ib_uverbs_recv_wr),
};

static void *wr_next(const struct wr_shape *s, const void *wr)
{
	void *next;

	memcpy(&next, (const uint8_t *)wr + s->next, sizeof(next));
	return next;
}

static int wr_num_sge(const struct wr_shape *s, const void *wr)
{
	int n;

	memcpy(&n, (const uint8_t *)wr + s->num_sge, sizeof(n));
	return n;
}

static const struct ibv_sge *wr_sges(const struct wr_shape *s, const void *wr)
{
	const struct ibv_sge *sg;

	memcpy(&sg, (const uint8_t *)wr + s->sg_list, sizeof(sg));
	return sg;
}

/* Counts WRs and SGEs; a WR with a bad SGE list is returned in *bad. */
static int count_wrs(const struct wr_shape *s, void *wr, uint32_t *wrs,
		     uint32_t *sges, void **bad)
{
	*wrs = 0;
	*sges = 0;
	for (; wr; wr = wr_next(s, wr)) {
		int n = wr_num_sge(s, wr);

		if (n < 0 || (n && !wr_sges(s, wr))) {
			*bad = wr;
			return EINVAL;
		}
		++*wrs;
		*sges += (uint32_t)n;
	}
	return 0;
}

static void fill_send_wr(struct ib_uverbs_send_wr *k,
			 const struct ibv_send_wr *wr, enum ibv_qp_type type)
{
	k->wr_id = wr->wr_id;
	k->num_sge = (uint32_t)wr->num_sge;
	k->opcode = wr->opcode;
	k->send_flags = wr->send_flags;
	/* imm_data and invalidate_rkey share the slot in both structs. */
	k->ex.imm_data = wr->imm_data;
	if (type == IBV_QPT_UD) {
		k->wr.ud.ah = wr->wr.ud.ah ? wr->wr.ud.ah->handle : 0;
		k->wr.ud.remote_qpn = wr->wr.ud.remote_qpn;
		k->wr.ud.remote_qkey = wr->wr.ud.remote_qkey;
		return;
	}
	switch (wr->opcode) {
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
	case IBV_WR_RDMA_READ:
		k->wr.rdma.remote_addr = wr->wr.rdma.remote_addr;
		k->wr.rdma.rkey = wr->wr.rdma.rkey;
		break;
	case IBV_WR_ATOMIC_CMP_AND_SWP:
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		k->wr.atomic.remote_addr = wr->wr.atomic.remote_addr;
		k->wr.atomic.compare_add = wr->wr.atomic.compare_add;
		k->wr.atomic.swap = wr->wr.atomic.swap;
		k->wr.atomic.rkey = wr->wr.atomic.rkey;
		break;
	default:
		break;
	}
}

static void fill_recv_wr(struct ib_uverbs_recv_wr *k,
			 const struct ibv_recv_wr *wr)
{
	k->wr_id = wr->wr_id;
	k->num_sge = (uint32_t)wr->num_sge;
}

/* The @index-th (1-based) WR of the list, or the first if out of range. */
static void *nth_wr(const struct wr_shape *s, void *wr, uint32_t index)
{
	void *cur = wr;

	while (cur && --index)
		cur = wr_next(s, cur);
	return cur ? cur : wr;
}

/*
 * Marshal and post @wr for object @handle with write @command. @type is
 * the QP type for send WRs (< 0 for receive WRs). 0 or a positive errno
 * with *@bad set to the WR that failed (the first one if the kernel did
 * not say), NULL on success.
 */
static int post_list(struct ibv_context *ctx, uint32_t command,
		     uint32_t handle, const struct wr_shape *s, void *wr,
		     int type, void **bad)
{
	struct ib_uverbs_post_send_resp resp;
	struct ib_uverbs_sge *sge;
	struct post_hdr *hdr;
	uint32_t wrs, sges;
	uint8_t *buf, *k;
	size_t len;
	void *cur;
	int ret;

	*bad = NULL;
	ret = count_wrs(s, wr, &wrs, &sges, bad);
	if (ret) {
		errno = ret;
		return ret;
	}
	len = sizeof(*hdr) + wrs * s->kern_size + sges * sizeof(*sge);
	buf = calloc(1, len);
	if (!buf) {
		*bad = wr;
		errno = ENOMEM;
		return ENOMEM;
	}
	hdr = (struct post_hdr *)buf;
	hdr->handle = handle;
	hdr->wr_count = wrs;
	hdr->sge_count = sges;
	hdr->wqe_size = (uint32_t)s->kern_size;
	k = buf + sizeof(*hdr);
	sge = (struct ib_uverbs_sge *)(k + wrs * s->kern_size);
	for (cur = wr; cur; cur = wr_next(s, cur), k += s->kern_size) {
		int n = wr_num_sge(s, cur);

		if (type >= 0)
			fill_send_wr((void *)k, cur, (enum ibv_qp_type)type);
		else
			fill_recv_wr((void *)k, cur);
		if (n)
			memcpy(sge, wr_sges(s, cur), (size_t)n * sizeof(*sge));
		sge += n;
	}
	ret = verbs_write_cmd(ctx, command, buf, len, &resp, sizeof(resp),
			      NULL);
	free(buf);
	if (resp.bad_wr) {
		*bad = nth_wr(s, wr, resp.bad_wr);
		if (!ret)
			ret = errno = EINVAL;
	} else if (ret) {
		*bad = wr;
	}
	return ret;
}

/* The failing WR back in the caller's type. */
#define POST(ctx, command, handle, shape, wr, type, bad_wr)                    \
	({                                                                     \
		void *bad;                                                     \
		int ret_ = post_list(ctx, command, handle, shape, wr, type,    \
				     &bad);                                    \
		if (bad_wr)                                                    \
			*(bad_wr) = bad;                                       \
		ret_;                                                          \
	})

int ibv_cmd_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
		      struct ibv_send_wr **bad_wr)
{
	return POST(qp->context, IB_USER_VERBS_CMD_POST_SEND, qp->handle,
		    &send_shape, wr, (int)qp->qp_type, bad_wr);
}

int ibv_cmd_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,
		      struct ibv_recv_wr **bad_wr)
{
	return POST(qp->context, IB_USER_VERBS_CMD_POST_RECV, qp->handle,
		    &recv_shape, wr, -1, bad_wr);
}

int ibv_cmd_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr,
			  struct ibv_recv_wr **bad_wr)
{
	return POST(srq->context, IB_USER_VERBS_CMD_POST_SRQ_RECV, srq->handle,
		    &recv_shape, wr, -1, bad_wr);
}

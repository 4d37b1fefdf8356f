// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The tag-matching engine of a TM SRQ (ConnectX's XRQ with a tag list).
 *
 * The list has 1 << log_tag_matching_list_sz slots. It is edited by
 * TAG_MATCHING WQEs (opcode 0x28) on the SRQ's command QP, executed in SQ
 * order as they retire: APPEND fills the slot the HCA's append pointer
 * names and moves the pointer to the index the WQE carries (libmlx5's free
 * list, so both sides agree on every handle); REMOVE empties slot
 * "index", and fails (success bit clear) when the slot holds no tag; NOP
 * only carries the software's unexpected-message count. TM_SW_CNT makes
 * the WQE's sw_cnt the HCA's idea of what software has processed;
 * TM_CQE_REQ asks a NO_PACKET CQE with app = tag matching, app_op
 * APPEND/REMOVE/NOOP, tm_cqe.success and the HCA's count of unexpected
 * messages (hw_phase_cnt).
 *
 * A SEND arriving for a QP on the SRQ starts with a 16-byte TMH
 * (opcode @0, app_ctx @4 BE32, tag @8 BE64). EAGER is matched against the
 * valid, matchable slots, the earliest appended first, by
 * (tmh.tag & mask) == tag (ibv_post_srq_ops(3)); a match takes the slot
 * and the payload after the TMH lands in the slot's buffer, completing as
 * CONSUMED_MSG with the slot index in app_info and the TMH scattered to
 * CQE bytes 0-15. RNDV (at most max_rndv_hdr_size, 64 bytes: the TMH, the
 * RVH {va @16 BE64, rkey @24 BE32, len @28 BE32}, the sender's header)
 * is matched the same way; a match completes at once as CONSUMED in a
 * NO_PACKET CQE (the entry is taken, nothing is written), then the HCA READs
 * len bytes at va/rkey through the same QP into the entry's buffer, completes
 * EXPECTED (data valid, app_info the slot) and SENDs the sender a FIN: a TMH
 * with opcode FIN and the RNDV's app_ctx and tag. EAGER or RNDV without a match
 * are unexpected: the whole message lands in the next SRQ WQE, app_op
 * UNEXPECTED, and the HCA's unexpected count goes up. NO_TAG, FIN and messages
 * shorter than a TMH land in the SRQ WQE as NO_TAG. Every TM CQE goes to the
 * SRQ's CQ and names the SRQ by its user index (its number with CQE version 0).
 *
 * Where the facts are silent (sim/README.md, tag matching): the sender's
 * header after the RVH is not delivered; the FIN carries only a TMH. A tag
 * appended while the HCA had seen unexpected messages software had not (sw
 * count behind the HCA's) never matches, so no message can overtake one that
 * software still has to look at; its APPEND CQE carries the HCA's count,
 * which libmlx5 turns into IBV_WC_TM_SYNC_REQ.
 */
#include "hca.h"

#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

enum {
	TM_WQE_NOP = 0,
	TM_WQE_APPEND = 1,
	TM_WQE_REMOVE = 2,
	TM_FLAG_SW_CNT = 0x40,
	TM_FLAG_CQE_REQ = 0x80,
};

enum {
	TMH_NO_TAG = 0,
	TMH_RNDV = 1,
	TMH_FIN = 2,
	TMH_EAGER = 3,
	TMH_SIZE = 16,
	RVH_END = 32, /* TMH + RVH */
};

struct tm_slot {
	uint8_t valid;
	uint8_t matchable; /* appended in phase with the HCA's count */
	uint64_t tag, mask;
	uint64_t seq; /* append order */
	struct hca_sge sge;
};

struct hca_tm {
	uint32_t nslots;
	uint32_t append_at; /* the slot the next APPEND fills */
	uint16_t hw_cnt;    /* unexpected messages delivered */
	uint16_t sw_cnt;    /* ... as software last reported them */
	uint64_t seq;
	struct tm_slot slot[];
};

static uint64_t be64_at(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return be64toh(v);
}

static uint16_t be16_at(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

struct hca_tm *hca_tm_new(uint32_t nslots)
{
	struct hca_tm *tm =
		calloc(1, sizeof(*tm) + nslots * sizeof(struct tm_slot));

	if (tm)
		tm->nslots = nslots;
	return tm;
}

void hca_tm_free(struct hca_tm *tm)
{
	free(tm);
}

void hca_tm_decode(struct hca_swqe *w, const uint8_t *seg)
{
	w->tm.op = seg[0] >> 4;
	w->tm.flags = seg[1];
	w->tm.index = be16_at(seg + 2);
	w->tm.sw_cnt = be16_at(seg + 6);
	w->tm.tag = be64_at(seg + 16);
	w->tm.mask = be64_at(seg + 24);
}

static uint32_t srq_cqe_index(const struct hca_srq *srq)
{
	/* libmlx5 sends 0xffffff when CQEs name the SRQ by number */
	return srq->uidx == 0xffffff ? srq->srqn : srq->uidx;
}

static int append(struct hca_tm *tm, const struct hca_swqe *w)
{
	struct tm_slot *s;
	uint16_t phase = tm->sw_cnt;

	if (tm->append_at >= tm->nslots || w->tm.index >= tm->nslots)
		return 0;
	s = &tm->slot[tm->append_at];
	if (s->valid)
		return 0;
	if (w->tm.flags & TM_FLAG_SW_CNT)
		phase = w->tm.sw_cnt;
	s->valid = 1;
	s->matchable = phase == tm->hw_cnt;
	s->tag = w->tm.tag;
	s->mask = w->tm.mask;
	s->seq = ++tm->seq;
	s->sge = w->nsge && w->sge[0].len ? w->sge[0]
					  : (struct hca_sge){.len = 0};
	tm->append_at = w->tm.index;
	return 1;
}

static int remove_slot(struct hca_tm *tm, uint16_t index)
{
	if (index >= tm->nslots || !tm->slot[index].valid)
		return 0;
	tm->slot[index].valid = 0;
	return 1;
}

static const uint8_t list_app_op[] = {
	[TM_WQE_NOP] = HCA_TM_APP_NOOP,
	[TM_WQE_APPEND] = HCA_TM_APP_APPEND,
	[TM_WQE_REMOVE] = HCA_TM_APP_REMOVE,
};

void hca_tm_list_op(struct hca_qp *qp, const struct hca_swqe *w)
{
	struct hca_srq *srq = qp->srq;
	struct hca_tm *tm = srq->tm;
	struct hca_cqe_info ci = {
		.opcode = HCA_CQE_NO_PACKET,
		.wqe_opcode = w->opcode,
		.wqe_counter = w->wqe_idx,
		.qpn = qp->qpn,
		.uidx = srq_cqe_index(srq),
		.app = HCA_CQE_APP_TM,
		.has_head = 1,
	};
	uint32_t ok;

	switch (w->tm.op) {
	case TM_WQE_APPEND:
		ok = append(tm, w);
		break;
	case TM_WQE_REMOVE:
		ok = remove_slot(tm, w->tm.index);
		break;
	case TM_WQE_NOP:
		ok = 1;
		break;
	default:
		return; /* no such list operation: nothing done */
	}
	/* the count software reports is taken by every kind of op */
	if (w->tm.flags & TM_FLAG_SW_CNT)
		tm->sw_cnt = w->tm.sw_cnt;
	if (sim_tracing())
		sim_trace("tm srq %#x: op %u index %u -> %s (hw %u sw %u)",
			  srq->srqn, w->tm.op, w->tm.index,
			  ok ? "ok" : "failed", tm->hw_cnt, tm->sw_cnt);
	if (!(w->tm.flags & TM_FLAG_CQE_REQ) || !srq->cq)
		return;
	ci.app_op = list_app_op[w->tm.op];
	ok = htobe32(ok ? 0x80000000u : 0);
	memcpy(ci.head, &ok, 4);
	ci.head[4] = (uint8_t)(tm->hw_cnt >> 8);
	ci.head[5] = (uint8_t)tm->hw_cnt;
	hca_cqe_write(srq->cq, &ci);
}

/* The earliest appended slot an EAGER tag matches, or -1. */
static int match(const struct hca_tm *tm, uint64_t tag)
{
	const struct tm_slot *s;
	uint64_t best = 0;
	int found = -1;
	uint32_t i;

	for (i = 0; i < tm->nslots; i++) {
		s = &tm->slot[i];
		if (!s->valid || !s->matchable || (tag & s->mask) != s->tag)
			continue;
		if (found < 0 || s->seq < best) {
			found = (int)i;
			best = s->seq;
		}
	}
	return found;
}

int hca_tm_recv(struct hca_qp *qp, const struct hca_pkt *p, struct hca_sge *sge,
		uint32_t *nsge, uint32_t *wqe_counter)
{
	struct hca_tm *tm = qp->srq->tm;
	uint8_t *h = qp->tm_head;
	struct iovec iov = {.iov_base = h, .iov_len = RVH_END};
	int slot = -1, ret;

	qp->tm_skip = 0;
	memset(h, 0, RVH_END);
	if (p->len >= TMH_SIZE)
		hca_rx_payload(&iov, 1);
	else
		h[0] = TMH_NO_TAG;
	if (h[0] == TMH_EAGER ||
	    (h[0] == TMH_RNDV && p->len >= RVH_END &&
	     p->len <= HCA_TM_RNDV_HDR && (p->flags & HCA_PF_LAST)))
		slot = match(tm, be64_at(h + 8));
	if (slot >= 0 && h[0] == TMH_RNDV) {
		/* taken; the data comes by READ once the header is in */
		tm->slot[slot].valid = 0;
		*nsge = 0;
		*wqe_counter = 0;
		qp->tm_op = HCA_TM_APP_CONSUMED;
		qp->tm_idx = (uint16_t)slot;
		qp->tm_skip = (uint8_t)p->len;
		return 0;
	}
	if (slot >= 0) {
		tm->slot[slot].valid = 0;
		sge[0] = tm->slot[slot].sge;
		*nsge = sge[0].len ? 1 : 0;
		*wqe_counter = 0;
		qp->tm_op = HCA_TM_APP_CONSUMED_MSG;
		qp->tm_idx = (uint16_t)slot;
		qp->tm_skip = TMH_SIZE;
		return 0;
	}
	ret = hca_recv_wqe(qp, sge, nsge, wqe_counter);
	if (ret)
		return ret; /* RNR: nothing was taken, the retry decides */
	if (h[0] == TMH_EAGER || h[0] == TMH_RNDV) {
		tm->hw_cnt++;
		qp->tm_op = HCA_TM_APP_UNEXPECTED;
	} else {
		qp->tm_op = HCA_TM_APP_NO_TAG;
	}
	return 0;
}

static uint32_t be32_at(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* The READ of a matched rendezvous into its slot's buffer. */
static void rndv_read(struct hca_qp *qp)
{
	const struct tm_slot *s = &qp->srq->tm->slot[qp->tm_idx];
	const uint8_t *h = qp->tm_head;
	struct hca_swqe w = {
		.opcode = HCA_WQE_RDMA_READ,
		.raddr = be64_at(h + 16),
		.rkey = be32_at(h + 24),
		.len = be32_at(h + 28),
		.nsge = 1,
		.sge = {s->sge},
		.tm = {.rndv = HCA_TM_RNDV_READ,
		       .index = qp->tm_idx,
		       .tag = be64_at(h + 8),
		       .app_ctx = be32_at(h + 4)},
	};

	if (hca_req_inject(qp, &w, NULL, 0) && sim_tracing())
		sim_trace("tm qp %#x: no room for the rendezvous READ",
			  qp->qpn);
}

void hca_tm_rndv_done(struct hca_qp *qp, const struct hca_swqe *w, uint8_t synd)
{
	struct hca_cqe_info ci = {
		.opcode = HCA_CQE_RESP_SEND,
		.qpn = qp->qpn,
		.uidx = srq_cqe_index(qp->srq),
		.byte_cnt = w->len,
		.app = HCA_CQE_APP_TM,
		.app_op = HCA_TM_APP_EXPECTED,
		.app_info = w->tm.index,
	};
	struct hca_swqe fin = {
		.opcode = HCA_WQE_SEND,
		.tm = {.rndv = HCA_TM_RNDV_FIN},
	};
	uint8_t tmh[TMH_SIZE] = {TMH_FIN};
	uint32_t ctx = htobe32(w->tm.app_ctx);
	uint64_t tag = htobe64(w->tm.tag);

	if (synd)
		return; /* the READ's error completion ends it */
	if (qp->srq->cq)
		hca_cqe_write(qp->srq->cq, &ci);
	memcpy(tmh + 4, &ctx, 4);
	memcpy(tmh + 8, &tag, 8);
	if (hca_req_inject(qp, &fin, tmh, sizeof(tmh)) && sim_tracing())
		sim_trace("tm qp %#x: no room for the rendezvous FIN", qp->qpn);
}

struct hca_cq *hca_tm_complete(struct hca_qp *qp, struct hca_cqe_info *ci)
{
	struct hca_srq *srq = qp->srq;

	ci->uidx = srq_cqe_index(srq);
	if (!ci->syndrome) {
		ci->app = HCA_CQE_APP_TM;
		ci->app_op = qp->tm_op;
		if (qp->tm_op == HCA_TM_APP_CONSUMED) {
			/* no data landed: libmlx5 reads CONSUMED from a
			 * NO_PACKET CQE */
			ci->opcode = HCA_CQE_NO_PACKET;
			rndv_read(qp);
		}
		if (qp->tm_op == HCA_TM_APP_CONSUMED_MSG ||
		    qp->tm_op == HCA_TM_APP_CONSUMED) {
			ci->app_info = qp->tm_idx;
			memcpy(ci->head, qp->tm_head, TMH_SIZE);
			ci->has_head = 1;
		}
	}
	qp->tm_op = 0;
	return srq->cq;
}

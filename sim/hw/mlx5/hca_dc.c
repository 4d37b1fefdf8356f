// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Dynamically Connected transport. A DCI is an RC requester whose WQEs
 * each name their target (address vector, DCT number, DC access key); it
 * serves one target at a time and connects anew when the next WQE names
 * another one after everything before it completed. A DCT is an RC
 * responder reached by number: each DCI that connects gets a connection
 * QP of its own (PSNs, ACKs, READ resources) that shares the DCT's PD,
 * SRQ, receive CQ, user index and access rights. A packet carrying the
 * wrong key is dropped without an answer, so the DCI times out and ends
 * in RETRY_EXC_ERR (the key violation event goes to DEVX only).
 *
 * DCI streams: the simulated ConnectX reports dci_streams_caps 0/0 (as a
 * ConnectX-6 without the feature), so no DCI has stream channels and the
 * ctrl segment's stream id (bytes 9-10) is not looked at: libmlx5 44
 * leaves those bytes as the ring held them unless
 * mlx5dv_wr_set_dc_addr_stream wrote them.
 */
#include <stdlib.h>
#include <string.h>

#include "hca.h"

#define AV_EXTENDED 0x80000000u /* dqp_dct bit 31: the 48-byte AV */

static uint64_t be64_of(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

uint32_t hca_dci_av(struct hca_swqe *w, const uint8_t *s)
{
	uint32_t dqp = (uint32_t)s[8] << 24 | (uint32_t)s[9] << 16 |
		       (uint32_t)s[10] << 8 | s[11];

	w->dc_key = be64_of(s);
	w->dqpn = dqp & 0xffffff;
	w->sl = s[12] & 0xf;
	w->dlid = (uint16_t)(s[14] << 8 | s[15]);
	return dqp & AV_EXTENDED ? 3 : 1;
}

static uint32_t target_dev(const struct hca_qp *qp, const struct hca_swqe *w)
{
	return hca_av_dst_dev(qp, w);
}

int hca_dci_ready(struct hca_qp *qp, const struct hca_swqe *w, int idle)
{
	if (qp->dc_live && qp->dest_qpn == w->dqpn &&
	    qp->dlid_dev == target_dev(qp, w) && qp->dc_key == w->dc_key)
		return 1;
	if (!idle)
		return 0; /* finish with the current DCT first */
	qp->dest_qpn = w->dqpn;
	qp->dlid_dev = target_dev(qp, w);
	qp->dc_key = w->dc_key;
	qp->dc_conn = ++qp->dc_gen;
	qp->dc_live = 1;
	/* the connection starts at this WQE's first PSN */
	qp->dc_psn = w->psn_first;
	qp->retries = qp->rnr_retries = 0;
	return 1;
}

void hca_dci_stamp(const struct hca_qp *qp, struct hca_pkt *p)
{
	p->dc_key = qp->dc_key;
	p->dc_conn = qp->dc_conn;
	p->dc_psn = qp->dc_psn;
}

static struct hca_qp *find_conn(const struct hca_qp *dct,
				const struct hca_pkt *p)
{
	struct hca_qp *c;

	for (c = hca_qps; c; c = c->next)
		if (c->dct_parent == dct && c->dest_qpn == p->src_qpn &&
		    c->dlid_dev == p->src_dev)
			return c;
	return NULL;
}

static struct hca_qp *new_conn(struct hca_qp *dct, const struct hca_pkt *p)
{
	struct hca_qp *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->dev = dct->dev;
	c->qpn = dct->qpn;
	c->type = IB_QPT_RC;
	c->uidx = dct->uidx;
	c->pdn = dct->pdn;
	c->rcq = dct->rcq;
	c->srq = dct->srq;
	c->access = dct->access;
	c->min_rnr_timer = dct->min_rnr_timer;
	c->cs_res = dct->cs_res;
	c->dest_rd_atom = HCA_RKEEP;
	c->dest_qpn = p->src_qpn;
	c->dlid_dev = p->src_dev;
	c->dct_parent = dct;
	c->next = dct->next;
	dct->next = c;
	return c;
}

struct hca_qp *hca_dct_conn(struct hca_qp *dct, const struct hca_pkt *p)
{
	struct hca_qp *c;

	if (dct->state != IB_QPS_RTR || p->dc_key != dct->dc_key)
		return NULL;
	c = find_conn(dct, p);
	if (!c)
		c = new_conn(dct, p);
	if (c && (c->dc_conn != p->dc_conn || !c->dc_live)) {
		/* a new connection from this DCI: its state starts over */
		hca_qp_reset(c);
		c->state = IB_QPS_RTR;
		c->epsn = p->dc_psn;
		c->dc_conn = p->dc_conn;
		c->dc_live = 1;
	}
	return c;
}

void hca_dct_release(struct hca_qp *dct)
{
	struct hca_qp **p = &hca_qps, *c;

	while (*p) {
		c = *p;
		if (c->dct_parent == dct) {
			*p = c->next;
			free(c);
		} else {
			p = &c->next;
		}
	}
}

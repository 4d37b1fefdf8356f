// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The HCA's receive entry. The wire (hw/fabric) hands every packet that
 * arrives at this process to hca_rx() and knows nothing of what it is
 * for; the HCA applies --fault's wire rules, counts it at the port and
 * gives it to the role its opcode names: a response (ACK, NAK, READ
 * response, atomic response) to the requester of the QP it is for, a
 * request to the responder (of a DCT: of its connection for that DCI).
 */
#include "hca.h"

#include <string.h>
#include <sys/uio.h>

static const uint8_t *cur_payload; /* the packet being handled */
static uint32_t cur_len;
static int cur_landed; /* ... landed: its bytes and CQE are in place */

static int is_response(uint8_t op)
{
	return op == HCA_PKT_ACK || op == HCA_PKT_NAK ||
	       op == HCA_PKT_READ_RESP || op == HCA_PKT_ATOMIC_RESP;
}

void hca_rx_deliver(const struct hca_pkt *p, const uint8_t *payload)
{
	struct hca_qp *qp = hca_qp_by_qpn(p->dst_dev, p->dst_qpn);

	cur_payload = payload;
	cur_len = p->len;
	hca_hw_count(p->dst_dev, SIM_HWC_RCV_PKTS);
	hca_hw_add(p->dst_dev, SIM_HWC_RCV_BYTES, p->len);
	if (hca_soft) { /* a software device (rxe) takes its own packets */
		hca_soft->rcv(p, payload);
		return;
	}
	if (qp && qp->dct)
		qp = hca_dct_conn(qp, p);
	/* XRC: a request for an SRQ of another process, or an error of a
	 * shared TGT QP, goes where the SRQ and the handles are */
	if ((p->xrc_srqn || p->op == HCA_PKT_XRC_ERR) &&
	    (!qp || qp->xrc == HCA_XRC_TGT)) {
		hca_xrc_input(qp, p);
		return;
	}
	if (!qp)
		return;
	if (is_response(p->op)) {
		hca_req_input(qp, p);
		return;
	}
	/* a key the responder may offer WRITEs (hca_land_write.c) */
	if (p->op == HCA_PKT_WRITE && (p->flags & HCA_PF_FIRST))
		hca_land_write_learn(qp, p->rkey);
	hca_resp_input(qp, p);
}

void hca_rx(const struct hca_pkt *p, const uint8_t *payload)
{
	if (!hca_fault_rx(p, payload))
		hca_rx_deliver(p, payload);
}

void hca_rx_landed(const struct hca_pkt *p)
{
	cur_landed = 1;
	hca_rx_deliver(p, NULL);
	cur_landed = 0;
}

int hca_rx_landing(void)
{
	return cur_landed;
}

void hca_rx_payload(const struct iovec *iov, int iovcnt)
{
	uint32_t off = 0;
	size_t n;
	int i;

	for (i = 0; i < iovcnt && off < cur_len; i++) {
		n = iov[i].iov_len < cur_len - off ? iov[i].iov_len
						   : cur_len - off;
		memcpy(iov[i].iov_base, cur_payload + off, n);
		off += (uint32_t)n;
	}
}

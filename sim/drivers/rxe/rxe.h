/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rxe driver model internals: its queue buffers and their mmap entries,
 * and the data path the kernel's rxe runs in software: the requester
 * (rxe_req.c) turns send WQEs into packets, the responder (rxe_resp.c)
 * executes arriving requests, the completer (rxe_comp.c) retires send
 * WQEs on their acknowledgements; rxe_cq.c writes the CQEs, rxe_net.c is
 * the wire (the fabric's rings) and the QP table.
 *
 * Of the hardware, rxe includes the wire (hca_fabric.h: its packets,
 * rings and marks) and what it shares of the HCA's engine (hca_engine.h:
 * the thread it runs in, the clock, the counters, --fault's cqe-error),
 * never the mlx5 HCA's own hca.h.
 */
#ifndef RDMA_SIM_RXE_H
#define RDMA_SIM_RXE_H

#include "hca_engine.h"
#include "hca_fabric.h"
#include "uapi.h"

#include <rdma/rdma_user_rxe.h>

struct rxe_sim_queue {
	struct rxe_sim_queue *next;
	struct sim_uvfile *uv;
	uint64_t offset; /* mmap offset (struct mminfo) */
	uint32_t size;	 /* page-rounded bytes */
	uint32_t usable; /* slots - 1: what create/query report */
	void *kbuf;	 /* the kernel's mapping */
	uint32_t pages;	 /* its page file, 0: anonymous (rxe_queue.c) */
	int32_t pages_pid;
	uint8_t pending; /* not yet mmap()ed by userspace */
	/* the index the kernel owns, kept privately as rxe does (the
	 * consumer of SQ/RQ/SRQ rings, the producer of a CQ ring) */
	uint32_t index;
	uint8_t to_client; /* a CQ: the kernel produces */
	uint8_t notify;	   /* CQ: armed (IB_CQ_SOLICITED 1, NEXT_COMP 2) */
};

/* A ring of at least nelem entries of elem_size bytes (both rounded up to
 * powers of two, as rxe_queue_init does); fills mi. NULL on ENOMEM. */
struct rxe_sim_queue *rxe_queue_new(struct sim_uvfile *uv, uint32_t nelem,
				    uint32_t elem_size, struct mminfo *mi);
void rxe_queue_free(struct rxe_sim_queue *q);
/* rxe_mmap: the pending entry at offset, length at most its size. */
void *rxe_queue_mmap(struct sim_uvfile *uv, void *addr, size_t len, int flags,
		     uint64_t offset);
/* Slot i (masked) of the ring. */
void *rxe_queue_slot(const struct rxe_sim_queue *q, uint32_t i);
/* The index userspace owns (acquire), masked. */
uint32_t rxe_queue_user_index(const struct rxe_sim_queue *q);
/* Advance the kernel's index and publish it (release). */
void rxe_queue_advance(struct rxe_sim_queue *q);
/* Entries between the consumer and the producer of a ring. */
uint32_t rxe_queue_count(const struct rxe_sim_queue *q);
/* rxe_queue_reset: the entries' bytes go, the indices stay. */
void rxe_queue_clear(struct rxe_sim_queue *q);
/* Resize: the entries queued in from go to the start of to. */
void rxe_queue_move(struct rxe_sim_queue *to, struct rxe_sim_queue *from);

/* IB_WR_* as the send WQE carries them */
enum {
	RXE_WR_WRITE,
	RXE_WR_WRITE_IMM,
	RXE_WR_SEND,
	RXE_WR_SEND_IMM,
	RXE_WR_READ,
	RXE_WR_CS,
	RXE_WR_FA,
	RXE_WR_LOCAL_INV,
	RXE_WR_BIND_MW,
	RXE_WR_SEND_INV,
};

/* enum ib_wc_status */
enum {
	RXE_WC_SUCCESS = 0,
	RXE_WC_LOC_QP_OP_ERR = 2,
	RXE_WC_LOC_PROT_ERR = 4,
	RXE_WC_WR_FLUSH_ERR = 5,
	RXE_WC_MW_BIND_ERR = 6,
	RXE_WC_REM_INV_REQ_ERR = 9,
	RXE_WC_REM_ACCESS_ERR = 10,
	RXE_WC_REM_OP_ERR = 11,
	RXE_WC_RETRY_EXC_ERR = 12,
	RXE_WC_RNR_RETRY_EXC_ERR = 13,
	RXE_WC_FATAL_ERR = 19,
};

/* ib_cq_notify_flags */
enum { RXE_CQ_SOLICITED = 1, RXE_CQ_NEXT_COMP = 2 };

/* ib_wc_flags as the kernel numbers them (copied to userspace as they
 * are: WITH_INVALIDATE reads as IBV_WC_IP_CSUM_OK there) */
enum { RXE_WC_GRH = 1, RXE_WC_WITH_IMM = 2, RXE_WC_WITH_INV = 4 };

/* the send WQE's state word, as rxe keeps it in the ring */
enum { RXE_WQE_POSTED, RXE_WQE_PROCESSING, RXE_WQE_PENDING, RXE_WQE_DONE };

#define RXE_MAX_SGE	     32 /* max_sge (rxe_param.h) */
#define RXE_MAX_UNACKED_PSNS 128
#define RXE_MAX_PKT_PER_ACK  64
#define RXE_RES		     128 /* atomic results kept: max_qp_rd_atom */
#define RXE_RECV_MAX	     (sizeof(struct rxe_recv_wqe) + 32 * 16)

/* An answer of the responder waiting for room on the wire: an ACK, NAK
 * or atomic ACK (p), or the rest of a READ's responses from off. */
struct rxe_ans {
	struct hca_pkt p;
	uint64_t va;
	uint32_t rkey, len, off;
};
#define RXE_ANS 32

struct rxe_res {
	uint32_t psn;
	uint64_t orig; /* an atomic's original value */
};

struct rxe_sim_qp {
	struct rxe_sim_qp *next;
	struct sim_qp *qp;
	struct sim_uvfile *uv;
	struct rxe_sim_queue *sq, *rq;
	unsigned int dev;
	uint32_t qpn;
	uint32_t dst_dev; /* the device the primary AV's MAC names */
	uint16_t src_port;     /* RoCE v2 UDP source port (udp_sport.h) */
	uint16_t traced_sport; /* the last one --trace said */
	uint64_t rx_pkts; /* packets that came for it (--fault counts) */
	uint32_t faults_sent; /* send WQEs taken (--fault cqe-error) */
	struct {
		uint32_t wqe_index; /* next WQE to (re)transmit */
		uint32_t psn;	    /* next PSN */
		uint32_t rd_atomic; /* READ/atomic WQEs in flight */
		uint64_t rnr_until; /* RNR NAK: no sending before this */
	} req;
	struct {
		uint32_t psn; /* oldest PSN not yet acknowledged */
		uint8_t retry, rnr_retry;
		uint8_t retrying;  /* sent again: later stale answers ignored */
		uint64_t deadline; /* ACK timer, 0: off */
		struct hca_mark mark;
	} comp;
	struct {
		uint32_t epsn;
		uint8_t in_msg, op; /* a SEND / WRITE being received */
		uint8_t have_wqe;   /* a receive WQE is in use */
		uint8_t nak_sent;   /* one PSN sequence NAK per gap */
		uint32_t placed;    /* bytes placed of the message */
		uint64_t va;	    /* WRITE: next remote byte */
		uint32_t rkey;
		uint32_t resid;
		uint32_t ack_psn; /* last request acknowledged */
		struct rxe_res res[RXE_RES];
		uint32_t nres;
		struct rxe_ans ans[RXE_ANS];
		uint32_t ans_head, ans_tail; /* queued / sent */
		/* an SRQ WQE is copied out when a message starts */
		uint8_t srq_wqe[RXE_RECV_MAX] __attribute__((aligned(8)));
	} resp;
};

/* ---- rxe_net.c: QP table, addresses, the wire ---- */
struct rxe_sim_qp *rxe_qp_find(unsigned int dev, uint32_t qpn);
void rxe_qp_add(struct rxe_sim_qp *q);
void rxe_qp_del(struct rxe_sim_qp *q);
/* The device whose netdev has the AV's destination MAC (SIM_NO_DEVICE:
 * none, the packets are lost). */
unsigned int rxe_av_dev(unsigned int dev, const struct sim_ah_attr *ah);
/* A packet to dst, filled from the QP's address: 0, -EAGAIN, -EHOSTUNREACH. */
int rxe_xmit(struct rxe_sim_qp *q, struct hca_pkt *p, const struct iovec *iov,
	     int n, int request);
/* Stamp p with the sender's GIDs and IP fields for an AV. */
void rxe_pkt_addr(const struct rxe_sim_qp *q, const struct sim_ah_attr *av,
		  struct hca_pkt *p);
/* The 40 bytes ahead of a UD payload: the IPv4 (after 20 zeros) or IPv6
 * header it came in. */
void rxe_net_hdr(const struct hca_pkt *p, uint8_t hdr[40]);
/* Port MTU in bytes of dev's netdev. */
uint32_t rxe_port_mtu(unsigned int dev);
/* Path MTU in bytes of a connected QP. */
uint32_t rxe_path_mtu(const struct rxe_sim_qp *q);
/* Start the engine thread and the ring (a QP is created). */
int rxe_net_open(struct rxe_sim_qp *q);
/* The AH with number ah_num of a context, or NULL. */
struct sim_ah *rxe_ah_find(struct sim_uvfile *uv, uint32_t ah_num);

/* ---- memory: an SGE list as iovecs after the key checks ---- */
/* [off, off+len) of n SGEs under need (IB_ACCESS_*) into iov (at most
 * RXE_MAX_SGE + 1 entries); the iovec count or -1 with *status set. */
int rxe_sg_iov(const struct rxe_sim_qp *q, const struct rxe_sge *sge,
	       uint32_t n, uint32_t off, uint32_t len, uint32_t need,
	       struct iovec *iov, uint32_t *status);
/* Remote [va, va+len) under rkey for need, or NULL. */
void *rxe_rmem(const struct rxe_sim_qp *q, uint32_t rkey, uint64_t va,
	       uint64_t len, uint32_t need);

/* The MR bytes [va, va+len) under lkey with no right asked (a window's
 * own MR), or NULL. */
void *rxe_lmem(const struct rxe_sim_qp *q, uint32_t lkey, uint64_t va,
	       uint64_t len);

/* ---- rxe_mw.c ---- */
/* Execute a BIND_MW WQE: its WC status. */
uint32_t rxe_bind_mw(struct rxe_sim_qp *q, const struct rxe_send_wqe *w);
/* LOCAL_INV / SEND_WITH_INV of key: 0, or -1 (no bound type 2 window of
 * the QP's PD has it). */
int rxe_mw_invalidate(struct rxe_sim_qp *q, uint32_t key);
/* Remote [va, va+len) through a window, or NULL. */
void *rxe_mw_mem(const struct rxe_sim_qp *q, struct sim_mw *mw, uint32_t key,
		 uint64_t va, uint64_t len, uint32_t need);

/* ---- rxe_cq.c ---- */
/* Post wc to cq and raise its event if armed; -EBUSY when full (CQ_ERR
 * raised). */
int rxe_cq_post(struct sim_cq *cq, const struct ib_uverbs_wc *wc,
		int solicited);

/* ---- rxe_req.c ---- */
/* Send what the SQ holds and the window allows; 1 if it sent. */
int rxe_requester(struct rxe_sim_qp *q);
/* Rewind to the oldest unretired WQE: send again from its first PSN. */
void rxe_req_rewind(struct rxe_sim_qp *q);
/* A READ or an atomic: waits for its own response. */
int rxe_wr_is_rd_atomic(uint32_t opcode);

/* ---- rxe_comp.c ---- */
void rxe_comp_rcv(struct rxe_sim_qp *q, const struct hca_pkt *p,
		  const uint8_t *payload);
/* Retire finished WQEs in order, run the ACK/RNR timers; 1 if work. */
int rxe_completer(struct rxe_sim_qp *q, uint64_t now);
/* The QP goes to ERR: flush the SQ and the RQ. */
void rxe_qp_error(struct rxe_sim_qp *q);
/* Flush what a QP in ERR still holds; 1 if work. */
int rxe_flush(struct rxe_sim_qp *q);

/* ---- rxe_resp.c ---- */
void rxe_resp_rcv(struct rxe_sim_qp *q, const struct hca_pkt *p,
		  const uint8_t *payload);
/* Send the answers that waited for room; 1 if it sent any. */
int rxe_resp_flush(struct rxe_sim_qp *q);

/* 24-bit PSN arithmetic */
static inline int32_t rxe_psn_diff(uint32_t a, uint32_t b)
{
	return (int32_t)((a - b) << 8) >> 8;
}

#endif

/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The simulated ConnectX: the engine that executes what libmlx5 posts.
 *
 * Each process runs its own engine over its own queues (buffers and
 * doorbell records live in its memory, as user queues do on hardware).
 * Work is announced by stores to the UAR pages (hca_doorbell.c), which run
 * a pass in the storing thread; a pass reads the doorbell records (the
 * SQ/RQ/SRQ counters and the CQ arm word). Packets, timers and doorbells
 * the storing thread could not serve are the engine thread's (hca_engine.c).
 * Packets between QPs travel through one
 * shared-memory receive ring per process (hca_fabric.c); a QP is
 * reachable at <dir>/q<dev>.<qpn>, a symlink naming its process.
 *
 * All engine state is protected by sim_lock.
 */
#ifndef RDMA_SIM_HCA_H
#define RDMA_SIM_HCA_H

#include <stddef.h>
#include <stdint.h>

#include "hca_cmd.h"
#include "hca_doorbell.h"
#include "hca_engine.h"
#include "hca_fabric.h"
#include "ib_enums.h"
#include "sim_world.h"

/* mlx5 WQE opcodes (ctrl segment byte 3) */
enum {
	HCA_WQE_NOP = 0x00,
	HCA_WQE_SEND_INVAL = 0x01,
	HCA_WQE_RDMA_WRITE = 0x08,
	HCA_WQE_RDMA_WRITE_IMM = 0x09,
	HCA_WQE_SEND = 0x0a,
	HCA_WQE_SEND_IMM = 0x0b,
	HCA_WQE_TSO = 0x0e,
	HCA_WQE_RDMA_READ = 0x10,
	HCA_WQE_ATOMIC_CS = 0x11,
	HCA_WQE_ATOMIC_FA = 0x12,
	HCA_WQE_UMR = 0x25,
	HCA_WQE_TAG_MATCHING = 0x28,
};

/* mlx5 CQE opcodes (op_own >> 4) */
enum {
	HCA_CQE_REQ = 0,
	HCA_CQE_RESP_WR_IMM = 1,
	HCA_CQE_RESP_SEND = 2,
	HCA_CQE_RESP_SEND_IMM = 3,
	HCA_CQE_RESP_SEND_INV = 4,
	HCA_CQE_RESIZE_CQ = 5,
	HCA_CQE_NO_PACKET = 6, /* tag-list operation */
	HCA_CQE_REQ_ERR = 13,
	HCA_CQE_RESP_ERR = 14,
	HCA_CQE_INVALID = 15,
};

/* mlx5 error CQE syndromes */
enum {
	HCA_SYND_OK = 0,
	HCA_SYND_LOC_LEN = 0x01,
	HCA_SYND_LOC_QP_OP = 0x02,
	HCA_SYND_LOC_PROT = 0x04,
	HCA_SYND_FLUSH = 0x05,
	HCA_SYND_MW_BIND = 0x06,
	HCA_SYND_BAD_RESP = 0x10,
	HCA_SYND_LOC_ACCESS = 0x11,
	HCA_SYND_REM_INV_REQ = 0x12,
	HCA_SYND_REM_ACCESS = 0x13,
	HCA_SYND_REM_OP = 0x14,
	HCA_SYND_RETRY_EXC = 0x15,
	HCA_SYND_RNR_RETRY_EXC = 0x16,
};

/* QP states, types and access bits: IB_QPS_*, IB_QPT_*, IB_ACCESS_*
 * (ib_enums.h) */
/* An XRC QP's half of the connection; its transport is RC's. */
enum { HCA_XRC_NONE, HCA_XRC_INI, HCA_XRC_TGT };

#define HCA_CQ_ARM_IDLE 0x0f000000u /* arm word no real doorbell writes */
#define HCA_MAX_SGE	32
#define HCA_SEG_MAX	65536 /* payload bytes per RC/UC packet */
#define HCA_WLAND_KEYS 4 /* rkeys a WRITE landing offers */

struct hca_cq {
	struct hca_cq *next;
	unsigned int dev;
	uint32_t cqn;
	uint32_t ncqe; /* power of two */
	uint32_t cqe_size;
	uint8_t *buf;
	volatile uint32_t *dbrec; /* [0] set_ci, [1] arm (big-endian) */
	uint32_t pi;		  /* CQEs written */
	uint8_t overrun;
	uint8_t ignore_overrun;	   /* IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN */
	uint8_t solicited_pending; /* SE or error CQE since the last event */
	uint64_t mod_since; /* moderation: when the first held CQE came */
	uint16_t mod_count, mod_period; /* MODIFY_CQ's (0: off) */
};

struct hca_srq {
	struct hca_srq *next;
	unsigned int dev;
	uint32_t srqn;
	uint32_t wqe_cnt, wqe_shift, max_gs;
	uint8_t *buf;
	volatile uint32_t *dbrec;
	uint16_t consumed; /* WQEs taken (compared with the doorbell) */
	uint16_t head;	   /* next WQE index on the free list */
	uint32_t limit;	   /* armed limit, 0 = not armed */
	uint32_t land_qpn; /* the QP that last took a WQE (hca_land_srq.c) */
	uint32_t uidx;
	/* XRC: the domain whose TGT QPs may name it, and where its
	 * completions go; 0 / NULL for a basic SRQ */
	uint32_t xrcdn;
	struct hca_cq *cq;
	uint32_t pdn;
	struct hca_tm *tm; /* tag matching SRQ: its list (hca_tm.c) */
};

struct hca_sge {
	uint64_t addr;
	uint32_t len, key;
};

/* A UMR WQE's fields as hca_mw.c reads them (host order). */
struct hca_umr {
	uint8_t flags;	 /* UMR ctrl: CHECK_FREE, CHECK_QPN, ... */
	uint8_t free;	 /* mkey context: the window goes free */
	uint8_t access;	 /* mkey context access byte */
	uint16_t klm_octowords;
	uint64_t mask;	 /* which mkey fields the WQE sets */
	uint32_t qpn_mkey;
	uint64_t start, len;
	uint32_t klm_bytes, klm_key;
	uint64_t klm_addr;
};
#define HCA_UMR_BYTES 176 /* a bind WQE after its ctrl segment */

/* A TAG_MATCHING WQE's mlx5_wqe_tm_seg (host order); its buffer is the
 * WQE's data segment (sge[0]). */
struct hca_tm_op {
	uint8_t op, flags;
	uint16_t index, sw_cnt;
	uint64_t tag, mask;
	/* the HCA's own rendezvous WQEs (hca_tm.c): the READ of the data
	 * into slot index, then the FIN; app_ctx from the RNDV's TMH */
	uint8_t rndv;
	uint32_t app_ctx;
};
enum { HCA_TM_RNDV_READ = 1, HCA_TM_RNDV_FIN = 2 };

/* A send WQE decoded when it was taken from the ring. */
struct hca_swqe {
	uint8_t opcode, signaled, solicited, fence;
	uint8_t ds;	  /* WQE size in 16-byte units (ctrl qpn_ds) */
	uint16_t wqe_idx; /* the ctrl segment's index: wqe_counter */
	uint32_t imm;	  /* raw (big-endian) immediate / rkey */
	uint32_t xrc_srqn; /* XRC_INI: the XRC segment's SRQ number */
	uint64_t raddr;
	uint32_t rkey;
	uint64_t swap_add, compare;
	uint32_t len; /* message bytes */
	uint32_t nsge;
	uint8_t inl; /* data is in inline_buf */
	struct hca_umr umr;
	struct hca_tm_op tm;
	struct hca_sge sge[HCA_MAX_SGE];
	uint8_t *inline_buf;
	/* UD address */
	uint32_t dqpn, qkey;
	uint16_t dlid;
	uint8_t rmac[6]; /* UD on RoCE: the AV's destination MAC */
	uint8_t sgid_index, tclass, hop_limit;
	uint32_t flow_label;
	uint8_t sl, grh;
	uint8_t dgid[16];
	uint64_t dc_key; /* DCI: the target DCT's access key */
	/* transport progress */
	uint32_t psn_first, npkts;
	uint32_t sent; /* packets handed to the fabric */
	uint32_t sent_max; /* highest sent: below it is a retransmission */
	uint32_t rd_next;  /* READ: next response packet expected */
	uint8_t rd_gap;	   /* READ: re-asked from rd_next after a gap */
	uint8_t failed;
	uint64_t deadline; /* retransmission / RNR timer, ns */
};

/* A READ or atomic response waiting for room on the wire. */
struct hca_rresp {
	uint8_t op;
	uint16_t dst_dev;
	uint32_t dst_qpn, psn, len, sent;
	uint8_t *src;
	uint64_t orig;
};
#define HCA_RRESP 16 /* max_qp_rd_atom: responses queued at once */

/*
 * A responder resource: one READ or atomic request executed, kept so that
 * a duplicate of it (the requester lost part of our answer) is answered
 * again from here: a READ from the same memory, from the PSN asked for;
 * an atomic with the value it returned the first time, never executed
 * twice. The last max_dest_rd_atomic requests are kept.
 */
struct hca_rres {
	uint8_t op; /* the response's HCA_PKT_* */
	uint32_t psn, npkts, len, rkey;
	uint64_t raddr, orig;
};
#define HCA_RKEEP 16 /* resources kept at most (max_qp_rd_atom) */

struct hca_qp {
	struct hca_qp *next;
	unsigned int dev;
	uint32_t qpn, type, state, uidx;
	uint8_t xrc;	/* HCA_XRC_*: type is then IB_QPT_RC */
	uint32_t xrcdn; /* XRC_TGT: its domain */
	uint32_t pdn;
	/* XRC_TGT: an instance made here from the QP's row (hca_xrc.c),
	 * not by CREATE_QP; the QP's resets it saw */
	uint8_t xrc_inst;
	uint32_t xrc_resets;
	uint8_t sig_all;
	uint8_t cq_overran; /* a CQE of it found its CQ full (hca_cqe.c) */
	uint16_t udp_sport;    /* the path's (QPC ads.udp_sport), RC/UC */
	uint16_t traced_sport; /* the last one --trace said */
	struct hca_cq *scq, *rcq;
	struct hca_srq *srq;
	uint8_t *buf;
	volatile uint32_t *dbrec; /* [0] recv counter, [1] send counter */
	uint32_t sq_wqe_cnt, rq_wqe_cnt, rq_wqe_shift;
	uint8_t *sq_start;
	/* attributes from modify */
	uint32_t dest_qpn, dlid_dev, qkey;
	uint32_t sq_psn, rq_psn;
	uint8_t timeout, retry_cnt, rnr_retry, min_rnr_timer, access;
	/* READ/atomic WQEs in flight: at most 1 << log_rd_atom (mlx5's
	 * log_sra_max: max_rd_atomic rounded down, 0 allows one) */
	uint8_t log_rd_atom;
	/* requester */
	uint16_t sq_taken;     /* BBs decoded from the ring */
	struct hca_swqe *ring; /* outstanding WQEs, by slot */
	uint32_t ring_size;    /* power of two */
	uint32_t head, tail;   /* WQEs taken / completed */
	uint32_t npsn;	       /* next PSN to send */
	uint32_t retries, rnr_retries;
	/* responder */
	uint16_t rq_consumed;
	uint32_t epsn;
	uint32_t ack_psn; /* psn to acknowledge, valid when ack_pending */
	uint8_t ack_pending;
	uint8_t in_msg; /* a multi-packet message is being received */
	uint8_t msg_op;
	uint32_t msg_off, msg_wqe, msg_synd;
	struct hca_sge msg_sge[HCA_MAX_SGE];
	uint32_t msg_nsge;
	uint64_t msg_raddr;
	uint32_t msg_rkey;
	/* a SEND into a TM SRQ (hca_tm.c): how it matched, the tag slot,
	 * TMH bytes not scattered, the TMH */
	uint8_t tm_op, tm_skip;
	uint16_t tm_idx;
	uint8_t tm_head[32]; /* TMH, then a rendezvous' RVH */
	struct hca_rresp rr[HCA_RRESP];
	uint32_t rr_head, rr_tail;
	struct hca_rres res[HCA_RKEEP];
	uint32_t nres;		       /* resources made */
	uint8_t dest_rd_atom;	       /* max_dest_rd_atomic: resources kept */
	/* receive WRs may be consumed out of order: recorded only, as the
	 * fabric delivers every QP's packets in order */
	uint8_t dp_ooo;
	uint8_t nak_pending, nak_code; /* NAK to send (ring was full) */
	uint8_t seq_nak_sent;	       /* one PSN sequence NAK per gap */
	uint32_t nak_psn;
	/* where the last request packet went, for the ACK timer */
	struct hca_mark mark;
	uint64_t rx_pkts;     /* packets that arrived for this QP (faults) */
	uint32_t faults_sent; /* --fault cqe-error: send WQEs counted */
	/* DC (hca_dc.c): a DCI sends to one DCT at a time; a DCT answers
	 * through one connection QP per DCI (dct_parent set, not found by
	 * number) */
	uint8_t dci, dct, dc_live;
	/* scatter to CQE (QPC cs_res, cs_req); a SEND's payload bound for
	 * the responder's CQE, until its completion */
	uint8_t cs_res, cs_req, scat_len;
	uint8_t scat[64];
	uint64_t dc_key;
	uint32_t dc_conn, dc_gen, dc_psn;
	struct hca_qp *dct_parent;
	/* rkeys recent WRITEs by the ring named (hca_land_write.c) */
	uint32_t wl_key[HCA_WLAND_KEYS];
	uint8_t wl_next;
};

/* ---- engine (hca_engine.c; what a software device shares of it, the
 * thread, clock, counters and soft hook: hca_engine.h) ---- */
extern struct hca_cq *hca_cqs;
extern struct hca_qp *hca_qps;
extern struct hca_srq *hca_srqs;
/* One pass over doorbells, timers and arrived packets; 1 if it did work.
 * Needs sim_lock. */
int hca_step(void);
/* The engine's fork handler, registered once (by the first command or
 * engine start): a fork child's HCA forgets the parent's objects. */
void hca_engine_fork_hook(void);
/* Free a fork child's copies of the HCA's objects, empty its tables
 * (hca_cmd.c). */
void hca_cmd_forked(void);
struct hca_qp *hca_qp_by_qpn(unsigned int dev, uint32_t qpn);
/* Move a QP to ERR: flush what it holds, raise the async event. */
void hca_qp_to_err(struct hca_qp *qp);
void hca_qp_reset(struct hca_qp *qp);

/* ---- command interface (hca_cmd*.c): the HCA's tables and its EQ ---- */
/* Set a state the HCA chose itself (ERR) and tell the driver (EQE). */
void hca_qp_set_state(struct hca_qp *qp, uint32_t state);
struct hca_cq *hca_cq_by_cqn(uint32_t cqn);
struct hca_srq *hca_srq_by_srqn(uint32_t srqn);
/* Hand an EQE to the driver's event queue (dropped before CREATE_EQ). */
void hca_eq_post(uint8_t type, uint8_t sub_type, unsigned int dev,
		 uint32_t num);
void hca_eq_post_eqe(const struct hca_eqe *e);

/* ---- doorbells (hca_doorbell.c; what the layers above call of it:
 * hca_doorbell.h) ---- */
/* The engine thread's pass around doorbells left to it (rung while the
 * sim stayed busy elsewhere): take them before the pass, then leave their
 * pages open if the process streams, as their trap would have. Under
 * sim_lock, in the engine thread. */
unsigned int hca_doorbell_busy_take(void);
void hca_doorbell_busy_decide(void);
/* Once no send WQE is in flight, trap the UAR pages left writable while
 * streaming again; the number of pages (then one more pass). Under
 * sim_lock, in the engine thread. */
int hca_doorbell_close(void);
/* 1 while a UAR page is left open: its stores do not wake anyone, the
 * engine thread must look (it does not sleep until it closed them). */
int hca_doorbell_open(void);
/* The engine thread's idle sleep set by a test (RDMA_SIM_TEST_LATE_CLOSE),
 * in ms; 0: its own. */
int hca_doorbell_idle_ms(void);
/* 1 if some doorbell is noticed only by watching its record. */
int hca_doorbell_watching(void);
/* A doorbell the engine thread must serve in its next pass. */
extern uint32_t hca_doorbell_pending;

/* ---- CQEs (hca_cqe.c) ---- */
struct hca_cqe_info {
	uint8_t opcode; /* HCA_CQE_* */
	uint8_t syndrome, vendor;
	uint8_t wqe_opcode;
	uint16_t wqe_counter;
	uint32_t qpn, uidx, byte_cnt, imm;
	uint32_t src_qp;
	uint16_t slid;
	uint8_t sl, grh, solicited;
	uint8_t l3_type; /* RoCE: 0 GRH (v1), 1 IPv6, 2 IPv4 (v2) */
	/* tag matching: app @40, app_op @41, app_info @42; head: bytes
	 * 0-15 (the TMH on a match, tm_cqe on a list operation) */
	uint8_t app, app_op, has_head;
	uint16_t app_info;
	uint8_t head[16];
	/* scatter to CQE: HCA_INLINE_SCATTER_32 (scat_len bytes of payload
	 * at the CQE's start) or _64 (in the 64 bytes before it), or 0 */
	uint8_t scat, scat_len;
	const uint8_t *scat_data;
};
/* CQE op_own bits: the payload is in the CQE (hca_scat_cqe.c). */
#define HCA_INLINE_SCATTER_32 0x4
#define HCA_INLINE_SCATTER_64 0x8
/* The 64 bytes of a CQE with this owner bit into e, the owner byte last;
 * with HCA_INLINE_SCATTER_64 also the 64 bytes before e. */
void hca_cqe_render(uint8_t *e, const struct hca_cqe_info *ci, int owner);
/* The most payload bytes a CQE of cq may carry under a QPC cs_res or
 * cs_req value (0: none). */
uint32_t hca_scat_max(uint8_t cs, const struct hca_cq *cq);
/* Put len bytes at data into ci's CQE of cqe_size bytes (len no more
 * than hca_scat_max allows). */
void hca_scat_info(struct hca_cqe_info *ci, uint32_t cqe_size,
		   const uint8_t *data, uint32_t len);
/* Write one CQE (owner bit last) and fire the armed event. */
void hca_cqe_write(struct hca_cq *cq, const struct hca_cqe_info *ci);
/* The QPs whose CQE found a CQ full take a local catastrophic error:
 * QP_FATAL and ERR. Once per engine pass; 1 if any did. Needs sim_lock. */
int hca_cq_overrun_errors(void);
/* Fire the completion event of an armed CQ if it is due. */
void hca_cq_check_arm(struct hca_cq *cq);
/* Moderation (hca_cq_mod.c): may an armed CQ with pending new CQEs raise
 * its event now? */
int hca_cq_mod_due(struct hca_cq *cq, uint32_t pending);
/* Switch cq to a new ring of ncqe entries at buf: a RESIZE_CQ CQE marks
 * the switch in the old ring, later CQEs go on at the same count in the
 * new one. */
void hca_cq_resize(struct hca_cq *cq, uint8_t *buf, uint32_t ncqe);

/* ---- memory keys (hca_cmd_mkey.c) ---- */
/* An MR's translation, or a memory window (free until a UMR binds it). */
struct hca_mkey {
	unsigned int dev;
	uint32_t key;	   /* index << 8 | key byte */
	uint8_t mw;	   /* a window: mw_type 1 or 2 */
	uint8_t mw_type;
	uint8_t free;	   /* window: no range bound */
	uint8_t odp;	   /* pages are faulted in when the HCA needs them */
	uint8_t fault;	   /* each access asks the driver (PAGE_FAULT) */
	uint8_t none;	   /* no bytes the HCA can reach (SW ICM) */
	uint8_t pf_error;  /* the driver's answer to the last page fault */
	uint32_t pdn;
	uint32_t access;   /* IB_ACCESS_* */
	uint64_t start, length;
	uint64_t addr;	   /* where start is (fault: at the last one) */
	/* window: the QP a type 2 was bound through, the MR under it */
	uint32_t qpn;
	uint32_t mr_key;
	uint64_t mr_addr;
};
/* The mkey of key's index on dev, whatever its key byte; NULL if none. */
struct hca_mkey *hca_mkey_find(unsigned int dev, uint32_t key);
/* Where a fault mkey's start is now (the driver answers the PAGE_FAULT
 * EQE); 0 when there are no bytes (the exporter revoked the buffer). */
uint64_t hca_mkey_fault(struct hca_mkey *mk);
/* An ODP mkey's [addr, addr+len) must be in (writable if write): the
 * driver resolves the PAGE_FAULT. 0, or -EFAULT when it could not. */
int hca_mkey_odp_fault(struct hca_mkey *mk, uint64_t addr, uint64_t len,
		       int write);

/* ---- memory (hca_mem.c) ---- */
/* Translate [va, va+len) under key to a local pointer after the checks
 * (PD, access bits, bounds, revoked dma-buf); NULL and *synd on failure. */
void *hca_mem(const struct hca_qp *qp, uint32_t key, uint64_t va, uint64_t len,
	      uint32_t need, int remote, uint8_t *synd);

/* ---- the null MR's key (hca_null_mr.c): HCA_NULL_MKEY ---- */
/* Where len bytes through HCA_NULL_MKEY go to (need: a write) or come from
 * (zeros); NULL and *synd when it cannot. */
void *hca_null_mem(uint64_t len, uint32_t need, int remote, uint8_t *synd);

/* ---- memory windows (hca_mw.c) ---- */
/* Decode the UMR segments (len bytes after ctrl) into w. 0 or a
 * syndrome for a WQE too short for its form. */
uint8_t hca_umr_decode(struct hca_swqe *w, const uint8_t *seg, uint32_t len);
/* Bind or invalidate the window the UMR WQE w names, in SQ order. 0 or
 * the syndrome of its error completion (MW_BIND_ERR). */
uint8_t hca_umr_exec(struct hca_qp *qp, const struct hca_swqe *w);
/* [va, va+len) through window key for a remote request on qp: the
 * window's checks, then the MR's. NULL with *synd REM_ACCESS. */
void *hca_mw_mem(const struct hca_qp *qp, struct hca_mkey *mw, uint32_t key,
		 uint64_t va, uint64_t len, uint32_t need, uint8_t *synd);
/* SEND_WITH_INV arrived on qp naming rkey: free that type 2 window. 0 or
 * HCA_SYND_REM_INV_REQ. */
uint8_t hca_mw_remote_inv(const struct hca_qp *qp, uint32_t rkey);

/* ---- fabric (hca_fabric.c): the wire's packets and calls are its own
 * (hca_fabric.h); the HCA's landings in its rings' header pages ---- */

/*
 * A SEND's landing offered by this process's responder (hca_land.c), in
 * the header page of its ring: every sender maps it.
 */
#define HCA_LANDINGS  6
#define HCA_LAND_SEGS 4
struct hca_landing {
	uint32_t state; /* free, open (offered), being taken, taken */
	int32_t taker;	/* the sender's pid */
	uint16_t dev;
	uint8_t owner; /* the CQE's owner bit */
	uint8_t nseg;
	uint32_t qpn, src_qpn, psn; /* the SEND that may land */
	uint32_t wqe_counter, uidx;
	uint32_t cap; /* bytes the receive WQE holds */
	uint32_t scat; /* bytes the CQE takes instead (scatter to CQE) */
	uint32_t cqe_size;
	uint32_t ud;   /* for a UD QP (hca_land_ud.c): no PSN, no ACK */
	uint32_t qkey; /* ... the Q_Key it takes */
	uint64_t ring_end; /* ... the ring's end, empty, when offered */
	uint64_t cqe;	   /* the 64-byte CQE's address */
	struct {
		uint64_t addr;
		uint64_t len;
	} seg[HCA_LAND_SEGS];
	struct hca_pkt ack; /* the responder's ACK for it */
	struct hca_pkt pkt; /* the SEND that landed */
};
/* The landings of process pid's ring (0: this process's); NULL if it has
 * none. HCA_LANDINGS of them. */
struct hca_landing *hca_fabric_landings(int32_t pid);
/* At the end of a pass: offer where the next SEND of each QP that could
 * take one now would land. Needs sim_lock. */
void hca_land_offer(void);
/* Before a pass or a command: withdraw the offers, hand the responder
 * those taken (waiting for one being taken). Needs sim_lock. */
void hca_land_settle(void);
/* A packet about to go to process pid's ring: 1 if it landed there (its
 * ACK is in our ring, from self), 0 to send it. */
int hca_land(int32_t pid, int32_t self, const struct hca_pkt *p,
	     const struct iovec *iov, int iovcnt);
/* The responder's ACK of a landed packet was queued by its sender:
 * count it as sent by dev's port. */
void hca_land_ack_sent(unsigned int dev);

/* The SGEs of the WQE a SEND for qp would take from its SRQ, left in
 * place (hca_land_srq.c); -1 if none may be offered. */
int hca_land_srq_peek(struct hca_qp *qp, struct hca_sge *sge, uint32_t *nsge,
		      uint32_t *wqe_counter);

/* hca_land.c's steps for a UD QP (hca_land_ud.c): whether it may be
 * offered, the offer's UD fields (0: none now), whether datagram p fits
 * offer l of process pid. */
int hca_land_ud_offerable(const struct hca_qp *qp);
int hca_land_ud_offer(const struct hca_qp *qp, struct hca_landing *l);
int hca_land_ud_fits(const struct hca_landing *l, const struct hca_pkt *p,
		     int32_t pid);
/* The local iovecs of datagram p (iov: its payload) into loc, its GRH
 * (built into grh) first if it has one; *off: where in the receive
 * buffer they go. Their count, at most iovcnt + 1. */
int hca_land_ud_loc(const struct hca_qp *stub, const struct hca_pkt *p,
		    const struct iovec *iov, int iovcnt, uint8_t grh[40],
		    struct iovec *loc, uint32_t *off);

/*
 * An RDMA WRITE's landing offered by this process's responder
 * (hca_land_write.c), in the header page of its ring: the PSN one RC QP
 * expects next and the memory keys a WRITE may name, translated. A
 * sender takes it for one packet at a time and gives it back, open, one
 * PSN on; the responder settles what landed.
 */
#define HCA_WLANDINGS 4
struct hca_wlanding {
	uint32_t state; /* free, open, being taken */
	int32_t taker;	/* the sender's pid while it takes it */
	uint16_t dev, ack_dev; /* the QP's device, its peer's */
	uint8_t in_msg;	       /* a WRITE landed its first packet only */
	uint8_t nkey;
	uint32_t qpn, src_qpn;
	uint32_t psn;	     /* next PSN that may land */
	uint32_t pkts, msgs; /* packets and WRITEs landed since offered */
	uint64_t bytes;
	struct {
		uint64_t start, len; /* the MR's range (IOVA) */
		uint64_t addr;	     /* where start is in the process */
		uint32_t key;
	} key[HCA_WLAND_KEYS];
};
/* This process's (pid 0) or process pid's write landings, HCA_WLANDINGS
 * of them; NULL if it has none. */
struct hca_wlanding *hca_fabric_wlandings(int32_t pid);
/* hca_land_offer, hca_land_settle and hca_land for RDMA WRITE packets. */
void hca_land_write_offer(void);
void hca_land_write_settle(void);
int hca_land_write(int32_t pid, int32_t self, const struct hca_pkt *p,
		   const struct iovec *iov, int iovcnt);
/* The ACKs of WRITEs placed since the last call, to their requesters. */
void hca_land_write_acks(void);
/* A WRITE's first packet arrived by the ring for qp: its rkey is one the
 * responder may offer. */
void hca_land_write_learn(struct hca_qp *qp, uint32_t rkey);

/* The HCA's DMA into process pid (hca_peer.c): the local iovecs' want
 * bytes into its remote iovecs, in order. 1 if all landed, 0 if not. */
int hca_peer_write(int32_t pid, const struct iovec *loc, int nl,
		   const struct iovec *rem, int nr, size_t want);
/* 1 once this process was refused writes into others (EPERM). */
int hca_peer_denied(void);
/* Close every peer's window and pidfd (the last QP went). */
void hca_peer_forget(void);

/* ---- receive (hca_rx.c) ---- */
/* The HCA's one receive entry: a packet the wire took from this
 * process's ring, with its payload. */
void hca_rx(const struct hca_pkt *p, const uint8_t *payload);
/* ... past --fault's wire rules: to the requester or the responder. */
void hca_rx_deliver(const struct hca_pkt *p, const uint8_t *payload);
/* Copy the payload of the packet being handled into iov. */
void hca_rx_payload(const struct iovec *iov, int iovcnt);
/* A SEND that landed (hca_land.c): to the responder, whose bytes and CQE
 * are in place already. */
void hca_rx_landed(const struct hca_pkt *p);
/* 1 while the packet being handled is one that landed. */
int hca_rx_landing(void);

/* ---- --fault (hca_fault.c) ---- */
/* A packet taken from the ring: 1 if a fault took it (dropped, held for
 * later, or delivered twice), 0 to deliver it as it is. */
int hca_fault_rx(const struct hca_pkt *p, const uint8_t *payload);
/* Held packets that are due, timed rules (link-flap, event); 1 if work. */
int hca_fault_step(uint64_t now);
/* A send WQE was taken: the syndrome cqe-error gives it, or 0. */
uint8_t hca_fault_wqe(struct hca_qp *qp);

/* ---- transport (hca_req.c / hca_resp.c) ---- */
int hca_sq_process(struct hca_qp *qp);
/* Queue a WQE of the HCA's own (tmpl: decoded fields; inl: inline data)
 * behind qp's posted ones; 0, -ENOSPC when the ring is full, -ENOMEM. */
int hca_req_inject(struct hca_qp *qp, const struct hca_swqe *tmpl,
		   const void *inl, uint32_t inl_len);
void hca_req_timers(struct hca_qp *qp, uint64_t now);
void hca_req_input(struct hca_qp *qp, const struct hca_pkt *p);
/* The 40 bytes a UD receive of p by qp gets first (GRH, IPv6 or IPv4
 * header). */
void hca_ud_grh(const struct hca_qp *qp, const struct hca_pkt *p,
		uint8_t grh[40]);
/* Handle a request packet; payload can be read with hca_rx_payload(). */
void hca_resp_input(struct hca_qp *qp, const struct hca_pkt *p);
/* Send queued responses and the pending ACK; 1 if it sent something. */
int hca_resp_flush(struct hca_qp *qp);
void hca_req_flush(struct hca_qp *qp);
/* Take the next receive WQE (RQ or SRQ): 0 and its SGEs, -ENOENT none. */
int hca_recv_wqe(struct hca_qp *qp, struct hca_sge *sge, uint32_t *nsge,
		 uint32_t *wqe_counter);
/* Complete a taken receive WQE. */
void hca_recv_complete(struct hca_qp *qp, uint32_t wqe_counter,
		       const struct hca_pkt *p, uint32_t bytes, uint8_t synd);
/* The CQE of that completion (for the CQ qp->rcq, no tag matching). */
void hca_recv_cqe_info(const struct hca_qp *qp, uint32_t wqe_counter,
		       const struct hca_pkt *p, uint32_t bytes, uint8_t synd,
		       struct hca_cqe_info *ci);
/* The ACK of qp's responder for psn. */
void hca_resp_ack(const struct hca_qp *qp, uint32_t psn, struct hca_pkt *a);


/* ---- XRC (hca_xrc.c) ---- */
/* A request for an XRC_TGT QP: point its receive side at the XRC SRQ the
 * packet names (its CQ, user index and PD). 0, or -ENOENT when no SRQ of
 * the TGT QP's domain has that number. */
int hca_xrc_target(struct hca_qp *qp, const struct hca_pkt *p);
/* An XRC SRQ goes away: no TGT QP may still point at it. */
void hca_xrc_srq_gone(const struct hca_srq *srq);
/* An XRC SRQ was made: requests naming it come to this process. */
void hca_xrc_srq_made(const struct hca_srq *srq);
/* A request for a TGT QP, run here because the SRQ it names is here (or
 * HCA_PKT_XRC_ERR: the QP went to ERR in another process): qp is this
 * process's instance of the QP, NULL when it has none yet (one is made
 * from the QP's row). */
void hca_xrc_input(struct hca_qp *qp, const struct hca_pkt *p);
/* A responder error on a TGT QP instance: the QP goes to ERR everywhere,
 * event to every handle. */
void hca_xrc_event(struct hca_qp *qp, uint32_t event);

/* ---- tag matching (hca_tm.c) ---- */
enum { HCA_CQE_APP_TM = 1 };
/* CQE app_op values */
enum {
	HCA_TM_APP_CONSUMED = 1,
	HCA_TM_APP_EXPECTED = 2,
	HCA_TM_APP_UNEXPECTED = 3,
	HCA_TM_APP_NO_TAG = 4,
	HCA_TM_APP_APPEND = 5,
	HCA_TM_APP_REMOVE = 6,
	HCA_TM_APP_NOOP = 7,
	HCA_TM_APP_CONSUMED_MSG = 0xa,
};
/* A tag list of nslots empty slots; NULL without memory. */
struct hca_tm *hca_tm_new(uint32_t nslots);
void hca_tm_free(struct hca_tm *tm);
/* Decode a TAG_MATCHING WQE's 32-byte TM segment into w->tm. */
void hca_tm_decode(struct hca_swqe *w, const uint8_t *seg);
/* Run the list operation w of qp, the command QP of TM SRQ qp->srq, as
 * it retires; its CQE on the SRQ's CQ if the WQE asks one. */
void hca_tm_list_op(struct hca_qp *qp, const struct hca_swqe *w);
/* The first packet of a SEND for qp (on a TM SRQ): match its TMH and
 * give the buffer it lands in, as hca_recv_wqe does (-ENOENT: no SRQ
 * WQE for it, RNR). Sets qp->tm_op, tm_idx, tm_skip. */
int hca_tm_recv(struct hca_qp *qp, const struct hca_pkt *p, struct hca_sge *sge,
		uint32_t *nsge, uint32_t *wqe_counter);
/* Fill the TM fields of the message's CQE; the CQ it goes to. A matched
 * rendezvous starts its READ here. */
struct hca_cq *hca_tm_complete(struct hca_qp *qp, struct hca_cqe_info *ci);
/* The rendezvous READ w retired (synd: how): the EXPECTED CQE, the FIN. */
void hca_tm_rndv_done(struct hca_qp *qp, const struct hca_swqe *w,
		      uint8_t synd);
/* The device an address vector reaches: by DLID on IB, by the
 * destination MAC on Ethernet (hca_req.c). */
unsigned int hca_av_dst_dev(const struct hca_qp *qp,
			    const struct hca_swqe *w);

/* ---- DC (hca_dc.c) ---- */
/* Decode a DCI WQE's address vector at s into w: its size in 16-byte
 * units (1, or 3 with the extended AV bit). */
uint32_t hca_dci_av(struct hca_swqe *w, const uint8_t *s);
/* May w go on the wire now? Retargets the DCI when idle. */
int hca_dci_ready(struct hca_qp *qp, const struct hca_swqe *w, int idle);
/* Stamp a DCI's request packet with its key and connection. */
void hca_dci_stamp(const struct hca_qp *qp, struct hca_pkt *p);
/* The DCT's connection QP for the DCI that sent p; NULL drops p. */
struct hca_qp *hca_dct_conn(struct hca_qp *dct, const struct hca_pkt *p);
/* Free the DCT's connection QPs. */
void hca_dct_release(struct hca_qp *dct);

/* ---- trace (hca_trace.c; its counters: hca_engine.h) ---- */
/* Add to a counter the HCA keeps for dev's port (`rdma statistic`, the
 * PMA's PortCounters). */
static inline void hca_hw_add(unsigned int dev, enum sim_hwc c, uint64_t n)
{
	__atomic_fetch_add(&sim.sh->hwc[dev][c], n, __ATOMIC_RELAXED);
}

static inline void hca_hw_count(unsigned int dev, enum sim_hwc c)
{
	hca_hw_add(dev, c, 1);
}
void hca_trace_wqe(const struct hca_qp *qp, const struct hca_swqe *w);
void hca_trace_cqe(const struct hca_cq *cq, const struct hca_cqe_info *ci);
/* The rings libmlx5 asked for, to compare two libraries' sizing. */
struct hca_create_qp_in;
void hca_trace_rings(const struct hca_qp *qp,
		     const struct hca_create_qp_in *in);
void hca_trace_cq_ring(const struct hca_cq *cq);

#endif

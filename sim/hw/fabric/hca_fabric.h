/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The wire (hca_fabric.c): one shared-memory receive ring per process; a
 * QP is reachable at <dir>/q<dev>.<qpn>, a symlink naming its process.
 * Here are its packet format and what a device on it calls: the HCA
 * (hw/mlx5/hca.h includes this) and the rxe driver, a software device
 * that sends its own packets. What the wire takes from a ring goes to the
 * HCA's hca_rx(), rxe's included (hca_engine.h: hca_soft).
 *
 * Of the layers above the devices, a peer's store into a UAR page reaches
 * the HCA here (sim_doorbell_rung), as a bus write would; they call
 * nothing else of it.
 */
#ifndef RDMA_SIM_HCA_FABRIC_H
#define RDMA_SIM_HCA_FABRIC_H

#include <stdint.h>

/* A store into a UAR doorbell register of process pid's pages from
 * outside its own stores (a peer through a dma-buf): that process's
 * engine takes the new work at once. Takes sim_lock: call unlocked. */
void sim_doorbell_rung(int32_t pid);

/* ---- the packet ---- */
enum {
	HCA_PKT_SEND = 1,
	HCA_PKT_WRITE,
	HCA_PKT_READ_REQ,
	HCA_PKT_READ_RESP,
	HCA_PKT_CS,
	HCA_PKT_FA,
	HCA_PKT_ATOMIC_RESP,
	HCA_PKT_ACK,
	HCA_PKT_NAK,
	HCA_PKT_XRC_ERR, /* not on the wire: a TGT QP went to ERR elsewhere */
};
enum {
	HCA_PF_FIRST = 1,
	HCA_PF_LAST = 2,
	HCA_PF_IMM = 4,
	HCA_PF_INV = 8,
	HCA_PF_SE = 16,
	HCA_PF_GRH = 32,
};
/* NAK codes (the AETH syndrome classes) */
enum {
	HCA_NAK_RNR = 1,
	HCA_NAK_SEQ,
	HCA_NAK_INV_REQ,
	HCA_NAK_ACCESS,
	HCA_NAK_OP
};

struct hca_pkt {
	uint8_t op, flags, nak, sl;
	uint16_t src_dev, dst_dev;
	uint32_t src_qpn, dst_qpn;
	uint32_t psn;	  /* packet sequence number (RC/UC) */
	uint32_t imm;	  /* raw immediate or invalidated rkey */
	uint32_t rkey;	  /* WRITE/READ/atomics */
	uint64_t raddr;	  /* this packet's first remote byte */
	uint32_t len;	  /* payload bytes in this packet */
	uint32_t msg_len; /* READ request: bytes asked for */
	uint64_t atom[2]; /* swap_add, compare / original value */
	uint32_t qkey;	  /* UD */
	uint32_t xrc_srqn; /* XRC: the XRCETH's SRQ number */
	uint16_t slid;
	uint8_t rnr_timer;
	uint8_t pad;
	uint8_t sgid[16], dgid[16]; /* UD with GRH */
	/* DC: the DCT's access key, the DCI's connection and its first PSN */
	uint64_t dc_key;
	uint32_t dc_conn, dc_psn;
	/* RoCE: the SGID's type (v1/v2), the IP header's fields */
	uint8_t gid_type, tclass, hop_limit;
	uint32_t flow_label;
	uint16_t udp_sport; /* RoCE v2 (common/udp_sport.h); 0 otherwise */
};

/* A UD datagram's bytes after its GRH or IP header up to and including
 * the ICRC (the GRH's PayLen; 20 less than an IPv4 header's total
 * length): BTH, DETH, ImmDt with an immediate, the payload padded to 4
 * bytes (BTH PadCnt), ICRC; on RoCE v2 (udp) the UDP header before them. */
static inline uint16_t hca_ud_paylen(const struct hca_pkt *p, int udp)
{
	uint32_t imm = p->flags & HCA_PF_IMM ? 4 : 0;

	return (uint16_t)((udp ? 8 : 0) + 12 + 8 + imm + ((p->len + 3) & ~3u) +
			  4);
}

/* A packet's place in its receiver's ring (hca_fabric.c): the receiver
 * has had its chance at it once its engine finished a pass past pos. */
struct hca_mark {
	int32_t pid;   /* 0: nothing in flight (or the packet was lost) */
	uint32_t full; /* our ring's full count last seen */
	uint64_t pos;
	uint64_t passes; /* the receiver's pass count it must reach */
};

/* ---- the rings ---- */
/* Name an XRC SRQ as this process's (attach 1) or drop the name: XRC
 * requests naming it are sent here. 0 or -errno. */
int hca_fabric_srq_name(unsigned int dev, uint32_t srqn, int attach);
/* Send a payload-less packet to process pid's ring itself. */
int hca_fabric_send_pid(int32_t pid, const struct hca_pkt *p);
/* Create this process's receive ring (once). 0 or -errno. */
int hca_fabric_open(void);
/* Make (dev, qpn) reachable / unreachable. */
int hca_fabric_attach(unsigned int dev, uint32_t qpn);
void hca_fabric_detach(unsigned int dev, uint32_t qpn);
/* Send a packet with payload from iov; 0, -EAGAIN (no room: try again
 * later) or -EHOSTUNREACH (no such QP or process: the packet is lost).
 * With mark, where the packet went (pid 0 if it was lost). */
struct iovec;
int hca_fabric_send(const struct hca_pkt *p, const struct iovec *iov,
		    int iovcnt);
int hca_fabric_send_mark(const struct hca_pkt *p, const struct iovec *iov,
			 int iovcnt, struct hca_mark *mark);
/* Has the receiver had its chance at the packet at m? 1 once its engine
 * finished a pass past it (and, if our ring was full meanwhile, one more
 * that began after), or it is gone; 0 while it has not run. */
int hca_fabric_reached(struct hca_mark *m);
/* Where process pid's ring (0: this process's) ends: the bytes ever
 * published into it. */
uint64_t hca_fabric_ring_end(int32_t pid);
/* Packets wait in this process's own ring (an answer may be among them). */
int hca_fabric_backlog(void);
/* End of an engine pass: what it took from the ring is now handled. */
void hca_fabric_pass_done(void);
/* Hand up to max arrived packets to hca_rx(); the number handed. */
int hca_fabric_poll(int max);
/* Sleep up to ms unless packets are waiting; a sender wakes us. */
void hca_fabric_wait(int ms);
/* The application enters (1) or leaves (0) an engine pass: senders do
 * not wake the engine thread meanwhile. 1 if packets are waiting. */
int hca_fabric_app_pass(int in);
/* Wake this process's engine thread if it sleeps. */
void hca_fabric_wake_self(void);
/* The engine thread holds its ring's alive lock (each pass, until it
 * does; under sim_lock). */
void hca_fabric_alive_hold(void);
/* 1: process pid's engine thread holds its alive lock, so pid has not
 * exited nor exec'd as far as anyone can know. 0: it has ended (exit or
 * exec), which its kernel marked before closing its fds: its pidfd may
 * not say so yet. -1: no lock held (no engine thread yet): ask the
 * pidfd. */
int hca_fabric_peer_alive(int32_t pid);

#endif

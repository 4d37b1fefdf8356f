/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What a software device (rxe) shares of the HCA's engine, none of it
 * mlx5's: the engine thread with the hook that hands the device its
 * packets and runs its step each pass (hca_engine.c), the engine's clock,
 * its counters and the --trace line of a packet's UDP source port
 * (hca_trace.c), and --fault's cqe-error rule (hca_fault.c). The HCA's
 * own header, hca.h, includes it; the wire is hw/fabric/hca_fabric.h.
 */
#ifndef RDMA_SIM_HCA_ENGINE_H
#define RDMA_SIM_HCA_ENGINE_H

#include <stdint.h>

struct hca_pkt;

/* Start the engine thread (once per process). */
void hca_engine_start(void);
/* The engine's clock: CLOCK_MONOTONIC in ns (timers, moderation). */
uint64_t hca_now(void);

/* A software device (rxe) executes the packets of its QPs itself: the
 * fabric hands it every packet, each engine pass runs its step. Set by its
 * driver when it creates a QP; NULL where the HCA executes them. */
struct hca_pkt;
struct hca_soft_ops {
	void (*rcv)(const struct hca_pkt *p, const uint8_t *payload);
	int (*step)(uint64_t now); /* 1 if it did work */
	/* the packets that came for p's QP (--fault), NULL: no such QP */
	uint64_t *(*rx_count)(const struct hca_pkt *p);
};
extern const struct hca_soft_ops *hca_soft;

/* What the engine did in this process: one line at exit, to --trace and
 * to $RDMA_SIM_HCA_STATS (benchmarks read it without tracing every WQE).
 * Counts, never timings; bumped under sim_lock but for the sleeps. */
struct hca_stats {
	uint64_t passes, busy_passes, app_passes;
	uint64_t pkts_out, pkts_in, pokes;
	uint64_t wqes, cqes;
	uint64_t waits;	       /* the engine thread slept on its ring */
	uint64_t woken;	       /* ... and a sender woke it */
	uint64_t ring_full;    /* sends deferred: the peer's ring was full */
	uint64_t ack_timeouts; /* local ACK timer expiries (go-back-N) */
	uint64_t timer_waits;  /* expiries not counted: the peer had not run */
	uint64_t retransmits;  /* request packets sent again (lost or not
				* acknowledged in time) */
	uint64_t rnr_naks;     /* RNR NAKs received (then sent again) */
	uint64_t seq_naks;     /* PSN sequence NAKs sent (a gap was seen) */
	uint64_t duplicates;   /* duplicate requests answered again */
	uint64_t faults;       /* --fault actions taken in this process */
	uint64_t odp_faults;   /* ODP accesses that had to fault pages in */
	uint64_t db_traps;     /* stores to UAR pages that trapped */
	uint64_t db_opens;     /* UAR pages left writable while streaming */
	uint64_t db_busy;      /* traps whose pass the engine thread ran
				* (the sim stayed busy elsewhere) */
	uint64_t landed;       /* SENDs a sender placed here (hca_land.c) */
	uint64_t peer_copies;  /* pieces copied into a peer's pinned pages */
	uint64_t landed_writes; /* WRITE packets placed here */
	uint64_t placed_writes; /* WRITE packets this process placed */
	uint64_t acks_at_once;	/* their ACKs taken without the ring */
	uint64_t peer_polls;	/* a peer's pidfd asked whether it exited */
};
extern struct hca_stats hca_stats;

/* --trace: the RoCE v2 UDP source port of QP qpn of device dev's packet
 * p, when it is not the one said last (*last, the QP's). */
void hca_trace_udp_sport(unsigned int dev, uint32_t qpn,
			 const struct hca_pkt *p, uint16_t *last);
/* --fault cqe-error: a send WQE of QP qpn of device dev (any model's) was
 * taken, *sent its count of them (bumped here): the status the rule gives
 * it as an mlx5 syndrome (common/fault.h: sim_fault_wc_status), or 0. */
uint32_t hca_fault_cqe_error(unsigned int dev, uint32_t qpn, uint32_t *sent);

#endif

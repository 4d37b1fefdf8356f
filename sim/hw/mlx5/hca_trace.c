// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* --trace lines for the data path: each WQE taken, each CQE written, and
 * the engine's counters when the process exits. */
#include "hca.h"
#include "hca_cmd.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const wqe_names[256] = {
	[HCA_WQE_NOP] = "NOP",
	[HCA_WQE_SEND_INVAL] = "SEND_INV",
	[HCA_WQE_RDMA_WRITE] = "RDMA_WRITE",
	[HCA_WQE_RDMA_WRITE_IMM] = "RDMA_WRITE_IMM",
	[HCA_WQE_SEND] = "SEND",
	[HCA_WQE_SEND_IMM] = "SEND_IMM",
	[HCA_WQE_TSO] = "TSO",
	[HCA_WQE_RDMA_READ] = "RDMA_READ",
	[HCA_WQE_ATOMIC_CS] = "ATOMIC_CS",
	[HCA_WQE_ATOMIC_FA] = "ATOMIC_FA",
	[HCA_WQE_UMR] = "UMR",
};

static const char *const cqe_names[16] = {
	[HCA_CQE_REQ] = "REQ",
	[HCA_CQE_RESP_WR_IMM] = "RESP_WR_IMM",
	[HCA_CQE_RESP_SEND] = "RESP_SEND",
	[HCA_CQE_RESP_SEND_IMM] = "RESP_SEND_IMM",
	[HCA_CQE_RESP_SEND_INV] = "RESP_SEND_INV",
	[HCA_CQE_RESIZE_CQ] = "RESIZE_CQ",
	[HCA_CQE_REQ_ERR] = "REQ_ERR",
	[HCA_CQE_RESP_ERR] = "RESP_ERR",
};

static const char *const synd_names[0x17] = {
	[HCA_SYND_OK] = "ok",
	[HCA_SYND_LOC_LEN] = "LOCAL_LENGTH_ERR",
	[HCA_SYND_LOC_QP_OP] = "LOCAL_QP_OP_ERR",
	[HCA_SYND_LOC_PROT] = "LOCAL_PROT_ERR",
	[HCA_SYND_FLUSH] = "WR_FLUSH_ERR",
	[HCA_SYND_BAD_RESP] = "BAD_RESP_ERR",
	[HCA_SYND_LOC_ACCESS] = "LOCAL_ACCESS_ERR",
	[HCA_SYND_REM_INV_REQ] = "REMOTE_INVAL_REQ_ERR",
	[HCA_SYND_REM_ACCESS] = "REMOTE_ACCESS_ERR",
	[HCA_SYND_REM_OP] = "REMOTE_OP_ERR",
	[HCA_SYND_RETRY_EXC] = "TRANSPORT_RETRY_EXC_ERR",
	[HCA_SYND_RNR_RETRY_EXC] = "RNR_RETRY_EXC_ERR",
};

static const char *name_or(const char *n)
{
	return n ? n : "?";
}

struct hca_stats hca_stats;

void hca_trace_udp_sport(unsigned int dev, uint32_t qpn,
			 const struct hca_pkt *p, uint16_t *last)
{
	if (!p->udp_sport || p->udp_sport == *last || !sim_tracing())
		return;
	*last = p->udp_sport;
	sim_trace("roce v2 dev %u qp %#x udp sport %#x dport 4791", dev, qpn,
		  p->udp_sport);
}

#define STATS_LINE 896

void hca_trace_wqe(const struct hca_qp *qp, const struct hca_swqe *w)
{
	hca_stats.wqes++;
	if (!sim_tracing())
		return;
	sim_trace("wqe qp %#x %s idx %u len %u ds %u%s%s%s", qp->qpn,
		  name_or(wqe_names[w->opcode]), w->wqe_idx, w->len, w->ds,
		  w->inl ? " inline" : "", w->signaled ? " signaled" : "",
		  w->failed ? " malformed" : "");
}

void hca_trace_cqe(const struct hca_cq *cq, const struct hca_cqe_info *ci)
{
	hca_stats.cqes++;
	if (!sim_tracing())
		return;
	sim_trace("cqe cq %#x qp %#x %s idx %u len %u status %s", cq->cqn,
		  ci->qpn, name_or(cqe_names[ci->opcode & 15]), ci->wqe_counter,
		  ci->byte_cnt,
		  name_or(ci->syndrome < sizeof(synd_names) / sizeof(char *)
				  ? synd_names[ci->syndrome]
				  : NULL));
}

void hca_trace_rings(const struct hca_qp *qp,
		     const struct hca_create_qp_in *in)
{
	if (!sim_tracing())
		return;
	sim_trace("rings qp %#x sq %u BB rq %u x %u B cap wr %u/%u sge %u/%u "
		  "inline %u cs_res %#x cs_req %#x",
		  qp->qpn, qp->sq_wqe_cnt, qp->rq_wqe_cnt,
		  qp->rq_wqe_cnt ? 1u << qp->rq_wqe_shift : 0, in->cap_send_wr,
		  in->cap_recv_wr, in->cap_send_sge, in->cap_recv_sge,
		  in->cap_inline, in->cs_res, in->cs_req);
}

void hca_trace_cq_ring(const struct hca_cq *cq)
{
	if (!sim_tracing())
		return;
	sim_trace("rings cq %#x %u x %u B", cq->cqn, cq->ncqe, cq->cqe_size);
}

/* Append line to the file $RDMA_SIM_HCA_STATS names, if set. */
static void stats_to_file(char *line, int n)
{
	const char *path = getenv("RDMA_SIM_HCA_STATS");
	int fd;

	if (!path || n < 0 || n >= STATS_LINE - 1)
		return;
	fd = sys.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	line[n++] = '\n';
	if (sys.write(fd, line, (size_t)n) < 0)
		n = 0;
	sys.close(fd);
}

/* The counters after the passes, in the order the stats line prints them
 * (scripts in bench/ and tests/ read them by label). */
#define STAT_COL(label, field) { label, offsetof(struct hca_stats, field) }
static const struct {
	const char *label;
	size_t off;
} stat_cols[] = {
	STAT_COL("packets out", pkts_out),
	STAT_COL("in", pkts_in),
	STAT_COL("wake-ups sent", pokes),
	STAT_COL("wqes", wqes),
	STAT_COL("cqes", cqes),
	STAT_COL("sleeps", waits),
	STAT_COL("woken", woken),
	STAT_COL("ring-full", ring_full),
	STAT_COL("ack-timeouts", ack_timeouts),
	STAT_COL("timer-waits", timer_waits),
	STAT_COL("retransmits", retransmits),
	STAT_COL("rnr-naks", rnr_naks),
	STAT_COL("seq-naks", seq_naks),
	STAT_COL("duplicates", duplicates),
	STAT_COL("faults", faults),
	STAT_COL("odp-faults", odp_faults),
	STAT_COL("uar-traps", db_traps),
	STAT_COL("uar-opens", db_opens),
	STAT_COL("uar-busy", db_busy),
	STAT_COL("landed", landed),
	STAT_COL("peer-copies", peer_copies),
	STAT_COL("landed-writes", landed_writes),
	STAT_COL("placed-writes", placed_writes),
	STAT_COL("acks-at-once", acks_at_once),
	STAT_COL("peer-polls", peer_polls),
};

/* At exit, in processes whose engine ran: its work, to compare two runs. */
__attribute__((destructor)) static void trace_stats(void)
{
	char line[STATS_LINE];
	struct hca_stats s;
	struct timespec until;
	size_t i;
	int n;

	/* the engine thread may still run; an exit() from a signal handler
	 * may have left the lock held by this very thread: give up then */
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec++;
	if (pthread_mutex_timedlock(&sim_lock, &until))
		return;
	s = hca_stats;
	pthread_mutex_unlock(&sim_lock);
	if (!s.passes)
		return;
	n = snprintf(line, sizeof(line),
		     "engine passes %" PRIu64 " (%" PRIu64 " with work, %" PRIu64
		     " in the application's calls)",
		     s.passes, s.busy_passes, s.app_passes);
	for (i = 0; i < sizeof(stat_cols) / sizeof(stat_cols[0]) && n > 0 &&
		    n < STATS_LINE;
	     i++) {
		uint64_t v;

		memcpy(&v, (const char *)&s + stat_cols[i].off, sizeof(v));
		n += snprintf(line + n, sizeof(line) - (size_t)n,
			      " %s %" PRIu64, stat_cols[i].label, v);
	}
	if (sim_tracing())
		sim_trace("%s", line);
	stats_to_file(line, n);
}

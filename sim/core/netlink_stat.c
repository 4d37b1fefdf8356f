// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * NLDEV STAT_GET (`rdma statistic`): the port's hardware counters as
 * stat_get_doit_default_counter gives them, DEV_INDEX, DEV_NAME,
 * PORT_INDEX and STAT_HWCOUNTERS{ENTRY{NAME, VALUE}} in the driver's
 * order. Names are mlx5's (counters.c: q counters, retransmission and
 * enhanced error groups, RoCE acceleration, congestion, ext PPCNT) or
 * rxe's (rxe_hw_counters.c). A counter the simulated HCA keeps carries
 * the world's count for the device (hw/mlx5 bumps them); events the model
 * never produces (CNPs, ICRC, buffer overruns) read 0, as on a quiet link.
 * With STAT_RES (per-QP counters, modes) the request is not modelled.
 */
#include "netlink.h"

#include <errno.h>

struct hwc_desc {
	const char *name;
	int src; /* enum sim_hwc, or -1: not produced by the model */
};

static const struct hwc_desc mlx5_counters[] = {
	{"rx_write_requests", SIM_HWC_RX_WRITE},
	{"rx_read_requests", SIM_HWC_RX_READ},
	{"rx_atomic_requests", SIM_HWC_RX_ATOMIC},
	{"rx_dct_connect", -1},
	{"out_of_buffer", -1},
	{"out_of_sequence", SIM_HWC_OUT_OF_SEQ},
	{"duplicate_request", SIM_HWC_DUPLICATE},
	{"rnr_nak_retry_err", SIM_HWC_RNR_NAK_RCVD},
	{"packet_seq_err", SIM_HWC_SEQ_NAK_RCVD},
	{"implied_nak_seq_err", -1},
	{"local_ack_timeout_err", SIM_HWC_ACK_TIMEOUT},
	{"resp_local_length_error", -1},
	{"resp_cqe_error", -1},
	{"req_cqe_error", -1},
	{"req_remote_invalid_request", -1},
	{"req_remote_access_errors", -1},
	{"resp_remote_access_errors", -1},
	{"resp_cqe_flush_error", -1},
	{"req_cqe_flush_error", -1},
	{"req_transport_retries_exceeded", -1},
	{"req_rnr_retries_exceeded", -1},
	{"roce_adp_retrans", -1},
	{"roce_adp_retrans_to", -1},
	{"roce_slow_restart", -1},
	{"roce_slow_restart_cnps", -1},
	{"roce_slow_restart_trans", -1},
	{"rp_cnp_ignored", -1},
	{"rp_cnp_handled", -1},
	{"np_ecn_marked_roce_packets", -1},
	{"np_cnp_sent", -1},
	{"rx_icrc_encapsulated", -1},
};

static const struct hwc_desc rxe_counters[] = {
	{"sent_pkts", -1},
	{"rcvd_pkts", -1},
	{"duplicate_request", SIM_HWC_DUPLICATE},
	{"out_of_seq_request", SIM_HWC_OUT_OF_SEQ},
	{"rcvd_rnr_err", SIM_HWC_RNR_NAK_RCVD},
	{"send_rnr_err", -1},
	{"rcvd_seq_err", SIM_HWC_SEQ_NAK_RCVD},
	{"ack_deferred", -1},
	{"retry_exceeded_err", -1},
	{"retry_rnr_exceeded_err", -1},
	{"completer_retry_err", SIM_HWC_ACK_TIMEOUT},
	{"send_err", -1},
	{"link_downed", -1},
	{"rdma_sends", -1},
	{"rdma_recvs", -1},
};

static void put_counter(struct nl_out *o, const char *name, uint64_t v)
{
	size_t e = nl_nest_begin(o, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY |
					    NLA_F_NESTED);

	nl_put_str(o, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, name);
	nl_put_u64(o, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, v);
	nl_nest_end(o, e);
}

int nl_stat_get_doit(struct nl_out *o, const struct nl_req *r)
{
	int rxe = sim_model_kind(sim.model) == SIM_DRIVER_RXE;
	const struct hwc_desc *c = rxe ? rxe_counters : mlx5_counters;
	unsigned int n = rxe ? ARRAY_SIZE(rxe_counters)
			     : ARRAY_SIZE(mlx5_counters),
		     i;
	int64_t port = nl_get_u32(r->tb, RDMA_NLDEV_ATTR_PORT_INDEX);
	int dev = nl_req_dev(r->tb);
	uint64_t v;
	size_t t;

	if (r->tb[RDMA_NLDEV_ATTR_STAT_RES])
		return -EOPNOTSUPP;
	if (dev < 0 || port < 1 || port > nl_nports())
		return -EINVAL;
	nl_msg_begin(o, nl_type(RDMA_NLDEV_CMD_STAT_GET), 0, r->h->nlmsg_seq,
		     r->h->nlmsg_pid);
	nl_put_dev(o, (unsigned int)dev);
	nl_put_u32(o, RDMA_NLDEV_ATTR_PORT_INDEX, (uint32_t)port);
	t = nl_nest_begin(o, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS | NLA_F_NESTED);
	for (i = 0; i < n; i++) {
		v = c[i].src < 0 ? 0
				 : __atomic_load_n(&sim.sh->hwc[dev][c[i].src],
						   __ATOMIC_RELAXED);
		put_counter(o, c[i].name, v);
	}
	nl_nest_end(o, t);
	nl_msg_end(o);
	sim_trace("netlink STAT_GET dev %d port %u: %u counters", dev,
		  (unsigned int)port, n);
	return 0;
}

/* Counters bound to QPs (STAT_RES): none exist in the world; the request
 * still needs STAT_RES and a device, as nldev_stat_get_dumpit. */
int nl_stat_get_dumpit(struct sim_nl_dump *d, struct nl_out *o, size_t limit)
{
	(void)o, (void)limit;
	if (d->dev < 0 || !sim_dev_live(sim.sh, (unsigned int)d->dev))
		return -EINVAL;
	return 0;
}

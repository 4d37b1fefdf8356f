/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The UDP source port of RoCE v2 packets, as the kernel picks it
 * (include/rdma/ib_verbs.h, drivers/infiniband/sw/rxe/rxe_qp.c) and
 * libmlx5 puts it in a UD address vector: ports 0xc000..0xffff, derived
 * from the flow label so that a flow keeps one port (ECMP hashes on it).
 */
#ifndef RDMA_SIM_UDP_SPORT_H
#define RDMA_SIM_UDP_SPORT_H

#include <stdint.h>

#define SIM_ROCE_SPORT_MIN 0xc000

/* A 20-bit flow label folded into the 14 free bits of a port. */
static inline uint16_t sim_flow_label_to_udp_sport(uint32_t fl)
{
	uint32_t low = fl & 0x3fff, high = (fl & 0xfc000) >> 14;

	return (uint16_t)((low ^ high) | SIM_ROCE_SPORT_MIN);
}

/* The flow label the kernel derives from a connection's two QPNs when
 * the path has none. */
static inline uint32_t sim_calc_flow_label(uint32_t lqpn, uint32_t rqpn)
{
	uint64_t v = (uint64_t)lqpn * rqpn;

	v ^= v >> 20;
	v ^= v >> 40;
	return (uint32_t)(v & 0xfffff);
}

/* rdma_get_udp_sport: the path's flow label, else the QPNs'. */
static inline uint16_t sim_udp_sport(uint32_t fl, uint32_t lqpn, uint32_t rqpn)
{
	return sim_flow_label_to_udp_sport(
		fl ? fl : sim_calc_flow_label(lqpn, rqpn));
}

/* rxe's port for a new QP: 14 bits of the QPN's golden-ratio hash. */
static inline uint16_t sim_rxe_qp_sport(uint32_t qpn)
{
	return (uint16_t)(SIM_ROCE_SPORT_MIN +
			  (((qpn * 0x61c88647u) >> (32 - 14)) & 0x3fff));
}

#endif

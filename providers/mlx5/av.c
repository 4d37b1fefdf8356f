// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The mlx5 UD address vector built from struct ibv_ah_attr.
 */
#include <errno.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "datapath.h"

/* enum ibv_rate -> mlx5 static rate code (0: port rate). */
static const uint8_t rate_codes[] = {
	0, 0, 7, 8, 9, 10, 11, 12, 13, 14, 15, 11,
	13, 15, 0, 9, 15, 0, 0, 9, 13, 0, 0,
};

uint8_t mlx5_rate_code(int rate)
{
	if (rate < 0 || (size_t)rate >= sizeof(rate_codes))
		return 0;
	return rate_codes[rate];
}

int mlx5_fill_av(struct mlx5_wqe_av *av, const struct ibv_ah_attr *attr,
		 bool eth)
{
	uint32_t gid_fl = 0;

	memset(av, 0, sizeof(*av));
	if (eth && !attr->is_global)
		return EINVAL;
	av->stat_rate_sl = (uint8_t)(mlx5_rate_code(attr->static_rate) << 4);
	if (eth) {
		av->stat_rate_sl |= (attr->sl & 0x7) << 1;
	} else {
		av->stat_rate_sl |= attr->sl & 0xf;
		av->fl_mlid = attr->src_path_bits & 0x7f;
		av->rlid = htobe16(attr->dlid);
	}
	if (attr->is_global) {
		if (!eth)
			gid_fl = 1u << 30;
		gid_fl |= (uint32_t)attr->grh.sgid_index << 20 |
			  (attr->grh.flow_label & 0xfffff);
		av->grh_gid_fl = htobe32(gid_fl);
		av->tclass = attr->grh.traffic_class;
		av->hop_limit = attr->grh.hop_limit;
		memcpy(av->rgid, attr->grh.dgid.raw, sizeof(av->rgid));
	}
	return 0;
}

/* A port in the RoCE v2 source range; getrandom, else a clock mix. */
static uint16_t random_sport(void)
{
	const uint32_t span = IB_ROCE_UDP_ENCAP_VALID_PORT_MAX + 1 -
			      IB_ROCE_UDP_ENCAP_VALID_PORT_MIN;
	struct timespec ts;
	uint32_t r;

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != sizeof(r)) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		r = (uint32_t)ts.tv_nsec * 2654435761u;
		r ^= r >> 16;
	}
	return (uint16_t)(IB_ROCE_UDP_ENCAP_VALID_PORT_MIN + r % span);
}

void mlx5_av_set_udp_sport(struct mlx5_wqe_av *av, uint32_t flow_label)
{
	/* Same flow label, same port: ECMP keeps a flow on one path. */
	uint32_t fl = flow_label & 0xfffff;
	uint16_t sport = fl ? ibv_flow_label_to_udp_sport(fl) : random_sport();

	av->rlid = htobe16(sport);
}

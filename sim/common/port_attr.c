// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The attributes of a device's port (port_attr.h): one InfiniBand port
 * a subnet manager has swept (LID dev+1, SM LID 1), or a RoCE port whose
 * state and MTU follow its netdev, as mlx5_query_port_roce.
 */
#include "port_attr.h"
#include "netdev.h"

#include <string.h>

void sim_port_attr(struct sim_shared *sh, const struct sim_device_model *m,
		   unsigned int dev, struct ib_uverbs_query_port_resp_ex *r)
{
	struct ib_uverbs_query_port_resp *p = &r->legacy_resp;
	struct sim_netdev *nd = sim_netdev_of(sh, dev, 1);
	int eth = sim_port_is_eth(sh, dev);

	memset(r, 0, sizeof(*r));
	p->port_cap_flags = eth ? 0x04010000 : 0x2651e848;
	p->max_msg_sz = 1 << 30;
	p->gid_tbl_len = m->gid_tbl_len;
	p->pkey_tbl_len = SIM_NUM_PKEYS;
	p->lid = eth ? 0 : (uint16_t)(dev + 1); /* fabric routes by DLID */
	p->sm_lid = eth ? 0 : SIM_SM_LID;
	p->state = 4;	/* ACTIVE */
	if (sim_link_is_down(&sh->cfg, dev))
		p->state = 1; /* DOWN: --fault link-flap */
	p->max_mtu = 5; /* 4096 */
	p->active_mtu = eth ? 3 : 5;
	p->max_vl_num = eth ? 0 : 4;
	p->active_width = eth ? 1 : 2;
	p->active_speed = eth ? 4 : 32;
	p->phys_state = p->state == 1 ? 2 : 5; /* Polling / LinkUp */
	p->link_layer = eth ? 2 : 1;
	r->port_cap_flags2 = 0;
	if (!nd)
		return;
	/* RoCE: state and MTU follow the bound netdev (mlx5_query_port_roce) */
	p->gid_tbl_len = nd->gid_tbl_len;
	p->active_mtu = (uint8_t)sim_roce_active_mtu(nd->mtu);
	if (!nd->running) {
		p->state = 1;	   /* DOWN */
		p->phys_state = 3; /* Disabled */
	}
}

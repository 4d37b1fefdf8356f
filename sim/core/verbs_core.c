// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Core verbs answers shared by the ioctl and write() paths. */
#include "uapi.h"

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/syscall.h>
#include <unistd.h>

uint32_t sim_num_comp_vectors(void)
{
	return 2;
}

int sim_get_context(struct sim_uvfile *uv, const void *uin, size_t uin_len,
		    void *uout, size_t uout_len)
{
	int ret;

	if (uv->has_ctx)
		return -EINVAL;
	ret = sim_driver()->alloc_ucontext(uv, uin, uin_len, uout, uout_len);
	if (ret < 0)
		return ret;
	uv->has_ctx = 1;
	return ret;
}

/* The first async event file of a context is its default one. */
int sim_alloc_async_fd(struct sim_uvfile *uv, int cloexec)
{
	struct sim_evq *q;
	int fd = sim_evq_new(uv, 0, cloexec, &q);

	if (fd >= 0 && !uv->async) {
		uv->async = q;
		sim_net_events_watch(uv);
	}
	return fd;
}

void sim_fill_device(unsigned int dev, struct ib_uverbs_query_device_resp *r)
{
	const struct sim_device_model *m = sim.model;
	const struct sim_verbs_rules *v = sim_driver()->rules;
	unsigned int a, b, c;

	memset(r, 0, sizeof(*r));
	if (sscanf(m->fw_ver, "%u.%u.%u", &a, &b, &c) == 3)
		r->fw_ver = ((uint64_t)a << 32) | ((uint64_t)b << 16) | c;
	r->node_guid = htobe64(sim_guid(dev));
	r->sys_image_guid = htobe64(sim_guid(dev));
	r->max_mr_size = ~0ULL;
	r->page_size_cap = 0xfffffffffffff000ULL;
	r->vendor_id = m->vendor_id;
	r->vendor_part_id = m->vendor_part_id;
	r->hw_ver = m->hw_ver;
	r->max_qp = v->max_qp;
	r->max_qp_wr = v->max_qp_wr;
	r->device_cap_flags = 0x25321c36;
	r->max_sge = v->max_sge;
	r->max_sge_rd = v->max_sge_rd;
	r->max_cq = v->max_cq;
	r->max_cqe = v->max_cqe;
	r->max_mr = 1 << 24;
	r->max_pd = 1 << 24;
	r->max_mw = v->max_mw;
	r->max_qp_rd_atom = v->max_qp_rd_atom;
	r->max_ee_rd_atom = 0;
	r->max_res_rd_atom = v->max_qp * v->max_qp_rd_atom;
	r->max_qp_init_rd_atom = v->max_qp_init_rd_atom;
	r->atomic_cap = 1; /* IB_ATOMIC_HCA */
	r->max_mcast_grp = 1 << 21;
	r->max_mcast_qp_attach = 240;
	r->max_total_mcast_qp_attach = 240 << 21;
	r->max_ah = v->max_ah;
	r->max_srq = v->max_srq;
	r->max_srq_wr = v->max_srq_wr;
	r->max_srq_sge = v->max_srq_sge;
	r->max_pkeys = SIM_NUM_PKEYS;
	r->local_ca_ack_delay = 16;
	r->phys_port_cnt = 1;
}

int sim_has_cap(int cap)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2] = {};

	if (syscall(SYS_capget, &h, d))
		return 0;
	return !!(d[cap / 32].effective & (1u << (cap % 32)));
}

int sim_has_raw_caps(void)
{
	return sim_has_cap(CAP_SYS_RAWIO) && sim_has_cap(CAP_NET_RAW);
}

int sim_check_ah_attr(unsigned int dev, const struct sim_ah_attr *a)
{
	struct sim_netdev *nd = sim_netdev_of(sim.sh, dev, 1);
	struct sim_gid_slot g;

	if (!a->is_global) /* RoCE needs a GRH (rdma_check_ah_attr) */
		return sim_port_is_eth(sim.sh, dev) ? -EINVAL : 0;
	if (nd)
		return sim_gid_get(sim.sh, nd, a->sgid_index, &g);
	if (a->sgid_index >= sim.model->gid_tbl_len)
		return -EINVAL;
	return a->sgid_index ? -ENODATA : 0; /* only GID 0 is populated */
}


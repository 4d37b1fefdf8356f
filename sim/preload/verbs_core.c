// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Core verbs answers shared by the ioctl and write() paths. */
#include "uapi.h"

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/eventfd.h>
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

/* An event queue that never has events: an eventfd, close-on-exec. */
int sim_alloc_async_fd(int cloexec)
{
	int fd = eventfd(0, cloexec ? EFD_CLOEXEC : 0);

	if (fd < 0)
		return -errno;
	if (sim_fd_set(fd, SIM_FD_ASYNC, NULL)) {
		real.close(fd);
		return -EMFILE;
	}
	return fd;
}

void sim_fill_port(unsigned int dev, struct ib_uverbs_query_port_resp_ex *r)
{
	struct ib_uverbs_query_port_resp *p = &r->legacy_resp;
	int eth = sim.model->gid_is_roce;

	memset(r, 0, sizeof(*r));
	p->port_cap_flags = eth ? 0x04010000 : 0x2651e848;
	p->max_msg_sz = 1 << 30;
	p->gid_tbl_len = SIM_NUM_GIDS;
	p->pkey_tbl_len = SIM_NUM_PKEYS;
	p->lid = eth ? 0 : 1;
	p->sm_lid = eth ? 0 : 1;
	p->state = 4;	/* ACTIVE */
	p->max_mtu = 5; /* 4096 */
	p->active_mtu = eth ? 3 : 5;
	p->max_vl_num = eth ? 0 : 4;
	p->active_width = eth ? 1 : 2;
	p->active_speed = eth ? 4 : 32;
	p->phys_state = 5; /* LinkUp */
	p->link_layer = eth ? 2 : 1;
	r->port_cap_flags2 = 0;
}

int sim_has_raw_caps(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2] = {};
	uint32_t need = (1u << CAP_SYS_RAWIO) | (1u << CAP_NET_RAW);

	if (syscall(SYS_capget, &h, d))
		return 0;
	return (d[0].effective & need) == need;
}

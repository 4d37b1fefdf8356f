// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "host_pair.h"

int host_pair_open(struct host_pair *p, int ndev, size_t len,
		   unsigned int access)
{
	int n;

	p->devs = ibv_get_device_list(&n);
	if (!p->devs || n < ndev)
		goto fail;
	/* the fabric socket lives as long as the process: not a leak */
	sim_warm_up(p->devs[0]);
	leak_mark_take(&p->mark);
	if (host_open(&p->a, p->devs[0], len, access))
		goto fail;
	if (!host_open(&p->b, p->devs[ndev - 1], len, access))
		return 0;
	host_close(&p->a);
fail:
	if (p->devs)
		ibv_free_device_list(p->devs);
	return -1;
}

bool host_pair_close(struct host_pair *p)
{
	bool ok = !host_close(&p->a);
	int fds, maps;

	ok = !host_close(&p->b) && ok;
	ibv_free_device_list(p->devs);
	leak_mark_recount(&p->mark, &fds, &maps);
	return ok && fds == p->mark.fds && maps == p->mark.maps;
}

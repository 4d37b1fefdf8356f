// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <stdlib.h>
#include <string.h>

#include "qp_link.h"
#include "rc_end.h"

int rc_end_open(struct rc_end *e, const char *dev, size_t len,
		unsigned int access, uint32_t depth)
{
	struct ibv_device **list;
	struct ibv_port_attr pa;
	int i, n;

	memset(e, 0, sizeof(*e));
	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n && !e->ctx; i++)
		if (!strcmp(ibv_get_device_name(list[i]), dev))
			e->ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	if (!e->ctx || ibv_query_port(e->ctx, 1, &pa))
		return -1;
	e->lid = pa.lid;
	e->pd = ibv_alloc_pd(e->ctx);
	e->cq = e->pd ? ibv_create_cq(e->ctx, (int)depth, NULL, NULL, 0) : NULL;
	e->buf = aligned_alloc(4096, len);
	if (!e->cq || !e->buf)
		return -1;
	memset(e->buf, 0, len);
	e->mr = ibv_reg_mr(e->pd, e->buf, len, (int)access);
	e->qp = e->mr ? qp_link_rc_qp(e->pd, e->cq, e->cq, depth) : NULL;
	return e->qp ? 0 : -1;
}

void rc_end_close(struct rc_end *e)
{
	if (e->qp)
		ibv_destroy_qp(e->qp);
	if (e->mr)
		ibv_dereg_mr(e->mr);
	if (e->cq)
		ibv_destroy_cq(e->cq);
	if (e->pd)
		ibv_dealloc_pd(e->pd);
	if (e->ctx)
		ibv_close_device(e->ctx);
	free(e->buf);
}

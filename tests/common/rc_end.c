// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <stdlib.h>
#include <string.h>

#include "qp_link.h"
#include "rc_end.h"

int rc_end_open(struct rc_end *e, const char *dev, size_t len,
		unsigned int access, uint32_t depth)
{
	memset(e, 0, sizeof(*e));
	e->ctx = qp_link_open(dev, &e->lid);
	if (!e->ctx)
		return -1;
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
	qp_link_close(e->qp, e->mr, e->cq, e->cq, e->pd, e->ctx);
	free(e->buf);
}

// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "judge_end.h"
#include "qp_link.h"

int judge_put(int fd, const void *p, size_t n)
{
	return write(fd, p, n) == (ssize_t)n ? 0 : -1;
}

int judge_get(int fd, void *p, size_t n)
{
	return read(fd, p, n) == (ssize_t)n ? 0 : -1;
}

double judge_now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int judge_end_open(struct rc_end *e, size_t len, int fill,
		   unsigned int access)
{
	struct ibv_device **list;
	struct ibv_port_attr pa;
	int i, n;

	memset(e, 0, sizeof(*e));
	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n && !e->ctx; i++)
		if (!strcmp(ibv_get_device_name(list[i]), "mlx5_0"))
			e->ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	if (!e->ctx || ibv_query_port(e->ctx, 1, &pa))
		return -1;
	e->lid = pa.lid;
	e->pd = ibv_alloc_pd(e->ctx);
	e->buf = aligned_alloc(4096, len);
	if (!e->pd || !e->buf)
		return -1;
	memset(e->buf, fill, len);
	e->mr = ibv_reg_mr(e->pd, e->buf, len, (int)access);
	return e->mr ? 0 : -1;
}

int judge_end_close(struct rc_end *e)
{
	int bad = 0;

	if (e->qp)
		bad += !!ibv_destroy_qp(e->qp);
	if (e->cq)
		bad += !!ibv_destroy_cq(e->cq);
	if (e->mr)
		bad += !!ibv_dereg_mr(e->mr);
	if (e->pd)
		bad += !!ibv_dealloc_pd(e->pd);
	if (e->ctx)
		bad += !!ibv_close_device(e->ctx);
	free(e->buf);
	memset(e, 0, sizeof(*e));
	return bad;
}

int judge_end_connect(struct rc_end *e, int rfd, int wfd,
		      struct judge_peer *other)
{
	struct judge_peer me = {.qpn = e->qp->qp_num,
				.lid = e->lid,
				.addr = (uintptr_t)e->buf,
				.rkey = e->mr->rkey};
	struct qp_link link;

	if (judge_put(wfd, &me, sizeof(me)) ||
	    judge_get(rfd, other, sizeof(*other)))
		return EPIPE;
	link = qp_link_default(other->qpn);
	link.dlid = other->lid;
	return qp_link_up(e->qp, &link);
}

/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * One side of a two-process judge on mlx5_0 (public verbs only, so
 * programs built against Debian's libibverbs use it): the device, a PD,
 * a registered buffer in a struct rc_end (rc_end.h); the caller makes CQ
 * and QP. The sides swap their addresses over pipes and connect their RC
 * QPs (qp_link.h).
 */
#ifndef RDMA_TEST_JUDGE_END_H
#define RDMA_TEST_JUDGE_END_H

#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "rc_end.h"

/* What a side tells the other. */
struct judge_peer {
	uint32_t qpn;
	uint16_t lid;
	uint64_t addr;
	uint32_t rkey;
};

/* mlx5_0, port 1's LID, a PD and @len page-aligned bytes of @fill
 * registered with @access. 0, or -1 (judge_end_close frees what is). */
int judge_end_open(struct rc_end *e, size_t len, int fill,
		   unsigned int access);
/* Destroy what is there (QP, CQ, MR, PD, device, buffer): how many of
 * the destroy verbs failed. */
int judge_end_close(struct rc_end *e);
/* Swap addresses over the pipes, bring e->qp (RC) to RTS towards the
 * other. 0, EPIPE, or the errno of the modify that failed. */
int judge_end_connect(struct rc_end *e, int rfd, int wfd,
		      struct judge_peer *other);
/* The whole of n bytes over a pipe: 0, or -1. */
int judge_put(int fd, const void *p, size_t n);
int judge_get(int fd, void *p, size_t n);
/* CLOCK_MONOTONIC in seconds. */
double judge_now_s(void);

#endif

/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * One end of an RC connection as the data-path judges set it up: a named
 * device, its port's LID, a PD, one CQ for both directions, a zeroed
 * buffer registered whole, and an RC QP in RESET (qp_link.h brings it
 * up). Public verbs only, for programs built against Debian's libibverbs.
 */
#ifndef RDMA_TEST_RC_END_H
#define RDMA_TEST_RC_END_H

#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

struct rc_end {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	uint8_t *buf;
	uint16_t lid;
};

/* Open @dev: @len bytes registered with @access, a CQ of @depth entries,
 * a QP of @depth WRs each way. 0, or -1 with what was made in @e. */
int rc_end_open(struct rc_end *e, const char *dev, size_t len,
		unsigned int access, uint32_t depth);
/* Everything rc_end_open made, in reverse (a sanitized build counts what
 * is left at exit as leaked). */
void rc_end_close(struct rc_end *e);

#endif /* RDMA_TEST_RC_END_H */

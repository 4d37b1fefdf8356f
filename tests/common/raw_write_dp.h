/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * write() forms of the data-path commands that tests/sim and
 * tests/conformance both send by hand: destroying a CQ, QP or SRQ and
 * modifying a QP or SRQ. Each returns 0 or the errno of the write().
 */
#ifndef RDMA_TEST_RAW_WRITE_DP_H
#define RDMA_TEST_RAW_WRITE_DP_H

#include <stdbool.h>
#include <stdint.h>
#include <rdma/ib_user_verbs.h>

/* @resp, @events_reported: the kernel's counts when not NULL. */
int raw_destroy_cq(int fd, uint32_t handle,
		   struct ib_uverbs_destroy_cq_resp *resp);
int raw_destroy_qp(int fd, uint32_t handle, uint32_t *events_reported);
int raw_destroy_srq(int fd, uint32_t handle);

/*
 * A MODIFY_QP of @qp to @state sending @mask, with a valid value for the
 * attributes every transition may take: port 1, Q_Key 0x11111111, MTU
 * 1024, one read/atomic each way, RNR timer 12, timeout 14, 7 retries of
 * each kind, the AV on port 1. The caller adds the address and the rest.
 */
void raw_modify_qp_init(struct ib_uverbs_modify_qp *m, uint32_t qp,
			uint8_t state, uint32_t mask);
int raw_modify_qp(int fd, const struct ib_uverbs_modify_qp *m);
/* with_udata false: the bare core command (rxe wants its 8 bytes). */
int raw_modify_srq(int fd, uint32_t handle, uint32_t mask, uint32_t max_wr,
		   uint32_t limit, bool with_udata);

#endif /* RDMA_TEST_RAW_WRITE_DP_H */

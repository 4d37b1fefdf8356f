/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The buffer descriptors (BUF_UMEM attributes) of the last CQ_CREATE and
 * QP_CREATE ioctls the program sent, as they went to the kernel: a test
 * linking ioctl_spy.c sees every uverbs ioctl of its libraries before
 * rdma-sim (or the kernel) does.
 */
#ifndef MLX5_IOCTL_SPY_H
#define MLX5_IOCTL_SPY_H

#include <stdbool.h>
#include <stdint.h>

#include <rdma/rdma_dm_uapi.h>

struct spy_create {
	unsigned int count;	    /* creates of this object seen */
	bool ring, dbr;		    /* the two attributes were there */
	uint16_t ring_len, dbr_len; /* their lengths */
	struct rdma_dm_buffer_desc ring_desc, dbr_desc;
	uint64_t uhw_buf, uhw_db; /* buf_addr and db_addr of the UHW */
};

extern struct spy_create spy_cq, spy_qp;
extern unsigned int spy_srq_creates; /* SRQ_CREATE ioctls seen */

void spy_reset(void);

#endif /* MLX5_IOCTL_SPY_H */

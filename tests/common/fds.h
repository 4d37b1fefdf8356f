/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* What a test counts to prove that nothing leaked. */
#ifndef RDMA_TEST_FDS_H
#define RDMA_TEST_FDS_H

/*
 * Number of open fds of this process. Aborts when /proc/self/fd cannot be
 * read: a count that always fails would compare equal and prove nothing.
 */
int count_fds(void);

/*
 * count_fds() without rdma-sim's memfd of pinned memory ("memfd:rdma-sim-dma",
 * sim/core/dma_pin.c), which exists while an MR or CQ ring is pinned: the
 * sim's stand-in for pages a real kernel pins without any fd.
 */
int count_fds_but_pins(void);

/*
 * Mappings of this process but private anonymous ones (device pages, files,
 * shared memory), or -1 when /proc/self/maps cannot be read.
 */
int count_maps(void);

#endif /* RDMA_TEST_FDS_H */

/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rdma-sim's dma-buf paths of issue 21, by raw uverbs calls: UAR exports,
 * DMA handles, completion counters, the DMA-buf heap.
 */
#ifndef RDMA_SIM_BUFS_H
#define RDMA_SIM_BUFS_H

#include "raw.h"
#include "rdma_sim_peer.h"

void bufs_check_uar(void);
/* and completion counters; a CoCo guest pins no user memory for an MR */
void bufs_check_dmah(int cc_guest);
void bufs_check_rxe(int fd);
void bufs_check_heap(int cc_guest);
void bufs_check_drm(void);
/* The peer in an exec'd child reads want from dma-buf dfd: 0 if it did. */
int bufs_exec_reads(int dfd, const char *want);
/* ... in a forked child, and in one that got only an SCM_RIGHTS copy. */
int bufs_fork_reads(int dfd, const char *want);
int bufs_rights_reads(int dfd, const char *want);

#endif

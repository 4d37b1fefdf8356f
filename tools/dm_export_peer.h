/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#ifndef DM_EXPORT_PEER_H
#define DM_EXPORT_PEER_H

#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

/*
 * Check the dma-buf @fd of @dm through a peer device: it must read the
 * @len bytes of @pattern the CPU wrote, and bytes it writes must be what
 * ibv_memcpy_from_dm() then returns. 1 passed, 0 failed, -1 skipped (no
 * peer device: not under rdma-sim); @why says what happened.
 */
int peer_check(int fd, struct ibv_dm *dm, size_t len, const uint8_t *pattern,
	       unsigned int round, char *why, size_t why_len);

/*
 * The same for a dma-buf of host memory mapped at @cpu (its first @len
 * bytes): the peer reads what the CPU holds there, and the CPU reads
 * there what the peer wrote.
 */
int peer_check_mem(int fd, const uint8_t *cpu, size_t len, char *why,
		   size_t why_len);

#endif /* DM_EXPORT_PEER_H */

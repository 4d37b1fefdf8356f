/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A peer device for tests: it imports a dma-buf fd exported under rdma-sim
 * and reads/writes the exported memory the way a GPU would, through the
 * device and not through a CPU mapping. Link with -lrdmasim_peer.
 *
 * Outside rdma-sim every call fails cleanly (rdma_sim_active() is 0 and
 * imports fail with EINVAL, or EBADF for a closed fd). The dma-buf fd must
 * come from this process (or a fork of it): an fd received over a socket
 * is not recognised (EINVAL).
 */
#ifndef RDMA_SIM_PEER_H
#define RDMA_SIM_PEER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rdma_sim_peer;

/* 1 when this process runs under rdma-sim, else 0. */
int rdma_sim_active(void);

/*
 * Import dmabuf_fd. The peer holds its own reference: closing the fd
 * afterwards does not end the import. Returns NULL with errno EBADF (fd
 * not open), EINVAL (not a dma-buf exported by the sim, or not under the
 * sim), ENODEV (export already revoked) or ENOMEM.
 */
struct rdma_sim_peer *rdma_sim_peer_import(int dmabuf_fd);

/* Size of the imported buffer in bytes (whole mmap entry). */
size_t rdma_sim_peer_size(const struct rdma_sim_peer *peer);

/*
 * Copy len bytes at byte offset off of the buffer into buf (read) or from
 * buf (write). 0 on success, -1 with errno EINVAL (off+len beyond the
 * buffer, NULL peer) or ENODEV (export revoked: DM freed or its device fd
 * closed).
 */
int rdma_sim_peer_read(struct rdma_sim_peer *peer, uint64_t off, void *buf,
		       size_t len);
int rdma_sim_peer_write(struct rdma_sim_peer *peer, uint64_t off,
			const void *buf, size_t len);

/* Drop the import. NULL is ignored. */
void rdma_sim_peer_release(struct rdma_sim_peer *peer);

#ifdef __cplusplus
}
#endif

#endif

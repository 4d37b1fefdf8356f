/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What the layers above the HCA tell it of its UAR (doorbell) pages, as
 * the bus would: where the driver mapped one, that a mapping went away or
 * moved (munmap, mremap at the boundary), and that no store may trap in
 * this process. The rest of the doorbell machinery is the HCA's own
 * (hca_doorbell.c, hw/mlx5/hca.h).
 */
#ifndef RDMA_SIM_HCA_DOORBELL_H
#define RDMA_SIM_HCA_DOORBELL_H

#include <stddef.h>

/* A UAR page was mapped at p: its stores now ring (write-protected while
 * the trap serves it, else watched). Needs sim_lock. */
void hca_doorbell_map(void *p, size_t len, int prot);
/* munmap / mremap of [addr, addr+len): forget or follow UAR pages.
 * Needs sim_lock. */
void hca_doorbell_unmap(void *addr, size_t len);
void hca_doorbell_moved(void *old, void *new, size_t new_len);
/* From now on no UAR page traps in this process: the engine thread
 * watches the doorbell records (why: for the trace). */
void hca_doorbell_watch_only(const char *why);

#endif

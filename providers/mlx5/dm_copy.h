/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Moving bytes between host memory and a MEMIC mapping.
 *
 * MEMIC is device memory behind a PCI BAR, mapped write-combining. The
 * device only takes naturally aligned 4- or 8-byte accesses, so the device
 * side is touched one 64-bit word at a time where it is 8-aligned and with
 * one 32-bit word at each unaligned edge: half the accesses of a 32-bit copy.
 * Nothing here uses memcpy or vector registers on the device side.
 *
 * These routines know nothing about verbs, so they are unit-tested against
 * plain memory.
 */
#ifndef MLX5_DM_COPY_H
#define MLX5_DM_COPY_H

#include <stddef.h>
#include <stdint.h>

/*
 * Validate a copy of @length bytes at @offset of a DM of @dm_length bytes.
 * Returns 0, EFAULT if the range leaves the DM (checked first, without
 * overflow), or EINVAL if @offset or @length is not a multiple of 4.
 */
int mlx5_dm_check_access(uint64_t dm_length, uint64_t offset, size_t length);

/*
 * Copy @length bytes (a multiple of 4) from @host to @dev (4-aligned) and
 * flush them out of the write-combining buffers before returning, so a
 * doorbell the caller writes next cannot overtake them.
 */
void mlx5_dm_write(void *dev, const void *host, size_t length);

/*
 * Copy @length bytes (a multiple of 4) from @dev (4-aligned) to @host. The
 * device reads are ordered after every load the caller made before (e.g. a
 * completion it polled).
 */
void mlx5_dm_read(void *host, const void *dev, size_t length);

#ifdef MLX5_DM_COUNT_ACCESSES
/* Bench/test builds only: device-side loads and stores since the start. */
extern uint64_t mlx5_dm_access_count;
#endif

#endif /* MLX5_DM_COPY_H */

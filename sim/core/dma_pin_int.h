/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Inside the kernel's DMA pinning (dma_pin.c, dma_pin_vma.c,
 * dma_pin_fork.c): the process's memfd and table, and its mappings as
 * /proc/self/smaps lists them.
 */
#ifndef RDMA_SIM_DMA_PIN_INT_H
#define RDMA_SIM_DMA_PIN_INT_H

#include "dma_pin.h"

#include <stdint.h>

struct dma_pin {
	int memfd;   /* hidden internal fd, -1 until the first pin */
	int off;     /* no pinning in this process */
	uint64_t ino;
	uint64_t next; /* the memfd's next free offset */
	struct sim_dma_table *t;
	uint32_t refs[SIM_DMA_RANGES]; /* pins (MRs, CQs) of each range */
};
extern struct dma_pin dma_pin;

/* A mapping (vma) of the process, with what of its VmFlags matters. */
struct dma_vma {
	uint64_t start, end, pgoff, ino;
	char perms[5];
	uint8_t anon;	  /* no file: no path, or [heap] */
	uint8_t plain;	  /* no VmFlags but the ones below and the usual */
	uint8_t dontfork; /* dc: MADV_DONTFORK */
	uint8_t dontdump; /* dd: MADV_DONTDUMP */
};

/* fn for each mapping in address order; 0 or -1 (smaps unreadable). A
 * non-zero fn result stops the walk. */
int dma_vmas_each(int (*fn)(const struct dma_vma *v, void *arg), void *arg);
/* Private anonymous read-write memory the sim may back by its memfd. */
int dma_vma_private_anon(const struct dma_vma *v);
/* The madvise state of v again, on a new mapping of its range. */
void dma_vma_readvise(const struct dma_vma *v);

/* A change of the table: between begin and end, readers retry. */
void dma_table_begin(void);
void dma_table_end(void);
/* Free the memfd's pages of [off, off+len). */
void dma_punch(uint64_t off, uint64_t len);
/* The bytes the memfd holds at [off, off+len) to dst, copied by the
 * kernel (its holes read as zeros: not read, so not allocated). */
void dma_copy_data(uint8_t *dst, uint64_t off, uint64_t len);

#endif

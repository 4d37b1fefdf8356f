// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The dump-and-fill key, which the device reserves and reports at context
 * open (libmlx5's null MR): any PD may use it, over any range up to the
 * largest message. A gather or an RDMA READ through it reads zeros, a
 * scatter or an RDMA WRITE through it is dropped; atomics are refused.
 * The peer may name it as an rkey (perftest --use-null-mr sends it so).
 * Two address ranges, reserved on first use: one read-only that is never
 * written (so it reads as zeros without taking memory) and one the writes
 * land in.
 */
#include "hca.h"

#include <sys/mman.h>

#define HCA_NULL_SPAN (1ul << 30) /* the device's max_msg_sz */

static void *null_range(void **slot, int prot)
{
	void *p = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
	void *none = NULL;

	if (p)
		return p;
	p = sys.mmap(NULL, HCA_NULL_SPAN, prot,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	/* another engine thread may have been first: keep its range */
	if (!__atomic_compare_exchange_n(slot, &none, p, 0, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		sys.munmap(p, HCA_NULL_SPAN);
		return none;
	}
	return p;
}

void *hca_null_mem(uint64_t len, uint32_t need, int remote, uint8_t *synd)
{
	static void *zeros, *sink;

	*synd = remote ? HCA_SYND_REM_ACCESS : HCA_SYND_LOC_PROT;
	if (len > HCA_NULL_SPAN || (need & IB_ACCESS_REMOTE_ATOMIC))
		return NULL;
	if (need & (IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE))
		return null_range(&sink, PROT_READ | PROT_WRITE);
	return null_range(&zeros, PROT_READ);
}

// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * ioctl() of this program, in front of the one it would reach (libc's,
 * or rdma-sim's): records the BUF_UMEM descriptors and the UHW addresses
 * of CQ and QP creation, then passes the call on unchanged.
 */
#include <dlfcn.h>
#include <stdarg.h>
#include <string.h>
#include <sys/ioctl.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/rdma_user_ioctl.h>

#include "ioctl_spy.h"

struct spy_create spy_cq, spy_qp;
unsigned int spy_srq_creates;

void spy_reset(void)
{
	memset(&spy_cq, 0, sizeof(spy_cq));
	memset(&spy_qp, 0, sizeof(spy_qp));
	spy_srq_creates = 0;
}

/* A pointer-type payload: inline up to 8 bytes, else at data. */
static void copy_attr(const struct ib_uverbs_attr *a, void *dst, size_t len)
{
	const void *src = a->len <= 8 ? (const void *)&a->data
				      : (const void *)(uintptr_t)a->data;

	memcpy(dst, src, a->len < len ? a->len : len);
}

static void record(const struct ib_uverbs_ioctl_hdr *h, struct spy_create *s,
		   uint16_t ring_id, uint16_t dbr_id)
{
	uint64_t uhw[2] = {};
	unsigned int i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < h->num_attrs; i++) {
		const struct ib_uverbs_attr *a = &h->attrs[i];

		if (a->attr_id == ring_id) {
			s->ring = true;
			s->ring_len = a->len;
			copy_attr(a, &s->ring_desc, sizeof(s->ring_desc));
		} else if (a->attr_id == dbr_id) {
			s->dbr = true;
			s->dbr_len = a->len;
			copy_attr(a, &s->dbr_desc, sizeof(s->dbr_desc));
		} else if (a->attr_id == UVERBS_ATTR_UHW_IN) {
			/* buf_addr then db_addr, in both mlx5 requests */
			copy_attr(a, uhw, sizeof(uhw));
		}
	}
	s->uhw_buf = uhw[0];
	s->uhw_db = uhw[1];
}

int ioctl(int fd, unsigned long req, ...)
{
	static int (*next)(int, unsigned long, void *);
	const struct ib_uverbs_ioctl_hdr *h;
	unsigned int count;
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!next)
		next = (int (*)(int, unsigned long, void *))dlsym(RTLD_NEXT,
								  "ioctl");
	h = arg;
	if (req == RDMA_VERBS_IOCTL && h->object_id == UVERBS_OBJECT_CQ &&
	    h->method_id == UVERBS_METHOD_CQ_CREATE) {
		count = spy_cq.count;
		record(h, &spy_cq, RDMA_DM_ATTR_CREATE_CQ_BUF_UMEM,
		       RDMA_DM_MLX5_ATTR_CREATE_CQ_DBR_BUF_UMEM);
		spy_cq.count = count + 1;
	} else if (req == RDMA_VERBS_IOCTL &&
		   h->object_id == UVERBS_OBJECT_QP &&
		   h->method_id == UVERBS_METHOD_QP_CREATE) {
		count = spy_qp.count;
		record(h, &spy_qp, RDMA_DM_ATTR_CREATE_QP_BUF_UMEM,
		       RDMA_DM_MLX5_ATTR_CREATE_QP_DBR_BUF_UMEM);
		spy_qp.count = count + 1;
	} else if (req == RDMA_VERBS_IOCTL &&
		   h->object_id == UVERBS_OBJECT_SRQ &&
		   h->method_id == UVERBS_METHOD_SRQ_CREATE) {
		spy_srq_creates++;
	}
	return next(fd, req, arg);
}

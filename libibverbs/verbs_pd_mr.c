// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Protection domains, memory registration and DMA handles. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include <rdma/ib_user_ioctl_verbs.h>

#include "ibverbs.h"
#include "verbs_internal.h"

/* verbs.h maps these names to compile-time dispatchers. */
#undef ibv_reg_mr
#undef ibv_reg_mr_iova

struct ibv_pd *ibv_alloc_pd(struct ibv_context *context)
{
	if (!context)
		return verbs_null_einval();
	return get_ops(context)->alloc_pd(context);
}

int ibv_dealloc_pd(struct ibv_pd *pd)
{
	if (!pd)
		return verbs_einval();
	return get_ops(pd->context)->dealloc_pd(pd);
}

struct ibv_pd *ibv_import_pd(struct ibv_context *context, uint32_t pd_handle)
{
	if (!context)
		return verbs_null_einval();
	return get_ops(context)->import_pd(context, pd_handle);
}

void ibv_unimport_pd(struct ibv_pd *pd)
{
	if (verbs_null_arg(pd))
		return;
	get_ops(pd->context)->unimport_pd(pd);
}

static void mr_fill(struct ibv_mr *mr, struct ibv_pd *pd, void *addr,
		    size_t length)
{
	mr->context = pd->context;
	mr->pd = pd;
	mr->addr = addr;
	mr->length = length;
}

typedef struct ibv_mr *(*reg_fn)(struct ibv_pd *pd, struct ibv_mr_init_attr *a);

static struct ibv_mr *reg_classic(struct ibv_pd *pd, struct ibv_mr_init_attr *a)
{
	return get_ops(pd->context)
		->reg_mr(pd, a->addr, a->length, a->iova, a->access);
}

static struct ibv_mr *reg_ex(struct ibv_pd *pd, struct ibv_mr_init_attr *a)
{
	return get_ops(pd->context)->reg_mr_ex(pd, a);
}

/*
 * What every registration of memory by address or dma-buf does around the
 * provider's call: a kernel without optional access bits gets none (older
 * ones reject unknown bits), the pages of an address range stay out of
 * fork()'s copies while registered (not ODP's, which are never pinned)
 * and come back if the registration fails, and the MR gets its fields.
 */
static struct ibv_mr *reg_mr_common(struct ibv_pd *pd,
				    struct ibv_mr_init_attr *a, reg_fn reg)
{
	bool by_addr = a->comp_mask & IBV_REG_MR_MASK_ADDR;
	bool pin = by_addr && !(a->access & IBV_ACCESS_ON_DEMAND);
	struct ibv_mr *mr;

	if (!(get_priv(pd->context)->core_support &
	      IB_UVERBS_CORE_SUPPORT_OPTIONAL_MR_ACCESS))
		a->access &= ~IBV_ACCESS_OPTIONAL_RANGE;
	if (pin && ibv_dontfork_range(a->addr, a->length))
		return NULL;
	mr = reg(pd, a);
	if (!mr) {
		if (pin)
			ibv_dofork_range(a->addr, a->length);
		return NULL;
	}
	mr_fill(mr, pd, by_addr ? a->addr : (void *)(uintptr_t)a->fd_offset,
		a->length);
	return mr;
}

struct ibv_mr *ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t length,
				uint64_t iova, unsigned int access)
{
	struct ibv_mr_init_attr a = {
		.length = length,
		.access = (int)access,
		.comp_mask = IBV_REG_MR_MASK_IOVA | IBV_REG_MR_MASK_ADDR,
		.iova = iova,
		.addr = addr,
		.fd = -1,
	};

	if (!pd)
		return verbs_null_einval();
	return reg_mr_common(pd, &a, reg_classic);
}

struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
			  int access)
{
	return ibv_reg_mr_iova2(pd, addr, length, (uintptr_t)addr,
				(unsigned int)access);
}

struct ibv_mr *ibv_reg_mr_iova(struct ibv_pd *pd, void *addr, size_t length,
			       uint64_t iova, int access)
{
	return ibv_reg_mr_iova2(pd, addr, length, iova, (unsigned int)access);
}

struct ibv_mr *ibv_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset,
				 size_t length, uint64_t iova, int fd,
				 int access)
{
	struct ibv_mr *mr;

	if (!pd)
		return verbs_null_einval();
	mr = get_ops(pd->context)->reg_dmabuf_mr(pd, offset, length, iova, fd,
						 access);
	if (mr)
		mr_fill(mr, pd, (void *)(uintptr_t)offset, length);
	return mr;
}

#define REG_MR_EX_KNOWN_MASK                                                   \
	(IBV_REG_MR_MASK_IOVA | IBV_REG_MR_MASK_ADDR | IBV_REG_MR_MASK_FD |   \
	 IBV_REG_MR_MASK_FD_OFFSET | IBV_REG_MR_MASK_DMAH |                    \
	 IBV_REG_MR_MASK_BUF)

static struct ibv_mr *fail_mr(int err)
{
	errno = err;
	return NULL;
}

/* Only the fields whose mask bit is set: the caller's struct is not ours. */
static void copy_masked(struct ibv_mr_init_attr *dst,
			const struct ibv_mr_init_attr *a)
{
	uint64_t m = a->comp_mask;

	*dst = (struct ibv_mr_init_attr){
		.length = a->length,
		.access = a->access,
		.comp_mask = m,
		.fd = -1,
	};
	if (m & IBV_REG_MR_MASK_IOVA)
		dst->iova = a->iova;
	if (m & IBV_REG_MR_MASK_ADDR)
		dst->addr = a->addr;
	if (m & IBV_REG_MR_MASK_FD)
		dst->fd = a->fd;
	if (m & IBV_REG_MR_MASK_FD_OFFSET)
		dst->fd_offset = a->fd_offset;
	if (m & IBV_REG_MR_MASK_DMAH)
		dst->dmah = a->dmah;
	if (m & IBV_REG_MR_MASK_BUF)
		dst->buf = a->buf;
}

/* The mask's shape: one of address or dma-buf, known bits only. */
static bool reg_mr_ex_mask_ok(uint64_t m)
{
	bool by_addr = m & IBV_REG_MR_MASK_ADDR;
	bool by_fd = m & IBV_REG_MR_MASK_FD;

	if (m & ~(uint64_t)REG_MR_EX_KNOWN_MASK)
		return false;
	return by_addr != by_fd &&
	       !(by_addr && (m & IBV_REG_MR_MASK_FD_OFFSET));
}

/*
 * Register memory described by a mask. A buffer from ibv_alloc_buf()
 * turns into what backs it (verbs_buf.c) before anything else is looked
 * at; then the request goes to the provider's reg_mr_ex, whose default
 * serves it with the classic verbs.
 */
struct ibv_mr *ibv_reg_mr_ex(struct ibv_pd *pd,
			     struct ibv_mr_init_attr *mr_init_attr)
{
	struct ibv_mr_init_attr a;

	if (verbs_null_arg(pd) || verbs_null_arg(mr_init_attr))
		return fail_mr(EINVAL);
	copy_masked(&a, mr_init_attr);
	if ((a.comp_mask & IBV_REG_MR_MASK_BUF) && verbs_mr_attr_from_buf(pd, &a))
		return fail_mr(EINVAL);
	if (!reg_mr_ex_mask_ok(a.comp_mask))
		return fail_mr(EINVAL);
	/* A DMA handle must exist and be this context's. */
	if ((a.comp_mask & IBV_REG_MR_MASK_DMAH) &&
	    (!a.dmah || a.dmah->context != pd->context))
		return fail_mr(EINVAL);

	return reg_mr_common(pd, &a, reg_ex);
}

/*
 * The library's own checks, in upstream's order (each: errno EINVAL and
 * IBV_REREG_MR_ERR_INPUT, the old MR still valid). flags == 0 is the
 * kernel's to refuse. A new PD must exist and belong to the MR's context.
 */
static int rereg_input_ok(struct ibv_mr *mr, int flags, struct ibv_pd *pd,
			  void *addr, size_t length, int access)
{
	if (verbs_get_mr(mr)->mr_type != IBV_MR_TYPE_MR)
		return 0;
	if (flags & ~IBV_REREG_MR_FLAGS_SUPPORTED)
		return 0;
	if ((flags & IBV_REREG_MR_CHANGE_TRANSLATION) && (!addr || !length))
		return 0;
	if (access && !(flags & IBV_REREG_MR_CHANGE_ACCESS))
		return 0;
	return !(flags & IBV_REREG_MR_CHANGE_PD) ||
	       (pd && pd->context == mr->context);
}

int ibv_rereg_mr(struct ibv_mr *mr, int flags, struct ibv_pd *pd, void *addr,
		 size_t length, int access)
{
	bool new_range = flags & IBV_REREG_MR_CHANGE_TRANSLATION;
	bool fork_range;
	void *old_addr;
	size_t old_length;
	int ret;

	if (verbs_null_arg(mr))
		return IBV_REREG_MR_ERR_INPUT;
	old_addr = mr->addr;
	old_length = mr->length;
	if (!rereg_input_ok(mr, flags, pd, addr, length, access)) {
		errno = EINVAL;
		return IBV_REREG_MR_ERR_INPUT;
	}
	/* an ODP MR's pages were never made DONTFORK (see ibv_reg_mr) */
	fork_range = new_range &&
		     !(verbs_get_mr(mr)->access & IBV_ACCESS_ON_DEMAND);
	if (fork_range && ibv_dontfork_range(addr, length))
		return IBV_REREG_MR_ERR_DONT_FORK_NEW;

	ret = get_ops(mr->context)->rereg_mr(verbs_get_mr(mr), flags, pd,
					     addr, length, access);
	if (ret) {
		errno = ret;
		if (fork_range && ibv_dofork_range(addr, length))
			return IBV_REREG_MR_ERR_CMD_AND_DO_FORK_NEW;
		return IBV_REREG_MR_ERR_CMD;
	}

	if (flags & IBV_REREG_MR_CHANGE_PD)
		mr->pd = pd;
	if (new_range) {
		mr->addr = addr;
		mr->length = length;
		if (fork_range && ibv_dofork_range(old_addr, old_length))
			return IBV_REREG_MR_ERR_DO_FORK_OLD;
	}
	return 0;
}

int ibv_dereg_mr(struct ibv_mr *mr)
{
	struct verbs_mr *vmr;
	bool forked_range;
	void *addr;
	size_t length;
	int ret;

	if (!mr)
		return verbs_einval();
	vmr = verbs_get_mr(mr);
	forked_range = vmr->mr_type == IBV_MR_TYPE_MR &&
		       !(vmr->access & IBV_ACCESS_ON_DEMAND);
	addr = mr->addr;
	length = mr->length;
	ret = get_ops(mr->context)->dereg_mr(vmr);
	if (!ret && forked_range)
		ibv_dofork_range(addr, length);
	return ret;
}

struct ibv_mr *ibv_import_mr(struct ibv_pd *pd, uint32_t mr_handle)
{
	if (!pd)
		return verbs_null_einval();
	return get_ops(pd->context)->import_mr(pd, mr_handle);
}

void ibv_unimport_mr(struct ibv_mr *mr)
{
	if (verbs_null_arg(mr))
		return;
	get_ops(mr->context)->unimport_mr(mr);
}

struct ibv_dmah *ibv_alloc_dmah(struct ibv_context *context,
				struct ibv_dmah_init_attr *attr)
{
	if (!context || !attr)
		return verbs_null_einval();
	return get_ops(context)->alloc_dmah(context, attr);
}

int ibv_dealloc_dmah(struct ibv_dmah *dmah)
{
	if (!dmah)
		return verbs_einval();
	return get_ops(dmah->context)->dealloc_dmah(dmah);
}

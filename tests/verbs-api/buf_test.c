// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * ibv_alloc_buf() and friends against a context built in memory: the
 * default buffer op, IBV_REG_MR_MASK_BUF's rules (which PD, which range,
 * what the request turns into), the dma-buf export's fd semantics, and
 * the completion counters' defaults.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "fake_ctx.h"
#include "fds.h"

/* The last registration the "provider" was asked for. */
static struct {
	int calls;
	bool dmabuf;
	void *addr;
	uint64_t offset, iova;
	size_t length;
	int fd;
} last;
static struct verbs_mr the_mr;

static struct ibv_mr *note(bool dmabuf, void *addr, uint64_t offset,
			   size_t length, uint64_t iova, int fd)
{
	last = (typeof(last)){last.calls + 1, dmabuf, addr, offset,
			      iova,	    length, fd};
	memset(&the_mr, 0, sizeof(the_mr));
	return &the_mr.ibv_mr;
}

static struct ibv_mr *plain_reg(struct ibv_pd *pd, void *addr, size_t length,
				uint64_t hca_va, int access)
{
	return note(false, addr, 0, length, hca_va, -1);
}

static struct ibv_mr *dmabuf_reg(struct ibv_pd *pd, uint64_t offset,
				 size_t length, uint64_t iova, int fd,
				 int access)
{
	return note(true, NULL, offset, length, iova, fd);
}

static struct verbs_context *vctx;
static struct ibv_pd pd, other_pd;

static int setup(void **state)
{
	const struct verbs_context_ops ops = {
		.reg_mr = plain_reg,
		.reg_dmabuf_mr = dmabuf_reg,
	};

	vctx = fake_ctx_new(sizeof(*vctx));
	verbs_set_ops(vctx, &ops);
	pd.context = other_pd.context = &vctx->context;
	memset(&last, 0, sizeof(last));
	return 0;
}

static int teardown(void **state)
{
	fake_ctx_free(vctx);
	return 0;
}

static void test_default_alloc_is_plain_memory(void **state)
{
	long page = sysconf(_SC_PAGESIZE);
	struct ibv_buf *buf = NULL;
	uint8_t *p;

	p = ibv_alloc_buf(&pd, 100, &buf);
	assert_non_null(p);
	assert_non_null(buf);
	assert_int_equal((uintptr_t)p % (uintptr_t)page, 0);
	/* The default keeps the size as asked. */
	assert_ptr_equal(buf->addr, p);
	assert_int_equal(buf->size, 100);
	assert_ptr_equal(buf->pd, &pd);
	assert_int_equal(buf->dmabuf_fd, -1);
	memset(p, 0xa5, 100);

	errno = 0;
	assert_int_equal(ibv_export_buf_dmabuf_fd(buf), -1);
	assert_int_equal(errno, ENODATA);

	assert_non_null(ibv_reg_buf_mr(&pd, buf, p + 10, 90, 1));
	assert_false(last.dmabuf);
	assert_ptr_equal(last.addr, p + 10);
	assert_int_equal(last.iova, (uintptr_t)(p + 10));
	assert_int_equal(last.length, 90);
	assert_ptr_equal(the_mr.ibv_mr.addr, p + 10);
	assert_ptr_equal(the_mr.ibv_mr.pd, &pd);
	ibv_free_buf(buf);
}

/* Every refusal is EINVAL and reaches no provider. */
static void test_buf_mr_refusals(void **state)
{
	struct ibv_buf *buf;
	uint8_t *p = ibv_alloc_buf(&pd, 4096, &buf);
	struct ibv_mr_init_attr a = {
		.length = 16,
		.comp_mask = IBV_REG_MR_MASK_BUF | IBV_REG_MR_MASK_ADDR,
		.addr = p,
		.buf = buf,
	};
	static const struct {
		ptrdiff_t off;
		size_t len;
	} outside[] = {
		{-1, 1},	   /* below the buffer */
		{4097, 0},	   /* starts past its end */
		{4000, 97},	   /* runs past its end */
		{0, 4097},	   /* longer than the buffer */
		{1, SIZE_MAX},	   /* length wraps */
	};
	size_t i;

	assert_non_null(p);
	/* Another PD of the same context, and no buffer at all. */
	errno = 0;
	assert_null(ibv_reg_buf_mr(&other_pd, buf, p, 16, 0));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(ibv_reg_buf_mr(&pd, NULL, p, 16, 0));
	assert_int_equal(errno, EINVAL);
	for (i = 0; i < sizeof(outside) / sizeof(outside[0]); i++) {
		errno = 0;
		assert_null(ibv_reg_buf_mr(&pd, buf, p + outside[i].off,
					   outside[i].len, 0));
		assert_int_equal(errno, EINVAL);
	}
	/* BUF needs ADDR, and says where the memory is: no FD. */
	a.comp_mask = IBV_REG_MR_MASK_BUF;
	assert_null(ibv_reg_mr_ex(&pd, &a));
	assert_int_equal(errno, EINVAL);
	a.comp_mask = IBV_REG_MR_MASK_BUF | IBV_REG_MR_MASK_ADDR |
		      IBV_REG_MR_MASK_FD_OFFSET;
	assert_null(ibv_reg_mr_ex(&pd, &a));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(last.calls, 0);

	/* Both ends are inside: a zero-length MR at the end, the whole. */
	assert_non_null(ibv_reg_buf_mr(&pd, buf, p + 4096, 0, 0));
	assert_non_null(ibv_reg_buf_mr(&pd, buf, p, 4096, 0));
	assert_int_equal(last.calls, 2);
	ibv_free_buf(buf);
}

/* A dma-buf backed buffer, as a provider makes one from a heap. */
struct memfd_buf {
	struct ibv_buf buf;
	size_t size;
};

static void make_dmabuf_buf(struct memfd_buf *m, size_t size)
{
	int fd = memfd_create("buf_test", MFD_CLOEXEC);
	void *addr;

	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)size), 0);
	addr = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	assert_true(addr != MAP_FAILED);
	ibv_buf_init_dmabuf(&m->buf, &pd, addr, size, fd);
	m->size = size;
}

static void drop_dmabuf_buf(struct memfd_buf *m)
{
	munmap(m->buf.addr, m->size);
	close(m->buf.dmabuf_fd);
}

static void test_dmabuf_buf_turns_into_fd_path(void **state)
{
	struct memfd_buf m;
	uint8_t *p;
	struct ibv_mr_init_attr a, copy;
	struct ibv_mr *mr;

	make_dmabuf_buf(&m, 3 * 4096);
	p = m.buf.addr;
	mr = ibv_reg_buf_mr(&pd, &m.buf, p + 4096 + 8, 100, 1);
	assert_non_null(mr);
	assert_true(last.dmabuf);
	assert_int_equal(last.fd, m.buf.dmabuf_fd);
	assert_int_equal(last.offset, 4096 + 8);
	/* The device addresses it as the process does. */
	assert_int_equal(last.iova, (uintptr_t)(p + 4096 + 8));
	assert_int_equal(last.length, 100);
	assert_ptr_equal(mr->addr, (void *)(4096 + 8));

	/* The caller's struct is read, never written. */
	a = (struct ibv_mr_init_attr){
		.length = 8,
		.comp_mask = IBV_REG_MR_MASK_BUF | IBV_REG_MR_MASK_ADDR,
		.addr = p,
		.buf = &m.buf,
		.fd = 77,
	};
	copy = a;
	assert_non_null(ibv_reg_mr_ex(&pd, &a));
	assert_memory_equal(&a, &copy, sizeof(a));

	/* The IOVA of a dma-buf buffer is its address: none may be given. */
	a.comp_mask |= IBV_REG_MR_MASK_IOVA;
	a.iova = 0x1000;
	errno = 0;
	assert_null(ibv_reg_mr_ex(&pd, &a));
	assert_int_equal(errno, EINVAL);
	drop_dmabuf_buf(&m);
}

static void test_export_gives_a_new_fd(void **state)
{
	struct stat a, b;
	struct memfd_buf m;
	int before, fd;

	make_dmabuf_buf(&m, 4096);
	before = count_fds();
	fd = ibv_export_buf_dmabuf_fd(&m.buf);
	assert_true(fd >= 0);
	assert_int_not_equal(fd, m.buf.dmabuf_fd);
	assert_int_equal(count_fds(), before + 1);
	assert_int_equal(fcntl(fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	/* The same dma-buf: it outlives the buffer's own fd. */
	assert_int_equal(fstat(fd, &a), 0);
	assert_int_equal(fstat(m.buf.dmabuf_fd, &b), 0);
	assert_int_equal(a.st_ino, b.st_ino);
	drop_dmabuf_buf(&m);
	assert_int_equal(fstat(fd, &a), 0);
	assert_int_equal(close(fd), 0);
	assert_int_equal(count_fds(), before - 1);
}

/* IBV_REG_MR_MASK_DMAH names a handle: NULL is refused, not followed. */
static void test_dmah_mask_needs_a_handle(void **state)
{
	static char mem[64];
	struct ibv_mr_init_attr a = {
		.length = sizeof(mem),
		.comp_mask = IBV_REG_MR_MASK_ADDR | IBV_REG_MR_MASK_DMAH,
		.addr = mem,
	};

	errno = 0;
	assert_null(ibv_reg_mr_ex(&pd, &a));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(last.calls, 0);
}

static void test_comp_cntr_defaults(void **state)
{
	struct ibv_comp_cntr_caps caps;
	struct ibv_comp_cntr_init_attr init = {0};
	struct ibv_comp_cntr cc = {.context = &vctx->context};
	struct ibv_qp qp = {.context = &vctx->context};
	struct ibv_qp_attach_comp_cntr_attr attach = {0};
	uint64_t v = 7;

	memset(&caps, 0xff, sizeof(caps));
	assert_int_equal(ibv_query_comp_cntr_caps(&vctx->context, &caps),
			 EOPNOTSUPP);
	/* Zeroed even so. */
	assert_int_equal(caps.max_value, 0);
	assert_int_equal(caps.max_counters, 0);
	assert_int_equal(caps.supported_qp_attach_ops, 0);
	errno = 0;
	assert_null(ibv_create_comp_cntr(&vctx->context, &init));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(ibv_destroy_comp_cntr(&cc), EOPNOTSUPP);
	assert_int_equal(ibv_set_comp_cntr(&cc, 1), EOPNOTSUPP);
	assert_int_equal(ibv_set_err_comp_cntr(&cc, 1), EOPNOTSUPP);
	assert_int_equal(ibv_inc_comp_cntr(&cc, 1), EOPNOTSUPP);
	assert_int_equal(ibv_inc_err_comp_cntr(&cc, 1), EOPNOTSUPP);
	assert_int_equal(ibv_read_comp_cntr(&cc, &v), EOPNOTSUPP);
	assert_int_equal(ibv_read_err_comp_cntr(&cc, &v), EOPNOTSUPP);
	assert_int_equal(ibv_qp_attach_comp_cntr(&qp, &cc, &attach),
			 EOPNOTSUPP);
	assert_int_equal(v, 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_default_alloc_is_plain_memory),
		T(test_buf_mr_refusals),
		T(test_dmabuf_buf_turns_into_fd_path),
		T(test_export_gives_a_new_fd),
		T(test_dmah_mask_needs_a_handle),
		T(test_comp_cntr_defaults),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

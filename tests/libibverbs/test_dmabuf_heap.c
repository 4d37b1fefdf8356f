// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The DMA-buf heap allocator against a fake heap: open() and ioctl() are
 * wrapped (--wrap), so /dev/dma_heap/system_cc_shared need not exist; the
 * fake answers DMA_HEAP_IOCTL_ALLOC as the kernel does, with a new
 * mappable fd (a memfd) per allocation. Checked: the request's bytes, the
 * errnos, and that every fd and mapping taken is given back.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>
#include <linux/dma-heap.h>

#include "dmabuf_heap.h"
#include "fds.h"

#define HEAP_PATH "/dev/dma_heap/system_cc_shared"

int __real_open(const char *path, int flags, ...);
int __wrap_open(const char *path, int flags, ...);
int __real_ioctl(int fd, unsigned long request, ...);
int __wrap_ioctl(int fd, unsigned long request, ...);

static struct {
	bool absent;	  /* open() says ENOENT */
	int alloc_errno;  /* the ioctl fails with this */
	bool unmappable;  /* the ioctl hands out a pipe */
	int heap_fd;	  /* what open() returned */
	int open_flags;
	unsigned long request;
	struct dma_heap_allocation_data req;
	int allocs;
} fake;

int __wrap_open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if (strcmp(path, HEAP_PATH)) {
		va_start(ap, flags);
		if (flags & O_CREAT)
			mode = va_arg(ap, mode_t);
		va_end(ap);
		return __real_open(path, flags, mode);
	}
	if (fake.absent) {
		errno = ENOENT;
		return -1;
	}
	fake.open_flags = flags;
	fake.heap_fd = memfd_create("fake-heap", MFD_CLOEXEC);
	return fake.heap_fd;
}

static int fake_alloc(struct dma_heap_allocation_data *req)
{
	int fds[2], fd;

	fake.allocs++;
	if (fake.alloc_errno) {
		errno = fake.alloc_errno;
		return -1;
	}
	if (fake.unmappable) {
		assert_int_equal(pipe2(fds, O_CLOEXEC), 0);
		close(fds[1]);
		req->fd = (uint32_t)fds[0];
		return 0;
	}
	fd = memfd_create("fake-dmabuf", MFD_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)req->len), 0);
	req->fd = (uint32_t)fd;
	return 0;
}

int __wrap_ioctl(int fd, unsigned long request, ...)
{
	va_list ap;
	void *arg;
	int ret;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (fd != fake.heap_fd)
		return __real_ioctl(fd, request, arg);
	fake.request = request;
	if (request != DMA_HEAP_IOCTL_ALLOC) {
		errno = ENOTTY;
		return -1;
	}
	ret = fake_alloc(arg);
	fake.req = *(struct dma_heap_allocation_data *)arg;
	return ret;
}

static int reset(void **state)
{
	memset(&fake, 0, sizeof(fake));
	fake.heap_fd = -1;
	return 0;
}

static void test_absent_heap(void **state)
{
	int fds = count_fds();

	fake.absent = true;
	errno = 0;
	assert_null(ibv_dmabuf_heap_cc_shared_init());
	assert_int_equal(errno, ENOENT);
	assert_int_equal(count_fds(), fds);
}

static void test_alloc_maps_the_dmabuf(void **state)
{
	int fds = count_fds(), maps = count_maps();
	struct ibv_dmabuf_heap *heap;
	char back[5] = {0};
	uint8_t *p;
	int fd = -1;

	heap = ibv_dmabuf_heap_cc_shared_init();
	assert_non_null(heap);
	assert_int_equal(fake.open_flags, O_RDWR | O_CLOEXEC);

	p = ibv_dmabuf_heap_alloc(heap, 8192, &fd);
	assert_non_null(p);
	/* _IOWR('H', 0, struct dma_heap_allocation_data): 24 bytes. */
	assert_int_equal(fake.request, 0xC0184800UL);
	assert_int_equal(sizeof(fake.req), 24);
	assert_int_equal(fake.req.len, 8192);
	assert_int_equal(fake.req.fd_flags, O_RDWR | O_CLOEXEC);
	assert_int_equal(fake.req.heap_flags, 0);
	assert_int_equal(fd, (int)fake.req.fd);

	/* A shared mapping of that dma-buf: stores land in it. */
	memcpy(p + 4096, "heap", 5);
	assert_int_equal(pread(fd, back, 5, 4096), 5);
	assert_string_equal(back, "heap");
	assert_int_equal(count_fds(), fds + 2);
	assert_int_equal(count_maps(), maps + 1);

	ibv_dmabuf_heap_free(p, 8192, fd);
	assert_int_equal(count_maps(), maps);
	assert_int_equal(count_fds(), fds + 1);
	ibv_dmabuf_heap_destroy(heap);
	assert_int_equal(count_fds(), fds);
}

static void test_alloc_failures_leak_nothing(void **state)
{
	int fds = count_fds(), maps = count_maps();
	struct ibv_dmabuf_heap *heap = ibv_dmabuf_heap_cc_shared_init();
	int fd = -1;

	assert_non_null(heap);
	/* The heap's own errno passes through. */
	fake.alloc_errno = ENOMEM;
	errno = 0;
	assert_null(ibv_dmabuf_heap_alloc(heap, 4096, &fd));
	assert_int_equal(errno, ENOMEM);
	/* One that cannot be mapped (read-only: EACCES) is closed again. */
	fake.alloc_errno = 0;
	fake.unmappable = true;
	errno = 0;
	assert_null(ibv_dmabuf_heap_alloc(heap, 4096, &fd));
	assert_int_equal(errno, EACCES);
	assert_int_equal(fd, -1);
	assert_int_equal(fake.allocs, 2);
	assert_int_equal(count_fds(), fds + 1);
	assert_int_equal(count_maps(), maps);
	ibv_dmabuf_heap_destroy(heap);
	assert_int_equal(count_fds(), fds);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_absent_heap, reset),
		cmocka_unit_test_setup(test_alloc_maps_the_dmabuf, reset),
		cmocka_unit_test_setup(test_alloc_failures_leak_nothing, reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

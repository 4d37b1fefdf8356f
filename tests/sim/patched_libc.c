// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A program whose memory hooks patch libc's mmap, munmap, mremap and
 * mprotect to call syscall(2), as libfabric's and UCX's do (a jump written
 * over the function's entry). Under rdma-sim those system calls trap, and
 * the sim serves them; it must never call the patched functions itself:
 * inside its trap that would trap again with SIGSYS blocked (the kernel
 * kills the process), and the hooks would see mappings that are not the
 * program's. Checked: anonymous mmap/mremap/mprotect/munmap through libc,
 * a DMA heap buffer mapped through libc and through syscall(2) (both
 * served by the sim), and that no call reached the hooks while the program
 * called none of the patched functions (allocating the buffer, mapping,
 * protecting and unmapping it by syscall(2), closing it): any there is
 * the sim's own.
 * x86-64 only (the patch is x86 code); elsewhere a visible
 * SKIP. Run under rdma-sim.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <linux/dma-heap.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "judge.h"

static unsigned int hooked;

/* A call of the patched libc function (the hook runs in its place). */
static void note(void)
{
	hooked++;
}

/* Around a call of the program that uses none of the patched functions:
 * a hook that ran meanwhile ran for the sim. */
#define QUIET(what, call)                                                      	do {                                                                   		unsigned int before_ = hooked;                                 		call;                                                          		CHECK(hooked == before_,                                       		      "%s: %u of the sim's own calls reached the patched libc", 		      what, hooked - before_);                                 	} while (0)

static void *hook_mmap(void *addr, size_t len, int prot, int flags, int fd,
		       off_t off)
{
	note();
	return (void *)syscall(SYS_mmap, addr, len, prot, flags, fd, off);
}

static int hook_munmap(void *addr, size_t len)
{
	note();
	return (int)syscall(SYS_munmap, addr, len);
}

static void *hook_mremap(void *old, size_t old_len, size_t new_len, int flags,
			 ...)
{
	void *fixed = NULL;
	va_list ap;

	note();
	if (flags & MREMAP_FIXED) {
		va_start(ap, flags);
		fixed = va_arg(ap, void *);
		va_end(ap);
	}
	return (void *)syscall(SYS_mremap, old, old_len, new_len, flags, fixed);
}

static int hook_mprotect(void *addr, size_t len, int prot)
{
	note();
	return (int)syscall(SYS_mprotect, addr, len, prot);
}

#if defined(__x86_64__)
/* movabs $to, %rax; jmp *%rax over fn's first 12 bytes. */
static int patch(void *fn, void *to)
{
	long pg = sysconf(_SC_PAGESIZE);
	uintptr_t start = (uintptr_t)fn & ~(uintptr_t)(pg - 1);
	uint8_t code[12] = {0x48, 0xb8};

	memcpy(code + 2, &to, 8);
	code[10] = 0xff;
	code[11] = 0xe0;
	if (syscall(SYS_mprotect, start, 2 * pg,
		    PROT_READ | PROT_WRITE | PROT_EXEC))
		return -1;
	memcpy(fn, code, sizeof(code));
	return (int)syscall(SYS_mprotect, start, 2 * pg, PROT_READ | PROT_EXEC);
}
#endif

/* A DMA heap buffer (a simulated fd): mapped through libc and through
 * syscall(2), written through one, read back through the other. */
static void heap_buffer(void)
{
	struct dma_heap_allocation_data d = {
		.len = 4096,
		.fd_flags = O_RDWR | O_CLOEXEC,
	};
	char *a, *b = MAP_FAILED;
	int heap, ret = -1;

	QUIET("open", heap = open("/dev/dma_heap/system", O_RDONLY | O_CLOEXEC));
	CHECK(heap >= 0, "open the DMA heap: %m");
	if (heap < 0)
		return;
	QUIET("alloc", ret = ioctl(heap, DMA_HEAP_IOCTL_ALLOC, &d));
	CHECK(!ret, "heap alloc: %m");
	close(heap);
	a = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, (int)d.fd, 0);
	QUIET("syscall(SYS_mmap)",
	      b = (char *)syscall(SYS_mmap, NULL, 4096, PROT_READ, MAP_SHARED,
				  (int)d.fd, 0));
	CHECK(a != MAP_FAILED && b != MAP_FAILED, "map the buffer: %m");
	if (a != MAP_FAILED && b != MAP_FAILED) {
		memcpy(a, "patched libc", 13);
		CHECK(!memcmp(b, "patched libc", 13), "buffer reads '%.13s'",
		      b);
	}
	if (a != MAP_FAILED)
		munmap(a, 4096);
	if (b != MAP_FAILED) {
		QUIET("syscall(SYS_mprotect)",
		      ret = (int)syscall(SYS_mprotect, b, 4096, PROT_NONE));
		CHECK(!ret, "syscall(SYS_mprotect): %m");
		QUIET("syscall(SYS_munmap)", syscall(SYS_munmap, b, 4096));
	}
	QUIET("close", close((int)d.fd));
}

int main(void)
{
#if defined(__x86_64__)
	void *libc = dlopen("libc.so.6", RTLD_NOLOAD | RTLD_LAZY);
	void *fns[4], *hooks[4] = {(void *)hook_mmap, (void *)hook_munmap,
				   (void *)hook_mremap, (void *)hook_mprotect};
	/* mprotect last: patch() calls it by syscall(2) around each write */
	const char *names[4] = {"mmap", "munmap", "mremap", "mprotect"};
	unsigned int program;
	char *p, *q;
	int i;

	for (i = 0; i < (int)(sizeof(names) / sizeof(names[0])); i++) {
		fns[i] = libc ? dlsym(libc, names[i]) : NULL;
		if (!fns[i] || patch(fns[i], hooks[i])) {
			fprintf(stderr, "patched_libc: cannot patch %s: %m\n",
				names[i]);
			return 1;
		}
	}
	p = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(p != MAP_FAILED, "anonymous mmap: %m");
	if (p != MAP_FAILED) {
		p[0] = 'x';
		q = mremap(p, 8192, 16384, MREMAP_MAYMOVE);
		CHECK(q != MAP_FAILED && q[0] == 'x', "mremap: %m");
		CHECK(!mprotect(q != MAP_FAILED ? q : p, 4096, PROT_READ),
		      "mprotect: %m");
		CHECK(!munmap(q != MAP_FAILED ? q : p, 16384), "munmap: %m");
	}
	program = hooked;
	CHECK(program >= 4, "the program's own calls reached %u hooks", program);
	heap_buffer();
	if (failures)
		return 1;
	printf("patched_libc: %u of the program's calls through the hooks, "
	       "none of the sim's\n",
	       hooked);
	return 0;
#else
	printf("SKIP: patched_libc patches x86-64 code only\n");
	return 77;
#endif
}

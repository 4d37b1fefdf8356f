// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A statically linked program under the sim. No dynamic loader means no
 * LD_PRELOAD: the launcher starts a small dynamic helper instead (with
 * librdmasim.so preloaded, like any program), and the helper calls
 * rdma_sim_exec_static(), which does what the kernel's execve would do in
 * a fresh process: map the program's PT_LOAD segments at their addresses,
 * build the initial stack (argc, argv, envp, auxv) and jump to the entry.
 * The program then runs in the helper's process, beside the sim.
 *
 * Its system calls come from its own code (its libc is inside it), so a
 * second filter traps every served call made from its executable
 * segments, and the SIGSYS handler serves them as any trapped call. The
 * program sets its own thread pointer (FS) for its own libc; the handler
 * runs the sim on the helper's thread block instead (sigsys.c).
 *
 * Two programs share one break: the helper's malloc is told to take its
 * memory from mmap only, so the program's brk heap is its own.
 */
#include "sim.h"
#include "syscall_trap.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)

#define STACK_SIZE (8u << 20)
#define MAX_PHDRS  32

struct image {
	Elf64_Ehdr eh;
	Elf64_Phdr ph[MAX_PHDRS];
	uintptr_t bias;		    /* load address - p_vaddr (ET_DYN only) */
	uintptr_t text_lo, text_hi; /* executable segments */
	uintptr_t phdr;		    /* the program headers in memory */
};

static int read_headers(int fd, struct image *im)
{
	size_t len;

	if (pread(fd, &im->eh, sizeof(im->eh), 0) != sizeof(im->eh))
		return -ENOEXEC;
	if (memcmp(im->eh.e_ident, ELFMAG, SELFMAG) ||
	    im->eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    im->eh.e_machine != EM_X86_64 ||
	    (im->eh.e_type != ET_EXEC && im->eh.e_type != ET_DYN) ||
	    im->eh.e_phentsize != sizeof(Elf64_Phdr) ||
	    im->eh.e_phnum > MAX_PHDRS)
		return -ENOEXEC;
	len = im->eh.e_phnum * sizeof(Elf64_Phdr);
	if (pread(fd, im->ph, len, (off_t)im->eh.e_phoff) != (ssize_t)len)
		return -ENOEXEC;
	return 0;
}

/* The span of all PT_LOAD segments, page-rounded. */
static void span(const struct image *im, uintptr_t *lo, uintptr_t *hi)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	int i;

	*lo = UINTPTR_MAX;
	*hi = 0;
	for (i = 0; i < im->eh.e_phnum; i++) {
		const Elf64_Phdr *p = &im->ph[i];

		if (p->p_type != PT_LOAD)
			continue;
		if (p->p_vaddr < *lo)
			*lo = p->p_vaddr & ~(page - 1);
		if (p->p_vaddr + p->p_memsz > *hi)
			*hi = (p->p_vaddr + p->p_memsz + page - 1) &
			      ~(page - 1);
	}
}

static int prot_of(uint32_t flags)
{
	return (flags & PF_R ? PROT_READ : 0) |
	       (flags & PF_W ? PROT_WRITE : 0) | (flags & PF_X ? PROT_EXEC : 0);
}

/*
 * Reserve the image's span (at its addresses for ET_EXEC, anywhere for a
 * static PIE), then fill each segment from the file and give it its
 * protection.
 */
static int map_image(int fd, struct image *im)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), lo, hi, a;
	void *base;
	int i;

	span(im, &lo, &hi);
	if (lo >= hi)
		return -ENOEXEC;
	base = sys.mmap(
		im->eh.e_type == ET_EXEC ? (void *)lo : NULL, hi - lo,
		PROT_READ | PROT_WRITE,
		MAP_PRIVATE | MAP_ANONYMOUS |
			(im->eh.e_type == ET_EXEC ? MAP_FIXED_NOREPLACE : 0),
		-1, 0);
	if (base == MAP_FAILED)
		return -errno;
	im->bias = (uintptr_t)base - lo;
	im->text_lo = UINTPTR_MAX;
	for (i = 0; i < im->eh.e_phnum; i++) {
		const Elf64_Phdr *p = &im->ph[i];

		if (p->p_type != PT_LOAD)
			continue;
		a = im->bias + p->p_vaddr;
		if (p->p_filesz &&
		    pread(fd, (void *)a, p->p_filesz, (off_t)p->p_offset) !=
			    (ssize_t)p->p_filesz)
			return -ENOEXEC;
		if (p->p_offset <= im->eh.e_phoff &&
		    im->eh.e_phoff < p->p_offset + p->p_filesz)
			im->phdr = a + im->eh.e_phoff - p->p_offset;
		if (p->p_flags & PF_X) {
			if (a < im->text_lo)
				im->text_lo = a;
			if (a + p->p_memsz > im->text_hi)
				im->text_hi = a + p->p_memsz;
		}
		a &= ~(page - 1);
		if (sys.mprotect((void *)a,
				 im->bias + p->p_vaddr + p->p_memsz - a,
				 prot_of(p->p_flags)))
			return -errno;
	}
	return im->phdr && im->text_hi ? 0 : -ENOEXEC;
}

/* Push len bytes below *sp; returns where they are. */
static uintptr_t push(uintptr_t *sp, const void *data, size_t len)
{
	*sp -= len;
	memcpy((void *)*sp, data, len);
	return *sp;
}

static size_t count(char **v)
{
	size_t n = 0;

	while (v[n])
		n++;
	return n;
}

#define NAUX 21

/* The kernel's initial stack: argc, argv, NULL, envp, NULL, auxv. 0: no. */
static uintptr_t build_stack(const struct image *im, char **argv, char **envp)
{
	size_t argc = count(argv), envc = count(envp), i, n = 0;
	uintptr_t sp, rnd, plat, execfn, *v, *str;
	uint8_t random[16];
	void *stack;

	stack = sys.mmap(NULL, STACK_SIZE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	str = calloc(argc + envc + 1, sizeof(*str));
	if (stack == MAP_FAILED || !str) {
		free(str);
		return 0;
	}
	sp = (uintptr_t)stack + STACK_SIZE;
	execfn = push(&sp, argv[0], strlen(argv[0]) + 1);
	plat = push(&sp, "x86_64", 7);
	memcpy(random, (void *)getauxval(AT_RANDOM), sizeof(random));
	random[0] ^= 0x5a; /* not the helper's canary */
	rnd = push(&sp, random, sizeof(random));
	for (i = 0; i < argc + envc; i++) {
		const char *s = i < argc ? argv[i] : envp[i - argc];

		str[i] = push(&sp, s, strlen(s) + 1);
	}
	sp -= (3 + argc + envc + 2 * NAUX) * sizeof(*v);
	sp &= ~(uintptr_t)15;
	v = (uintptr_t *)sp;
	v[n++] = argc;
	for (i = 0; i < argc + envc; i++) {
		v[n++] = str[i];
		if (i + 1 == argc)
			v[n++] = 0;
	}
	if (!argc)
		v[n++] = 0;
	v[n++] = 0;
	free(str);
#define AUX(type, val)                                                         \
	do {                                                                   \
		v[n++] = (type);                                               \
		v[n++] = (uintptr_t)(val);                                     \
	} while (0)
	AUX(AT_PHDR, im->phdr);
	AUX(AT_PHENT, sizeof(Elf64_Phdr));
	AUX(AT_PHNUM, im->eh.e_phnum);
	AUX(AT_PAGESZ, sysconf(_SC_PAGESIZE));
	AUX(AT_BASE, 0);
	AUX(AT_FLAGS, 0);
	AUX(AT_ENTRY, im->bias + im->eh.e_entry);
	AUX(AT_UID, getauxval(AT_UID));
	AUX(AT_EUID, getauxval(AT_EUID));
	AUX(AT_GID, getauxval(AT_GID));
	AUX(AT_EGID, getauxval(AT_EGID));
	AUX(AT_SECURE, 0);
	AUX(AT_RANDOM, rnd);
	AUX(AT_HWCAP, getauxval(AT_HWCAP));
	AUX(AT_HWCAP2, getauxval(AT_HWCAP2));
	AUX(AT_CLKTCK, getauxval(AT_CLKTCK));
	AUX(AT_SYSINFO_EHDR, getauxval(AT_SYSINFO_EHDR));
	AUX(AT_MINSIGSTKSZ, getauxval(AT_MINSIGSTKSZ));
	AUX(AT_PLATFORM, plat);
	AUX(AT_EXECFN, execfn);
	AUX(AT_NULL, 0);
#undef AUX
	return sp;
}

int rdma_sim_exec_static(char **argv, char **envp);
int rdma_sim_exec_static(char **argv, char **envp)
{
	static struct image im;
	uintptr_t sp;
	int fd, ret;

	if (!sim.active || !sim_sigsys_active())
		return -ENOSYS; /* not under the sim, or no trap */
	fd = sys.open(argv[0], O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = read_headers(fd, &im);
	if (!ret)
		ret = map_image(fd, &im);
	sys.close(fd);
	if (ret)
		return ret;
	sp = build_stack(&im, argv, envp);
	if (!sp)
		return -ENOMEM;
	/* the program's brk heap is its own from now on */
	mallopt(M_MMAP_THRESHOLD, 0);
	mallopt(M_TRIM_THRESHOLD, -1);
	mallopt(M_MMAP_MAX, 1 << 30);
	/* messages name the program, not the helper */
	program_invocation_name = argv[0];
	program_invocation_short_name =
		strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	ret = sim_sigsys_static_mode();
	if (!ret)
		ret = sim_trap_range(im.text_lo, im.text_hi);
	if (ret)
		return ret;
	__asm__ volatile("mov %0, %%rsp\n\t"
			 "xor %%edx, %%edx\n\t"
			 "jmp *%1\n"
			 :
			 : "r"(sp), "r"(im.bias + im.eh.e_entry)
			 : "memory");
	__builtin_unreachable();
}

#else
int rdma_sim_exec_static(char **argv, char **envp);
int rdma_sim_exec_static(char **argv, char **envp)
{
	return -ENOSYS;
}
#endif

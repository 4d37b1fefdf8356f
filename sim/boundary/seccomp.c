// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The seccomp filter that makes the system call the sim's boundary for
 * code that does not go through libc. BPF sees the call's number, its
 * arguments and the instruction pointer, never what an fd is, so it traps
 * by what it can see, and every other call stays a plain system call:
 *
 *  - ioctl whose type byte is one of the simulated drivers' (uverbs 0x1b,
 *    dma-buf 'b', DMA heap 'H', DRM 'd'), from any code: libc's ioctl is
 *    interposed and answers sim fds itself, so only raw callers (and real
 *    files, rare) get here. The sim's own such calls carry the cookie.
 *  - every call the sim serves (syscall_table.c) made by libc's
 *    syscall(2), recognised by the address of its one syscall
 *    instruction;
 *  - with a static program (static_exec.c), every served call made from
 *    its executable segments (a second filter, sim_trap_range()).
 *
 * The filter stays after exec, where it must not hurt a program that has
 * not yet (or never) loaded the sim: neither rule fires in the dynamic
 * loader's start-up, and the cookie is the same in every image. Each
 * image adds its own filter, for its own libc's syscall(2).
 *
 * valgrind runs the program's system calls from its own code and does
 * not support seccomp filters: under it only the libc path serves.
 */
#include "sim.h"
#include "syscall_trap.h"

#include <dlfcn.h>
#include <errno.h>
#include <gnu/lib-names.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif

/* The simulated drivers' ioctl type bytes (_IOC_TYPE), as bits 8..15. */
static const uint32_t sim_ioctl_types[] = {
	0x1b << 8, /* RDMA_IOCTL_MAGIC: RDMA_VERBS_IOCTL */
	'b' << 8,  /* DMA_BUF_BASE */
	'H' << 8,  /* DMA_HEAP_IOC_MAGIC */
	'd' << 8,  /* DRM_IOCTL_BASE */
};

#define NTYPES (sizeof(sim_ioctl_types) / sizeof(sim_ioctl_types[0]))

enum { L_NEXT, L_ALLOW, L_TRAP, L_COOKIE, L_POINT, L_COUNT };

#define FILTER_MAX (32 + SIM_NR_SERVED)

/* A classic BPF program whose jumps name labels, resolved at the end. */
struct filter {
	struct sock_filter f[FILTER_MAX];
	uint8_t jt[FILTER_MAX], jf[FILTER_MAX]; /* labels */
	unsigned int n, at[L_COUNT];
};

static void op(struct filter *p, uint16_t code, uint32_t k, uint8_t jt,
	       uint8_t jf)
{
	p->f[p->n] = (struct sock_filter)BPF_STMT(code, k);
	p->jt[p->n] = jt;
	p->jf[p->n] = jf;
	p->n++;
}

#define DATA(field)	offsetof(struct seccomp_data, field)
#define ARG_LO(i)	(DATA(args) + 8 * (i))
#define LOAD(p, off)	op(p, BPF_LD | BPF_W | BPF_ABS, (uint32_t)(off), 0, 0)
#define JEQ(p, k, t, f) op(p, BPF_JMP | BPF_JEQ | BPF_K, k, t, f)
#define JGE(p, k, t, f) op(p, BPF_JMP | BPF_JGE | BPF_K, k, t, f)
#define RET(p, k)	op(p, BPF_RET | BPF_K, k, 0, 0)
#define LABEL(p, l)	((p)->at[l] = (p)->n)

/* Jump offsets from labels; 0 if every target lies ahead within reach. */
static int resolve(struct filter *p)
{
	unsigned int i, t;

	for (i = 0; i < p->n; i++) {
		if (BPF_CLASS(p->f[i].code) != BPF_JMP)
			continue;
		t = p->jt[i] ? p->at[p->jt[i]] - i - 1 : 0;
		if (t > 255)
			return -E2BIG;
		p->f[i].jt = (uint8_t)t;
		t = p->jf[i] ? p->at[p->jf[i]] - i - 1 : 0;
		if (t > 255)
			return -E2BIG;
		p->f[i].jf = (uint8_t)t;
	}
	return 0;
}

/* Where libc's syscall(2) resumes after its syscall instruction, or 0. */
static uint64_t syscall_point(void)
{
	void *libc = dlopen(LIBC_SO, RTLD_LAZY | RTLD_NOLOAD);
	const uint8_t *f = libc ? dlsym(libc, "syscall") : NULL;
	unsigned int i;

	for (i = 0; f && i < 64; i++)
		if (f[i] == 0x0f && f[i + 1] == 0x05)
			return (uint64_t)(uintptr_t)(f + i + 2);
	return 0;
}

/* The tail of both filters: TRAP for every served call, else ALLOW. */
static void trap_served(struct filter *p)
{
	unsigned int i;

	LOAD(p, DATA(nr));
	for (i = 0; i < SIM_NR_SERVED; i++)
		if (sim_syscall_served(i))
			JEQ(p, i, L_TRAP, L_NEXT);
	LABEL(p, L_ALLOW);
	RET(p, SECCOMP_RET_ALLOW);
	LABEL(p, L_TRAP);
	RET(p, SECCOMP_RET_TRAP | SIM_TRAP_DATA);
}

static void build(struct filter *p, uint64_t point)
{
	unsigned int i;

	LOAD(p, DATA(arch));
	JEQ(p, AUDIT_ARCH_X86_64, L_NEXT, L_ALLOW);
	LOAD(p, DATA(nr));
	JEQ(p, __NR_ioctl, L_NEXT, L_POINT);
	LOAD(p, ARG_LO(1));
	op(p, BPF_ALU | BPF_AND | BPF_K, 0xff00, 0, 0);
	for (i = 0; i < NTYPES; i++)
		JEQ(p, sim_ioctl_types[i], L_COOKIE,
		    i + 1 < NTYPES ? L_NEXT : L_POINT);
	LABEL(p, L_COOKIE);
	LOAD(p, ARG_LO(5));
	JEQ(p, (uint32_t)SIM_TRAP_COOKIE, L_NEXT, L_TRAP);
	LOAD(p, ARG_LO(5) + 4);
	JEQ(p, (uint32_t)(SIM_TRAP_COOKIE >> 32), L_ALLOW, L_TRAP);
	LABEL(p, L_POINT);
	LOAD(p, DATA(instruction_pointer));
	JEQ(p, (uint32_t)point, L_NEXT, L_ALLOW);
	LOAD(p, DATA(instruction_pointer) + 4);
	JEQ(p, (uint32_t)(point >> 32), L_NEXT, L_ALLOW);
	trap_served(p);
}

/* Add the filter p to every thread of the process. 0 or -errno. */
static int load(struct filter *p)
{
	struct sock_fprog prog;
	long r = resolve(p);

	if (r)
		return (int)r;
	prog.len = (unsigned short)p->n;
	prog.filter = p->f;
	/* unprivileged filters need no_new_privs; the sim's world has no
	 * setuid programs to lose */
	r = sim_cookie_syscall(__NR_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	if (!r)
		r = sim_cookie_syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER,
				       SECCOMP_FILTER_FLAG_TSYNC,
				       (long)(uintptr_t)&prog, 0, 0);
	return r > 0 ? -EBUSY : (int)r; /* > 0: a thread that cannot sync */
}

static int install(uint64_t point)
{
	static struct filter p;

	build(&p, point);
	return load(&p);
}

int sim_trap_range(uintptr_t lo, uintptr_t hi)
{
	static struct filter p;

	if ((uint64_t)lo >> 32 != (uint64_t)(hi - 1) >> 32)
		return -ERANGE; /* not within one 4 GiB window */
	memset(&p, 0, sizeof(p));
	LOAD(&p, DATA(arch));
	JEQ(&p, AUDIT_ARCH_X86_64, L_NEXT, L_ALLOW);
	LOAD(&p, DATA(instruction_pointer) + 4);
	JEQ(&p, (uint32_t)((uint64_t)lo >> 32), L_NEXT, L_ALLOW);
	LOAD(&p, DATA(instruction_pointer));
	JGE(&p, (uint32_t)lo, L_NEXT, L_ALLOW);
	JGE(&p, (uint32_t)hi, L_ALLOW, L_NEXT);
	trap_served(&p);
	return load(&p);
}

void sim_trap_note(enum sim_trap_note note, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	int n;

	if (__atomic_fetch_or(&sim.sh->trap_notes, (uint32_t)note,
			      __ATOMIC_RELAXED) &
	    note)
		return;
	n = snprintf(msg, sizeof(msg), "rdma-sim: ");
	va_start(ap, fmt);
	n += vsnprintf(msg + n, sizeof(msg) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(msg) - 2)
		n = (int)sizeof(msg) - 2;
	msg[n++] = '\n';
	if (sys.write(2, msg, (size_t)n) < 0)
		return;
}

static int under_valgrind(void)
{
#ifdef RUNNING_ON_VALGRIND
	if (RUNNING_ON_VALGRIND)
		return 1;
#endif
	return 0;
}

void sim_syscall_trap_init(void)
{
	uint64_t point;
	int ret;

	if (sim.sh->cfg.no_seccomp)
		return;
	if (under_valgrind()) {
		sim_trap_note(SIM_NOTE_VALGRIND,
			      "under valgrind, which does not run seccomp "
			      "filters: only calls through libc reach the "
			      "simulated kernel, raw system calls do not");
		return;
	}
	point = syscall_point();
	ret = point ? sim_sigsys_install() : -ENOENT;
	if (!ret) {
		ret = install(point);
		if (ret)
			sim_sigsys_uninstall();
	}
	if (ret)
		sim_trap_note(SIM_NOTE_NO_FILTER,
			      "no seccomp filter (%s): only calls through libc "
			      "reach the simulated kernel, raw system calls do "
			      "not",
			      strerrorname_np(-ret));
}

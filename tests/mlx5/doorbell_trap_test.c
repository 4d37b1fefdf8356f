// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-sim's HCA hears its doorbells: a UAR page is mapped write-protected
 * and every store to it is taken by the sim (and lands in the page), the
 * program's own SIGSEGV and SIGTRAP handlers still get every fault and
 * signal that is not a doorbell, before and after the device is opened,
 * and doorbells keep working whatever handler the program installs.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>

#include <infiniband/mlx5dv.h>

#include "host_pair.h"
#include "skip.h"

#define BUF_SZ 4096
#define MSG    64

static struct host_pair hosts;
#define A (hosts.a)
#define B (hosts.b)

static sigjmp_buf jump;
static volatile sig_atomic_t early_calls, late_calls, trap_calls;
static void *volatile fault_addr;

/* Installed before the device is opened. */
static void early_handler(int sig)
{
	early_calls++;
}

/* Installed with QPs and UAR pages mapped: leaves the faulting store. */
static void late_handler(int sig, siginfo_t *si, void *uc)
{
	late_calls++;
	fault_addr = si->si_addr;
	siglongjmp(jump, 1);
}

static void trap_handler(int sig)
{
	trap_calls++;
}

static int group_setup(void **state)
{
	return host_pair_open(&hosts, 1, BUF_SZ,
			      IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
}

static int group_teardown(void **state)
{
	test_teardown_begin();
	assert_true(host_pair_close(&hosts));
	return test_teardown_end();
}

/* An RC pair whose side a's SQ is opened with mlx5dv_init_obj. */
static void dv_pair(struct rdma_ep *a, struct rdma_ep *b, struct mlx5dv_qp *dq)
{
	struct ep_opts o = {.type = IBV_QPT_RC};
	struct mlx5dv_obj obj = {.qp = {.in = NULL, .out = dq}};

	assert_int_equal(ep_pair(a, A.pd, &o, b, B.pd, &o), 0);
	obj.qp.in = a->qp;
	assert_int_equal(mlx5dv_init_obj(&obj, MLX5DV_OBJ_QP), 0);
	assert_non_null(dq->bf.reg);
}

/* The permissions /proc/self/maps shows for the mapping holding p. */
static void perms_of(const void *p, char out[5])
{
	unsigned long lo, hi;
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");

	strcpy(out, "none");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, out) == 3 &&
		    (uintptr_t)p >= lo && (uintptr_t)p < hi)
			break;
	fclose(f);
}

/* One RDMA WRITE from a to b, through the library, and its completion. */
static void write_one(struct rdma_ep *a, uint64_t id)
{
	struct ibv_wc wc;

	memset(B.buf, 0, MSG);
	fill_pattern(A.buf, MSG, (unsigned int)id);
	assert_int_equal(ep_post(a, IBV_WR_RDMA_WRITE, A.buf, MSG, A.mr->lkey,
				 (uintptr_t)B.buf, B.mr->rkey,
				 IBV_SEND_SIGNALED, id),
			 0);
	assert_int_equal(ep_poll(a, &wc, 1), 1);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.wr_id, id);
	assert_memory_equal(B.buf, A.buf, MSG);
}

/*
 * Every kind of store a program or library makes to a UAR page is taken
 * and lands in the page: MOVs of each width from registers (AH included)
 * and immediates, MOVNTI, the SSE stores libmlx5 and UCX use, and an XCHG,
 * which the sim does not decode and single-steps instead.
 */
static void test_stores_land(void **state)
{
	struct mlx5dv_qp dq = {};
	struct rdma_ep a, b;
	uint8_t *pg, *p;
	char perms[5];
	uint64_t v = 0x1122334455667788ull, x = 0xa5a5a5a5a5a5a5a5ull;
	uint8_t v16[16], want[16];
	unsigned int i;

	dv_pair(&a, &b, &dq);
	pg = (uint8_t *)((uintptr_t)dq.bf.reg & ~(uintptr_t)4095);
	perms_of(pg, perms);
	assert_string_equal(perms, "r--s"); /* stores are the HCA's */
	p = pg + 0x100; /* no register of the model: bytes only */
	memset(v16, 0, sizeof(v16));
	for (i = 0; i < 16; i++)
		want[i] = (uint8_t)(0x30 + i);
	memcpy(v16, want, 16);

	__asm__ volatile("movb $0x5a, (%0)" : : "r"(p) : "memory");
	assert_int_equal(p[0], 0x5a);
	__asm__ volatile("movb %%ah, (%0)"
			 :
			 : "r"(p + 1), "a"(0x7700)
			 : "memory");
	assert_int_equal(p[1], 0x77);
	__asm__ volatile("movw %w1, (%0)"
			 :
			 : "r"(p + 2), "r"(0xbeef)
			 : "memory");
	assert_int_equal(*(volatile uint16_t *)(p + 2), 0xbeef);
	__asm__ volatile("movl $0xdeadf00d, 8(%0)" : : "r"(p) : "memory");
	assert_int_equal(*(volatile uint32_t *)(p + 8), 0xdeadf00d);
	__asm__ volatile("movq %1, 0x10(%0,%2,8)"
			 :
			 : "r"(p), "r"(v), "r"(1ul)
			 : "memory");
	assert_true(*(volatile uint64_t *)(p + 0x18) == v);
	__asm__ volatile("movnti %1, (%0)"
			 :
			 : "r"(p + 0x20), "r"(~v)
			 : "memory");
	assert_true(*(volatile uint64_t *)(p + 0x20) == ~v);
	__asm__ volatile("movups (%1), %%xmm7\n\tmovaps %%xmm7, (%0)"
			 :
			 : "r"(p + 0x40), "r"(v16)
			 : "xmm7", "memory");
	assert_memory_equal(p + 0x40, want, 16);
	__asm__ volatile("movups (%1), %%xmm9\n\tmovups %%xmm9, (%0)"
			 :
			 : "r"(p + 0x53), "r"(v16)
			 : "xmm9", "memory");
	assert_memory_equal(p + 0x53, want, 16);
	__asm__ volatile("movups (%1), %%xmm2\n\tmovq %%xmm2, (%0)\n\t"
			 "movhps %%xmm2, 8(%0)"
			 :
			 : "r"(p + 0x70), "r"(v16)
			 : "xmm2", "memory");
	assert_memory_equal(p + 0x70, want, 16);
	__asm__ volatile("xchgq %1, (%0)" : "+r"(p), "+r"(x) : : "memory");
	assert_true(*(volatile uint64_t *)p == 0xa5a5a5a5a5a5a5a5ull);
	perms_of(pg, perms);
	assert_string_equal(perms, "r--s"); /* protected again after it */

	/* and the QP's doorbell still rings */
	write_one(&a, 11);
	ep_close(&a);
	ep_close(&b);
}

/* A store of the program's own to a read-only page: late_handler gets it,
 * at its address. */
static void own_fault(size_t off)
{
	volatile uint8_t *ro;

	ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(ro != MAP_FAILED);
	if (!sigsetjmp(jump, 1))
		ro[off] = 1;
	assert_ptr_equal(fault_addr, (const void *)(ro + off));
	munmap((void *)ro, 4096);
}

/*
 * A handler the program installs with the UAR pages mapped gets a fault of
 * the program's own (at its address) and a raised SIGTRAP, while doorbells
 * keep ringing; sigaction() and signal() read back what the program set.
 * (cmocka's own SIGSEGV handler is the one in place when a test starts.)
 */
static void test_program_handlers(void **state)
{
	struct sigaction sa = {.sa_sigaction = late_handler,
			       .sa_flags = SA_SIGINFO};
	struct sigaction old, now;
	struct mlx5dv_qp dq = {};
	struct rdma_ep a, b;

	dv_pair(&a, &b, &dq);
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGSEGV, &sa, &old), 0);
	assert_true(old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN);
	assert_int_equal(sigaction(SIGSEGV, NULL, &now), 0);
	assert_true(now.sa_sigaction == late_handler &&
		    (now.sa_flags & SA_SIGINFO));
	assert_true(signal(SIGTRAP, trap_handler) == SIG_DFL);

	write_one(&a, 21); /* doorbells are not the program's faults */
	assert_int_equal(late_calls, 0);

	own_fault(5);
	assert_int_equal(late_calls, 1);
	raise(SIGTRAP);
	assert_int_equal(trap_calls, 1);
	assert_int_equal(early_calls, 0);

	write_one(&a, 22);
	assert_true(signal(SIGTRAP, SIG_DFL) == trap_handler);
	assert_int_equal(sigaction(SIGSEGV, &old, &now), 0);
	assert_true(now.sa_sigaction == late_handler);
	ep_close(&a);
	ep_close(&b);
}

/* rt_sigaction's struct on x86-64, as the kernel reads it. */
struct kernel_sigaction {
	void *handler;
	unsigned long flags;
	void *restorer;
	uint64_t mask;
};

#ifndef SA_RESTORER
#define SA_RESTORER 0x04000000
#endif

/*
 * A raw rt_sigaction(SIGSEGV) (syscall(2): the sim's seccomp filter traps
 * it) with the UAR pages mapped is recorded like sigaction(): sigaction()
 * reads it back, doorbells keep ringing, and the program's own fault
 * reaches the handler it installed.
 */
static void test_raw_rt_sigaction(void **state)
{
	struct sigaction usr = {.sa_handler = trap_handler}, now;
	struct kernel_sigaction k = {}, old = {}, ku = {};
	struct mlx5dv_qp dq = {};
	struct rdma_ep a, b;

	dv_pair(&a, &b, &dq);
	/* libc's signal return trampoline, as libc's sigaction passes it */
	assert_int_equal(sigaction(SIGUSR1, &usr, NULL), 0);
	assert_int_equal(syscall(SYS_rt_sigaction, SIGUSR1, NULL, &ku, 8), 0);
	assert_true(ku.flags & SA_RESTORER);
	k.handler = (void *)late_handler;
	k.flags = SA_SIGINFO | SA_RESTORER;
	k.restorer = ku.restorer;
	assert_int_equal(syscall(SYS_rt_sigaction, SIGSEGV, &k, &old, 8), 0);
	assert_true(old.handler != (void *)late_handler);
	assert_int_equal(sigaction(SIGSEGV, NULL, &now), 0);
	assert_true(now.sa_sigaction == late_handler);
	assert_int_equal(syscall(SYS_rt_sigaction, SIGSEGV, NULL, &ku, 8), 0);
	assert_ptr_equal(ku.handler, (void *)late_handler);

	late_calls = 0;
	write_one(&a, 31); /* the doorbell is still the sim's */
	assert_int_equal(late_calls, 0);
	own_fault(7);
	assert_int_equal(late_calls, 1);

	write_one(&a, 32);
	assert_int_equal(syscall(SYS_rt_sigaction, SIGSEGV, &old, NULL, 8), 0);
	usr.sa_handler = SIG_DFL;
	assert_int_equal(sigaction(SIGUSR1, &usr, NULL), 0);
	ep_close(&a);
	ep_close(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stores_land),
		cmocka_unit_test(test_program_handlers),
		cmocka_unit_test(test_raw_rt_sigaction),
	};

	int ret;

	signal(SIGSEGV, early_handler);
	ret = cmocka_run_group_tests(tests, group_setup, group_teardown);
	/* cmocka put back what it found: the handler from before the device */
	if (signal(SIGSEGV, SIG_DFL) != early_handler) {
		fprintf(stderr, "SIGSEGV handler not read back\n");
		return 1;
	}
	return ret;
}

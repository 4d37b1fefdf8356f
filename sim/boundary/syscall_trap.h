/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The system call as the simulated kernel's entry. The libc interposers
 * serve every call that goes through libc (the fast path: no trap, no
 * signal). A seccomp filter catches what bypasses them: syscall(2) and
 * the uverbs, dma-buf, DMA-heap and DRM ioctls from any code at all. It
 * answers SECCOMP_RET_TRAP; the SIGSYS handler runs the same interposer
 * and writes its result into the trapped context's RAX.
 */
#ifndef RDMA_SIM_SYSCALL_TRAP_H
#define RDMA_SIM_SYSCALL_TRAP_H

#include <signal.h>
#include <stdint.h>

#include "raw_syscall.h"

/* SECCOMP_RET_DATA of the sim's traps: si_errno of its SIGSYS. */
#define SIM_TRAP_DATA 0x5153u

/* Highest system call number the table serves, plus one. */
#define SIM_NR_SERVED 440

/*
 * Serve trapped system call nr with arguments a[6]: the interposer's
 * answer in the kernel's convention (result, or -errno). Calls the table
 * does not serve are made as they are (syscall_table.c).
 */
long sim_syscall_serve(long nr, const long *a);
/* Does the table serve nr (the filter traps only those at syscall(2))? */
int sim_syscall_served(long nr);
/*
 * A call whose fd the sim does not simulate, made directly: 1 and *ret,
 * else 0. Touches no thread-local state (a static program's trap comes
 * with the program's own thread pointer).
 */
int sim_syscall_fast(long nr, const long *a, long *ret);

/*
 * A static program's trap is running the sim (sigsys.c sets it): a served
 * call that must block returns -SIM_EWAIT with what it waits for in
 * sim_static_wait, and the trap calls sim_static_wait_out() once it has
 * left the sim, then serves the call again (wait.c).
 */
struct sim_static_wait {
	int fd;
	int timeout_ms; /* -1: none */
};
extern __thread int sim_static_serving;
extern struct sim_static_wait sim_static_wait;
void sim_static_wait_out(const struct sim_static_wait *w);

/* Would mprotect(addr, len, prot) make the sim's own code writable? Such
 * a call is refused with EACCES, from libc or trapped (self_guard.c). */
int sim_text_guarded(void *addr, size_t len, int prot);

/* Install the SIGSYS handler (sigsys.c); 0 or -errno. */
int sim_sigsys_install(void);
void sim_sigsys_uninstall(void);
/*
 * A static program is about to run in this process (static_exec.c):
 * traps from now on switch to this thread's block. 0 or -errno.
 */
int sim_sigsys_static_mode(void);
/* Is the sim's SIGSYS handler in place? */
int sim_sigsys_active(void);

/* Once per world: tell stderr why (bit: enum sim_trap_note). */
enum sim_trap_note {
	SIM_NOTE_VALGRIND = 1u << 0,
	SIM_NOTE_NO_FILTER = 1u << 1,
	SIM_NOTE_OWN_SIGSYS = 1u << 2,
	SIM_NOTE_OWN_SECCOMP = 1u << 3,
};
void sim_trap_note(enum sim_trap_note note, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Start serving trapped system calls (seccomp.c): from the constructor. */
void sim_syscall_trap_init(void);
/*
 * Also trap every served call made from code in [lo, hi) (a static
 * program's executable segments), for good: filters outlive exec. 0 or
 * -errno.
 */
int sim_trap_range(uintptr_t lo, uintptr_t hi);

#endif

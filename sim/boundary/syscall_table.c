// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The system calls the simulated kernel serves, by number: each row hands
 * a trapped call to the same interposer a libc call reaches, so raw and
 * libc callers get one answer, errno for errno. The filter (seccomp.c)
 * traps syscall(2) only for numbers in this table; the rest run as they
 * are. The interposers reach the real kernel through libc, which the
 * filter lets through (the mmap family and mprotect: the sim's own system
 * call).
 */
#include "sim.h"
#include "syscall_trap.h"
#include "sig_held.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

typedef long (*sim_sys_fn)(const long *a);

/* libc's -1/errno (MAP_FAILED too) as the kernel's -errno. */
static long result(long r)
{
	return r == -1 ? -errno : r;
}

#define I(n)  ((int)a[n])
#define U(n)  ((unsigned int)a[n])
#define SZ(n) ((size_t)a[n])
#define P(n)  ((void *)a[n])
#define SYS(name, call)                                                        \
	static long sys_##name(const long *a)                                  \
	{                                                                      \
		return result((long)(call));                                   \
	}

SYS(read, read(I(0), P(1), SZ(2)))
SYS(write, write(I(0), P(1), SZ(2)))
SYS(open, open(P(0), I(1), (mode_t)a[2]))
SYS(openat, openat(I(0), P(1), I(2), (mode_t)a[3]))
SYS(close, close(I(0)))
SYS(close_range, close_range(U(0), U(1), I(2)))
SYS(stat, stat(P(0), P(1)))
SYS(lstat, lstat(P(0), P(1)))
SYS(fstat, fstat(I(0), P(1)))
SYS(fstatat, fstatat(I(0), P(1), P(2), I(3)))
SYS(statx, statx(I(0), P(1), I(2), U(3), P(4)))
SYS(lseek, lseek(I(0), (off_t)a[1], I(2)))
/*
 * mmap, munmap, mremap and mprotect by syscall(2) are the kernel's own,
 * made here by the sim's system call: libc's may be patched to call
 * syscall(2) (libfabric's and UCX's memory hooks do), which inside this
 * trap would trap again with SIGSYS blocked, and the kernel kills the
 * process for that. A mapping of a simulated fd is the sim's (its own
 * mappings are made by its own call too: sys.mmap).
 */
static long sys_mmap(const long *a)
{
	if ((I(3) & MAP_ANONYMOUS) || !sim_fd_tracked(I(4)))
		return sim_raw_syscall(__NR_mmap, a, a[5]);
	return result((long)mmap(P(0), SZ(1), I(2), I(3), I(4), (off_t)a[5]));
}

static long sys_munmap(const long *a)
{
	long r = sim_raw_syscall(__NR_munmap, a, 0);

	if (!r && sim.active) {
		sim_lock_take();
		sim_munmap_note(P(0), SZ(1));
		sim_lock_drop();
	}
	return r;
}

/* The sim's code stays read-only (self_guard.c), whichever way asked. */
static long sys_mprotect(const long *a)
{
	if (sim_text_guarded(P(0), SZ(1), I(2)))
		return -EACCES;
	return sim_raw_syscall(__NR_mprotect, a, 0);
}

static long sys_mremap(const long *a)
{
	long r;
	int known;

	sim_lock_take();
	known = sim.active && sim_map_known(P(0), SZ(1));
	sim_lock_drop();
	if (known && SZ(2) > SZ(1))
		return -EFAULT; /* a device mapping does not grow */
	r = sim_raw_syscall(__NR_mremap, a, 0);
	if (r >= 0 && known) {
		sim_lock_take();
		sim_mremap_note(P(0), SZ(1), (void *)r, SZ(2));
		sim_lock_drop();
	}
	return r;
}
SYS(pread, pread(I(0), P(1), SZ(2), (off_t)a[3]))
SYS(pwrite, pwrite(I(0), P(1), SZ(2), (off_t)a[3]))
SYS(readv, readv(I(0), P(1), I(2)))
SYS(writev, writev(I(0), P(1), I(2)))
SYS(preadv, preadv(I(0), P(1), I(2), (off_t)a[3]))
SYS(pwritev, pwritev(I(0), P(1), I(2), (off_t)a[3]))
SYS(access, access(P(0), I(1)))
SYS(faccessat, faccessat(I(0), P(1), I(2), 0))
SYS(faccessat2, faccessat(I(0), P(1), I(2), I(3)))
SYS(readlink, readlink(P(0), P(1), SZ(2)))
SYS(readlinkat, readlinkat(I(0), P(1), P(2), SZ(3)))
SYS(chdir, chdir(P(0)))

/* The system call returns the length with its NUL, libc the buffer. */
static long sys_getcwd(const long *a)
{
	char *r = getcwd(P(0), SZ(1));

	return r ? (long)strlen(r) + 1 : -errno;
}
SYS(dup, dup(I(0)))
SYS(dup2, dup2(I(0), I(1)))
SYS(dup3, dup3(I(0), I(1), I(2)))
SYS(fcntl, fcntl(I(0), I(1), a[2]))
SYS(ioctl, ioctl(I(0), (unsigned long)a[1], P(2)))
SYS(execve, execve(P(0), P(1), P(2)))
SYS(socket, socket(I(0), I(1), I(2)))
SYS(bind, bind(I(0), P(1), (socklen_t)a[2]))
SYS(getsockname, getsockname(I(0), P(1), P(2)))
SYS(setsockopt, setsockopt(I(0), I(1), I(2), P(3), (socklen_t)a[4]))
SYS(getsockopt, getsockopt(I(0), I(1), I(2), P(3), P(4)))
SYS(sendto, sendto(I(0), P(1), SZ(2), I(3), P(4), (socklen_t)a[5]))
SYS(sendmsg, sendmsg(I(0), P(1), I(2)))
SYS(recvfrom, recvfrom(I(0), P(1), SZ(2), I(3), P(4), P(5)))
SYS(recvmsg, recvmsg(I(0), P(1), I(2)))
SYS(recvmmsg, recvmmsg(I(0), P(1), U(2), I(3), P(4)))

static long sys_rt_sigaction(const long *a)
{
	return sim_sig_rt_sigaction(I(0), P(1), P(2), a[3]);
}

static void note_own_filter(void)
{
	sim_trap_note(SIM_NOTE_OWN_SECCOMP,
		      "%s installs its own seccomp filter: it also filters the "
		      "simulated kernel's own system calls, and the sim's "
		      "traps take precedence over its answers but KILL",
		      program_invocation_short_name);
}

static long sys_seccomp(const long *a)
{
	if (a[0] == SECCOMP_SET_MODE_FILTER || a[0] == SECCOMP_SET_MODE_STRICT)
		note_own_filter();
	return sim_cookie_syscall(__NR_seccomp, a[0], a[1], a[2], 0, 0);
}

static long sys_prctl(const long *a)
{
	if (a[0] == PR_SET_SECCOMP)
		note_own_filter();
	return sim_cookie_syscall(__NR_prctl, a[0], a[1], a[2], a[3], a[4]);
}

int prctl(int option, ...)
{
	unsigned long v[4];
	va_list ap;
	long r;
	int i;

	va_start(ap, option);
	for (i = 0; i < 4; i++)
		v[i] = va_arg(ap, unsigned long);
	va_end(ap);
	if (option == PR_SET_SECCOMP && sim_sigsys_active())
		note_own_filter();
	r = sim_cookie_syscall(__NR_prctl, option, (long)v[0], (long)v[1],
			       (long)v[2], (long)v[3]);
	if (r < 0) {
		errno = (int)-r;
		return -1;
	}
	return (int)r;
}

static const sim_sys_fn served[SIM_NR_SERVED] = {
	[__NR_read] = sys_read,
	[__NR_write] = sys_write,
	[__NR_open] = sys_open,
	[__NR_openat] = sys_openat,
	[__NR_close] = sys_close,
	[__NR_close_range] = sys_close_range,
	[__NR_stat] = sys_stat,
	[__NR_lstat] = sys_lstat,
	[__NR_fstat] = sys_fstat,
	[__NR_newfstatat] = sys_fstatat,
	[__NR_statx] = sys_statx,
	[__NR_lseek] = sys_lseek,
	[__NR_mmap] = sys_mmap,
	[__NR_munmap] = sys_munmap,
	[__NR_mremap] = sys_mremap,
	[__NR_mprotect] = sys_mprotect,
	[__NR_pread64] = sys_pread,
	[__NR_pwrite64] = sys_pwrite,
	[__NR_readv] = sys_readv,
	[__NR_writev] = sys_writev,
	[__NR_preadv] = sys_preadv,
	[__NR_pwritev] = sys_pwritev,
	[__NR_access] = sys_access,
	[__NR_faccessat] = sys_faccessat,
	[__NR_faccessat2] = sys_faccessat2,
	[__NR_readlink] = sys_readlink,
	[__NR_readlinkat] = sys_readlinkat,
	[__NR_chdir] = sys_chdir,
	[__NR_getcwd] = sys_getcwd,
	[__NR_dup] = sys_dup,
	[__NR_dup2] = sys_dup2,
	[__NR_dup3] = sys_dup3,
	[__NR_fcntl] = sys_fcntl,
	[__NR_ioctl] = sys_ioctl,
	[__NR_execve] = sys_execve,
	[__NR_socket] = sys_socket,
	[__NR_bind] = sys_bind,
	[__NR_getsockname] = sys_getsockname,
	[__NR_setsockopt] = sys_setsockopt,
	[__NR_getsockopt] = sys_getsockopt,
	[__NR_sendto] = sys_sendto,
	[__NR_sendmsg] = sys_sendmsg,
	[__NR_recvfrom] = sys_recvfrom,
	[__NR_recvmsg] = sys_recvmsg,
	[__NR_recvmmsg] = sys_recvmmsg,
	[__NR_rt_sigaction] = sys_rt_sigaction,
	[__NR_seccomp] = sys_seccomp,
	[__NR_prctl] = sys_prctl,
};

/* 1 + the position of the fd argument of calls that act on one fd only. */
static const uint8_t fd_arg[SIM_NR_SERVED] = {
	[__NR_read] = 1,	[__NR_write] = 1,      [__NR_close] = 1,
	[__NR_fstat] = 1,	[__NR_lseek] = 1,      [__NR_mmap] = 5,
	[__NR_pread64] = 1,	[__NR_pwrite64] = 1,   [__NR_readv] = 1,
	[__NR_writev] = 1,	[__NR_preadv] = 1,     [__NR_pwritev] = 1,
	[__NR_fcntl] = 1,	[__NR_ioctl] = 1,      [__NR_bind] = 1,
	[__NR_getsockname] = 1, [__NR_setsockopt] = 1, [__NR_getsockopt] = 1,
	[__NR_sendto] = 1,	[__NR_sendmsg] = 1,    [__NR_recvfrom] = 1,
	[__NR_recvmsg] = 1,	[__NR_recvmmsg] = 1,
};

int sim_syscall_fast(long nr, const long *a, long *ret)
{
	if (nr < 0 || nr >= SIM_NR_SERVED || !fd_arg[nr] ||
	    sim_fd_kind((int)a[fd_arg[nr] - 1]) != SIM_FD_NONE)
		return 0;
	/* an ioctl of a simulated driver's type passes with the cookie */
	*ret = sim_raw_syscall(nr, a,
			       nr == __NR_ioctl ? (long)SIM_TRAP_COOKIE : a[5]);
	return 1;
}

int sim_syscall_served(long nr)
{
	return nr >= 0 && nr < SIM_NR_SERVED && served[nr];
}

/*
 * A trap in a thread that holds sim_lock is the sim's own call: a libc
 * function it uses (munmap under free(), mmap under malloc()) patched
 * to call syscall(2), as libfabric's memory hooks patch them. It goes
 * to the kernel as the sim made it; serving it would take sim_lock
 * again (a deadlock) and note the sim's own memory as the program's.
 */
long sim_syscall_serve(long nr, const long *a)
{
	if (!sim_syscall_served(nr) || sim_lock_mine())
		return sim_raw_syscall(nr, a, a[5]);
	return served[nr](a);
}

// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Baselines for the simulated data path, measured in the same run:
 *   dp_baseline memcpy SIZE SECONDS  -> "memcpy MB/s <rate>": one thread
 *        copying SIZE bytes between two fixed buffers (what ib_write_bw
 *        moves between its fixed buffers).
 *   dp_baseline pipe ITERS           -> "pipe usec median <t>": a 2-byte
 *        round trip between two processes over a pair of pipes.
 *   dp_baseline costs ITERS          -> the price of each way a sender
 *        could reach a receiver on this host, median of ITERS, us:
 *        "trap" a store to a write-protected page whose SIGSEGV handler
 *        steps past it (a doorbell); "mprotect" one protection change of
 *        a touched page; "vm_writev" process_vm_writev of a 2-byte
 *        payload and a 64-byte CQE into another process; "futex" one
 *        way of a futex ping-pong between two threads (a wake-up).
 */
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int bw(size_t size, double secs)
{
	char *a = aligned_alloc(4096, size), *b = aligned_alloc(4096, size);
	double t0, t;
	size_t n = 0;

	if (!a || !b)
		return 1;
	memset(a, 1, size);
	memset(b, 2, size);
	t0 = now();
	do {
		memcpy(b, a, size);
		__asm__ volatile("" : : "r"(b) : "memory");
		n++;
		t = now();
	} while (t - t0 < secs);
	printf("memcpy MB/s %.1f\n", n * (double)size / (t - t0) / 1e6);
	return 0;
}

static int cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp);
	return v[n / 2];
}

static int pingpong(int iters)
{
	int ab[2], ba[2], i;
	double *lat = calloc(iters, sizeof(*lat)), t;
	char m[2] = "x";
	pid_t pid;

	if (!lat || pipe(ab) || pipe(ba))
		return 1;
	pid = fork();
	if (pid == 0) {
		for (i = 0; i < iters; i++)
			if (read(ab[0], m, 2) != 2 || write(ba[1], m, 2) != 2)
				_exit(1);
		_exit(0);
	}
	for (i = 0; i < iters; i++) {
		t = now();
		if (write(ab[1], m, 2) != 2 || read(ba[0], m, 2) != 2)
			return 1;
		lat[i] = (now() - t) * 1e6;
	}
	waitpid(pid, NULL, 0);
	printf("pipe usec median %.2f\n", median(lat, iters));
	return 0;
}

/* The store below is "mov %edx,(%rax)": two bytes to step past. */
static void stepped(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	(void)sig;
	(void)si;
	uc->uc_mcontext.gregs[REG_RIP] += 2;
}

static double trap_cost(double *lat, int iters)
{
	struct sigaction sa = {.sa_sigaction = stepped, .sa_flags = SA_SIGINFO};
	void *pg =
		mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	double t;
	int i;

	if (pg == MAP_FAILED || sigaction(SIGSEGV, &sa, NULL))
		return -1;
	for (i = 0; i < iters; i++) {
		t = now();
		__asm__ volatile(".byte 0x89, 0x10" /* mov %edx,(%rax) */
				 :
				 : "a"(pg), "d"(i)
				 : "memory");
		lat[i] = (now() - t) * 1e6;
	}
	munmap(pg, 4096);
	return median(lat, iters);
}

static double mprotect_cost(double *lat, int iters)
{
	volatile char *pg = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	double t;
	int i;

	if (pg == MAP_FAILED)
		return -1;
	for (i = 0; i < iters; i++) {
		pg[0] = 1; /* populated, as a CQ page is */
		t = now();
		mprotect((void *)pg, 4096, PROT_NONE);
		mprotect((void *)pg, 4096, PROT_READ | PROT_WRITE);
		lat[i] = (now() - t) * 1e6 / 2;
	}
	munmap((void *)pg, 4096);
	return median(lat, iters);
}

static double vm_writev_cost(double *lat, int iters)
{
	static char dst[8192], src[64];
	struct iovec l[2] = {{src, 2}, {src, 64}};
	struct iovec r[2] = {{dst, 2}, {dst + 4096, 64}};
	pid_t pid = fork();
	double t;
	int i;

	if (pid == 0) {
		pause();
		_exit(0);
	}
	if (pid < 0)
		return -1;
	for (i = 0; i < iters; i++) {
		t = now();
		if (process_vm_writev(pid, l, 2, r, 2, 0) != 66)
			break;
		lat[i] = (now() - t) * 1e6;
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return i == iters ? median(lat, iters) : -1;
}

static uint32_t turn; /* the futex: whose turn (0 main, 1 the other) */

static void futex_pass(uint32_t mine)
{
	__atomic_store_n(&turn, !mine, __ATOMIC_SEQ_CST);
	syscall(SYS_futex, &turn, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	while (__atomic_load_n(&turn, __ATOMIC_SEQ_CST) != mine)
		syscall(SYS_futex, &turn, FUTEX_WAIT_PRIVATE, !mine, NULL, NULL,
			0);
}

static int futex_iters;

static void *futex_peer(void *arg)
{
	int i;

	(void)arg;
	while (__atomic_load_n(&turn, __ATOMIC_SEQ_CST) != 1)
		syscall(SYS_futex, &turn, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	for (i = 0; i < futex_iters; i++)
		futex_pass(1);
	return NULL;
}

static double futex_cost(double *lat, int iters)
{
	pthread_t th;
	double t;
	int i;

	futex_iters = iters;
	if (pthread_create(&th, NULL, futex_peer, NULL))
		return -1;
	for (i = 0; i < iters; i++) {
		t = now();
		futex_pass(0);
		lat[i] = (now() - t) * 1e6 / 2;
	}
	__atomic_store_n(&turn, 1, __ATOMIC_SEQ_CST);
	syscall(SYS_futex, &turn, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	pthread_join(th, NULL);
	return median(lat, iters);
}

static int costs(int iters)
{
	static const struct {
		const char *name;
		double (*fn)(double *lat, int iters);
	} row[] = {
		{"trap", trap_cost},
		{"mprotect", mprotect_cost},
		{"vm_writev", vm_writev_cost},
		{"futex", futex_cost},
	};
	double *lat = calloc(iters, sizeof(*lat));
	unsigned int i;

	if (!lat || iters < 1)
		return 1;
	for (i = 0; i < sizeof(row) / sizeof(row[0]); i++)
		printf("%s usec median %.2f\n", row[i].name,
		       row[i].fn(lat, iters));
	free(lat);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "memcpy"))
		return bw(strtoul(argv[2], NULL, 0), atof(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "pipe"))
		return pingpong(atoi(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "costs"))
		return costs(atoi(argv[2]));
	fprintf(stderr, "usage: dp_baseline memcpy SIZE SECS | pipe ITERS | "
			"costs ITERS\n");
	return 2;
}

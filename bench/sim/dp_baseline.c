// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Baselines for the simulated data path, measured in the same run:
 *   dp_baseline memcpy SIZE SECONDS  -> "memcpy MB/s <rate>": one thread
 *        copying SIZE bytes between two fixed buffers (what ib_write_bw
 *        moves between its fixed buffers).
 *   dp_baseline pipe ITERS           -> "pipe usec median <t>": a 2-byte
 *        round trip between two processes over a pair of pipes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
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
	qsort(lat, iters, sizeof(*lat), cmp);
	printf("pipe usec median %.2f\n", lat[iters / 2]);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "memcpy"))
		return bw(strtoul(argv[2], NULL, 0), atof(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "pipe"))
		return pingpong(atoi(argv[2]));
	fprintf(stderr, "usage: dp_baseline memcpy SIZE SECS | pipe ITERS\n");
	return 2;
}

// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A program whose signal handler calls exit() while the signal landed in
 * the middle of a call the sim serves, and whose atexit work calls the
 * sim again (closes its uverbs fd): the process must end, not hang on
 * the sim's lock the interrupted call held. Each of TRIALS children
 * writes to uverbs0 in a loop (every write takes the sim's lock) until a
 * 1 ms interval timer's SIGALRM runs the handler; the parent waits for
 * each child up to a wall-time bound that a loaded machine meets
 * (a hung child is killed and counted). Run under rdma-sim.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TRIALS	 40
#define BOUND_MS 10000 /* per child: far above a loaded machine's exit */

static int uverbs = -1;

static void cleanup(void)
{
	close(uverbs); /* the sim again, from exit() */
}

static void on_alarm(int sig)
{
	(void)sig;
	exit(7);
}

static void child(void)
{
	const struct itimerval t = {{0, 1000}, {0, 1000}};
	uint32_t junk[4] = {0xffff, 0, 0, 0}; /* no such command */

	uverbs = open("/dev/infiniband/uverbs0", O_RDWR | O_CLOEXEC);
	if (uverbs < 0)
		_exit(2);
	atexit(cleanup);
	signal(SIGALRM, on_alarm);
	setitimer(ITIMER_REAL, &t, NULL);
	for (;;)
		if (write(uverbs, junk, sizeof(junk)) >= 0)
			_exit(3); /* the sim took a command that is none */
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The child's exit status, or -1 when it did not end within the bound. */
static int reap(pid_t pid)
{
	long until = now_ms() + BOUND_MS;
	int st;

	while (now_ms() < until) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st)
					     : 128 + WTERMSIG(st);
		usleep(2000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	return -1;
}

int main(void)
{
	int i, st, hung = 0, bad = 0;
	pid_t pid;

	for (i = 0; i < TRIALS; i++) {
		pid = fork();
		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (!pid)
			child();
		st = reap(pid);
		if (st < 0) {
			hung++;
			break; /* one is enough: do not wait out the rest */
		}
		if (st >= 0 && st != 7) {
			fprintf(stderr, "FAIL: trial %d: status %d\n", i, st);
			bad++;
		}
	}
	if (hung)
		fprintf(stderr,
			"FAIL: trial %d of %d hung in exit() from a signal handler\n",
			i + 1, TRIALS);
	if (hung || bad)
		return 1;
	printf("exit_in_handler: %d children exited from their handler\n",
	       TRIALS);
	return 0;
}

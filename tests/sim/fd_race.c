// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Threads racing on one fd number: one opens and closes uverbs0 and a
 * NETLINK_RDMA socket (the sim writes its fd table under its lock), the
 * others call lseek on that number, whose wrapper reads the table
 * without the lock. Built with
 * ThreadSanitizer against a ThreadSanitizer build of librdmasim.so, any
 * plain (non-atomic) access there is a reported race and fails the run.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef NETLINK_RDMA
#define NETLINK_RDMA 20
#endif

static atomic_int stop;
static int num; /* the fd number both sides use */

static void *churn(void *arg)
{
	int i, fd;

	for (i = 0; i < 3000; i++) {
		fd = i % 2 ? socket(AF_NETLINK, SOCK_RAW, NETLINK_RDMA)
			   : open("/dev/infiniband/uverbs0", O_RDWR);
		if (fd >= 0)
			close(fd);
	}
	atomic_store(&stop, 1);
	return arg;
}

/*
 * Only lseek: its wrapper never takes the sim's lock on these fds (a lock
 * would order the accesses and hide a race from the detector), and the
 * sanitizer does not intercept it (it would report the program's own use
 * of a number another thread closes, not the sim's table).
 */
static void *poke(void *arg)
{
	while (!atomic_load(&stop))
		lseek(num, 0, SEEK_CUR);
	return arg;
}

int main(void)
{
	pthread_t t[3];
	int i;

	num = open("/dev/infiniband/uverbs0", O_RDWR);
	if (num < 0) {
		perror("sim_fd_race: open uverbs0");
		return 1;
	}
	close(num);
	pthread_create(&t[0], NULL, churn, NULL);
	for (i = 1; i < 3; i++)
		pthread_create(&t[i], NULL, poke, NULL);
	for (i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	printf("sim_fd_race: done\n");
	return 0;
}

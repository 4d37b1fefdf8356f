// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory pinned for the device as rdma-sim pins it (sim/core/dma_pin.c):
 * a registered MR's private anonymous pages become the process's shared
 * memfd pages, as a peer's HCA writes them. What a program must not see
 * of it, and what it must see of a real kernel's pinning:
 *  - contents kept, and the range shown as the sim's memfd while an MR
 *    or CQ holds it, private again (contents kept) once none does;
 *  - a thread storing into the buffer while it is registered loses no
 *    store (the range is read-only for a moment);
 *  - a fork child has its own copy (the parent's later stores are not
 *    its, nor its the parent's), and none of a DONTFORK range;
 *  - munmap before DEREG_MR works and frees the pages; after DEREG_MR
 *    and munmap the process has as many fds and mappings as before,
 *    the memfd included.
 * Usage: debian_dma_pin DEVICE (built against Debian's libibverbs)
 */
#include <errno.h>
#include <infiniband/verbs.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fds.h"
#include "judge.h"

#define PAGE  4096
#define PAGES 64
#define LEN   (PAGES * PAGE)
#define MEMFD "/memfd:rdma-sim-dma"

static struct ibv_pd *pd;

static int ibv_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;

/* Does /proc/self/maps show the sim's memfd over [p, p+len)? */
static int memfd_backed(const void *p, size_t len)
{
	uintptr_t lo = (uintptr_t)p, hi = lo + len, cur = lo;
	unsigned long s, e;
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx", &s, &e) == 2 && s <= cur &&
		    cur < e && strstr(line, MEMFD))
			cur = e < hi ? e : hi;
	fclose(f);
	return cur == hi;
}

/* The memfd's allocated bytes (st_blocks), found among the fds. */
static long long memfd_bytes(void)
{
	char path[64], link[128];
	struct stat st;
	ssize_t n;
	int fd;

	for (fd = 0; fd < 4096; fd++) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = 0;
		if (!strncmp(link, MEMFD, strlen(MEMFD)) && !stat(path, &st))
			return (long long)st.st_blocks * 512;
	}
	return -1;
}

static uint8_t *map_buf(size_t len)
{
	uint8_t *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	return p;
}

static void contents_kept(void)
{
	uint8_t *p = map_buf(LEN);
	struct ibv_mr *mr, *mr2;
	int i, bad = 0;

	for (i = 0; i < LEN; i += 97)
		p[i] = (uint8_t)(i / 97 + 1);
	mr = ibv_reg_mr(pd, p, LEN, ibv_flags);
	CHECK(mr, "reg_mr: %s", strerror(errno));
	CHECK(memfd_backed(p, LEN), "the MR is not the sim's memfd pages");
	for (i = 0; i < LEN; i += 97)
		bad += p[i] != (uint8_t)(i / 97 + 1);
	CHECK(!bad, "%d bytes changed by the registration", bad);
	p[LEN - 1] = 0x5a; /* writable after it */
	CHECK(p[LEN - 1] == 0x5a, "store lost");
	/* a second MR over half of it: the pages stay pinned until both go */
	mr2 = ibv_reg_mr(pd, p + LEN / 2, LEN / 2, ibv_flags);
	CHECK(mr2, "reg_mr: %s", strerror(errno));
	CHECK(mr && !ibv_dereg_mr(mr), "dereg_mr");
	CHECK(memfd_backed(p + LEN / 2, LEN / 2),
	      "pinned by the second MR, yet not the memfd's any more");
	CHECK(mr2 && !ibv_dereg_mr(mr2), "dereg_mr");
	CHECK(!memfd_backed(p + LEN / 2, PAGE) && !memfd_backed(p, PAGE),
	      "no MR left, yet the memfd's pages");
	for (i = 0; i < LEN - 1; i += 97)
		bad += p[i] != (uint8_t)(i / 97 + 1);
	CHECK(!bad && p[LEN - 1] == 0x5a, "%d bytes changed by DEREG_MR", bad);
	munmap(p, LEN);
}

#define LOG_LEN (16 << 20) /* the writer's log: 4 Mi stores */

struct writer {
	volatile uint32_t *w;
	volatile int stop;
	uint32_t last;
};

/* Stores v into slot v, one after the other, until told or full: a
 * store lost anywhere leaves its slot 0. */
static void *write_loop(void *arg)
{
	struct writer *wr = arg;
	uint32_t v = 0;
	int k;

	while (!wr->stop && v + 1 < LOG_LEN / 4) {
		v++;
		wr->w[v] = v;
		for (k = 0; k < 20; k++)
			__asm__ volatile("" ::: "memory");
	}
	wr->last = v;
	return NULL;
}

static void store_during_reg(void)
{
	struct writer wr = {.w = (volatile uint32_t *)map_buf(LOG_LEN)};
	struct ibv_mr *mr;
	uint32_t v, lost = 0;
	pthread_t t;

	pthread_create(&t, NULL, write_loop, &wr);
	while (!wr.w[1]) /* it runs */
		;
	mr = ibv_reg_mr(pd, (void *)wr.w, LOG_LEN, ibv_flags);
	CHECK(mr, "reg_mr: %s", strerror(errno));
	wr.stop = 1;
	pthread_join(t, NULL);
	for (v = 1; v <= wr.last; v++)
		lost += wr.w[v] != v;
	CHECK(!lost, "%u of the writer's %u stores lost", lost, wr.last);
	CHECK(memfd_backed((void *)wr.w, LOG_LEN), "not converted");
	CHECK(mr && !ibv_dereg_mr(mr), "dereg_mr");
	munmap((void *)wr.w, LOG_LEN);
}

/* The child: sees the fork's bytes only, and no DONTFORK range. */
static int child(int rd, int wrfd, uint8_t *p, uint8_t *hidden)
{
	unsigned char v;
	char c;
	int bad = 0;

	if (p[0] != 'A' || p[LEN - 1] != 'A')
		bad |= 1;
	if (mincore(hidden, PAGE, &v) != -1 || errno != ENOMEM)
		bad |= 2; /* the DONTFORK range is mapped in the child */
	if (read(rd, &c, 1) != 1) /* the parent stored 'B' */
		bad |= 4;
	if (p[0] != 'A')
		bad |= 8;
	p[1] = 'C';
	if (write(wrfd, "x", 1) != 1)
		bad |= 16;
	return bad;
}

static void fork_copy(void)
{
	uint8_t *p = map_buf(LEN), *hidden = map_buf(LEN);
	struct ibv_mr *mr, *mr2;
	int to_child[2], to_parent[2], st = -1;
	pid_t pid;
	char c;

	memset(p, 'A', LEN);
	CHECK(!madvise(hidden, LEN, MADV_DONTFORK), "madvise");
	mr = ibv_reg_mr(pd, p, LEN, ibv_flags);
	mr2 = ibv_reg_mr(pd, hidden, LEN, ibv_flags);
	CHECK(mr && mr2, "reg_mr: %s", strerror(errno));
	CHECK(memfd_backed(p, LEN) && memfd_backed(hidden, LEN),
	      "not converted");
	if (pipe(to_child) || pipe(to_parent)) {
		perror("pipe");
		exit(1);
	}
	pid = fork();
	if (!pid)
		_exit(child(to_child[0], to_parent[1], p, hidden));
	p[0] = 'B';
	CHECK(write(to_child[1], "x", 1) == 1, "pipe");
	CHECK(read(to_parent[0], &c, 1) == 1, "pipe");
	CHECK(waitpid(pid, &st, 0) == pid, "waitpid");
	CHECK(WIFEXITED(st) && !WEXITSTATUS(st),
	      "child: status %#x (1 fork's bytes, 2 DONTFORK mapped, 8 "
	      "parent's store seen)", st);
	CHECK(p[0] == 'B' && p[1] == 'A', "the child's store reached the "
	      "parent (%c%c)", p[0], p[1]);
	CHECK(memfd_backed(p, LEN), "the parent's MR is no longer pinned");
	hidden[0] = 1; /* the parent's DONTFORK range is its own still */
	CHECK(mr && !ibv_dereg_mr(mr) && mr2 && !ibv_dereg_mr(mr2),
	      "dereg_mr");
	close(to_child[0]);
	close(to_child[1]);
	close(to_parent[0]);
	close(to_parent[1]);
	munmap(p, LEN);
	munmap(hidden, LEN);
}

/* munmap under a registered MR, then DEREG_MR; or DEREG_MR first. */
static void reg_unmap(int unmap_first)
{
	uint8_t *p = map_buf(LEN);
	struct ibv_mr *mr;

	memset(p, 7, LEN);
	mr = ibv_reg_mr(pd, p, LEN, ibv_flags);
	CHECK(mr, "reg_mr: %s", strerror(errno));
	if (unmap_first)
		CHECK(!munmap(p, LEN), "munmap");
	CHECK(mr && !ibv_dereg_mr(mr), "dereg_mr after munmap");
	if (!unmap_first)
		CHECK(!munmap(p, LEN), "munmap");
}

static void nothing_left(void)
{
	uint8_t *p = map_buf(LEN);
	struct ibv_mr *mr;
	int fds, maps, i;

	reg_unmap(0); /* the libraries' own first-time allocations */
	fds = count_fds();
	maps = count_maps();
	CHECK(memfd_bytes() < 0, "a memfd with nothing pinned");
	memset(p, 1, LEN);
	mr = ibv_reg_mr(pd, p, LEN, ibv_flags);
	CHECK(mr, "reg_mr: %s", strerror(errno));
	CHECK(memfd_bytes() >= LEN, "the memfd holds %lld bytes of %d pinned",
	      memfd_bytes(), LEN);
	munmap(p, LEN); /* the pages go, the MR stays */
	CHECK(memfd_bytes() < 0, "munmap left the memfd (%lld bytes)",
	      memfd_bytes());
	CHECK(mr && !ibv_dereg_mr(mr), "dereg_mr after munmap");
	for (i = 0; i < 20; i++)
		reg_unmap(i & 1);
	CHECK(count_fds() == fds, "fds %d, were %d", count_fds(), fds);
	CHECK(count_maps() == maps, "maps %d, were %d", count_maps(), maps);
	CHECK(memfd_bytes() < 0, "a memfd left (%lld bytes)", memfd_bytes());
}

int main(int argc, char **argv)
{
	struct ibv_device **l = ibv_get_device_list(NULL);
	struct ibv_context *ctx = NULL;
	int i;

	for (i = 0; argc > 1 && l && l[i]; i++)
		if (!strcmp(ibv_get_device_name(l[i]), argv[1]))
			ctx = ibv_open_device(l[i]);
	ibv_free_device_list(l);
	pd = ctx ? ibv_alloc_pd(ctx) : NULL;
	if (!pd) {
		fprintf(stderr, "no device %s\n", argc > 1 ? argv[1] : "");
		return 1;
	}
	contents_kept();
	store_during_reg();
	fork_copy();
	nothing_left();
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	printf("%s\n", failures ? "FAIL" : "PASS");
	return !!failures;
}

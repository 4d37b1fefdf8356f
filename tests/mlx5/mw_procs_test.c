// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A memory window across processes under rdma-sim: the server binds a
 * type 2 window over its MR on its QP and hands the key to the client
 * process; the client WRITEs through it (the server checks the bytes),
 * invalidates it with SEND_WITH_INV (the server checks the receive's
 * WITH_INV and key), then finds it closed (REM_ACCESS_ERR). With "2" the
 * client uses the second device. Each side checks its own teardown.
 *
 *   mw_procs_test NDEV
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dm_util.h"
#include "rdma_util.h"

#define LEN	65536
#define WIN_OFF 4096
#define WIN_LEN 8192

/* Report where and why, then end this process with status 1. */
static void __attribute__((noreturn, format(printf, 2, 3)))
die(int line, const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	fprintf(stderr, "line %d: ", line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (errno %d)\n", err);
	exit(1);
}

#define CHECK(c, ...) ((c) ? (void)0 : die(__LINE__, __VA_ARGS__))

struct wire {
	uint32_t lid, qpn, key;
	uint64_t addr;
};

static void xchg(int sock, const struct wire *mine, struct wire *theirs)
{
	CHECK(write(sock, mine, sizeof(*mine)) == sizeof(*mine), "send");
	CHECK(read(sock, theirs, sizeof(*theirs)) == sizeof(*theirs), "recv");
}

static void step(int sock, char send, char expect)
{
	char c;

	if (send)
		CHECK(write(sock, &send, 1) == 1, "send %c", send);
	if (expect)
		CHECK(read(sock, &c, 1) == 1 && c == expect, "wait %c", expect);
}

static struct ibv_wc one(struct rdma_ep *ep)
{
	struct ibv_wc wc;

	CHECK(ep_poll(ep, &wc, 1) == 1, "no completion");
	return wc;
}

static int server(struct ibv_device *dev, int sock)
{
	struct ep_opts o = {.type = IBV_QPT_RC};
	struct ibv_send_wr *bad, wr = {.opcode = IBV_WR_BIND_MW};
	struct rdma_host h;
	struct wire mine, theirs;
	struct rdma_ep ep;
	struct ibv_mw *mw;
	struct ibv_wc wc;
	uint8_t want[WIN_LEN];

	CHECK(!host_open(&h, dev, LEN,
			 IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_MW_BIND),
	      "host");
	mw = ibv_alloc_mw(h.pd, IBV_MW_TYPE_2);
	CHECK(mw, "alloc_mw");
	CHECK(!ep_open(&ep, h.ctx, h.pd, &o), "ep");
	mine = (struct wire){ep.lid, ep.qpn, ibv_inc_rkey(mw->rkey),
			     (uintptr_t)h.buf + WIN_OFF};
	xchg(sock, &mine, &theirs);
	CHECK(!ep_connect(&ep, (uint16_t)theirs.lid, theirs.qpn), "connect");
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.bind_mw.mw = mw;
	wr.bind_mw.rkey = mine.key;
	wr.bind_mw.bind_info = (struct ibv_mw_bind_info){
		h.mr, mine.addr, WIN_LEN, IBV_ACCESS_REMOTE_WRITE};
	CHECK(!ibv_post_send(ep.qp, &wr, &bad), "post bind");
	wc = one(&ep);
	CHECK(wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_BIND_MW,
	      "bind: %s", ibv_wc_status_str(wc.status));
	CHECK(!ep_recv(&ep, h.buf, 64, h.mr->lkey, 9), "recv");
	step(sock, 'b', 'w');
	fill_pattern(want, WIN_LEN, 7);
	CHECK(!memcmp(h.buf + WIN_OFF, want, WIN_LEN), "window bytes");
	step(sock, 'c', 0);
	wc = one(&ep);
	CHECK(wc.status == IBV_WC_SUCCESS && wc.wr_id == 9 &&
		      (wc.wc_flags & IBV_WC_WITH_INV) &&
		      wc.invalidated_rkey == mine.key,
	      "SEND_WITH_INV receive: %s flags %#x key %#x",
	      ibv_wc_status_str(wc.status), wc.wc_flags, wc.invalidated_rkey);
	step(sock, 'i', 'd');
	ep_close(&ep);
	CHECK(!ibv_dealloc_mw(mw), "dealloc_mw");
	CHECK(!host_close(&h), "host_close");
	printf("server: %d bytes through the window, then invalidated\n",
	       WIN_LEN);
	return 0;
}

static int client(struct ibv_device *dev, int sock)
{
	struct ep_opts o = {.type = IBV_QPT_RC};
	struct rdma_host h;
	struct wire mine = {0}, theirs;
	struct rdma_ep ep;
	struct ibv_wc wc;

	CHECK(!host_open(&h, dev, LEN, IBV_ACCESS_LOCAL_WRITE), "host");
	CHECK(!ep_open(&ep, h.ctx, h.pd, &o), "ep");
	mine.lid = ep.lid;
	mine.qpn = ep.qpn;
	xchg(sock, &mine, &theirs);
	CHECK(!ep_connect(&ep, (uint16_t)theirs.lid, theirs.qpn), "connect");
	step(sock, 0, 'b');
	fill_pattern(h.buf, WIN_LEN, 7);
	CHECK(!ep_post(&ep, IBV_WR_RDMA_WRITE, h.buf, WIN_LEN, h.mr->lkey,
		       theirs.addr, theirs.key, IBV_SEND_SIGNALED, 1),
	      "write");
	wc = one(&ep);
	CHECK(wc.status == IBV_WC_SUCCESS, "write: %s",
	      ibv_wc_status_str(wc.status));
	step(sock, 'w', 'c');
	{
		struct ibv_send_wr *bad,
			wr = {
				.opcode = IBV_WR_SEND_WITH_INV,
				.send_flags = IBV_SEND_SIGNALED,
				.invalidate_rkey = theirs.key,
			};

		CHECK(!ibv_post_send(ep.qp, &wr, &bad), "send_inv");
	}
	wc = one(&ep);
	CHECK(wc.status == IBV_WC_SUCCESS, "send_inv: %s",
	      ibv_wc_status_str(wc.status));
	step(sock, 0, 'i');
	CHECK(!ep_post(&ep, IBV_WR_RDMA_WRITE, h.buf, 64, h.mr->lkey,
		       theirs.addr, theirs.key, IBV_SEND_SIGNALED, 2),
	      "write");
	wc = one(&ep);
	CHECK(wc.status == IBV_WC_REM_ACCESS_ERR, "closed window: %s",
	      ibv_wc_status_str(wc.status));
	step(sock, 'd', 0);
	ep_close(&ep);
	CHECK(!host_close(&h), "host_close");
	printf("client: wrote, invalidated, refused\n");
	return 0;
}

static pid_t run_side(int (*side)(struct ibv_device *, int),
		      struct ibv_device *dev, int sock, int other)
{
	pid_t pid = fork();

	CHECK(pid >= 0, "fork");
	if (!pid) {
		close(other);
		exit(side(dev, sock));
	}
	return pid;
}

int main(int argc, char **argv)
{
	int ndev = argc > 1 ? atoi(argv[1]) : 1, n, sv[2], st, i, rc = 0;
	struct ibv_device **devs = ibv_get_device_list(&n);
	pid_t pid[2];

	CHECK(devs && n >= ndev, "devices");
	CHECK(!socketpair(AF_UNIX, SOCK_STREAM, 0, sv), "socketpair");
	pid[0] = run_side(server, devs[0], sv[0], sv[1]);
	pid[1] = run_side(client, devs[ndev - 1], sv[1], sv[0]);
	close(sv[0]);
	close(sv[1]);
	for (i = 0; i < 2; i++) {
		CHECK(waitpid(pid[i], &st, 0) == pid[i], "wait");
		rc |= !WIFEXITED(st) || WEXITSTATUS(st);
	}
	ibv_free_device_list(devs);
	printf("%s\n", rc ? "FAILED" : "passed");
	return rc;
}

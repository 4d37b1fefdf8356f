// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * `rdma link delete rxe0` (iproute2, run as a user runs it) while this
 * process holds an RDMA CM id bound to rxe0 and a verbs context of its
 * own, under `rdma-sim --driver rxe`. As ib_unregister_device() does for
 * rxe (no disassociate_ucontext): the CM id hears DEVICE_REMOVAL, the
 * uverbs node goes at once, no DEVICE_FATAL comes and the open context
 * keeps working, and the delete waits until every context is closed;
 * then the device is gone and nothing of it is left here.
 */
#include "ucma_util.h"
#include "../common/fds.h"
#include "../common/judge.h"

#include <errno.h>
#include <fcntl.h>
#include <infiniband/verbs.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define EV_DEVICE_REMOVAL 11

static int num_devices(void)
{
	struct ibv_device **l;
	int n = -1;

	l = ibv_get_device_list(&n);
	if (l)
		ibv_free_device_list(l);
	return n;
}

static int gone(const char *path)
{
	struct stat st;

	return stat(path, &st) < 0 && errno == ENOENT;
}

/* Wait up to ms for path to disappear (the delete runs in another
 * process, on a loaded machine). */
static int wait_gone(const char *path, int ms)
{
	const struct timespec tick = {.tv_nsec = 10 * 1000 * 1000};
	int i;

	for (i = 0; i < ms / 10 && !gone(path); i++)
		nanosleep(&tick, NULL);
	return gone(path);
}

static int async_pending(struct ibv_context *ctx)
{
	struct pollfd p = {.fd = ctx->async_fd, .events = POLLIN};

	return poll(&p, 1, 0);
}

static pid_t rdma_link_delete(const char *dev)
{
	pid_t pid = fork();

	if (!pid) {
		/* iproute2 leaves libmnl buffers at exit, which the sanitized
		 * sim (preloaded into every program) would report as leaks */
		setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
		execlp("rdma", "rdma", "link", "delete", dev, (char *)NULL);
		_exit(127);
	}
	return pid;
}

int main(void)
{
	const struct timespec settle = {.tv_nsec = 300 * 1000 * 1000};
	struct rdma_ucm_event_resp e;
	struct ibv_device_attr attr;
	struct ibv_device **list;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq, *cq2;
	int fds = count_fds(), cm, id, id2, n, st = -1;
	uint32_t reported = 0;
	pid_t del;

	list = ibv_get_device_list(&n);
	if (!list || n != 1 || strcmp(ibv_get_device_name(list[0]), "rxe0")) {
		fprintf(stderr,
			"needs one device, rxe0 (rdma-sim --driver rxe)\n");
		return 1;
	}
	ctx = ibv_open_device(list[0]);
	ibv_free_device_list(list);
	cm = ucma_open();
	if (!ctx || cm < 0)
		return 1;
	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	CHECK(pd && cq, "pd and cq on rxe0");
	id = create_id(cm, 7, RDMA_PS_TCP);
	CHECK(id >= 0 && bind_ip(cm, (uint32_t)id, server_ip, 0) > 0,
	      "cm id bound to %s (rxe0)", server_ip);

	del = rdma_link_delete("rxe0");
	CHECK(del > 0, "fork: %s", strerror(errno));
	CHECK(!get_event(cm, &e, 60000), "an RDMA CM event within 60 s");
	CHECK(e.event == EV_DEVICE_REMOVAL && e.id == (uint32_t)id &&
		      e.uid == 7 && !e.status,
	      "DEVICE_REMOVAL of id %d: event %u id %u uid %llu status %d", id,
	      e.event, e.id, (unsigned long long)e.uid, e.status);
	CHECK(wait_gone("/dev/infiniband/uverbs0", 60000),
	      "/dev/infiniband/uverbs0 removed");
	CHECK(open("/dev/infiniband/uverbs0", O_RDWR) < 0 && errno == ENOENT,
	      "open uverbs0 after removal: ENOENT (%s)", strerror(errno));
	CHECK(num_devices() == 0, "no device listed while rxe0 unregisters");

	/* rxe has no disassociate_ucontext: the context stays whole and the
	 * delete waits for it to close */
	nanosleep(&settle, NULL);
	CHECK(waitpid(del, &st, WNOHANG) == 0,
	      "rdma link delete still waits for the open context");
	CHECK(!ibv_query_device(ctx, &attr), "the open context still answers");
	cq2 = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	CHECK(cq2 && !ibv_destroy_cq(cq2), "and still creates objects");
	CHECK(!async_pending(ctx),
	      "no async event (DEVICE_FATAL) on an rxe removal");

	/* ucma closed the id on DEVICE_REMOVAL: only its destroy works */
	CHECK(bind_ip(cm, (uint32_t)id, server_ip, 0) == -ENXIO,
	      "a command on the removed id: ENXIO");
	CHECK(listen_id(cm, (uint32_t)id, 1) == -ENXIO, "listen: ENXIO");
	CHECK(destroy_id(cm, (uint32_t)id, &reported) > 0 && reported == 1,
	      "destroy the removed id: 1 event reported (%u)", reported);
	CHECK(!ibv_destroy_cq(cq) && !ibv_dealloc_pd(pd), "destroy cq, pd");
	CHECK(!ibv_close_device(ctx), "ibv_close_device after removal");
	alarm(120); /* the delete must now end */
	CHECK(waitpid(del, &st, 0) == del && WIFEXITED(st) && !WEXITSTATUS(st),
	      "rdma link delete rxe0 exits 0 once the context closed (%#x)",
	      st);
	alarm(0);
	CHECK(gone("/sys/class/infiniband/rxe0"), "rxe0 left sysfs");
	CHECK(gone("/sys/class/infiniband_verbs/uverbs0"),
	      "uverbs0 left sysfs");
	CHECK(num_devices() == 0, "ibv_get_device_list: none");

	/* the netdev keeps its address, but no RDMA device is on it */
	id2 = create_id(cm, 8, RDMA_PS_TCP);
	CHECK(id2 >= 0 && bind_ip(cm, (uint32_t)id2, server_ip, 0) == -ENODEV,
	      "bind to %s after removal: ENODEV", server_ip);
	CHECK(destroy_id(cm, (uint32_t)id2, NULL) > 0, "destroy id2");
	close(cm);
	CHECK(count_fds() == fds, "fds back to %d (now %d)", fds, count_fds());
	return ucma_report(failures, "rxe_link_delete");
}

// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The peer reaches the sim's export table through librdmasim.so, which is
 * preloaded into every process under rdma-sim; absent that, it reports
 * "not a sim dma-buf".
 */
#include "rdma_sim_peer.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

struct sim_dmabuf_import;

struct sim_peer_api {
	struct sim_dmabuf_import *(*get)(int fd, int *err);
	void (*put)(struct sim_dmabuf_import *db);
	uint64_t (*size)(struct sim_dmabuf_import *db);
	int (*rw)(struct sim_dmabuf_import *db, uint64_t off, void *buf,
		  size_t len, int write);
};

struct rdma_sim_peer {
	struct sim_dmabuf_import *db;
	const struct sim_peer_api *api;
};

static const struct sim_peer_api *peer_api(void)
{
	static struct sim_peer_api api;
	static int resolved;

	if (!resolved) {
		*(void **)&api.get =
			dlsym(RTLD_DEFAULT, "rdma_sim_internal_dmabuf_get");
		*(void **)&api.put =
			dlsym(RTLD_DEFAULT, "rdma_sim_internal_dmabuf_put");
		*(void **)&api.size =
			dlsym(RTLD_DEFAULT, "rdma_sim_internal_dmabuf_size");
		*(void **)&api.rw =
			dlsym(RTLD_DEFAULT, "rdma_sim_internal_dmabuf_rw");
		resolved = 1;
	}
	if (!api.get || !api.put || !api.size || !api.rw)
		return NULL;
	return &api;
}

int rdma_sim_active(void)
{
	const char *dir = getenv("RDMA_SIM_DIR");

	return peer_api() && dir && *dir;
}

struct rdma_sim_peer *rdma_sim_peer_import(int dmabuf_fd)
{
	const struct sim_peer_api *api;
	struct rdma_sim_peer *p;
	int err = EINVAL;

	if (dmabuf_fd < 0 || fcntl(dmabuf_fd, F_GETFD) < 0) {
		errno = EBADF;
		return NULL;
	}
	api = rdma_sim_active() ? peer_api() : NULL;
	if (!api) {
		errno = EINVAL;
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		errno = ENOMEM;
		return NULL;
	}
	p->api = api;
	p->db = api->get(dmabuf_fd, &err);
	if (!p->db) {
		free(p);
		errno = err;
		return NULL;
	}
	return p;
}

size_t rdma_sim_peer_size(const struct rdma_sim_peer *peer)
{
	return peer ? (size_t)peer->api->size(peer->db) : 0;
}

static int peer_rw(struct rdma_sim_peer *peer, uint64_t off, void *buf,
		   size_t len, int write)
{
	int ret;

	if (!peer || (!buf && len)) {
		errno = EINVAL;
		return -1;
	}
	ret = peer->api->rw(peer->db, off, buf, len, write);
	if (ret) {
		errno = -ret;
		return -1;
	}
	return 0;
}

int rdma_sim_peer_read(struct rdma_sim_peer *peer, uint64_t off, void *buf,
		       size_t len)
{
	return peer_rw(peer, off, buf, len, 0);
}

int rdma_sim_peer_write(struct rdma_sim_peer *peer, uint64_t off,
			const void *buf, size_t len)
{
	return peer_rw(peer, off, (void *)buf, len, 1);
}

void rdma_sim_peer_release(struct rdma_sim_peer *peer)
{
	if (!peer)
		return;
	peer->api->put(peer->db);
	free(peer);
}

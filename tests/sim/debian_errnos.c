// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Bad arguments the kernel itself judges, and the errno the caller sees:
 * the same on Debian's libraries and on ours (run with LD_LIBRARY_PATH).
 *  - ibv_create_cq with the completion channel of another context: the
 *    kernel finds the fd is not an event file of this ufile, EBADF.
 * Usage: debian_errnos DEVICE (built against Debian's libibverbs)
 */
#include <errno.h>
#include <infiniband/verbs.h>
#include <string.h>

#include "judge.h"

static struct ibv_context *open_dev(const char *name)
{
	struct ibv_context *ctx = NULL;
	struct ibv_device **list;
	int i, n;

	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	return ctx;
}

static void foreign_channel(struct ibv_context *a, struct ibv_context *b)
{
	struct ibv_cq_init_attr_ex ax = {.cqe = 4};
	struct ibv_comp_channel *ch = ibv_create_comp_channel(b);
	struct ibv_cq_ex *cqx;
	struct ibv_cq *cq;

	CHECK(ch, "create_comp_channel: %s", strerror(errno));
	if (!ch)
		return;
	errno = 0;
	cq = ibv_create_cq(a, 4, NULL, ch, 0);
	CHECK(!cq && errno == EBADF,
	      "create_cq, channel of another context: %p errno %d (%s), want EBADF",
	      (void *)cq, errno, strerror(errno));
	if (cq)
		ibv_destroy_cq(cq);
	ax.channel = ch;
	errno = 0;
	cqx = ibv_create_cq_ex(a, &ax);
	CHECK(!cqx && errno == EBADF,
	      "create_cq_ex, channel of another context: %p errno %d (%s), want EBADF",
	      (void *)cqx, errno, strerror(errno));
	if (cqx)
		ibv_destroy_cq(ibv_cq_ex_to_cq(cqx));
	/* Its own channel is fine, and the channel is still free to go. */
	cq = ibv_create_cq(b, 4, NULL, ch, 0);
	CHECK(cq, "create_cq on the channel's own context: %s",
	      strerror(errno));
	if (cq)
		CHECK(!ibv_destroy_cq(cq), "destroy_cq");
	CHECK(!ibv_destroy_comp_channel(ch), "destroy_comp_channel");
}

int main(int argc, char **argv)
{
	const char *dev = argc > 1 ? argv[1] : "mlx5_0";
	struct ibv_context *a = open_dev(dev), *b = open_dev(dev);

	CHECK(a && b, "open %s twice: %s", dev, strerror(errno));
	if (a && b) {
		foreign_channel(a, b);
	}
	if (b)
		CHECK(!ibv_close_device(b), "close b");
	if (a)
		CHECK(!ibv_close_device(a), "close a");
	fprintf(stderr, "debian_errnos %s: %d failure(s)\n", dev, failures);
	return failures ? 1 : 0;
}

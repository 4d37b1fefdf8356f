// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * ibv_dm_export: show device memory exported as a dma-buf, step by step.
 *
 * Lists the devices and their device-memory capacity, then COUNT times:
 * allocates DM, writes a pattern and reads it back, exports it as a
 * dma-buf, registers that dma-buf on a second context with
 * ibv_reg_dmabuf_mr(), checks the bytes through a peer device (rdma-sim's,
 * when running under it), moves data into and out of it with RDMA WRITE and
 * READ over an RC queue pair from the owner context, and frees everything.
 * With -u it also exports a doorbell (UAR) page of the owner as a dma-buf,
 * with -b a buffer of the provider's (ibv_alloc_buf on a parent domain
 * allowing confidential-computing bounce memory: a dma-buf of the shared
 * heap on a CoCo guest's device, ordinary memory elsewhere).
 * Exit 0 only if every step passed.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "dm_export_buf.h"
#include "dm_export_peer.h"
#include "dm_export_rdma.h"
#include "dm_export_report.h"
#include "dm_export_uar.h"

struct options {
	const char *device;
	size_t size;
	unsigned int count;
	bool uar;
	bool buf;
};

struct session {
	struct report rep;
	struct ibv_context *ctx;	/* owns the DM */
	struct ibv_context *importer;	/* registers the dma-buf */
	struct ibv_pd *importer_pd;
	uint8_t *pattern;
	uint8_t *readback;
	struct rdma_link link;	/* owner host buffer -> importer's MR */
	bool have_link;
};

static void usage(FILE *out, const char *prog)
{
	fprintf(out,
		"Usage: %s [-d DEVICE] [-s SIZE] [-n COUNT] [-u] [-b]\n"
		"Allocate RDMA device memory, export it as a dma-buf and\n"
		"import it on a second context, printing every step.\n"
		"  -d DEVICE  device to use (default: the first with device "
		"memory)\n"
		"  -s SIZE    bytes of device memory per round (default 4096)\n"
		"  -n COUNT   rounds to run (default 1)\n"
		"  -u         also export a doorbell (UAR) page as a "
		"dma-buf\n"
		"  -b         also export a provider buffer (ibv_alloc_buf) "
		"as a dma-buf\n"
		"  -h         this help\n",
		prog);
}

static int parse_size(const char *s, size_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -1;
	if (*end == 'k' || *end == 'K')
		v <<= 10, end++;
	else if (*end == 'm' || *end == 'M')
		v <<= 20, end++;
	if (*end || v == 0 || v > SIZE_MAX)
		return -1;
	*out = (size_t)v;
	return 0;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	size_t count;
	int c;

	o->device = NULL;
	o->size = 4096;
	o->count = 1;
	o->uar = false;
	o->buf = false;
	while ((c = getopt(argc, argv, "d:s:n:ubh")) != -1) {
		switch (c) {
		case 'd':
			o->device = optarg;
			break;
		case 's':
			if (parse_size(optarg, &o->size)) {
				fprintf(stderr, "bad size '%s'\n", optarg);
				return 2;
			}
			if (o->size < 4) {
				fprintf(stderr, "-s must be at least 4: device "
					"memory moves in 4-byte words\n");
				return 2;
			}
			break;
		case 'n':
			if (parse_size(optarg, &count) || count > 1000000) {
				fprintf(stderr, "bad count '%s'\n", optarg);
				return 2;
			}
			o->count = (unsigned int)count;
			break;
		case 'u':
			o->uar = true;
			break;
		case 'b':
			o->buf = true;
			break;
		case 'h':
			usage(stdout, argv[0]);
			return 0;
		default:
			usage(stderr, argv[0]);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr, argv[0]);
		return 2;
	}
	return -1;
}

/* max_dm_size of @dev, or -errno if it cannot be opened/queried. */
static long long device_dm_size(struct ibv_device *dev)
{
	struct ibv_device_attr_ex attr;
	struct ibv_context *ctx = ibv_open_device(dev);
	int err;

	if (!ctx)
		return -(long long)errno;
	memset(&attr, 0, sizeof(attr));
	err = ibv_query_device_ex(ctx, NULL, &attr);
	ibv_close_device(ctx);
	if (err)
		return -(long long)err;
	return (long long)attr.max_dm_size;
}

/* Why @dm (a device_dm_size() result) makes a device unusable, or NULL. */
static const char *unusable(long long dm)
{
	if (dm < 0)
		return explain_errno("open", (int)-dm);
	if (dm == 0)
		return "it has no device memory (max_dm_size 0)";
	return NULL;
}

/* Print the device table and pick the device to use (NULL: none). */
static struct ibv_device *choose_device(struct ibv_device **list, int num,
					const char *want, size_t size)
{
	struct ibv_device *pick = NULL;
	long long pick_dm = 0, first_err = 0;
	int i;

	printf("Devices:\n");
	for (i = 0; i < num; i++) {
		const char *name = ibv_get_device_name(list[i]);
		long long dm = device_dm_size(list[i]);

		if (dm > 0)
			printf("  %-12s max_dm_size %lld bytes\n", name, dm);
		else
			printf("  %-12s unusable: %s\n", name, unusable(dm));
		if (dm < 0 && !first_err)
			first_err = dm;
		if (want ? !strcmp(name, want) : (!pick && dm > 0)) {
			pick = list[i];
			pick_dm = dm;
		}
	}
	printf("\n");
	if (!pick && want) {
		fprintf(stderr, "error: no device named '%s'\n", want);
		return NULL;
	}
	if (!pick) {
		fprintf(stderr, "error: %s\n",
			first_err ? "no device with device memory could be "
				    "opened (see above)" :
				    "no device has device memory (max_dm_size "
				    "is 0 everywhere)");
		return NULL;
	}
	if (unusable(pick_dm)) {
		fprintf(stderr, "error: cannot use %s: %s\n",
			ibv_get_device_name(pick), unusable(pick_dm));
		return NULL;
	}
	if ((long long)size > pick_dm) {
		fprintf(stderr,
			"error: -s %zu is larger than %s's max_dm_size %lld\n",
			size, ibv_get_device_name(pick), pick_dm);
		return NULL;
	}
	return pick;
}

/* The importer: another device if there is one, else the same device. */
static struct ibv_device *choose_importer(struct ibv_device **list, int num,
					  struct ibv_device *owner)
{
	int i;

	for (i = 0; i < num; i++)
		if (list[i] != owner)
			return list[i];
	return owner;
}

static bool open_contexts(struct session *s, struct ibv_device *owner,
			  struct ibv_device *importer)
{
	struct report *r = &s->rep;

	step_begin(r, "open %s", ibv_get_device_name(owner));
	s->ctx = ibv_open_device(owner);
	if (!step_end(r, s->ctx, "%s",
		      s->ctx ? "" : explain_errno("open", errno)))
		return false;

	step_begin(r, "open %s%s as the importer",
		   ibv_get_device_name(importer),
		   importer == owner ? " again" : "");
	s->importer = ibv_open_device(importer);
	if (!step_end(r, s->importer, "%s",
		      s->importer ? "" : explain_errno("open", errno)))
		return false;

	step_begin(r, "allocate a protection domain on the importer");
	s->importer_pd = ibv_alloc_pd(s->importer);
	return step_end(r, s->importer_pd, "%s",
			s->importer_pd ? "" : explain_errno("pd", errno));
}

static void fill_pattern(uint8_t *p, size_t n, unsigned int round)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 7 + round * 13 + 1);
}

static void open_link(struct session *s, size_t size)
{
	struct report *r = &s->rep;
	const char *what;
	int err;

	step_begin(r, "connect an RC QP pair to the importer");
	err = rdma_link_open(&s->link, s->ctx, s->importer, s->importer_pd,
			     size, &what);
	s->have_link = !err;
	if (err)
		step_end(r, false, "%s", explain_errno(what, err));
	else
		step_end(r, true, "QP 0x%x on %s -> QP 0x%x",
			 s->link.qp->qp_num,
			 ibv_get_device_name(s->ctx->device),
			 s->link.tqp->qp_num);
}

static const char *xfer_error(int err)
{
	if (err <= -1000)
		return ibv_wc_status_str((enum ibv_wc_status)(-err - 1000));
	return explain_errno("rdma", err);
}

/*
 * RDMA WRITE a new pattern from host memory into the dma-buf through the
 * importer's @mr (addresses from iova 0), check it in device memory from
 * the owner, and RDMA READ it back.
 */
static void rdma_round_trip(struct session *s, struct ibv_dm *dm,
			    struct ibv_mr *mr, size_t len, unsigned int round)
{
	struct report *r = &s->rep;
	int err;

	fill_pattern(s->link.host, len, round + 100);
	step_begin(r, "RDMA WRITE %zu bytes into the dma-buf", len);
	err = rdma_link_xfer(&s->link, true, len, mr->rkey, 0);
	if (err) {
		step_end(r, false, "%s", xfer_error(err));
		return;
	}
	step_end(r, true, "from a host buffer, rkey 0x%x", mr->rkey);

	step_begin(r, "check them in device memory");
	memset(s->readback, 0, len);
	err = ibv_memcpy_from_dm(s->readback, dm, 0, len);
	if (err)
		step_end(r, false, "%s", explain_errno("copy", err));
	else
		step_end(r, !memcmp(s->readback, s->link.host, len), "%s",
			 memcmp(s->readback, s->link.host, len) ?
				 "bytes differ" : "");

	memcpy(s->readback, s->link.host, len);
	memset(s->link.host, 0, len);
	step_begin(r, "RDMA READ them back and compare");
	err = rdma_link_xfer(&s->link, false, len, mr->rkey, 0);
	if (err)
		step_end(r, false, "%s", xfer_error(err));
	else
		step_end(r, !memcmp(s->readback, s->link.host, len), "%s",
			 memcmp(s->readback, s->link.host, len) ?
				 "bytes differ" : "");
}

static bool copy_round_trip(struct session *s, struct ibv_dm *dm, size_t len,
			    unsigned int round)
{
	struct report *r = &s->rep;
	int err;

	fill_pattern(s->pattern, len, round);
	step_begin(r, "write %zu bytes into device memory", len);
	err = ibv_memcpy_to_dm(dm, 0, s->pattern, len);
	if (!step_end(r, !err, "%s", err ? explain_errno("copy", err) : ""))
		return false;

	step_begin(r, "read them back and compare");
	memset(s->readback, 0, len);
	err = ibv_memcpy_from_dm(s->readback, dm, 0, len);
	if (err)
		return step_end(r, false, "%s", explain_errno("copy", err));
	return step_end(r, !memcmp(s->readback, s->pattern, len), "%s",
			memcmp(s->readback, s->pattern, len) ?
				"bytes differ" : "");
}

/*
 * Register all @dm_len bytes of @fd on the second context, and check the
 * first @len (what was written) through the peer.
 */
static bool import_and_check(struct session *s, struct ibv_dm *dm, int fd,
			     size_t dm_len, size_t len, unsigned int round)
{
	struct report *r = &s->rep;
	char why[256];
	struct ibv_mr *mr;
	int ret;

	step_begin(r, "register the dma-buf on the importer");
	mr = ibv_reg_dmabuf_mr(s->importer_pd, 0, dm_len, 0, fd,
			       IBV_ACCESS_LOCAL_WRITE |
				       IBV_ACCESS_REMOTE_READ |
				       IBV_ACCESS_REMOTE_WRITE);
	if (!mr)
		step_end(r, false, "%s", explain_errno("import", errno));
	else
		step_end(r, true, "lkey 0x%x rkey 0x%x", mr->lkey, mr->rkey);

	step_begin(r, "peer device reads and writes the dma-buf");
	ret = peer_check(fd, dm, len, s->pattern, round, why, sizeof(why));
	if (ret < 0)
		step_skip(r, "%s", why);
	else
		step_end(r, ret == 1, "%s", why);

	if (mr && s->have_link)
		rdma_round_trip(s, dm, mr, len, round);

	if (mr) {
		step_begin(r, "deregister the imported memory region");
		ret = ibv_dereg_mr(mr);
		step_end(r, !ret, "%s", ret ? strerror(ret) : "");
	}
	return true;
}

static void one_round(struct session *s, size_t size, unsigned int round)
{
	struct ibv_alloc_dm_attr attr = { .length = size, .log_align_req = 3 };
	struct report *r = &s->rep;
	size_t copy_len = size & ~(size_t)3;
	struct ibv_dm *dm;
	int fd, err;

	step_begin(r, "allocate %zu bytes of device memory", size);
	dm = ibv_alloc_dm(s->ctx, &attr);
	if (!step_end(r, dm, "%s", dm ? "" : explain_errno("alloc", errno)))
		return;

	if (copy_len != size)
		printf("     (copies use the first %zu bytes: device memory "
		       "moves in 4-byte words)\n", copy_len);
	copy_round_trip(s, dm, copy_len, round);

	step_begin(r, "export it as a dma-buf");
	fd = ibv_dm_export_dmabuf_fd(dm);
	if (fd < 0) {
		step_end(r, false, "%s", explain_errno("export", errno));
	} else {
		int fdflags = fcntl(fd, F_GETFD);

		step_end(r, fdflags >= 0 && (fdflags & FD_CLOEXEC),
			 "fd %d%s", fd,
			 (fdflags >= 0 && (fdflags & FD_CLOEXEC)) ?
				 " (close-on-exec)" : " WITHOUT close-on-exec");
		import_and_check(s, dm, fd, size, copy_len, round);
		step_begin(r, "close the dma-buf fd");
		err = close(fd) ? errno : 0;
		step_end(r, !err, "%s", err ? strerror(err) : "");
	}

	step_begin(r, "free the device memory");
	err = ibv_free_dm(dm);
	step_end(r, !err, "%s", err ? strerror(err) : "");
}

static void close_session(struct session *s)
{
	struct report *r = &s->rep;
	int err;

	if (s->have_link) {
		step_begin(r, "destroy the queue pair");
		rdma_link_close(&s->link);
		step_end(r, true, "%s", "");
	}
	if (s->importer_pd) {
		step_begin(r, "free the importer's protection domain");
		err = ibv_dealloc_pd(s->importer_pd);
		step_end(r, !err, "%s", err ? strerror(err) : "");
	}
	if (s->importer) {
		step_begin(r, "close the importer context");
		err = ibv_close_device(s->importer) ? errno : 0;
		step_end(r, !err, "%s", err ? strerror(err) : "");
	}
	if (s->ctx) {
		step_begin(r, "close the device");
		err = ibv_close_device(s->ctx) ? errno : 0;
		step_end(r, !err, "%s", err ? strerror(err) : "");
	}
	free(s->pattern);
	free(s->readback);
}

int main(int argc, char **argv)
{
	struct session s = {};
	struct ibv_device **list, *owner;
	struct options o;
	unsigned int round;
	int num, ret;

	ret = parse_options(argc, argv, &o);
	if (ret >= 0)
		return ret;
	setvbuf(stdout, NULL, _IOLBF, 0);

	list = ibv_get_device_list(&num);
	if (!list || num == 0) {
		fprintf(stderr,
			"error: no RDMA devices found%s%s.\n"
			"This machine has no RDMA hardware, or its kernel "
			"driver is not loaded.\nTo see the job done on a "
			"simulated ConnectX device, run:\n"
			"  rdma-sim -- %s\n",
			list ? "" : ": ", list ? "" : strerror(errno),
			argv[0]);
		if (list)
			ibv_free_device_list(list);
		return 1;
	}
	owner = choose_device(list, num, o.device, o.size);
	if (!owner) {
		ibv_free_device_list(list);
		return 1;
	}
	s.pattern = malloc(o.size);
	s.readback = malloc(o.size);
	if (!s.pattern || !s.readback) {
		fprintf(stderr, "error: out of memory\n");
		close_session(&s);
		ibv_free_device_list(list);
		return 1;
	}

	if (open_contexts(&s, owner, choose_importer(list, num, owner))) {
		open_link(&s, o.size);
		for (round = 1; round <= o.count; round++) {
			if (o.count > 1)
				printf("--- round %u of %u\n", round, o.count);
			one_round(&s, o.size, round);
		}
		if (o.uar)
			uar_export_steps(&s.rep, s.ctx);
		if (o.buf)
			buf_export_steps(&s.rep, s.ctx, o.size);
	}
	close_session(&s);
	ibv_free_device_list(list);

	printf("\n%u steps: %u passed, %u failed, %u skipped\n", s.rep.steps,
	       s.rep.steps - s.rep.failed - s.rep.skipped, s.rep.failed,
	       s.rep.skipped);
	return s.rep.failed ? 1 : 0;
}

// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "launcher.h"
#include "device_model.h"

#include <errno.h>
#include <stddef.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct {
	const char *name;
	int value;
} errno_names[] = {
	{"EPERM", EPERM},
	{"ENOENT", ENOENT},
	{"EINTR", EINTR},
	{"EIO", EIO},
	{"EBADF", EBADF},
	{"EAGAIN", EAGAIN},
	{"ENOMEM", ENOMEM},
	{"EACCES", EACCES},
	{"EFAULT", EFAULT},
	{"EBUSY", EBUSY},
	{"EEXIST", EEXIST},
	{"ENODEV", ENODEV},
	{"EINVAL", EINVAL},
	{"ENFILE", ENFILE},
	{"EMFILE", EMFILE},
	{"ENOTTY", ENOTTY},
	{"ENOSPC", ENOSPC},
	{"ENOSYS", ENOSYS},
	{"EPROTONOSUPPORT", EPROTONOSUPPORT},
	{"EOPNOTSUPP", EOPNOTSUPP},
	{"ETIMEDOUT", ETIMEDOUT},
	{"ENXIO", ENXIO},
	{"ERANGE", ERANGE},
};

static const char usage[] =
	"usage: rdma-sim [OPTIONS] -- PROGRAM [ARGS...]\n"
	"Run PROGRAM in a simulated RDMA world (uverbs + mlx5 MEMIC).\n"
	"  --devices N        number of devices (default 1, max 1024)\n"
	"  --dm-size BYTES    MEMIC bytes per device (default 131072, at most\n"
	"                     256 pages)\n"
	"  --no-dm            devices without MEMIC (max_dm_size 0)\n"
	"  --no-dmabuf        kernel without the DMABUF uverbs object\n"
	"  --no-netlink       no RDMA netlink (userspace uses sysfs)\n"
	"  --static-uar       mlx5 kernel without dynamic UARs (before 5.8):\n"
	"                     static UAR pages from alloc_ucontext\n"
	"  --cc-guest         a confidential-computing guest: devices report\n"
	"                     CC_DMA_BOUNCE, /dev/dma_heap/system_cc_shared\n"
	"  --no-dma-heap      kernel without DMA-buf heaps (/dev/dma_heap)\n"
	"  --no-seccomp       no system-call trap: only calls through libc\n"
	"                     reach the simulated kernel (no raw syscalls)\n"
	"  --fail KIND:N:ERR[:commit]  the Nth call of KIND fails with ERR\n"
	"                     (name or number); :commit: a create fails after\n"
	"                     its handler; repeatable, see sim/README.md\n"
	"  --list-fail-kinds  print every KIND --fail accepts\n"
	"  --fault KIND:KEY=VAL,...  make the wire, HCA or kernel misbehave;\n"
	"                     repeatable (up to 16), see sim/README.md:\n"
	"       "
	"drop|dup|reorder|corrupt:rate=P|packet=N[,upto=U][,dev=D][,qp=Q]\n"
	"       delay:rate=P|packet=N[,ms=M][,upto=U][,dev=D][,qp=Q]\n"
	"       link-flap:at=MS,for=MS[,dev=D]\n"
	"       event:type=QP_FATAL|CQ_ERR|SRQ_ERR|PORT_ERR|DEVICE_FATAL|...,\n"
	"             at=MS[,dev=D][,qp=Q]\n"
	"       cqe-error:wqe=N,status=REM_ACCESS_ERR|RETRY_EXC_ERR|...\n"
	"             [,dev=D][,qp=Q]\n"
	"     P is a probability (0.01) or percentage (1%); packets count per\n"
	"     receiving QP; failing the Nth create/modify is --fail\n"
	"  --seed N           seed of --fault's choices (default 1): the same\n"
	"                     seed and program give the same faults\n"
	"  --trace FILE       append every intercepted call to FILE\n"
	"  --driver mlx5|rxe  device model (default mlx5)\n"
	"  --kernel 6.1|6.12  the kernel whose answers differ by version\n"
	"                     (default 6.12)\n"
	"  --link-layer [D=]ib|eth  port link layer of device D (every device\n"
	"                     without D=); eth gives the port a netdev and\n"
	"                     RoCE GIDs (mlx5 default ib, rxe always eth)\n"
	"  --addr D=ADDR/LEN  an address of device D's netdev, repeatable;\n"
	"                     D=none: no address at all\n"
	"                     (default 192.168.1.<D+1>/24, fd00::<D+1>/64;\n"
	"                     IB: 192.168.2.<D+1>/24, fd02::<D+1>/64)\n"
	"  --netns            a network namespace of its own also for a world\n"
	"                     without Ethernet ports (made when one has "
	"them);\n"
	"                     IB ports get IPoIB netdevs ib<D> there\n"
	"  --no-netns         stay in the caller's network namespace (IB "
	"only)\n"
	"  --help             this text\n";

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 0);
	return errno || !*s || *end || *s == '-' ? -1 : 0;
}

static int parse_errno(const char *s)
{
	unsigned int i;
	uint64_t v;

	for (i = 0; i < sizeof(errno_names) / sizeof(errno_names[0]); i++)
		if (!strcmp(errno_names[i].name, s))
			return errno_names[i].value;
	if (parse_u64(s, &v) || !v || v > 4095)
		return -1;
	return (int)v;
}

static int parse_fail(const char *arg, struct sim_launch *l)
{
	struct sim_fail_rule *r;
	char buf[128], *kind, *nth, *err, *when;
	uint64_t n;
	int e;

	if (l->nfail == SIM_MAX_FAIL) {
		fprintf(stderr, "rdma-sim: at most %d --fail rules\n",
			SIM_MAX_FAIL);
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", arg);
	kind = strtok(buf, ":");
	nth = strtok(NULL, ":");
	err = strtok(NULL, ":");
	when = strtok(NULL, "");
	if (!kind || !nth || !err || (when && strcmp(when, "commit"))) {
		fprintf(stderr,
			"rdma-sim: --fail wants KIND:N:ERRNO[:commit], "
			"got '%s'\n",
			arg);
		return -1;
	}
	if (strlen(kind) >= sizeof(l->fail[0].kind)) {
		fprintf(stderr, "rdma-sim: --fail: unknown kind '%s'\n", kind);
		return -1;
	}
	if (parse_u64(nth, &n) || !n || n > UINT32_MAX) {
		fprintf(stderr, "rdma-sim: --fail: N must be >= 1, got '%s'\n",
			nth);
		return -1;
	}
	e = parse_errno(err);
	if (e < 0) {
		fprintf(stderr, "rdma-sim: --fail: bad errno '%s'\n", err);
		return -1;
	}
	r = &l->fail[l->nfail++];
	snprintf(r->kind, sizeof(r->kind), "%s", kind);
	r->nth = (uint32_t)n;
	r->err = (uint32_t)e;
	r->at_commit = when != NULL;
	return 0;
}

static int parse_fault(const char *arg, struct sim_config *cfg)
{
	char err[160];

	if (cfg->nfaults == SIM_MAX_FAULTS) {
		fprintf(stderr, "rdma-sim: at most %d --fault rules\n",
			SIM_MAX_FAULTS);
		return -1;
	}
	if (sim_fault_parse(arg, &cfg->faults[cfg->nfaults], err,
			    sizeof(err))) {
		fprintf(stderr, "rdma-sim: --fault: %s\n", err);
		return -1;
	}
	cfg->nfaults++;
	return 0;
}

enum {
	OPT_DEVICES = 256,
	OPT_DM_SIZE,
	OPT_NO_DM,
	OPT_NO_DMABUF,
	OPT_NO_NETLINK,
	OPT_STATIC_UAR,
	OPT_CC_GUEST,
	OPT_NO_DMA_HEAP,
	OPT_NO_SECCOMP,
	OPT_FAIL,
	OPT_TRACE,
	OPT_DRIVER,
	OPT_LIST_KINDS,
	OPT_FAULT,
	OPT_SEED,
	OPT_LINK_LAYER,
	OPT_ADDR,
	OPT_NO_NETNS,
	OPT_NETNS,
	OPT_KERNEL,
	OPT_HELP
};

static const struct option longopts[] = {
	{"devices", required_argument, NULL, OPT_DEVICES},
	{"dm-size", required_argument, NULL, OPT_DM_SIZE},
	{"no-dm", no_argument, NULL, OPT_NO_DM},
	{"no-dmabuf", no_argument, NULL, OPT_NO_DMABUF},
	{"no-netlink", no_argument, NULL, OPT_NO_NETLINK},
	{"static-uar", no_argument, NULL, OPT_STATIC_UAR},
	{"cc-guest", no_argument, NULL, OPT_CC_GUEST},
	{"no-dma-heap", no_argument, NULL, OPT_NO_DMA_HEAP},
	{"no-seccomp", no_argument, NULL, OPT_NO_SECCOMP},
	{"fail", required_argument, NULL, OPT_FAIL},
	{"trace", required_argument, NULL, OPT_TRACE},
	{"driver", required_argument, NULL, OPT_DRIVER},
	{"list-fail-kinds", no_argument, NULL, OPT_LIST_KINDS},
	{"fault", required_argument, NULL, OPT_FAULT},
	{"seed", required_argument, NULL, OPT_SEED},
	{"link-layer", required_argument, NULL, OPT_LINK_LAYER},
	{"addr", required_argument, NULL, OPT_ADDR},
	{"no-netns", no_argument, NULL, OPT_NO_NETNS},
	{"netns", no_argument, NULL, OPT_NETNS},
	{"kernel", required_argument, NULL, OPT_KERNEL},
	{"help", no_argument, NULL, OPT_HELP},
	{}};

static int set_trace(const char *arg, struct sim_config *cfg)
{
	char cwd[SIM_PATH_LEN];
	int n;

	if (arg[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		n = snprintf(cfg->trace_path, sizeof(cfg->trace_path), "%s",
			     arg);
	else
		n = snprintf(cfg->trace_path, sizeof(cfg->trace_path), "%s/%s",
			     cwd, arg);
	if (n < 0 || (size_t)n >= sizeof(cfg->trace_path)) {
		fprintf(stderr, "rdma-sim: --trace path too long\n");
		return -1;
	}
	return 0;
}

/* "[D=]VALUE": the device (-1 = every device) and VALUE. */
static const char *dev_prefix(const char *arg, int64_t *dev)
{
	const char *eq = strchr(arg, '=');
	char num[16];
	uint64_t v;

	*dev = -1;
	if (!eq)
		return arg;
	if ((size_t)(eq - arg) >= sizeof(num))
		return NULL;
	memcpy(num, arg, (size_t)(eq - arg));
	num[eq - arg] = 0;
	if (parse_u64(num, &v) || v >= SIM_MAX_DEVICES)
		return NULL;
	*dev = (int64_t)v;
	return eq + 1;
}

static int link_ib_asked; /* some --link-layer said ib */

static int parse_link_layer(const char *arg, struct sim_launch *l)
{
	int64_t dev;
	const char *v = dev_prefix(arg, &dev);
	unsigned int d;

	if (!v || (strcmp(v, "ib") && strcmp(v, "eth"))) {
		fprintf(stderr, "rdma-sim: --link-layer wants [D=]ib|eth\n");
		return -1;
	}
	for (d = 0; d < SIM_MAX_DEVICES; d++)
		if (dev < 0 || dev == d)
			l->cfg.link_eth[d] = (uint8_t)(v[0] == 'e');
	link_ib_asked |= v[0] == 'i';
	return 0;
}

static int parse_addr(const char *arg, struct sim_launch *l)
{
	int64_t dev;
	const char *v = dev_prefix(arg, &dev);

	if (!v || dev < 0 || (!strchr(v, '/') && strcmp(v, "none")) ||
	    l->naddr == SIM_MAX_ADDRS) {
		fprintf(stderr, "rdma-sim: --addr wants D=ADDR/LEN or D=none "
				"(at most %d)\n",
			SIM_MAX_ADDRS);
		return -1;
	}
	l->addr_dev[l->naddr] = (unsigned int)dev;
	l->addr[l->naddr++] = v;
	return 0;
}

/* Options that only switch one feature of the world on or off. */
static const struct {
	int opt;
	size_t field; /* offsetof(struct sim_config, ...): a uint8_t */
} flag_opts[] = {
	{OPT_NO_DMABUF, offsetof(struct sim_config, no_dmabuf)},
	{OPT_NO_NETLINK, offsetof(struct sim_config, no_netlink)},
	{OPT_STATIC_UAR, offsetof(struct sim_config, static_uar)},
	{OPT_CC_GUEST, offsetof(struct sim_config, cc_guest)},
	{OPT_NO_DMA_HEAP, offsetof(struct sim_config, no_dma_heap)},
	{OPT_NO_SECCOMP, offsetof(struct sim_config, no_seccomp)},
};

static int parse_one(int opt, const char *arg, struct sim_launch *l, int *no_dm)
{
	const struct sim_device_model *m;
	unsigned int i;
	uint64_t v;

	for (i = 0; i < sizeof(flag_opts) / sizeof(flag_opts[0]); i++)
		if (flag_opts[i].opt == opt) {
			((uint8_t *)&l->cfg)[flag_opts[i].field] = 1;
			return 0;
		}
	switch (opt) {
	case OPT_DEVICES:
		if (parse_u64(arg, &v) || !v || v > SIM_MAX_DEVICES) {
			fprintf(stderr, "rdma-sim: --devices wants 1..%d\n",
				SIM_MAX_DEVICES);
			return -1;
		}
		l->cfg.ndev = (uint32_t)v;
		return 0;
	case OPT_DM_SIZE:
		if (parse_u64(arg, &v) || !v || v > (1ULL << 30) ||
		    v % l->cfg.page_size) {
			fprintf(stderr,
				"rdma-sim: --dm-size wants a multiple of %u up "
				"to 1 GiB\n",
				l->cfg.page_size);
			return -1;
		}
		if (v > (uint64_t)SIM_MEMIC_MAX_PAGES * l->cfg.page_size) {
			fprintf(stderr,
				"rdma-sim: --dm-size %llu is more than a "
				"device has: the kernel manages at most %d "
				"MEMIC pages (%llu bytes) per device\n",
				(unsigned long long)v, SIM_MEMIC_MAX_PAGES,
				(unsigned long long)SIM_MEMIC_MAX_PAGES *
					l->cfg.page_size);
			return -1;
		}
		l->cfg.dm_size = v;
		return 0;
	case OPT_NO_DM:
		*no_dm = 1;
		return 0;
	case OPT_FAIL:
		return parse_fail(arg, l);
	case OPT_FAULT:
		return parse_fault(arg, &l->cfg);
	case OPT_SEED:
		if (parse_u64(arg, &v)) {
			fprintf(stderr, "rdma-sim: --seed wants a number\n");
			return -1;
		}
		l->cfg.seed = v;
		return 0;
	case OPT_LIST_KINDS:
		l->list_kinds = 1;
		return 0;
	case OPT_TRACE:
		return set_trace(arg, &l->cfg);
	case OPT_LINK_LAYER:
		return parse_link_layer(arg, l);
	case OPT_ADDR:
		return parse_addr(arg, l);
	case OPT_NO_NETNS:
		l->cfg.netns = SIM_NETNS_NEVER;
		return 0;
	case OPT_NETNS:
		l->cfg.netns = SIM_NETNS_ALWAYS;
		return 0;
	case OPT_KERNEL:
		if (strcmp(arg, "6.1") && strcmp(arg, "6.12")) {
			fprintf(stderr, "rdma-sim: --kernel wants 6.1 or 6.12\n");
			return -1;
		}
		l->cfg.kernel_61 = !strcmp(arg, "6.1");
		return 0;
	case OPT_DRIVER:
		m = sim_model_by_name(arg);
		if (!m) {
			fprintf(stderr,
				"rdma-sim: --driver wants mlx5 or rxe\n");
			return -1;
		}
		l->cfg.driver = (uint8_t)sim_model_kind(m);
		return 0;
	}
	fputs(usage, stderr);
	return -1;
}

int sim_parse_options(int argc, char **argv, struct sim_launch *l)
{
	int opt, no_dm = 0;

	memset(l, 0, sizeof(*l));
	l->cfg.ndev = 1;
	l->cfg.page_size = (uint32_t)sysconf(_SC_PAGESIZE);
	l->cfg.dm_size = 131072;
	l->cfg.seed = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		if (opt == OPT_HELP || opt == 'h') {
			fputs(usage, stdout);
			return 1;
		}
		if (opt == '?') {
			fprintf(stderr, "rdma-sim: bad option '%s'\n%s",
				argv[optind - 1], usage);
			return -1;
		}
		if (parse_one(opt, optarg, l, &no_dm))
			return -1;
	}
	if (no_dm)
		l->cfg.dm_size = 0;
	if (l->cfg.driver == SIM_DRIVER_RXE) {
		/* soft-RoCE is Ethernet only */
		if (link_ib_asked) {
			fprintf(stderr,
				"rdma-sim: rxe ports are Ethernet only\n");
			return -1;
		}
		memset(l->cfg.link_eth, 1, sizeof(l->cfg.link_eth));
	}
	if (optind >= argc && !l->list_kinds) {
		fprintf(stderr, "rdma-sim: no PROGRAM given\n%s", usage);
		return -1;
	}
	l->argv = &argv[optind];
	return 0;
}

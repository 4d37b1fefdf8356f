// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* GET_CONTEXT / QUERY_CONTEXT / async fd, and the write() path. */
#include "raw.h"

#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static void check_ucontext_req(void)
{
	struct mlx5_ib_alloc_ucontext_req_v2 req = {
		.total_num_bfregs = 16,
		.num_low_latency_bfregs = 4,
		.max_cqe_version = 1,
		.lib_caps = MLX5_LIB_CAP_DYN_UAR,
	};
	struct mlx5_ib_alloc_ucontext_resp r;
	int fd = raw_open();

	EXPECT_ERR(raw_get_context(fd, &req, 12, &r), EINVAL);
	req.flags = 2;
	EXPECT_ERR(raw_get_context(fd, &req, sizeof(req), &r), EOPNOTSUPP);
	req.flags = 0;
	req.comp_mask = 1;
	EXPECT_ERR(raw_get_context(fd, &req, sizeof(req), &r), EOPNOTSUPP);
	req.comp_mask = 0;
	req.flags = MLX5_IB_ALLOC_UCTX_DEVX; /* no DEVX on this device */
	EXPECT_ERR(raw_get_context(fd, &req, sizeof(req), &r), EINVAL);
	req.flags = 0;
	req.num_low_latency_bfregs = 16;
	EXPECT_ERR(raw_get_context(fd, &req, sizeof(req), &r), EINVAL);
	req.num_low_latency_bfregs = 4;
	memset(&r, 0xff, sizeof(r));
	EXPECT_ERR(raw_get_context(fd, &req, sizeof(req), &r), 0);
	EXPECT(r.tot_bfregs == 0 && r.cqe_version == 1 && r.num_ports == 1 &&
		       (r.cmds_supp_uhw & MLX5_USER_CMDS_SUPP_UHW_QUERY_DEVICE),
	       "ucontext resp: tot_bfregs %u cqe %u ports %u", r.tot_bfregs,
	       r.cqe_version, r.num_ports);
	EXPECT_ERR(raw_get_context(fd, &req, sizeof(req), &r), EINVAL);
	close(fd);
	/* v0 request: static UARs, mappable at REGULAR_PAGE offsets */
	fd = raw_open();
	EXPECT_ERR(raw_get_context(fd, &req, 8, &r), 0);
	EXPECT(r.tot_bfregs == 16, "v0 tot_bfregs %u", r.tot_bfregs);
	close(fd);
}

static void check_query_and_async(int fd,
				  const struct mlx5_ib_alloc_ucontext_resp *r0)
{
	struct mlx5_ib_alloc_ucontext_resp r;
	struct raw_ioctl c;
	uint32_t vecs = 0;
	struct stat st;
	int afd;

	raw_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_CONTEXT);
	raw_ptr(&c, UVERBS_ATTR_QUERY_CONTEXT_NUM_COMP_VECTORS, &vecs);
	raw_ptr(&c, MLX5_IB_ATTR_QUERY_CONTEXT_RESP_UCTX, &r);
	EXPECT_ERR(raw_call(fd, &c), 0);
	EXPECT(!memcmp(&r, r0, sizeof(r)) && vecs > 0,
	       "QUERY_CONTEXT differs from GET_CONTEXT");
	raw_init(&c, UVERBS_OBJECT_ASYNC_EVENT,
		 UVERBS_METHOD_ASYNC_EVENT_ALLOC);
	raw_attr(&c, UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE, 0, 0);
	EXPECT_ERR(raw_call(fd, &c), 0);
	afd = (int)c.hdr.attrs[0].data;
	EXPECT(afd >= 0 && (fcntl(afd, F_GETFD) & FD_CLOEXEC),
	       "async fd %d not O_CLOEXEC", afd);
	close(afd);
	EXPECT(!fstat(fd, &st) && S_ISCHR(st.st_mode) &&
		       st.st_rdev == makedev(231, 192),
	       "uverbs0 is not char device 231:192");
}

static void check_dup(int fd)
{
	struct raw_ioctl c;
	int d = dup(fd);

	close(fd);
	raw_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_CONTEXT);
	EXPECT_ERR(raw_call(d, &c), 0); /* the dup keeps the context */
	close(d);
}

void raw_check_context(void)
{
	struct mlx5_ib_alloc_ucontext_resp r;
	int fd;

	check_ucontext_req();
	fd = raw_open_ctx(&r);
	EXPECT(fd >= 0, "context");
	if (fd < 0)
		return;
	check_query_and_async(fd, &r);
	check_dup(fd);
}

/* ---- write() and INVOKE_WRITE ---- */

static void check_ex_query(int fd)
{
	struct ib_uverbs_ex_query_device_resp resp;
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_ex_cmd_hdr ex;
		struct ib_uverbs_ex_query_device cmd;
	} w = {
		.hdr = {.command = IB_USER_VERBS_CMD_FLAG_EXTENDED |
				   IB_USER_VERBS_EX_CMD_QUERY_DEVICE,
			.in_words = 1,
			.out_words = sizeof(resp) / 8},
		.ex = {.response = (uintptr_t)&resp},
	};

	memset(&resp, 0, sizeof(resp));
	EXPECT(write(fd, &w, sizeof(w)) == sizeof(w), "ex_query_device");
	EXPECT(resp.max_dm_size == 131072 && resp.response_length >= 296,
	       "max_dm_size %llu len %u", (unsigned long long)resp.max_dm_size,
	       resp.response_length);
	EXPECT(offsetof(struct ib_uverbs_ex_query_device_resp, max_dm_size) ==
		       288,
	       "layout");
	w.cmd.comp_mask = 1;
	EXPECT(write(fd, &w, sizeof(w)) < 0 && errno == EINVAL,
	       "comp_mask accepted");
	w.cmd.comp_mask = 0;
	w.ex.cmd_hdr_reserved = 1;
	EXPECT(write(fd, &w, sizeof(w)) < 0 && errno == EINVAL,
	       "ex reserved accepted");
}

static void check_invoke_write(int fd)
{
	struct ib_uverbs_alloc_pd_resp resp = {.pd_handle = ~0u};
	struct ib_uverbs_alloc_pd cmd = {};
	struct raw_ioctl c;

	raw_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INVOKE_WRITE);
	raw_attr(&c, UVERBS_ATTR_WRITE_CMD, 8, IB_USER_VERBS_CMD_QUERY_DEVICE);
	raw_attr(&c, UVERBS_ATTR_CORE_IN, 4, 0);
	EXPECT_ERR(raw_call(fd, &c), ENOSPC); /* libibverbs' probe */
	raw_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INVOKE_WRITE);
	raw_attr(&c, UVERBS_ATTR_WRITE_CMD, 8, IB_USER_VERBS_CMD_ALLOC_PD);
	raw_attr(&c, UVERBS_ATTR_CORE_IN, 8, 0);
	raw_ptr(&c, UVERBS_ATTR_CORE_OUT, &resp);
	memcpy(&c.hdr.attrs[1].data, &cmd, 8);
	EXPECT_ERR(raw_call(fd, &c), 0);
	EXPECT(resp.pd_handle != ~0u, "INVOKE_WRITE ALLOC_PD handle");
}

void raw_check_write(void)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_dealloc_pd cmd;
	} dealloc = {.hdr = {.command = IB_USER_VERBS_CMD_DEALLOC_PD,
			     .in_words = sizeof(dealloc) / 4}};
	struct ib_uverbs_get_context_resp gresp;
	struct mlx5_ib_alloc_ucontext_req_v2 req = {
		.total_num_bfregs = 16,
		.num_low_latency_bfregs = 4,
		.lib_caps = MLX5_LIB_CAP_DYN_UAR,
	};
	uint8_t out[sizeof(gresp) + sizeof(struct mlx5_ib_alloc_ucontext_resp)];
	/* header, core request (response pointer), driver request */
	uint8_t get[sizeof(struct ib_uverbs_cmd_hdr) + 8 + sizeof(req)];
	struct ib_uverbs_cmd_hdr h = {
		.command = IB_USER_VERBS_CMD_GET_CONTEXT,
		.in_words = sizeof(get) / 4,
		.out_words = sizeof(out) / 4,
	};
	uint64_t resp_ptr = (uintptr_t)out;
	uint32_t pd;
	int fd = raw_open();

	memcpy(get, &h, sizeof(h));
	memcpy(get + sizeof(h), &resp_ptr, 8);
	memcpy(get + sizeof(h) + 8, &req, sizeof(req));
	EXPECT(write(fd, get, sizeof(get) - 4) < 0 && errno == EINVAL,
	       "short write accepted");
	EXPECT(write(fd, get, sizeof(get)) == sizeof(get), "GET_CONTEXT: %s",
	       strerror(errno));
	memcpy(&gresp, out, sizeof(gresp));
	EXPECT(fcntl((int)gresp.async_fd, F_GETFD) & FD_CLOEXEC,
	       "legacy async fd");
	close((int)gresp.async_fd);
	check_ex_query(fd);
	EXPECT_ERR(raw_alloc_pd(fd, &pd), 0);
	dealloc.cmd.pd_handle = pd;
	EXPECT(write(fd, &dealloc, sizeof(dealloc)) == sizeof(dealloc),
	       "DEALLOC_PD");
	EXPECT(write(fd, &dealloc, sizeof(dealloc)) < 0 && errno == ENOENT,
	       "DEALLOC_PD twice: %s", strerror(errno));
	check_invoke_write(fd);
	close(fd);
}

#define PCI_FN "/sys/devices/pci0000:00/0000:00:02.0/0000:03:00.0"

char *__realpath_chk(const char *path, char *resolved, size_t len);
char *__getcwd_chk(char *out, size_t len, size_t outlen);

/* The text of a sysfs file ("" if it cannot be read). */
static const char *read_attr(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, len - 1) : -1;

	buf[n > 0 ? n : 0] = 0;
	if (fd >= 0)
		close(fd);
	return buf;
}

/* Every lookup through the PCI function resolves, as UCX and hwloc do. */
static void raw_check_pci_paths(void)
{
	char real[4096], cwd[4096], buf[64] = {0};
	ssize_t n;
	char *p;

	n = readlink("/sys/class/infiniband/mlx5_0", buf, sizeof(buf) - 1);
	EXPECT(n > 0 && !strncmp(buf, "../../devices/pci0000:00/", 25),
	       "readlink class link: %s", buf);
	EXPECT(__realpath_chk("/sys/class/infiniband/mlx5_0/device", real,
			      sizeof(real)) &&
		       !strcmp(real, PCI_FN),
	       "__realpath_chk device: %s", real);
	p = canonicalize_file_name("/sys/bus/pci/devices/0000:03:00.0");
	EXPECT(p && !strcmp(p, PCI_FN), "canonicalize bus link: %s", p);
	free(p);
	/* what UCX reads from the resolved path */
	EXPECT(!strcmp(read_attr(PCI_FN "/vendor", buf, sizeof(buf)),
		       "0x15b3\n"),
	       "vendor: %s", buf);
	EXPECT(!strcmp(read_attr("/sys/bus/pci/devices/0000:03:00.0/"
				 "current_link_width",
				 buf, sizeof(buf)),
		       "16\n"),
	       "link width: %s", buf);
	EXPECT(getcwd(cwd, sizeof(cwd)) != NULL, "getcwd");
	EXPECT(!chdir("/sys/class/infiniband/mlx5_0/device") &&
		       __getcwd_chk(real, sizeof(real), sizeof(real)) &&
		       !strcmp(real, PCI_FN) &&
		       !access("infiniband/mlx5_0", F_OK),
	       "chdir into the function: %s", real);
	EXPECT(!chdir(cwd), "chdir back");
	EXPECT(access(PCI_FN "/../0000:03:00.1", F_OK) && errno == ENOENT,
	       "a second function with one device");
}

/* The path interposers: every way upstream code looks at the tree. */
void raw_check_paths(void)
{
	char real[4096];
	struct dirent **list;
	struct stat st;
	int n, i;

	n = scandir("/sys/class/infiniband/mlx5_0/ports", &list, NULL,
		    alphasort);
	EXPECT(n == 3 && !strcmp(list[2]->d_name, "1"), "scandir ports: %d", n);
	for (i = 0; i < n; i++)
		free(list[i]);
	if (n >= 0)
		free(list);
	EXPECT(!access("/dev/infiniband/uverbs0", R_OK | W_OK), "access");
	EXPECT(!stat("/dev/infiniband/uverbs0", &st) && S_ISCHR(st.st_mode) &&
		       st.st_rdev == makedev(231, 192),
	       "stat uverbs0");
	EXPECT(stat("/dev/infiniband/uverbs1", &st) && errno == ENOENT,
	       "uverbs1 exists with one device");
	/* the class device lives below its PCI function, as on a host */
	EXPECT(realpath("/sys/class/infiniband/mlx5_0", real) &&
		       !strcmp(real, PCI_FN "/infiniband/mlx5_0"),
	       "realpath: %s", real);
	raw_check_pci_paths();
	EXPECT(!stat("/sys/class/infiniband_verbs/abi_version", &st) &&
		       S_ISREG(st.st_mode),
	       "abi_version");
}

// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A program that reaches the kernel with syscall(2) only, never through
 * libc's wrappers: what Go, Rust's raw backends and static runtimes do.
 * Under rdma-sim every call must get the simulated kernel's answer, as a
 * libc call does: sysfs and /dev/infiniband paths, uverbs ioctls and
 * write commands, MEMIC mmap, the uverbs fd's EINVAL/ESPIPE, the sim's
 * hidden fds, in a thread and a fork child too. A SIGSYS handler of the
 * program's own still gets its signals.
 *
 * --unserved: under rdma-sim --no-seccomp, raw calls are not served (the
 * switch works) while libc's are.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rdma/ib_user_verbs.h>
#include <rdma/mlx5-abi.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/rdma_user_ioctl.h>

#include "judge.h"
#include "raw_ioctl.h"

/* A raw call's errno (0 on success). */
static int sys_err(long ret)
{
	return ret < 0 ? errno : 0;
}

static int sys_ioctl(int fd, struct raw_ioctl *c)
{
	return sys_err(syscall(SYS_ioctl, fd, RDMA_VERBS_IOCTL, &c->hdr));
}

static int sys_open(const char *path, int flags)
{
	return (int)syscall(SYS_openat, AT_FDCWD, path, flags, 0);
}

/* chdir into the class device and getcwd name its PCI function's path. */
static void check_pci_cwd(void)
{
	static const char want[] = "/sys/devices/pci0000:00/0000:00:02.0/"
				   "0000:03:00.0/infiniband/mlx5_0";
	char cwd[4096], buf[4096];
	long n;

	CHECK(syscall(SYS_getcwd, cwd, sizeof(cwd)) > 0, "getcwd: %m");
	CHECK(!syscall(SYS_chdir, "/sys/class/infiniband/mlx5_0"),
	      "chdir class device: %m");
	n = syscall(SYS_getcwd, buf, sizeof(buf));
	CHECK(n == (long)sizeof(want) && !strcmp(buf, want), "getcwd %ld '%s'",
	      n, buf);
	CHECK(!syscall(SYS_chdir, cwd), "chdir back: %m");
}

static void check_sysfs(void)
{
	char buf[32] = {};
	int fd = sys_open("/sys/class/infiniband/mlx5_0/node_type", O_RDONLY);
	long n;

	CHECK(fd >= 0, "openat node_type: %m");
	n = syscall(SYS_read, fd, buf, sizeof(buf) - 1);
	CHECK(n == 6 && !strcmp(buf, "1: CA\n"), "node_type read %ld '%s'", n,
	      buf);
	CHECK(!syscall(SYS_close, fd), "close: %m");
	check_pci_cwd();
}

static int open_context(void)
{
	struct mlx5_ib_alloc_ucontext_req_v2 req = {
		.total_num_bfregs = 16,
		.num_low_latency_bfregs = 4,
		.max_cqe_version = 1,
		.lib_caps = MLX5_LIB_CAP_4K_UAR | MLX5_LIB_CAP_DYN_UAR,
	};
	struct mlx5_ib_alloc_ucontext_resp resp = {};
	struct raw_ioctl c;
	uint64_t support;
	uint32_t vecs;
	struct stat st;
	int fd = sys_open("/dev/infiniband/uverbs0", O_RDWR | O_CLOEXEC);

	CHECK(fd >= 0, "openat uverbs0: %m");
	CHECK(!syscall(SYS_fstat, fd, &st) && S_ISCHR(st.st_mode) &&
		      major(st.st_rdev) == 231 && minor(st.st_rdev) == 192,
	      "fstat uverbs0: mode %o rdev %u:%u", st.st_mode,
	      major(st.st_rdev), minor(st.st_rdev));
	raw_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT);
	raw_ptr(&c, UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS, &vecs);
	raw_ptr(&c, UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT, &support);
	raw_attr(&c, UVERBS_ATTR_UHW_IN, sizeof(req), (uintptr_t)&req);
	raw_ptr(&c, UVERBS_ATTR_UHW_OUT, &resp);
	CHECK(!sys_ioctl(fd, &c), "GET_CONTEXT: %m");
	CHECK(resp.cqe_version == 1 && resp.tot_bfregs == 0 && vecs == 2,
	      "context: cqe_version %u tot_bfregs %u vectors %u",
	      resp.cqe_version, resp.tot_bfregs, vecs);
	return fd;
}

static int query_port(int fd)
{
	struct ib_uverbs_query_port_resp_ex r = {};
	struct raw_ioctl c;
	int err;

	raw_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT);
	raw_attr(&c, UVERBS_ATTR_QUERY_PORT_PORT_NUM, 8, 1);
	raw_ptr(&c, UVERBS_ATTR_QUERY_PORT_RESP, &r);
	err = sys_ioctl(fd, &c);
	if (!err && r.legacy_resp.state != 4) /* IBV_PORT_ACTIVE */
		return -1;
	return err;
}

static void check_write_cmd(int fd)
{
	struct ib_uverbs_query_device_resp r = {};
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_query_device cmd;
	} w = {
		.hdr = {.command = IB_USER_VERBS_CMD_QUERY_DEVICE,
			.in_words = sizeof(w) / 4,
			.out_words = sizeof(r) / 4},
		.cmd = {.response = (uintptr_t)&r},
	};

	CHECK(syscall(SYS_write, fd, &w, sizeof(w)) == sizeof(w),
	      "write QUERY_DEVICE: %m");
	CHECK(r.vendor_id == 0x02c9 && r.vendor_part_id == 0x101d &&
		      r.phys_port_cnt == 1,
	      "QUERY_DEVICE vendor %#x part %#x ports %u", r.vendor_id,
	      r.vendor_part_id, r.phys_port_cnt);
}

/* DM_ALLOC, then the same MEMIC page through a raw and a libc mapping. */
static void check_memic(int fd)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t start = 0, off;
	uint16_t idx = 0;
	struct raw_ioctl c;
	uint32_t dm;
	char *a, *b;

	raw_init(&c, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC);
	raw_attr(&c, UVERBS_ATTR_ALLOC_DM_HANDLE, 0, 0);
	raw_attr(&c, UVERBS_ATTR_ALLOC_DM_LENGTH, 8, (uint64_t)page);
	raw_attr(&c, UVERBS_ATTR_ALLOC_DM_ALIGNMENT, 4, 0);
	raw_ptr(&c, MLX5_IB_ATTR_ALLOC_DM_RESP_START_OFFSET, &start);
	raw_ptr(&c, MLX5_IB_ATTR_ALLOC_DM_RESP_PAGE_INDEX, &idx);
	CHECK(!sys_ioctl(fd, &c), "DM_ALLOC: %m");
	dm = (uint32_t)c.hdr.attrs[0].data;
	off = (((uint64_t)MLX5_IB_MMAP_DEVICE_MEM << 8) | (idx & 0xff) |
	       ((uint64_t)(idx >> 8) << 16)) *
	      (uint64_t)page;
	a = (char *)syscall(SYS_mmap, NULL, page, PROT_READ | PROT_WRITE,
			    MAP_SHARED, fd, off);
	b = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, (off_t)off);
	CHECK(a != MAP_FAILED && b != MAP_FAILED, "mmap MEMIC: %m");
	if (a != MAP_FAILED && b != MAP_FAILED) {
		memcpy(a, "through syscall(2)", 19);
		CHECK(!memcmp(b, "through syscall(2)", 19),
		      "MEMIC bytes differ between mappings: '%.19s'", b);
		CHECK(sys_err(syscall(SYS_mmap, NULL, page, PROT_READ,
				      MAP_PRIVATE, fd, off)) == EINVAL,
		      "private mapping of MEMIC: want EINVAL");
		CHECK(!syscall(SYS_munmap, a, page) && !munmap(b, page),
		      "munmap: %m");
	}
	CHECK(!raw_destroy(fd, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_FREE, dm),
	      "DM_FREE");
}

/* The uverbs fd is no /dev/null to a raw caller either. */
static void check_errnos(int fd)
{
	char buf[8];

	CHECK(sys_err(syscall(SYS_read, fd, buf, sizeof(buf))) == EINVAL,
	      "read uverbs: want EINVAL");
	CHECK(sys_err(syscall(SYS_lseek, fd, 0, SEEK_SET)) == ESPIPE,
	      "lseek uverbs: want ESPIPE");
	CHECK(sys_err(syscall(SYS_ioctl, fd, 0x5401 /* TCGETS */, buf)) ==
		      ENOTTY,
	      "TCGETS on uverbs: want ENOTTY");
}

/* The sim's own fds (900 and up) are not the program's, raw or not. */
static void check_hidden_fds(int ctx)
{
	char path[64];
	struct dirent *de;
	int n = 0, fd;
	DIR *d = opendir("/proc/self/fd");

	while (d && (de = readdir(d))) {
		fd = atoi(de->d_name);
		if (fd < 900 || fd == dirfd(d))
			continue;
		n++;
		snprintf(path, sizeof(path), "fd %d", fd);
		CHECK(sys_err(syscall(SYS_fcntl, fd, F_GETFD)) == EBADF,
		      "%s: raw fcntl reaches a hidden fd", path);
		CHECK(sys_err(syscall(SYS_close, fd)) == EBADF,
		      "%s: raw close reaches a hidden fd", path);
		CHECK(sys_err(syscall(SYS_dup, fd)) == EBADF,
		      "%s: raw dup reaches a hidden fd", path);
	}
	if (d)
		closedir(d);
	CHECK(n > 0, "no hidden fd of the sim found");
	check_memic(ctx); /* the MEMIC backing file is still the sim's */
}

static void *thread_main(void *arg)
{
	return (void *)(long)query_port(*(int *)arg);
}

/* A helper thread that blocks every signal, as libfabric's and others'
 * do, then makes served calls through syscall(2) (libfabric's memory
 * hooks unmap so): the trap must still serve them, not kill the process. */
static void *masked_main(void *arg)
{
	sigset_t all;
	void *p;
	long r;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return (void *)1L;
	r = syscall(SYS_munmap, p, 4096);
	if (r)
		return (void *)2L;
	return (void *)(long)query_port(*(int *)arg);
}

static void check_thread_and_fork(int fd)
{
	pthread_t t;
	void *ret = (void *)-1L;
	int status = -1;
	pid_t pid;

	CHECK(!pthread_create(&t, NULL, thread_main, &fd) &&
		      !pthread_join(t, &ret) && !ret,
	      "QUERY_PORT in a thread: %ld", (long)ret);
	ret = (void *)-1L;
	CHECK(!pthread_create(&t, NULL, masked_main, &fd) &&
		      !pthread_join(t, &ret) && !ret,
	      "munmap and QUERY_PORT in a thread blocking all signals: %ld",
	      (long)ret);
	pid = fork();
	if (!pid)
		_exit(query_port(fd) ? 1 : 0);
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		      !WEXITSTATUS(status),
	      "QUERY_PORT in a fork child: status %#x", status);
}

static volatile sig_atomic_t got_sigsys;

static void on_sigsys(int sig)
{
	got_sigsys = sig;
}

/* The program's SIGSYS handler still gets SIGSYS; raw calls stay served. */
static void check_own_sigsys(int fd)
{
	struct sigaction sa = {.sa_handler = on_sigsys}, old;
	char buf[8];

	CHECK(!sigaction(SIGSYS, &sa, NULL), "sigaction SIGSYS: %m");
	CHECK(!sigaction(SIGSYS, NULL, &old) && old.sa_handler == on_sigsys,
	      "sigaction does not report the program's handler");
	CHECK(!raise(SIGSYS) && got_sigsys == SIGSYS,
	      "the program's SIGSYS handler did not run");
	CHECK(sys_err(syscall(SYS_read, fd, buf, sizeof(buf))) == EINVAL,
	      "raw read of uverbs after the program's sigaction");
	sa.sa_handler = SIG_DFL;
	CHECK(!sigaction(SIGSYS, &sa, NULL), "sigaction SIG_DFL: %m");
}

static int check_unserved(void)
{
	char buf[8];
	int fd = sys_open("/dev/infiniband/uverbs0", O_RDWR);

	CHECK(fd < 0 && errno == ENOENT, "raw openat served without the trap");
	fd = open("/dev/infiniband/uverbs0", O_RDWR);
	CHECK(fd >= 0, "libc open: %m");
	CHECK(read(fd, buf, sizeof(buf)) < 0 && errno == EINVAL,
	      "libc read of uverbs: want EINVAL");
	CHECK(syscall(SYS_read, fd, buf, sizeof(buf)) == 0,
	      "raw read served without the trap (or not /dev/null)");
	close(fd);
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	int fd;

	raw_driver_id = RDMA_DRIVER_MLX5;
	if (argc > 1 && !strcmp(argv[1], "--unserved"))
		return check_unserved();
	check_sysfs();
	fd = open_context();
	CHECK(!query_port(fd), "QUERY_PORT through syscall(2)");
	check_write_cmd(fd);
	check_memic(fd);
	check_errnos(fd);
	check_hidden_fds(fd);
	check_thread_and_fork(fd);
	check_own_sigsys(fd);
	CHECK(!syscall(SYS_close, fd), "close uverbs: %m");
	CHECK(sys_err(syscall(SYS_ioctl, fd, RDMA_VERBS_IOCTL, NULL)) == EBADF,
	      "ioctl after raw close: want EBADF");
	fd = open_context(); /* the closed number is a fresh context again */
	CHECK(!query_port(fd), "QUERY_PORT on a reopened context");
	syscall(SYS_close, fd);
	if (failures)
		fprintf(stderr, "raw_syscall: %d failure(s)\n", failures);
	else
		printf("raw_syscall: all checks passed\n");
	return failures ? 1 : 0;
}

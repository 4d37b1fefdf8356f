// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * fd interposers: calls on simulated fds go to the model through their
 * kind's file operations (fops.c), everything else straight to libc.
 * dup'ed fds share the open file, like the kernel's struct file; the last
 * close releases it.
 */
#include "sim.h"
#include "fops.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/close_range.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

static uint8_t fd_kind(int fd)
{
	return sim_fd_kind(fd);
}

static int fail_errno(int err)
{
	errno = err;
	return -1;
}

/* An open file whose row says it is released only once the kernel has
 * really closed the fd (a dma-buf's export): held across the close. */
struct held_file {
	const struct sim_fops *op;
	void *file;
};

/* Needs sim_lock. */
static struct held_file hold_file(int fd)
{
	struct sim_fd *f = sim_fd_get(fd);
	struct held_file h = {};

	h.op = f ? sim_fops_of(f->kind) : NULL;
	if (!h.op || !h.op->put_after_close)
		return (struct held_file){};
	h.file = f->any;
	h.op->get(h.file);
	return h;
}

static void release_file(struct held_file h)
{
	if (!h.op)
		return;
	sim_lock_take();
	h.op->put(-1, h.file);
	sim_lock_drop();
}

int close(int fd)
{
	struct held_file held = {};
	int ret;

	sim_real_init();
	if (sim_fd_tracked(fd)) {
		sim_lock_take();
		if (sim_fd_internal(fd)) {
			sim_lock_drop();
			return fail_errno(EBADF); /* not the program's */
		}
		held = hold_file(fd);
		sim_fd_drop(fd);
		sim_lock_drop();
		sim_trace("close fd %d", fd);
	}
	ret = real.close(fd);
	release_file(held);
	return ret;
}

/* close_range that steps over the sim's own fds. Needs sim_lock. */
static int close_sparing(unsigned int lo, unsigned int hi, int flags,
			 int (*next)(unsigned int, unsigned int, int))
{
	unsigned int fd, start = lo,
			 top = hi < SIM_MAX_FDS ? hi : SIM_MAX_FDS - 1;
	int ret = 0;

	for (fd = lo; fd <= top && !ret; fd++) {
		if (sim_fds[fd].kind != SIM_FD_INTERNAL)
			continue;
		if (fd > start)
			ret = next(start, fd - 1, flags);
		start = fd + 1;
	}
	if (!ret && start <= hi)
		ret = next(start, hi, flags);
	if (ret || (flags & CLOSE_RANGE_CLOEXEC))
		return ret;
	/* forget every simulated fd the kernel just closed */
	for (fd = lo; fd <= top; fd++)
		if (sim_fds[fd].kind)
			sim_fd_drop((int)fd);
	return 0;
}

int close_range(unsigned int lo, unsigned int hi, int flags)
{
	static int (*next)(unsigned int, unsigned int, int);
	int ret;

	if (!next)
		*(void **)&next = dlsym_next("close_range");
	if (!sim_fds || lo > hi)
		return next(lo, hi, flags);
	sim_lock_take();
	ret = close_sparing(lo, hi, flags, next);
	sim_lock_drop();
	return ret;
}

void closefrom(int lo)
{
	close_range(lo < 0 ? 0 : (unsigned int)lo, ~0u, 0);
}

/* After a successful dup of old onto new, share old's open file. */
static int dup_track(int old, int new)
{
	struct sim_fd *src;

	if (new < 0 || !sim_fd_tracked(old))
		return new;
	sim_lock_take();
	src = sim_fd_get(old);
	if (src && sim_fd_set(new, src->kind, src->any)) {
		sim_lock_drop();
		real.close(new);
		errno = EMFILE;
		return -1;
	}
	sim_lock_drop();
	sim_trace("dup fd %d -> fd %d", old, new);
	return new;
}

/*
 * The target of dup2/dup3 is closed implicitly; if the sim keeps one of
 * its own fds there, that one moves away first.
 */
static int drop_target(int old, int new, struct held_file *held)
{
	int ret = 0;

	*held = (struct held_file){};
	if (old == new || !sim_fd_tracked(new))
		return 0;
	sim_lock_take();
	if (sim_fd_internal(new)) {
		ret = sim_internal_fd_evict(new);
	} else {
		*held = hold_file(new);
		sim_fd_drop(new);
	}
	sim_lock_drop();
	return ret ? fail_errno(-ret) : 0;
}

int dup(int fd)
{
	sim_real_init();
	if (sim_fd_internal(fd))
		return fail_errno(EBADF);
	return dup_track(fd, real.dup(fd));
}

int dup2(int old, int new)
{
	struct held_file held;
	int ret;

	sim_real_init();
	if (fcntl(old, F_GETFD) < 0 || drop_target(old, new, &held))
		return -1;
	if (old == new)
		return real.dup2(old, new);
	ret = dup_track(old, real.dup2(old, new));
	release_file(held);
	return ret;
}

int dup3(int old, int new, int flags)
{
	struct held_file held = {};
	int ret;

	sim_real_init();
	if (sim_fd_internal(old))
		return fail_errno(EBADF);
	if (old != new &&fcntl(old, F_GETFD) >= 0 && drop_target(old, new, &held))
		return -1;
	ret = dup_track(old, real.dup3(old, new, flags));
	release_file(held);
	return ret;
}

static int do_fcntl(int fd, int cmd, unsigned long arg)
{
	const struct sim_fops *op;
	int ret;

	sim_real_init();
	if (sim_fd_internal(fd))
		return fail_errno(EBADF);
	ret = real.fcntl(fd, cmd, arg);
	op = sim_fops_of(fd_kind(fd));
	if (cmd == F_GETFL && ret >= 0 && op && op->getfl)
		return op->getfl(ret);
	if (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC)
		return dup_track(fd, ret);
	return ret;
}

int fcntl(int fd, int cmd, ...)
{
	unsigned long arg;
	va_list ap;

	va_start(ap, cmd);
	arg = va_arg(ap, unsigned long);
	va_end(ap);
	return do_fcntl(fd, cmd, arg);
}

int fcntl64(int fd, int cmd, ...) __attribute__((alias("fcntl")));

/*
 * The operations of fd's kind, or NULL with *err: 0 when fd is not
 * simulated (libc's call), EBADF for the sim's own fds.
 */
static const struct sim_fops *fops_get(int fd, int *err)
{
	uint8_t kind = fd_kind(fd);

	*err = kind == SIM_FD_INTERNAL ? EBADF : 0;
	return sim_fops_of(kind);
}

/* --fail's answer for this call of a kind that it reaches, or 0. */
static int injected(const struct sim_fops *op, uint8_t bit, const char *kind)
{
	return (op->inject & bit) ? sim_fail(kind) : 0;
}

static ssize_t ret_errno(ssize_t r)
{
	return r < 0 ? fail_errno((int)-r) : r;
}

int ioctl(int fd, unsigned long req, ...)
{
	const struct sim_fops *op;
	void *arg;
	va_list ap;
	int err;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	sim_real_init();
	op = fops_get(fd, &err);
	if (!op)
		return err ? fail_errno(err) : real.ioctl(fd, req, arg);
	err = injected(op, SIM_INJECT_IOCTL, "ioctl");
	if (err) {
		sim_trace("ioctl fd %d cmd %#lx -> %s (injected)", fd, req,
			  strerrorname_np(err));
		return fail_errno(err);
	}
	if (!op->ioctl) {
		sim_trace("ioctl fd %d cmd %#lx -> ENOTTY", fd, req);
		return fail_errno(ENOTTY);
	}
	return (int)ret_errno(op->ioctl(fd, req, arg));
}

ssize_t write(int fd, const void *buf, size_t count)
{
	const struct sim_fops *op;
	int err;

	sim_real_init();
	op = fops_get(fd, &err);
	if (!op)
		return err ? fail_errno(err) : real.write(fd, buf, count);
	err = injected(op, SIM_INJECT_WRITE, "write");
	if (err) {
		sim_trace("write fd %d len %zu -> %s (injected)", fd, count,
			  strerrorname_np(err));
		return fail_errno(err);
	}
	return op->write ? ret_errno(op->write(fd, buf, count))
			 : fail_errno(EINVAL);
}

ssize_t read(int fd, void *buf, size_t count)
{
	const struct sim_fops *op;
	int err;

	sim_real_init();
	op = fops_get(fd, &err);
	if (!op)
		return err ? fail_errno(err) : real.read(fd, buf, count);
	return op->read ? ret_errno(op->read(fd, buf, count))
			: fail_errno(EINVAL);
}

static off_t do_lseek(int fd, off_t off, int whence)
{
	const struct sim_fops *op;
	int err;

	sim_real_init();
	op = fops_get(fd, &err);
	if (!op)
		return err ? fail_errno(err) : real.lseek(fd, off, whence);
	return op->llseek ? (off_t)ret_errno(op->llseek(fd, off, whence))
			  : fail_errno(ESPIPE);
}

off_t lseek(int fd, off_t off, int whence)
{
	return do_lseek(fd, off, whence);
}

off_t lseek64(int fd, off_t off, int whence) __attribute__((alias("lseek")));

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	const struct sim_fops *op = NULL;
	int err = 0;

	sim_real_init();
	if (!(flags & MAP_ANONYMOUS))
		op = fops_get(fd, &err);
	if (!op && !err)
		return real.mmap(addr, len, prot, flags, fd, off);
	if (op)
		err = injected(op, SIM_INJECT_MMAP, "mmap");
	if (!err && !op->mmap)
		err = ENODEV;
	if (err) {
		if (op)
			sim_trace("mmap fd %d len %zu off %#llx -> %s", fd, len,
				  (unsigned long long)off,
				  strerrorname_np(err));
		errno = err;
		return MAP_FAILED;
	}
	return op->mmap(fd, addr, len, prot, flags, off);
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
	__attribute__((alias("mmap")));

/*
 * mremap of a sim mapping: the kernel's device mappings (VM_DONTEXPAND)
 * can move but not grow (EFAULT); a moved one keeps holding its context.
 */
void *mremap(void *old, size_t old_len, size_t new_len, int flags, ...)
{
	void *fixed = NULL, *p;
	int known;
	va_list ap;

	sim_real_init();
	if (flags & MREMAP_FIXED) {
		va_start(ap, flags);
		fixed = va_arg(ap, void *);
		va_end(ap);
	}
	if (!sim.active)
		return real.mremap(old, old_len, new_len, flags, fixed);
	sim_lock_take();
	known = sim_map_known(old, old_len);
	sim_lock_drop();
	if (known && new_len > old_len) {
		errno = EFAULT;
		return MAP_FAILED;
	}
	p = real.mremap(old, old_len, new_len, flags, fixed);
	if (p != MAP_FAILED && known) {
		sim_lock_take();
		sim_mremap_note(old, old_len, p, new_len);
		sim_lock_drop();
	}
	return p;
}

int munmap(void *addr, size_t len)
{
	int ret;

	sim_real_init();
	ret = real.munmap(addr, len);
	if (!ret && sim.active) {
		sim_lock_take();
		sim_munmap_note(addr, len);
		sim_lock_drop();
	}
	return ret;
}

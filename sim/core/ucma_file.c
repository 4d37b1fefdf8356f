// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * /dev/infiniband/rdma_cm: the device node, its write() framing, the
 * shared table every process maps, per-file event queues and GET_EVENT,
 * and the files of processes that died (the kernel closes them: their ids
 * are destroyed, peers get REJ or DREQ).
 */
#include "sim.h"
#include "ucma.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

struct ucma_world *ucma_w;

uint64_t ucma_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void ucma_lock(void)
{
	sim_shared_lock(sim.sh);
}

void ucma_unlock(void)
{
	sim_shared_unlock(sim.sh);
}

/* The first opener sizes the file and chains the free events. Needs
 * sim_lock; takes the shared lock. */
int ucma_world_map(void)
{
	char path[SIM_PATH_LEN + 16];
	struct ucma_world *w;
	int fd, i;

	if (ucma_w)
		return 0;
	snprintf(path, sizeof(path), "%s/ucma", sim.dir);
	fd = sim_open_private(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	ucma_lock();
	if (ftruncate(fd, sizeof(*w))) {
		ucma_unlock();
		sim_close_private(fd);
		return -errno;
	}
	w = sys.mmap(NULL, sizeof(*w), PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		     0);
	sim_close_private(fd);
	if (w == MAP_FAILED) {
		ucma_unlock();
		return -ENOMEM;
	}
	if (w->magic != UCMA_MAGIC) {
		for (i = 0; i < UCMA_MAX_EVENTS; i++)
			w->ev[i].next = i + 1 < UCMA_MAX_EVENTS ? i + 1 : -1;
		w->free_ev = 0;
		w->magic = UCMA_MAGIC;
		ucma_w = w;
		ucma_neigh_start();
	}
	ucma_unlock();
	ucma_w = w;
	return 0;
}

void ucma_fifo_path(char *buf, size_t len, int f, uint32_t gen)
{
	snprintf(buf, len, "%s/ucma.%d.%u", sim.dir, f, gen);
}

/* One byte into file f's FIFO per queued event: whoever queues it. */
static void fifo_token(int f)
{
	char path[SIM_PATH_LEN + 32];
	int fd;

	ucma_fifo_path(path, sizeof(path), f, ucma_w->files[f].gen);
	fd = sys.open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return;
	if (sys.write(fd, "e", 1) != 1)
		sim_trace("ucma: event token of file %d lost", f);
	sys.close(fd);
}

void ucma_event_raw(int f, int i, const struct rdma_ucm_event_resp *resp)
{
	struct ucma_file *uf = &ucma_w->files[f];
	struct ucma_event *e;
	int n = ucma_w->free_ev;

	if (n < 0) {
		sim_trace("ucma: event queue full, event %u of id %d lost",
			  resp->event, i);
		return;
	}
	e = &ucma_w->ev[n];
	ucma_w->free_ev = e->next;
	e->next = -1;
	e->id = i;
	e->id_gen = ucma_w->ids[i].gen;
	e->resp = *resp;
	if (uf->tail >= 0)
		ucma_w->ev[uf->tail].next = n;
	else
		uf->head = n;
	uf->tail = n;
	uf->count++;
	fifo_token(f);
}

void ucma_event(int i, uint32_t event, int32_t status,
		const struct rdma_ucm_event_resp *param)
{
	struct ucma_id *id = &ucma_w->ids[i];
	struct rdma_ucm_event_resp r;

	if (!id->uid && event != RDMA_CM_EVENT_CONNECT_REQUEST)
		return; /* a new passive id nobody accepted yet */
	if (param)
		r = *param;
	else
		memset(&r, 0, sizeof(r));
	r.uid = id->uid;
	r.id = (uint32_t)i;
	r.event = event;
	r.status = (uint32_t)status;
	ucma_event_raw(id->file, i, &r);
}

/* Unlink event n (after prev, or the head) from file f's queue. */
static void event_unlink(int f, int prev, int n)
{
	struct ucma_file *uf = &ucma_w->files[f];
	struct ucma_event *e = &ucma_w->ev[n];

	if (prev < 0)
		uf->head = e->next;
	else
		ucma_w->ev[prev].next = e->next;
	if (uf->tail == n)
		uf->tail = prev;
	uf->count--;
	e->next = ucma_w->free_ev;
	ucma_w->free_ev = n;
}

static int is_mc_event(uint32_t event)
{
	return event == RDMA_CM_EVENT_MULTICAST_JOIN ||
	       event == RDMA_CM_EVENT_MULTICAST_ERROR;
}

void ucma_events_purge(int i, int mc)
{
	int f = ucma_w->ids[i].file, n, prev = -1, next;
	struct ucma_event *e;

	for (n = ucma_w->files[f].head; n >= 0; n = next) {
		e = &ucma_w->ev[n];
		next = e->next;
		if (e->id != i || e->id_gen != ucma_w->ids[i].gen ||
		    (mc >= 0 && (!is_mc_event(e->resp.event) ||
				 e->resp.id != (uint32_t)mc))) {
			prev = n;
			continue;
		}
		/* a request nobody took: its new id goes too */
		if (e->resp.event == RDMA_CM_EVENT_CONNECT_REQUEST &&
		    e->resp.id != (uint32_t)i)
			ucma_id_destroy((int)e->resp.id);
		event_unlink(f, prev, n);
		ucma_w->files[f].stale++;
	}
}

void ucma_events_move(int i, int to)
{
	int f = ucma_w->ids[i].file, n, prev = -1, next;
	struct rdma_ucm_event_resp r;
	struct ucma_event *e;

	for (n = ucma_w->files[f].head; n >= 0; n = next) {
		e = &ucma_w->ev[n];
		next = e->next;
		if (e->id != i || e->id_gen != ucma_w->ids[i].gen) {
			prev = n;
			continue;
		}
		r = e->resp;
		event_unlink(f, prev, n);
		ucma_w->files[f].stale++;
		ucma_event_raw(to, i, &r);
	}
}

void ucma_reported(const struct rdma_ucm_event_resp *r, int i)
{
	if (is_mc_event(r->event) && r->id < UCMA_MAX_MCS)
		ucma_w->mc[r->id].events_reported++;
	else
		ucma_w->ids[i].events_reported++;
}

/* Read the FIFO bytes of events that were dropped (fd is the file's). */
void ucma_drain_stale(int f, int fd)
{
	char buf[64];
	ssize_t n;

	uint32_t *stale = &ucma_w->files[f].stale;

	while (*stale) {
		n = sys.read(fd, buf,
			     *stale < sizeof(buf) ? *stale : sizeof(buf));
		if (n <= 0)
			break;
		*stale -= (uint32_t)n;
	}
}

/* Close file slot f: destroy its ids, free its queue and FIFO. */
static void file_close(int f)
{
	char path[SIM_PATH_LEN + 32];
	struct ucma_file *uf = &ucma_w->files[f];
	int i;

	for (i = 0; i < UCMA_MAX_IDS; i++)
		if (ucma_w->ids[i].used && ucma_w->ids[i].file == f)
			ucma_id_destroy(i);
	while (uf->head >= 0)
		event_unlink(f, -1, uf->head);
	ucma_fifo_path(path, sizeof(path), f, uf->gen);
	unlink(path);
	uf->used = 0;
}

void ucma_reap(void)
{
	int f;

	for (f = 0; f < UCMA_MAX_FILES; f++)
		if (ucma_w->files[f].used &&
		    sim_pid_gone(ucma_w->files[f].pid)) {
			sim_trace("ucma: file %d of gone pid %d closed", f,
				  ucma_w->files[f].pid);
			file_close(f);
		}
}

/*
 * The kernel closes a dead process's files at once, and its CM's timers
 * run whether anybody waits or not. Each process with an rdma_cm file
 * runs one thread that looks for dead owners and runs its files' timers
 * every REAP_NS, so a peer sees the DREQ of a killed process without
 * calling into the CM itself. Only this thread (and an open, which needs
 * a free slot) looks: a pass asks every file's owner, a few system calls
 * each, too much for every command and GET_EVENT.
 */
#define REAP_NS 100000000L

static void *reaper(void *arg)
{
	struct timespec ts = {0, REAP_NS};
	int f;

	(void)arg;
	for (;;) {
		nanosleep(&ts, NULL);
		ucma_lock();
		ucma_reap();
		ucma_neigh_updates();
		for (f = 0; f < UCMA_MAX_FILES; f++)
			if (ucma_w->files[f].used &&
			    ucma_w->files[f].pid == getpid())
				ucma_timers(f);
		ucma_unlock();
	}
	return NULL;
}

static void reaper_start(void)
{
	static pid_t started;
	sigset_t old;
	pthread_t t;

	if (started == getpid())
		return;
	sim_sigmask_async(&old);
	if (!pthread_create(&t, NULL, reaper, NULL)) {
		pthread_detach(t);
		started = getpid();
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* ---- GET_EVENT ---- */

static ssize_t get_event(struct ucma_fpriv *fp, int fd, const uint8_t *in,
			 uint16_t out)
{
	struct rdma_ucm_get_event cmd;
	struct rdma_ucm_event_resp r;
	struct ucma_file *uf;
	struct ucma_event *e;
	/* the file's own token FIFO: the program may close its fd while we
	 * wait, and the kernel's call then keeps waiting on the file it
	 * holds (as this call holds the devfile) */
	struct pollfd pfd = {.fd = fp->rfd, .events = POLLIN};
	int flags = sys.fcntl(fd, F_GETFL), fl;
	sigset_t old;
	uint64_t wait;
	int n, i, ret;
	char tok;

	memcpy(&cmd, in, sizeof(cmd));
	if (out < offsetof(struct rdma_ucm_event_resp, reserved))
		return -ENOSPC;
	for (;;) {
		/* a program's handler that exit()s (psm's SIGTERM one) would
		 * meet these locks again in the sim's destructors: signals
		 * wait until they are dropped */
		sim_sigmask_async(&old);
		pthread_mutex_lock(&sim_lock);
		ucma_lock();
		uf = &ucma_w->files[fp->slot];
		if (!uf->used || uf->gen != fp->gen) {
			ucma_unlock();
			pthread_mutex_unlock(&sim_lock);
			pthread_sigmask(SIG_SETMASK, &old, NULL);
			return -EINVAL;
		}
		ucma_neigh_updates();
		wait = ucma_timers(fp->slot);
		ucma_drain_stale(fp->slot, fp->rfd);
		n = uf->head;
		if (n >= 0) {
			e = &ucma_w->ev[n];
			r = e->resp;
			i = e->id;
			event_unlink(fp->slot, -1, n);
			/* the token only wakes pollers: one missing is no
			 * matter */
			if (sys.read(fp->rfd, &tok, 1) != 1)
				sim_trace("ucma: event token missing");
			ucma_reported(&r, i);
			if (r.event == RDMA_CM_EVENT_CONNECT_REQUEST &&
			    r.id != (uint32_t)i)
				ucma_credit_return((int)r.id);
		}
		ucma_unlock();
		pthread_mutex_unlock(&sim_lock);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (n >= 0)
			break;
		/* O_NONBLOCK set meanwhile counts; a closed fd keeps the
		 * flags the file had */
		fl = sys.fcntl(fd, F_GETFL);
		if (fl >= 0)
			flags = fl;
		if (flags & O_NONBLOCK)
			return -EAGAIN;
		/* wake for a token, the next timer, or to look for the dead */
		if (!wait || wait > 100000000ull)
			wait = 100000000ull;
		ret = sim_wait_readable(pfd.fd, (int)(wait / 1000000 + 1));
		if (ret == -EINTR || ret == -SIM_EWAIT)
			return (int)ret;
	}
	ret = sim_copy_to_user((void *)(uintptr_t)cmd.response, &r,
			       out < sizeof(r) ? out : sizeof(r));
	return ret;
}

/* ---- the command table and write() ---- */

struct ucma_cmd {
	const char *name;
	uint16_t in;  /* bytes the kernel copies in */
	uint8_t min;  /* CONNECT/ACCEPT: a shorter `in` is EINVAL */
	uint8_t kind; /* 0 none, 1 id/address, 2 connection, 3 GET_EVENT,
		       4 multicast */
};

/* MIN: the ece at the end is optional (in may stop before it) */
#define CMD_(n, sz, min, k)                                                    \
	[RDMA_USER_CM_CMD_##n] = {#n, sizeof(struct sz), min, k}
#define CMD(n, sz, k) CMD_(n, sz, 0, k)
static const struct ucma_cmd cmds[] = {
	CMD(CREATE_ID, rdma_ucm_create_id, 1),
	CMD(DESTROY_ID, rdma_ucm_destroy_id, 1),
	CMD(BIND_IP, rdma_ucm_bind_ip, 1),
	CMD(RESOLVE_IP, rdma_ucm_resolve_ip, 1),
	CMD(RESOLVE_ROUTE, rdma_ucm_resolve_route, 1),
	CMD(QUERY_ROUTE, rdma_ucm_query, 1),
	CMD_(CONNECT, rdma_ucm_connect, 1, 2),
	CMD(LISTEN, rdma_ucm_listen, 1),
	CMD_(ACCEPT, rdma_ucm_accept, 1, 2),
	CMD(REJECT, rdma_ucm_reject, 2),
	CMD(DISCONNECT, rdma_ucm_disconnect, 2),
	CMD(INIT_QP_ATTR, rdma_ucm_init_qp_attr, 2),
	CMD(GET_EVENT, rdma_ucm_get_event, 3),
	[RDMA_USER_CM_CMD_GET_OPTION] = {"GET_OPTION", 0, 0, 0},
	CMD(SET_OPTION, rdma_ucm_set_option, 1),
	CMD(NOTIFY, rdma_ucm_notify, 2),
	CMD(JOIN_IP_MCAST, rdma_ucm_join_ip_mcast, 4),
	CMD(LEAVE_MCAST, rdma_ucm_destroy_id, 4),
	CMD(MIGRATE_ID, rdma_ucm_migrate_id, 1),
	CMD(QUERY, rdma_ucm_query, 1),
	CMD(BIND, rdma_ucm_bind, 1),
	CMD(RESOLVE_ADDR, rdma_ucm_resolve_addr, 1),
	CMD(JOIN_MCAST, rdma_ucm_join_mcast, 4),
};

static ssize_t ucma_write(struct sim_devfile *df, int fd, const void *buf,
			  size_t len)
{
	struct ucma_fpriv *fp = df->priv;
	struct rdma_ucm_cmd_hdr hdr;
	const struct ucma_cmd *c;
	uint8_t in[512] __attribute__((aligned(8)));
	size_t n;
	int ret;

	if (len < sizeof(hdr))
		return -EINVAL;
	if (sim_copy_from_user(&hdr, buf, sizeof(hdr)))
		return -EFAULT;
	if (hdr.cmd >= sizeof(cmds) / sizeof(cmds[0]) ||
	    hdr.in + sizeof(hdr) > len)
		return -EINVAL;
	c = &cmds[hdr.cmd];
	if (!c->kind)
		return -ENOSYS;
	if (c->min && hdr.in < c->in - sizeof(struct rdma_ucm_ece))
		return -EINVAL;
	n = c->min && hdr.in < c->in ? hdr.in : c->in;
	memset(in, 0, sizeof(in));
	if (sim_copy_from_user(in, (const uint8_t *)buf + sizeof(hdr), n))
		return -EFAULT;
	if (c->kind == 3) {
		ret = (int)get_event(fp, fd, in, hdr.out);
	} else {
		pthread_mutex_lock(&sim_lock);
		ucma_lock();
		if (c->kind == 1)
			ret = ucma_cmd_id(fp->slot, hdr.cmd, in, hdr.out);
		else if (c->kind == 2)
			ret = ucma_cmd_conn(fp->slot, hdr.cmd, in, hdr.out);
		else
			ret = ucma_cmd_mcast(fp->slot, hdr.cmd, in, hdr.out);
		ucma_drain_stale(fp->slot, fp->rfd);
		ucma_unlock();
		pthread_mutex_unlock(&sim_lock);
	}
	sim_trace("write rdma_cm %s -> %s", c->name,
		  ret < 0 ? strerrorname_np(-ret) : "ok");
	return ret < 0 ? ret : (ssize_t)len;
}

/* A file slot and its FIFO; the program's fd is the FIFO, read-write. */
static int ucma_open_fd(struct sim_devfile *df, int flags)
{
	char path[SIM_PATH_LEN + 32];
	struct ucma_fpriv *fp;
	struct ucma_file *uf = NULL;
	int f, fd, err;

	err = ucma_world_map();
	if (err)
		return err;
	fp = calloc(1, sizeof(*fp));
	if (!fp)
		return -ENOMEM;
	ucma_lock();
	ucma_reap();
	for (f = 0; f < UCMA_MAX_FILES; f++)
		if (!ucma_w->files[f].used) {
			uf = &ucma_w->files[f];
			break;
		}
	if (!uf) {
		ucma_unlock();
		free(fp);
		return -EMFILE;
	}
	memset(uf, 0, sizeof(*uf));
	uf->used = 1;
	uf->pid = getpid();
	uf->gen = ++ucma_w->file_gen;
	uf->head = uf->tail = -1;
	fp->slot = f;
	fp->gen = uf->gen;
	ucma_fifo_path(path, sizeof(path), f, uf->gen);
	unlink(path);
	fd = mkfifo(path, 0600) ? -errno : 0;
	if (!fd)
		fd = sys.open(path,
			      O_RDWR | (flags & (O_CLOEXEC | O_NONBLOCK)));
	fd = fd == -1 ? -errno : fd;
	fp->rfd = -1;
	if (fd >= 0) {
		fp->rfd = sys.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		err = fp->rfd < 0 ? -errno : sim_internal_fd_add(&fp->rfd);
		if (err) {
			sys.close(fd);
			fd = err;
		}
	}
	if (fd < 0) {
		unlink(path);
		uf->used = 0;
		ucma_unlock();
		free(fp);
		return fd;
	}
	ucma_unlock();
	df->priv = fp;
	reaper_start();
	return fd;
}

static void ucma_release(struct sim_devfile *df)
{
	struct ucma_fpriv *fp = df->priv;

	if (!fp)
		return;
	ucma_lock();
	if (ucma_w->files[fp->slot].used &&
	    ucma_w->files[fp->slot].gen == fp->gen)
		file_close(fp->slot);
	ucma_unlock();
	sim_internal_fd_close(&fp->rfd);
	free(fp);
}

static long ucma_ioctl(struct sim_devfile *df, unsigned long req, void *arg)
{
	(void)df;
	(void)req;
	(void)arg;
	return -ENOTTY;
}

static const struct sim_devnode rdma_cm_node = {
	.path = "/dev/infiniband/rdma_cm",
	.major = UCMA_MAJOR,
	.minor = UCMA_MINOR,
	.ioctl = ucma_ioctl,
	.open_fd = ucma_open_fd,
	.write = ucma_write,
	.release = ucma_release,
};
SIM_DEVNODE(rdma_cm_node);

int ucma_is_file(const struct sim_devfile *df)
{
	return df->node == &rdma_cm_node;
}

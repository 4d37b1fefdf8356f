/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * librdmasim.so internals: the process-local half of the simulated kernel.
 * One big lock (sim_lock) serialises all simulated-fd work in a process;
 * device-wide state is in struct sim_shared behind its own lock.
 */
#ifndef RDMA_SIM_PRELOAD_H
#define RDMA_SIM_PRELOAD_H

#include <fcntl.h>
#include <stdarg.h>
#include <sys/socket.h>

#include "obj.h"
#include "sim_world.h"

/* ---- paths (paths.c) ---- */
/* If path is under a simulated root, write the redirected path; 1/0. */
int sim_redirect(const char *path, char *out, size_t len);
/* N if path names /dev/infiniband/uverbsN of an existing device, else -1. */
int sim_uverbs_index(const char *path);

/* ---- fault injection ---- */
/* errno to inject for this call of kind, or 0. */
int sim_fail(const char *kind);
/* The same for a create of kind whose handler succeeded, just before its
 * object is committed (--fail KIND:N:ERR:commit): the framework aborts. */
int sim_fail_commit(const char *kind);

/* ---- blocking in a served call (boundary/wait.c) ---- */
/* The errno of a served call that must wait in a static program's trap;
 * no call ever returns it to the program. */
#define SIM_EWAIT 530
/*
 * Wait, outside sim_lock, until fd is readable or timeout_ms (-1: none)
 * passed: poll()'s count, or -errno. In a static program's trap it only
 * looks, and returns -SIM_EWAIT when it would wait: the caller returns
 * that unchanged, having consumed nothing, and is called again.
 */
int sim_wait_readable(int fd, int timeout_ms);

/* ---- objects and files (uvfile.c) ---- */
enum sim_entry_kind { SIM_ENT_MEMIC, SIM_ENT_UAR };

/* A page range userspace may mmap at a given offset (rdma mmap entry). */
struct sim_entry {
	struct sim_entry *next;
	uint32_t key; /* command << 16 | index */
	uint8_t kind;
	uint8_t op; /* DM_MAP_OP_ADDR op, 0xff for the base mapping */
	uint32_t npages;
	int alloc;	/* MEMIC slot, -1 for UAR */
	uint32_t pages; /* UAR: its page file (page_file.c), 0 for none */
	struct sim_obj *owner;
};

/* Per open of /dev/infiniband/uverbsN (shared by dup'ed fds). */
struct sim_uvfile {
	int refs;
	unsigned int dev;
	int has_ctx;
	uint32_t next_handle;
	uint32_t next_pdn;
	uint32_t legacy_uar_pages;
	uint32_t page_ids;
	uint8_t uar_dyn; /* lib_caps DYN_UAR: UARs only via UAR_OBJ_ALLOC */
	/* driver alloc_ucontext response, read back as the driver's struct */
	uint8_t ctx_resp[128] __attribute__((aligned(8)));
	uint16_t ctx_resp_len;
	pid_t owner_pid; /* a forked child holds a copy, not the device */
	struct sim_obj *objs;
	struct sim_entry *entries;
	struct sim_evq *async;	    /* the default async event file */
	struct sim_evq *evqs;	    /* event files of this context */
	struct sim_uvfile *next_uv; /* every open uverbs file of the process */
	uint32_t res; /* the context's restrack row + 1, 0: none */
	/* restrack.c: objects whose row is to be rewritten (all: overflow) */
	struct sim_obj *res_dirty[16];
	uint8_t res_ndirty, res_dirty_all;
	uint32_t net_seen; /* RoCE port events delivered (net_events.c) */
};

/*
 * An event file (completion channel or async event fd): a queue of event
 * descriptors behind a real eventfd (EFD_SEMAPHORE) whose counter always
 * equals the queue length, so poll/epoll/select see it readable exactly
 * while events are queued. read() is served from the queue (events.c).
 */
struct sim_event;
struct sim_evq {
	int refs;
	int fd;		/* one open fd of the eventfd, -1 when none is left */
	uint8_t comp;	/* completion channel (8-byte events), else async */
	uint8_t closed; /* the context is gone: reads of an empty queue EIO */
	struct sim_uvfile *uv;
	struct sim_evq *next; /* in uv->evqs */
	struct sim_event *head, **tail;
};

/*
 * What a dma-buf's bytes are: MEMIC pages (a DM export), a device page
 * file of an mmap entry (a UAR export), or memory of its own (a DMA-buf
 * heap or GEM buffer: the export's file is the memory).
 */
enum sim_dmabuf_kind { SIM_DMABUF_MEMIC, SIM_DMABUF_PAGES, SIM_DMABUF_MEM };

/* An export as this process knows it (dmabuf.c). */
struct sim_dmabuf {
	int refs;     /* fd table entries and imports in this process */
	uint8_t kind; /* enum sim_dmabuf_kind */
	int alloc;    /* MEMIC: the slot whose pages it covers */
	uint32_t gen; /* MEMIC: that slot's generation */
	uint32_t seq; /* its number among the exports (names the file) */
	int32_t pid;  /* PAGES/MEM: the process that made the pages */
	uint32_t id;  /* PAGES/MEM: their page file / buffer number */
	uint64_t size;
};

/* An importer's reference: its own hold on the export's open file. */
struct sim_dmabuf_import {
	struct sim_dmabuf *db;
	int hold;	/* internal fd: the reference to the export's file */
	void *hold_map; /* or, at a full fd table, a page of it mapped */
	void *map;	/* PAGES/MEM: the bytes, mapped on first device access */
};

/* An RDMA netlink socket: the user's end of a datagram pair. */
struct sim_nlsock {
	int refs;
	int peer; /* where replies are queued */
	uint32_t portid;
	/* The kernel sizes each dump datagram by the largest recv so far. */
	uint32_t max_recvmsg_len;
	/* A running dump: its request, the command's cursor (netlink.h). */
	uint8_t dumping;
	struct sim_nl_dump {
		uint32_t seq, pid; /* of the request, echoed */
		uint16_t op;	   /* RDMA_NLDEV_CMD_* */
		uint32_t parts;
		int64_t dev;	 /* DEV_INDEX of the request, -1: none */
		uint32_t port;	 /* PORT_INDEX of the request, 0: none */
		uint32_t next;	 /* next device (all-device dumps) */
		int64_t last_id; /* last object id sent (object dumps) */
	} dump;
};

enum sim_fd_kind {
	SIM_FD_NONE,
	SIM_FD_UVERBS,
	SIM_FD_EVENT, /* completion channel or async event file */
	SIM_FD_DMABUF,
	SIM_FD_NETLINK,
	SIM_FD_INTERNAL, /* the sim's own: not in the program's fd table */
	SIM_FD_DEVNODE,	 /* another simulated device node (devnode.c) */
};

/*
 * Device nodes of the simulated world beyond uverbs (a DMA-buf heap, a DRM
 * render node): each is one struct sim_devnode registered with
 * SIM_DEVNODE(); an open of its path gives a struct sim_devfile shared by
 * dup and fork like the kernel's struct file. All hooks run under sim_lock.
 */
struct sim_devfile;
struct sim_devnode {
	const char *path;
	unsigned int major, minor;
	int (*present)(void); /* NULL: always; else 0 means ENOENT */
	/* set up f->priv; 0 or -errno */
	int (*open)(struct sim_devfile *f, int flags);
	/* 0 or more on success, -errno on failure */
	long (*ioctl)(struct sim_devfile *f, unsigned long req, void *arg);
	/* NULL: ENODEV; else a mapping or MAP_FAILED with errno */
	void *(*mmap)(struct sim_devfile *f, void *addr, size_t len, int prot,
		      int flags, off_t off);
	void (*release)(struct sim_devfile *f);
	/* A family of nodes (one per port): path is NULL, match says whether
	 * a path is one of them and gives its minor. */
	int (*match)(const char *path, unsigned int *minor);
	/* read/write of the file: bytes or -errno; NULL: EINVAL. Called
	 * without sim_lock (a read may block, the RDMA CM's GET_EVENT
	 * write too), f held. */
	ssize_t (*read)(struct sim_devfile *f, int fd, void *buf, size_t len);
	ssize_t (*write)(struct sim_devfile *f, int fd, const void *buf,
			 size_t len);
	/* The open file is an eventfd (EFD_SEMAPHORE) whose count the node
	 * keeps equal to what read() would return: poll/epoll see it. */
	uint8_t pollable;
	/* NULL: the fd is an open of /dev/null (or the eventfd); else the
	 * node opens the file behind the program's fd itself: fd or -errno */
	int (*open_fd)(struct sim_devfile *f, int flags);
};

struct sim_devfile {
	int refs;
	const struct sim_devnode *node;
	void *priv;
	char *path; /* as opened */
	unsigned int minor;
	int efd; /* pollable: the sim's own dup of the eventfd, else -1 */
};

#define SIM_DEVNODE(n)                                                         \
	static const struct sim_devnode *const sim_devreg_##n                  \
		__attribute__((used, section("sim_devnodes"))) = &(n)

/* The node at path (present or not), or NULL. */
const struct sim_devnode *sim_devnode_lookup(const char *path);
/* The minor number of node n at path. */
unsigned int sim_devnode_minor(const struct sim_devnode *n, const char *path);
/* read()/write() of a device-node fd: bytes, or -1 with errno. */
ssize_t sim_devnode_read(int fd, void *buf, size_t len);
ssize_t sim_devnode_write(int fd, const void *buf, size_t len);
/* A pollable node has n more (n > 0) or fewer (n < 0) to read. Needs
 * sim_lock. */
void sim_devfile_ready(struct sim_devfile *f, int n);
/* open() of a node's path: fd or -1 with errno. */
int sim_devnode_open(const struct sim_devnode *n, const char *path, int flags);
void sim_devfile_put(struct sim_devfile *f);
/* The end of an intercepted open(): trace it; fd, or -1 with errno err. */
int sim_open_done(const char *path, int flags, int fd, int err);
/*
 * The argument of a char-device ioctl as the kernel's dma-heap and DRM
 * cores copy it: user command ucmd against the kernel's kcmd, in at the
 * user's size if both say IOC_IN, the rest of kdata (ksize) zeroed; *out
 * is what to copy back (0 unless both say IOC_OUT). 0 or -EFAULT.
 */
int sim_ioctl_in(unsigned long ucmd, unsigned long kcmd, const void *arg,
		 void *kdata, size_t ksize, size_t *out);

struct sim_fd {
	uint8_t kind; /* written under sim_lock, read atomically anywhere */
	union {
		struct sim_uvfile *uv;
		struct sim_dmabuf *db;
		struct sim_nlsock *nl;
		struct sim_evq *evq;
		struct sim_devfile *dev;
		int *owner; /* SIM_FD_INTERNAL: where its user keeps the number
			     */
		void *any;
	};
};

#define SIM_MAX_FDS 65536
extern struct sim_fd *sim_fds;
/* Entry for fd, or NULL if fd is not simulated. Needs sim_lock. */
struct sim_fd *sim_fd_get(int fd);
/* Record fd as simulated. Needs sim_lock. 0 or -EMFILE. */
int sim_fd_set(int fd, uint8_t kind, void *obj);
/* Forget fd, dropping its reference. Needs sim_lock. */
void sim_fd_drop(int fd);
/* Forget and close an fd the sim made for a call that then failed (an FD
 * object's abort_fd). Needs sim_lock. */
void sim_fd_discard(struct sim_uvfile *uv, int fd);
/*
 * The kind of fd without sim_lock (the wrappers' fast paths): an acquire
 * load that pairs with the release store of sim_fd_set/sim_fd_drop.
 */
static inline uint8_t sim_fd_kind(int fd)
{
	if (!sim_fds || fd < 0 || fd >= SIM_MAX_FDS)
		return SIM_FD_NONE;
	return __atomic_load_n(&sim_fds[fd].kind, __ATOMIC_ACQUIRE);
}

static inline int sim_fd_tracked(int fd)
{
	return sim_fd_kind(fd) != SIM_FD_NONE;
}

/*
 * The sim's private fds (internal_fd.c): MEMIC backing files, the trace,
 * netlink reply queues, engine sockets, the reserve of fd_private.c. Registered ones
 * sit at SIM_INTERNAL_FD_BASE or above, are close-on-exec, and the program
 * cannot reach them: close() and dup() on them fail with EBADF, close loops
 * and close_range() step over them, and a dup2()/dup3() onto one first
 * moves it to another number (updating *fdp). Needs sim_lock.
 */
#define SIM_INTERNAL_FD_BASE 900
/* sim_internal_fd_add, sim_internal_fd_close: sim_world.h */
/* The program takes fd (dup2 target): move the sim's fd away. 0 or -errno. */
int sim_internal_fd_evict(int fd);
static inline int sim_fd_internal(int fd)
{
	return sim_fd_kind(fd) == SIM_FD_INTERNAL;
}
/* Is fd open in the program's table (the sim's own fds are not)? Else a
 * command that takes it answers EBADF, as the kernel's fdget. */
static inline int sim_fd_of_program(int fd)
{
	return fd >= 0 && !sim_fd_internal(fd) && sys.fcntl(fd, F_GETFD) >= 0;
}
/* Where page @page of device @dev's MEMIC lives in sim.memic_fd. */
static inline off_t sim_memic_pos(unsigned int dev, uint64_t page)
{
	return (off_t)(dev * sim.sh->cfg.dm_size +
		       page * sim.sh->cfg.page_size);
}

struct sim_uvfile *sim_uvfile_new(unsigned int dev);
void sim_uvfile_put(struct sim_uvfile *uv);
struct sim_entry *sim_entry_add(struct sim_uvfile *uv, uint32_t key,
				uint8_t kind, uint32_t npages, int alloc,
				struct sim_obj *owner);
struct sim_entry *sim_entry_find(struct sim_uvfile *uv, uint32_t key);
void sim_entry_remove(struct sim_uvfile *uv, struct sim_entry *e);
/* Lowest free run of npages keys in [lo, hi]. 0 or -ENOMEM. */
int sim_entry_key_alloc(struct sim_uvfile *uv, uint32_t lo, uint32_t hi,
			uint32_t npages, uint32_t *key);
/* Shared resources of uv belong to this process (not a fork copy). */
static inline int sim_uvfile_mine(const struct sim_uvfile *uv)
{
	return uv->owner_pid == getpid();
}

/* event files (events.c) */
/* New event file of uv on a fresh fd (O_CLOEXEC if cloexec): fd or -errno. */
int sim_evq_new(struct sim_uvfile *uv, int comp, int cloexec,
		struct sim_evq **out);
/* Undo sim_evq_new (the response could not be written): close fd. */
void sim_evq_discard(struct sim_uvfile *uv, int fd);
void sim_evq_get(struct sim_evq *q);
void sim_evq_put(struct sim_evq *q);
/* fd, one of q's fds, is being closed. */
void sim_evq_fd_closed(struct sim_evq *q, int fd);
/* Drop the queued events of obj (its destroy). */
void sim_evq_purge(struct sim_evq *q, const struct sim_obj *obj);
/* The context is going away: wake readers, EIO once empty. */
void sim_evq_close(struct sim_evq *q);
/* read() on an event fd: one descriptor, blocking unless O_NONBLOCK.
 * Takes sim_lock itself. */
ssize_t sim_evq_read(int fd, void *buf, size_t count);

/* dma-buf fds (dmabuf.c); all need sim_lock */
void sim_dmabuf_put(struct sim_dmabuf *db);
/* Export the pages of entry e; new fd or -errno. */
int sim_dmabuf_export(struct sim_uvfile *uv, struct sim_entry *e);
/* Recognise a dma-buf fd that came over exec or a unix socket. */
void sim_dmabuf_adopt(int fd);
/* Take an importer's reference to the dma-buf fd; NULL + *err (-errno). */
struct sim_dmabuf_import *sim_dmabuf_import(int fd, int *err);
void sim_dmabuf_release(struct sim_dmabuf_import *imp);
/* The exporter revoked it: DM_FREE, UAR destroy or the context's end
 * (importers: ENODEV). */
int sim_dmabuf_revoked(const struct sim_dmabuf *db);
/* The buffer's bytes for the device (HCA), or NULL if revoked. */
uint8_t *sim_dmabuf_bytes(struct sim_dmabuf_import *imp);
/* A buffer of its own memory (heap, GEM): new fd (fd_flags O_RDWR and
 * O_CLOEXEC as asked) or -errno. */
int sim_dmabuf_new_mem(uint64_t size, int fd_flags);
/* The same, kept by the sim (a GEM object's memory): the buffer with one
 * reference, *hold an internal O_RDWR fd of it; NULL on failure. */
struct sim_dmabuf *sim_dmabuf_mem_hold(uint64_t size, int *hold);
/* Another open file of a MEM buffer (its dma-buf file as an exporter
 * makes it, O_RDONLY or O_RDWR): raw fd or -errno. */
int sim_dmabuf_open_again(struct sim_dmabuf *db, int fd_flags);
/* A CPU mapping of an imported buffer's bytes (a GPU's view of it); the
 * mapping holds the pages. MAP_FAILED + errno (ENODEV: revoked). */
void *sim_dmabuf_cpu_map(struct sim_dmabuf_import *imp, void *addr, size_t len,
			 int prot, int flags);
/* A program fd for open file @file of db: fd or -errno. */
int sim_dmabuf_install(struct sim_dmabuf *db, int file, int cloexec);
/* a and b are the same export (maybe known over exec or a socket). */
int sim_dmabuf_same(const struct sim_dmabuf *a, const struct sim_dmabuf *b);
/* Release exports of a MEMIC slot nobody holds. Needs the shared lock. */
void sim_dmabuf_reap_alloc(int alloc);

/* the dma-buf fd's file operations (dmabuf_fd.c): errno / 0 or -errno */
int sim_dmabuf_mmap_errno(const struct sim_dmabuf *db, int prot, int flags,
			  size_t len, off_t off);
int sim_dmabuf_ioctl(unsigned long req, void *arg);

/*
 * Device page files (page_file.c): pages that are not memory (UAR pages)
 * but that CPU mappings and dma-buf importers must agree on, a file per
 * page set named after the process that made it. Removing the file is
 * what revokes every export of it.
 */
/* New page file of npages: its id (never 0), or -errno. */
int64_t sim_page_file_new(uint32_t npages);
void sim_page_file_path(char *buf, size_t len, int32_t pid, uint32_t id);
/* Remove one of this process's page files (revokes its exports). */
void sim_page_file_remove(uint32_t id);
/* Map (a MAP_SHARED view of) a page file; MAP_FAILED + errno. */
void *sim_page_file_map(int32_t pid, uint32_t id, void *addr, size_t len,
			int prot, int flags);
/* MEMIC pages (memic.c) */
/* The whole MEMIC file (every device) mapped once; NULL if none. */
uint8_t *sim_memic_base(void);
/* Reserve npages on dev for a new DM: slot or -ENOMEM. */
int sim_memic_alloc(unsigned int dev, uint32_t npages);
/* Free the slot if nothing holds its pages. Needs the shared lock. */
void sim_memic_put(int slot);
/* Map a slot's pages; the mapping holds them (in every process). */
void *sim_memic_map(int slot, void *addr, size_t len, int prot, int flags);

/* CPU mappings of MEMIC (mmap.c) */
void *sim_mmap(struct sim_uvfile *uv, void *addr, size_t len, int prot,
	       int flags, off_t off);
void sim_munmap_note(void *addr, size_t len);

/*
 * User memory pinned for the device, backed by the process's memfd so
 * that a peer's HCA copies into it (dma_pin.c, common/dma_pin.h). Each
 * needs sim_lock. Pin [addr, addr+len) where it can, silently keep it as
 * it is where not.
 */
void sim_dma_pin(uint64_t addr, uint64_t len);
/* One pin of [addr, addr+len) less (DEREG_MR, a CQ's old ring): a range
 * no pin holds is private anonymous memory again, as before. */
void sim_dma_unpin(uint64_t addr, uint64_t len);
/* The program unmapped [addr, addr+len): free what the memfd held there. */
void sim_dma_unmap(void *addr, size_t len);
/* A new image of this pid starts: forget the old image's table. */
void sim_dma_exec_reset(void);
/* fork: the child gets its own copy of the pinned pages (dma_pin_fork.c) */
void sim_dma_fork_prepare(void);
void sim_dma_fork_parent(void);
void sim_dma_fork_child(void);
/* addr/len is a whole mapping of a uverbs fd (needs sim_lock) */
int sim_map_known(void *addr, size_t len);
void sim_mremap_note(void *old, size_t old_len, void *new, size_t new_len);

/* RDMA netlink (netlink.c): answer a request; bytes consumed or -errno */
ssize_t sim_netlink_send(struct sim_nlsock *nl, const void *buf, size_t len);
/*
 * A recvmsg of @len bytes returned a datagram: like netlink_recvmsg, note
 * the size and queue the next part of a running dump. Takes sim_lock.
 */
void sim_netlink_received(struct sim_nlsock *nl, size_t len);
void sim_nlsock_put(struct sim_nlsock *nl);

/* ---- command dispatch ---- */
int sim_ioctl(int fd, struct sim_uvfile *uv, void *arg);
ssize_t sim_write_cmd(struct sim_uvfile *uv, const void *buf, size_t count);

/* user memory (uaccess.c): 0 or -EFAULT, like the kernel's helpers */
int sim_copy_from_user(void *dst, const void *usrc, size_t len);
int sim_copy_to_user(void *udst, const void *src, size_t len);
int sim_clear_user(void *udst, size_t len);

/* CAP_SYS_RAWIO and CAP_NET_RAW both effective (capget). */
int sim_has_raw_caps(void);
/* Capability cap (CAP_*) effective (capget). */
int sim_has_cap(int cap);

/* ---- multicast groups (qp_mcast.c) ---- */
/* A QP is gone: its attachments go too. Takes the shared lock. */
void sim_mcast_qp_gone(uint32_t dev, uint32_t qpn);

#endif

// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * fork() protection: once enabled, registered memory is excluded from
 * the child (MADV_DONTFORK) so the parent's pages stay where the device
 * was told they are. Ranges are reference counted through a list of the
 * registrations, so a page is handed back to fork() (MADV_DOFORK) only
 * when no registration covers it any more.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "verbs_internal.h"

struct fork_range {
	uintptr_t start; /* page aligned */
	uintptr_t end;	 /* page aligned, exclusive */
	struct fork_range *next;
};

static pthread_mutex_t fork_lock = PTHREAD_MUTEX_INITIALIZER;
static struct fork_range *fork_ranges;
static int fork_enabled;
/* RDMAV_FORK_SAFE was looked at, and the kernel copies on fork. */
static int fork_env_unneeded;
/* A range was registered before ibv_fork_init(): too late to protect. */
static int fork_too_late;

static int fork_env_requested(void)
{
	return getenv("RDMAV_FORK_SAFE") || getenv("IBV_FORK_SAFE");
}

int ibv_fork_init(void)
{
	int ret = 0;

	pthread_mutex_lock(&fork_lock);
	if (fork_enabled || verbs_kernel_copies_on_fork())
		ret = 0;
	else if (fork_too_late)
		ret = EINVAL;
	else
		fork_enabled = 1;
	pthread_mutex_unlock(&fork_lock);
	return ret;
}

enum ibv_fork_status ibv_is_fork_initialized(void)
{
	enum ibv_fork_status status;

	if (verbs_kernel_copies_on_fork())
		return IBV_FORK_UNNEEDED;
	pthread_mutex_lock(&fork_lock);
	status = fork_enabled ? IBV_FORK_ENABLED : IBV_FORK_DISABLED;
	pthread_mutex_unlock(&fork_lock);
	return status;
}

/* With the lock held: is fork protection on (turning it on from env)? */
static int fork_active(void)
{
	if (!fork_enabled && !fork_too_late && !fork_env_unneeded &&
	    fork_env_requested()) {
		if (verbs_kernel_copies_on_fork())
			fork_env_unneeded = 1;
		else
			fork_enabled = 1;
	}
	return fork_enabled;
}

/* With the lock held: exclude [start, end) from fork() and record it. */
static int dontfork_locked(uintptr_t start, uintptr_t end)
{
	struct fork_range *range;

	if (!fork_active()) {
		fork_too_late = 1;
		return 0;
	}
	range = malloc(sizeof(*range));
	if (!range)
		return ENOMEM;
	if (madvise((void *)start, end - start, MADV_DONTFORK)) {
		free(range);
		return errno;
	}
	range->start = start;
	range->end = end;
	range->next = fork_ranges;
	fork_ranges = range;
	return 0;
}

/* DOFORK the parts of [start, end) that no range from @r on covers. */
static int dofork_uncovered(uintptr_t start, uintptr_t end,
			    const struct fork_range *r)
{
	int ret;

	for (; r; r = r->next)
		if (r->start < end && start < r->end)
			break;
	if (!r)
		return madvise((void *)start, end - start, MADV_DOFORK) ? errno
									 : 0;
	ret = 0;
	if (start < r->start)
		ret = dofork_uncovered(start, r->start, r->next);
	if (!ret && r->end < end)
		ret = dofork_uncovered(r->end, end, r->next);
	return ret;
}

/* With the lock held: drop the record of [start, end), re-allow fork(). */
static int dofork_locked(uintptr_t start, uintptr_t end)
{
	struct fork_range **pos, *found;

	for (pos = &fork_ranges; *pos; pos = &(*pos)->next) {
		found = *pos;
		if (found->start == start && found->end == end) {
			*pos = found->next;
			free(found);
			return dofork_uncovered(start, end, fork_ranges);
		}
	}
	return 0;
}

/* Run @op on the pages of [base, base + size) under the lock. */
static int fork_range_op(void *base, size_t size,
			 int (*op)(uintptr_t start, uintptr_t end))
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start, end;
	int ret;

	if (!size)
		return 0;
	start = (uintptr_t)base & ~(page - 1);
	end = ((uintptr_t)base + size + page - 1) & ~(page - 1);

	pthread_mutex_lock(&fork_lock);
	ret = op(start, end);
	pthread_mutex_unlock(&fork_lock);
	if (ret)
		errno = ret;
	return ret;
}

int ibv_dontfork_range(void *base, size_t size)
{
	return fork_range_op(base, size, dontfork_locked);
}

int ibv_dofork_range(void *base, size_t size)
{
	return fork_range_op(base, size, dofork_locked);
}

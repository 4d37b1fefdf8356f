// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Context creation through the ioctl path, as a library opens a device:
 * GET_CONTEXT (no async fd on this path), ASYNC_EVENT_ALLOC for the event
 * fd, QUERY_CONTEXT.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "conf.h"

/*
 * GET_CONTEXT and QUERY_CONTEXT share their two outputs: attr 0 is the
 * number of completion vectors, attr 1 the core support bits.
 */
static int context_call(int fd, uint16_t method, uint32_t *vectors,
			uint64_t *support)
{
	struct raw_ioctl cmd;

	raw_init(&cmd, UVERBS_OBJECT_DEVICE, method);
	raw_add(&cmd, UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS,
		sizeof(*vectors), UVERBS_ATTR_F_MANDATORY, (uintptr_t)vectors);
	raw_add(&cmd, UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT, sizeof(*support),
		UVERBS_ATTR_F_MANDATORY, (uintptr_t)support);
	return raw_exec(fd, &cmd);
}

static int get_context(int fd, uint32_t *vectors, uint64_t *support)
{
	return context_call(fd, UVERBS_METHOD_GET_CONTEXT, vectors, support);
}

static int query_context(int fd, uint32_t *vectors, uint64_t *support)
{
	return context_call(fd, UVERBS_METHOD_QUERY_CONTEXT, vectors, support);
}

static int async_event_alloc(int fd, int *event_fd)
{
	struct raw_ioctl cmd;
	int err;

	raw_init(&cmd, UVERBS_OBJECT_ASYNC_EVENT,
		 UVERBS_METHOD_ASYNC_EVENT_ALLOC);
	raw_add(&cmd, UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE, 0,
		UVERBS_ATTR_F_MANDATORY, 0);
	err = raw_exec(fd, &cmd);
	*event_fd = err ? -1 : (int)cmd.attrs[0].data;
	return err;
}

void check_context(void)
{
	uint64_t support = ~0ULL;
	uint32_t vectors = ~0U;
	int fd, event_fd, second_fd, err;

	conf_print_header("context through ioctl (GET_CONTEXT, ASYNC_EVENT)");
	fd = open(UVERBS_DEV, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		conf_expect("ctx.open_uverbs0", 0, errno);
		return;
	}
	conf_expect("ctx.async_event_alloc.before_context", EINVAL,
		    async_event_alloc(fd, &event_fd));
	conf_expect("ctx.get_context.ioctl", 0,
		    get_context(fd, &vectors, &support));
	/* rxe gives one completion vector per possible CPU. */
	conf_expect_u("ctx.get_context.comp_vectors_is_cpu_count", 1,
		      vectors == (uint32_t)sysconf(_SC_NPROCESSORS_CONF));
	conf_expect_u("ctx.get_context.core_support", 1, support);
	conf_expect("ctx.get_context.ioctl_again", EINVAL,
		    get_context(fd, &vectors, &support));
	err = async_event_alloc(fd, &event_fd);
	conf_expect("ctx.async_event_alloc", 0, err);
	conf_expect_u("ctx.async_event_alloc.fd_is_open", 1,
		      event_fd >= 0 && fcntl(event_fd, F_GETFD) >= 0);
	/* The kernel hands out as many event fds as asked for. */
	conf_expect("ctx.async_event_alloc.second", 0,
		    async_event_alloc(fd, &second_fd));
	/* rdma_rxe has no query_ucontext: no context import on rxe. */
	conf_expect("ctx.query_context.rxe", EOPNOTSUPP,
		    query_context(fd, &vectors, &support));
	if (second_fd >= 0)
		close(second_fd);
	if (!err)
		close(event_fd);
	close(fd);
}

// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "dm_export_report.h"

#define DESC_WIDTH 52

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void print_duration(double seconds)
{
	if (seconds < 1e-3)
		printf("%7.1f us", seconds * 1e6);
	else
		printf("%7.2f ms", seconds * 1e3);
}

void step_begin(struct report *r, const char *fmt, ...)
{
	char desc[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	vsnprintf(desc, sizeof(desc), fmt, ap);
	va_end(ap);
	r->steps++;
	n = printf("[%2u] %s ", r->steps, desc);
	for (; n < DESC_WIDTH; n++)
		putchar('.');
	putchar(' ');
	fflush(stdout);
	r->t0 = now();
}

static void finish(struct report *r, const char *verdict, const char *fmt,
		   va_list ap)
{
	double elapsed = now() - r->t0;
	char detail[512] = "";

	if (fmt)
		vsnprintf(detail, sizeof(detail), fmt, ap);
	printf("%-7s", verdict);
	print_duration(elapsed);
	if (detail[0])
		printf("  %s", detail);
	putchar('\n');
	fflush(stdout);
}

bool step_end(struct report *r, bool ok, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	finish(r, ok ? "ok" : "FAILED", fmt, ap);
	va_end(ap);
	if (!ok)
		r->failed++;
	return ok;
}

void step_skip(struct report *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	finish(r, "skipped", fmt, ap);
	va_end(ap);
	r->skipped++;
}

const char *explain_errno(const char *what, int err)
{
	static __thread char buf[256];

	switch (err) {
	case EOPNOTSUPP:
	case EPROTONOSUPPORT:
		if (!strcmp(what, "export"))
			return "this kernel cannot export device memory as a "
			       "dma-buf (no UVERBS_OBJECT_DMABUF; Linux 6.1 "
			       "and older lack it)";
		if (!strcmp(what, "alloc"))
			return "the device or its driver has no device memory";
		if (!strcmp(what, "uar-export"))
			return "this kernel cannot export a doorbell page as a "
			       "dma-buf (no UVERBS_OBJECT_DMABUF)";
		if (!strcmp(what, "uar"))
			return "this device or kernel hands out no UAR pages "
			       "(not mlx5, or static UARs only)";
		if (!strcmp(what, "buf-pd"))
			return "the provider has no parent domains";
		if (!strcmp(what, "mr") || !strcmp(what, "qp"))
			return "the kernel pins no ordinary memory: on a "
			       "confidential-computing guest's device only "
			       "bounce memory works (see -b)";
		break;
	case EPERM:
	case EACCES:
		return "permission denied: the user cannot open "
		       "/dev/infiniband/uverbs* (check its group/mode, or "
		       "the memlock limit)";
	case ENOMEM:
		if (!strcmp(what, "alloc"))
			return "not enough free device memory (try a smaller "
			       "-s, or free other allocations)";
		break;
	case EINVAL:
		if (!strcmp(what, "alloc"))
			return "the device refused the size or alignment";
		if (!strcmp(what, "uar-export"))
			return "the kernel exports device memory but not this "
			       "doorbell page (no dma-buf export of UAR pages)";
		break;
	case ENODEV:
		return "the device went away";
	case ENOENT:
		if (!strcmp(what, "buf-pd"))
			return "the device needs bounce memory but the kernel "
			       "has no DMA-buf heap to take it from "
			       "(/dev/dma_heap/system_cc_shared)";
		break;
	}
	snprintf(buf, sizeof(buf), "%s", strerror(err));
	return buf;
}

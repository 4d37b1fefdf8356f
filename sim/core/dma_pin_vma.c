// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The process's mappings as the pinning needs them: /proc/self/smaps,
 * read with the sim's own system calls, one vma at a time (its header
 * line, then its keys down to VmFlags).
 */
#include "sim.h"
#include "dma_pin_int.h"
#include "raw_syscall.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

struct lines {
	long fd;
	size_t len, pos;
	char buf[8192];
};

static char *next_line(struct lines *l)
{
	char *nl, *line;
	long n;

	for (;;) {
		nl = memchr(l->buf + l->pos, '\n', l->len - l->pos);
		if (nl) {
			line = l->buf + l->pos;
			*nl = 0;
			l->pos = (size_t)(nl + 1 - l->buf);
			return line;
		}
		memmove(l->buf, l->buf + l->pos, l->len - l->pos);
		l->len -= l->pos;
		l->pos = 0;
		if (l->len == sizeof(l->buf))
			return NULL; /* no line is that long */
		n = sim_cookie_syscall(__NR_read, l->fd, (long)(l->buf + l->len),
				       (long)(sizeof(l->buf) - l->len), 0, 0);
		if (n <= 0)
			return NULL;
		l->len += (size_t)n;
	}
}

/* VmFlags a vma may carry and still be backed by the memfd. */
static const char plain_flags[][3] = {
	"rd", "wr", "mr", "mw", "me", "ac", "sd", "nr", "hg", "nh", "dc", "dd",
};

static void vm_flags(struct dma_vma *v, char *s)
{
	char *tok, *save = NULL;
	unsigned int i;

	v->plain = 1;
	for (tok = strtok_r(s, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		for (i = 0; i < sizeof(plain_flags) / sizeof(plain_flags[0]);
		     i++)
			if (!strcmp(tok, plain_flags[i]))
				break;
		if (i == sizeof(plain_flags) / sizeof(plain_flags[0]))
			v->plain = 0;
		v->dontfork |= !strcmp(tok, "dc");
		v->dontdump |= !strcmp(tok, "dd");
	}
}

static int header(struct dma_vma *v, const char *line)
{
	unsigned long long s, e, off, ino;
	int path = 0;

	memset(v, 0, sizeof(*v));
	if (sscanf(line, "%llx-%llx %4s %llx %*x:%*x %llu %n", &s, &e,
		   v->perms, &off, &ino, &path) < 5)
		return -1;
	v->start = s;
	v->end = e;
	v->pgoff = off;
	v->ino = ino;
	v->anon = !ino && (!line[path] || !strcmp(line + path, "[heap]"));
	return 0;
}

int dma_vmas_each(int (*fn)(const struct dma_vma *v, void *arg), void *arg)
{
	static struct lines l;
	struct dma_vma v;
	int have = 0, ret = 0;
	char *line;

	l.fd = sim_cookie_syscall(__NR_openat, AT_FDCWD,
				  (long)"/proc/self/smaps", O_RDONLY | O_CLOEXEC,
				  0, 0);
	if (l.fd < 0)
		return -1;
	l.len = l.pos = 0;
	while (!ret && (line = next_line(&l))) {
		if ((*line >= '0' && *line <= '9') ||
		    (*line >= 'a' && *line <= 'f')) {
			have = !header(&v, line);
		} else if (have && !strncmp(line, "VmFlags:", 8)) {
			vm_flags(&v, line + 8);
			have = 0;
			ret = fn(&v, arg);
		}
	}
	sim_cookie_syscall(__NR_close, l.fd, 0, 0, 0, 0);
	return 0;
}

int dma_vma_private_anon(const struct dma_vma *v)
{
	return v->anon && v->plain && !strcmp(v->perms, "rw-p");
}

void dma_vma_readvise(const struct dma_vma *v)
{
	long len = (long)(v->end - v->start);

	if (v->dontfork)
		sim_cookie_syscall(__NR_madvise, (long)v->start, len,
				   MADV_DONTFORK, 0, 0);
	if (v->dontdump)
		sim_cookie_syscall(__NR_madvise, (long)v->start, len,
				   MADV_DONTDUMP, 0, 0);
}

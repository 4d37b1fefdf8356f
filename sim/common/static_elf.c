// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Is a program statically linked (an x86-64 ELF without PT_INTERP)? Then
 * it runs through rdma-sim-static, since LD_PRELOAD cannot reach it: when
 * rdma-sim starts it, and when a program under the sim execs it.
 */
#include "static_elf.h"

#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int sim_static_elf(const char *path)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int fd = open(path, O_RDONLY | O_CLOEXEC), i, interp = 0;

	if (fd < 0)
		return 0;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_X86_64 ||
	    (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) ||
	    eh.e_phentsize != sizeof(ph)) {
		close(fd);
		return 0;
	}
	for (i = 0; i < eh.e_phnum && !interp; i++) {
		if (pread(fd, &ph, sizeof(ph),
			  (off_t)(eh.e_phoff + i * sizeof(ph))) != sizeof(ph))
			break;
		interp = ph.p_type == PT_INTERP;
	}
	close(fd);
	return i == eh.e_phnum && !interp;
}

int sim_static_program(const char *prog, char *path, size_t len)
{
	const char *p = getenv("PATH"), *end;
	int n;

	if (strchr(prog, '/')) {
		snprintf(path, len, "%s", prog);
		return sim_static_elf(path);
	}
	for (p = p ? p : "/usr/bin:/bin"; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		n = snprintf(path, len, "%.*s/%s", (int)(end - p),
			     end > p ? p : ".", prog);
		if (n > 0 && (size_t)n < len && !access(path, X_OK))
			return sim_static_elf(path);
	}
	return 0;
}

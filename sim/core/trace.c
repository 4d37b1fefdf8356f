// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* One line per intercepted call, appended atomically (O_APPEND). */
#include "sim.h"

#include <stdio.h>
#include <unistd.h>

void sim_trace(const char *fmt, ...)
{
	char line[2048];
	va_list ap;
	int n;

	if (sim.trace_fd < 0)
		return;
	n = snprintf(line, sizeof(line), "[%d] ", (int)getpid());
	va_start(ap, fmt);
	n += vsnprintf(line + n, sizeof(line) - n - 1, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	if (sys.write(sim.trace_fd, line, n) < 0)
		return;
}

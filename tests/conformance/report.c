// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* The canonical table: one line per row, fixed columns, no timings. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "conf.h"

static int failures;

#define ROW_FMT "%-5s %-46s %-16s %-16s %s\n"

void conf_print_header(const char *what)
{
	printf("# %s\n", what);
}

void conf_row(const char *scope, const char *name, const char *expected,
	      const char *got)
{
	bool same = strcmp(expected, got) == 0;

	if (!same)
		failures++;
	printf(ROW_FMT, scope, name, expected, got, same ? "ok" : "MISMATCH");
	fflush(stdout);
}

const char *conf_err(int err)
{
	const char *name;

	static char sig[16];

	if (err == 0)
		return "ok";
	if (err < 0) {
		snprintf(sig, sizeof(sig), "SIG%s", sigabbrev_np(-err) ?: "?");
		return sig;
	}
	name = strerrorname_np(err);
	return name ? name : "E?";
}

void conf_expect(const char *name, int expected, int got)
{
	conf_row("all", name, conf_err(expected), conf_err(got));
}

void conf_expect_kv(const char *name, int before_612, int since_612, int got)
{
	int expected = conf_kernel_at_least(6, 12) ? since_612 : before_612;

	conf_row("kver", name, conf_err(expected), conf_err(got));
}

void conf_expect_kmod(const char *name, int before_612, int since_612, int got)
{
	int expected = conf_kernel_at_least(6, 12) ? since_612 : before_612;

	conf_row("kmod", name, conf_err(expected), conf_err(got));
}

static void u_row(const char *scope, const char *name,
		  unsigned long long expected, unsigned long long got)
{
	char e[24], g[24];

	snprintf(e, sizeof(e), "%llu", expected);
	snprintf(g, sizeof(g), "%llu", got);
	conf_row(scope, name, e, g);
}

void conf_expect_u(const char *name, unsigned long long expected,
		   unsigned long long got)
{
	u_row("all", name, expected, got);
}

void conf_expect_u_kv(const char *name, unsigned long long before_612,
		      unsigned long long since_612, unsigned long long got)
{
	u_row("kver", name,
	      conf_kernel_at_least(6, 12) ? since_612 : before_612, got);
}

void conf_expect_u_kmod(const char *name, unsigned long long before_612,
			unsigned long long since_612, unsigned long long got)
{
	u_row("kmod", name,
	      conf_kernel_at_least(6, 12) ? since_612 : before_612, got);
}

bool conf_kernel_at_least(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return false;
	return ma > major || (ma == major && mi >= minor);
}

int conf_failures(void)
{
	return failures;
}

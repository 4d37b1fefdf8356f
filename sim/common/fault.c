// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* The --fault option: one table of kinds, one of keys, one parser. */
#include "fault.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct name_val {
	const char *name;
	uint32_t val;
};

static const char *const kind_names[SIM_FAULT_KINDS] = {
	[SIM_FAULT_DROP] = "drop",	 [SIM_FAULT_DUP] = "dup",
	[SIM_FAULT_REORDER] = "reorder", [SIM_FAULT_DELAY] = "delay",
	[SIM_FAULT_CORRUPT] = "corrupt", [SIM_FAULT_LINK_FLAP] = "link-flap",
	[SIM_FAULT_EVENT] = "event",	 [SIM_FAULT_CQE_ERR] = "cqe-error",
};

/* enum ibv_event_type */
static const struct name_val events[] = {
	{"CQ_ERR", 0},	      {"QP_FATAL", 1},	   {"QP_REQ_ERR", 2},
	{"QP_ACCESS_ERR", 3}, {"DEVICE_FATAL", 8}, {"PORT_ACTIVE", 9},
	{"PORT_ERR", 10},     {"LID_CHANGE", 11},  {"PKEY_CHANGE", 12},
	{"SM_CHANGE", 13},    {"SRQ_ERR", 14},	   {"CLIENT_REREGISTER", 17},
	{"GID_CHANGE", 18},
};

/* ibv_wc_status names, valued as the mlx5 error CQE syndrome */
static const struct name_val statuses[] = {
	{"LOC_LEN_ERR", 0x01},	  {"LOC_QP_OP_ERR", 0x02},
	{"LOC_PROT_ERR", 0x04},	  {"WR_FLUSH_ERR", 0x05},
	{"MW_BIND_ERR", 0x06},	  {"BAD_RESP_ERR", 0x10},
	{"LOC_ACCESS_ERR", 0x11}, {"REM_INV_REQ_ERR", 0x12},
	{"REM_ACCESS_ERR", 0x13}, {"REM_OP_ERR", 0x14},
	{"RETRY_EXC_ERR", 0x15},  {"RNR_RETRY_EXC_ERR", 0x16},
};

/* The same names as enum ib_wc_status numbers them (rxe's CQE status) */
static const struct name_val wc_statuses[] = {
	{"LOC_LEN_ERR", 1},	{"LOC_QP_OP_ERR", 2},
	{"LOC_PROT_ERR", 4},	{"WR_FLUSH_ERR", 5},
	{"MW_BIND_ERR", 6},	{"BAD_RESP_ERR", 7},
	{"LOC_ACCESS_ERR", 8},	{"REM_INV_REQ_ERR", 9},
	{"REM_ACCESS_ERR", 10}, {"REM_OP_ERR", 11},
	{"RETRY_EXC_ERR", 12},	{"RNR_RETRY_EXC_ERR", 13},
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const char *val_name(const struct name_val *t, size_t n, uint32_t v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].val == v)
			return t[i].name;
	return "?";
}

static int name_val(const struct name_val *t, size_t n, const char *s,
		    uint32_t *v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(t[i].name, s)) {
			*v = t[i].val;
			return 0;
		}
	return -1;
}

const char *sim_fault_kind_name(unsigned int kind)
{
	return kind < SIM_FAULT_KINDS ? kind_names[kind] : "?";
}

const char *sim_fault_event_name(uint32_t event)
{
	return val_name(events, N(events), event);
}

const char *sim_fault_status_name(uint32_t syndrome)
{
	return val_name(statuses, N(statuses), syndrome);
}

uint32_t sim_fault_wc_status(uint32_t syndrome)
{
	uint32_t wc = 0;

	name_val(wc_statuses, N(wc_statuses), sim_fault_status_name(syndrome),
		 &wc);
	return wc;
}

static int parse_num(const char *s, uint64_t max, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 0);
	return errno || !*s || *end || *s == '-' || *out > max ? -1 : 0;
}

/* rate=: a probability 0..1 ("0.01") or a percentage ("1%"). */
static int parse_rate(const char *s, uint32_t *ppm)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end != s && *end == '%' && !end[1]) {
		v /= 100;
		end++;
	}
	if (errno || end == s || *end || !(v > 0) || v > 1)
		return -1;
	*ppm = (uint32_t)(v * 1000000 + 0.5);
	return *ppm ? 0 : -1;
}

/* The keys, in the order of keys[] below; a kind's set is a bit mask. */
enum {
	K_RATE,
	K_PACKET,
	K_DEV,
	K_QP,
	K_MS,
	K_AT,
	K_FOR,
	K_TYPE,
	K_STATUS,
	K_WQE,
	K_UPTO
};
#define B(k) (1u << (k))
#define WIRE (B(K_RATE) | B(K_PACKET) | B(K_DEV) | B(K_QP) | B(K_UPTO))

static const char *const keys[] = {"rate", "packet", "dev",    "qp",
				   "ms",   "at",     "for",    "type",
				   "status", "wqe",  "upto"};

static const struct {
	uint32_t allowed, required;
} kind_keys[SIM_FAULT_KINDS] = {
	[SIM_FAULT_DROP] = {WIRE, 0},
	[SIM_FAULT_DUP] = {WIRE, 0},
	[SIM_FAULT_REORDER] = {WIRE, 0},
	[SIM_FAULT_DELAY] = {WIRE | B(K_MS), 0},
	[SIM_FAULT_CORRUPT] = {WIRE, 0},
	[SIM_FAULT_LINK_FLAP] = {B(K_DEV) | B(K_AT) | B(K_FOR),
				 B(K_AT) | B(K_FOR)},
	[SIM_FAULT_EVENT] = {B(K_DEV) | B(K_QP) | B(K_AT) | B(K_TYPE),
			     B(K_AT) | B(K_TYPE)},
	[SIM_FAULT_CQE_ERR] = {B(K_DEV) | B(K_QP) | B(K_WQE) | B(K_STATUS),
			       B(K_WQE) | B(K_STATUS)},
};

static int set_key(struct sim_fault_rule *r, unsigned int k, const char *v)
{
	uint64_t n;

	switch (k) {
	case K_RATE:
		return parse_rate(v, &r->rate);
	case K_TYPE:
		return name_val(events, N(events), v, &r->event);
	case K_STATUS:
		return name_val(statuses, N(statuses), v, &r->status) ||
				       r->status == 0x05
			       ? -1 /* a flush is the result of an error, not
				       one */
			       : 0;
	}
	if (parse_num(v, k == K_QP ? 0xffffff : UINT32_MAX, &n))
		return -1;
	switch (k) {
	case K_PACKET:
		r->packet = n;
		return n ? 0 : -1;
	case K_DEV:
		r->dev = (uint16_t)n;
		r->any_dev = 0;
		return n < 1024 ? 0 : -1;
	case K_QP:
		r->qpn = (uint32_t)n;
		return n ? 0 : -1;
	case K_MS:
	case K_AT:
		r->ms = (uint32_t)n;
		return 0;
	case K_FOR:
		r->for_ms = (uint32_t)n;
		return n ? 0 : -1;
	case K_WQE:
		r->wqe = (uint32_t)n;
		return n ? 0 : -1;
	case K_UPTO:
		r->upto = n;
		return n ? 0 : -1;
	}
	return -1;
}

int sim_fault_parse(const char *arg, struct sim_fault_rule *r, char *err,
		    size_t errlen)
{
	char buf[256], *kv, *val, *save = NULL;
	uint32_t seen = 0, kind;
	unsigned int k;

	memset(r, 0, sizeof(*r));
	r->any_dev = 1;
	snprintf(buf, sizeof(buf), "%s", arg);
	val = strchr(buf, ':');
	if (val)
		*val++ = 0;
	for (kind = 0; kind < SIM_FAULT_KINDS; kind++)
		if (!strcmp(buf, kind_names[kind]))
			break;
	if (kind == SIM_FAULT_KINDS) {
		snprintf(err, errlen, "unknown fault '%s'", buf);
		return -1;
	}
	r->kind = (uint8_t)kind;
	for (kv = val ? strtok_r(val, ",", &save) : NULL; kv;
	     kv = strtok_r(NULL, ",", &save)) {
		val = strchr(kv, '=');
		if (val)
			*val++ = 0;
		for (k = 0; k < N(keys) && strcmp(keys[k], kv); k++)
			;
		if (k == N(keys) || !val || !(kind_keys[kind].allowed & B(k)) ||
		    (seen & B(k))) {
			snprintf(err, errlen, "%s takes no key '%s' here",
				 kind_names[kind], kv);
			return -1;
		}
		if (set_key(r, k, val)) {
			snprintf(err, errlen, "%s: bad %s '%s'",
				 kind_names[kind], kv, val);
			return -1;
		}
		seen |= B(k);
	}
	if (SIM_FAULT_ON_WIRE(kind) &&
	    !(seen & B(K_RATE)) == !(seen & B(K_PACKET))) {
		snprintf(err, errlen,
			 "%s wants rate= or packet=", kind_names[kind]);
		return -1;
	}
	if ((seen & kind_keys[kind].required) != kind_keys[kind].required) {
		snprintf(err, errlen, "%s is missing a key (see --help)",
			 kind_names[kind]);
		return -1;
	}
	if (kind == SIM_FAULT_DELAY && !(seen & B(K_MS)))
		r->ms = 10;
	return 0;
}

int sim_fault_link_down(const struct sim_fault_rule *r, unsigned int n,
			uint64_t ms, unsigned int dev)
{
	unsigned int i;

	for (i = 0; i < n; i++, r++)
		if (r->kind == SIM_FAULT_LINK_FLAP &&
		    (r->any_dev || r->dev == dev) && ms >= r->ms &&
		    ms < (uint64_t)r->ms + r->for_ms)
			return 1;
	return 0;
}

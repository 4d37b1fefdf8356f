/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A scripted stand-in for the uverbs kernel interface. Test programs link
 * with -Wl,--wrap=ioctl,--wrap=write so every RDMA_VERBS_IOCTL and every
 * write() the library issues lands here: the exact bytes are recorded
 * (including the payload behind pointer attributes) and a per-test
 * handler decides the answer and may write outputs like the kernel does.
 */
#ifndef RDMA_DM_TEST_MOCK_KERNEL_H
#define RDMA_DM_TEST_MOCK_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "ibverbs.h"

#define MOCK_MAX_CALLS 16
#define MOCK_MAX_ATTRS 32
#define MOCK_MAX_BYTES 1024

enum mock_kind { MOCK_IOCTL, MOCK_WRITE };

struct mock_call {
	enum mock_kind kind;
	int fd;
	/* ioctl: header + attrs as passed; write: the buffer. */
	uint8_t bytes[MOCK_MAX_BYTES];
	size_t len;
	/* ioctl: the payload behind each pointer attribute (len > 8). */
	uint8_t payload[MOCK_MAX_ATTRS][256];
};

/* Return 0 or an errno; may write outputs through @hdr's attributes. */
typedef int (*mock_ioctl_fn)(struct ib_uverbs_ioctl_hdr *hdr);
/* Return 0 or an errno; @buf is what write() got. */
typedef int (*mock_write_fn)(const void *buf, size_t len);

extern mock_ioctl_fn mock_ioctl_handler;
extern mock_write_fn mock_write_handler;
extern struct mock_call mock_calls[MOCK_MAX_CALLS];
extern unsigned int mock_num_calls;

/* Handlers of a kernel that answers every ioctl (write) with one errno. */
int mock_fail_eprotonosupport(struct ib_uverbs_ioctl_hdr *hdr);
int mock_fail_enotty(struct ib_uverbs_ioctl_hdr *hdr);
int mock_fail_einval(struct ib_uverbs_ioctl_hdr *hdr);
int mock_fail_eio(struct ib_uverbs_ioctl_hdr *hdr);
int mock_fail_write_eio(const void *buf, size_t len);

/* Forget recorded calls; handlers back to "succeed, write nothing". */
void mock_reset(void);

/* The attribute of a recorded ioctl call. */
const struct ib_uverbs_ioctl_hdr *mock_hdr(unsigned int call);
const struct ib_uverbs_attr *mock_attr(unsigned int call, unsigned int i);
/* The attribute with @id in @hdr (live, during a handler), or NULL. */
struct ib_uverbs_attr *mock_find(struct ib_uverbs_ioctl_hdr *hdr, uint16_t id);
/*
 * A handler for QP_DESTROY and SRQ_DESTROY: the kernel reports
 * mock_destroy_events async events in the response (attribute 1).
 */
extern uint32_t mock_destroy_events;
int mock_answer_destroy(struct ib_uverbs_ioctl_hdr *hdr);

/*
 * A context as a provider would get it from verbs_init_and_alloc_context,
 * probing INVOKE_WRITE with @probe_answer (ENOSPC: supported). The probe
 * call is not kept in mock_calls.
 */
struct verbs_context *mock_context(uint32_t driver_id, int probe_answer);
void mock_context_free(struct verbs_context *c);

/*
 * The context of a command test, made before each test by one of these
 * cmocka fixtures on mlx5: mock_setup_ioctl answers the probe ENOSPC (a
 * kernel that tunnels write commands through ioctl), mock_setup_write
 * EPROTONOSUPPORT (plain write()). mock_teardown frees it. A file that
 * needs more calls them from its own fixtures.
 */
extern struct verbs_context *vctx;
int mock_setup_ioctl(void **state);
int mock_setup_write(void **state);
int mock_teardown(void **state);

/* Assert one recorded attribute field by field; ~0 data means "any". */
#define MOCK_ANY UINT64_MAX
void mock_expect_attr(unsigned int call, unsigned int i, uint16_t id,
		      uint16_t len, uint16_t flags, uint64_t data);
/* Assert the header of a recorded ioctl. */
void mock_expect_hdr(unsigned int call, uint16_t object, uint16_t method,
		     uint16_t num_attrs, uint32_t driver_id);

/* Little-endian helpers to spell expected byte images. */
#define U16(v) (uint8_t)(v), (uint8_t)((v) >> 8)
#define U32(v) U16(v), U16((v) >> 16)
#define U64(v) U32(v), U32((uint64_t)(v) >> 32)
/* struct ib_uverbs_ioctl_hdr and struct ib_uverbs_attr, byte by byte. */
#define HDR(len, object, method, num_attrs, driver_id)                         \
	U16(len), U16(object), U16(method), U16(num_attrs), U64(0),            \
		U32(driver_id), U32(0)
#define ATTR(id, len, flags, data)                                             \
	U16(id), U16(len), U16(flags), U16(0), U64(data)

/* A recorded write(): its ib_uverbs_cmd_hdr, then bytes at an offset. */
void mock_expect_write_hdr(unsigned int call, uint32_t command,
			   uint16_t in_words, uint16_t out_words);
uint32_t mock_u32_at(unsigned int call, size_t off);
uint64_t mock_u64_at(unsigned int call, size_t off);
/* The response pointer of a write() being handled (both header kinds). */
void *mock_write_response(const void *buf);

#endif /* RDMA_DM_TEST_MOCK_KERNEL_H */

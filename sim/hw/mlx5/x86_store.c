// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Decoding the store a program made to a UAR page (Intel SDM vol. 2:
 * legacy prefixes, REX, the VEX forms, ModRM and SIB addressing). A
 * doorbell is written with one MOV of a 64-bit register; a BlueFlame copy
 * with MOVs or SSE stores (libmlx5 and UCX: MOVAPS/MOVUPS/MOVQ); a test
 * may store a small immediate. Those are decoded here, and the value
 * stored is read from the interrupted thread's registers in the signal
 * frame (general registers, the XMM registers of the FXSAVE area and the
 * upper YMM halves of the XSAVE area).
 */
#include "x86_store.h"

#include <string.h>

#if defined(__x86_64__)

/* ucontext slot of each x86 register number (RAX = 0 ... R15 = 15) */
static const int gpr_slot[16] = {
	REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP, REG_RSI, REG_RDI,
	REG_R8,	 REG_R9,  REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15,
};

#define XSTATE_MAGIC1 0x46505853u /* the frame carries an XSAVE area */
#define XSAVE_SW_OFF  464	  /* its software-reserved bytes */
#define XSAVE_BV_OFF  512	  /* header: xstate_bv */
#define XSAVE_YMM_OFF 576	  /* YMM_Hi128 (standard format) */
#define XSTATE_YMM    (1u << 2)
#define MAX_INSN      15

struct insn {
	const uint8_t *p; /* next byte */
	uint8_t p66, pf2, pf3;
	uint8_t rex, w, r, x, b;
	uint8_t vex, vex_l;
	uint8_t map; /* 0: one-byte opcodes, 1: the 0F map */
	uint8_t op, mod, reg, rm;
	uint8_t rip_rel;
	uintptr_t ea;
};

static uint64_t greg(const ucontext_t *uc, unsigned int n)
{
	return (uint64_t)uc->uc_mcontext.gregs[gpr_slot[n & 15]];
}

/* Legacy prefixes: operand size, the SSE selectors, the ignored segment
 * overrides. FS/GS (their bases are not in the frame) and LOCK: none. */
static int prefixes(struct insn *in)
{
	int n;

	for (n = 0; n < 4; n++, in->p++) {
		switch (*in->p) {
		case 0x66:
			in->p66 = 1;
			break;
		case 0xf2:
			in->pf2 = 1;
			break;
		case 0xf3:
			in->pf3 = 1;
			break;
		case 0x26:
		case 0x2e:
		case 0x36:
		case 0x3e:
			break;
		default:
			return 0;
		}
	}
	return -1;
}

/* The VEX pp field names an implied 66, F3 or F2 prefix. */
static void vex_pp(struct insn *in, uint8_t pp)
{
	in->p66 |= pp == 1;
	in->pf3 |= pp == 2;
	in->pf2 |= pp == 3;
}

/* REX or VEX, then the opcode map and the opcode. */
static int opcode(struct insn *in)
{
	const uint8_t *p = in->p;

	if ((*p & 0xf0) == 0x40) {
		in->rex = *p++;
		in->w = in->rex >> 3 & 1;
		in->r = in->rex >> 2 & 1;
		in->x = in->rex >> 1 & 1;
		in->b = in->rex & 1;
	}
	if (*p == 0xc5 && !in->rex) { /* two-byte VEX: map 0F */
		in->vex = 1;
		in->r = !(p[1] & 0x80);
		in->vex_l = p[1] >> 2 & 1;
		vex_pp(in, p[1] & 3);
		in->map = 1;
		p += 2;
	} else if (*p == 0xc4 && !in->rex) { /* three-byte VEX */
		in->vex = 1;
		in->r = !(p[1] & 0x80);
		in->x = !(p[1] & 0x40);
		in->b = !(p[1] & 0x20);
		in->map = p[1] & 0x1f;
		in->w = p[2] >> 7;
		in->vex_l = p[2] >> 2 & 1;
		vex_pp(in, p[2] & 3);
		p += 3;
	} else if (*p == 0x0f) {
		in->map = 1;
		p++;
	}
	if (in->map > 1 || (in->vex && in->map != 1))
		return -1; /* 0F38, 0F3A: no plain stores there */
	in->op = *p++;
	in->p = p;
	return 0;
}

/* ModRM, SIB and displacement: the memory operand's address. */
static int address(struct insn *in, const ucontext_t *uc)
{
	uint8_t modrm = *in->p++, sib, base;
	uintptr_t ea = 0;
	int32_t d32;

	in->mod = modrm >> 6;
	in->reg = (uint8_t)((modrm >> 3 & 7) | in->r << 3);
	in->rm = modrm & 7;
	if (in->mod == 3)
		return -1; /* a register operand stores nothing to memory */
	if (in->rm == 4) {
		sib = *in->p++;
		base = sib & 7;
		if ((sib >> 3 & 7) != 4 || in->x)
			ea += greg(uc, (sib >> 3 & 7) | in->x << 3)
			      << (sib >> 6);
		if (base == 5 && in->mod == 0) {
			memcpy(&d32, in->p, 4);
			in->p += 4;
			ea += (uintptr_t)(intptr_t)d32;
		} else {
			ea += greg(uc, base | in->b << 3);
		}
	} else if (in->rm == 5 && in->mod == 0) {
		in->rip_rel = 1; /* relative to the next instruction */
		memcpy(&d32, in->p, 4);
		in->p += 4;
		ea += (uintptr_t)(intptr_t)d32;
	} else {
		ea += greg(uc, in->rm | in->b << 3);
	}
	if (in->mod == 1) {
		ea += (uintptr_t)(intptr_t)(int8_t)*in->p++;
	} else if (in->mod == 2) {
		memcpy(&d32, in->p, 4);
		in->p += 4;
		ea += (uintptr_t)(intptr_t)d32;
	}
	in->ea = ea;
	return 0;
}

static void put_gpr(struct x86_store *st, uint64_t v, unsigned int width)
{
	st->width = width;
	memcpy(st->val, &v, width); /* little-endian, as the CPU stores */
}

/* MOV r/m,r (88, 89), MOV r/m,imm (C6 /0, C7 /0). */
static int one_byte_op(struct insn *in, const ucontext_t *uc,
		       struct x86_store *st)
{
	unsigned int width = in->w ? 8 : in->p66 ? 2 : 4;
	int32_t imm;
	int16_t imm16;

	switch (in->op) {
	case 0x88: /* without REX, registers 4-7 are AH, CH, DH, BH */
		if (in->rex || in->reg < 4)
			put_gpr(st, greg(uc, in->reg), 1);
		else
			put_gpr(st, greg(uc, in->reg - 4) >> 8, 1);
		return 0;
	case 0x89:
		put_gpr(st, greg(uc, in->reg), width);
		return 0;
	case 0xc6:
		if (in->reg & 7)
			return -1;
		put_gpr(st, *in->p++, 1);
		return 0;
	case 0xc7:
		if (in->reg & 7)
			return -1;
		if (in->p66) {
			memcpy(&imm16, in->p, 2);
			in->p += 2;
			put_gpr(st, (uint64_t)(int64_t)imm16, 2);
			return 0;
		}
		memcpy(&imm, in->p, 4);
		in->p += 4;
		put_gpr(st, (uint64_t)(int64_t)imm, width);
		return 0;
	}
	return -1;
}

/* XMM register n (and with ymm its upper half) from the signal frame. */
static int vec_reg(const ucontext_t *uc, unsigned int n, int ymm, uint8_t *out)
{
	const uint8_t *fx = (const uint8_t *)uc->uc_mcontext.fpregs;
	uint32_t magic;
	uint64_t bv;

	if (!fx)
		return -1;
	memcpy(out, uc->uc_mcontext.fpregs->_xmm[n & 15].element, 16);
	if (!ymm)
		return 0;
	memcpy(&magic, fx + XSAVE_SW_OFF, 4);
	if (magic != XSTATE_MAGIC1)
		return -1;
	memcpy(&bv, fx + XSAVE_BV_OFF, 8);
	if (bv & XSTATE_YMM)
		memcpy(out + 16, fx + XSAVE_YMM_OFF + (n & 15) * 16, 16);
	else
		memset(out + 16, 0, 16); /* in its initial state: zero */
	return 0;
}

/* Width of a 0F-map store, or 0 if the opcode is no store from an XMM
 * register (MMX forms included: no MMX state is decoded). */
static unsigned int sse_width(const struct insn *in)
{
	unsigned int vec = in->vex_l ? 32 : 16;

	switch (in->op) {
	case 0x11: /* MOVUPS/MOVUPD, MOVSS (F3), MOVSD (F2) */
		return in->pf3 ? 4 : in->pf2 ? 8 : vec;
	case 0x29: /* MOVAPS/MOVAPD */
	case 0x2b: /* MOVNTPS/MOVNTPD */
		return in->pf2 || in->pf3 ? 0 : vec;
	case 0x7f: /* MOVDQA (66), MOVDQU (F3) */
		return in->p66 || in->pf3 ? vec : 0;
	case 0xe7: /* MOVNTDQ */
		return in->p66 ? vec : 0;
	case 0xd6: /* MOVQ m64, xmm */
		return in->p66 ? 8 : 0;
	case 0x7e: /* MOVD/MOVQ r/m, xmm */
		return in->p66 ? (in->w ? 8 : 4) : 0;
	case 0x13: /* MOVLPS/MOVLPD */
	case 0x17: /* MOVHPS/MOVHPD: the high quadword */
		return in->pf2 || in->pf3 ? 0 : 8;
	}
	return 0;
}

static int two_byte_op(struct insn *in, const ucontext_t *uc,
		       struct x86_store *st)
{
	uint8_t v[32];

	if (in->op == 0xc3 && !in->vex && !in->p66 && !in->pf2 && !in->pf3) {
		put_gpr(st, greg(uc, in->reg), in->w ? 8 : 4); /* MOVNTI */
		return 0;
	}
	st->width = sse_width(in);
	if (!st->width || vec_reg(uc, in->reg, st->width == 32, v))
		return -1;
	memcpy(st->val, in->op == 0x17 ? v + 8 : v, st->width);
	return 0;
}

int x86_store_decode(const ucontext_t *uc, struct x86_store *st)
{
	const uint8_t *ip = (const uint8_t *)uc->uc_mcontext.gregs[REG_RIP];
	struct insn in = {.p = ip};
	int ret;

	if (prefixes(&in) || opcode(&in) || address(&in, uc))
		return -1;
	ret = in.map ? two_byte_op(&in, uc, st) : one_byte_op(&in, uc, st);
	if (ret || in.p - ip > MAX_INSN)
		return -1;
	st->len = (unsigned int)(in.p - ip);
	st->addr = in.ea + (in.rip_rel ? (uintptr_t)in.p : 0);
	return 0;
}

#else

int x86_store_decode(const ucontext_t *uc, struct x86_store *st)
{
	(void)uc;
	(void)st;
	return -1;
}

#endif

/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The HCA's firmware-command interface: how the mlx5 driver creates,
 * changes, queries and destroys what the HCA keeps in its own tables
 * (CQs, QPs, DCTs, SRQs, memory keys, the event queue), as mlx5_ib does
 * through mlx5_cmd_exec. Commands carry the PRM's opcodes and names; the
 * inputs and outputs are host-order structs (an internal interface, not
 * the PRM's big-endian layouts). Every output starts with the status and
 * syndrome the firmware returns; hca_cmd_exec turns a failed status into
 * the errno mlx5_core would (mlx5_cmd_check).
 *
 * The HCA names everything by number (cqn, qpn, srqn, pdn, mkey); it
 * never sees the kernel's objects. What it has to report (completion and
 * affiliated events, QP state changes it made) goes up through the event
 * queue the driver created (HCA_CMD_CREATE_EQ), one EQE at a time.
 */
#ifndef RDMA_SIM_HCA_CMD_H
#define RDMA_SIM_HCA_CMD_H

#include <stddef.h>
#include <stdint.h>

/* Command opcodes (the PRM's numbers) */
enum {
	HCA_CMD_CREATE_MKEY = 0x200,
	HCA_CMD_DESTROY_MKEY = 0x202,
	HCA_CMD_PAGE_FAULT_RESUME = 0x204,
	HCA_CMD_CREATE_EQ = 0x301,
	HCA_CMD_CREATE_CQ = 0x400,
	HCA_CMD_DESTROY_CQ = 0x401,
	HCA_CMD_QUERY_CQ = 0x402,
	HCA_CMD_MODIFY_CQ = 0x403,
	HCA_CMD_CREATE_QP = 0x500,
	HCA_CMD_DESTROY_QP = 0x501,
	HCA_CMD_RST2INIT_QP = 0x502,
	HCA_CMD_INIT2RTR_QP = 0x503,
	HCA_CMD_RTR2RTS_QP = 0x504,
	HCA_CMD_RTS2RTS_QP = 0x505,
	HCA_CMD_SQERR2RTS_QP = 0x506,
	HCA_CMD_2ERR_QP = 0x507,
	HCA_CMD_2RST_QP = 0x50a,
	HCA_CMD_QUERY_QP = 0x50b,
	HCA_CMD_SQD_RTS_QP = 0x50c,
	HCA_CMD_INIT2INIT_QP = 0x50e,
	HCA_CMD_CREATE_SRQ = 0x700,
	HCA_CMD_DESTROY_SRQ = 0x701,
	HCA_CMD_QUERY_SRQ = 0x702,
	HCA_CMD_ARM_RQ = 0x703,
	HCA_CMD_CREATE_XRC_SRQ = 0x705,
	HCA_CMD_DESTROY_XRC_SRQ = 0x706,
	HCA_CMD_ARM_XRC_SRQ = 0x708,
	HCA_CMD_CREATE_DCT = 0x710,
	HCA_CMD_DESTROY_DCT = 0x711,
	HCA_CMD_QUERY_DCT = 0x713,
	/* Not the PRM's: a transition the verbs allow that mlx5 firmware
	 * has no command for (RTS->SQD, SQD->SQD, ...), to in.state. */
	HCA_CMD_SIM_2STATE_QP = 0xf00,
	/* Not the PRM's: this process holds an XRC TGT QP made in another
	 * (open_qp); its HCA must hear of the QP's errors (num: the QPN). */
	HCA_CMD_SIM_OPEN_XRC_TGT = 0xf01,
};

/* Command status (the firmware's, first byte of every output) */
enum {
	HCA_STAT_OK = 0x00,
	HCA_STAT_INT_ERR = 0x01,
	HCA_STAT_BAD_OP_ERR = 0x02,
	HCA_STAT_BAD_PARAM_ERR = 0x03,
	HCA_STAT_BAD_SYS_STATE_ERR = 0x04,
	HCA_STAT_BAD_RES_ERR = 0x05,
	HCA_STAT_RES_BUSY = 0x06,
	HCA_STAT_LIM_ERR = 0x08,
	HCA_STAT_BAD_RES_STATE_ERR = 0x09,
	HCA_STAT_NO_RES_ERR = 0x0f,
	HCA_STAT_BAD_QP_STATE_ERR = 0x10,
	HCA_STAT_BAD_SIZE_OUTS_CQES_ERR = 0x40,
	HCA_STAT_BAD_INP_LEN_ERR = 0x50,
	HCA_STAT_BAD_OUTP_LEN_ERR = 0x51,
};

struct hca_cmd_in {
	uint16_t opcode;
	uint16_t op_mod;
};

struct hca_cmd_out {
	uint8_t status;
	uint32_t syndrome; /* which check failed (the opcode's, for now) */
};

/* A command that names one object: DESTROY_MKEY (the key), DESTROY_CQ,
 * QUERY_CQ, DESTROY_QP, QUERY_QP, DESTROY_DCT, QUERY_DCT, DESTROY_SRQ,
 * DESTROY_XRC_SRQ, QUERY_SRQ. */
struct hca_num_in {
	struct hca_cmd_in hdr;
	uint32_t num;
};

/*
 * Run one command: in is in_len bytes beginning with struct hca_cmd_in,
 * out has room for the command's output. 0, or the errno of the status
 * in out (which is always written). Needs sim_lock.
 */
int hca_cmd_exec(const void *in, size_t in_len, void *out, size_t out_len);
/* The command's PRM name ("CREATE_QP"), or NULL. */
const char *hca_cmd_name(uint16_t opcode);

/* ---- what the driver reads of the device (QUERY_HCA_CAP,
 * QUERY_SPECIAL_CONTEXTS) ---- */
#define HCA_NULL_MKEY	0x7 /* the null MR's key: dump_fill_mkey */
#define HCA_TM_RNDV_HDR 64  /* tag matching: max_rndv_hdr_size */

/*
 * The firmware's MAD agents (the SMA and PMA, hca_mad.c), as MAD_IFC
 * reaches them: 1 with the response to MAD in, arriving on port 1 of
 * device dev, in out; 0 when no agent of the HCA answers it (it goes
 * unanswered, as into a fabric without that manager).
 */
int sim_process_mad(unsigned int dev, const uint8_t *in, uint8_t *out);

/* ---- the device clock (the init segment's internal timer) ---- */
#define HCA_CLOCK_MASK ((1ULL << 41) - 1)
/* The counter now, and what it read at CLOCK_MONOTONIC time mono_ns. */
uint64_t hca_clock_now(void);
uint64_t hca_clock_at(uint64_t mono_ns);

/* ---- event queue ---- */
/* EQE types (the PRM's event numbers; 0xf0 up are the sim's own) */
enum {
	HCA_EQE_COMP = 0x00,
	HCA_EQE_PATH_MIG = 0x01,
	HCA_EQE_COMM_EST = 0x02,
	HCA_EQE_SQ_DRAINED = 0x03,
	HCA_EQE_CQ_ERROR = 0x04,
	HCA_EQE_WQ_CATAS_ERROR = 0x05,
	HCA_EQE_PATH_MIG_FAILED = 0x07,
	HCA_EQE_INTERNAL_ERROR = 0x08,
	HCA_EQE_PORT_CHANGE = 0x09,
	HCA_EQE_PAGE_FAULT = 0x0c, /* num: the mkey */
	HCA_EQE_WQ_INVAL_REQ_ERROR = 0x10,
	HCA_EQE_WQ_ACCESS_ERROR = 0x11,
	HCA_EQE_SRQ_CATAS_ERROR = 0x12,
	HCA_EQE_SRQ_LAST_WQE = 0x13,
	HCA_EQE_SRQ_RQ_LIMIT = 0x14,
	/* The HCA moved a QP's state by itself (to ERR): the kernel's copy
	 * of the state follows (QUERY_QP tells which). Hardware has no such
	 * EQE; the kernel asks the firmware on every query instead. */
	HCA_EQE_QP_STATE = 0xf0,
	/* An XRC TGT QP (num) went to ERR in another process: the event
	 * that process raised goes to this process's handles too. */
	HCA_EQE_XRC_TGT_ERR = 0xf1,
};
/* Affiliated QP EQE sub-type: the QP is an XRC TGT QP, the domain's, so
 * the error goes to every handle of every process holding it. */
enum {
	HCA_EQE_SUB_XRC_TGT = 1,
};
/* PORT_CHANGE sub-types (the PRM's; SM is the sim's own) */
enum {
	HCA_PORT_DOWN = 1,
	HCA_PORT_ACTIVE = 4,
	HCA_PORT_LID = 5,
	HCA_PORT_PKEY = 6,
	HCA_PORT_GUID = 7,
	HCA_PORT_CLIENT_REREG = 8,
	HCA_PORT_SM = 0xf0,
};

/* PAGE_FAULT sub-types: what the HCA asks of the driver */
enum {
	HCA_PF_TRANSLATE, /* where the mkey's bytes are now */
	HCA_PF_ODP_READ,  /* [va, va+len) in */
	HCA_PF_ODP_WRITE, /* [va, va+len) in and writable */
};

struct hca_eqe {
	uint8_t type, sub_type;
	uint16_t dev;
	/* cqn, qpn / dctn, srqn, mkey; the port for PORT_CHANGE */
	uint32_t num;
	uint64_t va; /* PAGE_FAULT on ODP: the range */
	uint64_t len;
};

struct hca_create_eq_in {
	struct hca_cmd_in hdr;
	/* where EQEs go, in the engine's thread under sim_lock */
	void (*handler)(const struct hca_eqe *eqe);
};

/* ---- memory keys ---- */
/* CREATE_MKEY op_mod: what the key is */
enum { HCA_MKEY_MR = 0, HCA_MKEY_MW = 1 };
/* How the HCA reaches an MR's bytes */
enum {
	HCA_MKEY_PINNED, /* at addr, resident */
	HCA_MKEY_ODP,	 /* at addr, faulted in on access */
	HCA_MKEY_FAULT,	 /* asked of the driver (PAGE_FAULT) at each access */
	HCA_MKEY_NONE,	 /* no bytes the HCA can reach (SW ICM) */
};
struct hca_create_mkey_in {
	struct hca_cmd_in hdr;
	uint32_t dev;
	uint32_t key; /* the key the kernel handed out (index << 8 | byte) */
	uint32_t pdn;
	uint32_t access;     /* IB_ACCESS_* */
	uint8_t mw_type;     /* HCA_MKEY_MW: 1 or 2, created free */
	uint8_t translation; /* HCA_MKEY_MR: HCA_MKEY_PINNED ... NONE */
	uint64_t start, length;
	uint64_t addr; /* PINNED / ODP: process address of byte start */
};

/* The driver's answer to a PAGE_FAULT EQE: where the bytes are, 0 when
 * they are gone (the access fails); for ODP, whether it resolved the
 * fault and had to bring pages in. */
struct hca_page_fault_resume_in {
	struct hca_cmd_in hdr;
	uint32_t key;
	uint64_t addr;
	uint8_t error;
	uint8_t faulted;
};

/* ---- CQ ---- */
struct hca_create_cq_in {
	struct hca_cmd_in hdr;
	uint32_t dev;
	uint32_t ncqe; /* power of two */
	uint32_t cqe_size;
	uint8_t ignore_overrun;
	uint64_t buf, dbrec; /* process addresses of ring and record */
};

struct hca_create_cq_out {
	struct hca_cmd_out hdr;
	uint32_t cqn;
};

struct hca_query_cq_out {
	struct hca_cmd_out hdr;
	uint32_t ncqe, cqe_size;
};

enum { HCA_MODIFY_CQ_MODERATE = 0, HCA_MODIFY_CQ_RESIZE = 1 }; /* op_mod */
struct hca_modify_cq_in {
	struct hca_cmd_in hdr;
	uint32_t cqn;
	/* RESIZE: the new ring (its CQEs not yet consumed must fit) */
	uint32_t ncqe;
	uint64_t buf;
	/* MODERATE: events wait for count CQEs or period us (0: off) */
	uint16_t cq_max_count, cq_period;
};

/* ---- QP ---- */
/* The QPC's service type (the PRM's st) */
enum {
	HCA_ST_RC = 0x0,
	HCA_ST_UC = 0x1,
	HCA_ST_UD = 0x2,
	HCA_ST_XRC = 0x3,
	HCA_ST_DCI = 0x5
};
/* An XRC QP's half (HCA_ST_XRC) */
enum { HCA_XRC_HALF_INI = 1, HCA_XRC_HALF_TGT = 2 };
struct hca_create_qp_in {
	struct hca_cmd_in hdr;
	uint32_t dev;
	uint32_t qpn;	  /* the number the kernel reserved for it */
	uint8_t st;	  /* HCA_ST_* */
	uint8_t xrc_half; /* HCA_ST_XRC: HCA_XRC_HALF_* */
	uint32_t pdn, cqn_snd, cqn_rcv, srqn; /* 0: none */
	uint32_t xrcdn;			      /* XRC_TGT */
	uint32_t uidx;
	uint64_t buf, dbrec;
	uint32_t sq_wqe_cnt, rq_wqe_cnt, rq_wqe_shift;
	/* QPC cs_res / cs_req: scatter to CQE (HCA_CS_RES_*, HCA_CS_REQ_*) */
	uint8_t cs_res, cs_req;
	/* what the verbs asked for, for the trace only */
	uint32_t cap_send_wr, cap_recv_wr, cap_send_sge, cap_recv_sge;
	uint32_t cap_inline;
};

/* The QP context fields a modify command sets (its opt_param_mask). */
enum {
	HCA_QPC_ACCESS = 1 << 0,
	HCA_QPC_QKEY = 1 << 1,
	HCA_QPC_PATH = 1 << 2,
	HCA_QPC_TIMEOUT = 1 << 3,
	HCA_QPC_RETRY = 1 << 4,
	HCA_QPC_RNR_RETRY = 1 << 5,
	HCA_QPC_MIN_RNR = 1 << 6,
	HCA_QPC_SRA = 1 << 7, /* max READ/atomic in flight */
	HCA_QPC_RRA = 1 << 8, /* responder resources */
	HCA_QPC_RQ_PSN = 1 << 9,
	HCA_QPC_SQ_PSN = 1 << 10,
	HCA_QPC_DEST_QPN = 1 << 11,
	HCA_QPC_DP_ORDERING = 1 << 12, /* dp_ordering_1 and _force */
};

/* RST2INIT, INIT2INIT, INIT2RTR, RTR2RTS, RTS2RTS, SQERR2RTS, SQD_RTS,
 * 2ERR, 2RST: the target state is the command's (SIM_2STATE: state). */
struct hca_modify_qp_in {
	struct hca_cmd_in hdr;
	uint32_t qpn;
	uint32_t state; /* SIM_2STATE_QP only */
	uint32_t mask;	/* HCA_QPC_* */
	uint8_t access; /* the verbs' IB_ACCESS_* remote bits */
	uint32_t qkey;
	uint32_t path_dev; /* the device the primary path leads to */
	uint16_t udp_sport; /* RoCE v2: the path's UDP source port (ads) */
	uint8_t timeout, retry_cnt, rnr_retry, min_rnr_timer;
	uint8_t log_sra_max; /* 1 << it READ/atomic WQEs in flight */
	uint8_t rra_max;     /* READ/atomic requests kept as responder */
	uint32_t rq_psn, sq_psn, dest_qpn;
	uint8_t dp_ooo; /* data-path ordering forced out of order */
};

struct hca_query_qp_out {
	struct hca_cmd_out hdr;
	uint32_t state; /* the verbs' numbering of QP states */
};

/* The DCT with everything it needs (the driver creates it at INIT->RTR,
 * when the verbs have given all of it). */
struct hca_create_dct_in {
	struct hca_cmd_in hdr;
	uint32_t dev;
	uint32_t dctn;
	uint32_t pdn, cqn, srqn, uidx;
	uint64_t dc_key;
	uint8_t access, min_rnr_timer;
	uint8_t dp_ooo; /* dctc dp_ordering_1 and _force */
	uint8_t cs_res; /* dctc cs_res: HCA_CS_RES_* */
};

/* QPC / DCTC scatter-to-CQE values (mlx5_ifc.h's MLX5_QPC_CS_*). */
enum {
	HCA_CS_RES_DISABLE = 0x0,
	HCA_CS_RES_UP_TO_32B = 0x1,
	HCA_CS_RES_UP_TO_64B = 0x2,
	HCA_CS_REQ_DISABLE = 0x0,
	HCA_CS_REQ_UP_TO_32B = 0x11,
	HCA_CS_REQ_UP_TO_64B = 0x22,
};

/*
 * What QUERY_HCA_CAP answers about data-path ordering, as a ConnectX-7
 * does: cap_2 dp_ordering_force, and the service types whose ordering it
 * can force to "out of order, all" (dp_ordering_ooo_all_rc, _xrc, _dc;
 * not UD or UC).
 */
enum {
	HCA_DP_OOO_RC = 1 << 0,
	HCA_DP_OOO_XRC = 1 << 1,
	HCA_DP_OOO_DC = 1 << 2,
	HCA_DP_OOO_UD = 1 << 3,
	HCA_DP_OOO_UC = 1 << 4,
};
#define HCA_CAP_DP_ORDERING_FORCE 1
#define HCA_CAP_DP_OOO_ALL	  (HCA_DP_OOO_RC | HCA_DP_OOO_XRC | HCA_DP_OOO_DC)

/* ---- SRQ (basic and XRC) ---- */
struct hca_create_srq_in {
	struct hca_cmd_in hdr;
	uint32_t dev;
	uint32_t srqn; /* the number the kernel chose, 0: the HCA's */
	uint32_t pdn;
	uint32_t xrcdn; /* CREATE_XRC_SRQ */
	uint32_t cqn;	/* XRC and tag matching SRQs: their CQ */
	uint32_t uidx;
	uint32_t wqe_cnt, wqe_shift, max_gs;
	uint32_t lwm; /* the armed limit, 0: not armed */
	uint32_t tm_slots; /* tag matching: the tag list's size, 0: none */
	uint64_t buf, dbrec;
};

struct hca_create_srq_out {
	struct hca_cmd_out hdr;
	uint32_t srqn;
};

struct hca_query_srq_out {
	struct hca_cmd_out hdr;
	uint32_t wqe_cnt, lwm;
};

struct hca_arm_rq_in { /* ARM_RQ, ARM_XRC_SRQ */
	struct hca_cmd_in hdr;
	uint32_t srqn;
	uint32_t lwm;
};

#endif

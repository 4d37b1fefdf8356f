// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RC connections over the RDMA CM, loopback on rxe0, the server and the
 * client on two files: the events each side sees in order, private data
 * sizes and bytes as the CM messages carry them, the reject reasons, the
 * RTU an ACCEPT without parameters sends, and disconnect. No QPs: the CM
 * only carries the QP numbers it is given.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cm.h"
#include "conf.h"

#define PORT_RC	    20200
#define UID_LISTEN  0x5301
#define UID_PASSIVE 0x5302
#define CLIENT_QPN  0x12345678 /* the CM keeps 24 bits */
#define SERVER_QPN  0x00abcdef
#define CM_QPS_RTR  2 /* IB_QPS_RTR of the kernel's enum ib_qp_state */

struct rc_pair {
	int srv, cli;
	uint32_t listener;
};

/* Rows NAME.{event,...}: a CONNECT_REQUEST on the listener carrying plen
 * bytes of seed; its new id in *id. */
static bool expect_request(const char *name, struct rc_pair *p,
			   unsigned int plen, uint8_t seed, uint32_t *id)
{
	struct rdma_ucm_event_resp e;
	char row[64];

	snprintf(row, sizeof(row), "%s.event", name);
	if (!cm_expect_event(row, p->srv, CM_EV_CONNECT_REQUEST, &e))
		return false;
	*id = e.id;
	snprintf(row, sizeof(row), "%s.listener_uid", name);
	conf_expect_u(row, UID_LISTEN, e.uid);
	snprintf(row, sizeof(row), "%s.new_id", name);
	conf_expect_u(row, 1, e.id != p->listener);
	snprintf(row, sizeof(row), "%s.pdata", name);
	conf_expect_u(row, 1,
		      cm_pattern_ok(e.param.conn.private_data, plen, seed));
	return true;
}

/* No listener on the port: REJ with reason 8 (invalid service id). */
static void check_no_listener(struct rc_pair *p)
{
	struct rdma_ucm_conn_param cp;
	struct rdma_ucm_event_resp e;
	uint32_t id;

	if (!cm_client("rc.nolisten", p->cli, RDMA_PS_TCP, 0xC1, CM_PORT_NONE,
		       &id))
		return;
	cm_param(&cp, CLIENT_QPN, 0, 0);
	conf_expect("rc.nolisten.connect", 0, cm_connect(p->cli, id, &cp));
	if (cm_expect_event("rc.nolisten.event", p->cli, CM_EV_REJECTED, &e))
		conf_expect_u("rc.nolisten.reason", 8, e.status);
	cm_destroy(p->cli, id, NULL);
}

/* REQ checks, then a REJECT with private data. */
static void check_reject(struct rc_pair *p)
{
	struct rdma_ucm_conn_param cp;
	struct rdma_ucm_event_resp e;
	struct rdma_ucm_connect bad;
	uint32_t id, req;

	if (!cm_client("rc.rej.client", p->cli, RDMA_PS_TCP, 0xC2, PORT_RC,
		       &id))
		return;
	cm_param(&cp, CLIENT_QPN, 57, 0x10);
	conf_expect("rc.connect.pdata_57", EINVAL, cm_connect(p->cli, id, &cp));
	cp.private_data_len = 56;
	cp.valid = 0;
	conf_expect("rc.connect.not_valid", EINVAL,
		    cm_connect(p->cli, id, &cp));
	cp.valid = 1;
	/* CONNECT without the ece tail (the 6.x ABI before it) is fine. */
	memset(&bad, 0, sizeof(bad));
	conf_expect("rc.connect.in_279", EINVAL,
		    cm_cmd(p->cli, RDMA_USER_CM_CMD_CONNECT, &bad, 279, 0));
	conf_expect("rc.connect.pdata_56", 0, cm_connect(p->cli, id, &cp));
	conf_expect("rc.connect.again", EINVAL, cm_connect(p->cli, id, &cp));
	if (!expect_request("rc.req", p, 56, 0x10, &req))
		return;
	conf_expect("rc.reject.reason_5", EINVAL,
		    cm_reject(p->srv, req, 5, 0, 0));
	conf_expect("rc.reject.pdata_149", EINVAL,
		    cm_reject(p->srv, req, 0, 149, 0));
	conf_expect("rc.reject.pdata_20", 0,
		    cm_reject(p->srv, req, 0, 20, 0x30));
	if (cm_expect_event("rc.rej.event", p->cli, CM_EV_REJECTED, &e)) {
		conf_expect_u("rc.rej.reason", 28, e.status);
		conf_expect_u("rc.rej.pdata_len", 148,
			      e.param.conn.private_data_len);
		conf_expect_u(
			"rc.rej.pdata", 1,
			cm_pattern_ok(e.param.conn.private_data, 20, 0x30));
	}
	cm_destroy(p->srv, req, NULL);
	cm_destroy(p->cli, id, NULL);
}

/* The passive side's view of the REQ's numbers. */
static void check_req_params(const struct rdma_ucm_event_resp *e)
{
	conf_expect_u("rc.req.pdata_len", 56, e->param.conn.private_data_len);
	conf_expect_u("rc.req.qp_num", CLIENT_QPN & 0xffffff,
		      e->param.conn.qp_num);
	conf_expect_u("rc.req.responder_resources", 2,
		      e->param.conn.responder_resources);
	conf_expect_u("rc.req.initiator_depth", 3,
		      e->param.conn.initiator_depth);
	conf_expect_u("rc.req.rnr_retry_count", 7,
		      e->param.conn.rnr_retry_count);
}

/* ACCEPT, RTU, init_qp_attr, disconnect and timewait. */
static void check_accept(struct rc_pair *p)
{
	struct rdma_ucm_conn_param cp;
	struct rdma_ucm_event_resp e;
	struct ib_uverbs_qp_attr qa;
	struct rdma_ucm_init_qp_attr ia = {.response = (uintptr_t)&qa};
	uint32_t id, req, reported;

	if (!cm_client("rc.acc.client", p->cli, RDMA_PS_TCP, 0xC3, PORT_RC,
		       &id))
		return;
	cm_param(&cp, CLIENT_QPN, 56, 0x11);
	conf_expect("rc.acc.connect", 0, cm_connect(p->cli, id, &cp));
	if (!cm_expect_event("rc.acc.req.event", p->srv, CM_EV_CONNECT_REQUEST,
			     &e))
		return;
	check_req_params(&e);
	req = e.id;
	cm_param(&cp, SERVER_QPN, 197, 0x20);
	conf_expect("rc.accept.pdata_197", EINVAL,
		    cm_accept(p->srv, req, UID_PASSIVE, &cp));
	cp.private_data_len = 196;
	conf_expect("rc.accept.after_failed", EINVAL,
		    cm_accept(p->srv, req, UID_PASSIVE, &cp));
	/* A failed ACCEPT rejected the request (consumer defined). */
	if (cm_expect_event("rc.accept_failed.event", p->cli, CM_EV_REJECTED,
			    &e))
		conf_expect_u("rc.accept_failed.reason", 28, e.status);
	cm_destroy(p->srv, req, NULL);
	cm_destroy(p->cli, id, NULL);

	if (!cm_client("rc.est.client", p->cli, RDMA_PS_TCP, 0xC4, PORT_RC,
		       &id))
		return;
	cm_param(&cp, CLIENT_QPN, 10, 0x12);
	conf_expect("rc.est.connect", 0, cm_connect(p->cli, id, &cp));
	if (!expect_request("rc.est.req", p, 10, 0x12, &req))
		return;
	cm_param(&cp, SERVER_QPN, 196, 0x21);
	conf_expect("rc.est.accept", 0,
		    cm_accept(p->srv, req, UID_PASSIVE, &cp));
	if (cm_expect_event("rc.rep.event", p->cli, CM_EV_CONNECT_RESPONSE,
			    &e)) {
		conf_expect_u("rc.rep.pdata_len", 196,
			      e.param.conn.private_data_len);
		conf_expect_u(
			"rc.rep.pdata", 1,
			cm_pattern_ok(e.param.conn.private_data, 196, 0x21));
		conf_expect_u("rc.rep.qp_num", SERVER_QPN, e.param.conn.qp_num);
		conf_expect_u("rc.rep.uid", 0xC4, e.uid);
	}
	/* ESTABLISHED on the passive side waits for the RTU. */
	cm_expect_event("rc.rep.passive_quiet", p->srv, CM_EV_NONE, &e);
	ia.id = id;
	ia.qp_state = CM_QPS_RTR;
	conf_expect("rc.est.init_qp_attr.rtr", 0,
		    cm_cmd(p->cli, RDMA_USER_CM_CMD_INIT_QP_ATTR, &ia,
			   sizeof(ia), sizeof(qa)));
	conf_expect_u("rc.est.init_qp_attr.rtr.dest_qp_num", SERVER_QPN,
		      qa.dest_qp_num);
	ia.qp_state = 7;
	conf_expect("rc.est.init_qp_attr.state_7", EINVAL,
		    cm_cmd(p->cli, RDMA_USER_CM_CMD_INIT_QP_ATTR, &ia,
			   sizeof(ia), sizeof(qa)));
	conf_expect("rc.est.init_qp_attr.out_100", ENOSPC,
		    cm_cmd(p->cli, RDMA_USER_CM_CMD_INIT_QP_ATTR, &ia,
			   sizeof(ia), 100));
	conf_expect("rc.rtu", 0, cm_accept(p->cli, id, 0xC4, NULL));
	if (cm_expect_event("rc.rtu.event", p->srv, CM_EV_ESTABLISHED, &e))
		conf_expect_u("rc.rtu.uid", UID_PASSIVE, e.uid);

	conf_expect("rc.disconnect", 0, cm_disconnect(p->cli, id));
	cm_expect_event("rc.dreq.event", p->srv, CM_EV_DISCONNECTED, &e);
	conf_expect("rc.disconnect.passive", 0, cm_disconnect(p->srv, req));
	cm_expect_event("rc.drep.event", p->cli, CM_EV_DISCONNECTED, &e);
	conf_expect("rc.disconnect.again", 0, cm_disconnect(p->cli, id));
	cm_expect_event("rc.timewait.event", p->cli, CM_EV_TIMEWAIT_EXIT, &e);
	cm_expect_event("rc.timewait.passive_event", p->srv,
			CM_EV_TIMEWAIT_EXIT, &e);
	conf_expect("rc.destroy", 0, cm_destroy(p->cli, id, &reported));
	/* ADDR_RESOLVED, ROUTE_RESOLVED, CONNECT_RESPONSE, DISCONNECTED,
	 * TIMEWAIT_EXIT */
	conf_expect_u("rc.destroy.events_reported", 5, reported);
	cm_destroy(p->srv, req, &reported);
	/* ESTABLISHED, DISCONNECTED, TIMEWAIT_EXIT (the request counted on
	 * the listener) */
	conf_expect_u("rc.destroy.passive_events_reported", 3, reported);
}

void check_cm_rc(void)
{
	struct rc_pair p = {.srv = cm_open(), .cli = cm_open()};
	uint32_t reported;

	conf_print_header("RDMA CM RC connections (loopback on rxe0)");
	if (p.srv < 0 || p.cli < 0)
		return;
	check_no_listener(&p);
	conf_expect("rc.listen.create", 0,
		    cm_create(p.srv, RDMA_PS_TCP, UID_LISTEN, &p.listener));
	conf_expect("rc.listen.bind", 0,
		    cm_bind(p.srv, p.listener, cm_addr, PORT_RC));
	conf_expect("rc.listen", 0, cm_listen(p.srv, p.listener, 4));
	conf_expect("rc.listen.again", EINVAL, cm_listen(p.srv, p.listener, 8));
	conf_expect("rc.listen.resolve", EINVAL,
		    cm_resolve(p.srv, p.listener, cm_addr, CM_PORT_NONE));
	check_reject(&p);
	check_accept(&p);
	conf_expect("rc.listen.destroy", 0,
		    cm_destroy(p.srv, p.listener, &reported));
	conf_expect_u("rc.listen.events_reported", 3, reported);
	close(p.srv);
	close(p.cli);
}

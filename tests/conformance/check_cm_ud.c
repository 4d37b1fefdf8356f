// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UD over the RDMA CM (SIDR), loopback on rxe0: the request's private
 * data room, the answer's QPN, Q_Key and address handle, a REJECT and a
 * port nobody listens on as the active side sees them.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cm.h"
#include "conf.h"

#define PORT_UD	    20300
#define UID_LISTEN  0x5501
#define UID_PASSIVE 0x5502
#define CLIENT_QPN  0x111
#define SERVER_QPN  0x222
#define UDP_QKEY    0x01234567 /* the RDMA CM's Q_Key for UDP ids */

/* A UD id with a route that sends a SIDR REQ of 8 bytes (seed). */
static bool sidr_req(const char *prefix, int fd, uint64_t uid, uint16_t port,
		     uint32_t *id)
{
	struct rdma_ucm_conn_param cp;
	char row[64];

	if (!cm_client(prefix, fd, RDMA_PS_UDP, uid, port, id))
		return false;
	cm_param(&cp, CLIENT_QPN, 8, 0x40);
	snprintf(row, sizeof(row), "%s.connect", prefix);
	conf_expect(row, 0, cm_connect(fd, *id, &cp));
	return true;
}

/* The SIDR REP as the active side's ESTABLISHED shows it. */
static void check_rep(const struct rdma_ucm_event_resp *e)
{
	const struct rdma_ucm_ud_param *ud = &e->param.ud;
	uint8_t dgid[16] = {[10] = 0xff, [11] = 0xff};

	inet_pton(AF_INET, cm_addr, dgid + 12);
	conf_expect_u("ud.rep.qp_num", SERVER_QPN, ud->qp_num);
	conf_expect_u("ud.rep.qkey", UDP_QKEY, ud->qkey);
	conf_expect_u("ud.rep.pdata_len", 136, ud->private_data_len);
	conf_expect_u("ud.rep.pdata", 1,
		      cm_pattern_ok(ud->private_data, 12, 0x50));
	conf_expect_u("ud.rep.ah.is_global", 1, ud->ah_attr.is_global);
	conf_expect_u("ud.rep.ah.port_num", 1, ud->ah_attr.port_num);
	conf_expect_u("ud.rep.ah.dgid", 1,
		      !memcmp(ud->ah_attr.grh.dgid, dgid, sizeof(dgid)));
}

static void check_sidr(int srv, int cli)
{
	struct rdma_ucm_conn_param cp;
	struct rdma_ucm_event_resp e;
	uint32_t id, req;

	if (!sidr_req("ud.client", cli, 0xD1, PORT_UD, &id))
		return;
	if (!cm_expect_event("ud.req.event", srv, CM_EV_CONNECT_REQUEST, &e))
		return;
	req = e.id;
	conf_expect_u("ud.req.listener_uid", UID_LISTEN, e.uid);
	conf_expect_u("ud.req.pdata_len", 180, e.param.ud.private_data_len);
	conf_expect_u("ud.req.pdata", 1,
		      cm_pattern_ok(e.param.ud.private_data, 8, 0x40));
	cm_param(&cp, SERVER_QPN, 12, 0x50);
	conf_expect("ud.accept", 0, cm_accept(srv, req, UID_PASSIVE, &cp));
	if (cm_expect_event("ud.rep.event", cli, CM_EV_ESTABLISHED, &e))
		check_rep(&e);
	/* SIDR has no RTU: the passive side hears nothing more. */
	cm_expect_event("ud.accept.passive_quiet", srv, CM_EV_NONE, &e);
	cm_destroy(srv, req, NULL);
	cm_destroy(cli, id, NULL);

	if (!sidr_req("ud.rej.client", cli, 0xD2, PORT_UD, &id))
		return;
	if (cm_expect_event("ud.rej.req_event", srv, CM_EV_CONNECT_REQUEST,
			    &e)) {
		req = e.id;
		conf_expect("ud.reject", 0, cm_reject(srv, req, 0, 0, 0));
		if (cm_expect_event("ud.rej.event", cli, CM_EV_UNREACHABLE, &e))
			conf_expect_u("ud.rej.status", 2, e.status);
		cm_destroy(srv, req, NULL);
	}
	cm_destroy(cli, id, NULL);

	if (!sidr_req("ud.nolisten", cli, 0xD3, CM_PORT_NONE, &id))
		return;
	if (cm_expect_event("ud.nolisten.event", cli, CM_EV_UNREACHABLE, &e))
		conf_expect_u("ud.nolisten.status", 1, e.status);
	cm_destroy(cli, id, NULL);
}

void check_cm_ud(void)
{
	int srv = cm_open(), cli = cm_open();
	uint32_t listener;

	conf_print_header("RDMA CM UD (SIDR, loopback on rxe0)");
	if (srv < 0 || cli < 0)
		return;
	conf_expect("ud.listen.create", 0,
		    cm_create(srv, RDMA_PS_UDP, UID_LISTEN, &listener));
	conf_expect("ud.listen", 0,
		    cm_bind(srv, listener, cm_addr, PORT_UD)
			    ?: cm_listen(srv, listener, 4));
	check_sidr(srv, cli);
	cm_destroy(srv, listener, NULL);
	close(srv);
	close(cli);
}

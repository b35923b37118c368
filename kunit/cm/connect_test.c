// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_cm end to end between two oib_rxe devices: connections that reach RTS and carry data,
 * disconnects from either side, rejects, MRA, private data at every maximum size, SIDR, the
 * passive side established without RTU (the design thread's ULP: COMM_EST, the first receive,
 * notify), stale connections, and cm_ids destroyed in every state with their peer told.
 */
#include <linux/module.h>
#include <linux/string.h>
#include "oib_toolkit_cm.h"

static u8 cmt_pattern[OIB_CM_MAX_PRIVATE_DATA_SIZE + 1];

/* Connect, check both ends' view, carry data both ways, disconnect from @from_b's side. */
static void cm_connect_one(struct kunit *test, bool from_b)
{
	struct cmt_pair *p = cmt_pair(test);
	const struct oib_cm_req_event_param *req = &p->b.last[OIB_CM_EVENT_REQ_RECEIVED].param.req;
	const struct oib_cm_rep_event_param *rep = &p->a.last[OIB_CM_EVENT_REP_RECEIVED].param.rep;

	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	cmt_expect_established(test, p);
	KUNIT_EXPECT_EQ(test, req->remote_qpn, p->a.qp->qp_num);
	KUNIT_EXPECT_EQ(test, req->starting_psn, 0x111);
	KUNIT_EXPECT_EQ(test, req->port_num, 1);
	KUNIT_EXPECT_PTR_EQ(test, req->listen_id, p->listener);
	KUNIT_EXPECT_EQ(test, 0, memcmp(req->path.dgid.raw, p->a.gid.raw, 16));
	KUNIT_EXPECT_STREQ(test, (char *)p->b.pdata[OIB_CM_EVENT_REQ_RECEIVED], "req from a");
	KUNIT_EXPECT_EQ(test, rep->remote_qpn, p->b.qp->qp_num);
	KUNIT_EXPECT_EQ(test, rep->starting_psn, 0x222);
	KUNIT_EXPECT_STREQ(test, (char *)p->a.pdata[OIB_CM_EVENT_REP_RECEIVED], "rep from b");
	KUNIT_EXPECT_EQ(test, p->a.id->remote_id, p->b.id->local_id);
	KUNIT_EXPECT_EQ(test, p->b.id->remote_id, p->a.id->local_id);
	KUNIT_EXPECT_EQ(test, p->b.id->service_id, CMT_SID);

	cmt_exchange(test, &p->a, &p->b, 100, 10);
	cmt_exchange(test, &p->b, &p->a, 1500, 11);
	cmt_disconnect(test, p, from_b ? &p->b : &p->a);
	KUNIT_EXPECT_GE(test, cmt_stat(&p->a, OIB_CM_STAT_SENT, CM_ATTR_REQ), 1);
	KUNIT_EXPECT_GE(test, cmt_stat(&p->b, OIB_CM_STAT_RECEIVED, CM_ATTR_REQ), 1);
	KUNIT_EXPECT_GE(test, cmt_stat(&p->b, OIB_CM_STAT_SENT, CM_ATTR_REP), 1);
	KUNIT_EXPECT_GE(test, cmt_stat(&p->a, OIB_CM_STAT_SENT, CM_ATTR_RTU), 1);
	KUNIT_EXPECT_EQ(test, cmt_drops(&p->b, OIB_CM_DROP_PROTOCOL), 0);
}

static void cm_connect_disconnect_active(struct kunit *test)
{
	cm_connect_one(test, false);
}

static void cm_connect_disconnect_passive(struct kunit *test)
{
	cm_connect_one(test, true);
}

/* The same cm_ids connect again after TIMEWAIT, with their QPs reset. */
static void cm_reconnect(struct kunit *test)
{
	struct cmt_pair *p = cmt_pair(test);
	struct oib_qp_attr reset = { .qp_state = OIB_QPS_RESET };

	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	cmt_expect_established(test, p);
	cmt_disconnect(test, p, &p->a);
	oib_cm_destroy_id(p->b.id);
	p->b.id = NULL;
	KUNIT_ASSERT_EQ(test, 0, oib_modify_qp(p->a.qp, &reset, OIB_QP_STATE));
	KUNIT_ASSERT_EQ(test, 0, oib_modify_qp(p->b.qp, &reset, OIB_QP_STATE));
	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_ESTABLISHED, 2));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->b, OIB_CM_EVENT_ESTABLISHED, 2));
	cmt_exchange(test, &p->a, &p->b, 64, 20);
}

static void cm_reject(struct kunit *test)
{
	struct cmt_pair *p = cmt_pair(test);
	const struct oib_cm_rej_event_param *rej = &p->a.last[OIB_CM_EVENT_REJ_RECEIVED].param.rej;

	p->b.on_req = CMT_REJECT;
	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_REJ_RECEIVED, 1));
	KUNIT_EXPECT_EQ(test, rej->reason, OIB_CM_REJ_CONSUMER_DEFINED);
	KUNIT_EXPECT_STREQ(test, (char *)p->a.pdata[OIB_CM_EVENT_REJ_RECEIVED], "no");
	KUNIT_EXPECT_EQ(test, p->a.id->state, OIB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, READ_ONCE(p->a.qp->state), OIB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, p->b.id->state, OIB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, cmt_count(&p->a, OIB_CM_EVENT_ESTABLISHED), 0);
}

/* A handler returning non-zero on REQ_RECEIVED: its id is destroyed, the peer REJected. */
static void cm_reject_from_handler(struct kunit *test)
{
	struct cmt_pair *p = cmt_pair(test);

	p->b.on_req = CMT_RETURN_ERR;
	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_REJ_RECEIVED, 1));
	KUNIT_EXPECT_EQ(test, p->a.last[OIB_CM_EVENT_REJ_RECEIVED].param.rej.reason,
			OIB_CM_REJ_CONSUMER_DEFINED);
}

static void cm_reject_no_listener(struct kunit *test)
{
	struct cmt_pair *p = cmt_pair(test);

	p->req.service_id = CMT_SID + 1;
	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_REJ_RECEIVED, 1));
	KUNIT_EXPECT_EQ(test, p->a.last[OIB_CM_EVENT_REJ_RECEIVED].param.rej.reason,
			OIB_CM_REJ_INVALID_SERVICE_ID);
	KUNIT_EXPECT_EQ(test, cmt_count(&p->b, OIB_CM_EVENT_REQ_RECEIVED), 0);
	KUNIT_EXPECT_EQ(test, cmt_drops(&p->b, OIB_CM_DROP_UNKNOWN_ID), 1);
}

/* The passive side asks for time with an MRA, accepts later: the active side waits. */
static void cm_mra_then_rep(struct kunit *test)
{
	struct cmt_pair *p = cmt_pair(test);
	struct oib_cm_rep_param rep = { .qp = p->b.qp, .starting_psn = 5, .rnr_retry_count = 7 };

	p->b.on_req = CMT_MRA;
	p->b.mra_timeout = 20;
	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_MRA_RECEIVED, 1));
	KUNIT_EXPECT_EQ(test, p->a.last[OIB_CM_EVENT_MRA_RECEIVED].param.mra_service_timeout, 20);
	KUNIT_EXPECT_EQ(test, p->a.id->state, OIB_CM_MRA_REQ_RCVD);
	KUNIT_EXPECT_EQ(test, p->b.id->state, OIB_CM_MRA_REQ_SENT);
	KUNIT_ASSERT_EQ(test, 0, oib_cm_send_rep(p->b.id, &rep));
	cmt_expect_established(test, p);
	cmt_exchange(test, &p->a, &p->b, 8, 30);
}

static void cm_heed_comm_est(void *unused)
{
	oib_cm_ignore_comm_est(false);
}

/*
 * The design thread's ULP: the passive side posts a receive and its reply in the REQ handler,
 * with the QP in RTR.  The RTU is lost (@late: it only comes late); the active side's first
 * message makes the passive side established through COMM_EST, with no call from the ULP (with
 * @by_recv, COMM_EST is ignored: the receive completion the ULP polls does it); the reply leaves
 * at RTS; the late RTU changes nothing.
 */
static void cm_established_without_rtu(struct kunit *test, bool late, bool by_recv)
{
	struct cmt_pair *p = cmt_pair(test);
	struct oib_wc wc;

	if (by_recv) {
		oib_cm_ignore_comm_est(true);
		KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, cm_heed_comm_est, NULL));
	}

	p->b.reply_in_req = true;
	p->a.rtu_on_rep = false;
	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_REP_RECEIVED, 1));
	KUNIT_EXPECT_EQ(test, READ_ONCE(p->b.qp->state), OIB_QPS_RTR);
	cmt_rule(p, late ? ORXE_FAULT_DELAY : ORXE_FAULT_DROP, 1, 300000);
	KUNIT_ASSERT_EQ(test, 0, oib_cm_send_rtu(p->a.id, NULL, 0));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_ESTABLISHED, 1));

	KUNIT_ASSERT_EQ(test, 0, cmt_post_recv(&p->a, 3));
	KUNIT_ASSERT_EQ(test, 0, cmt_post_send(&p->a, 4, 32));
	if (by_recv) {
		/* b's ULP polls a's message first: that completion establishes b */
		KUNIT_ASSERT_EQ(test, 1, oib_test_poll_cq(p->b.cq, &wc, 1));
		KUNIT_EXPECT_EQ(test, wc.status, OIB_WC_SUCCESS);
		KUNIT_EXPECT_EQ(test, wc.wr_id, 1);
	}
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->b, OIB_CM_EVENT_ESTABLISHED, 1));
	KUNIT_EXPECT_EQ(test, READ_ONCE(p->b.qp->state), OIB_QPS_RTS);
	/* a: its send and b's reply (posted in RTR) arrive; b: a's message, its reply sent */
	KUNIT_ASSERT_EQ(test, 1, oib_test_poll_cq(p->a.cq, &wc, 1));
	KUNIT_EXPECT_EQ(test, wc.status, OIB_WC_SUCCESS);
	KUNIT_ASSERT_EQ(test, 1, oib_test_poll_cq(p->a.cq, &wc, 1));
	KUNIT_EXPECT_EQ(test, wc.status, OIB_WC_SUCCESS);
	KUNIT_ASSERT_EQ(test, 1, oib_test_poll_cq(p->b.cq, &wc, 1));
	KUNIT_EXPECT_EQ(test, wc.status, OIB_WC_SUCCESS);
	if (!by_recv) {
		KUNIT_ASSERT_EQ(test, 1, oib_test_poll_cq(p->b.cq, &wc, 1));
		KUNIT_EXPECT_EQ(test, wc.status, OIB_WC_SUCCESS);
	}
	if (late)
		KUNIT_EXPECT_TRUE(test, oib_test_wait_for(cmt_stat(&p->b, OIB_CM_STAT_RECEIVED,
								   CM_ATTR_RTU) == 1));
	else
		KUNIT_EXPECT_EQ(test, cmt_stat(&p->b, OIB_CM_STAT_RECEIVED, CM_ATTR_RTU), 0);
	KUNIT_EXPECT_EQ(test, cmt_count(&p->b, OIB_CM_EVENT_ESTABLISHED), 1);
	KUNIT_EXPECT_EQ(test, p->b.id->state, OIB_CM_ESTABLISHED);
	cmt_disconnect(test, p, &p->b);
}

static void cm_rtu_lost(struct kunit *test)
{
	cm_established_without_rtu(test, false, false);
}

static void cm_rtu_late(struct kunit *test)
{
	cm_established_without_rtu(test, true, false);
}

static void cm_rtu_lost_first_recv(struct kunit *test)
{
	cm_established_without_rtu(test, false, true);
}

/* notify() establishes a passive side whose RTU was lost, and nothing else than COMM_EST. */
static void cm_notify(struct kunit *test)
{
	struct cmt_pair *p = cmt_pair(test);

	p->a.rtu_on_rep = false;
	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_REP_RECEIVED, 1));
	cmt_rule(p, ORXE_FAULT_DROP, 1, 0);
	KUNIT_ASSERT_EQ(test, 0, oib_cm_send_rtu(p->a.id, NULL, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cm_notify(p->b.id, OIB_EVENT_QP_FATAL));
	KUNIT_EXPECT_EQ(test, 0, oib_cm_notify(p->b.id, OIB_EVENT_COMM_EST));
	cmt_expect_established(test, p);
	KUNIT_EXPECT_EQ(test, 0, oib_cm_notify(p->b.id, OIB_EVENT_COMM_EST));	/* ignored */
	KUNIT_EXPECT_EQ(test, cmt_count(&p->b, OIB_CM_EVENT_ESTABLISHED), 1);
}

/* Every message's private data at its maximum size arrives whole; one byte more is refused. */
static void cm_private_data_max(struct kunit *test)
{
	struct cmt_pair *p = cmt_pair(test);
	struct oib_cm_rep_param rep = { .qp = p->b.qp, .rnr_retry_count = 7,
					.private_data = cmt_pattern };
	u8 ari[OIB_CM_ARI_LENGTH + 1] = {};

	p->req.private_data = cmt_pattern;
	p->req.private_data_len = OIB_CM_REQ_PRIVATE_DATA_SIZE + 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, cmt_connect(p));
	p->req.private_data_len = OIB_CM_REQ_PRIVATE_DATA_SIZE;
	p->b.on_req = CMT_NOTHING;
	p->a.rtu_on_rep = false;
	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->b, OIB_CM_EVENT_REQ_RECEIVED, 1));
	KUNIT_EXPECT_EQ(test, 0, memcmp(p->b.pdata[OIB_CM_EVENT_REQ_RECEIVED], cmt_pattern,
					OIB_CM_REQ_PRIVATE_DATA_SIZE));
	KUNIT_EXPECT_EQ(test, p->b.last[OIB_CM_EVENT_REQ_RECEIVED].private_data_len,
			OIB_CM_REQ_PRIVATE_DATA_SIZE);
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cm_send_mra(p->b.id, 20, cmt_pattern,
						       OIB_CM_MRA_PRIVATE_DATA_SIZE + 1));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cm_send_rej(p->b.id, OIB_CM_REJ_CONSUMER_DEFINED, ari,
						       OIB_CM_ARI_LENGTH + 1, NULL, 0));
	KUNIT_ASSERT_EQ(test, 0, oib_cm_send_mra(p->b.id, 20, cmt_pattern,
						 OIB_CM_MRA_PRIVATE_DATA_SIZE));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_MRA_RECEIVED, 1));
	KUNIT_EXPECT_EQ(test, 0, memcmp(p->a.pdata[OIB_CM_EVENT_MRA_RECEIVED], cmt_pattern,
					OIB_CM_MRA_PRIVATE_DATA_SIZE));
	rep.private_data_len = OIB_CM_REP_PRIVATE_DATA_SIZE + 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cm_send_rep(p->b.id, &rep));
	rep.private_data_len = OIB_CM_REP_PRIVATE_DATA_SIZE;
	KUNIT_ASSERT_EQ(test, 0, oib_cm_send_rep(p->b.id, &rep));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_REP_RECEIVED, 1));
	KUNIT_EXPECT_EQ(test, 0, memcmp(p->a.pdata[OIB_CM_EVENT_REP_RECEIVED], cmt_pattern,
					OIB_CM_REP_PRIVATE_DATA_SIZE));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cm_send_rtu(p->a.id, cmt_pattern,
						       OIB_CM_RTU_PRIVATE_DATA_SIZE + 1));
	KUNIT_ASSERT_EQ(test, 0, oib_cm_send_rtu(p->a.id, cmt_pattern,
						 OIB_CM_RTU_PRIVATE_DATA_SIZE));
	cmt_expect_established(test, p);
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cm_send_dreq(p->a.id, cmt_pattern,
							OIB_CM_DREQ_PRIVATE_DATA_SIZE + 1));
	p->b.drep_on_dreq = false;
	KUNIT_ASSERT_EQ(test, 0, oib_cm_send_dreq(p->a.id, cmt_pattern,
						  OIB_CM_DREQ_PRIVATE_DATA_SIZE));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->b, OIB_CM_EVENT_DREQ_RECEIVED, 1));
	KUNIT_EXPECT_EQ(test, 0, memcmp(p->b.pdata[OIB_CM_EVENT_DREQ_RECEIVED], cmt_pattern,
					OIB_CM_DREQ_PRIVATE_DATA_SIZE));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cm_send_drep(p->b.id, cmt_pattern,
							OIB_CM_DREP_PRIVATE_DATA_SIZE + 1));
	KUNIT_ASSERT_EQ(test, 0, oib_cm_send_drep(p->b.id, cmt_pattern,
						  OIB_CM_DREP_PRIVATE_DATA_SIZE));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_DREP_RECEIVED, 1));
	KUNIT_EXPECT_EQ(test, 0, memcmp(p->a.pdata[OIB_CM_EVENT_DREP_RECEIVED], cmt_pattern,
					OIB_CM_DREP_PRIVATE_DATA_SIZE));
}

/* A REJ with the largest ARI and private data. */
static void cm_reject_max(struct kunit *test)
{
	struct cmt_pair *p = cmt_pair(test);
	const struct oib_cm_rej_event_param *rej = &p->a.last[OIB_CM_EVENT_REJ_RECEIVED].param.rej;

	p->b.on_req = CMT_NOTHING;
	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->b, OIB_CM_EVENT_REQ_RECEIVED, 1));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cm_send_rej(p->b.id, OIB_CM_REJ_INVALID_GID, cmt_pattern,
						       OIB_CM_ARI_LENGTH, cmt_pattern,
						       OIB_CM_REJ_PRIVATE_DATA_SIZE + 1));
	KUNIT_ASSERT_EQ(test, 0, oib_cm_send_rej(p->b.id, OIB_CM_REJ_INVALID_GID, cmt_pattern,
						 OIB_CM_ARI_LENGTH, cmt_pattern,
						 OIB_CM_REJ_PRIVATE_DATA_SIZE));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_REJ_RECEIVED, 1));
	KUNIT_EXPECT_EQ(test, rej->reason, OIB_CM_REJ_INVALID_GID);
	KUNIT_EXPECT_EQ(test, rej->ari_len, OIB_CM_ARI_LENGTH);
	KUNIT_EXPECT_EQ(test, 0, memcmp(rej->ari, cmt_pattern, OIB_CM_ARI_LENGTH));
	KUNIT_EXPECT_EQ(test, 0, memcmp(p->a.pdata[OIB_CM_EVENT_REJ_RECEIVED], cmt_pattern,
					OIB_CM_REJ_PRIVATE_DATA_SIZE));
}

/* Bad arguments and calls in the wrong state: clean errors, nothing changes. */
static void cm_validation(struct kunit *test)
{
	struct cmt_pair *p = cmt_pair(test);
	struct oib_cm_path bad_path;
	struct oib_cm_rep_param rep = { .qp = p->b.qp };
	struct oib_qp_attr attr = { .qp_state = OIB_QPS_RTR };
	int mask;

	p->a.id = oib_cm_create_id(p->a.dev, cmt_handler, &p->a);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p->a.id);
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cm_send_req(NULL, &p->req));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cm_send_req(p->a.id, NULL));
	p->req.max_cm_retries = 16;
	KUNIT_EXPECT_EQ(test, -EINVAL, cmt_connect(p));
	p->req.max_cm_retries = 15;
	p->req.starting_psn = BIT(24);
	KUNIT_EXPECT_EQ(test, -EINVAL, cmt_connect(p));
	p->req.starting_psn = 1;
	bad_path = p->path;
	bad_path.mtu = 0;
	p->req.path = &bad_path;
	KUNIT_EXPECT_EQ(test, -EINVAL, cmt_connect(p));
	bad_path = p->path;
	bad_path.sgid = p->b.gid;	/* not one of a's */
	KUNIT_EXPECT_EQ(test, -EADDRNOTAVAIL, cmt_connect(p));
	p->req.path = &p->path;
	p->req.qp = p->b.qp;		/* another device's */
	KUNIT_EXPECT_EQ(test, -EINVAL, cmt_connect(p));
	p->req.qp = p->a.qp;
	KUNIT_EXPECT_EQ(test, p->a.id->state, OIB_CM_IDLE);

	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cm_send_rep(p->a.id, &rep));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cm_send_rtu(p->a.id, NULL, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cm_send_dreq(p->a.id, NULL, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cm_send_drep(p->a.id, NULL, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cm_send_mra(p->a.id, 20, NULL, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cm_send_rej(p->a.id, 0, NULL, 0, NULL, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cm_notify(p->a.id, OIB_EVENT_COMM_EST));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cm_init_qp_attr(p->a.id, &attr, &mask));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cm_listen(p->a.id, 5, 1));

	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	KUNIT_EXPECT_EQ(test, -EINVAL, cmt_connect(p));	/* not IDLE */
	cmt_expect_established(test, p);
	attr.qp_state = OIB_QPS_RTR;
	KUNIT_ASSERT_EQ(test, 0, oib_cm_init_qp_attr(p->a.id, &attr, &mask));
	KUNIT_EXPECT_EQ(test, attr.dest_qp_num, p->b.qp->qp_num);
	/* a REQ's or REP's PSN is the one its sender receives from (the in-tree ib_cm's reading) */
	KUNIT_EXPECT_EQ(test, attr.rq_psn, p->req.starting_psn);
	KUNIT_EXPECT_EQ(test, attr.path_mtu, OIB_MTU_1024);
	KUNIT_EXPECT_TRUE(test, mask & OIB_QP_AV);
	attr.qp_state = OIB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, 0, oib_cm_init_qp_attr(p->b.id, &attr, &mask));
	KUNIT_EXPECT_EQ(test, attr.sq_psn, p->req.starting_psn);
	KUNIT_EXPECT_EQ(test, attr.retry_cnt, 7);
	attr.qp_state = OIB_QPS_SQD;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cm_init_qp_attr(p->b.id, &attr, &mask));
}

/* SIDR: the listener's id answers with its QPN and Q_Key; an unknown service is unsupported. */
static void cm_sidr(struct kunit *test)
{
	struct cmt_pair *p = cmt_pair(test);
	struct oib_cm_sidr_req_param req = { .path = &p->path, .service_id = CMT_SID,
					     .timeout_ms = 1000, .max_cm_retries = 3 };
	const struct oib_cm_sidr_rep_event_param *rep =
		&p->a.last[OIB_CM_EVENT_SIDR_REP_RECEIVED].param.sidr_rep;

	p->a.id = oib_cm_create_id(p->a.dev, cmt_handler, &p->a);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p->a.id);
	KUNIT_ASSERT_EQ(test, 0, oib_cm_send_sidr_req(p->a.id, &req));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_SIDR_REP_RECEIVED, 1));
	KUNIT_EXPECT_EQ(test, rep->status, OIB_CM_SIDR_SUCCESS);
	KUNIT_EXPECT_EQ(test, rep->qpn, CMT_SIDR_QPN);
	KUNIT_EXPECT_EQ(test, rep->qkey, CMT_SIDR_QKEY);
	KUNIT_EXPECT_STREQ(test, (char *)p->a.pdata[OIB_CM_EVENT_SIDR_REP_RECEIVED],
			   "rep from b");
	KUNIT_EXPECT_EQ(test, p->b.last[OIB_CM_EVENT_SIDR_REQ_RECEIVED].param.sidr_req.service_id,
			CMT_SID);
	KUNIT_EXPECT_EQ(test, p->a.id->state, OIB_CM_IDLE);

	req.service_id = CMT_SID + 7;
	KUNIT_ASSERT_EQ(test, 0, oib_cm_send_sidr_req(p->a.id, &req));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_SIDR_REP_RECEIVED, 2));
	KUNIT_EXPECT_EQ(test, rep->status, OIB_CM_SIDR_UNSUPPORTED);
}

/*
 * A REQ from the QP of a connection the passive side believes is up (the active side lost it
 * without a word: its DREQ was dropped) is stale: REJ "stale connection" to the new REQ, a DREQ
 * for the old connection, and the next attempt connects.
 */
static void cm_stale_connection(struct kunit *test)
{
	struct cmt_pair *p = cmt_pair(test);
	struct oib_qp_attr reset = { .qp_state = OIB_QPS_RESET };
	struct oib_cm_id *old_b;

	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	cmt_expect_established(test, p);
	cmt_rule(p, ORXE_FAULT_DROP, 1, 0);
	oib_cm_destroy_id(p->a.id);		/* its one DREQ is dropped */
	p->a.id = NULL;
	old_b = p->b.id;
	KUNIT_ASSERT_EQ(test, 0, oib_modify_qp(p->a.qp, &reset, OIB_QP_STATE));
	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_REJ_RECEIVED, 1));
	KUNIT_EXPECT_EQ(test, p->a.last[OIB_CM_EVENT_REJ_RECEIVED].param.rej.reason,
			OIB_CM_REJ_STALE_CONN);
	/* b releases the old connection: its DREQ is answered for an id a no longer has */
	KUNIT_EXPECT_TRUE(test, cmt_wait(&p->b, OIB_CM_EVENT_DREP_RECEIVED, 1));
	KUNIT_EXPECT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_TIMEWAIT_EXIT, 1));
	oib_cm_destroy_id(old_b);
	p->b.id = NULL;
	KUNIT_ASSERT_EQ(test, 0, oib_modify_qp(p->a.qp, &reset, OIB_QP_STATE));
	KUNIT_ASSERT_EQ(test, 0, oib_modify_qp(p->b.qp, &reset, OIB_QP_STATE));
	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_ESTABLISHED, 2));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->b, OIB_CM_EVENT_ESTABLISHED, 2));
	cmt_expect_established(test, p);
	cmt_exchange(test, &p->a, &p->b, 64, 40);
}

/* ---- Destroy in every state ---- */

/* A cm_id destroyed in @state (by its owner, or by its handler returning non-zero on @ev). */
struct destroy_case {
	const char *name;
	enum oib_cm_state state;
	bool passive;			/* the passive side's id is destroyed, else the active's */
	int from_handler;		/* event type + 1 on which the handler destroys; 0: owner */
	enum oib_cm_event_type peer_event;	/* what the other side then hears */
	u16 rej_reason;			/* REJ_RECEIVED: the reason */
};

#define EV(e)	(OIB_CM_EVENT_##e + 1)

static const struct destroy_case destroy_cases[] = {
	{ "a_req_sent", OIB_CM_REQ_SENT, false, 0, OIB_CM_EVENT_REJ_RECEIVED,
	  OIB_CM_REJ_TIMEOUT },
	{ "a_mra_req_rcvd", OIB_CM_MRA_REQ_RCVD, false, 0, OIB_CM_EVENT_REJ_RECEIVED,
	  OIB_CM_REJ_TIMEOUT },
	{ "a_mra_req_rcvd_handler", OIB_CM_MRA_REQ_RCVD, false, EV(MRA_RECEIVED),
	  OIB_CM_EVENT_REJ_RECEIVED, OIB_CM_REJ_TIMEOUT },
	{ "a_rep_rcvd", OIB_CM_REP_RCVD, false, 0, OIB_CM_EVENT_REJ_RECEIVED,
	  OIB_CM_REJ_CONSUMER_DEFINED },
	{ "a_rep_rcvd_handler", OIB_CM_REP_RCVD, false, EV(REP_RECEIVED),
	  OIB_CM_EVENT_REJ_RECEIVED, OIB_CM_REJ_CONSUMER_DEFINED },
	{ "a_mra_rep_sent", OIB_CM_MRA_REP_SENT, false, 0, OIB_CM_EVENT_REJ_RECEIVED,
	  OIB_CM_REJ_CONSUMER_DEFINED },
	{ "a_established", OIB_CM_ESTABLISHED, false, 0, OIB_CM_EVENT_DREQ_RECEIVED },
	{ "a_established_handler", OIB_CM_ESTABLISHED, false, EV(ESTABLISHED),
	  OIB_CM_EVENT_DREQ_RECEIVED },
	{ "a_dreq_sent", OIB_CM_DREQ_SENT, false, 0, OIB_CM_EVENT_DREQ_RECEIVED },
	{ "a_timewait", OIB_CM_TIMEWAIT, false, 0, OIB_CM_EVENT_DREQ_RECEIVED },
	{ "a_sidr_req_sent", OIB_CM_SIDR_REQ_SENT, false, 0, OIB_CM_EVENT_SIDR_REQ_RECEIVED },
	{ "b_req_rcvd", OIB_CM_REQ_RCVD, true, 0, OIB_CM_EVENT_REJ_RECEIVED,
	  OIB_CM_REJ_CONSUMER_DEFINED },
	{ "b_mra_req_sent", OIB_CM_MRA_REQ_SENT, true, 0, OIB_CM_EVENT_REJ_RECEIVED,
	  OIB_CM_REJ_CONSUMER_DEFINED },
	{ "b_rep_sent", OIB_CM_REP_SENT, true, 0, OIB_CM_EVENT_REJ_RECEIVED,
	  OIB_CM_REJ_CONSUMER_DEFINED },
	{ "b_mra_rep_rcvd", OIB_CM_MRA_REP_RCVD, true, 0, OIB_CM_EVENT_REJ_RECEIVED,
	  OIB_CM_REJ_CONSUMER_DEFINED },
	{ "b_established", OIB_CM_ESTABLISHED, true, 0, OIB_CM_EVENT_DREQ_RECEIVED },
	{ "b_established_handler", OIB_CM_ESTABLISHED, true, EV(ESTABLISHED),
	  OIB_CM_EVENT_DREQ_RECEIVED },
	{ "b_dreq_rcvd", OIB_CM_DREQ_RCVD, true, 0, OIB_CM_EVENT_DREP_RECEIVED },
	{ "b_dreq_rcvd_handler", OIB_CM_DREQ_RCVD, true, EV(DREQ_RECEIVED),
	  OIB_CM_EVENT_DREP_RECEIVED },
	{ "b_timewait", OIB_CM_TIMEWAIT, true, 0, OIB_CM_EVENT_DREP_RECEIVED },
	{ "b_sidr_req_rcvd", OIB_CM_SIDR_REQ_RCVD, true, 0, OIB_CM_EVENT_SIDR_REP_RECEIVED },
};

#undef EV

KUNIT_ARRAY_PARAM_DESC(destroy, destroy_cases, name);

static void cm_drive_sidr(struct kunit *test, struct cmt_pair *p)
{
	struct oib_cm_sidr_req_param req = { .path = &p->path, .service_id = CMT_SID,
					     .timeout_ms = 5000, .max_cm_retries = 3 };

	p->b.on_req = CMT_NOTHING;
	p->a.id = oib_cm_create_id(p->a.dev, cmt_handler, &p->a);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p->a.id);
	KUNIT_ASSERT_EQ(test, 0, oib_cm_send_sidr_req(p->a.id, &req));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->b, OIB_CM_EVENT_SIDR_REQ_RECEIVED, 1));
}

/* Up to REP_RCVD (active) and REP_SENT (passive), no RTU; @mra: the active side MRAs the REP. */
static void cm_drive_rep(struct kunit *test, struct cmt_pair *p, bool mra)
{
	p->a.rtu_on_rep = false;
	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_REP_RECEIVED, 1));
	if (!mra)
		return;
	KUNIT_ASSERT_EQ(test, 0, oib_cm_send_mra(p->a.id, 20, NULL, 0));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->b, OIB_CM_EVENT_MRA_RECEIVED, 1));
}

/* Bring the pair to where @c's id is in @c->state. */
static void cm_drive(struct kunit *test, struct cmt_pair *p, const struct destroy_case *c)
{
	switch (c->state) {
	case OIB_CM_REQ_SENT:
	case OIB_CM_REQ_RCVD:
		p->b.on_req = CMT_NOTHING;
		KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
		KUNIT_ASSERT_TRUE(test, cmt_wait(&p->b, OIB_CM_EVENT_REQ_RECEIVED, 1));
		break;
	case OIB_CM_MRA_REQ_RCVD:
	case OIB_CM_MRA_REQ_SENT:
		p->b.on_req = CMT_MRA;
		p->b.mra_timeout = 20;
		KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
		KUNIT_ASSERT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_MRA_RECEIVED, 1));
		break;
	case OIB_CM_REP_RCVD:
	case OIB_CM_REP_SENT:
		cm_drive_rep(test, p, false);
		break;
	case OIB_CM_MRA_REP_SENT:
	case OIB_CM_MRA_REP_RCVD:
		cm_drive_rep(test, p, true);
		break;
	case OIB_CM_ESTABLISHED:
		KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
		KUNIT_ASSERT_TRUE(test, cmt_wait(c->passive ? &p->b : &p->a,
						 OIB_CM_EVENT_ESTABLISHED, 1));
		break;
	case OIB_CM_DREQ_SENT:
	case OIB_CM_DREQ_RCVD:
	case OIB_CM_TIMEWAIT:
		p->b.drep_on_dreq = c->state == OIB_CM_TIMEWAIT;
		if (c->state == OIB_CM_TIMEWAIT)	/* timewait: 2^(23 - 8) ms, past the test */
			p->path.packet_life_time = 22;
		KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
		cmt_expect_established(test, p);
		KUNIT_ASSERT_EQ(test, 0, oib_cm_send_dreq(p->a.id, NULL, 0));
		KUNIT_ASSERT_TRUE(test, cmt_wait(&p->b, OIB_CM_EVENT_DREQ_RECEIVED, 1));
		if (c->state == OIB_CM_TIMEWAIT)
			KUNIT_ASSERT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_DREP_RECEIVED, 1));
		break;
	case OIB_CM_SIDR_REQ_SENT:
	case OIB_CM_SIDR_REQ_RCVD:
		cm_drive_sidr(test, p);
		break;
	default:
		KUNIT_FAIL(test, "no way to %s", oib_cm_state_name(c->state));
	}
}

/*
 * Destroy a cm_id in every state it can be destroyed in with its peer waiting, by its owner or
 * from its own handler: the peer hears what the spec gives (REJ with its reason, DREQ, DREP,
 * SIDR reject) and, where it released the connection, passes TIMEWAIT; nothing leaks (kmemleak
 * and the module's own check at unload).  In TIMEWAIT the peer is destroyed there too.
 */
static void cm_destroy_in_state(struct kunit *test)
{
	const struct destroy_case *c = test->param_value;
	struct cmt_pair *p = cmt_pair(test);
	struct cmt_end *e = c->passive ? &p->b : &p->a;
	struct cmt_end *peer = c->passive ? &p->a : &p->b;

	e->destroy_on = c->from_handler;
	cm_drive(test, p, c);
	if (!c->from_handler) {
		KUNIT_ASSERT_NOT_NULL(test, e->id);
		KUNIT_EXPECT_EQ(test, e->id->state, c->state);
		oib_cm_destroy_id(e->id);
		e->id = NULL;
	}
	KUNIT_ASSERT_TRUE(test, cmt_wait(peer, c->peer_event, 1));
	if (c->peer_event == OIB_CM_EVENT_REJ_RECEIVED)
		KUNIT_EXPECT_EQ(test, peer->last[c->peer_event].param.rej.reason, c->rej_reason);
	if (c->peer_event == OIB_CM_EVENT_SIDR_REP_RECEIVED)
		KUNIT_EXPECT_EQ(test, peer->last[c->peer_event].param.sidr_rep.status,
				OIB_CM_SIDR_REJECT);
	if (c->state == OIB_CM_DREQ_SENT)	/* its DREP now goes to an id that is gone */
		KUNIT_ASSERT_EQ(test, 0, oib_cm_send_drep(peer->id, NULL, 0));
	if (c->state != OIB_CM_TIMEWAIT && (c->peer_event == OIB_CM_EVENT_DREQ_RECEIVED ||
					    c->peer_event == OIB_CM_EVENT_DREP_RECEIVED))
		KUNIT_EXPECT_TRUE(test, cmt_wait(peer, OIB_CM_EVENT_TIMEWAIT_EXIT, 1));
}

/*
 * Peer to peer: both sides send a REQ for the same service to each other.  a's first REQ is
 * lost, so b's crosses it for certain, and a's resend (4.6 s later) crosses b's: whichever
 * side has the lower (CA GUID, QPN) takes the other's REQ on its own cm_id and answers it; the
 * other stays active.  One connection results, and it carries data.
 */
static void cm_req_crossing(struct kunit *test)
{
	struct cmt_pair *p = cmt_pair(test);
	struct oib_cm_req_param req_b;
	struct oib_cm_path path_b;
	struct cmt_end *passive;

	p->req.service_id = CMT_SID + 2;	/* no listener */
	p->req.peer_to_peer = true;
	path_b = p->path;
	path_b.sgid = p->b.gid;
	path_b.dgid = p->a.gid;
	req_b = p->req;
	req_b.qp = p->b.qp;
	req_b.path = &path_b;
	p->b.id = oib_cm_create_id(p->b.dev, cmt_handler, &p->b);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p->b.id);

	cmt_rule(p, ORXE_FAULT_DROP, 1, 0);
	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	KUNIT_ASSERT_EQ(test, 0, oib_cm_send_req(p->b.id, &req_b));
	cmt_expect_established(test, p);
	passive = cmt_count(&p->a, OIB_CM_EVENT_REQ_RECEIVED) ? &p->a : &p->b;
	KUNIT_EXPECT_EQ(test, cmt_count(passive, OIB_CM_EVENT_REQ_RECEIVED), 1);
	KUNIT_EXPECT_NULL(test, passive->last[OIB_CM_EVENT_REQ_RECEIVED].param.req.listen_id);
	KUNIT_EXPECT_EQ(test, cmt_count(passive == &p->a ? &p->b : &p->a,
					OIB_CM_EVENT_REQ_RECEIVED), 0);
	KUNIT_EXPECT_EQ(test, cmt_count(&p->a, OIB_CM_EVENT_REJ_RECEIVED), 0);
	KUNIT_EXPECT_EQ(test, cmt_count(&p->b, OIB_CM_EVENT_REJ_RECEIVED), 0);
	KUNIT_EXPECT_EQ(test, p->a.id->remote_id, p->b.id->local_id);
	cmt_exchange(test, &p->a, &p->b, 64, 50);
	cmt_exchange(test, &p->b, &p->a, 64, 51);
}

/* Both sides send DREQ at once: each answers the other's, both pass TIMEWAIT. */
static void cm_dreq_crossing(struct kunit *test)
{
	struct cmt_pair *p = cmt_pair(test);

	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	cmt_expect_established(test, p);
	KUNIT_ASSERT_EQ(test, 0, oib_cm_send_dreq(p->a.id, NULL, 0));
	KUNIT_ASSERT_EQ(test, 0, oib_cm_send_dreq(p->b.id, NULL, 0));
	KUNIT_EXPECT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_TIMEWAIT_EXIT, 1));
	KUNIT_EXPECT_TRUE(test, cmt_wait(&p->b, OIB_CM_EVENT_TIMEWAIT_EXIT, 1));
	KUNIT_EXPECT_EQ(test, cmt_count(&p->a, OIB_CM_EVENT_DREQ_ERROR), 0);
	KUNIT_EXPECT_EQ(test, cmt_count(&p->b, OIB_CM_EVENT_DREQ_ERROR), 0);
	KUNIT_EXPECT_EQ(test, p->a.id->state, OIB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, p->b.id->state, OIB_CM_IDLE);
}

static int cm_failslab_create(struct kunit *test, void *ctx)
{
	struct cmt_pair *p = ctx;
	int ret;

	p->a.id = oib_cm_create_id(p->a.dev, cmt_handler, &p->a);
	if (IS_ERR(p->a.id)) {
		ret = PTR_ERR(p->a.id);
		p->a.id = NULL;
		return ret;
	}
	ret = oib_cm_send_req(p->a.id, &p->req);
	if (ret) {
		oib_cm_destroy_id(p->a.id);
		p->a.id = NULL;
	}
	return ret;
}

static int cm_failslab_ahs;	/* a's address handles before the sweep */

/*
 * Destroy the id, and wait for the MADs its destroy sent (each with an address handle of a's
 * until its send completes): the sweep compares a's object counts around each attempt.
 */
static void cm_failslab_destroy(struct kunit *test, void *ctx)
{
	struct oib_qp_attr reset = { .qp_state = OIB_QPS_RESET };
	struct cmt_pair *p = ctx;

	oib_cm_destroy_id(p->a.id);
	p->a.id = NULL;
	KUNIT_EXPECT_EQ(test, 0, oib_modify_qp(p->a.qp, &reset, OIB_QP_STATE));
	KUNIT_EXPECT_TRUE(test, oib_test_wait_for(oib_object_count(p->a.dev, OIB_OBJ_AH) ==
						  cm_failslab_ahs));
}

/*
 * Every allocation of creating a cm_id and sending its REQ fails in turn: the call fails cleanly
 * (no address handle or other object left) or absorbs it.  Nobody listens: b answers REJ.
 */
static void cm_failslab_connect(struct kunit *test)
{
	struct cmt_pair *p = cmt_pair(test);
	int injected;

	p->req.service_id = CMT_SID + 1;
	cm_failslab_ahs = oib_object_count(p->a.dev, OIB_OBJ_AH);
	injected = oib_test_failslab_sweep(test, p->a.dev, cm_failslab_create,
					   cm_failslab_destroy, p);
	kunit_info(test, "%d allocations failed in turn", injected);
	KUNIT_EXPECT_GT(test, injected, 3);
}

/* Print what tshark must find in the capture @name (tools/check.sh checks it). */
static void cm_expect_field(const char *field, u64 value)
{
	pr_info("OIB-PCAP-EXPECT %s infiniband.cm.%s %#llx\n", CMT_FABRIC, field, value);
}

/*
 * The capture of a connection and its release goes to the console; make check has tshark
 * decode it as CM REQ, REP, RTU, DREQ and DREP with the values this test used.
 */
static void cm_capture(struct kunit *test)
{
	struct cmt_pair *p = cmt_pair(test);
	size_t size = 64 * 1024;
	u8 *pcap = oib_test_vzalloc(test, size);
	u32 a_id, b_id;
	loff_t pos = 0;
	ssize_t got;

	oib_test_capture_start(test, p->f, size);
	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	cmt_expect_established(test, p);
	a_id = p->a.id->local_id;
	b_id = p->b.id->local_id;
	cmt_disconnect(test, p, &p->a);
	oib_rxe_fabric_capture_stop(p->f);
	got = oib_rxe_fabric_capture_read(p->f, pcap, size, &pos);
	KUNIT_ASSERT_GT(test, got, 24);

	cm_expect_field("req.serviceid", CMT_SID);
	cm_expect_field("req.localqpn", p->a.qp->qp_num);
	cm_expect_field("req.startpsn", 0x111);
	cm_expect_field("rep.remotecommid", a_id);
	cm_expect_field("rep.localqpn", p->b.qp->qp_num);
	cm_expect_field("rep.startpsn", 0x222);
	cm_expect_field("rtu.localcommid", a_id);
	cm_expect_field("rtu.remotecommid", b_id);
	cm_expect_field("dreq.localcommid", a_id);
	cm_expect_field("dreq.remotecommid", b_id);
	cm_expect_field("drsp.localcommid", b_id);
	cm_expect_field("drsp.remotecommid", a_id);
	oib_test_pcap_print(CMT_FABRIC, pcap, got);
}

static int cm_suite_init(struct kunit_suite *suite)
{
	int i;

	for (i = 0; i < sizeof(cmt_pattern); i++)
		cmt_pattern[i] = i * 7 + 1;
	return 0;
}

static struct kunit_case cm_connect_cases[] = {
	KUNIT_CASE(cm_connect_disconnect_active),
	KUNIT_CASE(cm_connect_disconnect_passive),
	KUNIT_CASE(cm_reconnect),
	KUNIT_CASE(cm_reject),
	KUNIT_CASE(cm_reject_from_handler),
	KUNIT_CASE(cm_reject_no_listener),
	KUNIT_CASE(cm_reject_max),
	KUNIT_CASE(cm_mra_then_rep),
	KUNIT_CASE(cm_rtu_lost),
	KUNIT_CASE(cm_rtu_late),
	KUNIT_CASE(cm_rtu_lost_first_recv),
	KUNIT_CASE(cm_notify),
	KUNIT_CASE(cm_private_data_max),
	KUNIT_CASE(cm_validation),
	KUNIT_CASE(cm_sidr),
	KUNIT_CASE(cm_stale_connection),
	KUNIT_CASE_PARAM(cm_destroy_in_state, destroy_gen_params),
	KUNIT_CASE(cm_req_crossing),
	KUNIT_CASE(cm_dreq_crossing),
	KUNIT_CASE(cm_failslab_connect),
	KUNIT_CASE(cm_capture),
	{}
};

static struct kunit_suite cm_connect_suite = {
	.name = "oib_cm_connect",
	.suite_init = cm_suite_init,
	.test_cases = cm_connect_cases,
};

kunit_test_suite(cm_connect_suite);

MODULE_DESCRIPTION("oib_cm connections end to end");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

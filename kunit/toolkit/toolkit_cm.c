// SPDX-License-Identifier: GPL-2.0-only
/* The toolkit's CM part: see oib_toolkit_cm.h. */
#include <linux/err.h>
#include <linux/string.h>
#include "oib_toolkit_cm.h"

static const char cmt_req_pdata[] = "req from a";
static const char cmt_rep_pdata[] = "rep from b";

static void cmt_record(struct cmt_end *e, const struct oib_cm_event *ev)
{
	unsigned long flags;

	spin_lock_irqsave(&e->lock, flags);
	if (ev->type < OIB_CM_NEVENTS) {
		e->events[ev->type]++;
		e->last[ev->type] = *ev;
		e->last[ev->type].private_data = NULL;
		if (ev->private_data)
			memcpy(e->pdata[ev->type], ev->private_data,
			       min_t(size_t, ev->private_data_len, OIB_CM_MAX_PRIVATE_DATA_SIZE));
	} else {
		e->errors++;
	}
	if (e->nevents < ARRAY_SIZE(e->order))
		e->order[e->nevents] = ev->type;
	e->nevents++;
	spin_unlock_irqrestore(&e->lock, flags);
	wake_up_all(&e->wq);
}

static int cmt_accept(struct cmt_end *e, struct oib_cm_id *id, const struct oib_cm_event *ev)
{
	struct oib_cm_rep_param rep = {
		.qp = e->qp, .starting_psn = 0x222,
		.responder_resources = ev->param.req.initiator_depth,
		.initiator_depth = ev->param.req.responder_resources,
		.rnr_retry_count = 7, .target_ack_delay = 15,
		.private_data = cmt_rep_pdata, .private_data_len = sizeof(cmt_rep_pdata),
	};
	int ret = oib_cm_send_rep(id, &rep);

	if (ret || !e->reply_in_req)
		return ret;
	/* The design thread's ULP: receive and reply at once, the QP still in RTR. */
	ret = cmt_post_recv(e, 1);
	return ret ?: cmt_post_send(e, 2, 64);
}

static int cmt_on_req(struct cmt_end *e, struct oib_cm_id *id, const struct oib_cm_event *ev)
{
	static const char no[] = "no";

	e->id = id;
	switch (e->on_req) {
	case CMT_ACCEPT:
		if (cmt_accept(e, id, ev))
			e->errors++;
		return 0;
	case CMT_REJECT:
		if (oib_cm_send_rej(id, OIB_CM_REJ_CONSUMER_DEFINED, NULL, 0, no, sizeof(no)))
			e->errors++;
		return 0;
	case CMT_MRA:
		if (oib_cm_send_mra(id, e->mra_timeout, NULL, 0))
			e->errors++;
		return 0;
	case CMT_RETURN_ERR:
		e->id = NULL;		/* the CM destroys it */
		return -ECONNREFUSED;
	default:
		return 0;
	}
}

const struct oib_cm_sidr_rep_param cmt_sidr_rep = {
	.status = OIB_CM_SIDR_SUCCESS, .qpn = CMT_SIDR_QPN, .qkey = CMT_SIDR_QKEY,
	.private_data = cmt_rep_pdata, .private_data_len = sizeof(cmt_rep_pdata),
};

int cmt_handler(struct oib_cm_id *id, const struct oib_cm_event *ev)
{
	struct cmt_end *e = id->context;
	int ret = 0;

	switch (ev->type) {
	case OIB_CM_EVENT_REQ_RECEIVED:
		ret = cmt_on_req(e, id, ev);
		break;
	case OIB_CM_EVENT_REP_RECEIVED:
		if (e->rtu_on_rep && oib_cm_send_rtu(id, "rtu", 3))
			e->errors++;
		break;
	case OIB_CM_EVENT_SIDR_REQ_RECEIVED:
		e->id = id;
		if (e->on_req == CMT_ACCEPT && oib_cm_send_sidr_rep(id, &cmt_sidr_rep))
			e->errors++;
		break;
	case OIB_CM_EVENT_DREQ_RECEIVED:
		/* -EINVAL when our own DREQ crossed it: the CM answered it already */
		if (e->drep_on_dreq && id->state == OIB_CM_DREQ_RCVD &&
		    oib_cm_send_drep(id, NULL, 0))
			e->errors++;
		break;
	default:
		break;
	}
	if (e->destroy_on == ev->type + 1) {
		e->id = NULL;		/* the CM destroys it */
		ret = -ECONNABORTED;
	}
	cmt_record(e, ev);
	return ret;
}

static void cmt_end_init(struct kunit *test, struct cmt_end *e, struct orxe_fabric *f)
{
	e->test = test;
	spin_lock_init(&e->lock);
	init_waitqueue_head(&e->wq);
	e->rtu_on_rep = true;
	e->drep_on_dreq = true;
	e->dev = oib_test_rxe_on(test, oib_rxe_fabric_name(f), 1);
	e->pd = oib_test_pd(test, e->dev);
	e->cq = oib_test_cq(test, e->dev, 4 * CMT_WR);
	e->qp = oib_test_qp(test, e->pd, e->cq, OIB_QPT_RC, CMT_WR);
	e->buf = kunit_kzalloc(test, CMT_BUF, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e->buf);
	KUNIT_ASSERT_EQ(test, 0, oib_query_gid(e->dev, 1, 0, &e->gid, NULL));
}

/* Runs before the QPs are destroyed (registered after them): the ids first. */
static void cmt_pair_release(void *arg)
{
	struct cmt_pair *p = arg;

	oib_cm_destroy_id(p->a.id);
	oib_cm_destroy_id(p->b.id);
	oib_cm_destroy_id(p->listener);
	KUNIT_EXPECT_EQ(p->test, p->a.errors, 0);
	KUNIT_EXPECT_EQ(p->test, p->b.errors, 0);
}

struct cmt_pair *cmt_pair(struct kunit *test)
{
	struct cmt_pair *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	p->test = test;
	p->f = oib_test_fabric(test, CMT_FABRIC, 1);
	cmt_end_init(test, &p->a, p->f);
	cmt_end_init(test, &p->b, p->f);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, cmt_pair_release, p));
	p->listener = oib_cm_create_id(p->b.dev, cmt_handler, &p->b);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p->listener);
	KUNIT_ASSERT_EQ(test, 0, oib_cm_listen(p->listener, CMT_SID, 0));

	p->path = (struct oib_cm_path){
		.sgid = p->a.gid, .dgid = p->b.gid, .hop_limit = 64, .mtu = OIB_MTU_1024,
		.packet_life_time = 14, .pkey = 0xffff,
	};
	p->req = (struct oib_cm_req_param){
		.qp = p->a.qp, .path = &p->path, .service_id = CMT_SID, .starting_psn = 0x111,
		.private_data = cmt_req_pdata, .private_data_len = sizeof(cmt_req_pdata),
		.responder_resources = 4, .initiator_depth = 4,
		.remote_cm_response_timeout = 20, .local_cm_response_timeout = 20,
		.retry_count = 7, .rnr_retry_count = 7, .max_cm_retries = 15,
	};
	return p;
}

int cmt_connect(struct cmt_pair *p)
{
	if (!p->a.id) {
		p->a.id = oib_cm_create_id(p->a.dev, cmt_handler, &p->a);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(p->test, p->a.id);
	}
	return oib_cm_send_req(p->a.id, &p->req);
}

int cmt_count(struct cmt_end *e, enum oib_cm_event_type type)
{
	unsigned long flags;
	int n;

	spin_lock_irqsave(&e->lock, flags);
	n = e->events[type];
	spin_unlock_irqrestore(&e->lock, flags);
	return n;
}

bool cmt_wait(struct cmt_end *e, enum oib_cm_event_type type, int n)
{
	return wait_event_timeout(e->wq, cmt_count(e, type) >= n,
				  msecs_to_jiffies(OIB_TEST_WAIT_MS)) > 0;
}

void cmt_expect_established(struct kunit *test, struct cmt_pair *p)
{
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_ESTABLISHED, 1));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->b, OIB_CM_EVENT_ESTABLISHED, 1));
	KUNIT_EXPECT_EQ(test, p->a.id->state, OIB_CM_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, p->b.id->state, OIB_CM_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, READ_ONCE(p->a.qp->state), OIB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, READ_ONCE(p->b.qp->state), OIB_QPS_RTS);
}

int cmt_post_recv(struct cmt_end *e, u64 wr_id)
{
	struct oib_sge sge = { .addr = (u64)(uintptr_t)e->buf, .length = CMT_BUF / 2,
			       .lkey = e->pd->local_dma_lkey };
	struct oib_recv_wr wr = { .wr_id = wr_id, .sg_list = &sge, .num_sge = 1 };

	return oib_post_recv(e->qp, &wr, NULL);
}

int cmt_post_send(struct cmt_end *e, u64 wr_id, u32 len)
{
	struct oib_sge sge = { .addr = (u64)(uintptr_t)(e->buf + CMT_BUF / 2), .length = len,
			       .lkey = e->pd->local_dma_lkey };
	struct oib_send_wr wr = { .wr_id = wr_id, .opcode = OIB_WR_SEND, .sg_list = &sge,
				  .num_sge = 1, .send_flags = OIB_SEND_SIGNALED };

	memset(e->buf + CMT_BUF / 2, (u8)wr_id, len);
	return oib_post_send(e->qp, &wr, NULL);
}

void cmt_exchange(struct kunit *test, struct cmt_end *from, struct cmt_end *to, u32 len, u64 id)
{
	struct oib_wc wc;

	KUNIT_ASSERT_EQ(test, 0, cmt_post_recv(to, id));
	KUNIT_ASSERT_EQ(test, 0, cmt_post_send(from, id, len));
	KUNIT_ASSERT_EQ(test, 1, oib_test_poll_cq(from->cq, &wc, 1));
	KUNIT_EXPECT_EQ(test, wc.status, OIB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.wr_id, id);
	KUNIT_ASSERT_EQ(test, 1, oib_test_poll_cq(to->cq, &wc, 1));
	KUNIT_EXPECT_EQ(test, wc.status, OIB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.wr_id, id);
	KUNIT_EXPECT_EQ(test, wc.byte_len, len);
	KUNIT_EXPECT_EQ(test, to->buf[len - 1], (u8)id);
}

void cmt_disconnect(struct kunit *test, struct cmt_pair *p, struct cmt_end *e)
{
	struct cmt_end *peer = e == &p->a ? &p->b : &p->a;

	KUNIT_ASSERT_EQ(test, 0, oib_cm_send_dreq(e->id, NULL, 0));
	KUNIT_EXPECT_TRUE(test, cmt_wait(peer, OIB_CM_EVENT_DREQ_RECEIVED, 1));
	KUNIT_EXPECT_TRUE(test, cmt_wait(e, OIB_CM_EVENT_DREP_RECEIVED, 1));
	KUNIT_EXPECT_TRUE(test, cmt_wait(e, OIB_CM_EVENT_TIMEWAIT_EXIT, 1));
	KUNIT_EXPECT_TRUE(test, cmt_wait(peer, OIB_CM_EVENT_TIMEWAIT_EXIT, 1));
	KUNIT_EXPECT_EQ(test, e->id->state, OIB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, peer->id->state, OIB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, READ_ONCE(e->qp->state), OIB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, READ_ONCE(peer->qp->state), OIB_QPS_ERR);
}

void cmt_rule(struct cmt_pair *p, enum orxe_fault_action action, u32 count, u32 delay_us)
{
	struct orxe_fault_rule rule = { .action = action, .opcode = 0x64, .qpn = 1,
					.count = count, .delay_us = delay_us };

	KUNIT_ASSERT_EQ(p->test, 0, oib_rxe_fabric_add_rule(p->f, &rule));
}

u64 cmt_stat(struct cmt_end *e, enum oib_cm_port_stat stat, u16 attr_id)
{
	return oib_cm_port_stat(e->dev, 1, stat, attr_id);
}

u64 cmt_drops(struct cmt_end *e, enum oib_cm_drop why)
{
	return oib_cm_port_drops(e->dev, 1, why);
}

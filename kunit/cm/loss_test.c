// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_cm when MADs go missing, and under load: each message dropped once (the connection still
 * completes, by the resend or duplicate rule the spec gives), each awaited message dropped every
 * time (the wait ends in the error event the spec gives, and TIMEWAIT still ends), a seeded fuzz
 * of CM MADs (every one counted), and 1,000 connections with 5% of all frames lost.
 *
 * The CM timeouts are short here (packet life time 14, response timeouts 16: a REQ is resent
 * every 384 ms, a REP every 256 ms), so that losses cost little time; nothing below depends on
 * how long anything takes, only on what eventually happens.
 */
#include <linux/module.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <oib/kunit/mad.h>
#include "oib_toolkit_cm.h"

static struct cmt_pair *loss_pair(struct kunit *test)
{
	struct cmt_pair *p = cmt_pair(test);

	p->req.remote_cm_response_timeout = 16;
	p->req.local_cm_response_timeout = 16;
	return p;
}

/* REQ lost: resent. */
static void loss_req(struct kunit *test)
{
	struct cmt_pair *p = loss_pair(test);

	cmt_rule(p, ORXE_FAULT_DROP, 1, 0);
	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	cmt_expect_established(test, p);
	cmt_exchange(test, &p->a, &p->b, 64, 1);
}

/* REP lost: resent by the passive side, or again in answer to the REQ resent. */
static void loss_rep(struct kunit *test)
{
	struct cmt_pair *p = loss_pair(test);
	struct oib_cm_rep_param rep = { .qp = p->b.qp, .rnr_retry_count = 7 };

	p->b.on_req = CMT_NOTHING;
	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->b, OIB_CM_EVENT_REQ_RECEIVED, 1));
	cmt_rule(p, ORXE_FAULT_DROP, 1, 0);
	KUNIT_ASSERT_EQ(test, 0, oib_cm_send_rep(p->b.id, &rep));
	cmt_expect_established(test, p);
	KUNIT_EXPECT_EQ(test, cmt_count(&p->a, OIB_CM_EVENT_REP_RECEIVED), 1);
	cmt_exchange(test, &p->b, &p->a, 64, 2);
}

/*
 * RTU lost, and no traffic: the REP resent brings the RTU again.  The REP is resent only after
 * 4 s here, so the frame the rule drops is the RTU, however slow the machine.
 */
static void loss_rtu(struct kunit *test)
{
	struct cmt_pair *p = loss_pair(test);

	p->req.local_cm_response_timeout = 20;
	p->a.rtu_on_rep = false;
	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_REP_RECEIVED, 1));
	cmt_rule(p, ORXE_FAULT_DROP, 1, 0);
	KUNIT_ASSERT_EQ(test, 0, oib_cm_send_rtu(p->a.id, NULL, 0));
	cmt_expect_established(test, p);
	KUNIT_EXPECT_GE(test, cmt_stat(&p->a, OIB_CM_STAT_DUPLICATES, CM_ATTR_REP), 1);
	KUNIT_EXPECT_GE(test, cmt_stat(&p->a, OIB_CM_STAT_RESENT, CM_ATTR_RTU), 1);
	KUNIT_EXPECT_EQ(test, cmt_count(&p->a, OIB_CM_EVENT_ESTABLISHED), 1);
}

/*
 * MRA lost: the REQ resent is answered with the MRA again.  The REQ is resent only after 4 s
 * here, so the frame the rule drops is the MRA.
 */
static void loss_mra(struct kunit *test)
{
	struct cmt_pair *p = loss_pair(test);
	struct oib_cm_rep_param rep = { .qp = p->b.qp, .rnr_retry_count = 7 };

	p->req.remote_cm_response_timeout = 20;
	p->b.on_req = CMT_NOTHING;
	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->b, OIB_CM_EVENT_REQ_RECEIVED, 1));
	cmt_rule(p, ORXE_FAULT_DROP, 1, 0);
	KUNIT_ASSERT_EQ(test, 0, oib_cm_send_mra(p->b.id, 20, NULL, 0));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_MRA_RECEIVED, 1));
	KUNIT_EXPECT_GE(test, cmt_stat(&p->b, OIB_CM_STAT_RESENT, CM_ATTR_MRA), 1);
	KUNIT_EXPECT_EQ(test, cmt_count(&p->b, OIB_CM_EVENT_REQ_RECEIVED), 1);
	KUNIT_ASSERT_EQ(test, 0, oib_cm_send_rep(p->b.id, &rep));
	cmt_expect_established(test, p);
}

/* REJ lost: the REQ resent (after 4 s: the REJ is what the rule drops) is rejected again. */
static void loss_rej(struct kunit *test)
{
	struct cmt_pair *p = loss_pair(test);

	p->req.remote_cm_response_timeout = 20;
	p->b.on_req = CMT_NOTHING;
	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->b, OIB_CM_EVENT_REQ_RECEIVED, 1));
	cmt_rule(p, ORXE_FAULT_DROP, 1, 0);
	p->b.on_req = CMT_REJECT;
	KUNIT_ASSERT_EQ(test, 0, oib_cm_send_rej(p->b.id, OIB_CM_REJ_CONSUMER_DEFINED, NULL, 0,
						 NULL, 0));
	oib_cm_destroy_id(p->b.id);
	p->b.id = NULL;
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_REJ_RECEIVED, 1));
	KUNIT_EXPECT_EQ(test, cmt_count(&p->b, OIB_CM_EVENT_REQ_RECEIVED), 2);
	KUNIT_EXPECT_EQ(test, p->a.id->state, OIB_CM_IDLE);
}

/* DREQ lost: resent. */
static void loss_dreq(struct kunit *test)
{
	struct cmt_pair *p = loss_pair(test);

	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	cmt_expect_established(test, p);
	cmt_rule(p, ORXE_FAULT_DROP, 1, 0);
	cmt_disconnect(test, p, &p->a);
	KUNIT_EXPECT_EQ(test, cmt_count(&p->a, OIB_CM_EVENT_DREQ_ERROR), 0);
}

/* DREP lost: the DREQ resent is answered again, from TIMEWAIT or as unknown. */
static void loss_drep(struct kunit *test)
{
	struct cmt_pair *p = loss_pair(test);

	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	cmt_expect_established(test, p);
	p->b.drep_on_dreq = false;
	KUNIT_ASSERT_EQ(test, 0, oib_cm_send_dreq(p->a.id, NULL, 0));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->b, OIB_CM_EVENT_DREQ_RECEIVED, 1));
	cmt_rule(p, ORXE_FAULT_DROP, 1, 0);
	KUNIT_ASSERT_EQ(test, 0, oib_cm_send_drep(p->b.id, NULL, 0));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_DREP_RECEIVED, 1));
	KUNIT_EXPECT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_TIMEWAIT_EXIT, 1));
	KUNIT_EXPECT_TRUE(test, cmt_wait(&p->b, OIB_CM_EVENT_TIMEWAIT_EXIT, 1));
}

/* Every REQ lost: REQ_ERROR after the retries, the QP in ERR, nothing at the passive side. */
static void loss_req_all(struct kunit *test)
{
	struct cmt_pair *p = loss_pair(test);

	p->req.max_cm_retries = 2;
	cmt_rule(p, ORXE_FAULT_DROP, 1000, 0);
	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_REQ_ERROR, 1));
	KUNIT_EXPECT_EQ(test, p->a.last[OIB_CM_EVENT_REQ_ERROR].param.status, -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, p->a.id->state, OIB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, READ_ONCE(p->a.qp->state), OIB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, cmt_count(&p->b, OIB_CM_EVENT_REQ_RECEIVED), 0);
}

/* Every REP lost: both sides give up, each with its error event. */
static void loss_rep_all(struct kunit *test)
{
	struct cmt_pair *p = loss_pair(test);
	struct oib_cm_rep_param rep = { .qp = p->b.qp, .rnr_retry_count = 7 };

	p->req.max_cm_retries = 2;
	p->b.on_req = CMT_NOTHING;
	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->b, OIB_CM_EVENT_REQ_RECEIVED, 1));
	cmt_rule(p, ORXE_FAULT_DROP, 1000, 0);
	KUNIT_ASSERT_EQ(test, 0, oib_cm_send_rep(p->b.id, &rep));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->b, OIB_CM_EVENT_REP_ERROR, 1));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_REQ_ERROR, 1));
	KUNIT_EXPECT_EQ(test, p->b.id->state, OIB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, READ_ONCE(p->b.qp->state), OIB_QPS_ERR);
}

/* Every DREQ lost: DREQ_ERROR, and TIMEWAIT is reached and left all the same. */
static void loss_dreq_all(struct kunit *test)
{
	struct cmt_pair *p = loss_pair(test);

	p->req.max_cm_retries = 2;
	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	cmt_expect_established(test, p);
	cmt_rule(p, ORXE_FAULT_DROP, 1000, 0);
	KUNIT_ASSERT_EQ(test, 0, oib_cm_send_dreq(p->a.id, NULL, 0));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_DREQ_ERROR, 1));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_TIMEWAIT_EXIT, 1));
	KUNIT_EXPECT_EQ(test, p->a.id->state, OIB_CM_IDLE);
	oib_rxe_fabric_clear_rules(p->f);
}

/* ---- Fuzz ---- */

#define FUZZ_SEED	0x0c4d5eedULL
#define FUZZ_MADS	4000
#define FUZZ_BATCH	50

/*
 * A send-only MAD agent on a's port sends b's CM thousands of CM MADs: valid MAD headers with
 * random attribute IDs (a third of them a CM message's), random TIDs, modifiers and bodies.
 * b's CM counts each one it was given exactly once (received, duplicate or dropped), and lives.
 */
static void fuzz_send_done(struct oib_mad_agent *agent, struct oib_mad_send_wc *wc)
{
	oib_free_send_mad(wc->send_buf);
}

static u64 fuzz_dispatched(struct cmt_end *b)
{
	return oib_mad_port_stat(b->dev, 1, OIB_MAD_PORT_DISPATCHED);
}

/* Every MAD b's CM was given, by what became of it. */
static u64 fuzz_counted(struct cmt_end *b)
{
	u64 counted = 0;
	int s, t;

	for (t = 0; t < CM_NMSGS; t++)
		for (s = OIB_CM_STAT_RECEIVED; s <= OIB_CM_STAT_DUPLICATES; s++)
			counted += cmt_stat(b, s, CM_ATTR_REQ + t);
	for (t = 0; t < OIB_CM_NDROPS; t++)
		counted += cmt_drops(b, t);
	return counted;
}

static void cm_fuzz(struct kunit *test)
{
	struct cmt_pair *p = cmt_pair(test);
	struct oib_mad_reg_req reg = {};
	struct oib_ah_attr attr = { .port_num = 1, .flags = OIB_AH_GRH,
				    .grh = { .hop_limit = 64, .dgid = p->b.gid } };
	struct rnd_state rnd;
	struct oib_mad_agent *agent;
	struct oib_ah *ah;
	u64 base, want;
	int i;

	prandom_seed_state(&rnd, FUZZ_SEED);
	kunit_info(test, "seed %#llx", FUZZ_SEED);
	agent = oib_register_mad_agent(p->a.dev, 1, OIB_QPT_GSI, &reg, fuzz_send_done, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, agent);
	ah = oib_mad_create_ah(agent, &attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ah);
	base = fuzz_dispatched(&p->b);
	for (i = 0; i < FUZZ_MADS; i++) {
		struct oib_mad_send_buf *sb = oib_create_send_mad(agent, ah, GFP_KERNEL);
		struct oib_mad_hdr *hdr;

		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sb);
		prandom_bytes_state(&rnd, sb->mad, OIB_MAD_SIZE);
		hdr = sb->mad;
		hdr->base_version = OIB_MAD_BASE_VERSION;
		hdr->mgmt_class = OIB_MGMT_CLASS_CM;
		hdr->class_version = CM_CLASS_VERSION;
		hdr->method = OIB_MGMT_METHOD_SEND;
		if (prandom_u32_state(&rnd) % 3) {
			u32 msg = prandom_u32_state(&rnd) % CM_NMSGS;

			hdr->attr_id = cpu_to_be16(CM_ATTR_REQ + msg);
		}
		KUNIT_ASSERT_EQ(test, 0, oib_post_send_mad(sb));
		want = base + i + 1;
		if (i % FUZZ_BATCH == FUZZ_BATCH - 1)
			KUNIT_ASSERT_TRUE(test, oib_test_wait_for(fuzz_dispatched(&p->b) >= want));
	}
	KUNIT_ASSERT_TRUE(test, oib_test_wait_for(fuzz_dispatched(&p->b) >= base + FUZZ_MADS));
	oib_unregister_mad_agent(agent);	/* its sends flushed; the AH is ours */
	oib_destroy_ah(ah);
	KUNIT_EXPECT_TRUE(test, oib_test_wait_for(fuzz_counted(&p->b) >= FUZZ_MADS));
	KUNIT_EXPECT_EQ(test, fuzz_counted(&p->b), FUZZ_MADS);
	kunit_info(test, "malformed %llu unknown %llu protocol %llu no_route %llu",
		   cmt_drops(&p->b, OIB_CM_DROP_MALFORMED),
		   cmt_drops(&p->b, OIB_CM_DROP_UNKNOWN_ID),
		   cmt_drops(&p->b, OIB_CM_DROP_PROTOCOL),
		   cmt_drops(&p->b, OIB_CM_DROP_NO_ROUTE));
	oib_test_fuzz_inputs(test, "cm_mads", FUZZ_MADS);
}

/* ---- Scale ---- */

#define SCALE_FABRIC	"oib_cm_scale"
#define SCALE_CONNS	1000
#define SCALE_INFLIGHT	64
#define SCALE_WINDOW	16

/* The faults on every frame (CM MADs and data alike), and how many connections go through. */
struct scale_case {
	const char *name;
	struct orxe_fault_cfg faults;
	int conns;
};

static const struct scale_case scale_cases[] = {
	{ "1000_conns_5pct_loss", { .drop_ppm = 50000 }, SCALE_CONNS },
	{ "200_conns_dup_reorder", { .dup_ppm = 200000, .reorder_ppm = 200000,
				     .delay_ppm = 50000 }, 200 },
};

KUNIT_ARRAY_PARAM_DESC(scale, scale_cases, name);

struct scale;

struct scale_conn {
	struct scale *sc;
	struct oib_qp *qa, *qb;
	struct oib_cm_id *ida, *idb;
};

struct scale_end {
	struct oib_device *dev;
	struct oib_pd *pd;
	struct oib_cq *cq;
	u8 *buf;
	union oib_gid gid;
	atomic_t established, timewait_exits;
};

struct scale {
	struct kunit *test;
	struct scale_end a, b;
	struct oib_cm_id *listener;
	struct oib_cm_path path;
	wait_queue_head_t wq;
	atomic_t errors;
	int n;				/* connections made, <= SCALE_CONNS */
	struct scale_conn conns[SCALE_CONNS];
};

static int scale_accept(struct oib_cm_id *id, const struct oib_cm_event *ev)
{
	struct scale *sc = id->context;
	struct oib_cm_rep_param rep = { .rnr_retry_count = 7,
					.responder_resources = ev->param.req.initiator_depth,
					.initiator_depth = ev->param.req.responder_resources };
	u32 idx;

	memcpy(&idx, ev->private_data, sizeof(idx));
	if (idx >= sc->n || sc->conns[idx].idb)
		return -EINVAL;		/* the CM destroys the id: the test will see it */
	sc->conns[idx].idb = id;
	id->context = &sc->conns[idx];
	rep.qp = sc->conns[idx].qb;
	return oib_cm_send_rep(id, &rep);
}

static int scale_handler(struct oib_cm_id *id, const struct oib_cm_event *ev)
{
	struct scale_conn *c = id->context;
	struct scale_end *e;
	int ret = 0;

	if (ev->type == OIB_CM_EVENT_REQ_RECEIVED)
		return scale_accept(id, ev);
	e = id == c->ida ? &c->sc->a : &c->sc->b;
	switch (ev->type) {
	case OIB_CM_EVENT_REP_RECEIVED:
		ret = oib_cm_send_rtu(id, NULL, 0);
		break;
	case OIB_CM_EVENT_ESTABLISHED:
		atomic_inc(&e->established);
		break;
	case OIB_CM_EVENT_DREQ_RECEIVED:
		ret = oib_cm_send_drep(id, NULL, 0);
		break;
	case OIB_CM_EVENT_TIMEWAIT_EXIT:
		atomic_inc(&e->timewait_exits);
		break;
	case OIB_CM_EVENT_MRA_RECEIVED:
	case OIB_CM_EVENT_DREP_RECEIVED:
		break;
	default:
		atomic_inc(&c->sc->errors);
		pr_info("cm_scale: unexpected event %d on %s of connection %td\n", ev->type,
			id == c->ida ? "a" : "b", c - c->sc->conns);
		break;
	}
	if (ret)
		atomic_inc(&c->sc->errors);
	wake_up_all(&c->sc->wq);
	return 0;
}

static void scale_release(void *arg)
{
	struct scale *sc = arg;
	int i;

	for (i = 0; i < sc->n; i++) {
		oib_cm_destroy_id(sc->conns[i].ida);
		oib_cm_destroy_id(sc->conns[i].idb);
	}
	oib_cm_destroy_id(sc->listener);
}

static void scale_end_init(struct kunit *test, struct scale_end *e, int n)
{
	e->dev = oib_test_rxe_on(test, SCALE_FABRIC, 1);
	e->pd = oib_test_pd(test, e->dev);
	e->cq = oib_test_cq(test, e->dev, 2 * n);
	e->buf = kunit_kzalloc(test, 64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e->buf);
	KUNIT_ASSERT_EQ(test, 0, oib_query_gid(e->dev, 1, 0, &e->gid, NULL));
}

static struct scale *scale_setup(struct kunit *test, const struct scale_case *sk)
{
	struct scale *sc = oib_test_vzalloc(test, sizeof(*sc));
	struct orxe_fabric *f;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, sc);
	sc->test = test;
	init_waitqueue_head(&sc->wq);
	sc->n = sk->conns;
	f = oib_test_fabric(test, SCALE_FABRIC, 0x5ca1e);
	scale_end_init(test, &sc->a, sc->n);
	scale_end_init(test, &sc->b, sc->n);
	for (i = 0; i < sc->n; i++) {
		sc->conns[i].sc = sc;
		sc->conns[i].qa = oib_test_qp(test, sc->a.pd, sc->a.cq, OIB_QPT_RC, 2);
		sc->conns[i].qb = oib_test_qp(test, sc->b.pd, sc->b.cq, OIB_QPT_RC, 2);
	}
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, scale_release, sc));
	sc->listener = oib_cm_create_id(sc->b.dev, scale_handler, sc);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sc->listener);
	KUNIT_ASSERT_EQ(test, 0, oib_cm_listen(sc->listener, CMT_SID, 0));
	sc->path = (struct oib_cm_path){ .sgid = sc->a.gid, .dgid = sc->b.gid, .hop_limit = 64,
					 .mtu = OIB_MTU_1024, .packet_life_time = 16,
					 .pkey = 0xffff };
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_set_faults(f, NULL, &sk->faults));
	return sc;
}

static int scale_connect(struct scale *sc, u32 i)
{
	struct oib_cm_req_param req = {
		.qp = sc->conns[i].qa, .path = &sc->path, .service_id = CMT_SID,
		.starting_psn = i, .private_data = &i, .private_data_len = sizeof(i),
		.responder_resources = 1, .initiator_depth = 1,
		.remote_cm_response_timeout = 16, .local_cm_response_timeout = 16,
		.retry_count = 7, .rnr_retry_count = 7, .max_cm_retries = 15,
	};

	sc->conns[i].ida = oib_cm_create_id(sc->a.dev, scale_handler, &sc->conns[i]);
	if (IS_ERR(sc->conns[i].ida)) {
		sc->conns[i].ida = NULL;
		return -ENOMEM;
	}
	return oib_cm_send_req(sc->conns[i].ida, &req);
}

/* Poll @n completions from @cq; how many were successful. */
static int scale_poll(struct oib_cq *cq, int n)
{
	struct oib_wc wc;
	int i, ok = 0;

	for (i = 0; i < n; i++) {
		if (oib_test_poll_cq(cq, &wc, 1) != 1)
			break;
		ok += wc.status == OIB_WC_SUCCESS;
	}
	return ok;
}

/*
 * One message over each connection, a to b, SCALE_WINDOW at a time: a burst of a thousand
 * would queue up at b for longer than the senders' retries last on a slow machine.
 */
static void scale_use(struct kunit *test, struct scale *sc)
{
	struct oib_sge ra = { .addr = (u64)(uintptr_t)sc->b.buf, .length = 64,
			      .lkey = sc->b.pd->local_dma_lkey };
	struct oib_sge sa = { .addr = (u64)(uintptr_t)sc->a.buf, .length = 16,
			      .lkey = sc->a.pd->local_dma_lkey };
	struct oib_recv_wr rwr = { .sg_list = &ra, .num_sge = 1 };
	struct oib_send_wr swr = { .opcode = OIB_WR_SEND, .sg_list = &sa, .num_sge = 1,
				   .send_flags = OIB_SEND_SIGNALED };
	int i, sent_ok = 0;

	for (i = 0; i < sc->n; i++) {
		if (i >= SCALE_WINDOW)
			sent_ok += scale_poll(sc->a.cq, 1);
		KUNIT_ASSERT_EQ(test, 0, oib_post_recv(sc->conns[i].qb, &rwr, NULL));
		KUNIT_ASSERT_EQ(test, 0, oib_post_send(sc->conns[i].qa, &swr, NULL));
	}
	sent_ok += scale_poll(sc->a.cq, min(sc->n, SCALE_WINDOW));
	KUNIT_EXPECT_EQ(test, sent_ok, sc->n);
	KUNIT_EXPECT_EQ(test, scale_poll(sc->b.cq, sc->n), sc->n);
}

#define SCALE_WAIT	msecs_to_jiffies(30 * OIB_TEST_WAIT_MS)

/* Fewer than SCALE_INFLIGHT attempts under way once @i were made. */
static long scale_in_flight(struct scale *sc, int i)
{
	return wait_event_timeout(sc->wq, i - atomic_read(&sc->a.established) < SCALE_INFLIGHT,
				  SCALE_WAIT);
}

static bool scale_both(atomic_t *a, atomic_t *b, int n)
{
	return atomic_read(a) == n && atomic_read(b) == n;
}

/* Every connection established (or through TIMEWAIT) at both ends. */
static long scale_all(struct scale *sc, bool timewait)
{
	return wait_event_timeout(sc->wq, timewait ?
				  scale_both(&sc->a.timewait_exits, &sc->b.timewait_exits, sc->n) :
				  scale_both(&sc->a.established, &sc->b.established, sc->n),
				  SCALE_WAIT);
}

/*
 * 1,000 connections between two devices with 5% of all frames lost (and 200 with frames
 * duplicated, reordered and delayed), SCALE_INFLIGHT attempts at a time: all are established,
 * carry a message, and are torn down through TIMEWAIT.
 */
static void cm_scale(struct kunit *test)
{
	const struct scale_case *sk = test->param_value;
	struct scale *sc = scale_setup(test, sk);
	ktime_t t0 = ktime_get();
	s64 up_ms, down_ms;
	int i;

	for (i = 0; i < sc->n; i++) {
		KUNIT_ASSERT_GT(test, scale_in_flight(sc, i), 0);
		KUNIT_ASSERT_EQ(test, 0, scale_connect(sc, i));
	}
	KUNIT_ASSERT_GT(test, scale_all(sc, false), 0);
	up_ms = ktime_ms_delta(ktime_get(), t0);
	scale_use(test, sc);
	t0 = ktime_get();
	for (i = 0; i < sc->n; i++)
		KUNIT_ASSERT_EQ(test, 0, oib_cm_send_dreq(sc->conns[i].ida, NULL, 0));
	KUNIT_EXPECT_GT(test, scale_all(sc, true), 0);
	down_ms = ktime_ms_delta(ktime_get(), t0);
	KUNIT_EXPECT_EQ(test, atomic_read(&sc->errors), 0);
	kunit_info(test, "%s: established in %lld ms, torn down in %lld ms", sk->name, up_ms,
		   down_ms);
}

static struct kunit_case loss_cases[] = {
	KUNIT_CASE(loss_req),
	KUNIT_CASE(loss_rep),
	KUNIT_CASE(loss_rtu),
	KUNIT_CASE(loss_mra),
	KUNIT_CASE(loss_rej),
	KUNIT_CASE(loss_dreq),
	KUNIT_CASE(loss_drep),
	KUNIT_CASE(loss_req_all),
	KUNIT_CASE(loss_rep_all),
	KUNIT_CASE(loss_dreq_all),
	KUNIT_CASE_SLOW(cm_fuzz),
	KUNIT_CASE_PARAM_ATTR(cm_scale, scale_gen_params, { .speed = KUNIT_SPEED_SLOW }),
	{}
};

static struct kunit_suite loss_suite = {
	.name = "oib_cm_loss",
	.test_cases = loss_cases,
};

kunit_test_suite(loss_suite);

MODULE_DESCRIPTION("oib_cm with MADs lost, and fuzzed");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

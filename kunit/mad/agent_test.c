// SPDX-License-Identifier: GPL-2.0-only
/*
 * The MAD layer through the fabric, one behaviour at a time: registration rules, post checks,
 * round trips, timeouts and retries (responses dropped by fabric rules), cancel and modify,
 * responses that overtake their send completion, where the port's work runs, work request errors,
 * QP recovery, unsupported requests answered, unsolicited and duplicate responses.
 */
#include <linux/cpumask.h>
#include <linux/ktime.h>
#include <linux/slab.h>
#include "oib_toolkit_mad.h"

/* ---- registration ---- */

static struct oib_mad_agent *madt_reg(struct oib_device *dev, u32 port, enum oib_qp_type type,
				      const struct oib_mad_reg_req *req, bool recv, void *ctx)
{
	return oib_register_mad_agent(dev, port, type, req, madt_send_handler,
				      recv ? madt_recv_handler : NULL, ctx);
}

static void mad_register_rules(struct kunit *test)
{
	static const u8 get[] = { OIB_MGMT_METHOD_GET }, set[] = { OIB_MGMT_METHOD_SET };
	struct oib_mad_reg_req req = { .mgmt_class = 0x31, .class_version = 1,
				       .oui = { 1, 2, 3 } };
	struct madt_agent a, b, c, d;
	struct oib_mad_agent *ag;
	struct oib_device *dev;

	madt_fabric(test);
	dev = madt_dev(test, 1);
	madt_init(test, &a, dev, 0);
	madt_init(test, &b, dev, 0);
	madt_init(test, &c, dev, 0);
	madt_init(test, &d, dev, 0);

	KUNIT_EXPECT_EQ(test, 0, madt_register(&a, MADT_CLASS, get, 1));
	KUNIT_EXPECT_EQ(test, -EBUSY, madt_register(&b, MADT_CLASS, get, 1));
	KUNIT_EXPECT_EQ(test, 0, madt_register(&b, MADT_CLASS, set, 1));	/* other method */
	KUNIT_EXPECT_EQ(test, 0, madt_register(&c, 0, NULL, 0));	/* send-only */
	KUNIT_EXPECT_EQ(test, 0, madt_register(&d, 0, NULL, 0));
	KUNIT_EXPECT_NE(test, a.agent->hi_tid, b.agent->hi_tid);
	KUNIT_EXPECT_NE(test, c.agent->hi_tid, d.agent->hi_tid);
	madt_unregister(&c);
	madt_unregister(&d);

	/* Vendor range 2: the OUI is part of the key. */
	__set_bit(OIB_MGMT_METHOD_GET, req.method_mask);
	ag = madt_reg(dev, 1, OIB_QPT_GSI, &req, true, &c);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ag);
	KUNIT_EXPECT_EQ(test, -EBUSY, PTR_ERR(madt_reg(dev, 1, OIB_QPT_GSI, &req, true, &c)));
	req.oui[2] = 4;
	c.agent = madt_reg(dev, 1, OIB_QPT_GSI, &req, true, &c);
	KUNIT_EXPECT_FALSE(test, IS_ERR(c.agent));
	if (!IS_ERR(c.agent))
		oib_unregister_mad_agent(c.agent);
	oib_unregister_mad_agent(ag);

	/* Bad arguments. */
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(madt_reg(NULL, 1, OIB_QPT_GSI, NULL, false, NULL)));
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(madt_reg(dev, 2, OIB_QPT_GSI, NULL, false, NULL)));
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_register_mad_agent(dev, 1, OIB_QPT_GSI, NULL,
								      NULL, NULL, NULL)));
	KUNIT_EXPECT_EQ(test, -EOPNOTSUPP,
			PTR_ERR(madt_reg(dev, 1, OIB_QPT_SMI, NULL, false, NULL)));
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(madt_reg(dev, 1, OIB_QPT_UD, NULL, false, NULL)));
	req.mgmt_class = MADT_CLASS;
	bitmap_zero(req.method_mask, OIB_MGMT_MAX_METHODS);	/* a class with no methods */
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(madt_reg(dev, 1, OIB_QPT_GSI, &req, true, NULL)));
	__set_bit(OIB_MGMT_METHOD_GET, req.method_mask);
	/* A class needs a receive handler. */
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(madt_reg(dev, 1, OIB_QPT_GSI, &req, false, NULL)));
	req.mgmt_class = OIB_MGMT_CLASS_SUBN_LID_ROUTED;	/* QP0's */
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(madt_reg(dev, 1, OIB_QPT_GSI, &req, true, NULL)));

	madt_unregister(&a);
	madt_unregister(&b);
	/* Once unregistered, the methods are free again. */
	KUNIT_EXPECT_EQ(test, 0, madt_register(&b, MADT_CLASS, get, 1));
	madt_unregister(&b);
}

static void mad_post_rules(struct kunit *test)
{
	struct madt_pair *p = madt_pair(test, 4, true);
	struct oib_mad_send_buf *sb;
	struct oib_mad_hdr *hdr;

	/* A response time a busy guest cannot miss: the case is about posting. */
	sb = madt_buf(&p->a, p->ah, MADT_CLASS, OIB_MGMT_METHOD_GET, 0, 5000, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sb);
	hdr = sb->mad;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send_mad(NULL));
	hdr->base_version = 2;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send_mad(sb));
	hdr->base_version = 1;
	hdr->mgmt_class = OIB_MGMT_CLASS_SUBN_DIRECTED;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send_mad(sb));
	hdr->mgmt_class = MADT_CLASS;
	hdr->method = OIB_MGMT_METHOD_GET_RESP;	/* a response cannot wait for a response */
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send_mad(sb));
	hdr->method = OIB_MGMT_METHOD_GET;
	sb->ah = NULL;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send_mad(sb));
	sb->ah = p->ah;
	sb->remote_qpn = 1 << 24;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send_mad(sb));
	sb->remote_qpn = 1;
	KUNIT_EXPECT_EQ(test, -ENOENT, oib_cancel_mad(sb));	/* never posted */
	KUNIT_ASSERT_EQ(test, 0, oib_post_send_mad(sb));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send_mad(sb));	/* twice */
	KUNIT_ASSERT_TRUE(test, madt_wait(&p->a, &p->a.completed, 1));
	/* The layer put the agent's hi_tid in the top of the TID. */
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&p->a.status[OIB_MAD_SEND_OK]));
	madt_expect_clean(test, &p->a);
}

/* ---- round trips, timeouts, retries ---- */

static void mad_round_trip(struct kunit *test)
{
	struct madt_pair *p = madt_pair(test, 16, true);
	int i;

	for (i = 0; i < 16; i++)
		madt_send(test, &p->a, p->ah, MADT_CLASS, i, 2000, 0);
	KUNIT_ASSERT_TRUE(test, madt_wait(&p->a, &p->a.completed, 16));
	KUNIT_EXPECT_EQ(test, 16, atomic_read(&p->a.status[OIB_MAD_SEND_OK]));
	KUNIT_EXPECT_EQ(test, 16, atomic_read(&p->a.responses));
	KUNIT_EXPECT_EQ(test, 16, atomic_read(&p->b.requests));
	KUNIT_EXPECT_EQ(test, 0, p->a.last_resp_status);
	KUNIT_EXPECT_EQ(test, OIB_MGMT_METHOD_GET_RESP, p->a.last_resp_method);
	/* The response handler ran before the send handler of the request it answers. */
	KUNIT_EXPECT_LT(test, p->a.resp_seq, p->a.send_seq);
	KUNIT_EXPECT_EQ(test, 16ULL, oib_mad_port_stat(p->da, 1, OIB_MAD_PORT_RESPONSES));
	KUNIT_EXPECT_EQ(test, 16ULL, oib_mad_port_stat(p->db, 1, OIB_MAD_PORT_DISPATCHED));
	KUNIT_EXPECT_EQ(test, 16ULL, oib_mad_agent_stat(p->a.agent, OIB_MAD_AGENT_COMPLETED));
	KUNIT_EXPECT_EQ(test, 0ULL, oib_mad_agent_stat(p->a.agent, OIB_MAD_AGENT_TIMEOUTS));
	madt_expect_clean(test, &p->a);
	madt_expect_clean(test, &p->b);
}

static void mad_timeout_retries(struct kunit *test)
{
	struct madt_pair *p = madt_pair(test, 1, true);

	/*
	 * The first two answers never arrive; the third must, within the timeout, or a fourth
	 * request goes: 1 s, not the round trip of a quiet host.
	 */
	atomic_set(&p->b.drop_responses, 2);
	madt_send(test, &p->a, p->ah, MADT_CLASS, 0, 1000, 3);
	KUNIT_ASSERT_TRUE(test, madt_wait(&p->a, &p->a.completed, 1));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&p->a.status[OIB_MAD_SEND_OK]));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&p->a.responses));
	KUNIT_EXPECT_EQ(test, 3, atomic_read(&p->b.requests));
	KUNIT_EXPECT_EQ(test, 2ULL, oib_mad_agent_stat(p->a.agent, OIB_MAD_AGENT_RETRIES));
	KUNIT_EXPECT_EQ(test, 2ULL, oib_mad_port_stat(p->da, 1, OIB_MAD_PORT_TIMEOUTS));
	madt_expect_clean(test, &p->a);
}

static void mad_retries_exhausted(struct kunit *test)
{
	struct madt_pair *p = madt_pair(test, 1, false);
	/*
	 * The layer's timeouts are in jiffies: three of 60 ms are at least 3 * 60 ms of jiffies,
	 * which the tick (HZ_PERIODIC under TCG) may advance faster than ktime_get().
	 */
	unsigned long start = jiffies;

	madt_send(test, &p->a, p->ah, MADT_CLASS, 0, 60, 2);
	KUNIT_ASSERT_TRUE(test, madt_wait(&p->a, &p->a.completed, 1));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&p->a.status[OIB_MAD_SEND_RESP_TIMEOUT]));
	KUNIT_EXPECT_GE(test, jiffies - start, 3 * msecs_to_jiffies(60));
	KUNIT_EXPECT_EQ(test, 3, atomic_read(&p->b.requests));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&p->a.responses));
	KUNIT_EXPECT_EQ(test, 2ULL, oib_mad_agent_stat(p->a.agent, OIB_MAD_AGENT_RETRIES));
	KUNIT_EXPECT_EQ(test, 3ULL, oib_mad_agent_stat(p->a.agent, OIB_MAD_AGENT_TIMEOUTS));
	madt_expect_clean(test, &p->a);
}

/* ---- cancel and modify ---- */

static void mad_cancel_waiting(struct kunit *test)
{
	struct madt_pair *p = madt_pair(test, 1, false);
	struct oib_mad_send_buf *sb;

	sb = madt_send(test, &p->a, p->ah, MADT_CLASS, 0, 20000, 0);
	KUNIT_ASSERT_TRUE(test, madt_wait(&p->b, &p->b.requests, 1));
	KUNIT_ASSERT_TRUE(test, madt_wait_stat(p->da, OIB_MAD_PORT_SENT, 1));
	madt_fence(test, &p->a, p->ah, NULL);	/* its send completion is handled: it waits */
	KUNIT_EXPECT_EQ(test, 0, oib_cancel_mad(sb));
	KUNIT_ASSERT_TRUE(test, madt_wait(&p->a, &p->a.completed, 1));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&p->a.status[OIB_MAD_SEND_CANCELLED]));
	madt_expect_clean(test, &p->a);
}

/*
 * At most MAD_MAX_AWAITING (128) requests of a port wait for responses; the rest are held, in
 * order, without a timer, and let go one for each request done.  A responder that does not
 * answer sees 128; cancelling one lets the next go; cancelling a held one just ends it.
 */
static void mad_awaiting_bound(struct kunit *test)
{
	const int n = 200, bound = 128;
	struct madt_pair *p = madt_pair(test, n, false);
	struct oib_mad_send_buf *sb[200];
	int i;

	for (i = 0; i < n; i++)
		sb[i] = madt_send(test, &p->a, p->ah, MADT_CLASS, i, 20000, 0);
	KUNIT_ASSERT_TRUE(test, madt_wait(&p->b, &p->b.requests, bound));
	madt_fence(test, &p->a, p->ah, p->db);	/* b has had all a sent so far */
	KUNIT_EXPECT_EQ(test, bound, atomic_read(&p->b.requests));
	KUNIT_EXPECT_EQ(test, (u64)bound, oib_mad_port_stat(p->da, 1, OIB_MAD_PORT_MAX_AWAITING));
	KUNIT_EXPECT_EQ(test, (u64)(n - bound), oib_mad_port_stat(p->da, 1, OIB_MAD_PORT_HELD));
	KUNIT_EXPECT_EQ(test, 0, oib_cancel_mad(sb[n - 1]));		/* held */
	KUNIT_EXPECT_EQ(test, 0, oib_cancel_mad(sb[0]));		/* waiting */
	KUNIT_ASSERT_TRUE(test, madt_wait(&p->b, &p->b.requests, bound + 1));
	KUNIT_EXPECT_EQ(test, (u32)bound, p->b.last_req_tid);	/* the first held one */
	for (i = n - 2; i > 0; i--)	/* held ones first: nothing more is let go */
		KUNIT_EXPECT_EQ(test, 0, oib_cancel_mad(sb[i]));
	KUNIT_ASSERT_TRUE(test, madt_wait(&p->a, &p->a.completed, n));
	KUNIT_EXPECT_EQ(test, n, atomic_read(&p->a.status[OIB_MAD_SEND_CANCELLED]));
	madt_fence(test, &p->a, p->ah, p->db);
	KUNIT_EXPECT_EQ(test, bound + 1, atomic_read(&p->b.requests));
	madt_expect_clean(test, &p->a);
}

/* Cancel while the send completion is held back, and while queued behind a full window. */
static void mad_cancel_before_send_completion(struct kunit *test)
{
	struct madt_pair *p = madt_pair(test, 40, true);
	struct oib_mad_send_buf *sb[40];
	int i;

	KUNIT_ASSERT_EQ(test, 0, oib_mad_port_hold_send_completions(p->da, 1, true));
	for (i = 0; i < 40; i++)	/* 32 posted, 8 queued */
		sb[i] = madt_send(test, &p->a, p->ah, MADT_CLASS, i, 20000, 0);
	KUNIT_EXPECT_EQ(test, 0, oib_cancel_mad(sb[39]));	/* queued: done at once */
	KUNIT_ASSERT_TRUE(test, madt_wait(&p->a, &p->a.completed, 1));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&p->a.status[OIB_MAD_SEND_CANCELLED]));
	KUNIT_EXPECT_EQ(test, 0, oib_cancel_mad(sb[0]));	/* posted: done at its completion */
	KUNIT_ASSERT_TRUE(test, madt_wait(&p->b, &p->b.requests, 32));
	/*
	 * With a's send completions held, no fence through a's port can pass (a marker's own send
	 * completion is held), and its handlers run at the end of a port work run: once b's answers
	 * to the 31 sends not cancelled have reached a's port, and its work is flushed, any wrong
	 * completion would have been counted.
	 */
	KUNIT_ASSERT_TRUE(test, madt_wait_stat(p->da, OIB_MAD_PORT_RESPONSES, 31));
	KUNIT_ASSERT_EQ(test, 0, oib_mad_port_flush(p->da, 1));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&p->a.completed));
	KUNIT_EXPECT_EQ(test, 32ULL, oib_mad_port_stat(p->da, 1, OIB_MAD_PORT_MAX_OUTSTANDING));
	KUNIT_ASSERT_EQ(test, 0, oib_mad_port_hold_send_completions(p->da, 1, false));
	KUNIT_ASSERT_TRUE(test, madt_wait(&p->a, &p->a.completed, 40));
	KUNIT_EXPECT_EQ(test, 2, atomic_read(&p->a.status[OIB_MAD_SEND_CANCELLED]));
	KUNIT_EXPECT_EQ(test, 38, atomic_read(&p->a.status[OIB_MAD_SEND_OK]));
	KUNIT_EXPECT_EQ(test, 38, atomic_read(&p->a.responses));
	madt_expect_clean(test, &p->a);
}

static void mad_modify_timeout(struct kunit *test)
{
	struct madt_pair *p = madt_pair(test, 2, false);
	struct oib_mad_send_buf *sb, *nowait;
	ktime_t start;

	sb = madt_send(test, &p->a, p->ah, MADT_CLASS, 0, 60000, 0);
	KUNIT_ASSERT_TRUE(test, madt_wait(&p->b, &p->b.requests, 1));
	madt_fence(test, &p->a, p->ah, NULL);	/* it waits for its response now */
	start = ktime_get();
	KUNIT_EXPECT_EQ(test, 0, oib_modify_mad(sb, 50));
	KUNIT_ASSERT_TRUE(test, madt_wait(&p->a, &p->a.completed, 1));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&p->a.status[OIB_MAD_SEND_RESP_TIMEOUT]));
	KUNIT_EXPECT_LT(test, ktime_ms_delta(ktime_get(), start), 10000LL);

	/* A MAD that awaits no response has no timeout to modify. */
	KUNIT_ASSERT_EQ(test, 0, oib_mad_port_hold_send_completions(p->da, 1, true));
	nowait = madt_send(test, &p->a, p->ah, MADT_CLASS, 1, 0, 0);
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_modify_mad(nowait, 10));
	KUNIT_ASSERT_EQ(test, 0, oib_mad_port_hold_send_completions(p->da, 1, false));
	KUNIT_ASSERT_TRUE(test, madt_wait(&p->a, &p->a.completed, 2));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&p->a.status[OIB_MAD_SEND_OK]));
	madt_expect_clean(test, &p->a);
}

/* The response overtakes the send completion: held, then delivered once the send completes. */
static void mad_response_before_send_completion(struct kunit *test)
{
	struct madt_pair *p = madt_pair(test, 1, true);

	KUNIT_ASSERT_EQ(test, 0, oib_mad_port_hold_send_completions(p->da, 1, true));
	madt_send(test, &p->a, p->ah, MADT_CLASS, 0, 20000, 0);
	KUNIT_ASSERT_TRUE(test, madt_wait_stat(p->da, OIB_MAD_PORT_RESPONSES, 1));
	/* No fence passes a port whose send completions are held: see above. */
	KUNIT_ASSERT_EQ(test, 0, oib_mad_port_flush(p->da, 1));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&p->a.responses));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&p->a.completed));
	KUNIT_ASSERT_EQ(test, 0, oib_mad_port_hold_send_completions(p->da, 1, false));
	KUNIT_ASSERT_TRUE(test, madt_wait(&p->a, &p->a.completed, 1));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&p->a.status[OIB_MAD_SEND_OK]));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&p->a.responses));
	KUNIT_EXPECT_LT(test, p->a.resp_seq, p->a.send_seq);
	madt_expect_clean(test, &p->a);
}

/* ---- where the port work runs ---- */

/* Port a's placement, its work at rest. */
static struct oib_mad_port_placement madt_placement(struct kunit *test, struct madt_pair *p)
{
	struct oib_mad_port_placement pl;

	KUNIT_ASSERT_EQ(test, 0, oib_mad_port_flush(p->da, 1));
	KUNIT_ASSERT_EQ(test, 0, oib_mad_port_placement(p->da, 1, &pl));
	return pl;
}

static unsigned long madt_runs(struct madt_pair *p)
{
	struct oib_mad_port_placement pl;

	return oib_mad_port_placement(p->da, 1, &pl) ? 0 : pl.runs;
}

/*
 * Send @k MADs from a that await nothing, their send completions held until all are on a's CQ
 * (a UD send completes as it is posted) and the run the posts kicked (which, completions held,
 * handles none) is over; then let them through from this thread, and return the placement once
 * they are handled.
 */
static struct oib_mad_port_placement madt_burst(struct kunit *test, struct madt_pair *p,
						int k, int *sent)
{
	struct oib_mad_port_placement pl;
	int i;

	KUNIT_ASSERT_EQ(test, 0, oib_mad_port_hold_send_completions(p->da, 1, true));
	pl = madt_placement(test, p);
	for (i = 0; i < k; i++)
		madt_send(test, &p->a, p->ah, MADT_CLASS, (*sent)++, 0, 0);
	KUNIT_ASSERT_TRUE(test, oib_test_wait_for(madt_runs(p) > pl.runs));
	madt_placement(test, p);
	KUNIT_ASSERT_EQ(test, 0, oib_mad_port_hold_send_completions(p->da, 1, false));
	KUNIT_ASSERT_TRUE(test, madt_wait(&p->a, &p->a.completed, *sent));
	return madt_placement(test, p);
}

/*
 * A port whose runs handle a completion or two (a ping-pong) runs where it is kicked, here on
 * this test's CPU; one whose run handled more (many MADs outstanding: a stream) runs on its own
 * CPU, whoever kicks it, until a run handles two or fewer; a run that handles none (kicked while
 * the last ran) changes nothing; a stream's run elsewhere that leaves completions behind has the
 * rest handled on the port's own CPU.
 */
static void mad_port_placement(struct kunit *test)
{
	static const struct {
		int k, budget;		/* MADs sent; completions a run (0: the default) */
		bool stream, home;	/* after them: a stream? the last run on the port's CPU? */
	} steps[] = {
		{ 1, 0, false, false },	/* a completion or two a run: run here */
		{ 2, 0, false, false },
		{ 3, 0, true, false },	/* three: a stream */
		{ 1, 0, false, true },	/* the runs that handled none (hold, posts) kept it */
		{ 5, 3, false, true },	/* here 3 (a stream from then on), then 2 at home */
	};
	struct oib_mad_port_placement pl;
	unsigned int home, cpu, i;
	struct madt_pair *p;
	int sent = 0;

	if (num_online_cpus() < 2)
		kunit_skip(test, "one CPU online: nowhere else to run");
	p = madt_pair(test, 16, false);
	home = madt_placement(test, p).home_cpu;
	cpu = cpumask_next(home, cpu_online_mask);
	if (cpu >= nr_cpu_ids)
		cpu = cpumask_first(cpu_online_mask);
	KUNIT_ASSERT_EQ(test, 0, set_cpus_allowed_ptr(current, cpumask_of(cpu)));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_mad_port_set_work_budget(p->da, 1, 100000));

	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		KUNIT_ASSERT_EQ(test, 0, oib_mad_port_set_work_budget(p->da, 1, steps[i].budget));
		pl = madt_burst(test, p, steps[i].k, &sent);
		KUNIT_EXPECT_EQ_MSG(test, pl.stream, steps[i].stream, "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, pl.last_cpu, steps[i].home ? home : cpu, "step %u", i);
	}
	KUNIT_EXPECT_EQ(test, sent, atomic_read(&p->a.status[OIB_MAD_SEND_OK]));
	KUNIT_ASSERT_EQ(test, 0, set_cpus_allowed_ptr(current, cpu_possible_mask));
	madt_expect_clean(test, &p->a);
}

/* ---- errors ---- */

/* One MAD's work request fails (its AH names another port): only that MAD fails. */
static void mad_wr_error_isolated(struct kunit *test)
{
	struct orxe_fabric *f = madt_fabric(test);
	struct oib_device *da = madt_dev(test, 2), *db = madt_dev(test, 1);
	struct madt_agent *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	struct madt_agent *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	struct oib_ah *good, *bad;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	madt_init(test, a, da, 9);
	madt_init(test, b, db, 0);
	a->fabric = f;
	b->fabric = f;
	b->respond = true;
	madt_agent(test, a, 0);
	madt_agent(test, b, MADT_CLASS);
	good = madt_ah(test, a, db, 1);
	bad = madt_ah(test, a, db, 2);
	for (i = 0; i < 9; i++)
		madt_send(test, a, i % 3 == 1 ? bad : good, MADT_CLASS, i, 5000, 0);
	KUNIT_ASSERT_TRUE(test, madt_wait(a, &a->completed, 9));
	KUNIT_EXPECT_EQ(test, 3, atomic_read(&a->status[OIB_MAD_SEND_ERROR]));
	KUNIT_EXPECT_EQ(test, 6, atomic_read(&a->status[OIB_MAD_SEND_OK]));
	KUNIT_EXPECT_EQ(test, 6, atomic_read(&a->responses));
	KUNIT_EXPECT_EQ(test, 3ULL, oib_mad_port_stat(da, 1, OIB_MAD_PORT_SEND_ERRORS));
	KUNIT_EXPECT_EQ(test, 0ULL, oib_mad_port_stat(da, 1, OIB_MAD_PORT_RECOVERIES));
	madt_expect_clean(test, a);
}

/* The GSI QP is forced into the error state: the layer resets it and carries on. */
static void mad_qp_recovery(struct kunit *test)
{
	struct madt_pair *p = madt_pair(test, 3, true);
	struct oib_qp_attr attr = { .qp_state = OIB_QPS_ERR };
	struct oib_qp *qp = oib_mad_port_qp(p->da, 1);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	madt_send(test, &p->a, p->ah, MADT_CLASS, 0, 5000, 0);
	KUNIT_ASSERT_TRUE(test, madt_wait(&p->a, &p->a.completed, 1));

	/* A MAD waiting for its (held back) response survives; the QP's receives are flushed. */
	p->b.respond = false;
	madt_send(test, &p->a, p->ah, MADT_CLASS, 1, 3000, 1);
	KUNIT_ASSERT_TRUE(test, madt_wait(&p->b, &p->b.requests, 2));
	madt_fence(test, &p->a, p->ah, NULL);	/* it waits for its response, off the QP */
	KUNIT_ASSERT_EQ(test, 0, oib_modify_qp(qp, &attr, OIB_QP_STATE));
	KUNIT_ASSERT_TRUE(test, madt_wait_stat(p->da, OIB_MAD_PORT_RECOVERIES, 1));
	WRITE_ONCE(p->b.respond, true);
	KUNIT_ASSERT_TRUE(test, madt_wait(&p->a, &p->a.completed, 2));	/* answered on retry */
	madt_send(test, &p->a, p->ah, MADT_CLASS, 2, 5000, 0);
	KUNIT_ASSERT_TRUE(test, madt_wait(&p->a, &p->a.completed, 3));
	KUNIT_EXPECT_EQ(test, 3, atomic_read(&p->a.status[OIB_MAD_SEND_OK]));
	KUNIT_EXPECT_EQ(test, 1ULL, oib_mad_port_stat(p->da, 1, OIB_MAD_PORT_RECOVERIES));
	madt_expect_clean(test, &p->a);
}

/* ---- what the layer receives ---- */

static void mad_unsupported_answered(struct kunit *test)
{
	struct madt_pair *p = madt_pair(test, 3, true);
	struct oib_mad_send_buf *sb;

	/* No agent for the class: "bad version" (class/version not supported). */
	madt_send(test, &p->a, p->ah, MADT_CLASS_NONE, 0, 5000, 0);
	KUNIT_ASSERT_TRUE(test, madt_wait(&p->a, &p->a.completed, 1));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&p->a.responses));
	KUNIT_EXPECT_EQ(test, OIB_MAD_STATUS_BAD_VERSION, p->a.last_resp_status);
	KUNIT_EXPECT_EQ(test, OIB_MGMT_METHOD_GET_RESP, p->a.last_resp_method);

	/* The class is taken, the method is not: "method not supported". */
	sb = madt_buf(&p->a, p->ah, MADT_CLASS, 0x12 /* GetTable */, 1, 5000, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sb);
	KUNIT_ASSERT_EQ(test, 0, oib_post_send_mad(sb));
	KUNIT_ASSERT_TRUE(test, madt_wait(&p->a, &p->a.completed, 2));
	KUNIT_EXPECT_EQ(test, OIB_MAD_STATUS_UNSUPPORTED_METHOD, p->a.last_resp_status);
	KUNIT_EXPECT_EQ(test, 0x92, p->a.last_resp_method);

	/* A Send (one-way) nobody takes is dropped, not answered. */
	sb = madt_buf(&p->a, p->ah, MADT_CLASS_NONE, OIB_MGMT_METHOD_SEND, 2, 0, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sb);
	KUNIT_ASSERT_EQ(test, 0, oib_post_send_mad(sb));
	KUNIT_ASSERT_TRUE(test, madt_wait_stat(p->db, OIB_MAD_PORT_DROP_NO_AGENT, 1));
	KUNIT_EXPECT_EQ(test, 2ULL, oib_mad_port_stat(p->db, 1, OIB_MAD_PORT_ANSWERED));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&p->b.requests));
	KUNIT_ASSERT_TRUE(test, madt_wait(&p->a, &p->a.completed, 3));
	madt_expect_clean(test, &p->a);
}

static void mad_unsolicited_and_duplicate(struct kunit *test)
{
	struct madt_pair *p = madt_pair(test, 2, true);
	struct oib_mad_send_buf *sb;

	/* A response nobody asked for. */
	sb = madt_buf(&p->a, p->ah, MADT_CLASS, OIB_MGMT_METHOD_GET_RESP, 0, 0, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sb);
	((struct oib_mad_hdr *)sb->mad)->tid = cpu_to_be64(0x1234567800000001ULL);
	KUNIT_ASSERT_EQ(test, 0, oib_post_send_mad(sb));
	KUNIT_ASSERT_TRUE(test, madt_wait_stat(p->db, OIB_MAD_PORT_DROP_UNMATCHED, 1));

	/* A response that arrives twice: delivered once, the copy counted. */
	atomic_set(&p->b.dup_responses, 1);
	madt_send(test, &p->a, p->ah, MADT_CLASS, 1, 5000, 0);
	KUNIT_ASSERT_TRUE(test, madt_wait(&p->a, &p->a.completed, 2));
	/*
	 * The copy counted as unmatched has been dealt with; the first was delivered before its
	 * send handler, which completed the wait above.
	 */
	KUNIT_ASSERT_TRUE(test, madt_wait_stat(p->da, OIB_MAD_PORT_DROP_UNMATCHED, 1));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&p->a.responses));
	KUNIT_EXPECT_EQ(test, 2, atomic_read(&p->a.status[OIB_MAD_SEND_OK]));
	KUNIT_EXPECT_EQ(test, 1ULL, oib_mad_port_stat(p->da, 1, OIB_MAD_PORT_RESPONSES));
	madt_expect_clean(test, &p->a);
}

/* ---- refusals: every entry point says -EINVAL to what it cannot take ---- */

/* Expect registering @req (with handlers) to give @err; unregister what it accepts. */
static void madt_expect_reg(struct kunit *test, struct oib_device *dev,
			    const struct oib_mad_reg_req *req, int err)
{
	struct oib_mad_agent *ag = madt_reg(dev, 1, OIB_QPT_GSI, req, true, NULL);

	KUNIT_EXPECT_EQ_MSG(test, IS_ERR(ag) ? PTR_ERR(ag) : 0, err, "class %#x",
			    req ? req->mgmt_class : 0);
	if (!IS_ERR(ag))
		oib_unregister_mad_agent(ag);
}

/* Reserved and QP0 classes, class version 0, and 0x60 and 0x90 in particular. */
static void mad_register_refuses_classes(struct kunit *test)
{
	static const u8 refused[] = { 0x50, 0x60, 0x7f, 0x80, OIB_MGMT_CLASS_SUBN_DIRECTED, 0x82,
				      0x90, 0xff, OIB_MGMT_CLASS_SUBN_LID_ROUTED };
	static const u8 taken[] = { OIB_MGMT_CLASS_SUBN_ADM, OIB_MGMT_CLASS_CM, 0x09, 0x10, 0x2f,
				    0x4f };
	struct oib_mad_reg_req req = { .class_version = 1, .oui = { 0, 0x14, 0x05 } };
	struct oib_device *dev;
	unsigned int i;

	madt_fabric(test);
	dev = madt_dev(test, 1);
	__set_bit(OIB_MGMT_METHOD_GET, req.method_mask);
	for (i = 0; i < ARRAY_SIZE(refused); i++) {
		req.mgmt_class = refused[i];
		madt_expect_reg(test, dev, &req, -EINVAL);
	}
	for (i = 0; i < ARRAY_SIZE(taken); i++) {
		req.mgmt_class = taken[i];
		madt_expect_reg(test, dev, &req, 0);
	}
	req.mgmt_class = MADT_CLASS;
	req.class_version = 0;
	madt_expect_reg(test, dev, &req, -EINVAL);
}

/* Methods that are no requests, a vendor range 2 class without an OUI, send-only with methods. */
static void mad_register_refuses_methods_and_oui(struct kunit *test)
{
	struct oib_mad_reg_req req = { .mgmt_class = MADT_CLASS, .class_version = 1 };
	struct oib_device *dev;

	madt_fabric(test);
	dev = madt_dev(test, 1);
	__set_bit(0, req.method_mask);
	madt_expect_reg(test, dev, &req, -EINVAL);
	bitmap_zero(req.method_mask, OIB_MGMT_MAX_METHODS);
	__set_bit(OIB_MGMT_METHOD_TRAP_REPRESS, req.method_mask);
	madt_expect_reg(test, dev, &req, -EINVAL);
	bitmap_zero(req.method_mask, OIB_MGMT_MAX_METHODS);
	__set_bit(OIB_MGMT_METHOD_GET, req.method_mask);
	req.mgmt_class = 0x30;				/* vendor range 2, OUI 0 */
	madt_expect_reg(test, dev, &req, -EINVAL);
	req.mgmt_class = 0;				/* send-only, with a method */
	madt_expect_reg(test, dev, &req, -EINVAL);
}

/* RMPP: a version other than 1, a class without an RMPP header, a budget without RMPP. */
static void mad_register_refuses_rmpp(struct kunit *test)
{
	struct oib_mad_reg_req req = { .mgmt_class = OIB_MGMT_CLASS_SUBN_ADM, .class_version = 2,
				       .rmpp_version = 2 };
	struct oib_device *dev;

	madt_fabric(test);
	dev = madt_dev(test, 1);
	__set_bit(OIB_MGMT_METHOD_GET, req.method_mask);
	madt_expect_reg(test, dev, &req, -EINVAL);
	req.rmpp_version = OIB_RMPP_VERSION;
	madt_expect_reg(test, dev, &req, 0);
	req.mgmt_class = MADT_CLASS;			/* no RMPP header */
	madt_expect_reg(test, dev, &req, -EINVAL);
	req.rmpp_version = 0;
	req.rmpp_max_bytes = 4096;			/* a budget for nothing */
	madt_expect_reg(test, dev, &req, -EINVAL);
}

/* A post with a foreign AH, QP0, a P_Key index past the table, a reserved class, bad timeouts. */
static void mad_post_refuses_bad_fields(struct kunit *test)
{
	struct madt_pair *p = madt_pair(test, 4, true);
	const struct oib_port_immutable *imm = oib_port_immutable(p->da, 1);
	struct oib_mad_send_buf *sb;
	struct oib_mad_hdr *hdr;
	struct oib_ah *foreign;
	struct oib_pd *pd;

	KUNIT_ASSERT_NOT_NULL(test, imm);
	sb = madt_buf(&p->a, p->ah, MADT_CLASS, OIB_MGMT_METHOD_GET, 0, 100, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sb);
	hdr = sb->mad;

	pd = oib_alloc_pd(p->da);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pd);
	foreign = oib_create_ah(pd, &p->ah->attr);	/* not the MAD QP's PD */
	KUNIT_EXPECT_FALSE(test, IS_ERR(foreign));
	if (!IS_ERR(foreign)) {
		sb->ah = foreign;
		KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send_mad(sb));
		sb->ah = p->ah;
		oib_destroy_ah(foreign);
	}
	oib_dealloc_pd(pd);

	sb->remote_qpn = 0;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send_mad(sb));
	sb->remote_qpn = 1;
	sb->pkey_index = imm->pkey_tbl_len;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send_mad(sb));
	sb->pkey_index = 0;
	hdr->mgmt_class = 0x60;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send_mad(sb));
	hdr->mgmt_class = MADT_CLASS;
	sb->timeout_ms = OIB_MAD_TIMEOUT_MAX_MS + 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send_mad(sb));
	sb->timeout_ms = 0;
	sb->retries = 2;				/* retries with nothing to time */
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send_mad(sb));
	sb->retries = 0;
	sb->timeout_ms = 20000;

	KUNIT_ASSERT_EQ(test, 0, oib_post_send_mad(sb));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_modify_mad(sb, OIB_MAD_TIMEOUT_MAX_MS + 1));
	KUNIT_ASSERT_TRUE(test, madt_wait(&p->a, &p->a.completed, 1));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&p->a.status[OIB_MAD_SEND_OK]));
	madt_expect_clean(test, &p->a);
}

/* A send buffer whose MAD pointer or sizes were changed is refused, RMPP or not. */
static void mad_post_refuses_changed_buffers(struct kunit *test)
{
	struct oib_mad_reg_req req = { .rmpp_version = OIB_RMPP_VERSION };
	struct madt_pair *p = madt_pair(test, 4, true);
	struct oib_mad_send_buf *sb;
	struct oib_mad_agent *ag;
	struct oib_mad_hdr *hdr;
	struct oib_ah *ah;
	void *mad;

	sb = madt_buf(&p->a, p->ah, MADT_CLASS, OIB_MGMT_METHOD_GET, 0, 100, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sb);
	mad = sb->mad;
	sb->mad = kunit_kzalloc(test, OIB_MAD_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sb->mad);
	memcpy(sb->mad, mad, OIB_MAD_SIZE);
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send_mad(sb));
	sb->mad = mad;
	sb->data_len = 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send_mad(sb));
	sb->data_len = 0;
	sb->hdr_len = OIB_MAD_HDR_SIZE;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send_mad(sb));
	oib_free_send_mad(sb);

	/* RMPP buffers: only for RMPP agents and classes, up to OIB_MAD_RMPP_MAX_DATA */
	sb = oib_create_rmpp_send_mad(p->a.agent, p->ah, OIB_MGMT_CLASS_SUBN_ADM, 1000, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(sb));
	ag = madt_reg(p->da, 1, OIB_QPT_GSI, &req, true, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ag);
	sb = oib_create_rmpp_send_mad(ag, p->ah, MADT_CLASS, 1000, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(sb));
	sb = oib_create_rmpp_send_mad(ag, p->ah, OIB_MGMT_CLASS_SUBN_ADM, OIB_MAD_RMPP_MAX_DATA + 1,
				      GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(sb));
	sb = oib_create_rmpp_send_mad(NULL, p->ah, OIB_MGMT_CLASS_SUBN_ADM, 1000, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(sb));
	ah = oib_mad_create_ah(ag, &p->ah->attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ah);
	sb = oib_create_rmpp_send_mad(ag, ah, OIB_MGMT_CLASS_SUBN_ADM, 1000, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sb);
	hdr = sb->mad;
	hdr->base_version = OIB_MAD_BASE_VERSION;
	hdr->mgmt_class = OIB_MGMT_CLASS_SUBN_ADM;
	hdr->class_version = 2;
	hdr->method = OIB_MGMT_METHOD_GET;
	sb->data_len = 5000;				/* past what was allocated */
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send_mad(sb));
	sb->data_len = 1000;
	sb->hdr_len = OIB_MAD_VENDOR_HDR_SIZE;		/* another class's headers */
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send_mad(sb));
	oib_free_send_mad(sb);
	oib_destroy_ah(ah);
	oib_unregister_mad_agent(ag);
}

static struct kunit_case oib_mad_cases[] = {
	KUNIT_CASE(mad_register_rules),
	KUNIT_CASE(mad_post_rules),
	KUNIT_CASE(mad_round_trip),
	KUNIT_CASE(mad_timeout_retries),
	KUNIT_CASE(mad_retries_exhausted),
	KUNIT_CASE(mad_cancel_waiting),
	KUNIT_CASE(mad_cancel_before_send_completion),
	KUNIT_CASE(mad_awaiting_bound),
	KUNIT_CASE(mad_modify_timeout),
	KUNIT_CASE(mad_response_before_send_completion),
	KUNIT_CASE(mad_port_placement),
	KUNIT_CASE(mad_wr_error_isolated),
	KUNIT_CASE_SLOW(mad_qp_recovery),
	KUNIT_CASE(mad_unsupported_answered),
	KUNIT_CASE(mad_unsolicited_and_duplicate),
	KUNIT_CASE(mad_register_refuses_classes),
	KUNIT_CASE(mad_register_refuses_methods_and_oui),
	KUNIT_CASE(mad_register_refuses_rmpp),
	KUNIT_CASE(mad_post_refuses_bad_fields),
	KUNIT_CASE(mad_post_refuses_changed_buffers),
	{}
};

static struct kunit_suite oib_mad_suite = {
	.name = "oib_mad_agent",
	.test_cases = oib_mad_cases,
};

kunit_test_suite(oib_mad_suite);

MODULE_DESCRIPTION("KUnit tests for oib_mad agents over the oib_rxe fabric");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

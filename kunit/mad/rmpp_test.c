// SPDX-License-Identifier: GPL-2.0-only
/*
 * RMPP through the fabric: SA-class GetTable requests answered with multi-segment responses of 1
 * to 200 segments, with 0%, 5% and 20% of the frames dropped (and some duplicated and reordered),
 * each delivered whole and intact exactly once; RMPP requests; a sender that cancels mid-transfer
 * (ABORT), a receiver over its budget (STOP), inconsistent segments from an agent that speaks
 * RMPP itself (ABORT), and agents unregistering while their messages are half sent or received.
 */
#include <linux/delay.h>
#include <linux/slab.h>
#include "oib_toolkit_mad.h"

#define RT_CLASS		OIB_MGMT_CLASS_SUBN_ADM
#define RT_GET_TABLE		0x12
#define RT_GET_TABLE_RESP	0x92
#define RT_HDR			OIB_MAD_SA_HDR_SIZE
#define RT_PER_SEG		(OIB_MAD_SIZE - RT_HDR)	/* 200 data bytes per segment */
#define RT_REQ_TIMEOUT_MS	1500
#define RT_NO_RESEND_MS		60000	/* an RMPP ACK wait no case outlasts */

/* One side: an RMPP agent that answers GetTable with resp_len bytes, or asks and checks. */
struct rt_side {
	struct kunit *test;
	struct oib_device *dev;
	struct oib_mad_agent *agent;
	wait_queue_head_t wq;
	size_t resp_len;		/* answer with this much data; ~0: do not answer */
	size_t expect_len;		/* the data a request or response must carry */
	bool any_len;			/* fuzz: take whatever arrives */
	struct oib_mad_send_buf *answer;	/* the last answer posted */
	atomic_t requests, responses, completed, bad;
	atomic_t status[OIB_MAD_SEND_ABORTED + 1];
	u8 rmpp_status;
	bool unregistered;
};

/* Byte @i of the data of the message with TID @tid. */
static u8 rt_byte(__be64 tid, size_t i)
{
	return (u8)(i * 7 + (i >> 8) + be64_to_cpu(tid));
}

static void rt_fill(void *mad, size_t len)
{
	const struct oib_mad_hdr *hdr = mad;
	u8 *data = (u8 *)mad + RT_HDR;
	size_t i;

	for (i = 0; i < len; i++)
		data[i] = rt_byte(hdr->tid, i);
}

static bool rt_check(const struct oib_mad_recv *recv, size_t len)
{
	const u8 *data = (const u8 *)recv->mad + RT_HDR;
	size_t i;

	if (recv->len != RT_HDR + len)
		return false;
	for (i = 0; i < len; i++)
		if (data[i] != rt_byte(recv->mad->tid, i))
			return false;
	return true;
}

static void rt_send_handler(struct oib_mad_agent *agent, struct oib_mad_send_wc *wc)
{
	struct rt_side *s = agent->context;
	struct oib_ah *ah = wc->send_buf->context[1];

	if (READ_ONCE(s->unregistered) || wc->status > OIB_MAD_SEND_ABORTED)
		atomic_inc(&s->bad);
	else
		atomic_inc(&s->status[wc->status]);
	s->rmpp_status = wc->rmpp_status;
	if (wc->send_buf == READ_ONCE(s->answer))
		WRITE_ONCE(s->answer, NULL);
	oib_free_send_mad(wc->send_buf);
	if (ah)
		oib_destroy_ah(ah);
	atomic_inc(&s->completed);
	wake_up(&s->wq);
}

static void rt_answer(struct rt_side *s, const struct oib_mad_recv *recv)
{
	struct oib_mad_send_buf *sb;
	struct oib_mad_hdr *hdr;
	struct oib_ah *ah;

	ah = oib_mad_create_resp_ah(s->agent, recv);
	if (IS_ERR(ah))
		goto bad;
	sb = oib_create_rmpp_send_mad(s->agent, ah, RT_CLASS, s->resp_len, GFP_KERNEL);
	if (IS_ERR(sb)) {
		oib_destroy_ah(ah);
		goto bad;
	}
	memcpy(sb->mad, recv->mad, OIB_MAD_HDR_SIZE);
	hdr = sb->mad;
	hdr->method = RT_GET_TABLE_RESP;
	rt_fill(sb->mad, s->resp_len);
	sb->remote_qpn = recv->src_qp;
	sb->context[1] = ah;
	WRITE_ONCE(s->answer, sb);
	if (!oib_post_send_mad(sb))
		return;
	WRITE_ONCE(s->answer, NULL);
	oib_free_send_mad(sb);
	oib_destroy_ah(ah);
bad:
	atomic_inc(&s->bad);
}

static void rt_recv_handler(struct oib_mad_agent *agent, struct oib_mad_send_buf *send_buf,
			    const struct oib_mad_recv *recv)
{
	struct rt_side *s = agent->context;

	if (READ_ONCE(s->unregistered) || (!s->any_len && !rt_check(recv, s->expect_len)))
		atomic_inc(&s->bad);
	if (send_buf) {
		if (recv->mad->tid != ((struct oib_mad_hdr *)send_buf->mad)->tid)
			atomic_inc(&s->bad);
		atomic_inc(&s->responses);
	} else {
		atomic_inc(&s->requests);
		if (s->resp_len != ~(size_t)0)
			rt_answer(s, recv);
	}
	wake_up(&s->wq);
}

static int rt_register(struct rt_side *s, u32 max_bytes)
{
	struct oib_mad_reg_req req = { .mgmt_class = RT_CLASS, .class_version = 2,
				       .rmpp_version = OIB_RMPP_VERSION,
				       .rmpp_max_bytes = max_bytes };
	struct oib_mad_agent *agent;

	__set_bit(RT_GET_TABLE, req.method_mask);
	agent = oib_register_mad_agent(s->dev, 1, OIB_QPT_GSI, &req, rt_send_handler,
				       rt_recv_handler, s);
	if (IS_ERR(agent))
		return PTR_ERR(agent);
	s->agent = agent;
	WRITE_ONCE(s->unregistered, false);
	return 0;
}

static void rt_unregister(struct rt_side *s)
{
	if (!s->agent)
		return;
	oib_unregister_mad_agent(s->agent);
	WRITE_ONCE(s->unregistered, true);
	s->agent = NULL;
}

static void rt_side_release(void *s)
{
	rt_unregister(s);
}

static void rt_side(struct kunit *test, struct rt_side *s, struct oib_device *dev,
		    u32 max_bytes)
{
	memset(s, 0, sizeof(*s));
	s->test = test;
	s->dev = dev;
	s->resp_len = ~(size_t)0;
	init_waitqueue_head(&s->wq);
	KUNIT_ASSERT_EQ(test, 0, rt_register(s, max_bytes));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, rt_side_release, s));
}

/* Requester a and responder b, an RMPP agent each, on two devices of a private fabric. */
struct rt_pair {
	struct orxe_fabric *fabric;
	struct oib_device *da, *db;
	struct rt_side a, b;
	struct oib_ah *ah;	/* a -> b */
};

static struct rt_pair *rt_pair_ports(struct kunit *test, u32 a_max, u32 a_ports)
{
	struct rt_pair *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	p->fabric = madt_fabric(test);
	p->da = madt_dev(test, a_ports);
	p->db = madt_dev(test, 1);
	rt_side(test, &p->a, p->da, a_max);
	rt_side(test, &p->b, p->db, 0);
	p->ah = madt_agent_ah(test, p->a.agent, p->db, 1);
	return p;
}

static struct rt_pair *rt_pair(struct kunit *test, u32 a_max)
{
	return rt_pair_ports(test, a_max, 1);
}

/* A GetTable from a, @data_len bytes long (RMPP if more than 0), waiting for the answer. */
static int rt_request(struct rt_pair *p, u64 tid, size_t data_len, unsigned int retries)
{
	struct oib_mad_send_buf *sb;
	struct oib_mad_hdr *hdr;
	int ret;

	sb = oib_create_rmpp_send_mad(p->a.agent, p->ah, RT_CLASS, data_len, GFP_KERNEL);
	if (IS_ERR(sb))
		return PTR_ERR(sb);
	hdr = sb->mad;
	hdr->base_version = OIB_MAD_BASE_VERSION;
	hdr->mgmt_class = RT_CLASS;
	hdr->class_version = 2;
	hdr->method = RT_GET_TABLE;
	hdr->tid = cpu_to_be64(tid);
	rt_fill(sb->mad, data_len);
	sb->timeout_ms = RT_REQ_TIMEOUT_MS;
	sb->retries = retries;
	ret = oib_post_send_mad(sb);
	if (ret)
		oib_free_send_mad(sb);
	return ret;
}

static bool rt_wait(struct rt_side *s, atomic_t *v, int n)
{
	return oib_test_wait_count(&s->wq, v, n);
}

/*
 * A fence from @from's port to @to's (see madt_fence()), through a send-only agent of its own:
 * afterwards @to has received all @from's port sent before, given no faults (setting them off
 * sends the frames held for reordering at once), and @from's port has called the handlers of
 * every MAD it finished before.
 */
static void rt_fence(struct kunit *test, struct oib_device *from, struct oib_device *to)
{
	struct madt_agent *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, m);
	madt_init(test, m, from, 0);
	madt_agent(test, m, 0);
	madt_fence(test, m, madt_ah(test, m, to, 1), to);
}

/* A GetTable of @req_len bytes answered with @resp_len, both checked whole: it ends well. */
static void rt_round_trip(struct kunit *test, struct rt_pair *p, u64 tid, size_t req_len,
			  size_t resp_len)
{
	int done = atomic_read(&p->a.completed), ok = atomic_read(&p->a.status[OIB_MAD_SEND_OK]);

	p->b.any_len = false;
	p->b.expect_len = req_len;
	p->b.resp_len = resp_len;
	p->a.expect_len = resp_len;
	KUNIT_ASSERT_EQ(test, 0, rt_request(p, tid, req_len, 3));
	KUNIT_ASSERT_TRUE(test, rt_wait(&p->a, &p->a.completed, done + 1));
	KUNIT_EXPECT_EQ(test, ok + 1, atomic_read(&p->a.status[OIB_MAD_SEND_OK]));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&p->a.bad));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&p->b.bad));
}

static u64 rt_stat(struct oib_device *dev, enum oib_mad_port_stat stat)
{
	return oib_mad_port_stat(dev, 1, stat);
}

struct rt_param {
	u32 segs;
	u32 drop_ppm;
};

static const struct rt_param rt_params[] = {
	{ 1, 0 }, { 2, 0 }, { 32, 0 }, { 33, 0 }, { 200, 0 },
	{ 1, 50000 }, { 33, 50000 }, { 200, 50000 },
	{ 1, 200000 }, { 33, 200000 }, { 200, 200000 },
};

static void rt_param_desc(const struct rt_param *p, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%u segments, %u%% loss", p->segs,
		 p->drop_ppm / 10000);
}

KUNIT_ARRAY_PARAM(rt, rt_params, rt_param_desc);

/*
 * Responses of 1 to 200 segments (the last one partly filled), three in a row, under loss with
 * duplication and reordering: each arrives whole, intact, once, with its request; the sender's
 * transfer ends well.  Without loss, the counters say exactly what went over the wire.
 */
static void mad_rmpp_transfer(struct kunit *test)
{
	const struct rt_param *prm = test->param_value;
	struct orxe_fault_cfg cfg = { .drop_ppm = prm->drop_ppm, .dup_ppm = prm->drop_ppm / 4,
				     .reorder_ppm = prm->drop_ppm / 2 };
	struct rt_pair *p = rt_pair(test, 0);
	size_t len = prm->segs * RT_PER_SEG - (prm->segs > 1 ? 77 : 0);
	int i, n = 3;

	p->b.resp_len = len;
	p->a.expect_len = len;
	/* without loss, the counts below are exact: no ACK wait may expire on a slow machine */
	if (!prm->drop_ppm)
		KUNIT_ASSERT_EQ(test, 0,
				oib_mad_port_set_rmpp_ack_timeout(p->db, 1, RT_NO_RESEND_MS));
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_set_faults(p->fabric, NULL, &cfg));
	for (i = 0; i < n; i++) {
		KUNIT_ASSERT_EQ(test, 0, rt_request(p, 0x100 + i, 0, 20));
		KUNIT_ASSERT_TRUE(test, rt_wait(&p->a, &p->a.completed, i + 1));
		KUNIT_EXPECT_EQ(test, i + 1, atomic_read(&p->a.status[OIB_MAD_SEND_OK]));
		KUNIT_EXPECT_EQ(test, i + 1, atomic_read(&p->a.responses));
	}
	KUNIT_EXPECT_EQ(test, 0, oib_rxe_fabric_set_faults(p->fabric, NULL, NULL));
	/* b's answers: each completes once the receiver acknowledged all of it */
	KUNIT_EXPECT_TRUE(test, rt_wait(&p->b, &p->b.completed, n));
	/*
	 * Retries may have made b answer again; the extra answers end well or are aborted.  Every
	 * request a resent has reached b once the fence has, and each answer ends by itself.
	 */
	rt_fence(test, p->da, p->db);
	KUNIT_EXPECT_TRUE(test, rt_wait(&p->b, &p->b.completed, atomic_read(&p->b.requests)));
	KUNIT_EXPECT_EQ(test, atomic_read(&p->b.requests), atomic_read(&p->b.completed));
	KUNIT_EXPECT_GE(test, atomic_read(&p->b.status[OIB_MAD_SEND_OK]), n);
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&p->a.bad));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&p->b.bad));
	/* an answer sent again looks like a copy of the first to the receiver: at most one each */
	KUNIT_EXPECT_GE(test, rt_stat(p->da, OIB_MAD_PORT_RMPP_REASSEMBLED), (u64)n);
	KUNIT_EXPECT_LE(test, rt_stat(p->da, OIB_MAD_PORT_RMPP_REASSEMBLED),
			(u64)atomic_read(&p->b.requests));
	kunit_info(test, "answers %d: ok %d timeout %d aborted %d (rmpp status %u)\n",
		   atomic_read(&p->b.requests), atomic_read(&p->b.status[OIB_MAD_SEND_OK]),
		   atomic_read(&p->b.status[OIB_MAD_SEND_RESP_TIMEOUT]),
		   atomic_read(&p->b.status[OIB_MAD_SEND_ABORTED]), p->b.rmpp_status);
	kunit_info(test, "segments sent %llu taken %llu dup %llu ooo %llu acks %llu/%llu timeouts %llu\n",
		   rt_stat(p->db, OIB_MAD_PORT_RMPP_SEGS_SENT),
		   rt_stat(p->da, OIB_MAD_PORT_RMPP_SEGS_RECV),
		   rt_stat(p->da, OIB_MAD_PORT_RMPP_DUPLICATES),
		   rt_stat(p->da, OIB_MAD_PORT_RMPP_OUT_OF_WINDOW),
		   rt_stat(p->da, OIB_MAD_PORT_RMPP_ACKS_SENT),
		   rt_stat(p->db, OIB_MAD_PORT_RMPP_ACKS_RECV),
		   rt_stat(p->db, OIB_MAD_PORT_TIMEOUTS));
	if (prm->drop_ppm)
		return;
	/* one window of 1, then windows of MAD_RMPP_WINDOW: an ACK at each end, and the last */
	KUNIT_EXPECT_EQ(test, (u64)n * prm->segs, rt_stat(p->db, OIB_MAD_PORT_RMPP_SEGS_SENT));
	KUNIT_EXPECT_EQ(test, (u64)n * prm->segs, rt_stat(p->da, OIB_MAD_PORT_RMPP_SEGS_RECV));
	KUNIT_EXPECT_EQ(test, (u64)n * (1 + (prm->segs - 1) / MAD_RMPP_WINDOW +
					((prm->segs - 1) % MAD_RMPP_WINDOW != 0)),
			rt_stat(p->da, OIB_MAD_PORT_RMPP_ACKS_SENT));
	KUNIT_EXPECT_EQ(test, 0, rt_stat(p->da, OIB_MAD_PORT_RMPP_DUPLICATES));
	KUNIT_EXPECT_EQ(test, 0, rt_stat(p->db, OIB_MAD_PORT_TIMEOUTS));
	KUNIT_EXPECT_EQ(test, 0, rt_stat(p->da, OIB_MAD_PORT_RMPP_DISCARDED));
}

/* An RMPP request (5000 bytes) answered by an RMPP response of one segment; both whole. */
static void mad_rmpp_request(struct kunit *test)
{
	struct rt_pair *p = rt_pair(test, 0);

	/* the segment count below is exact: a's ACK wait may not expire on a slow machine */
	KUNIT_ASSERT_EQ(test, 0, oib_mad_port_set_rmpp_ack_timeout(p->da, 1, RT_NO_RESEND_MS));
	rt_round_trip(test, p, 0x200, 5000, 100);
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&p->b.requests));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&p->a.responses));
	KUNIT_EXPECT_EQ(test, 25, rt_stat(p->da, OIB_MAD_PORT_RMPP_SEGS_SENT));
	KUNIT_EXPECT_TRUE(test, rt_wait(&p->b, &p->b.completed, 1));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&p->b.bad));
}

/* The responder cancels its answer mid-transfer: ABORT; the receiver drops what it had. */
static void mad_rmpp_abort_cancel(struct kunit *test)
{
	struct orxe_fault_cfg cfg = { .delay_ppm = 1000000, .delay_us = 500 };
	struct rt_pair *p = rt_pair(test, 0);
	struct oib_mad_send_buf *answer;

	p->b.resp_len = 200 * RT_PER_SEG;
	p->a.expect_len = p->b.resp_len;
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_set_faults(p->fabric, NULL, &cfg));
	KUNIT_ASSERT_EQ(test, 0, rt_request(p, 0x300, 0, 0));
	KUNIT_ASSERT_TRUE(test, madt_wait_stat(p->da, OIB_MAD_PORT_RMPP_SEGS_RECV, 40));
	answer = READ_ONCE(p->b.answer);
	KUNIT_ASSERT_NOT_NULL(test, answer);
	KUNIT_EXPECT_EQ(test, 0, oib_cancel_mad(answer));
	KUNIT_ASSERT_TRUE(test, rt_wait(&p->b, &p->b.completed, 1));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&p->b.status[OIB_MAD_SEND_CANCELLED]));
	KUNIT_EXPECT_TRUE(test, madt_wait_stat(p->da, OIB_MAD_PORT_RMPP_DISCARDED, 1));
	KUNIT_EXPECT_EQ(test, 1, rt_stat(p->db, OIB_MAD_PORT_RMPP_STOPS_SENT));
	KUNIT_EXPECT_EQ(test, 1, rt_stat(p->da, OIB_MAD_PORT_RMPP_STOPS_RECV));
	/* a's request, no longer kept alive by segments, times out */
	KUNIT_ASSERT_TRUE(test, rt_wait(&p->a, &p->a.completed, 1));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&p->a.status[OIB_MAD_SEND_RESP_TIMEOUT]));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&p->a.responses));
	KUNIT_EXPECT_EQ(test, 0, rt_stat(p->da, OIB_MAD_PORT_RMPP_REASSEMBLED));
	KUNIT_EXPECT_EQ(test, 0, oib_rxe_fabric_set_faults(p->fabric, NULL, NULL));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&p->a.bad));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&p->b.bad));
}

/* A receiver with a 4 KiB budget refuses a 40000-byte answer with STOP; then takes a small one. */
static void mad_rmpp_stop_budget(struct kunit *test)
{
	struct rt_pair *p = rt_pair(test, 4096);

	p->b.resp_len = 200 * RT_PER_SEG;
	/* one STOP exactly: b's first segment is never resent before it arrives */
	KUNIT_ASSERT_EQ(test, 0, oib_mad_port_set_rmpp_ack_timeout(p->db, 1, RT_NO_RESEND_MS));
	KUNIT_ASSERT_EQ(test, 0, rt_request(p, 0x400, 0, 0));
	KUNIT_ASSERT_TRUE(test, rt_wait(&p->b, &p->b.completed, 1));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&p->b.status[OIB_MAD_SEND_ABORTED]));
	KUNIT_EXPECT_EQ(test, OIB_RMPP_STATUS_RESX, p->b.rmpp_status);
	KUNIT_EXPECT_EQ(test, 1, rt_stat(p->da, OIB_MAD_PORT_RMPP_STOPS_SENT));
	KUNIT_ASSERT_TRUE(test, rt_wait(&p->a, &p->a.completed, 1));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&p->a.status[OIB_MAD_SEND_RESP_TIMEOUT]));

	rt_round_trip(test, p, 0x401, 0, 3000);
}

/*
 * An RMPP send whose work requests fail (an address handle of the device's other port) completes
 * once, in error, with nothing reaching the receiver; the next transfer is unaffected.  (oib_rxe
 * sends datagrams as they are posted, so a train is never caught half-way on the QP.)
 */
static void mad_rmpp_train_error(struct kunit *test)
{
	struct rt_pair *p = rt_pair_ports(test, 0, 2);
	struct oib_mad_send_buf *sb;
	struct oib_ah *bad;

	bad = madt_agent_ah(test, p->a.agent, p->db, 2);	/* out of a's port 2 */
	sb = oib_create_rmpp_send_mad(p->a.agent, bad, RT_CLASS, 40 * RT_PER_SEG, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sb);
	((struct oib_mad_hdr *)sb->mad)->base_version = OIB_MAD_BASE_VERSION;
	((struct oib_mad_hdr *)sb->mad)->mgmt_class = RT_CLASS;
	((struct oib_mad_hdr *)sb->mad)->class_version = 2;
	((struct oib_mad_hdr *)sb->mad)->method = RT_GET_TABLE;
	sb->timeout_ms = RT_REQ_TIMEOUT_MS;
	KUNIT_ASSERT_EQ(test, 0, oib_post_send_mad(sb));
	KUNIT_ASSERT_TRUE(test, rt_wait(&p->a, &p->a.completed, 1));
	rt_fence(test, p->da, p->db);	/* a second completion would have come before */
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&p->a.completed));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&p->a.status[OIB_MAD_SEND_ERROR]));
	KUNIT_EXPECT_EQ(test, 1ULL, rt_stat(p->da, OIB_MAD_PORT_SEND_ERRORS));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&p->b.requests));
	rt_round_trip(test, p, 0x900, 40 * RT_PER_SEG, 3000);
}

/* ---- segments from an agent that speaks RMPP itself ---- */

struct rt_raw {
	struct madt_agent mt;
	struct oib_ah *ah;	/* to the RMPP agent */
};

/* Post one hand-made segment of a GetTable request with TID @tid. */
static void rt_raw_seg(struct kunit *test, struct rt_raw *raw, u64 tid, u8 version, u8 type,
		       u8 flags, u32 seg, u32 paylen)
{
	struct oib_mad_send_buf *sb;
	struct oib_rmpp_hdr *rh;

	sb = madt_buf(&raw->mt, raw->ah, RT_CLASS, RT_GET_TABLE, 0, 0, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sb);
	sb->context[0] = MADT_UNTRACKED;
	((struct oib_mad_hdr *)sb->mad)->class_version = 2;
	((struct oib_mad_hdr *)sb->mad)->tid = cpu_to_be64(tid);
	rh = sb->mad + OIB_MAD_HDR_SIZE;
	rh->rmpp_version = version;
	rh->rmpp_type = type;
	rh->rmpp_rtime_flags = OIB_RMPP_FLAG_ACTIVE | flags;
	rh->seg_num = cpu_to_be32(seg);
	rh->paylen_newwin = cpu_to_be32(paylen);
	KUNIT_ASSERT_EQ(test, 0, oib_post_send_mad(sb));
}

/*
 * Inconsistent transfers end with ABORT and are dropped; a sender's ABORT drops what was
 * received; bad RMPP versions and types are malformed.  Nothing reaches the agent.
 */
static void mad_rmpp_bad_segments(struct kunit *test)
{
	const u32 F = OIB_RMPP_FLAG_FIRST, L = OIB_RMPP_FLAG_LAST, P = OIB_MAD_RMPP_SEG_PAYLOAD;
	struct rt_raw *raw = kunit_kzalloc(test, sizeof(*raw), GFP_KERNEL);
	struct rt_pair *p = rt_pair(test, 0);
	u64 malformed;

	KUNIT_ASSERT_NOT_NULL(test, raw);
	madt_init(test, &raw->mt, p->da, 0);
	madt_agent(test, &raw->mt, 0);		/* send-only, no RMPP */
	raw->ah = madt_ah(test, &raw->mt, p->db, 1);
	p->b.expect_len = 0;
	malformed = rt_stat(p->db, OIB_MAD_PORT_DROP_MALFORMED);

	/* first flag on segment 2 */
	rt_raw_seg(test, raw, 1, 1, OIB_RMPP_TYPE_DATA, F, 1, 3 * P);
	rt_raw_seg(test, raw, 1, 1, OIB_RMPP_TYPE_DATA, F, 2, 0);
	KUNIT_EXPECT_TRUE(test, madt_wait_stat(p->db, OIB_MAD_PORT_RMPP_DISCARDED, 1));
	/* last segment's length disagrees with the first's */
	rt_raw_seg(test, raw, 2, 1, OIB_RMPP_TYPE_DATA, F, 1, 2 * P);
	rt_raw_seg(test, raw, 2, 1, OIB_RMPP_TYPE_DATA, L, 2, 50);
	KUNIT_EXPECT_TRUE(test, madt_wait_stat(p->db, OIB_MAD_PORT_RMPP_DISCARDED, 2));
	/* segment past the announced count */
	rt_raw_seg(test, raw, 3, 1, OIB_RMPP_TYPE_DATA, F, 1, 1 * P + 1);
	rt_raw_seg(test, raw, 3, 1, OIB_RMPP_TYPE_DATA, 0, 2, 0);
	rt_raw_seg(test, raw, 3, 1, OIB_RMPP_TYPE_DATA, 0, 3, 0);
	KUNIT_EXPECT_TRUE(test, madt_wait_stat(p->db, OIB_MAD_PORT_RMPP_DISCARDED, 3));
	/* the sender gives up */
	rt_raw_seg(test, raw, 4, 1, OIB_RMPP_TYPE_DATA, F, 1, 5 * P);
	rt_raw_seg(test, raw, 4, 1, OIB_RMPP_TYPE_ABORT, 0, 0, 0);
	KUNIT_EXPECT_TRUE(test, madt_wait_stat(p->db, OIB_MAD_PORT_RMPP_DISCARDED, 4));
	KUNIT_EXPECT_EQ(test, 1, rt_stat(p->db, OIB_MAD_PORT_RMPP_STOPS_RECV));
	/* a middle segment of nothing, a bad version, a bad type */
	rt_raw_seg(test, raw, 5, 1, OIB_RMPP_TYPE_DATA, 0, 7, 0);
	rt_raw_seg(test, raw, 6, 2, OIB_RMPP_TYPE_DATA, F, 1, P);
	rt_raw_seg(test, raw, 7, 1, 9, F, 1, P);
	KUNIT_EXPECT_TRUE(test, madt_wait_stat(p->db, OIB_MAD_PORT_DROP_MALFORMED, malformed + 2));
	KUNIT_EXPECT_TRUE(test, madt_wait_stat(p->db, OIB_MAD_PORT_RMPP_OUT_OF_WINDOW, 1));

	KUNIT_EXPECT_EQ(test, 3, rt_stat(p->db, OIB_MAD_PORT_RMPP_STOPS_SENT));
	KUNIT_EXPECT_EQ(test, 0, rt_stat(p->db, OIB_MAD_PORT_RMPP_REASSEMBLED));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&p->b.requests));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&p->b.bad));
	KUNIT_EXPECT_TRUE(test, madt_wait(&raw->mt, &raw->mt.completed, 12));
}

/* Fuzz: one of a few TIDs in use, each carrying one well-formed transfer at a time. */
struct rt_fuzz_tid {
	u64 tid;
	u32 next, segs;
};

/*
 * The next segment of @t's transfer of @segs segments; a new transfer, under a TID never used
 * before, once the last one was sent (so no transfer meets an earlier one's time-wait).
 */
static void rt_fuzz_good(struct rt_fuzz_tid *t, u64 *fresh, u32 r, struct oib_rmpp_hdr *rh,
			 u8 *method)
{
	u32 pad = r % RT_PER_SEG;

	if (!t->next || t->next > t->segs) {
		t->tid = (*fresh)++;
		t->next = 1;
		t->segs = 1 + r % 12;
	}
	*method = RT_GET_TABLE;
	rh->rmpp_version = OIB_RMPP_VERSION;
	rh->rmpp_type = OIB_RMPP_TYPE_DATA;
	rh->rmpp_rtime_flags = OIB_RMPP_FLAG_ACTIVE;
	rh->seg_num = cpu_to_be32(t->next);
	rh->paylen_newwin = 0;
	if (t->next == 1) {
		rh->rmpp_rtime_flags |= OIB_RMPP_FLAG_FIRST;
		rh->paylen_newwin = cpu_to_be32(t->segs * OIB_MAD_RMPP_SEG_PAYLOAD - pad);
	}
	if (t->next == t->segs) {
		rh->rmpp_rtime_flags |= OIB_RMPP_FLAG_LAST;
		rh->paylen_newwin = cpu_to_be32(OIB_MAD_RMPP_SEG_PAYLOAD - pad);
	}
	t->next++;
}

/* The port counters a fuzz run is judged by, in the order rt_fuzz_report() prints them. */
static const enum oib_mad_port_stat rt_fuzz_stats[] = {
	OIB_MAD_PORT_RECEIVED, OIB_MAD_PORT_RMPP, OIB_MAD_PORT_RMPP_SEGS_RECV,
	OIB_MAD_PORT_RMPP_DUPLICATES, OIB_MAD_PORT_RMPP_OUT_OF_WINDOW,
	OIB_MAD_PORT_RMPP_REASSEMBLED, OIB_MAD_PORT_RMPP_STOPS_SENT,
	OIB_MAD_PORT_RMPP_STOPS_RECV, OIB_MAD_PORT_DROP_MALFORMED, OIB_MAD_PORT_DROP_UNMATCHED,
	OIB_MAD_PORT_DISPATCHED, OIB_MAD_PORT_ANSWERED,
};

/*
 * @total MADs from seed @seed to p->b's RMPP agent from a raw agent on p->da, in batches that
 * each wait until they were received.  The receiver's idle and time-wait timers are set far
 * beyond the run, so what it does depends only on the MADs, in order, and never on the pace.
 */
static void rt_fuzz_run(struct kunit *test, struct rt_pair *p, u64 seed, unsigned int total,
			u64 *counts)
{
	static const u8 methods[] = { RT_GET_TABLE, RT_GET_TABLE, RT_GET_TABLE_RESP, 0x14 };
	const unsigned int batch = 24;
	struct rt_raw *raw = kunit_kzalloc(test, sizeof(*raw), GFP_KERNEL);
	struct rt_fuzz_tid tids[8] = {};
	u64 fresh = 0x700;
	struct rnd_state rnd;
	unsigned int sent, i;

	KUNIT_ASSERT_NOT_NULL(test, raw);
	KUNIT_ASSERT_EQ(test, 0, oib_mad_port_set_reasm_timeouts(p->db, 1, 600 * HZ, 600 * HZ));
	madt_init(test, &raw->mt, p->da, 0);
	madt_agent(test, &raw->mt, 0);
	raw->ah = madt_ah(test, &raw->mt, p->db, 1);
	p->b.any_len = true;
	for (i = 0; i < ARRAY_SIZE(tids); i++)
		tids[i].tid = fresh++;
	prandom_seed_state(&rnd, seed);
	for (sent = 0; sent < total; sent += batch) {
		for (i = 0; i < batch; i++) {
			u32 r = prandom_u32_state(&rnd), r2 = prandom_u32_state(&rnd);
			u32 seg = r % 8 ? 1 + r2 % 6 : r2;
			u32 paylen = r2 % 3 ? OIB_MAD_RMPP_SEG_PAYLOAD * (1 + r % 5) - r2 % 40 :
					      prandom_u32_state(&rnd) % 2000;
			u8 type = r % 16 ? 1 + (r >> 4) % 4 : r >> 8;
			u8 version = r % 32 ? OIB_RMPP_VERSION : r >> 16;
			u8 method = methods[(r >> 20) % ARRAY_SIZE(methods)];
			struct rt_fuzz_tid *t = &tids[(r >> 24) % ARRAY_SIZE(tids)];
			struct oib_mad_send_buf *sb;
			struct oib_rmpp_hdr *rh;
			struct oib_mad_hdr *hdr;

			sb = madt_buf(&raw->mt, raw->ah, RT_CLASS, 0, 0, 0, 0);
			KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sb);
			sb->context[0] = MADT_UNTRACKED;
			hdr = sb->mad;
			hdr->class_version = 2;
			prandom_bytes_state(&rnd, (u8 *)sb->mad + RT_HDR, OIB_MAD_SIZE - RT_HDR);
			rh = sb->mad + OIB_MAD_HDR_SIZE;
			rh->rmpp_version = version;
			rh->rmpp_type = type;
			rh->rmpp_rtime_flags = OIB_RMPP_FLAG_ACTIVE | ((r2 >> 28) & 6);
			rh->rmpp_status = r2 % 64 ? 0 : r2 >> 8;
			rh->seg_num = cpu_to_be32(seg);
			rh->paylen_newwin = cpu_to_be32(paylen);
			if (r2 & 1)
				rt_fuzz_good(t, &fresh, r2 >> 1, rh, &method);
			hdr->tid = cpu_to_be64(t->tid);
			hdr->method = method;
			KUNIT_ASSERT_EQ(test, 0, oib_post_send_mad(sb));
		}
		KUNIT_ASSERT_TRUE(test, madt_wait(&raw->mt, &raw->mt.completed, sent + batch));
		/* the receiver keeps up, so its ring never runs dry */
		KUNIT_ASSERT_TRUE(test, madt_wait_stat(p->db, OIB_MAD_PORT_RECEIVED,
						       sent + batch));
	}
	for (i = 0; i < ARRAY_SIZE(rt_fuzz_stats); i++)
		counts[i] = rt_stat(p->db, rt_fuzz_stats[i]);
	counts[i] = atomic_read(&p->b.requests);
}

/*
 * Seeded fuzz: thousands of RMPP MADs to an RMPP agent from a few TIDs, half of them the next
 * segment of a well-formed transfer, the rest with segment numbers, flags, lengths, types,
 * versions and methods mostly near the truth.  Nothing crashes, every MAD that arrived is counted
 * under one verdict, messages are reassembled in between, RMPP still works after, and a second
 * run from the same seed, on new devices, ends with exactly the same counts.
 */
static void mad_rmpp_fuzz(struct kunit *test)
{
	static const enum oib_mad_port_stat verdicts[] = {
		OIB_MAD_PORT_DISPATCHED, OIB_MAD_PORT_RESPONSES, OIB_MAD_PORT_ANSWERED,
		OIB_MAD_PORT_DROP_MALFORMED, OIB_MAD_PORT_DROP_UNMATCHED,
		OIB_MAD_PORT_DROP_NO_AGENT, OIB_MAD_PORT_RMPP,
	};
	const unsigned int total = 3000;
	u64 counts[2][ARRAY_SIZE(rt_fuzz_stats) + 1];
	struct rt_pair *p = rt_pair(test, 64 << 10);
	struct rt_pair *again = rt_pair(test, 64 << 10);
	u64 sum;
	int i;

	rt_fuzz_run(test, p, 0x726d7070, total, counts[0]);
	for (sum = 0, i = 0; i < ARRAY_SIZE(verdicts); i++)
		sum += rt_stat(p->db, verdicts[i]);
	KUNIT_EXPECT_EQ(test, (u64)total, counts[0][0]);
	KUNIT_EXPECT_EQ(test, counts[0][0], sum);
	KUNIT_EXPECT_GT(test, counts[0][2], 200ULL);
	KUNIT_EXPECT_GT(test, counts[0][5], 10ULL);
	KUNIT_EXPECT_EQ(test, counts[0][5], counts[0][ARRAY_SIZE(rt_fuzz_stats)]);
	KUNIT_EXPECT_GT(test, counts[0][6], 10ULL);
	kunit_info(test, "fuzz: %llu arrived: rmpp %llu (taken %llu, dup %llu, ooo %llu, whole %llu, stop/abort out %llu in %llu), malformed %llu, unmatched %llu, dispatched %llu, answered %llu\n",
		   counts[0][0], counts[0][1], counts[0][2], counts[0][3], counts[0][4],
		   counts[0][5], counts[0][6], counts[0][7], counts[0][8], counts[0][9],
		   counts[0][10], counts[0][11]);
	rt_round_trip(test, p, 0x800, 3000, 5000);	/* RMPP still works, both ways */

	rt_fuzz_run(test, again, 0x726d7070, total, counts[1]);
	for (i = 0; i < ARRAY_SIZE(counts[0]); i++)
		KUNIT_EXPECT_EQ_MSG(test, counts[0][i], counts[1][i], "count %d differs", i);
	oib_test_fuzz_inputs(test, "mad_rmpp", total);	/* the second run repeats the first */
}

/*
 * Many rounds with the fabric delaying frames: the requester unregisters while its answer is
 * being reassembled, or the responder while its answer is half sent.  Unregister returns, no
 * handler runs after it, the other side's transfer ends (ABORT or timeout), nothing leaks.
 */
static void mad_rmpp_unregister_races(struct kunit *test)
{
	struct orxe_fault_cfg cfg = { .delay_ppm = 300000, .delay_us = 1000, .reorder_ppm = 50000 };
	struct rt_pair *p = rt_pair(test, 0);
	int round, rounds = 16;

	p->b.resp_len = 100 * RT_PER_SEG;
	p->a.expect_len = p->b.resp_len;
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_set_faults(p->fabric, NULL, &cfg));
	for (round = 0; round < rounds; round++) {
		struct rt_side *quit = round % 2 ? &p->b : &p->a;
		u64 seen = rt_stat(p->da, OIB_MAD_PORT_RMPP_SEGS_RECV);

		KUNIT_ASSERT_EQ(test, 0, rt_request(p, 0x500 + round, 0, 0));
		KUNIT_ASSERT_TRUE(test, madt_wait_stat(p->da, OIB_MAD_PORT_RMPP_SEGS_RECV,
						       seen + 5 + round * 3));
		rt_unregister(quit);
		KUNIT_EXPECT_EQ(test, 0, atomic_read(&quit->bad));
		KUNIT_ASSERT_EQ(test, 0, rt_register(quit, 0));
		/* both sides' MADs of this round end before the next */
		KUNIT_ASSERT_TRUE(test, rt_wait(&p->a, &p->a.completed, round + 1));
		KUNIT_ASSERT_TRUE(test, rt_wait(&p->b, &p->b.completed,
						atomic_read(&p->b.requests)));
	}
	KUNIT_EXPECT_EQ(test, 0, oib_rxe_fabric_set_faults(p->fabric, NULL, NULL));
	/*
	 * Late frames would show up as bad.  The fences pass each port's frames from the other
	 * after those held for reordering; a frame still delayed (1 ms, by the fabric's timer) may
	 * come after them, which no event tells of.
	 */
	rt_fence(test, p->da, p->db);
	rt_fence(test, p->db, p->da);
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&p->a.bad));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&p->b.bad));
}

static struct kunit_case oib_mad_rmpp_cases[] = {
	KUNIT_CASE_PARAM_ATTR(mad_rmpp_transfer, rt_gen_params, { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE(mad_rmpp_request),
	KUNIT_CASE(mad_rmpp_abort_cancel),
	KUNIT_CASE(mad_rmpp_stop_budget),
	KUNIT_CASE(mad_rmpp_train_error),
	KUNIT_CASE(mad_rmpp_bad_segments),
	KUNIT_CASE_SLOW(mad_rmpp_fuzz),
	KUNIT_CASE_SLOW(mad_rmpp_unregister_races),
	{}
};

static struct kunit_suite oib_mad_rmpp_suite = {
	.name = "oib_mad_rmpp",
	.test_cases = oib_mad_rmpp_cases,
};

kunit_test_suite(oib_mad_rmpp_suite);

MODULE_DESCRIPTION("KUnit tests for RMPP in oib_mad over the oib_rxe fabric");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The MAD layer under stress: unregister racing MADs in every state with the fabric delaying and
 * reordering frames, unregister during a delivery, a seeded fuzz of malformed MADs, a backlog of
 * thousands of MADs from many agents, and device removal with MADs in flight.
 */
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include "oib_toolkit_mad.h"

/* ---- unregister races ---- */

struct madt_release {
	struct delayed_work dw;
	struct oib_device *dev;
};

static void madt_release_hold(struct work_struct *w)
{
	struct madt_release *r = container_of(to_delayed_work(w), struct madt_release, dw);

	oib_mad_port_hold_send_completions(r->dev, 1, false);
}

/*
 * Many rounds: MADs in every state (posted with their send completion held back, waiting,
 * resending, being answered) with the fabric delaying frames, then unregister at a random moment.
 * Each MAD completes exactly once, before unregister returns; no handler runs after.
 */
static void mad_unregister_races(struct kunit *test)
{
	struct orxe_fault_cfg cfg = { .delay_ppm = 300000, .delay_us = 2000,
				      .reorder_ppm = 100000 };
	struct madt_pair *p = madt_pair(test, 24, true);
	struct rnd_state rnd;
	struct madt_release *rel = kunit_kzalloc(test, sizeof(*rel), GFP_KERNEL);
	struct madt_agent *fence = kunit_kzalloc(test, sizeof(*fence), GFP_KERNEL);
	int round, i, rounds = 40;

	KUNIT_ASSERT_NOT_NULL(test, rel);
	KUNIT_ASSERT_NOT_NULL(test, fence);
	madt_init(test, fence, p->da, 0);
	madt_agent(test, fence, 0);
	rel->dev = p->da;
	prandom_seed_state(&rnd, 0x756e7265);
	INIT_DELAYED_WORK(&rel->dw, madt_release_hold);
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_set_faults(p->fabric, NULL, &cfg));
	for (round = 0; round < rounds; round++) {
		bool hold = round % 3 == 0;

		if (round) {
			madt_init(test, &p->a, p->da, 24);
			p->a.fabric = p->fabric;
			KUNIT_ASSERT_EQ(test, 0, madt_register(&p->a, 0, NULL, 0));
		}
		if (hold)
			oib_mad_port_hold_send_completions(p->da, 1, true);
		for (i = 0; i < 24; i++)
			madt_send(test, &p->a, p->ah, MADT_CLASS, i, 5 + i % 7, i % 3);
		if (hold)	/* released while unregister waits for those WRs */
			schedule_delayed_work(&rel->dw, msecs_to_jiffies(20));
		usleep_range(prandom_u32_state(&rnd) % 8000 + 1, 8000);
		/* The agent's AH stays valid: it is the pair's, on a's port PD. */
		madt_unregister(&p->a);
		flush_delayed_work(&rel->dw);
		KUNIT_EXPECT_EQ(test, 24, atomic_read(&p->a.completed));
		for (i = 0; i < 24; i++)
			KUNIT_EXPECT_EQ_MSG(test, 1, p->a.once[i], "round %d mad %d", round, i);
		/* anything late would show up as bad: the port's handlers run in order */
		madt_fence(test, fence, p->ah, NULL);
		madt_expect_clean(test, &p->a);
	}
	oib_mad_port_hold_send_completions(p->da, 1, false);
	KUNIT_EXPECT_EQ(test, 0, oib_rxe_fabric_set_faults(p->fabric, NULL, NULL));
	/* The pair's AH came from the first agent's port: it is still fine for a new agent. */
	madt_init(test, &p->a, p->da, 24);
	KUNIT_ASSERT_EQ(test, 0, madt_register(&p->a, 0, NULL, 0));
}

/* Unregister while the agent's receive handler is running: it waits for the handler. */
static void mad_unregister_during_delivery(struct kunit *test)
{
	struct madt_pair *p = madt_pair(test, 1, true);

	p->a.recv_linger = true;
	madt_send(test, &p->a, p->ah, MADT_CLASS, 0, 20000, 0);
	KUNIT_ASSERT_NE(test, 0UL, wait_for_completion_timeout(&p->a.in_recv,
							       msecs_to_jiffies(MADT_WAIT_MS)));
	madt_unregister(&p->a);
	KUNIT_EXPECT_TRUE(test, READ_ONCE(p->a.recv_exited));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&p->a.completed));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&p->a.status[OIB_MAD_SEND_OK]));
	madt_expect_clean(test, &p->a);
}

/* Fuzz frames accounted for at @dev: taken by the MAD layer, or dropped by the device. */
static u64 madt_fuzz_seen(struct oib_device *dev)
{
	u64 n = oib_mad_port_stat(dev, 1, OIB_MAD_PORT_RECEIVED);
	int i;

	for (i = OIB_RXE_RX_DROP_PORT_DOWN; i <= OIB_RXE_RX_DROP_ACCESS; i++)
		n += oib_rxe_port_stat(dev, 1, i);
	return n;
}

static void mad_malformed_fuzz(struct kunit *test)
{
	static const u8 classes[] = {
		0, 1, 3, 4, 7, MADT_CLASS, MADT_CLASS_NONE, 0x31, 0x81, 0xff,
	};
	const unsigned int total = 2000, batch = 16;
	struct orxe_fabric *f = madt_fabric(test);
	struct oib_device *da = madt_dev(test, 1), *db = madt_dev(test, 1);
	struct oib_pd *pd = oib_test_pd(test, da);
	struct oib_cq *cq = oib_test_cq(test, da, 64);
	struct oib_qp *qp = oib_test_qp(test, pd, cq, OIB_QPT_UD, 32);
	struct oib_ah_attr attr = { .port_num = 1, .flags = OIB_AH_GRH,
				    .grh = { .hop_limit = 64 } };
	struct oib_qp_attr qattr = { .qp_state = OIB_QPS_INIT, .port_num = 1,
				     .qkey = OIB_GSI_QKEY };
	struct oib_sge sge = { .lkey = pd->local_dma_lkey };
	struct oib_send_wr wr = { .opcode = OIB_WR_SEND, .send_flags = OIB_SEND_SIGNALED,
				  .sg_list = &sge, .num_sge = 1,
				  .wr.ud = { .remote_qpn = 1, .remote_qkey = OIB_GSI_QKEY } };
	struct rnd_state rnd;
	struct oib_wc wc[16];
	struct oib_ah *ah;
	u64 sum, arrived, lost;
	unsigned int sent, i, j, k;
	u8 *bufs;
	int n;

	static const enum oib_mad_port_stat verdicts[] = {
		OIB_MAD_PORT_DISPATCHED, OIB_MAD_PORT_RESPONSES, OIB_MAD_PORT_ANSWERED,
		OIB_MAD_PORT_DROP_MALFORMED, OIB_MAD_PORT_DROP_UNMATCHED,
		OIB_MAD_PORT_DROP_NO_AGENT, OIB_MAD_PORT_RMPP,
	};

	(void)f;
	bufs = kunit_kzalloc(test, batch * 512, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, bufs);
	/* A UD QP may send with the GSI Q_Key only as its own (the high bit means "the QP's"). */
	KUNIT_ASSERT_EQ(test, 0, oib_modify_qp(qp, &qattr, OIB_QP_STATE | OIB_QP_PKEY_INDEX |
					       OIB_QP_PORT | OIB_QP_QKEY));
	KUNIT_ASSERT_EQ(test, 0, oib_test_qp_to(qp, OIB_QPS_RTS));
	KUNIT_ASSERT_EQ(test, 0, oib_query_gid(db, 1, 0, &attr.grh.dgid, NULL));
	ah = oib_create_ah(pd, &attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ah);
	wr.wr.ud.ah = ah;
	prandom_seed_state(&rnd, 0x66757a7a);

	for (sent = 0; sent < total; sent += batch) {
		for (i = 0; i < batch; i++) {
			u8 *b = bufs + i * 512;
			u32 r = prandom_u32_state(&rnd);

			prandom_bytes_state(&rnd, b, 512);
			sge.length = r % 4 ? OIB_MAD_SIZE : prandom_u32_state(&rnd) % 400;
			if (r & 0x30) {		/* mostly a plausible header */
				b[0] = (r & 0x300) ? 1 : r >> 24;
				b[1] = classes[(r >> 12) % ARRAY_SIZE(classes)];
				b[2] = (r >> 16) & 3;
			}
			sge.addr = (u64)(uintptr_t)b;
			wr.wr_id = i;
			KUNIT_ASSERT_EQ(test, 0, oib_post_send(qp, &wr, NULL));
		}
		for (k = 0; k < batch; k += n) {
			n = oib_test_poll_cq(cq, wc, min_t(int, batch - k, ARRAY_SIZE(wc)));
			KUNIT_ASSERT_GT(test, n, 0);
			for (j = 0; j < n; j++)
				KUNIT_EXPECT_EQ(test, OIB_WC_SUCCESS, wc[j].status);
		}
		/* Let the receiver keep up, so its ring never runs dry. */
		KUNIT_EXPECT_TRUE(test, oib_test_wait_for(madt_fuzz_seen(db) >= sent + batch));
	}
	/* Answers to the fuzz go back to the UD QP, which posted no receives. */
	KUNIT_EXPECT_EQ(test, 0, oib_destroy_ah(ah));

	arrived = oib_mad_port_stat(db, 1, OIB_MAD_PORT_RECEIVED);
	lost = oib_rxe_port_stat(db, 1, OIB_RXE_RX_DROP_NO_RECV);
	/* Every frame reached the MAD layer or was refused by the device; none found no receive. */
	KUNIT_EXPECT_EQ(test, (u64)total, madt_fuzz_seen(db));
	KUNIT_EXPECT_EQ(test, 0ULL, lost);
	KUNIT_EXPECT_GT(test, arrived, (u64)total * 9 / 10);
	for (sum = 0, i = 0; i < ARRAY_SIZE(verdicts); i++)
		sum += oib_mad_port_stat(db, 1, verdicts[i]);
	KUNIT_EXPECT_EQ(test, arrived, sum);
	KUNIT_EXPECT_GT(test, oib_mad_port_stat(db, 1, OIB_MAD_PORT_DROP_MALFORMED), 1000ULL);
	KUNIT_EXPECT_GT(test, oib_mad_port_stat(db, 1, OIB_MAD_PORT_ANSWERED), 0ULL);
	KUNIT_EXPECT_GT(test, oib_mad_port_stat(db, 1, OIB_MAD_PORT_DROP_UNMATCHED), 0ULL);
	kunit_info(test, "fuzz: %llu frames, %llu dropped by the device (malformed %llu)\n",
		   (u64)total, madt_fuzz_seen(db) - arrived,
		   oib_rxe_port_stat(db, 1, OIB_RXE_RX_DROP_MALFORMED));
	kunit_info(test, "fuzz: %llu arrived: %llu malformed, %llu answered, %llu unmatched, %llu no agent\n",
		   arrived, oib_mad_port_stat(db, 1, OIB_MAD_PORT_DROP_MALFORMED),
		   oib_mad_port_stat(db, 1, OIB_MAD_PORT_ANSWERED),
		   oib_mad_port_stat(db, 1, OIB_MAD_PORT_DROP_UNMATCHED),
		   oib_mad_port_stat(db, 1, OIB_MAD_PORT_DROP_NO_AGENT));
	/* The layer still works. */
	{
		struct madt_agent *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
		struct madt_agent *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, a);
		KUNIT_ASSERT_NOT_NULL(test, b);
		madt_init(test, a, da, 1);
		madt_init(test, b, db, 0);
		b->respond = true;
		madt_agent(test, a, 0);
		madt_agent(test, b, MADT_CLASS);
		madt_send(test, a, madt_ah(test, a, db, 1), MADT_CLASS, 0, 5000, 0);
		KUNIT_ASSERT_TRUE(test, madt_wait(a, &a->completed, 1));
		KUNIT_EXPECT_EQ(test, 1, atomic_read(&a->status[OIB_MAD_SEND_OK]));
	}
}

/* ---- backlog ---- */

#define MADT_AGENTS	8
#define MADT_PER_AGENT	500

/*
 * Thousands of MADs from many agents posted at once: the window stays bounded, everything
 * completes exactly once, and the responder's answers are not starved by its own requests.
 */
static void mad_backlog(struct kunit *test)
{
	struct orxe_fabric *f = madt_fabric(test);
	struct oib_device *da = madt_dev(test, 1), *db = madt_dev(test, 1);
	struct madt_agent *a = kunit_kcalloc(test, MADT_AGENTS, sizeof(*a), GFP_KERNEL);
	struct madt_agent *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	struct oib_ah *ah[MADT_AGENTS];
	unsigned long end;
	ktime_t start;
	int i, j, ok, ok_total = 0;
	s64 ms;

	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	madt_init(test, b, db, 0);
	b->fabric = f;
	b->respond = true;
	madt_agent(test, b, MADT_CLASS);
	for (i = 0; i < MADT_AGENTS; i++) {
		madt_init(test, &a[i], da, MADT_PER_AGENT);
		madt_agent(test, &a[i], 0);
		ah[i] = madt_ah(test, &a[i], db, 1);
	}
	start = ktime_get();
	for (j = 0; j < MADT_PER_AGENT; j++)
		for (i = 0; i < MADT_AGENTS; i++)
			madt_send(test, &a[i], ah[i], MADT_CLASS, j, 15000, 3);
	end = jiffies + 240 * HZ;	/* inside KUnit's 300 s per case */
	for (i = 0; i < MADT_AGENTS; i++) {
		wait_event_timeout(a[i].wq, atomic_read(&a[i].completed) >= MADT_PER_AGENT,
				   max_t(long, end - jiffies, 1));
		KUNIT_ASSERT_EQ_MSG(test, MADT_PER_AGENT, atomic_read(&a[i].completed),
				    "agent %d; no receive posted: %llu/%llu frames", i,
				    oib_rxe_port_stat(da, 1, OIB_RXE_RX_DROP_NO_RECV),
				    oib_rxe_port_stat(db, 1, OIB_RXE_RX_DROP_NO_RECV));
		/* at most 128 requests wait for the responder at once: none times out */
		ok = atomic_read(&a[i].status[OIB_MAD_SEND_OK]);
		KUNIT_EXPECT_EQ(test, MADT_PER_AGENT, ok);
		KUNIT_EXPECT_EQ(test, ok, atomic_read(&a[i].responses));
		for (j = 0; j < MADT_PER_AGENT; j++)
			KUNIT_EXPECT_EQ(test, 1, a[i].once[j]);
		madt_expect_clean(test, &a[i]);
		ok_total += ok;
	}
	ms = ktime_ms_delta(ktime_get(), start);
	KUNIT_EXPECT_GT(test, ok_total, 0);
	KUNIT_EXPECT_LE(test, oib_mad_port_stat(da, 1, OIB_MAD_PORT_MAX_OUTSTANDING), 32ULL);
	KUNIT_EXPECT_LE(test, oib_mad_port_stat(db, 1, OIB_MAD_PORT_MAX_OUTSTANDING), 32ULL);
	KUNIT_EXPECT_EQ(test, oib_mad_port_stat(da, 1, OIB_MAD_PORT_MAX_AWAITING), 128ULL);
	KUNIT_EXPECT_EQ(test, 0ULL, oib_rxe_port_stat(db, 1, OIB_RXE_RX_DROP_NO_RECV));
	/* Every answered request was dispatched at least once (resends reach it again). */
	KUNIT_EXPECT_GE(test, oib_mad_port_stat(db, 1, OIB_MAD_PORT_DISPATCHED), (u64)ok_total);
	kunit_info(test, "%d answered\n", ok_total);
	kunit_info(test, "%d MADs from %d agents: %lld ms, %llu retries, %llu requests found no receive posted\n",
		   MADT_AGENTS * MADT_PER_AGENT, MADT_AGENTS, ms,
		   oib_mad_port_stat(da, 1, OIB_MAD_PORT_RETRIES),
		   oib_rxe_port_stat(db, 1, OIB_RXE_RX_DROP_NO_RECV));
}

/* ---- device removal with MADs in flight ---- */

/* A ULP as an oib_core client: its remove() unregisters its agent and drops its AH. */
static struct {
	struct madt_agent *mt;
	struct oib_ah *ah;
	struct oib_device *dev;
	bool removed;
} madt_ulp;

static int madt_ulp_add(struct oib_device *device)
{
	return 0;
}

static void madt_ulp_remove(struct oib_device *device, void *data)
{
	if (device != madt_ulp.dev || !madt_ulp.mt)
		return;
	madt_unregister(madt_ulp.mt);
	oib_destroy_ah(madt_ulp.ah);
	madt_ulp.removed = true;
}

static struct oib_client madt_ulp_client = {
	.name = "oib_mad_test_ulp",
	.add = madt_ulp_add,
	.remove = madt_ulp_remove,
};

static void mad_device_removal_in_flight(struct kunit *test)
{
	struct oib_ah_attr attr = { .port_num = 1, .flags = OIB_AH_GRH,
				    .grh = { .hop_limit = 64 } };
	struct madt_agent *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	struct madt_agent *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	struct madt_agent *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct oib_device *da, *db;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_ASSERT_NOT_NULL(test, c);
	madt_fabric(test);
	da = madt_dev(test, 1);
	db = madt_dev(test, 1);
	oib_test_client(test, &madt_ulp_client);
	madt_init(test, a, da, 10);
	madt_init(test, b, db, 0);
	madt_agent(test, b, MADT_CLASS);		/* never answers */
	KUNIT_ASSERT_EQ(test, 0, madt_register(a, 0, NULL, 0));
	/* An agent its owner forgets to unregister before the device goes. */
	madt_init(test, c, da, 0);
	madt_agent(test, c, MADT_CLASS);
	KUNIT_ASSERT_EQ(test, 0, oib_query_gid(db, 1, 0, &attr.grh.dgid, NULL));
	madt_ulp.ah = oib_mad_create_ah(a->agent, &attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, madt_ulp.ah);
	madt_ulp.mt = a;
	madt_ulp.dev = da;
	madt_ulp.removed = false;
	for (i = 0; i < 10; i++)
		madt_send(test, a, madt_ulp.ah, MADT_CLASS, i, 60000, 0);
	KUNIT_EXPECT_TRUE(test, madt_wait(b, &b->requests, 10));

	oib_test_rxe_remove(test, da);
	KUNIT_EXPECT_TRUE(test, madt_ulp.removed);
	KUNIT_EXPECT_EQ(test, 10, atomic_read(&a->completed));
	KUNIT_EXPECT_EQ(test, 10, atomic_read(&a->status[OIB_MAD_SEND_FLUSHED]));
	madt_expect_clean(test, a);
	madt_ulp.mt = NULL;
	/* The forgotten agent outlives its port's service: refused, then unregistered cleanly. */
	KUNIT_EXPECT_EQ(test, -ENODEV, PTR_ERR(oib_mad_create_ah(c->agent, &attr)));
	madt_unregister(c);
	madt_expect_clean(test, c);
}

static struct kunit_case oib_mad_stress_cases[] = {
	KUNIT_CASE_SLOW(mad_unregister_races),
	KUNIT_CASE(mad_unregister_during_delivery),
	KUNIT_CASE_SLOW(mad_malformed_fuzz),
	KUNIT_CASE_SLOW(mad_backlog),
	KUNIT_CASE(mad_device_removal_in_flight),
	{}
};

static struct kunit_suite oib_mad_stress_suite = {
	.name = "oib_mad_stress",
	.test_cases = oib_mad_stress_cases,
};

kunit_test_suite(oib_mad_stress_suite);

MODULE_DESCRIPTION("KUnit stress tests for oib_mad: unregister races, device removal, fuzz");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

// SPDX-License-Identifier: GPL-2.0-only
/* The toolkit's MAD part, linked into each oib_mad suite; see oib_toolkit_mad.h. */
#include <linux/iopoll.h>
#include <linux/slab.h>
#include "oib_toolkit_mad.h"

void madt_send_handler(struct oib_mad_agent *agent, struct oib_mad_send_wc *wc)
{
	struct madt_agent *mt = agent->context;
	void *idx = wc->send_buf->context[0];
	struct oib_ah *ah = wc->send_buf->context[1];

	if (READ_ONCE(mt->unregistered))
		atomic_inc(&mt->bad);
	if (idx == MADT_MARKER) {
		oib_free_send_mad(wc->send_buf);
		if (wc->status != OIB_MAD_SEND_OK)
			atomic_inc(&mt->bad);
		atomic_inc(&mt->markers);
		wake_up(&mt->wq);
		return;
	}
	if (idx != MADT_UNTRACKED) {
		if ((uintptr_t)idx >= mt->n || ++mt->once[(uintptr_t)idx] != 1)
			atomic_inc(&mt->bad);
		if (wc->status <= OIB_MAD_SEND_ABORTED)
			atomic_inc(&mt->status[wc->status]);
		mt->send_seq = atomic_inc_return(&mt->seq);
	}
	oib_free_send_mad(wc->send_buf);
	if (ah)
		oib_destroy_ah(ah);
	atomic_inc(&mt->completed);
	wake_up(&mt->wq);
}

static void madt_fabric_rule(struct madt_agent *mt, enum orxe_fault_action action)
{
	struct orxe_fault_rule rule = { .action = action, .opcode = ORXE_FAULT_ANY, .qpn = 1,
				       .count = 1 };

	if (oib_rxe_fabric_add_rule(mt->fabric, &rule))
		atomic_inc(&mt->bad);
}

static void madt_answer(struct madt_agent *mt, struct oib_mad_agent *agent,
			const struct oib_mad_recv *recv)
{
	struct oib_mad_send_buf *sb;
	struct oib_mad_hdr *hdr;
	struct oib_ah *ah;

	ah = oib_mad_create_resp_ah(agent, recv);
	if (IS_ERR(ah)) {
		atomic_inc(&mt->bad);
		return;
	}
	sb = oib_create_send_mad(agent, ah, GFP_KERNEL);
	if (IS_ERR(sb)) {
		oib_destroy_ah(ah);
		atomic_inc(&mt->bad);
		return;
	}
	memcpy(sb->mad, recv->mad, OIB_MAD_SIZE);
	hdr = sb->mad;
	hdr->method = OIB_MGMT_METHOD_GET_RESP;
	sb->remote_qpn = recv->src_qp;
	sb->context[0] = MADT_UNTRACKED;
	sb->context[1] = ah;
	if (atomic_add_unless(&mt->drop_responses, -1, 0))
		madt_fabric_rule(mt, ORXE_FAULT_DROP);
	else if (atomic_add_unless(&mt->dup_responses, -1, 0))
		madt_fabric_rule(mt, ORXE_FAULT_DUP);
	if (oib_post_send_mad(sb)) {
		oib_free_send_mad(sb);
		oib_destroy_ah(ah);
		atomic_inc(&mt->bad);
	}
}

/* Whoever called unregister on @mt sleeps: in unregister, waiting for the agent's handlers. */
static bool madt_unregister_waits(struct madt_agent *mt)
{
	struct task_struct *t = READ_ONCE(mt->unregistering);

	return t && !task_is_running(t);
}

void madt_recv_handler(struct oib_mad_agent *agent, struct oib_mad_send_buf *send_buf,
		       const struct oib_mad_recv *recv)
{
	struct madt_agent *mt = agent->context;

	if (READ_ONCE(mt->unregistered))
		atomic_inc(&mt->bad);
	if (send_buf) {
		/* Delivered with the request it answers: same TID and class. */
		if (recv->mad->tid != ((struct oib_mad_hdr *)send_buf->mad)->tid)
			atomic_inc(&mt->bad);
		mt->last_resp_status = be16_to_cpu(recv->mad->status);
		mt->last_resp_method = recv->mad->method;
		mt->resp_seq = atomic_inc_return(&mt->seq);
		atomic_inc(&mt->responses);
		if (mt->recv_linger) {
			complete(&mt->in_recv);
			/* Unregister, once called, must wait for us: stay until it does. */
			if (!oib_test_wait_for(madt_unregister_waits(mt)))
				atomic_inc(&mt->bad);
			WRITE_ONCE(mt->recv_exited, true);
		}
		return;
	}
	mt->last_req_tid = (u32)be64_to_cpu(recv->mad->tid);
	atomic_inc(&mt->requests);
	if (READ_ONCE(mt->respond))
		madt_answer(mt, agent, recv);
	wake_up(&mt->wq);
}

struct orxe_fabric *madt_fabric(struct kunit *test)
{
	return oib_test_fabric(test, MADT_FABRIC, 0x4d4144);
}

struct oib_device *madt_dev(struct kunit *test, u32 ports)
{
	return oib_test_rxe_on(test, MADT_FABRIC, ports);
}

void madt_init(struct kunit *test, struct madt_agent *mt, struct oib_device *dev,
	       unsigned int n)
{
	memset(mt, 0, sizeof(*mt));
	mt->test = test;
	mt->dev = dev;
	init_waitqueue_head(&mt->wq);
	init_completion(&mt->in_recv);
	mt->n = n;
	if (n) {
		mt->once = kunit_kzalloc(test, n, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, mt->once);
	}
}

int madt_register(struct madt_agent *mt, u8 mgmt_class, const u8 *methods, int nmethods)
{
	struct oib_mad_reg_req req = { .mgmt_class = mgmt_class, .class_version = MADT_VERSION };
	struct oib_mad_agent *agent;
	int i;

	for (i = 0; i < nmethods; i++)
		__set_bit(methods[i], req.method_mask);
	agent = oib_register_mad_agent(mt->dev, 1, OIB_QPT_GSI, mgmt_class ? &req : NULL,
				       madt_send_handler, madt_recv_handler, mt);
	if (IS_ERR(agent))
		return PTR_ERR(agent);
	mt->agent = agent;
	mt->unregistering = NULL;
	mt->unregistered = false;
	return 0;
}

void madt_unregister(struct madt_agent *mt)
{
	if (!mt->agent)
		return;
	WRITE_ONCE(mt->unregistering, current);
	oib_unregister_mad_agent(mt->agent);
	WRITE_ONCE(mt->unregistered, true);
	mt->agent = NULL;
}

static void madt_agent_release(void *mt)
{
	madt_unregister(mt);
}

/* Register, with unregister at test end if the test did not. */
void madt_agent(struct kunit *test, struct madt_agent *mt, u8 mgmt_class)
{
	static const u8 get_set[] = { OIB_MGMT_METHOD_GET, OIB_MGMT_METHOD_SET };

	KUNIT_ASSERT_EQ(test, 0, madt_register(mt, mgmt_class, get_set, mgmt_class ? 2 : 0));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, madt_agent_release, mt));
}

static void madt_ah_release(void *ah)
{
	oib_destroy_ah(ah);
}

struct oib_ah *madt_agent_ah(struct kunit *test, struct oib_mad_agent *agent,
			     struct oib_device *to, u32 port)
{
	struct oib_ah_attr attr = { .port_num = port, .flags = OIB_AH_GRH,
				    .grh = { .hop_limit = 64 } };
	struct oib_ah *ah;

	KUNIT_ASSERT_EQ(test, 0, oib_query_gid(to, 1, 0, &attr.grh.dgid, NULL));
	ah = oib_mad_create_ah(agent, &attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ah);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, madt_ah_release, ah));
	return ah;
}

struct oib_ah *madt_ah(struct kunit *test, struct madt_agent *mt, struct oib_device *to,
		       u32 port)
{
	return madt_agent_ah(test, mt->agent, to, port);
}

struct oib_mad_send_buf *madt_buf(struct madt_agent *mt, struct oib_ah *ah, u8 mgmt_class,
				  u8 method, unsigned int idx, unsigned int timeout_ms,
				       unsigned int retries)
{
	struct oib_mad_send_buf *sb = oib_create_send_mad(mt->agent, ah, GFP_KERNEL);
	struct oib_mad_hdr *hdr;

	if (IS_ERR(sb))
		return sb;
	hdr = sb->mad;
	hdr->base_version = OIB_MAD_BASE_VERSION;
	hdr->mgmt_class = mgmt_class;
	hdr->class_version = MADT_VERSION;
	hdr->method = method;
	hdr->tid = cpu_to_be64(idx);
	hdr->attr_id = cpu_to_be16(0x10);
	sb->timeout_ms = timeout_ms;
	sb->retries = retries;
	sb->context[0] = (void *)(uintptr_t)idx;
	return sb;
}

/* Create and post a tracked Get; the send buffer, owned by the layer until its handler. */
struct oib_mad_send_buf *madt_send(struct kunit *test, struct madt_agent *mt,
				   struct oib_ah *ah, u8 mgmt_class, unsigned int idx,
					unsigned int timeout_ms, unsigned int retries)
{
	struct oib_mad_send_buf *sb = madt_buf(mt, ah, mgmt_class, OIB_MGMT_METHOD_GET, idx,
					     timeout_ms, retries);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sb);
	KUNIT_ASSERT_EQ(test, 0, oib_post_send_mad(sb));
	return sb;
}

bool madt_wait(struct madt_agent *mt, atomic_t *v, int n)
{
	return oib_test_wait_count(&mt->wq, v, n);
}

bool madt_wait_stat(struct oib_device *dev, enum oib_mad_port_stat stat, u64 n)
{
	u64 v;
	int i;

	if (!read_poll_timeout(oib_mad_port_stat, v, v >= n, 1000, MADT_WAIT_MS * USEC_PER_MSEC,
			       false, dev, 1, stat))
		return true;
	pr_info("oib_mad_test: %s: port stat %d still below %llu\n", oib_dev_name(dev), stat, n);
	for (i = 0; i < OIB_MAD_PORT_NSTATS; i++)
		pr_info("oib_mad_test:   stat %d = %llu\n", i, oib_mad_port_stat(dev, 1, i));
	return false;
}

void madt_fence(struct kunit *test, struct madt_agent *mt, struct oib_ah *ah,
		struct oib_device *peer)
{
	u64 seen = peer ? oib_mad_port_stat(peer, 1, OIB_MAD_PORT_DROP_NO_AGENT) : 0;
	int markers = atomic_read(&mt->markers);
	struct oib_mad_send_buf *sb;

	sb = madt_buf(mt, ah, MADT_CLASS_NONE, OIB_MGMT_METHOD_SEND, 0, 0, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sb);
	sb->context[0] = MADT_MARKER;
	KUNIT_ASSERT_EQ(test, 0, oib_post_send_mad(sb));
	KUNIT_ASSERT_TRUE(test, madt_wait(mt, &mt->markers, markers + 1));
	if (peer)
		KUNIT_ASSERT_TRUE(test, madt_wait_stat(peer, OIB_MAD_PORT_DROP_NO_AGENT,
						       seen + 1));
}

struct madt_pair *madt_pair(struct kunit *test, unsigned int n, bool respond)
{
	struct madt_pair *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	p->fabric = madt_fabric(test);
	p->da = madt_dev(test, 1);
	p->db = madt_dev(test, 1);
	madt_init(test, &p->a, p->da, n);
	madt_init(test, &p->b, p->db, 0);
	p->a.fabric = p->fabric;
	p->b.fabric = p->fabric;
	p->b.respond = respond;
	madt_agent(test, &p->a, 0);
	madt_agent(test, &p->b, MADT_CLASS);
	p->ah = madt_ah(test, &p->a, p->db, 1);
	return p;
}

void madt_expect_clean(struct kunit *test, struct madt_agent *mt)
{
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&mt->bad));
}


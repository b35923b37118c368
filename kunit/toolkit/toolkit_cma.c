// SPDX-License-Identifier: GPL-2.0-only
/* The toolkit's RDMA CM part: see oib_toolkit_cma.h. */
#include <linux/slab.h>
#include <linux/string.h>
#include <net/ipv6.h>
#include <oib/provider.h>
#include "oib_toolkit_cma.h"

static u8 cmat_pattern[CMAT_PDATA_MAX];

static void cmat_record(struct cmat_rec *r, const struct oib_cma_event *ev)
{
	struct cmat_ctx *ctx = r->ctx;
	const void *pdata = ev->param.conn.private_data;
	u8 len = ev->param.conn.private_data_len;
	unsigned long flags;

	if (r->id->qp_type == OIB_QPT_UD) {
		pdata = ev->param.ud.private_data;
		len = ev->param.ud.private_data_len;
	}
	spin_lock_irqsave(&ctx->lock, flags);
	if (ev->event < OIB_CMA_NEVENTS) {
		r->events[ev->event]++;
		r->last[ev->event] = *ev;
		if (pdata)
			memcpy(r->pdata[ev->event], pdata, min_t(size_t, len, CMAT_PDATA_MAX));
		atomic_inc(&ctx->total[ev->event]);
	} else {
		r->errors++;
	}
	r->nevents++;
	spin_unlock_irqrestore(&ctx->lock, flags);
	wake_up_all(&ctx->wq);
}

static struct cmat_rec *cmat_rec_new(struct cmat_ctx *ctx, struct cmat_end *end,
				     struct oib_cma_id *id)
{
	struct cmat_rec *r = kzalloc(sizeof(*r), GFP_KERNEL);
	unsigned long flags;

	if (!r)
		return NULL;
	r->ctx = ctx;
	r->end = end;
	r->id = id;
	r->disconnect_on_dreq = true;
	r->ird = 1;
	r->ord = 1;
	spin_lock_irqsave(&ctx->lock, flags);
	list_add_tail(&r->entry, &ctx->recs);
	spin_unlock_irqrestore(&ctx->lock, flags);
	return r;
}

static int cmat_make_qp(struct cmat_rec *r)
{
	struct oib_qp_init_attr attr = {
		.send_cq = r->end->cq, .recv_cq = r->end->cq, .qp_type = r->id->qp_type,
		.cap = { .max_send_wr = CMAT_WR, .max_recv_wr = CMAT_WR, .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};

	int ret = oib_cma_create_qp(r->id, r->end->pd, &attr);

	/* RC in INIT (receives may be posted before connecting), UD in RTS */
	if (!ret && READ_ONCE(r->id->qp->state) !=
	    (r->id->qp_type == OIB_QPT_UD ? OIB_QPS_RTS : OIB_QPS_INIT))
		r->errors++;
	return ret;
}

static void cmat_conn_param(struct cmat_rec *r, struct oib_cma_conn_param *p)
{
	*p = (struct oib_cma_conn_param){
		.private_data = cmat_pattern, .private_data_len = r->pdata_len,
		.responder_resources = r->ird, .initiator_depth = r->ord, .retry_count = 7,
		.rnr_retry_count = 7, .flags = r->confirm ? OIB_CMA_CONFIRM_REP : 0,
	};
}

/* A listener's id was spawned: its own rec, a copy of the listener's behaviour. */
static struct cmat_rec *cmat_on_request(struct cmat_rec *l, struct oib_cma_id *id)
{
	struct oib_cma_conn_param p;
	struct cmat_ctx *ctx = l->ctx;
	struct cmat_end *end = id->device == ctx->a.dev ? &ctx->a :
			       id->device == ctx->b.dev ? &ctx->b : &ctx->c;
	struct cmat_rec *r = cmat_rec_new(ctx, end, id);

	if (!r)
		return NULL;
	r->spawner = l;
	r->on_req = l->on_req;
	r->destroy_on = l->destroy_on;
	r->disconnect_on_dreq = l->disconnect_on_dreq;
	r->pdata_len = l->pdata_len;
	r->ird = l->ird;
	r->ord = l->ord;
	id->context = r;
	cmat_conn_param(r, &p);
	if (r->on_req == CMAT_ACCEPT && (cmat_make_qp(r) || oib_cma_accept(id, &p)))
		r->errors++;
	if (r->on_req == CMAT_REJECT && oib_cma_reject(id, cmat_pattern, r->pdata_len))
		r->errors++;
	return r;
}

static void cmat_act(struct cmat_rec *r, const struct oib_cma_event *ev)
{
	struct oib_cma_conn_param p;

	switch (ev->event) {
	case OIB_CMA_EVENT_ADDR_RESOLVED:
		if (r->auto_connect && oib_cma_resolve_route(r->id, 2000))
			r->errors++;
		break;
	case OIB_CMA_EVENT_ROUTE_RESOLVED:
		cmat_conn_param(r, &p);
		if (r->auto_connect && (cmat_make_qp(r) || oib_cma_connect(r->id, &p)))
			r->errors++;
		break;
	case OIB_CMA_EVENT_CONNECT_RESPONSE:
		if (r->confirm && oib_cma_accept(r->id, NULL))
			r->errors++;
		break;
	case OIB_CMA_EVENT_DISCONNECTED:
		if (r->disconnect_on_dreq && oib_cma_disconnect(r->id))
			r->errors++;
		break;
	default:
		break;
	}
}

static int cmat_handler(struct oib_cma_id *id, struct oib_cma_event *ev)
{
	struct cmat_rec *r = id->context;
	bool destroy;

	if (ev->event == OIB_CMA_EVENT_CONNECT_REQUEST) {
		r = cmat_on_request(r, id);
		if (!r)
			return -ENOMEM;		/* the CMA refuses the request */
	}
	destroy = r->destroy_on == ev->event + 1 ||
		  (ev->event == OIB_CMA_EVENT_DEVICE_REMOVAL && !r->keep_on_removal);
	if (!destroy && ev->event != OIB_CMA_EVENT_CONNECT_REQUEST)
		cmat_act(r, ev);
	if (destroy) {			/* before the test hears of it */
		oib_cma_destroy_qp(id);
		WRITE_ONCE(r->gone, true);
	}
	cmat_record(r, ev);
	return destroy ? -ECONNABORTED : 0;
}

void cmat_destroy(struct cmat_rec *r)
{
	if (READ_ONCE(r->gone))
		return;
	WRITE_ONCE(r->gone, true);
	oib_cma_destroy_qp(r->id);
	oib_cma_destroy_id(r->id);
}

static struct cmat_rec *cmat_next_live(struct cmat_ctx *ctx, bool listener)
{
	struct cmat_rec *r, *found = NULL;
	unsigned long flags;

	spin_lock_irqsave(&ctx->lock, flags);
	list_for_each_entry(r, &ctx->recs, entry) {
		if (!READ_ONCE(r->gone) && r->id && r->listener == listener) {
			found = r;
			break;
		}
	}
	spin_unlock_irqrestore(&ctx->lock, flags);
	return found;
}

/* Listeners first (no id is spawned after), then every other id. */
static void cmat_ctx_release(void *arg)
{
	struct cmat_ctx *ctx = arg;
	struct cmat_rec *r, *tmp;

	while ((r = cmat_next_live(ctx, true)))
		cmat_destroy(r);
	while ((r = cmat_next_live(ctx, false)))
		cmat_destroy(r);
	list_for_each_entry_safe(r, tmp, &ctx->recs, entry) {
		KUNIT_EXPECT_EQ(ctx->test, r->errors, 0);
		list_del(&r->entry);
		kfree(r);
	}
}

void cmat_addr(struct sockaddr_storage *ss, bool v6, u8 host, u16 port)
{
	memset(ss, 0, sizeof(*ss));
	if (v6) {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

		sin6->sin6_family = AF_INET6;
		sin6->sin6_addr.s6_addr[0] = 0xfd;
		sin6->sin6_addr.s6_addr[15] = host;
		sin6->sin6_port = htons(port);
	} else {
		struct sockaddr_in *sin = (struct sockaddr_in *)ss;

		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = htonl(0x0a000000 | host);
		sin->sin_port = htons(port);
	}
}

int cmat_dev_addr(struct oib_device *dev, const struct sockaddr_storage *ss, bool add)
{
	union oib_gid gid;
	int ret;

	if (ss->ss_family == AF_INET)
		ipv6_addr_set_v4mapped(((const struct sockaddr_in *)ss)->sin_addr.s_addr, &gid.in6);
	else
		gid.in6 = ((const struct sockaddr_in6 *)ss)->sin6_addr;
	ret = add ? oib_add_gid(dev, 1, &gid, OIB_GID_TYPE_ROCE_V2) : oib_del_gid(dev, 1, &gid);
	return ret < 0 ? ret : 0;
}

/* A device on a netdev may have the addresses already (-EEXIST): its GIDs follow the netdev's. */
static void cmat_end_addrs(struct kunit *test, struct cmat_end *e, u8 host)
{
	struct sockaddr_storage ss;
	int ret;

	cmat_addr(&e->addr, false, host, 0);
	ret = cmat_dev_addr(e->dev, &e->addr, true);
	KUNIT_ASSERT_TRUE(test, !ret || ret == -EEXIST);
	cmat_addr(&ss, true, host, 0);
	ret = cmat_dev_addr(e->dev, &ss, true);
	KUNIT_ASSERT_TRUE(test, !ret || ret == -EEXIST);
}

void cmat_end_on(struct kunit *test, struct cmat_end *e, struct oib_device *dev, u8 host)
{
	e->dev = dev;
	e->pd = oib_test_pd(test, dev);
	e->cq = oib_test_cq(test, dev, 4096);
	cmat_end_addrs(test, e, host);
}

static struct oib_device *cmat_rxe_add(struct kunit *test, struct cmat_ctx *ctx, u8 host,
				       bool managed)
{
	struct oib_rxe_params params = { .num_ports = 1 };
	struct oib_device *dev;

	if (!ctx->f)
		ctx->f = oib_test_fabric(test, CMAT_FABRIC, 1);
	if (managed)
		return oib_test_rxe_on(test, oib_rxe_fabric_name(ctx->f), 1);
	params.fabric = oib_rxe_fabric_name(ctx->f);
	dev = oib_rxe_add(&params);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dev);
	return dev;
}

const struct cmat_kind cmat_rxe = {
	.name = "rxe",
	.add = cmat_rxe_add,
	.remove = oib_rxe_remove,
};

void cmat_end_add(struct kunit *test, struct cmat_ctx *ctx, struct cmat_end *e, u8 host,
		  bool managed)
{
	struct oib_cq_init_attr cq_attr = { .cqe = 4096 };

	e->dev = ctx->kind->add(test, ctx, host, managed);
	if (managed) {
		e->pd = oib_test_pd(test, e->dev);
		e->cq = oib_test_cq(test, e->dev, 4096);
	} else {
		e->pd = oib_alloc_pd(e->dev);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, e->pd);
		e->cq = oib_create_cq(e->dev, NULL, NULL, NULL, &cq_attr);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, e->cq);
	}
	cmat_end_addrs(test, e, host);
}

void cmat_end_free_objects(struct cmat_end *e)
{
	WARN_ON(oib_destroy_cq(e->cq));
	WARN_ON(oib_dealloc_pd(e->pd));
	e->cq = NULL;
	e->pd = NULL;
}

static struct cmat_ctx *cmat_ctx_new(struct kunit *test)
{
	struct cmat_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	memset(cmat_pattern, 0x5a, sizeof(cmat_pattern));
	ctx->test = test;
	spin_lock_init(&ctx->lock);
	init_waitqueue_head(&ctx->wq);
	INIT_LIST_HEAD(&ctx->recs);
	return ctx;
}

struct cmat_ctx *cmat_ctx_of(struct kunit *test, const struct cmat_kind *kind)
{
	struct cmat_ctx *ctx = cmat_ctx_new(test);

	ctx->kind = kind;
	cmat_end_add(test, ctx, &ctx->a, 1, true);
	cmat_end_add(test, ctx, &ctx->b, 2, true);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, cmat_ctx_release, ctx));
	return ctx;
}

struct cmat_ctx *cmat_ctx(struct kunit *test)
{
	return cmat_ctx_of(test, &cmat_rxe);
}

struct cmat_ctx *cmat_ctx_on(struct kunit *test, struct oib_device *a, struct oib_device *b)
{
	struct cmat_ctx *ctx = cmat_ctx_new(test);

	cmat_end_on(test, &ctx->a, a, 1);
	cmat_end_on(test, &ctx->b, b, 2);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, cmat_ctx_release, ctx));
	return ctx;
}

struct cmat_rec *cmat_id(struct cmat_ctx *ctx, struct cmat_end *end,
			 enum oib_cma_port_space ps)
{
	struct oib_cma_id *id;
	struct cmat_rec *r = cmat_rec_new(ctx, end, NULL);

	KUNIT_ASSERT_NOT_NULL(ctx->test, r);
	id = oib_cma_create_id(&init_net, cmat_handler, r, ps,
			       ps == OIB_PS_UDP ? OIB_QPT_UD : OIB_QPT_RC);
	if (IS_ERR(id))
		r->gone = true;
	KUNIT_ASSERT_NOT_ERR_OR_NULL(ctx->test, id);
	r->id = id;
	return r;
}

struct cmat_rec *cmat_listen(struct cmat_ctx *ctx, struct cmat_end *end,
			     const struct sockaddr_storage *addr, enum cmat_on_req on_req)
{
	return cmat_listen_ps(ctx, end, addr, on_req, OIB_PS_TCP);
}

struct cmat_rec *cmat_listen_ps(struct cmat_ctx *ctx, struct cmat_end *end,
				const struct sockaddr_storage *addr, enum cmat_on_req on_req,
				enum oib_cma_port_space ps)
{
	struct cmat_rec *r = cmat_id(ctx, end, ps);

	r->on_req = on_req;
	r->listener = true;
	KUNIT_ASSERT_EQ(ctx->test, 0, oib_cma_bind_addr(r->id, (struct sockaddr *)addr));
	KUNIT_ASSERT_EQ(ctx->test, 0, oib_cma_listen(r->id, 0));
	return r;
}

struct cmat_rec *cmat_connect_from(struct cmat_ctx *ctx, struct cmat_end *from,
				   const struct sockaddr_storage *src,
				   const struct sockaddr_storage *dst, enum oib_cma_port_space ps,
				   u8 pdata_len)
{
	struct cmat_rec *r = cmat_id(ctx, from, ps);

	r->auto_connect = true;
	r->pdata_len = pdata_len;
	KUNIT_ASSERT_EQ(ctx->test, 0, oib_cma_resolve_addr(r->id, (struct sockaddr *)src,
							   (struct sockaddr *)dst, 2000));
	return r;
}

struct cmat_rec *cmat_connect(struct cmat_ctx *ctx, const struct sockaddr_storage *dst,
			      enum oib_cma_port_space ps)
{
	return cmat_connect_from(ctx, &ctx->a, NULL, dst, ps, 0);
}

int cmat_count(struct cmat_rec *r, enum oib_cma_event_type type)
{
	unsigned long flags;
	int n;

	spin_lock_irqsave(&r->ctx->lock, flags);
	n = r->events[type];
	spin_unlock_irqrestore(&r->ctx->lock, flags);
	return n;
}

bool cmat_wait(struct cmat_rec *r, enum oib_cma_event_type type, int n)
{
	return wait_event_timeout(r->ctx->wq, cmat_count(r, type) >= n,
				  msecs_to_jiffies(OIB_TEST_WAIT_MS)) > 0;
}

bool cmat_wait_total(struct cmat_ctx *ctx, enum oib_cma_event_type type, int n,
		     unsigned int ms)
{
	return wait_event_timeout(ctx->wq, atomic_read(&ctx->total[type]) >= n,
				  msecs_to_jiffies(ms)) > 0;
}

static struct cmat_rec *cmat_nth_spawned(struct cmat_rec *l, int n)
{
	struct cmat_rec *r, *found = NULL;
	unsigned long flags;

	spin_lock_irqsave(&l->ctx->lock, flags);
	list_for_each_entry(r, &l->ctx->recs, entry) {
		if (r->spawner == l && r->events[OIB_CMA_EVENT_CONNECT_REQUEST] &&
		    n-- == 0) {
			found = r;
			break;
		}
	}
	spin_unlock_irqrestore(&l->ctx->lock, flags);
	return found;
}

struct cmat_rec *cmat_spawned(struct cmat_rec *l, int n)
{
	struct cmat_rec *r = NULL;

	wait_event_timeout(l->ctx->wq, (r = cmat_nth_spawned(l, n)),
			   msecs_to_jiffies(OIB_TEST_WAIT_MS));
	return r;
}

void cmat_exchange(struct kunit *test, struct cmat_rec *from, struct cmat_rec *to, u32 len,
		   u64 wr_id)
{
	u8 *sbuf = kunit_kzalloc(test, len, GFP_KERNEL);
	u8 *rbuf = kunit_kzalloc(test, len, GFP_KERNEL);
	struct oib_sge ssge = { .addr = (uintptr_t)sbuf, .length = len };
	struct oib_sge rsge = { .addr = (uintptr_t)rbuf, .length = len };
	struct oib_send_wr swr = { .wr_id = wr_id, .sg_list = &ssge, .num_sge = 1,
				   .opcode = OIB_WR_SEND, .send_flags = OIB_SEND_SIGNALED };
	struct oib_recv_wr rwr = { .wr_id = wr_id, .sg_list = &rsge, .num_sge = 1 };
	struct oib_wc wc;

	KUNIT_ASSERT_TRUE(test, sbuf && rbuf);
	memset(sbuf, (u8)wr_id, len);
	ssge.lkey = from->end->pd->local_dma_lkey;
	rsge.lkey = to->end->pd->local_dma_lkey;
	KUNIT_ASSERT_EQ(test, 0, oib_post_recv(to->id->qp, &rwr, NULL));
	KUNIT_ASSERT_EQ(test, 0, oib_post_send(from->id->qp, &swr, NULL));
	KUNIT_ASSERT_EQ(test, 1, oib_test_poll_cq(from->end->cq, &wc, 1));
	KUNIT_EXPECT_EQ(test, wc.status, OIB_WC_SUCCESS);
	KUNIT_ASSERT_EQ(test, 1, oib_test_poll_cq(to->end->cq, &wc, 1));
	KUNIT_EXPECT_EQ(test, wc.status, OIB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.byte_len, len);
	KUNIT_EXPECT_EQ(test, rbuf[len - 1], (u8)wr_id);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_core device layer: device and client lifecycle, users, ports and their tables, device
 * async events.  Everything runs against real oib_rxe devices.
 */
#include <linux/module.h>
#include <linux/completion.h>
#include <linux/kthread.h>
#include <linux/sched/task.h>
#include <linux/workqueue.h>
#include <oib/provider.h>
#include <oib/kunit/core.h>
#include "oib_toolkit.h"

/* ---- A recording client ---- */

#define REC_MAX 16

struct rec_client {
	struct oib_client client;
	struct kunit *test;
	int refuse;			/* add() returns this */
	atomic_t adds, removes;
	struct oib_device *added[REC_MAX];
	int nadded;
	void *removed_data[REC_MAX];
	int nremoved;
	int *order;			/* shared log of remove() calls: client tag per call */
	int *norder;
	int tag;
	bool hold;			/* take a device user reference in add() */
};

/*
 * add() is given only the device, as in any real client; each test client finds its recorder
 * through one of two globals, one per add function.
 */
static struct rec_client *rec_current, *rec_second;

static int rec_add_to(struct rec_client *rc, struct oib_device *device)
{
	atomic_inc(&rc->adds);
	if (rc->refuse)
		return rc->refuse;
	if (rc->nadded < REC_MAX)
		rc->added[rc->nadded++] = device;
	if (rc->hold && !oib_device_try_get(device))
		return -ENODEV;
	return oib_set_client_data(device, &rc->client, rc);
}

static int rec_add(struct oib_device *device)
{
	return rec_add_to(rec_current, device);
}

static int rec_add_second(struct oib_device *device)
{
	return rec_add_to(rec_second, device);
}

static void rec_remove(struct oib_device *device, void *data)
{
	struct rec_client *rc = data;

	atomic_inc(&rc->removes);
	if (rc->nremoved < REC_MAX)
		rc->removed_data[rc->nremoved++] = data;
	if (rc->order)
		rc->order[(*rc->norder)++] = rc->tag;
	if (rc->hold)
		oib_device_put(device);
}

/* A recording client, unregistered by KUnit if the test does not get there itself. */
static struct rec_client *rec_new(struct kunit *test, const char *name)
{
	struct rec_client *rc = kunit_kzalloc(test, sizeof(*rc), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, rc);
	rc->test = test;
	rc->client.name = name;
	rc->client.add = rec_add;
	rc->client.remove = rec_remove;
	return rc;
}

static void rec_register(struct kunit *test, struct rec_client *rc)
{
	oib_test_client(test, &rc->client);
}

static void rec_unregister(struct kunit *test, struct rec_client *rc)
{
	kunit_release_action(test, oib_test_client_release, &rc->client);
}

/* ---- Clients ---- */

static void client_registered_before_device(struct kunit *test)
{
	struct rec_client *rc = rec_new(test, "rec");
	struct oib_device *dev;

	rec_current = rc;
	rec_register(test, rc);
	dev = oib_test_rxe_ports(test, 1);
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&rc->adds));
	KUNIT_EXPECT_PTR_EQ(test, dev, rc->added[0]);
	KUNIT_EXPECT_PTR_EQ(test, (void *)rc, oib_get_client_data(dev, &rc->client));

	oib_test_rxe_remove(test, dev);
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&rc->removes));
	KUNIT_EXPECT_PTR_EQ(test, (void *)rc, rc->removed_data[0]);
	rec_unregister(test, rc);
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&rc->removes));
}

static void client_registered_after_devices(struct kunit *test)
{
	struct rec_client *rc = rec_new(test, "rec");
	struct oib_device *a, *b;

	a = oib_test_rxe_ports(test, 1);
	b = oib_test_rxe_ports(test, 2);
	rec_current = rc;
	rec_register(test, rc);
	/* Other tests' devices may exist too: ours must be among those added. */
	KUNIT_EXPECT_GE(test, atomic_read(&rc->adds), 2);
	KUNIT_EXPECT_PTR_EQ(test, (void *)rc, oib_get_client_data(a, &rc->client));
	KUNIT_EXPECT_PTR_EQ(test, (void *)rc, oib_get_client_data(b, &rc->client));

	rec_unregister(test, rc);
	KUNIT_EXPECT_EQ(test, atomic_read(&rc->adds), atomic_read(&rc->removes));
	KUNIT_EXPECT_NULL(test, oib_get_client_data(a, &rc->client));
}

static void client_not_interested(struct kunit *test)
{
	struct rec_client *rc = rec_new(test, "refuser");
	struct oib_device *dev;

	rc->refuse = -EOPNOTSUPP;
	rec_current = rc;
	rec_register(test, rc);
	dev = oib_test_rxe_ports(test, 1);
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&rc->adds));
	KUNIT_EXPECT_EQ(test, -ENOENT, oib_set_client_data(dev, &rc->client, rc));
	oib_test_rxe_remove(test, dev);
	rec_unregister(test, rc);
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&rc->removes));
}

static void client_remove_order_is_reversed(struct kunit *test)
{
	struct rec_client *a = rec_new(test, "first"), *b = rec_new(test, "second");
	struct oib_device *dev;
	int order[4], n = 0;

	a->order = order;
	a->norder = &n;
	a->tag = 1;
	b->order = order;
	b->norder = &n;
	b->tag = 2;
	b->client.add = rec_add_second;
	rec_current = a;
	rec_second = b;
	rec_register(test, a);
	rec_register(test, b);

	dev = oib_test_rxe_ports(test, 1);
	KUNIT_EXPECT_PTR_EQ(test, dev, a->added[0]);
	KUNIT_EXPECT_PTR_EQ(test, dev, b->added[0]);
	oib_test_rxe_remove(test, dev);
	KUNIT_ASSERT_EQ(test, 2, n);
	KUNIT_EXPECT_EQ(test, 2, order[0]);
	KUNIT_EXPECT_EQ(test, 1, order[1]);
}

static void client_invalid(struct kunit *test)
{
	struct oib_client c = { .name = "noadd" };

	KUNIT_EXPECT_EQ(test, -EINVAL, oib_register_client(NULL));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_register_client(&c));
}

/* ---- Device users ---- */

struct unreg_ctx {
	struct work_struct work;
	struct oib_device *device;
	struct completion done;
};

static void unreg_work(struct work_struct *work)
{
	struct unreg_ctx *u = container_of(work, struct unreg_ctx, work);

	oib_rxe_remove(u->device);
	complete(&u->done);
}

static void device_removed_while_held(struct kunit *test)
{
	struct oib_rxe_params p = { .num_ports = 1 };
	struct oib_device *dev, *held;
	struct unreg_ctx u;

	/* Not test-managed: the worker removes it. */
	dev = oib_rxe_add(&p);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dev);
	held = oib_device_get_by_name(oib_dev_name(dev));
	KUNIT_ASSERT_PTR_EQ(test, dev, held);

	u.device = dev;
	init_completion(&u.done);
	INIT_WORK_ONSTACK(&u.work, unreg_work);
	schedule_work(&u.work);

	/* Unregistration must wait for our reference. */
	KUNIT_EXPECT_EQ(test, 0UL, wait_for_completion_timeout(&u.done, msecs_to_jiffies(300)));
	KUNIT_EXPECT_NULL(test, oib_device_get_by_name(oib_dev_name(dev)));
	oib_device_put(held);
	KUNIT_EXPECT_NE(test, 0UL, wait_for_completion_timeout(&u.done, 10 * HZ));
	flush_work(&u.work);
	destroy_work_on_stack(&u.work);
}

static void device_held_by_client_until_remove(struct kunit *test)
{
	struct rec_client *rc = rec_new(test, "holder");
	struct oib_device *dev;

	rc->hold = true;
	rec_current = rc;
	rec_register(test, rc);
	dev = oib_test_rxe_ports(test, 1);
	/* The client's reference is dropped in its remove(), which unregister calls first. */
	oib_test_rxe_remove(test, dev);
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&rc->removes));
}

static void device_lookup(struct kunit *test)
{
	struct oib_device *dev = oib_test_rxe_ports(test, 1), *got;
	char name[64];

	strscpy(name, oib_dev_name(dev), sizeof(name));
	KUNIT_EXPECT_EQ(test, 0, strncmp(name, "oib_rxe", 7));
	got = oib_device_get_by_name(name);
	KUNIT_EXPECT_PTR_EQ(test, dev, got);
	if (got)
		oib_device_put(got);
	KUNIT_EXPECT_NULL(test, oib_device_get_by_name("no_such_device"));
	KUNIT_EXPECT_NULL(test, oib_device_get_by_name(NULL));
	oib_test_rxe_remove(test, dev);
	KUNIT_EXPECT_NULL(test, oib_device_get_by_name(name));
}

static void device_invalid_params(struct kunit *test)
{
	struct oib_rxe_params p = {};
	static const struct oib_device_ops empty_ops;
	struct oib_device *dev;

	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_rxe_add(NULL)));
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_rxe_add(&p)));
	p.num_ports = OIB_RXE_MAX_PORTS + 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_rxe_add(&p)));
	KUNIT_EXPECT_EQ(test, -ENODEV, oib_rxe_remove((struct oib_device *)&p));

	/* A provider with missing ops cannot register. */
	dev = oib_alloc_device(&empty_ops, sizeof(*dev));
	KUNIT_ASSERT_NOT_NULL(test, dev);
	dev->phys_port_cnt = 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_register_device(dev, "oib_bad%d"));
	oib_dealloc_device(dev);
	KUNIT_EXPECT_NULL(test, oib_alloc_device(&empty_ops, 8));
}

static int iw_connect(struct oib_iw_cm_id *cm_id, const struct oib_iw_cm_conn_param *param)
{
	return -EOPNOTSUPP;
}

static int iw_reject(struct oib_iw_cm_id *cm_id, const void *pdata, u8 len)
{
	return -EOPNOTSUPP;
}

static int iw_listen(struct oib_iw_cm_id *cm_id, int backlog)
{
	return -EOPNOTSUPP;
}

static void iw_unlisten(struct oib_iw_cm_id *cm_id)
{
}

/* An RNIC has every iWARP CM verb, and only an RNIC has any; registration refuses the rest. */
static void device_iw_ops_by_node_type(struct kunit *test)
{
	static struct oib_device_ops rnic_ops;	/* outlives the device's release */
	struct oib_device *rxe = oib_test_rxe_ports(test, 1), *dev;
	struct oib_device_ops ops = {};

	KUNIT_EXPECT_TRUE(test, oib_iw_ops_valid(&ops, OIB_NODE_CA));
	KUNIT_EXPECT_FALSE(test, oib_iw_ops_valid(&ops, OIB_NODE_RNIC));
	ops.iw_connect = iw_connect;
	ops.iw_accept = iw_connect;
	ops.iw_reject = iw_reject;
	ops.iw_create_listen = iw_listen;
	KUNIT_EXPECT_FALSE(test, oib_iw_ops_valid(&ops, OIB_NODE_RNIC));	/* one missing */
	KUNIT_EXPECT_FALSE(test, oib_iw_ops_valid(&ops, OIB_NODE_CA));
	ops.iw_destroy_listen = iw_unlisten;
	KUNIT_EXPECT_TRUE(test, oib_iw_ops_valid(&ops, OIB_NODE_RNIC));
	KUNIT_EXPECT_FALSE(test, oib_iw_ops_valid(&ops, OIB_NODE_CA));
	KUNIT_EXPECT_FALSE(test, oib_iw_ops_valid(&ops, OIB_NODE_SWITCH));

	/* A complete verbs provider (oib_rxe's ops) claiming to be an RNIC is refused. */
	rnic_ops = *rxe->ops;
	rnic_ops.dealloc_driver = NULL;		/* oib_rxe's is for its own devices */
	dev = oib_alloc_device(&rnic_ops, sizeof(*dev));
	KUNIT_ASSERT_NOT_NULL(test, dev);
	dev->phys_port_cnt = 1;
	dev->node_type = OIB_NODE_RNIC;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_register_device(dev, "oib_bad%d"));
	KUNIT_EXPECT_EQ(test, dev->reg_state, OIB_DEV_ALLOCATED);
	oib_dealloc_device(dev);
}

static void device_names_are_unique(struct kunit *test)
{
	struct oib_device *a = oib_test_rxe_ports(test, 1);
	struct oib_device *b = oib_test_rxe_ports(test, 1);

	KUNIT_EXPECT_STRNEQ(test, oib_dev_name(a), oib_dev_name(b));
	KUNIT_EXPECT_NE(test, be64_to_cpu(a->node_guid), be64_to_cpu(b->node_guid));
}

/* ---- Ports ---- */

static void port_attributes(struct kunit *test)
{
	struct oib_device *dev = oib_test_rxe_ports(test, 2);
	struct oib_port_attr attr;
	union oib_gid gid;
	enum oib_gid_type type;
	u16 pkey;

	KUNIT_EXPECT_EQ(test, 2u, dev->phys_port_cnt);
	KUNIT_ASSERT_EQ(test, 0, oib_query_port(dev, 2, &attr));
	KUNIT_EXPECT_EQ(test, OIB_PORT_ACTIVE, attr.state);
	KUNIT_EXPECT_EQ(test, OIB_LINK_LAYER_ETHERNET, attr.link_layer);
	KUNIT_EXPECT_GE(test, attr.gid_tbl_len, 1u);
	KUNIT_EXPECT_EQ(test, OIB_LINK_LAYER_ETHERNET, oib_port_link_layer(dev, 1));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_query_port(dev, 0, &attr));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_query_port(dev, 3, &attr));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_query_port(dev, 1, NULL));
	KUNIT_EXPECT_NULL(test, oib_port_immutable(dev, 3));

	/* GID 0 is the link-local address; it is a RoCEv2 GID. */
	KUNIT_ASSERT_EQ(test, 0, oib_query_gid(dev, 1, 0, &gid, &type));
	KUNIT_EXPECT_EQ(test, 0xfe, gid.raw[0]);
	KUNIT_EXPECT_EQ(test, 0x80, gid.raw[1]);
	KUNIT_EXPECT_EQ(test, OIB_GID_TYPE_ROCE_V2, type);
	KUNIT_EXPECT_EQ(test, -ENOENT, oib_query_gid(dev, 1, 1, &gid, NULL));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_query_gid(dev, 1, attr.gid_tbl_len, &gid, NULL));

	KUNIT_ASSERT_EQ(test, 0, oib_query_pkey(dev, 1, 0, &pkey));
	KUNIT_EXPECT_EQ(test, 0xffff, pkey);
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_query_pkey(dev, 1, attr.pkey_tbl_len, &pkey));
}

static void port_gid_table(struct kunit *test)
{
	struct oib_device *dev = oib_test_rxe_ports(test, 2);
	union oib_gid gid = {}, zero = {}, got;
	u32 port, index;
	int i, idx;

	gid.raw[10] = 0xff;
	gid.raw[11] = 0xff;
	gid.raw[12] = 10;
	gid.raw[15] = 7;	/* ::ffff:10.0.0.7 */
	idx = oib_add_gid(dev, 2, &gid, OIB_GID_TYPE_ROCE_V2);
	KUNIT_ASSERT_GE(test, idx, 1);
	KUNIT_EXPECT_EQ(test, -EEXIST, oib_add_gid(dev, 2, &gid, OIB_GID_TYPE_ROCE_V2));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_add_gid(dev, 2, &zero, OIB_GID_TYPE_ROCE_V2));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_add_gid(dev, 3, &gid, OIB_GID_TYPE_ROCE_V2));

	KUNIT_ASSERT_EQ(test, 0, oib_find_gid(dev, &gid, &port, &index));
	KUNIT_EXPECT_EQ(test, 2u, port);
	KUNIT_EXPECT_EQ(test, (u32)idx, index);
	KUNIT_ASSERT_EQ(test, 0, oib_query_gid(dev, 2, idx, &got, NULL));
	KUNIT_EXPECT_MEMEQ(test, &gid, &got, sizeof(gid));

	KUNIT_EXPECT_EQ(test, 0, oib_del_gid(dev, 2, &gid));
	KUNIT_EXPECT_EQ(test, -ENOENT, oib_del_gid(dev, 2, &gid));
	KUNIT_EXPECT_EQ(test, -ENOENT, oib_find_gid(dev, &gid, &port, &index));

	/* Fill the table: the last add finds no room. */
	for (i = 1; ; i++) {
		gid.raw[14] = i;
		idx = oib_add_gid(dev, 1, &gid, OIB_GID_TYPE_ROCE_V2);
		if (idx < 0)
			break;
		KUNIT_ASSERT_LT(test, i, 1000);
	}
	KUNIT_EXPECT_EQ(test, -ENOSPC, idx);
}

static void port_pkey_table(struct kunit *test)
{
	struct oib_device *dev = oib_test_rxe_ports(test, 1);
	u16 index, pkey;

	KUNIT_ASSERT_EQ(test, 0, oib_find_pkey(dev, 1, 0xffff, &index));
	KUNIT_EXPECT_EQ(test, 0, index);
	/* A limited member of 0x1234 at 3 and a full member at 5: full membership wins. */
	KUNIT_ASSERT_EQ(test, 0, oib_set_pkey(dev, 1, 3, 0x1234));
	KUNIT_ASSERT_EQ(test, 0, oib_find_pkey(dev, 1, 0x9234, &index));
	KUNIT_EXPECT_EQ(test, 3, index);
	KUNIT_ASSERT_EQ(test, 0, oib_set_pkey(dev, 1, 5, 0x9234));
	KUNIT_ASSERT_EQ(test, 0, oib_find_pkey(dev, 1, 0x1234, &index));
	KUNIT_EXPECT_EQ(test, 5, index);
	KUNIT_ASSERT_EQ(test, 0, oib_query_pkey(dev, 1, 5, &pkey));
	KUNIT_EXPECT_EQ(test, 0x9234, pkey);
	KUNIT_EXPECT_EQ(test, -ENOENT, oib_find_pkey(dev, 1, 0x4321, &index));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_set_pkey(dev, 1, 9999, 1));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_set_pkey(dev, 2, 1, 1));
}

/* ---- Device events ---- */

struct ev_rec {
	struct oib_event_handler h;
	spinlock_t lock;		/* protects types, ports, n */
	enum oib_event_type types[REC_MAX];
	u32 ports[REC_MAX];
	int n;
	struct completion got;
};

static void ev_handler(struct oib_event_handler *h, struct oib_event *ev)
{
	struct ev_rec *r = container_of(h, struct ev_rec, h);

	might_sleep();		/* handlers run in process context */
	spin_lock(&r->lock);
	if (r->n < REC_MAX) {
		r->types[r->n] = ev->event;
		r->ports[r->n] = ev->element.port_num;
		r->n++;
	}
	spin_unlock(&r->lock);
	complete(&r->got);
}

static void ev_init(struct ev_rec *r, struct oib_device *dev)
{
	memset(r, 0, sizeof(*r));
	spin_lock_init(&r->lock);
	init_completion(&r->got);
	r->h.device = dev;
	r->h.handler = ev_handler;
}

static void events_port_state_and_gid(struct kunit *test)
{
	struct oib_device *dev = oib_test_rxe_ports(test, 2);
	struct oib_port_attr attr;
	union oib_gid gid = { .raw = { 0xfe, 0x80, [15] = 0x99 } };
	struct ev_rec r, r2;

	ev_init(&r, dev);
	KUNIT_ASSERT_EQ(test, 0, oib_register_event_handler(&r.h));
	/*
	 * The device's own start-up events (GID added, port active) may still be queued.  Events
	 * are delivered in order, so once a marker event of ours arrives they are all behind us.
	 */
	KUNIT_ASSERT_EQ(test, 0, oib_set_pkey(dev, 1, 1, 0x8001));
	while (!READ_ONCE(r.n) || READ_ONCE(r.types[r.n - 1]) != OIB_EVENT_PKEY_CHANGE)
		KUNIT_ASSERT_NE(test, 0UL, wait_for_completion_timeout(&r.got, 5 * HZ));
	spin_lock(&r.lock);
	r.n = 0;
	spin_unlock(&r.lock);

	KUNIT_ASSERT_EQ(test, 0, oib_rxe_set_port_state(dev, 2, false));
	KUNIT_ASSERT_EQ(test, 0, oib_query_port(dev, 2, &attr));
	KUNIT_EXPECT_EQ(test, OIB_PORT_DOWN, attr.state);
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_set_port_state(dev, 2, true));
	KUNIT_ASSERT_GE(test, oib_add_gid(dev, 1, &gid, OIB_GID_TYPE_ROCE_V2), 0);
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_rxe_set_port_state(dev, 3, true));

	/* Three events, in dispatch order. */
	while (READ_ONCE(r.n) < 3)
		KUNIT_ASSERT_NE(test, 0UL, wait_for_completion_timeout(&r.got, 5 * HZ));
	oib_unregister_event_handler(&r.h);
	KUNIT_EXPECT_EQ(test, 3, r.n);
	KUNIT_EXPECT_EQ(test, OIB_EVENT_PORT_ERR, r.types[0]);
	KUNIT_EXPECT_EQ(test, 2u, r.ports[0]);
	KUNIT_EXPECT_EQ(test, OIB_EVENT_PORT_ACTIVE, r.types[1]);
	KUNIT_EXPECT_EQ(test, OIB_EVENT_GID_CHANGE, r.types[2]);
	KUNIT_EXPECT_EQ(test, 1u, r.ports[2]);

	/*
	 * Unregistered: later events do not reach the handler.  A handler registered now sees the
	 * next event; once it has, that event's dispatch is over and r was not called.
	 */
	ev_init(&r2, dev);
	KUNIT_ASSERT_EQ(test, 0, oib_register_event_handler(&r2.h));
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_set_port_state(dev, 1, false));
	while (!READ_ONCE(r2.n))
		KUNIT_ASSERT_NE(test, 0UL, wait_for_completion_timeout(&r2.got, 5 * HZ));
	oib_unregister_event_handler(&r2.h);
	KUNIT_EXPECT_EQ(test, OIB_EVENT_PORT_ERR, r2.types[0]);
	KUNIT_EXPECT_EQ(test, 1u, r2.ports[0]);
	KUNIT_EXPECT_EQ(test, 3, r.n);
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_register_event_handler(NULL));
}

/* ---- Races: clients and devices coming and going concurrently ---- */

struct churn {
	struct oib_client client;
	atomic_t live;			/* add()s minus remove()s */
	atomic_t adds;
	bool stop;
};

static struct churn *churn_current;

static int churn_add(struct oib_device *device)
{
	atomic_inc(&churn_current->live);
	atomic_inc(&churn_current->adds);
	return 0;
}

static void churn_remove(struct oib_device *device, void *data)
{
	atomic_dec(&churn_current->live);
}

static int churn_devices(void *arg)
{
	struct churn *c = arg;
	struct oib_rxe_params p = { .num_ports = 1 };
	struct oib_device *dev;

	while (!READ_ONCE(c->stop)) {
		dev = oib_rxe_add(&p);
		if (!IS_ERR(dev))
			oib_rxe_remove(dev);
		cond_resched();
	}
	return 0;
}

static void clients_and_devices_race(struct kunit *test)
{
	struct churn c = {};
	struct task_struct *t;
	int i, ret;

	c.client.name = "churn";
	c.client.add = churn_add;
	c.client.remove = churn_remove;
	churn_current = &c;

	t = kthread_run(churn_devices, &c, "oib_churn");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	get_task_struct(t);
	for (i = 0; i < 200; i++) {
		ret = oib_register_client(&c.client);
		KUNIT_EXPECT_EQ(test, 0, ret);
		if (ret)
			break;
		cond_resched();
		oib_unregister_client(&c.client);
		/* After unregister returns, every add() has had its remove(). */
		KUNIT_EXPECT_EQ(test, 0, atomic_read(&c.live));
		if (atomic_read(&c.live))
			break;
	}
	WRITE_ONCE(c.stop, true);
	kthread_stop(t);
	put_task_struct(t);
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&c.live));
	kunit_info(test, "%d client adds raced against device churn\n", atomic_read(&c.adds));
}

static struct kunit_case oib_device_cases[] = {
	KUNIT_CASE(client_registered_before_device),
	KUNIT_CASE(client_registered_after_devices),
	KUNIT_CASE(client_not_interested),
	KUNIT_CASE(client_remove_order_is_reversed),
	KUNIT_CASE(client_invalid),
	KUNIT_CASE(device_removed_while_held),
	KUNIT_CASE(device_held_by_client_until_remove),
	KUNIT_CASE(device_lookup),
	KUNIT_CASE(device_invalid_params),
	KUNIT_CASE(device_iw_ops_by_node_type),
	KUNIT_CASE(device_names_are_unique),
	KUNIT_CASE(port_attributes),
	KUNIT_CASE(port_gid_table),
	KUNIT_CASE(port_pkey_table),
	KUNIT_CASE(events_port_state_and_gid),
	KUNIT_CASE_SLOW(clients_and_devices_race),
	{}
};

static struct kunit_suite oib_device_suite = {
	.name = "oib_core_device",
	.test_cases = oib_device_cases,
};

kunit_test_suite(oib_device_suite);

MODULE_DESCRIPTION("KUnit tests for oib_core devices, clients, ports and events");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_LICENSE("GPL");

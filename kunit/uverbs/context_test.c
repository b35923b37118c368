// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for oib_uverbs's contexts (drivers/infiniband/uverbs/{file,uobj,ioctl}.c): handles
 * and their types, objects held by an ioctl, dependents, teardown in dependency order at close
 * and at the device's removal, and the commands' checks, on an oib_rxe device.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <oib/kunit/uverbs.h>
#include "oib_toolkit.h"

struct ctx_test {
	struct oib_device *device;
	struct oib_uverbs_file *ufile;
};

static void ctx_close(void *ufile)
{
	oib_uverbs_test_close(ufile);
}

static struct oib_uverbs_file *ctx_open(struct kunit *test, struct oib_device *device)
{
	struct oib_uverbs_file *ufile = oib_uverbs_test_open(device);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ufile);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, ctx_close, ufile));
	return ufile;
}

static u32 ctx_pd(struct kunit *test, struct oib_uverbs_file *ufile)
{
	struct oib_uverbs_alloc_pd c = { .user_handle = 7 };

	KUNIT_ASSERT_EQ(test, oib_uverbs_test_cmd(ufile, OIB_UVERBS_ALLOC_PD, &c), 0);
	KUNIT_EXPECT_NE(test, c.handle, 0);
	return c.handle;
}

static u32 ctx_cq(struct kunit *test, struct oib_uverbs_file *ufile, u32 vector)
{
	struct oib_uverbs_create_cq c = { .cqe = 16, .comp_vector = vector, .channel_fd = -1 };

	KUNIT_ASSERT_EQ(test, oib_uverbs_test_cmd(ufile, OIB_UVERBS_CREATE_CQ, &c), 0);
	KUNIT_EXPECT_GE(test, c.cqe, 16);
	return c.handle;
}

static u32 ctx_qp(struct kunit *test, struct oib_uverbs_file *ufile, u32 pd, u32 cq)
{
	struct oib_uverbs_create_qp c = {
		.pd_handle = pd, .send_cq_handle = cq, .recv_cq_handle = cq,
		.qp_type = OIB_UVERBS_QPT_RC,
		.cap = { .max_send_wr = 8, .max_recv_wr = 8, .max_send_sge = 1, .max_recv_sge = 1 },
	};

	KUNIT_ASSERT_EQ(test, oib_uverbs_test_cmd(ufile, OIB_UVERBS_CREATE_QP, &c), 0);
	KUNIT_EXPECT_NE(test, c.qp_num, 0);
	return c.handle;
}

static int ctx_destroy(struct oib_uverbs_file *ufile, unsigned int nr, u32 handle)
{
	struct oib_uverbs_destroy_reported c = { .handle = handle };

	return oib_uverbs_test_cmd(ufile, nr, &c);
}

static int ctx_objects(struct oib_device *device)
{
	int type, n = 0;

	for (type = 0; type < OIB_OBJ_MAX; type++)
		n += oib_object_count(device, type);
	return n;
}

/* Handles start at 1, name one type only, and mean nothing once destroyed. */
static void context_handles(struct kunit *test)
{
	struct oib_device *device = oib_test_rxe_ports(test, 1);
	struct oib_uverbs_file *ufile = ctx_open(test, device);
	u32 pd = ctx_pd(test, ufile), cq = ctx_cq(test, ufile, 0);

	KUNIT_EXPECT_NE(test, pd, cq);
	KUNIT_EXPECT_EQ(test, ctx_destroy(ufile, OIB_UVERBS_DESTROY_CQ, pd), -EINVAL);
	KUNIT_EXPECT_EQ(test, ctx_destroy(ufile, OIB_UVERBS_DEALLOC_PD, cq), -EINVAL);
	KUNIT_EXPECT_EQ(test, ctx_destroy(ufile, OIB_UVERBS_DEALLOC_PD, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ctx_destroy(ufile, OIB_UVERBS_DEALLOC_PD, pd), 0);
	KUNIT_EXPECT_EQ(test, ctx_destroy(ufile, OIB_UVERBS_DEALLOC_PD, pd), -EINVAL);
	KUNIT_EXPECT_EQ(test, ctx_destroy(ufile, OIB_UVERBS_DESTROY_CQ, cq), 0);
	KUNIT_EXPECT_EQ(test, oib_uverbs_test_nobjects(ufile), 0);
}

/* Another context's handles are not this one's. */
static void context_foreign_handles(struct kunit *test)
{
	struct oib_device *device = oib_test_rxe_ports(test, 1);
	struct oib_uverbs_file *a = ctx_open(test, device), *b = ctx_open(test, device);
	u32 pd = ctx_pd(test, a);

	KUNIT_EXPECT_EQ(test, ctx_destroy(b, OIB_UVERBS_DEALLOC_PD, pd), -EINVAL);
	KUNIT_EXPECT_EQ(test, oib_uverbs_test_hold(b, pd), -EINVAL);
	KUNIT_EXPECT_EQ(test, oib_uverbs_test_nobjects(a), 1);
}

/* An object an ioctl holds cannot be destroyed meanwhile: -EBUSY, and fine once released. */
static void context_held_object_is_busy(struct kunit *test)
{
	struct oib_device *device = oib_test_rxe_ports(test, 1);
	struct oib_uverbs_file *ufile = ctx_open(test, device);
	u32 cq = ctx_cq(test, ufile, 0);

	KUNIT_ASSERT_EQ(test, oib_uverbs_test_hold(ufile, cq), 0);
	KUNIT_ASSERT_EQ(test, oib_uverbs_test_hold(ufile, cq), 0);	/* shared */
	KUNIT_EXPECT_EQ(test, ctx_destroy(ufile, OIB_UVERBS_DESTROY_CQ, cq), -EBUSY);
	oib_uverbs_test_release(ufile, cq);
	KUNIT_EXPECT_EQ(test, ctx_destroy(ufile, OIB_UVERBS_DESTROY_CQ, cq), -EBUSY);
	oib_uverbs_test_release(ufile, cq);
	KUNIT_EXPECT_EQ(test, ctx_destroy(ufile, OIB_UVERBS_DESTROY_CQ, cq), 0);
}

/* Objects with dependents refuse destroy; teardown at close frees all, dependents first. */
static void context_teardown_order(struct kunit *test)
{
	struct oib_device *device = oib_test_rxe_ports(test, 1);
	struct oib_uverbs_file *ufile = oib_uverbs_test_open(device);
	int base = ctx_objects(device);
	u32 pd, cq, qp;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ufile);
	pd = ctx_pd(test, ufile);
	cq = ctx_cq(test, ufile, 0);
	qp = ctx_qp(test, ufile, pd, cq);
	ctx_qp(test, ufile, pd, ctx_cq(test, ufile, device->attrs.num_comp_vectors - 1));
	KUNIT_EXPECT_EQ(test, ctx_destroy(ufile, OIB_UVERBS_DEALLOC_PD, pd), -EBUSY);
	KUNIT_EXPECT_EQ(test, ctx_destroy(ufile, OIB_UVERBS_DESTROY_CQ, cq), -EBUSY);
	KUNIT_EXPECT_EQ(test, ctx_objects(device), base + 5);
	KUNIT_EXPECT_EQ(test, ctx_destroy(ufile, OIB_UVERBS_DESTROY_QP, qp), 0);
	KUNIT_EXPECT_EQ(test, ctx_destroy(ufile, OIB_UVERBS_DESTROY_CQ, cq), 0);
	oib_uverbs_test_close(ufile);
	KUNIT_EXPECT_EQ(test, ctx_objects(device), base);
}

/* The device goes under an open context: its objects go with it, commands then fail -EIO. */
static void context_device_removal(struct kunit *test)
{
	struct oib_device *device = oib_test_rxe_ports(test, 1);
	struct oib_uverbs_file *ufile = oib_uverbs_test_open(device);
	struct oib_uverbs_query_device q = { 0 };
	u32 pd, cq;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ufile);
	pd = ctx_pd(test, ufile);
	cq = ctx_cq(test, ufile, 0);
	ctx_qp(test, ufile, pd, cq);
	oib_test_rxe_remove(test, device);	/* waits for every user: nothing may be left */
	KUNIT_EXPECT_EQ(test, oib_uverbs_test_nobjects(ufile), 0);
	KUNIT_EXPECT_EQ(test, oib_uverbs_test_cmd(ufile, OIB_UVERBS_QUERY_DEVICE, &q), -EIO);
	KUNIT_EXPECT_EQ(test, ctx_destroy(ufile, OIB_UVERBS_DEALLOC_PD, pd), -EIO);
	oib_uverbs_test_close(ufile);
}

/* The commands' own checks: reserved fields, vectors, sizes, QP types, attribute masks. */
static void context_command_checks(struct kunit *test)
{
	struct oib_device *device = oib_test_rxe_ports(test, 1);
	struct oib_uverbs_file *ufile = ctx_open(test, device);
	u32 nvec = device->attrs.num_comp_vectors, pd = ctx_pd(test, ufile);
	u32 cq = ctx_cq(test, ufile, 0), qp = ctx_qp(test, ufile, pd, cq);
	struct oib_uverbs_create_cq ccq = { .cqe = 4, .comp_vector = nvec, .channel_fd = -1 };
	struct oib_uverbs_create_qp cqp = {
		.pd_handle = pd, .send_cq_handle = cq, .recv_cq_handle = cq,
		.qp_type = 7,	/* no such type */
	};
	struct oib_uverbs_modify_qp mqp = { .handle = qp, .attr_mask = 1u << 19 };
	struct oib_uverbs_req_notify_cq rn = { .handle = cq, .notify = 2 };
	struct oib_uverbs_alloc_pd apd = { .reserved = 1 };
	struct oib_uverbs_query_port qp0 = { .port_num = 0 };

	KUNIT_EXPECT_EQ(test, oib_uverbs_test_cmd(ufile, OIB_UVERBS_CREATE_CQ, &ccq), -EINVAL);
	ccq.comp_vector = 0;
	ccq.cqe = 0;
	KUNIT_EXPECT_EQ(test, oib_uverbs_test_cmd(ufile, OIB_UVERBS_CREATE_CQ, &ccq), -EINVAL);
	KUNIT_EXPECT_EQ(test, oib_uverbs_test_cmd(ufile, OIB_UVERBS_CREATE_QP, &cqp), -EOPNOTSUPP);
	cqp.qp_type = OIB_UVERBS_QPT_XRC_INI;	/* an initiator has no receive CQ */
	KUNIT_EXPECT_EQ(test, oib_uverbs_test_cmd(ufile, OIB_UVERBS_CREATE_QP, &cqp), -EINVAL);
	cqp.qp_type = OIB_UVERBS_QPT_RC;
	cqp.cap.max_send_sge = OIB_UVERBS_MAX_SGE + 1;
	KUNIT_EXPECT_EQ(test, oib_uverbs_test_cmd(ufile, OIB_UVERBS_CREATE_QP, &cqp), -EINVAL);
	KUNIT_EXPECT_EQ(test, oib_uverbs_test_cmd(ufile, OIB_UVERBS_MODIFY_QP, &mqp), -EINVAL);
	mqp.attr_mask = OIB_UVERBS_QP_STATE;
	mqp.qp_state = 99;
	KUNIT_EXPECT_EQ(test, oib_uverbs_test_cmd(ufile, OIB_UVERBS_MODIFY_QP, &mqp), -EINVAL);
	KUNIT_EXPECT_EQ(test, oib_uverbs_test_cmd(ufile, OIB_UVERBS_REQ_NOTIFY_CQ, &rn), -EINVAL);
	KUNIT_EXPECT_EQ(test, oib_uverbs_test_cmd(ufile, OIB_UVERBS_ALLOC_PD, &apd), -EINVAL);
	KUNIT_EXPECT_EQ(test, oib_uverbs_test_cmd(ufile, OIB_UVERBS_QUERY_PORT, &qp0), -EINVAL);
	KUNIT_EXPECT_EQ(test, oib_uverbs_test_cmd(ufile, OIB_UVERBS_CMD_MAX, &qp0), -ENOTTY);
	KUNIT_EXPECT_EQ(test, oib_uverbs_test_nobjects(ufile), 3);
}

/* The port events an async event file delivered so far (sticky: a wait may ask twice). */
struct ctx_ports {
	struct oib_uverbs_event_file *ef;
	bool err, active, bad;
};

static bool ctx_port_seen(struct ctx_ports *p, u32 type)
{
	struct oib_uverbs_event ev;

	while (oib_uverbs_test_event_take(p->ef, &ev)) {
		if (ev.type == OIB_EVENT_PORT_ERR || ev.type == OIB_EVENT_PORT_ACTIVE)
			p->bad |= ev.user_handle != 1 || ev.handle;
		p->err |= ev.type == OIB_EVENT_PORT_ERR;
		p->active |= ev.type == OIB_EVENT_PORT_ACTIVE;
	}
	return type == OIB_EVENT_PORT_ERR ? p->err : p->active;
}

/*
 * Port events reach the context's async event file, naming the port (other events, such as the
 * device's own GID changes, may come between).
 */
static void context_async_port_events(struct kunit *test)
{
	struct oib_device *device = oib_test_rxe_ports(test, 1);
	struct oib_uverbs_file *ufile = ctx_open(test, device);
	struct ctx_ports p = { .ef = oib_uverbs_test_async(ufile) };

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p.ef);
	KUNIT_EXPECT_EQ(test, PTR_ERR(oib_uverbs_test_async(ufile)), -EEXIST);
	KUNIT_ASSERT_EQ(test, oib_rxe_set_port_state(device, 1, false), 0);
	KUNIT_EXPECT_TRUE(test, oib_test_wait_for(ctx_port_seen(&p, OIB_EVENT_PORT_ERR)));
	KUNIT_ASSERT_EQ(test, oib_rxe_set_port_state(device, 1, true), 0);
	KUNIT_EXPECT_TRUE(test, oib_test_wait_for(ctx_port_seen(&p, OIB_EVENT_PORT_ACTIVE)));
	KUNIT_EXPECT_FALSE(test, p.bad);
}

static struct kunit_case context_test_cases[] = {
	KUNIT_CASE(context_handles),
	KUNIT_CASE(context_foreign_handles),
	KUNIT_CASE(context_held_object_is_busy),
	KUNIT_CASE(context_teardown_order),
	KUNIT_CASE(context_device_removal),
	KUNIT_CASE(context_command_checks),
	KUNIT_CASE(context_async_port_events),
	{}
};

static struct kunit_suite context_test_suite = {
	.name = "oib_uverbs_context",
	.test_cases = context_test_cases,
};

kunit_test_suite(context_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for oib_uverbs's contexts, handles and teardown");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit end-to-end tests of oib_srpt: a target on one oib_rxe device (10.0.0.2) and, in the
 * test, a small SRP initiator on another (10.0.0.1) that logs in through oib_cma with the login
 * in the REQ's private data, registers each command's buffer with a fast-registration MR (and
 * invalidates it after), counts its credits and never sends beyond them.  Logins accepted and
 * refused, SCSI commands and their sense data, READ and WRITE with the data checked against the
 * LUN's memory (direct and indirect descriptors, and immediate data as the in-tree initiator
 * sends it), target port IDs, a pipeline held at the credit limit, logout, and the target going
 * away under a live channel.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <net/net_namespace.h>
#include <scsi/scsi_proto.h>
#include <oib/kunit/srpt.h>
#include "oib_toolkit_cma.h"

#define E2E_PORT	5555
#define E2E_LUN_BYTES	SZ_4M
#define E2E_NRECV	48
#define E2E_RECV_LEN	256
#define E2E_IU		1024
#define E2E_IMM_OFF	68	/* the in-tree initiator's: a command, 16 more CDB bytes, 4 */
#define E2E_IMM_IU	(E2E_IMM_OFF + SZ_8K)	/* and its 8 KiB: the IU it asks for */
#define E2E_IU_ALLOC	SZ_16K
#define E2E_BUF		SZ_64K
#define E2E_WAIT_MS	10000
#define E2E_RECV_BIT	BIT_ULL(63)

static const u8 e2e_port_id[16] = "oib_srpt_kunit";

/* Big-endian fields at any alignment. */
static u64 e2e_be(const u8 *p, int n)
{
	u64 v = 0;

	while (n--)
		v = v << 8 | *p++;
	return v;
}

static void e2e_put_be(u8 *p, int n, u64 v)
{
	while (n--) {
		p[n] = v;
		v >>= 8;
	}
}

/* The test's initiator. */
struct ti {
	struct kunit *test;
	struct cmat_ctx *ctx;
	struct srpt_target *t;
	struct oib_cma_id *id;
	struct oib_cq *scq, *rcq;	/* sends (with REG_MR, LOCAL_INV), receives */
	struct oib_mr *mr;
	u8 *recv[E2E_NRECV];
	u8 *iu;			/* E2E_IU_ALLOC bytes */
	u8 *buf;		/* E2E_BUF bytes, the data of every command */
	u8 key;
	/* What the handler saw: under ctx->lock, waited for on ctx->wq. */
	int events[OIB_CMA_NEVENTS];
	u8 pdata[64];
	u8 pdata_len;
	int err;
	/* The login's, and the credits: never a command without one. */
	struct oib_srp_login login;
	u32 credits;
	u32 outstanding;
	u32 max_seen;		/* most credits + outstanding ever: what the target granted */
	u32 max_outstanding;
	u32 inv_rkey;		/* the key the last response invalidated, or 0 */
	u64 next_tag;
	u64 lun;		/* of the next command */
	bool bad_opcode;	/* the next login's private data says it is no login */
	bool confirm;		/* connect with OIB_CMA_CONFIRM_REP: the test sends the RTU */
	u8 rsp_flags;		/* the LOGIN_RSP's multichannel result */
	u64 cred_tag;		/* the last CRED_REQ's */
	struct oib_srp_cmd_info cmd;
};

static int ti_make_qp(struct ti *ti)
{
	struct oib_qp_init_attr attr = {
		.send_cq = ti->scq, .recv_cq = ti->rcq, .qp_type = OIB_QPT_RC,
		.sq_sig_type = OIB_SIGNAL_REQ_WR,
		.cap = { .max_send_wr = 128, .max_recv_wr = E2E_NRECV, .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};

	return oib_cma_create_qp(ti->id, ti->ctx->a.pd, &attr);
}

static int ti_connect(struct ti *ti)
{
	u8 pdata[sizeof(struct oib_srp_login_req_rdma)];
	struct oib_cma_conn_param p = {
		.private_data = pdata, .private_data_len = sizeof(pdata),
		.responder_resources = 4, .initiator_depth = 4, .retry_count = 7,
		.rnr_retry_count = 7, .flags = ti->confirm ? OIB_CMA_CONFIRM_REP : 0,
	};

	oib_srp_pack_login_rdma(pdata, &ti->login);
	if (ti->bad_opcode)
		pdata[offsetof(struct oib_srp_login_req_rdma, opcode)] = 0x55;
	return ti_make_qp(ti) ?: oib_cma_connect(ti->id, &p);
}

static void ti_record(struct ti *ti, const struct oib_cma_event *ev)
{
	const struct oib_cma_conn_param *c = &ev->param.conn;

	spin_lock(&ti->ctx->lock);
	if (ev->event == OIB_CMA_EVENT_ESTABLISHED || ev->event == OIB_CMA_EVENT_REJECTED ||
	    ev->event == OIB_CMA_EVENT_CONNECT_RESPONSE) {
		ti->pdata_len = min_t(u8, c->private_data_len, sizeof(ti->pdata));
		memcpy(ti->pdata, c->private_data, ti->pdata_len);
	}
	ti->events[ev->event]++;
	spin_unlock(&ti->ctx->lock);
	wake_up(&ti->ctx->wq);
}

static int ti_handler(struct oib_cma_id *id, struct oib_cma_event *ev)
{
	struct ti *ti = id->context;
	int err = 0;

	if (ev->event == OIB_CMA_EVENT_ADDR_RESOLVED)
		err = oib_cma_resolve_route(id, 2000);
	else if (ev->event == OIB_CMA_EVENT_ROUTE_RESOLVED)
		err = ti_connect(ti);
	if (err)
		ti->err = err;
	ti_record(ti, ev);
	return 0;
}

static bool ti_wait(struct ti *ti, enum oib_cma_event_type ev)
{
	return wait_event_timeout(ti->ctx->wq, READ_ONCE(ti->events[ev]) > 0,
				  msecs_to_jiffies(E2E_WAIT_MS)) > 0;
}

static void ti_release(void *data)
{
	struct ti *ti = data;

	if (!ti->id)
		return;
	oib_cma_destroy_qp(ti->id);
	oib_cma_destroy_id(ti->id);
	ti->id = NULL;
}

static void ti_target_release(void *data)
{
	srpt_target_destroy(data);
}

/* A channel's initiator objects on a, to @t (an initiator port of 0x11 bytes). */
static struct ti *ti_alloc(struct kunit *test, struct cmat_ctx *ctx, struct srpt_target *t)
{
	struct ti *ti = kunit_kzalloc(test, sizeof(*ti), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, ti);
	ti->test = test;
	ti->ctx = ctx;
	ti->t = t;
	ti->scq = oib_test_cq(test, ti->ctx->a.dev, 256);
	ti->rcq = oib_test_cq(test, ti->ctx->a.dev, 256);
	ti->mr = oib_test_alloc_mr(test, ti->ctx->a.pd, E2E_BUF / PAGE_SIZE);
	ti->buf = kunit_kzalloc(test, E2E_BUF, GFP_KERNEL);
	ti->iu = kunit_kzalloc(test, E2E_IU_ALLOC, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ti->buf);
	KUNIT_ASSERT_NOT_NULL(test, ti->iu);
	for (i = 0; i < E2E_NRECV; i++) {
		ti->recv[i] = kunit_kzalloc(test, E2E_RECV_LEN, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, ti->recv[i]);
	}
	ti->login.tag = 0x10;
	ti->login.it_iu_len = E2E_IU;
	ti->login.buf_fmt = OIB_SRP_BUF_FMT_DIRECT | OIB_SRP_BUF_FMT_INDIRECT;
	memcpy(ti->login.target_port_id, e2e_port_id, 16);
	memset(ti->login.initiator_port_id, 0x11, 16);
	return ti;
}

/* Devices, the target on b's port E2E_PORT, and the initiator's objects on a. */
static struct ti *ti_setup(struct kunit *test)
{
	struct cmat_ctx *ctx = cmat_ctx(test);
	struct sockaddr_storage any = {};
	struct srpt_target *t;

	((struct sockaddr_in *)&any)->sin_family = AF_INET;
	((struct sockaddr_in *)&any)->sin_port = htons(E2E_PORT);
	t = srpt_target_create((struct sockaddr *)&any, e2e_port_id, 2, E2E_LUN_BYTES);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, ti_target_release, t));
	return ti_alloc(test, ctx, t);
}

static bool ti_answered(struct ti *ti)
{
	return READ_ONCE(ti->events[OIB_CMA_EVENT_ESTABLISHED]) ||
	       READ_ONCE(ti->events[OIB_CMA_EVENT_REJECTED]) ||
	       READ_ONCE(ti->events[OIB_CMA_EVENT_CONNECT_RESPONSE]);
}

/* Log in from a to b's E2E_PORT: 0 and the answer in ti->pdata, or the CM's refusal. */
static void ti_login(struct ti *ti)
{
	struct kunit *test = ti->test;
	struct sockaddr_storage src, dst;

	cmat_addr(&src, false, 1, 0);
	cmat_addr(&dst, false, 2, E2E_PORT);
	ti->id = oib_cma_create_id(&init_net, ti_handler, ti, OIB_PS_TCP, OIB_QPT_RC);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ti->id);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, ti_release, ti));
	KUNIT_ASSERT_EQ(test, 0, oib_cma_resolve_addr(ti->id, (struct sockaddr *)&src,
						      (struct sockaddr *)&dst, 2000));
	KUNIT_ASSERT_TRUE(test, wait_event_timeout(ti->ctx->wq, ti_answered(ti),
						   msecs_to_jiffies(E2E_WAIT_MS)) > 0);
	KUNIT_EXPECT_EQ(test, ti->err, 0);
}

static int ti_post_recv(struct ti *ti, int i)
{
	struct oib_sge sge = { .addr = (uintptr_t)ti->recv[i], .length = E2E_RECV_LEN,
			       .lkey = ti->ctx->a.pd->local_dma_lkey };
	struct oib_recv_wr wr = { .wr_id = E2E_RECV_BIT | i, .sg_list = &sge, .num_sge = 1 };

	return oib_post_recv(ti->id->qp, &wr, NULL);
}

/* A successful login: the LOGIN_RSP checked, every receive posted, the credits taken. */
static void ti_login_ok(struct ti *ti)
{
	struct kunit *test = ti->test;
	struct oib_srp_login_answer a;
	int i;

	ti_login(ti);
	KUNIT_ASSERT_EQ(test, ti->events[ti->confirm ? OIB_CMA_EVENT_CONNECT_RESPONSE :
					 OIB_CMA_EVENT_ESTABLISHED], 1);
	KUNIT_ASSERT_EQ(test, oib_srp_parse_login_answer(ti->pdata, ti->pdata_len, &a),
			OIB_SRP_LOGIN_RSP);
	KUNIT_EXPECT_EQ(test, a.tag, ti->login.tag);
	KUNIT_EXPECT_EQ(test, a.max_it_iu_len, ti->login.it_iu_len);
	KUNIT_EXPECT_LE(test, a.max_ti_iu_len, E2E_RECV_LEN);
	KUNIT_EXPECT_EQ(test, a.buf_fmt, OIB_SRP_BUF_FMT_DIRECT | OIB_SRP_BUF_FMT_INDIRECT);
	KUNIT_ASSERT_GT(test, a.req_lim_delta, 0);
	KUNIT_ASSERT_LE(test, a.req_lim_delta, E2E_NRECV);
	ti->credits = a.req_lim_delta;
	ti->max_seen = ti->credits;
	ti->rsp_flags = a.flags;
	for (i = 0; i < E2E_NRECV; i++)
		KUNIT_ASSERT_EQ(test, ti_post_recv(ti, i), 0);
}

/* Register ti->buf's first @len bytes under a new key (unsignaled, before the command). */
static void ti_reg_wr(struct ti *ti, struct oib_send_wr *wr, u32 len)
{
	struct scatterlist sg;

	sg_init_one(&sg, ti->buf, len);
	KUNIT_ASSERT_EQ(ti->test, oib_map_mr_sg(ti->mr, &sg, 1, NULL, PAGE_SIZE), 1);
	KUNIT_ASSERT_EQ(ti->test, oib_update_fast_reg_key(ti->mr, ++ti->key), 0);
	*wr = (struct oib_send_wr){ .opcode = OIB_WR_REG_MR };
	wr->wr.reg.mr = ti->mr;
	wr->wr.reg.key = ti->mr->rkey;
	wr->wr.reg.access = OIB_ACCESS_LOCAL_WRITE | OIB_ACCESS_REMOTE_READ |
			    OIB_ACCESS_REMOTE_WRITE;
}

/* Send one IU of @len bytes from ti->iu, after @reg (a REG_MR) if given. */
static void ti_send_raw(struct ti *ti, u32 len, struct oib_send_wr *reg)
{
	struct oib_sge sge = { .addr = (uintptr_t)ti->iu, .length = len,
			       .lkey = ti->ctx->a.pd->local_dma_lkey };
	struct oib_send_wr wr = { .wr_id = 1, .sg_list = &sge, .num_sge = 1,
				  .opcode = OIB_WR_SEND, .send_flags = OIB_SEND_SIGNALED };
	struct oib_wc wc;

	if (reg)
		reg->next = &wr;
	KUNIT_ASSERT_EQ(ti->test, oib_post_send(ti->id->qp, reg ?: &wr, NULL), 0);
	KUNIT_ASSERT_EQ(ti->test, oib_test_poll_cq_ms(ti->scq, &wc, 1, E2E_WAIT_MS), 1);
	KUNIT_ASSERT_EQ(ti->test, wc.status, OIB_WC_SUCCESS);
	KUNIT_ASSERT_EQ(ti->test, wc.wr_id, 1);
}

/* The next response: parsed into @rsp (sense copied to @sense), credits added, reposted. */
static void ti_recv_rsp(struct ti *ti, struct oib_srp_rsp_info *rsp, u8 *sense)
{
	struct kunit *test = ti->test;
	struct oib_wc wc;
	int i;

	KUNIT_ASSERT_EQ(test, oib_test_poll_cq_ms(ti->rcq, &wc, 1, E2E_WAIT_MS), 1);
	KUNIT_ASSERT_EQ(test, wc.status, OIB_WC_SUCCESS);
	KUNIT_ASSERT_TRUE(test, wc.wr_id & E2E_RECV_BIT);
	i = wc.wr_id & ~E2E_RECV_BIT;
	KUNIT_ASSERT_EQ(test, oib_srp_parse_rsp(ti->recv[i], wc.byte_len, rsp), 0);
	ti->inv_rkey = wc.wc_flags & OIB_WC_WITH_INVALIDATE ? wc.ex.invalidate_rkey : 0;
	if (sense && rsp->sense_len)
		memcpy(sense, rsp->sense, min_t(u32, rsp->sense_len, SRPT_SENSE_LEN));
	rsp->sense = NULL;
	ti->credits += rsp->req_lim_delta;
	ti->outstanding--;
	ti->max_seen = max(ti->max_seen, ti->credits + ti->outstanding);
	KUNIT_EXPECT_LE(test, ti->credits + ti->outstanding, SRPT_RQ_SIZE);
	KUNIT_ASSERT_EQ(test, ti_post_recv(ti, i), 0);
}

/*
 * The next IU is a CRED_REQ: its delta added (what it gives back was outstanding), answered
 * with a CRED_RSP of its tag (no credit).  Its delta.
 */
static u32 ti_cred_req(struct ti *ti)
{
	struct kunit *test = ti->test;
	struct oib_wc wc;
	u32 delta;
	u64 tag;
	int i;

	KUNIT_ASSERT_EQ(test, oib_test_poll_cq_ms(ti->rcq, &wc, 1, E2E_WAIT_MS), 1);
	KUNIT_ASSERT_EQ(test, wc.status, OIB_WC_SUCCESS);
	i = wc.wr_id & ~E2E_RECV_BIT;
	KUNIT_ASSERT_EQ(test, oib_srp_parse_small(ti->recv[i], wc.byte_len, OIB_SRP_CRED_REQ,
						  &tag, &delta), 0);
	KUNIT_EXPECT_NE(test, tag, ti->cred_tag);	/* each its own */
	KUNIT_ASSERT_LE(test, delta, ti->outstanding);
	ti->cred_tag = tag;
	ti->credits += delta;
	ti->outstanding -= delta;
	ti->max_seen = max(ti->max_seen, ti->credits + ti->outstanding);
	KUNIT_EXPECT_LE(test, ti->credits + ti->outstanding, SRPT_RQ_SIZE);
	KUNIT_ASSERT_EQ(test, ti_post_recv(ti, i), 0);
	oib_srp_pack_small(ti->iu, OIB_SRP_CRED_RSP, tag, 0);
	ti_send_raw(ti, sizeof(struct oib_srp_tag_iu), NULL);
	return delta;
}

/* A request: one credit, never sent without it. */
static void ti_send(struct ti *ti, u32 len, struct oib_send_wr *reg)
{
	KUNIT_ASSERT_GT(ti->test, ti->credits, 0);
	ti->credits--;
	ti->outstanding++;
	ti->max_outstanding = max(ti->max_outstanding, ti->outstanding);
	ti_send_raw(ti, len, reg);
}

/* @n IUs nobody takes (an unknown opcode), each with a credit as every request. */
static void ti_send_junk(struct ti *ti, u32 n)
{
	while (n--) {
		memset(ti->iu, 0, 64);
		ti->iu[0] = 0x55;
		ti_send(ti, 64, NULL);
	}
}

static void ti_invalidate(struct ti *ti)
{
	struct oib_send_wr wr = { .wr_id = 2, .opcode = OIB_WR_LOCAL_INV,
				  .send_flags = OIB_SEND_SIGNALED };
	struct oib_wc wc;

	wr.ex.invalidate_rkey = ti->mr->rkey;
	KUNIT_ASSERT_EQ(ti->test, oib_post_send(ti->id->qp, &wr, NULL), 0);
	KUNIT_ASSERT_EQ(ti->test, oib_test_poll_cq_ms(ti->scq, &wc, 1, E2E_WAIT_MS), 1);
	KUNIT_ASSERT_EQ(ti->test, wc.status, OIB_WC_SUCCESS);
	KUNIT_ASSERT_EQ(ti->test, wc.wr_id, 2);
}

/* Pack a command on ti->buf's first @len bytes, split over @nbufs descriptors, and send it. */
static void ti_cmd_send(struct ti *ti, const u8 *cdb, u32 cdb_len, enum oib_srp_data_dir dir,
			u32 len, u32 nbufs)
{
	struct oib_srp_cmd_info *c = &ti->cmd;
	struct oib_send_wr reg;
	u32 i, off = 0;
	int iu_len;

	memset(c, 0, sizeof(*c));
	c->tag = ++ti->next_tag;
	c->lun = ti->lun;
	memcpy(c->cdb, cdb, cdb_len);
	c->dir = len ? dir : OIB_SRP_DATA_NONE;
	c->nbufs = len ? nbufs : 0;
	if (len)
		ti_reg_wr(ti, &reg, len);
	for (i = 0; i < c->nbufs; i++) {
		c->bufs[i].va = ti->mr->iova + off;
		c->bufs[i].key = ti->mr->rkey;
		c->bufs[i].len = i == nbufs - 1 ? len - off : len / nbufs;
		off += c->bufs[i].len;
	}
	c->table.va = (uintptr_t)ti->iu + sizeof(struct oib_srp_cmd) +
		      sizeof(struct oib_srp_indirect_buf);
	iu_len = oib_srp_pack_cmd(ti->iu, E2E_IU, c);
	KUNIT_ASSERT_GT(ti->test, iu_len, 0);
	ti_send(ti, iu_len, len ? &reg : NULL);
}

/* One command, start to end: its response in @rsp, sense data in @sense (18 bytes). */
static void ti_cmd(struct ti *ti, const u8 *cdb, u32 cdb_len, enum oib_srp_data_dir dir,
		   u32 len, u32 nbufs, struct oib_srp_rsp_info *rsp, u8 *sense)
{
	u64 tag;

	ti_cmd_send(ti, cdb, cdb_len, dir, len, nbufs);
	tag = ti->cmd.tag;
	ti_recv_rsp(ti, rsp, sense);
	KUNIT_EXPECT_EQ(ti->test, rsp->tag, tag);
	/* a command with descriptors: its response invalidated their key (SEND with invalidate) */
	KUNIT_EXPECT_EQ(ti->test, ti->inv_rkey, len ? ti->mr->rkey : 0);
	if (len)
		ti_invalidate(ti);	/* an initiator that invalidates anyway: still succeeds */
}

/* A command that must end GOOD. */
static void ti_good(struct ti *ti, const u8 *cdb, u32 cdb_len, enum oib_srp_data_dir dir,
		    u32 len, u32 nbufs)
{
	struct oib_srp_rsp_info rsp;

	ti_cmd(ti, cdb, cdb_len, dir, len, nbufs, &rsp, NULL);
	KUNIT_EXPECT_EQ_MSG(ti->test, rsp.status, SAM_STAT_GOOD, "opcode 0x%02x", cdb[0]);
}

/* A command that must end in CHECK CONDITION with @key and @asc. */
static void ti_check(struct ti *ti, const u8 *cdb, u32 cdb_len, u32 len, u8 key, u8 asc)
{
	struct oib_srp_rsp_info rsp;
	u8 sense[SRPT_SENSE_LEN] = {};

	ti_cmd(ti, cdb, cdb_len, OIB_SRP_DATA_IN, len, 1, &rsp, sense);
	KUNIT_EXPECT_EQ_MSG(ti->test, rsp.status, SAM_STAT_CHECK_CONDITION, "op 0x%02x", cdb[0]);
	KUNIT_EXPECT_EQ(ti->test, rsp.sense_len, SRPT_SENSE_LEN);
	KUNIT_EXPECT_EQ(ti->test, sense[0], 0x70);
	KUNIT_EXPECT_EQ(ti->test, sense[2] & 0xf, key);
	KUNIT_EXPECT_EQ(ti->test, sense[12], asc);
}

static bool ti_wait_channels(struct ti *ti, int n)
{
	int i;

	for (i = 0; i < E2E_WAIT_MS / 20; i++) {
		if (atomic_read(&srpt_target_stats(ti->t)->channels) == n)
			return true;
		msleep(20);
	}
	return false;
}

static void e2e_test_login_logout(struct kunit *test)
{
	static const u8 tur[6] = { TEST_UNIT_READY };
	struct ti *ti = ti_setup(test);
	struct srpt_stats *st = srpt_target_stats(ti->t);

	ti_login_ok(ti);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->logins), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->channels), 1);
	KUNIT_EXPECT_EQ(test, ti->credits, SRPT_RQ_SIZE);
	ti_good(ti, tur, sizeof(tur), OIB_SRP_DATA_NONE, 0, 0);
	oib_srp_pack_small(ti->iu, OIB_SRP_I_LOGOUT, 0x99, 0);
	ti_send_raw(ti, sizeof(struct oib_srp_tag_iu), NULL);
	KUNIT_EXPECT_TRUE(test, ti_wait(ti, OIB_CMA_EVENT_DISCONNECTED));
	KUNIT_EXPECT_TRUE(test, ti_wait_channels(ti, 0));
	KUNIT_EXPECT_EQ(test, atomic_read(&st->over_limit), 0);
}

/* A login the target must refuse with LOGIN_REJ @reason. */
static void e2e_refused(struct ti *ti, u32 reason)
{
	struct kunit *test = ti->test;
	struct oib_srp_login_answer a;

	memset(ti->events, 0, sizeof(ti->events));
	ti_login(ti);
	KUNIT_EXPECT_EQ(test, ti->events[OIB_CMA_EVENT_ESTABLISHED], 0);
	KUNIT_ASSERT_EQ(test, ti->events[OIB_CMA_EVENT_REJECTED], 1);
	KUNIT_ASSERT_EQ(test, oib_srp_parse_login_answer(ti->pdata, ti->pdata_len, &a),
			OIB_SRP_LOGIN_REJ);
	KUNIT_EXPECT_EQ(test, a.reason, reason);
	KUNIT_EXPECT_EQ(test, a.tag, ti->bad_opcode ? 0 : ti->login.tag);
	kunit_release_action(test, ti_release, ti);
}

static void e2e_test_bad_logins(struct kunit *test)
{
	struct ti *ti = ti_setup(test);
	struct srpt_stats *st = srpt_target_stats(ti->t);

	ti->login.target_port_id[0] ^= 1;
	e2e_refused(ti, OIB_SRP_REJ_UNABLE_ASSOCIATE_CHANNEL);
	ti->login.target_port_id[0] ^= 1;
	ti->login.it_iu_len = 64 * 1024;
	e2e_refused(ti, OIB_SRP_REJ_IT_IU_LEN_TOO_LARGE);
	ti->login.it_iu_len = 80 + 4 + SZ_8K + 1;	/* one byte more than the in-tree target */
	e2e_refused(ti, OIB_SRP_REJ_IT_IU_LEN_TOO_LARGE);
	ti->login.it_iu_len = E2E_IU;
	ti->bad_opcode = true;
	e2e_refused(ti, OIB_SRP_REJ_UNABLE_ESTABLISH_CHANNEL);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->rejects), 4);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->logins), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->channels), 0);
	/* and a good one still gets in */
	ti->bad_opcode = false;
	memset(ti->events, 0, sizeof(ti->events));
	ti_login_ok(ti);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->logins), 1);
}

static void e2e_test_scsi(struct kunit *test)
{
	static const u8 inq[6] = { INQUIRY, 0, 0, 0, 96 };
	static const u8 vpd0[6] = { INQUIRY, 1, 0x00, 0, 255 };
	static const u8 vpd80[6] = { INQUIRY, 1, 0x80, 0, 255 };
	static const u8 vpd83[6] = { INQUIRY, 1, 0x83, 0, 255 };
	static const u8 vpd_bad[6] = { INQUIRY, 1, 0x42, 0, 255 };
	static const u8 cap10[10] = { READ_CAPACITY };
	static const u8 cap16[16] = { SERVICE_ACTION_IN_16, SAI_READ_CAPACITY_16, [13] = 32 };
	static const u8 luns[12] = { REPORT_LUNS, [9] = 64 };
	static const u8 ms6[6] = { MODE_SENSE, 0, 0x3f, 0, 255 };
	static const u8 ms10_bad[10] = { MODE_SENSE_10, 0, 0x1c, [8] = 255 };
	static const u8 sync10[10] = { SYNCHRONIZE_CACHE };
	static const u8 tur[6] = { TEST_UNIT_READY };
	static const u8 bogus[6] = { 0xee };
	static const u8 past_end[10] = { READ_10, 0, 0, 0, 0x20, 0, 0, 0, 8 };	/* LBA 8192 */
	struct ti *ti = ti_setup(test);
	struct oib_srp_rsp_info rsp;
	u64 blocks = E2E_LUN_BYTES / SRPT_BLOCK_SIZE;

	ti_login_ok(ti);
	ti_cmd(ti, inq, sizeof(inq), OIB_SRP_DATA_IN, 96, 1, &rsp, NULL);
	KUNIT_EXPECT_EQ(test, rsp.status, SAM_STAT_GOOD);
	KUNIT_EXPECT_EQ(test, ti->buf[0], TYPE_DISK);
	KUNIT_EXPECT_MEMEQ(test, ti->buf + 8, "OIB     ", 8);
	KUNIT_EXPECT_TRUE(test, rsp.flags & OIB_SRP_RSP_DIUNDER);
	KUNIT_EXPECT_EQ(test, rsp.data_in_res_cnt, 96 - 36);
	ti_good(ti, vpd0, sizeof(vpd0), OIB_SRP_DATA_IN, 255, 1);
	KUNIT_EXPECT_EQ(test, ti->buf[1], 0x00);
	KUNIT_EXPECT_EQ(test, ti->buf[3], 3);
	KUNIT_EXPECT_EQ(test, ti->buf[6], 0x83);
	ti_good(ti, vpd80, sizeof(vpd80), OIB_SRP_DATA_IN, 255, 1);
	KUNIT_EXPECT_EQ(test, ti->buf[1], 0x80);
	KUNIT_EXPECT_EQ(test, ti->buf[3], 8);
	ti_good(ti, vpd83, sizeof(vpd83), OIB_SRP_DATA_IN, 255, 1);
	KUNIT_EXPECT_EQ(test, ti->buf[1], 0x83);
	KUNIT_EXPECT_EQ(test, ti->buf[5] & 0xf, 1);	/* T10 vendor ID */
	KUNIT_EXPECT_MEMEQ(test, ti->buf + 8, "OIB     ", 8);
	ti_check(ti, vpd_bad, sizeof(vpd_bad), 255, ILLEGAL_REQUEST, 0x24);
	ti_good(ti, cap10, sizeof(cap10), OIB_SRP_DATA_IN, 8, 1);
	KUNIT_EXPECT_EQ(test, e2e_be(ti->buf, 4), blocks - 1);
	KUNIT_EXPECT_EQ(test, e2e_be(ti->buf + 4, 4), SRPT_BLOCK_SIZE);
	ti_good(ti, cap16, sizeof(cap16), OIB_SRP_DATA_IN, 32, 1);
	KUNIT_EXPECT_EQ(test, e2e_be(ti->buf, 8), blocks - 1);
	ti_good(ti, luns, sizeof(luns), OIB_SRP_DATA_IN, 64, 1);
	KUNIT_EXPECT_EQ(test, e2e_be(ti->buf, 4), 16);
	KUNIT_EXPECT_EQ(test, ti->buf[8 + 8 + 1], 1);
	ti_good(ti, ms6, sizeof(ms6), OIB_SRP_DATA_IN, 255, 1);
	KUNIT_EXPECT_EQ(test, ti->buf[0], 3 + 20);
	KUNIT_EXPECT_EQ(test, ti->buf[4], 0x08);
	ti_check(ti, ms10_bad, sizeof(ms10_bad), 255, ILLEGAL_REQUEST, 0x24);
	ti_good(ti, sync10, sizeof(sync10), OIB_SRP_DATA_NONE, 0, 0);
	ti_good(ti, tur, sizeof(tur), OIB_SRP_DATA_NONE, 0, 0);
	ti_check(ti, bogus, sizeof(bogus), 0, ILLEGAL_REQUEST, 0x20);
	ti_check(ti, past_end, sizeof(past_end), 4096, ILLEGAL_REQUEST, 0x21);
	ti->lun = 7;
	ti_check(ti, tur, sizeof(tur), 0, ILLEGAL_REQUEST, 0x25);
	ti_good(ti, inq, sizeof(inq), OIB_SRP_DATA_IN, 96, 1);
	KUNIT_EXPECT_EQ(test, ti->buf[0], 0x7f);
}

static void e2e_fill(u8 *p, u32 len, u32 seed)
{
	u32 i;

	for (i = 0; i < len; i++)
		p[i] = (i * 7 + seed) ^ (i >> 9);
}

/* WRITE @len bytes at @lba of ti->lun over @nbufs descriptors, check the LUN, READ them back. */
static void e2e_rw(struct ti *ti, u32 lba, u32 len, u32 nbufs, bool sixteen, u32 seed)
{
	struct kunit *test = ti->test;
	u8 *mem = srpt_target_lun_mem(ti->t, ti->lun);
	u8 cdb[16] = {};
	u32 cdb_len;

	if (sixteen) {
		cdb[0] = WRITE_16;
		e2e_put_be(cdb + 2, 8, lba);
		e2e_put_be(cdb + 10, 4, len / SRPT_BLOCK_SIZE);
		cdb_len = 16;
	} else {
		cdb[0] = WRITE_10;
		e2e_put_be(cdb + 2, 4, lba);
		e2e_put_be(cdb + 7, 2, len / SRPT_BLOCK_SIZE);
		cdb_len = 10;
	}
	e2e_fill(ti->buf, len, seed);
	ti_good(ti, cdb, cdb_len, OIB_SRP_DATA_OUT, len, nbufs);
	KUNIT_EXPECT_MEMEQ(test, mem + (u64)lba * SRPT_BLOCK_SIZE, ti->buf, len);
	memset(ti->buf, 0, len);
	cdb[0] = sixteen ? READ_16 : READ_10;
	ti_good(ti, cdb, cdb_len, OIB_SRP_DATA_IN, len, nbufs);
	KUNIT_EXPECT_MEMEQ(test, mem + (u64)lba * SRPT_BLOCK_SIZE, ti->buf, len);
	e2e_fill(ti->iu, 64, seed);	/* the buffer came back as written */
	KUNIT_EXPECT_MEMEQ(test, ti->buf, ti->iu, 64);
}

static void e2e_test_read_write(struct kunit *test)
{
	struct ti *ti = ti_setup(test);
	u8 *lun1 = srpt_target_lun_mem(ti->t, 1);

	ti_login_ok(ti);
	e2e_rw(ti, 100, E2E_BUF, 1, false, 1);
	e2e_rw(ti, 1000, E2E_BUF, 4, true, 2);
	e2e_rw(ti, 8191, SRPT_BLOCK_SIZE, 1, true, 3);	/* the last block */
	e2e_rw(ti, 3, 3 * SRPT_BLOCK_SIZE, 3, false, 4);
	e2e_rw(ti, 5000, E2E_BUF, OIB_SRP_MAX_BUFS, false, 5);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(lun1, 0, E2E_LUN_BYTES));
	ti->lun = 1;
	e2e_rw(ti, 0, 8 * SRPT_BLOCK_SIZE, 2, false, 6);
	KUNIT_EXPECT_EQ(test, atomic_read(&srpt_target_stats(ti->t)->over_limit), 0);
}

/* Commands kept at the credit limit for a while: never one beyond it, all answered. */
static void e2e_test_credits(struct kunit *test)
{
	static const u8 tur[6] = { TEST_UNIT_READY };
	struct ti *ti = ti_setup(test);
	struct srpt_stats *st = srpt_target_stats(ti->t);
	struct oib_srp_rsp_info rsp;
	int sent = 0, done = 0;

	ti_login_ok(ti);
	while (done < 400) {
		while (ti->credits && sent < 400) {
			ti_cmd_send(ti, tur, sizeof(tur), OIB_SRP_DATA_NONE, 0, 0);
			sent++;
		}
		ti_recv_rsp(ti, &rsp, NULL);
		KUNIT_ASSERT_EQ(test, rsp.status, SAM_STAT_GOOD);
		done++;
	}
	KUNIT_EXPECT_EQ(test, ti->max_outstanding, SRPT_RQ_SIZE);
	KUNIT_EXPECT_LE(test, ti->max_seen, SRPT_RQ_SIZE);
	KUNIT_EXPECT_EQ(test, ti->credits, SRPT_RQ_SIZE);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->over_limit), 0);
	KUNIT_EXPECT_LE(test, atomic_read(&st->max_in_flight), SRPT_RQ_SIZE);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->cmds), 400);

	/*
	 * An IU nobody takes is dropped and counted, its credit given back in a CRED_REQ; a
	 * CRED_RSP answering none is dropped too; the channel serves on.
	 */
	ti_send_junk(ti, 1);
	KUNIT_EXPECT_EQ(test, ti_cred_req(ti), 1);
	oib_srp_pack_small(ti->iu, OIB_SRP_CRED_RSP, 1234, 0);
	ti_send_raw(ti, 16, NULL);
	ti_good(ti, tur, sizeof(tur), OIB_SRP_DATA_NONE, 0, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->dropped), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->over_limit), 0);
}

/*
 * Credits no response carries: IUs dropped unanswered give theirs back in CRED_REQs, one at a
 * time (the next after our CRED_RSP, with the tag echoed), until the initiator holds all it had;
 * never more than SRPT_RQ_SIZE in the initiator's hands or on the way.  CRED_RSPs of a bad
 * length, or with no CRED_REQ outstanding, are dropped and bring no credit.
 */
static void e2e_test_cred_req(struct kunit *test)
{
	static const u8 tur[6] = { TEST_UNIT_READY };
	struct ti *ti = ti_setup(test);
	struct srpt_stats *st = srpt_target_stats(ti->t);
	u32 reqs = 0;

	ti_login_ok(ti);
	ti_send_junk(ti, 8);
	while (ti->credits < SRPT_RQ_SIZE && reqs < 8) {
		KUNIT_ASSERT_GT(test, ti_cred_req(ti), 0);
		reqs++;
	}
	KUNIT_EXPECT_EQ(test, ti->credits, SRPT_RQ_SIZE);
	KUNIT_EXPECT_EQ(test, ti->outstanding, 0);
	KUNIT_EXPECT_GE(test, reqs, 2);		/* the first went with 1, the rest after it */
	KUNIT_EXPECT_EQ(test, atomic_read(&st->cred_reqs), reqs);
	oib_srp_pack_small(ti->iu, OIB_SRP_CRED_RSP, ti->cred_tag, 0);
	ti_send_raw(ti, 8, NULL);		/* too short */
	ti_send_raw(ti, 16, NULL);		/* answers nothing outstanding */
	ti_good(ti, tur, sizeof(tur), OIB_SRP_DATA_NONE, 0, 0);	/* no CRED_REQ came first */
	KUNIT_EXPECT_EQ(test, atomic_read(&st->dropped), 8 + 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->over_limit), 0);
	KUNIT_EXPECT_EQ(test, ti->max_seen, SRPT_RQ_SIZE);
}

/* Task management: an abort is answered with a response code. */
static void e2e_test_tsk_mgmt(struct kunit *test)
{
	struct oib_srp_tsk_info tsk = { .tag = 77, .func = OIB_SRP_TSK_ABORT_TASK, .task_tag = 3 };
	struct ti *ti = ti_setup(test);
	struct oib_srp_rsp_info rsp;

	ti_login_ok(ti);
	oib_srp_pack_tsk_mgmt(ti->iu, &tsk);
	ti_send(ti, sizeof(struct oib_srp_tsk_mgmt), NULL);
	ti_recv_rsp(ti, &rsp, NULL);
	KUNIT_EXPECT_EQ(test, rsp.tag, 77);
	KUNIT_EXPECT_TRUE(test, rsp.flags & OIB_SRP_RSP_RSPVALID);
	KUNIT_EXPECT_EQ(test, rsp.resp_code, 0);
	tsk.func = OIB_SRP_TSK_CLEAR_ACA;
	oib_srp_pack_tsk_mgmt(ti->iu, &tsk);
	ti_send(ti, sizeof(struct oib_srp_tsk_mgmt), NULL);
	ti_recv_rsp(ti, &rsp, NULL);
	KUNIT_EXPECT_EQ(test, rsp.resp_code, 4);
	KUNIT_EXPECT_EQ(test, atomic_read(&srpt_target_stats(ti->t)->tsk_mgmt), 2);
}

/*
 * The 2006 design thread's case: the target accepted with its QP in RTR and must serve what
 * comes before the RTU.  The test holds the RTU back (OIB_CMA_CONFIRM_REP), moves its own QP to
 * RTS and sends commands: the target's first receive establishes its side (the CM's QP watch),
 * its responses leave, and only then does the test send the RTU.
 */
static void e2e_test_before_rtu(struct kunit *test)
{
	static const u8 inq[6] = { INQUIRY, 0, 0, 0, 36 };
	static const u8 tur[6] = { TEST_UNIT_READY };
	struct oib_qp_attr attr = { .qp_state = OIB_QPS_RTS };
	struct ti *ti = ti_setup(test);
	int mask;

	ti->confirm = true;
	ti_login_ok(ti);
	KUNIT_ASSERT_EQ(test, oib_cma_init_qp_attr(ti->id, &attr, &mask), 0);
	KUNIT_ASSERT_EQ(test, oib_modify_qp(ti->id->qp, &attr, mask), 0);
	ti_good(ti, tur, sizeof(tur), OIB_SRP_DATA_NONE, 0, 0);
	ti_good(ti, inq, sizeof(inq), OIB_SRP_DATA_IN, 36, 1);
	KUNIT_EXPECT_MEMEQ(test, ti->buf + 8, "OIB     ", 8);
	KUNIT_EXPECT_EQ(test, ti->events[OIB_CMA_EVENT_ESTABLISHED], 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&srpt_target_stats(ti->t)->cmds), 2);
	KUNIT_ASSERT_EQ(test, oib_cma_accept(ti->id, NULL), 0);
	KUNIT_EXPECT_TRUE(test, ti_wait(ti, OIB_CMA_EVENT_ESTABLISHED));
	ti_good(ti, tur, sizeof(tur), OIB_SRP_DATA_NONE, 0, 0);
}

/* Another channel to the target of @ti, from initiator port @port, with multichannel @flags. */
static struct ti *e2e_channel(struct ti *ti, u8 port, u8 flags)
{
	struct ti *c = ti_alloc(ti->test, ti->ctx, ti->t);

	memset(c->login.initiator_port_id, port, 16);
	c->login.flags = flags;
	ti_login_ok(c);
	return c;
}

/* The next IU @ti receives is an SRP_T_LOGOUT (or its receives flush without one: false). */
static bool ti_got_t_logout(struct ti *ti)
{
	struct oib_wc wc;
	u32 reason;
	u64 tag;

	if (oib_test_poll_cq_ms(ti->rcq, &wc, 1, E2E_WAIT_MS) != 1 || wc.status != OIB_WC_SUCCESS)
		return false;
	return !oib_srp_parse_small(ti->recv[wc.wr_id & ~E2E_RECV_BIT], wc.byte_len,
				    OIB_SRP_T_LOGOUT, &tag, &reason);
}

static bool e2e_live(struct ti *ti, u32 n)
{
	return srpt_target_channels_in(ti->t, SRPT_CH_LIVE) == n;
}

/*
 * Multichannel logins (T10 SRP): SINGLE with no channel of the port answers NO_CHAN; MULTI from
 * the same port keeps it (MAINTAINED) and both channels serve; MULTI from another port finds
 * none of its own (NO_CHAN); SINGLE from the first port again ends its two live channels (each
 * gets SRP_T_LOGOUT, then DISCONNECTED) and says TERMINATED; the other port's stays.
 */
static void e2e_test_multichannel(struct kunit *test)
{
	static const u8 tur[6] = { TEST_UNIT_READY };
	struct ti *a = ti_setup(test), *b, *other, *again;

	ti_login_ok(a);
	KUNIT_EXPECT_EQ(test, a->rsp_flags, OIB_SRP_LOGIN_RSP_MULTICHAN_NO_CHAN);
	b = e2e_channel(a, 0x11, OIB_SRP_MULTICHAN_MULTI);
	KUNIT_EXPECT_EQ(test, b->rsp_flags, OIB_SRP_LOGIN_RSP_MULTICHAN_MAINTAINED);
	other = e2e_channel(a, 0x22, OIB_SRP_MULTICHAN_MULTI);
	KUNIT_EXPECT_EQ(test, other->rsp_flags, OIB_SRP_LOGIN_RSP_MULTICHAN_NO_CHAN);
	ti_good(a, tur, sizeof(tur), OIB_SRP_DATA_NONE, 0, 0);
	ti_good(b, tur, sizeof(tur), OIB_SRP_DATA_NONE, 0, 0);
	ti_good(other, tur, sizeof(tur), OIB_SRP_DATA_NONE, 0, 0);
	KUNIT_ASSERT_TRUE(test, oib_test_wait_for(e2e_live(a, 3)));
	again = e2e_channel(a, 0x11, OIB_SRP_MULTICHAN_SINGLE);
	KUNIT_EXPECT_EQ(test, again->rsp_flags, OIB_SRP_LOGIN_RSP_MULTICHAN_TERMINATED);
	KUNIT_EXPECT_TRUE(test, ti_got_t_logout(a));
	KUNIT_EXPECT_TRUE(test, ti_got_t_logout(b));
	KUNIT_EXPECT_TRUE(test, ti_wait(a, OIB_CMA_EVENT_DISCONNECTED));
	KUNIT_EXPECT_TRUE(test, ti_wait(b, OIB_CMA_EVENT_DISCONNECTED));
	KUNIT_EXPECT_TRUE(test, ti_wait_channels(a, 2));
	ti_good(again, tur, sizeof(tur), OIB_SRP_DATA_NONE, 0, 0);
	ti_good(other, tur, sizeof(tur), OIB_SRP_DATA_NONE, 0, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&srpt_target_stats(a->t)->logins), 4);
}

/*
 * The target goes away under a channel it saw established (waited for): the initiator gets an
 * SRP_T_LOGOUT, then DISCONNECTED.
 */
static void e2e_test_target_stop(struct kunit *test)
{
	struct ti *ti = ti_setup(test);

	ti_login_ok(ti);
	KUNIT_ASSERT_TRUE(test, oib_test_wait_for(e2e_live(ti, 1)));
	kunit_release_action(test, ti_target_release, ti->t);
	KUNIT_EXPECT_TRUE(test, ti_got_t_logout(ti));
	KUNIT_EXPECT_TRUE(test, ti_wait(ti, OIB_CMA_EVENT_DISCONNECTED));
}

/* WRITE (10) of @blocks at @lba whose data, ti->buf's first @len bytes, the IU carries. */
static void ti_imm_send(struct ti *ti, u32 lba, u32 blocks, u32 len, u32 cut)
{
	struct oib_srp_cmd_info *c = &ti->cmd;
	int iu_len;

	memset(c, 0, sizeof(*c));
	c->tag = ++ti->next_tag;
	c->lun = ti->lun;
	c->cdb[0] = WRITE_10;
	e2e_put_be(c->cdb + 2, 4, lba);
	e2e_put_be(c->cdb + 7, 2, blocks);
	c->dir = OIB_SRP_DATA_OUT;
	c->imm_off = E2E_IMM_OFF;
	c->imm = ti->buf;
	c->data_len = len;
	iu_len = oib_srp_pack_cmd(ti->iu, E2E_IU_ALLOC, c);
	KUNIT_ASSERT_EQ(ti->test, iu_len, E2E_IMM_OFF + len);
	ti_send(ti, iu_len - cut, NULL);
}

/* One immediate data WRITE: its response (no key to invalidate), sense in @sense. */
static void ti_imm(struct ti *ti, u32 lba, u32 len, u32 cut, struct oib_srp_rsp_info *rsp,
		   u8 *sense)
{
	ti_imm_send(ti, lba, len / SRPT_BLOCK_SIZE, len, cut);
	ti_recv_rsp(ti, rsp, sense);
	KUNIT_EXPECT_EQ(ti->test, rsp->tag, ti->cmd.tag);
	KUNIT_EXPECT_EQ(ti->test, ti->inv_rkey, 0);
}

/*
 * Immediate data (SRP-2) with the login every Linux initiator since 5.0 sends: an IU of 8 KiB
 * behind offset 68, IMMED_REQUESTED.  The LOGIN_RSP grants that IU and immediate data; 8 KiB
 * and the last block written that way reach the LUN and read back with RDMA; a command whose
 * IU ends before its data is refused (INVALID FIELD IN CDB), the LUN untouched; the channel
 * serves on.  A login that asks for immediate data at an offset inside the command's
 * descriptor gets none, and its immediate data commands are refused the same way.
 */
static void e2e_test_immediate(struct kunit *test)
{
	struct ti *ti = ti_setup(test);
	u8 *mem = srpt_target_lun_mem(ti->t, 0);
	u8 *want = kunit_kzalloc(test, SZ_8K, GFP_KERNEL);
	u8 cdb[10] = { READ_10 };
	struct oib_srp_rsp_info rsp;
	u8 sense[SRPT_SENSE_LEN];

	KUNIT_ASSERT_NOT_NULL(test, want);
	ti->login.it_iu_len = E2E_IMM_IU;
	ti->login.flags = OIB_SRP_MULTICHAN_SINGLE | OIB_SRP_IMMED_REQUESTED;
	ti->login.imm_data_offset = E2E_IMM_OFF;
	ti_login_ok(ti);
	KUNIT_EXPECT_TRUE(test, ti->rsp_flags & OIB_SRP_LOGIN_RSP_IMMED_SUPP);
	KUNIT_EXPECT_EQ(test, ti->rsp_flags & 3, OIB_SRP_LOGIN_RSP_MULTICHAN_NO_CHAN);

	e2e_fill(want, SZ_8K, 11);
	memcpy(ti->buf, want, SZ_8K);
	ti_imm(ti, 200, SZ_8K, 0, &rsp, NULL);
	KUNIT_EXPECT_EQ(test, rsp.status, SAM_STAT_GOOD);
	KUNIT_EXPECT_EQ(test, rsp.flags, 0);
	KUNIT_EXPECT_MEMEQ(test, mem + 200 * SRPT_BLOCK_SIZE, want, SZ_8K);
	memset(ti->buf, 0, SZ_8K);
	e2e_put_be(cdb + 2, 4, 200);
	e2e_put_be(cdb + 7, 2, SZ_8K / SRPT_BLOCK_SIZE);
	ti_good(ti, cdb, sizeof(cdb), OIB_SRP_DATA_IN, SZ_8K, 2);
	KUNIT_EXPECT_MEMEQ(test, ti->buf, want, SZ_8K);

	e2e_fill(ti->buf, SRPT_BLOCK_SIZE, 12);
	ti_imm(ti, E2E_LUN_BYTES / SRPT_BLOCK_SIZE - 1, SRPT_BLOCK_SIZE, 0, &rsp, NULL);
	KUNIT_EXPECT_EQ(test, rsp.status, SAM_STAT_GOOD);
	KUNIT_EXPECT_MEMEQ(test, mem + E2E_LUN_BYTES - SRPT_BLOCK_SIZE, ti->buf, SRPT_BLOCK_SIZE);

	memset(ti->buf, 0x5a, SZ_4K);
	ti_imm(ti, 300, SZ_4K, 1, &rsp, sense);	/* one byte short */
	KUNIT_EXPECT_EQ(test, rsp.status, SAM_STAT_CHECK_CONDITION);
	KUNIT_EXPECT_EQ(test, sense[12], 0x24);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(mem + 300 * SRPT_BLOCK_SIZE, 0, SZ_4K));
	ti_good(ti, cdb, sizeof(cdb), OIB_SRP_DATA_IN, SZ_8K, 1);
	KUNIT_EXPECT_MEMEQ(test, ti->buf, want, SZ_8K);
	KUNIT_EXPECT_EQ(test, atomic_read(&srpt_target_stats(ti->t)->over_limit), 0);

	kunit_release_action(test, ti_release, ti);
	ti = ti_alloc(test, ti->ctx, ti->t);
	memset(ti->login.initiator_port_id, 0x33, 16);	/* the first channel may still be going */
	ti->login.it_iu_len = E2E_IMM_IU;
	ti->login.flags = OIB_SRP_MULTICHAN_SINGLE | OIB_SRP_IMMED_REQUESTED;
	ti->login.imm_data_offset = OIB_SRP_MIN_IMM_OFFSET - 1;
	ti_login_ok(ti);
	KUNIT_EXPECT_FALSE(test, ti->rsp_flags & OIB_SRP_LOGIN_RSP_IMMED_SUPP);
	ti_imm(ti, 300, SRPT_BLOCK_SIZE, 0, &rsp, sense);
	KUNIT_EXPECT_EQ(test, rsp.status, SAM_STAT_CHECK_CONDITION);
	KUNIT_EXPECT_EQ(test, sense[12], 0x24);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(mem + 300 * SRPT_BLOCK_SIZE, 0, SRPT_BLOCK_SIZE));
	KUNIT_EXPECT_EQ(test, atomic_read(&srpt_target_stats(ti->t)->imm), 2);
}

/*
 * Target port IDs as SRP targets make them: id_ext and ioc_guid the node GUID of the device the
 * login arrives on (b's); the target's own ID is still taken; another device's GUID is refused.
 */
static void e2e_test_port_ids(struct kunit *test)
{
	static const u8 tur[6] = { TEST_UNIT_READY };
	struct ti *ti = ti_setup(test), *own;
	__be64 guid = ti->ctx->b.dev->node_guid;

	KUNIT_ASSERT_NE(test, guid, ti->ctx->a.dev->node_guid);
	memcpy(ti->login.target_port_id, &guid, 8);
	memcpy(ti->login.target_port_id + 8, &guid, 8);
	ti_login_ok(ti);
	ti_good(ti, tur, sizeof(tur), OIB_SRP_DATA_NONE, 0, 0);
	own = e2e_channel(ti, 0x11, OIB_SRP_MULTICHAN_MULTI);	/* "oib_srpt_kunit" */
	KUNIT_EXPECT_EQ(test, own->rsp_flags, OIB_SRP_LOGIN_RSP_MULTICHAN_MAINTAINED);
	ti_good(own, tur, sizeof(tur), OIB_SRP_DATA_NONE, 0, 0);

	own = ti_alloc(test, ti->ctx, ti->t);
	guid = ti->ctx->a.dev->node_guid;
	memcpy(own->login.target_port_id, &guid, 8);
	memcpy(own->login.target_port_id + 8, &guid, 8);
	e2e_refused(own, OIB_SRP_REJ_UNABLE_ASSOCIATE_CHANNEL);
	memcpy(own->login.target_port_id, &ti->ctx->b.dev->node_guid, 8);	/* half of it */
	e2e_refused(own, OIB_SRP_REJ_UNABLE_ASSOCIATE_CHANNEL);
	KUNIT_EXPECT_EQ(test, atomic_read(&srpt_target_stats(ti->t)->logins), 2);
}

static struct kunit_case e2e_test_cases[] = {
	KUNIT_CASE(e2e_test_login_logout),
	KUNIT_CASE(e2e_test_bad_logins),
	KUNIT_CASE(e2e_test_scsi),
	KUNIT_CASE(e2e_test_read_write),
	KUNIT_CASE(e2e_test_immediate),
	KUNIT_CASE(e2e_test_port_ids),
	KUNIT_CASE_SLOW(e2e_test_credits),
	KUNIT_CASE(e2e_test_tsk_mgmt),
	KUNIT_CASE(e2e_test_before_rtu),
	KUNIT_CASE(e2e_test_target_stop),
	KUNIT_CASE(e2e_test_multichannel),
	KUNIT_CASE(e2e_test_cred_req),
	{}
};

static struct kunit_suite e2e_test_suite = {
	.name = "oib_srpt_e2e",
	.test_cases = e2e_test_cases,
};

kunit_test_suite(e2e_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit end-to-end tests of oib_srpt with a test initiator");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

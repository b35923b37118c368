// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fuzzer's peer: a context on a second device of the fabric whose QPs a program connects to
 * its own (peer_qp) and sends through (peer_send) into whatever the program's QPs, MRs and
 * rings are at that moment, destroyed or not.  It never waits for a completion; a program's
 * peer QPs are destroyed after it.
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include "fuzz.h"
#include "uverbs_util.h"

#define PEER_BUF	(256 * 1024)

static pthread_mutex_t peer_lock = PTHREAD_MUTEX_INITIALIZER;	/* protects all below */
static struct oibv_context *ctx;
static struct oibv_pd *pd;
static struct oibv_cq *cq;
static struct oibv_mr *mr;
static char *buf;
static uint32_t qps[FZ_MAXCALLS];	/* the program's peer QPs' handles, 0: none */
static union oibv_gid own_gid;	/* the device under test's */

bool fz_peer_init(struct oibv_device *dev)
{
	union oibv_gid g;

	ctx = oibv_open_device(dev);
	buf = mmap(NULL, PEER_BUF, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pd = ctx && buf != MAP_FAILED ? oibv_alloc_pd(ctx) : NULL;
	cq = pd ? oibv_create_cq(ctx, 4096, NULL, NULL, 0) : NULL;
	mr = cq ? oibv_reg_mr(pd, buf, PEER_BUF, OIBV_ACCESS_LOCAL_WRITE |
			      OIBV_ACCESS_REMOTE_WRITE | OIBV_ACCESS_REMOTE_READ |
			      OIBV_ACCESS_REMOTE_ATOMIC) : NULL;
	if (!mr || oibv_query_gid(ctx, 1, 0, &g))
		return false;
	memcpy(fz_env.peer_gid, g.raw, 16);
	memcpy(own_gid.raw, fz_env.own_gid, 16);
	return true;
}

static void drain(void)
{
	struct oibv_wc wc[64];

	while (oibv_poll_cq(cq, 64, wc) > 0)
		;
}

static int modify(uint32_t handle, struct oib_uverbs_modify_qp *m)
{
	m->handle = handle;
	m->ah_attr = (struct oib_uverbs_ah_attr){ .is_global = 1, .port_num = 1, .hop_limit = 64 };
	memcpy(m->ah_attr.dgid, fz_env.own_gid, 16);
	return raw_cmd(ctx->cmd_fd, OIB_UVERBS_MODIFY_QP, m, sizeof(*m));
}

/* RESET to RTS, its peer @qpn on the device under test; short retries (it may be gone). */
static int peer_connect(uint32_t handle, uint32_t qpn, bool rc)
{
	struct oib_uverbs_modify_qp m = {
		.attr_mask = OIB_UVERBS_QP_STATE | OIB_UVERBS_QP_PKEY_INDEX | OIB_UVERBS_QP_PORT |
			     OIB_UVERBS_QP_ACCESS_FLAGS,
		.qp_state = OIBV_QPS_INIT, .port_num = 1, .qp_access_flags = OIB_UVERBS_ACCESS_ALL,
	};
	int ret = modify(handle, &m);

	if (ret)
		return ret;
	m = (struct oib_uverbs_modify_qp){
		.attr_mask = OIB_UVERBS_QP_STATE | OIB_UVERBS_QP_AV | OIB_UVERBS_QP_PATH_MTU |
			     OIB_UVERBS_QP_DEST_QPN | OIB_UVERBS_QP_RQ_PSN,
		.qp_state = OIBV_QPS_RTR, .path_mtu = OIBV_MTU_1024, .dest_qp_num = qpn,
		.max_dest_rd_atomic = 1, .min_rnr_timer = 1,
	};
	if (rc)
		m.attr_mask |= OIB_UVERBS_QP_MAX_DEST_RD_ATOMIC | OIB_UVERBS_QP_MIN_RNR_TIMER;
	ret = modify(handle, &m);
	if (ret)
		return ret;
	m = (struct oib_uverbs_modify_qp){
		.attr_mask = OIB_UVERBS_QP_STATE | OIB_UVERBS_QP_SQ_PSN |
			     (rc ? OIB_UVERBS_QP_TIMEOUT | OIB_UVERBS_QP_RETRY_CNT |
			      OIB_UVERBS_QP_RNR_RETRY | OIB_UVERBS_QP_MAX_QP_RD_ATOMIC : 0),
		.qp_state = OIBV_QPS_RTS, .timeout = 12, .retry_cnt = 1, .rnr_retry = 1,
		.max_rd_atomic = 1,
	};
	return modify(handle, &m);
}

/*
 * The peer's QPs are made and used with raw ioctls (no rings): liboibv's destroy would wait for
 * async events nobody reads.
 */
int fz_peer_qp(uint32_t qpn, int type, uint32_t *peer_qpn)
{
	struct oib_uverbs_create_qp c = {
		.pd_handle = pd->handle, .send_cq_handle = cq->handle, .recv_cq_handle = cq->handle,
		.qp_type = type,
		.cap = { .max_send_wr = 64, .max_recv_wr = 16, .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	int i, ret = -ENOSPC;

	if (type != OIB_UVERBS_QPT_RC && type != OIB_UVERBS_QPT_UC)
		return -EINVAL;
	pthread_mutex_lock(&peer_lock);
	for (i = 0; i < FZ_MAXCALLS && qps[i]; i++)
		;
	if (i < FZ_MAXCALLS) {
		ret = -raw_cmd(ctx->cmd_fd, OIB_UVERBS_CREATE_QP, &c, sizeof(c));
		if (!ret) {
			qps[i] = c.handle;
			ret = -peer_connect(c.handle, qpn, type == OIB_UVERBS_QPT_RC);
		}
		if (!ret)
			*peer_qpn = c.qp_num;
		ret = ret ?: i;
	}
	pthread_mutex_unlock(&peer_lock);
	return ret;
}

int fz_peer_send(int idx, int op, uint32_t count, uint32_t len, uint64_t raddr, uint32_t rkey)
{
	struct oib_uverbs_sge sge = { (uintptr_t)buf, len % (PEER_BUF + 1), mr->lkey };
	struct oib_uverbs_send_wr wr[16];
	struct oib_uverbs_post p = { .count = count > 16 ? 16 : count, .wrs = (uintptr_t)wr };
	uint32_t i;
	int ret = EINVAL;

	if (op == OIB_UVERBS_WR_ATOMIC_FETCH_AND_ADD)
		sge.length = 8;
	for (i = 0; i < p.count; i++)
		wr[i] = (struct oib_uverbs_send_wr){
			.wr_id = i, .sg_list = (uintptr_t)&sge, .num_sge = 1, .opcode = op,
			.send_flags = OIB_UVERBS_SEND_SIGNALED, .rkey = rkey,
			.remote_addr = op == OIB_UVERBS_WR_ATOMIC_FETCH_AND_ADD ? raddr & ~7ull :
				       raddr,
			.compare_add = op == OIB_UVERBS_WR_ATOMIC_FETCH_AND_ADD,
		};
	for (i = 0; i < p.count; i++)
		if (op == OIB_UVERBS_WR_SEND || op == OIB_UVERBS_WR_SEND_WITH_IMM) {
			wr[i].remote_addr = 0;
			wr[i].rkey = 0;
		}
	pthread_mutex_lock(&peer_lock);
	if (idx >= 0 && idx < FZ_MAXCALLS && qps[idx] && p.count) {
		p.handle = qps[idx];
		ret = raw_cmd(ctx->cmd_fd, OIB_UVERBS_POST_SEND, &p, sizeof(p));
		drain();
	}
	pthread_mutex_unlock(&peer_lock);
	return ret;
}

void fz_peer_reset(void)
{
	struct oib_uverbs_destroy_reported d = { 0 };
	int i;

	pthread_mutex_lock(&peer_lock);
	for (i = 0; i < FZ_MAXCALLS; i++) {
		if (!qps[i])
			continue;
		d = (struct oib_uverbs_destroy_reported){ .handle = qps[i] };
		if (!raw_cmd(ctx->cmd_fd, OIB_UVERBS_DESTROY_QP, &d, sizeof(d)))
			qps[i] = 0;
	}
	drain();
	pthread_mutex_unlock(&peer_lock);
}

void fz_peer_fini(void)
{
	fz_peer_reset();
	if (mr)
		oibv_dereg_mr(mr);
	if (cq)
		oibv_destroy_cq(cq);
	if (pd)
		oibv_dealloc_pd(pd);
	if (ctx)
		oibv_close_device(ctx);
}

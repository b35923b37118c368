// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_ibverbs_compat: the drop-in libibverbs.so.1 (tools/lib/ibverbs) as a libibverbs program
 * sees it: compiled against Debian's <infiniband/verbs.h>, linked against the drop-in (found in
 * /usr/lib/oib through its run path).  Devices and queries; every exported function with bad
 * arguments and what oib lacks; verbs.h's inline fast paths (post, poll, notify through the
 * context's ops; the verbs_context's extended calls); RC, UD and SRQ traffic with its data
 * checked; a fork; threads polling one CQ.  Makes its own oib_rxe device with the oib tool.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <infiniband/verbs.h>
#include "ktap.h"

/* libibverbs exports it (IBVERBS_1.0) but declares it in rdma-core's private driver.h */
int ibv_read_sysfs_file(const char *dir, const char *file, char *buf, size_t size);

#define DEV_NAME "oib_ibvc0"
#define BUF 8192

static struct ibv_device **list;
static struct ibv_device *dev;

/* a context with a PD, a buffer registered in it, a CQ on a channel */
struct env {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_comp_channel *ch;
	struct ibv_cq *cq;
	char *buf;
	struct ibv_mr *mr;
	union ibv_gid gid;
};

static bool env_open(struct env *e)
{
	memset(e, 0, sizeof(*e));
	e->ctx = ibv_open_device(dev);
	e->pd = e->ctx ? ibv_alloc_pd(e->ctx) : NULL;
	e->ch = e->pd ? ibv_create_comp_channel(e->ctx) : NULL;
	e->cq = e->ch ? ibv_create_cq(e->ctx, 256, e, e->ch, 0) : NULL;
	e->buf = aligned_alloc(4096, BUF);
	e->mr = e->cq && e->buf ? ibv_reg_mr(e->pd, e->buf, BUF, IBV_ACCESS_LOCAL_WRITE |
					     IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ) :
		NULL;
	return CHECK(e->mr) && CHECK(!ibv_query_gid(e->ctx, 1, 0, &e->gid));
}

static bool env_close(struct env *e)
{
	bool ok = CHECK(!ibv_dereg_mr(e->mr)) && CHECK(!ibv_destroy_cq(e->cq)) &&
		  CHECK(!ibv_destroy_comp_channel(e->ch)) && CHECK(!ibv_dealloc_pd(e->pd));

	free(e->buf);
	return CHECK(!ibv_close_device(e->ctx)) && ok;
}

static struct ibv_qp *qp_new(struct env *e, enum ibv_qp_type type, struct ibv_srq *srq)
{
	struct ibv_qp_init_attr a = {
		.send_cq = e->cq, .recv_cq = e->cq, .srq = srq, .qp_type = type,
		.cap = { .max_send_wr = 64, .max_recv_wr = srq ? 0 : 64, .max_send_sge = 2,
			 .max_recv_sge = srq ? 0 : 2 },
	};

	return ibv_create_qp(e->pd, &a);
}

/* RESET -> INIT -> RTR -> RTS towards @dqpn on our own GID 0 */
static bool qp_connect(struct env *e, struct ibv_qp *qp, uint32_t dqpn)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT, .port_num = 1, .qkey = 0x1234,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ,
	};
	bool ud = qp->qp_type == IBV_QPT_UD;
	int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT;

	if (!CHECK(!ibv_modify_qp(qp, &a, mask | (ud ? IBV_QP_QKEY : IBV_QP_ACCESS_FLAGS))))
		return false;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = dqpn;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr = (struct ibv_ah_attr){
		.grh = { .dgid = e->gid, .hop_limit = 64 }, .is_global = 1, .port_num = 1,
	};
	mask = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
	       IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
	if (!CHECK(!ibv_modify_qp(qp, &a, ud ? IBV_QP_STATE : mask)))
		return false;
	if (qp->qp_type == IBV_QPT_XRC_RECV)	/* a target receives only */
		return CHECK(qp->state == IBV_QPS_RTR);
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	mask = IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
	       IBV_QP_MAX_QP_RD_ATOMIC;
	return CHECK(!ibv_modify_qp(qp, &a, ud ? IBV_QP_STATE | IBV_QP_SQ_PSN : mask)) &&
	       CHECK(qp->state == IBV_QPS_RTS);
}

/* @n completions from @cq into @wc, polled through the inline ibv_poll_cq(), 10 s at most */
static bool poll_n(struct ibv_cq *cq, int n, struct ibv_wc *wc)
{
	int got = 0, r, spins = 0;

	while (got < n && spins < 10000) {
		r = ibv_poll_cq(cq, n - got, wc + got);
		if (r < 0)
			return CHECK(r >= 0);
		got += r;
		if (!r) {
			usleep(1000);
			spins++;
		}
	}
	if (got != n)
		diag("%d of %d completions", got, n);
	return got == n;
}

static bool post_recv(struct ibv_qp *qp, struct ibv_srq *srq, struct env *e, uint32_t off,
		      unsigned int len, unsigned long id)
{
	struct ibv_sge sge = { (uintptr_t)e->buf + off, len, e->mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = id, .sg_list = &sge, .num_sge = 1 }, *bad;

	return CHECK(!(srq ? ibv_post_srq_recv(srq, &wr, &bad) : ibv_post_recv(qp, &wr, &bad)));
}

static bool t_devices(void)
{
	char path[128], buf[64];
	struct ibv_context *ctx;
	bool ok = true;
	int n, i;

	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), DEV_NAME))
			dev = list[i];
	if (!CHECK(dev))
		return false;
	diag("%s: %s, %s, node GUID %016llx", dev->name, dev->dev_name, dev->ibdev_path,
	     (unsigned long long)be64toh(ibv_get_device_guid(dev)));
	snprintf(path, sizeof(path), "/sys/class/oib/%s", DEV_NAME);
	ok = CHECK(!strcmp(dev->ibdev_path, path)) && CHECK(dev->node_type == IBV_NODE_CA) &&
	     CHECK(dev->transport_type == IBV_TRANSPORT_IB) && CHECK(ibv_get_device_guid(dev)) &&
	     CHECK(ibv_read_sysfs_file(dev->ibdev_path, "node_type", buf, sizeof(buf)) > 0) &&
	     CHECK(!strcmp(buf, "1: CA"));
	/* bad arguments */
	errno = 0;
	ok = ok && CHECK(!ibv_get_device_name(NULL) && errno == EINVAL) &&
	     CHECK(!ibv_open_device(NULL) && errno == EINVAL) &&
	     CHECK(ibv_close_device(NULL) == EINVAL) &&
	     CHECK(ibv_read_sysfs_file(dev->ibdev_path, "no_such_file", buf, sizeof(buf)) < 0) &&
	     CHECK(ibv_read_sysfs_file(NULL, "x", buf, sizeof(buf)) < 0);
	ibv_free_device_list(NULL);
	/* a context outlives the list it came from */
	ctx = ibv_open_device(dev);
	ok = ok && CHECK(ctx) && CHECK(ctx->device == dev && ctx->num_comp_vectors > 0);
	return ok && CHECK(!ibv_close_device(ctx));
}

static bool t_queries(void)
{
	struct ibv_device_attr_ex ax;
	struct ibv_context *ctx = ibv_open_device(dev);
	struct ibv_port_attr pa;
	struct ibv_device_attr a;
	union ibv_gid gid;
	__be16 pkey = 0;
	bool ok;

	if (!CHECK(ctx))
		return false;
	ok = CHECK(!ibv_query_device(ctx, &a)) && CHECK(a.phys_port_cnt == 1) &&
	     CHECK(a.max_qp > 0 && a.max_cqe > 0 && a.max_srq > 0 && a.max_sge > 0) &&
	     CHECK(a.node_guid == ibv_get_device_guid(dev)) && CHECK(a.fw_ver[0]);
	/* the inline ibv_query_device_ex() through the verbs_context */
	ok = ok && CHECK(!ibv_query_device_ex(ctx, NULL, &ax)) &&
	     CHECK(!memcmp(&ax.orig_attr, &a, sizeof(a))) && CHECK(!ax.odp_caps.general_caps) &&
	     CHECK(ibv_query_device_ex(ctx, &(struct ibv_query_device_ex_input){ 1 }, &ax) ==
		   EINVAL);
	/* the inline ibv_query_port() through the verbs_context */
	ok = ok && CHECK(!ibv_query_port(ctx, 1, &pa)) && CHECK(pa.state == IBV_PORT_ACTIVE) &&
	     CHECK(pa.link_layer == IBV_LINK_LAYER_ETHERNET) && CHECK(pa.gid_tbl_len > 0) &&
	     CHECK(pa.active_mtu >= IBV_MTU_1024) && CHECK(ibv_query_port(ctx, 2, &pa) == EINVAL) &&
	     CHECK(ibv_query_port(ctx, 0, &pa) == EINVAL);
	ok = ok && CHECK(!ibv_query_gid(ctx, 1, 0, &gid)) && CHECK(gid.global.interface_id) &&
	     CHECK(ibv_query_gid(ctx, 1, 100000, &gid) == -1 && errno == EINVAL) &&
	     CHECK(ibv_query_gid(ctx, 1, -1, &gid) == -1) &&
	     CHECK(!ibv_query_pkey(ctx, 1, 0, &pkey)) && CHECK(pkey == htobe16(0xffff)) &&
	     CHECK(ibv_get_pkey_index(ctx, 1, htobe16(0xffff)) == 0) &&
	     CHECK(ibv_query_pkey(ctx, 1, -1, &pkey) == -1);
	ok = ok && CHECK(ibv_query_device(NULL, &a) == EINVAL) &&
	     CHECK(ibv_query_device(ctx, NULL) == EINVAL);
	return CHECK(!ibv_close_device(ctx)) && ok;
}

/* Every creating call with bad arguments, and what oib does not offer. */
static bool t_bad_args(void)
{
	struct ibv_qp_init_attr qa = { .qp_type = IBV_QPT_RC, .cap = { 1, 1, 1, 1, 0 } };
	struct ibv_qp_init_attr_ex qx = { .comp_mask = IBV_QP_INIT_ATTR_PD |
					  IBV_QP_INIT_ATTR_SEND_OPS_FLAGS };
	struct ibv_xrcd_init_attr xa = { 0 };
	struct ibv_cq_init_attr_ex cx = { .cqe = 4 };
	struct ibv_ah_attr aa = { .is_global = 1, .port_num = 1, .static_rate = 3 };
	struct ibv_srq_init_attr sa = { .attr = { 4, 1, 0 } };
	struct ibv_qp_attr attr = { .qp_state = IBV_QPS_INIT };
	struct env e, o;
	struct ibv_qp *qp;
	bool ok;

	if (!env_open(&e) || !env_open(&o))
		return false;
	qa.send_cq = e.cq;
	qa.recv_cq = e.cq;
	errno = 0;
	ok = CHECK(!ibv_alloc_pd(NULL) && errno == EINVAL) &&
	     CHECK(ibv_dealloc_pd(NULL) == EINVAL) &&
	     CHECK(!ibv_create_comp_channel(NULL) && errno == EINVAL) &&
	     CHECK(ibv_destroy_comp_channel(NULL) == EINVAL) &&
	     CHECK(ibv_destroy_comp_channel(e.ch) == EBUSY) &&
	     CHECK(!ibv_create_cq(NULL, 4, NULL, NULL, 0) && errno == EINVAL) &&
	     CHECK(!ibv_create_cq(e.ctx, 0, NULL, NULL, 0) && errno == EINVAL) &&
	     CHECK(!ibv_create_cq(e.ctx, 4, NULL, o.ch, 0) && errno == EINVAL) &&
	     CHECK(!ibv_create_cq(e.ctx, 4, NULL, NULL, 1000) && errno == EINVAL) &&
	     CHECK(ibv_destroy_cq(NULL) == EINVAL) && CHECK(ibv_resize_cq(e.cq, 8) == EOPNOTSUPP);
	ok = ok && CHECK(!ibv_reg_mr(NULL, e.buf, 64, 0) && errno == EINVAL) &&
	     CHECK(!ibv_reg_mr(e.pd, e.buf, 0, 0) && errno == EINVAL) &&
	     CHECK(!ibv_reg_mr(e.pd, e.buf, 64, 1 << 15) && errno == EINVAL) &&
	     CHECK(!ibv_reg_mr(e.pd, e.buf, 64, IBV_ACCESS_ON_DEMAND) && errno == EOPNOTSUPP) &&
	     CHECK(!ibv_reg_mr(e.pd, e.buf, 64, IBV_ACCESS_REMOTE_WRITE) && errno == EINVAL) &&
	     CHECK(!ibv_reg_mr_iova(e.pd, e.buf, 64, 4096, 0) && errno == EOPNOTSUPP) &&
	     CHECK(!ibv_reg_dmabuf_mr(e.pd, 0, 64, 0, 3, 0) && errno == EOPNOTSUPP) &&
	     CHECK(ibv_dereg_mr(NULL) == EINVAL) &&
	     CHECK(ibv_rereg_mr(e.mr, IBV_REREG_MR_CHANGE_ACCESS, NULL, NULL, 0, 0) ==
		   IBV_REREG_MR_ERR_INPUT) &&
	     CHECK(!ibv_alloc_mw(e.pd, IBV_MW_TYPE_1) && errno == EOPNOTSUPP);
	ok = ok && CHECK(!ibv_create_qp(NULL, &qa) && errno == EINVAL) &&
	     CHECK(!ibv_create_qp(e.pd, NULL) && errno == EINVAL) &&
	     CHECK(!ibv_create_qp(o.pd, &qa) && errno == EINVAL);
	qa.qp_type = IBV_QPT_RAW_PACKET;
	ok = ok && CHECK(!ibv_create_qp(e.pd, &qa) && errno == EOPNOTSUPP);
	qa.qp_type = 77;
	ok = ok && CHECK(!ibv_create_qp(e.pd, &qa) && errno == EINVAL);
	qa.qp_type = IBV_QPT_RC;
	qa.cap.max_inline_data = 64;
	ok = ok && CHECK(!ibv_create_qp(e.pd, &qa) && errno == EINVAL);
	qa.cap.max_inline_data = 0;
	qx.pd = e.pd;
	qx.send_cq = e.cq;
	qx.recv_cq = e.cq;
	qx.qp_type = IBV_QPT_RC;
	ok = ok && CHECK(!ibv_create_qp_ex(e.ctx, &qx) && errno == EOPNOTSUPP) &&
	     CHECK(!ibv_open_xrcd(e.ctx, &xa) && errno == EINVAL) &&
	     CHECK(!ibv_create_cq_ex(e.ctx, &cx) && errno == EOPNOTSUPP) &&
	     CHECK(ibv_destroy_qp(NULL) == EINVAL);
	qp = ibv_create_qp(e.pd, &qa);
	ok = ok && CHECK(qp) && CHECK(!ibv_qp_to_qp_ex(qp)) &&
	     CHECK(ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_ALT_PATH) == EINVAL) &&
	     CHECK(ibv_modify_qp(qp, NULL, IBV_QP_STATE) == EINVAL) &&
	     CHECK(ibv_query_qp(qp, &attr, IBV_QP_STATE, NULL) == EINVAL) &&
	     CHECK(ibv_attach_mcast(qp, &e.gid, 0) == EOPNOTSUPP) &&
	     CHECK(ibv_query_ece(qp, NULL) == EOPNOTSUPP) && CHECK(!ibv_destroy_qp(qp));
	ok = ok && CHECK(!ibv_create_srq(NULL, &sa) && errno == EINVAL) &&
	     CHECK(ibv_destroy_srq(NULL) == EINVAL) &&
	     CHECK(ibv_modify_srq(NULL, NULL, 0) == EINVAL) &&
	     CHECK(!ibv_create_ah(e.pd, &aa) && errno == EINVAL) &&
	     CHECK(!ibv_create_ah(NULL, &aa) && errno == EINVAL) &&
	     CHECK(ibv_destroy_ah(NULL) == EINVAL) &&
	     CHECK(ibv_get_async_event(NULL, NULL) == -1 && errno == EINVAL) &&
	     CHECK(ibv_get_cq_event(NULL, NULL, NULL) == -1 && errno == EINVAL) &&
	     CHECK(!strcmp(ibv_wc_status_str(IBV_WC_WR_FLUSH_ERR), "Work Request Flushed Error")) &&
	     CHECK(!strcmp(ibv_wc_status_str(999), "unknown")) &&
	     CHECK(ibv_is_fork_initialized() == IBV_FORK_UNNEEDED);
	return env_close(&o) && env_close(&e) && ok;
}

/* An RC pair on one device: the inline post, poll and notify ops, the data checked. */
static bool t_rc_inline_ops(void)
{
	struct ibv_send_wr w[40], *bad = NULL;
	struct ibv_sge sge[40];
	struct ibv_wc wc[40];
	struct ibv_cq *ecq;
	struct ibv_qp *a, *b;
	void *ectx;
	struct env e;
	bool ok;
	int i;

	if (!env_open(&e))
		return false;
	a = qp_new(&e, IBV_QPT_RC, NULL);
	b = qp_new(&e, IBV_QPT_RC, NULL);
	ok = CHECK(a && b) && qp_connect(&e, a, b->qp_num) && qp_connect(&e, b, a->qp_num);
	/* a SEND with immediate, on a CQ armed through the inline ibv_req_notify_cq() */
	memset(e.buf, 0, BUF);
	memcpy(e.buf, "hello, libibverbs", 18);
	sge[0] = (struct ibv_sge){ (uintptr_t)e.buf, 18, e.mr->lkey };
	w[0] = (struct ibv_send_wr){ .wr_id = 7, .sg_list = sge, .num_sge = 1,
				     .opcode = IBV_WR_SEND_WITH_IMM, .imm_data = htobe32(0xabc),
				     .send_flags = IBV_SEND_SIGNALED };
	ok = ok && post_recv(b, NULL, &e, 4096, 64, 8) && CHECK(!ibv_req_notify_cq(e.cq, 0)) &&
	     CHECK(!ibv_post_send(a, w, &bad)) && CHECK(!ibv_get_cq_event(e.ch, &ecq, &ectx)) &&
	     CHECK(ecq == e.cq && ectx == &e) && poll_n(e.cq, 2, wc);
	ibv_ack_cq_events(e.cq, 1);
	if (wc[0].wr_id != 8) {
		struct ibv_wc t = wc[0];

		wc[0] = wc[1];
		wc[1] = t;
	}
	ok = ok && CHECK(wc[0].status == IBV_WC_SUCCESS && wc[0].opcode == IBV_WC_RECV) &&
	     CHECK(wc[0].byte_len == 18 && wc[0].qp_num == b->qp_num) &&
	     CHECK((wc[0].wc_flags & IBV_WC_WITH_IMM) && wc[0].imm_data == htobe32(0xabc)) &&
	     CHECK(!wc[0].dlid_path_bits) && CHECK(!strcmp(e.buf + 4096, "hello, libibverbs")) &&
	     CHECK(wc[1].wr_id == 7 && wc[1].opcode == IBV_WC_SEND && wc[1].qp_num == a->qp_num);
	/* 40 RDMA WRITEs in one chain (more than a batch), then a READ back */
	for (i = 0; i < 40; i++) {
		e.buf[i] = 'a' + i % 26;
		sge[i] = (struct ibv_sge){ (uintptr_t)e.buf + i, 1, e.mr->lkey };
		w[i] = (struct ibv_send_wr){ .wr_id = 100 + i, .sg_list = &sge[i], .num_sge = 1,
					     .opcode = IBV_WR_RDMA_WRITE, .next = &w[i + 1],
					     .send_flags = IBV_SEND_SIGNALED };
		w[i].wr.rdma.remote_addr = (uintptr_t)e.buf + 2048 + i;
		w[i].wr.rdma.rkey = e.mr->rkey;
	}
	w[39].next = NULL;
	ok = ok && CHECK(!ibv_post_send(a, w, &bad)) && poll_n(e.cq, 40, wc) &&
	     CHECK(wc[39].status == IBV_WC_SUCCESS && wc[39].opcode == IBV_WC_RDMA_WRITE) &&
	     CHECK(!memcmp(e.buf, e.buf + 2048, 40));
	sge[0] = (struct ibv_sge){ (uintptr_t)e.buf + 6144, 40, e.mr->lkey };
	w[0] = (struct ibv_send_wr){ .wr_id = 9, .sg_list = sge, .num_sge = 1,
				     .opcode = IBV_WR_RDMA_READ, .send_flags = IBV_SEND_SIGNALED };
	w[0].wr.rdma.remote_addr = (uintptr_t)e.buf + 2048;
	w[0].wr.rdma.rkey = e.mr->rkey;
	ok = ok && CHECK(!ibv_post_send(a, w, &bad)) && poll_n(e.cq, 1, wc) &&
	     CHECK(wc[0].opcode == IBV_WC_RDMA_READ && wc[0].byte_len == 40) &&
	     CHECK(!memcmp(e.buf, e.buf + 6144, 40));
	/* bad requests: the ones before are posted, bad_wr names the first refused */
	w[0] = (struct ibv_send_wr){ .wr_id = 10, .sg_list = sge, .num_sge = 1, .next = &w[1],
				     .opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED };
	w[1] = w[0];
	w[1].opcode = IBV_WR_LOCAL_INV;
	w[1].next = NULL;
	ok = ok && post_recv(b, NULL, &e, 4096, 64, 11) &&
	     CHECK(ibv_post_send(a, w, &bad) == EINVAL && bad == &w[1]) && poll_n(e.cq, 2, wc);
	w[0].send_flags = IBV_SEND_INLINE;
	w[0].next = NULL;
	ok = ok && CHECK(ibv_post_send(a, w, &bad) == EINVAL && bad == &w[0]);
	w[0].send_flags = IBV_SEND_FENCE;
	ok = ok && CHECK(ibv_post_send(a, w, &bad) == EINVAL && bad == &w[0]);
	ok = ok && CHECK(!ibv_destroy_qp(a)) && CHECK(!ibv_destroy_qp(b));
	return env_close(&e) && ok;
}

/* An SRQ shared by two QPs, through the inline ibv_post_srq_recv(); its limit's event. */
static bool t_srq(void)
{
	struct ibv_srq_init_attr sa = { .attr = { .max_wr = 16, .max_sge = 1 } };
	struct ibv_srq_attr lim = { .srq_limit = 2 }, q;
	struct ibv_send_wr w, *bad;
	struct ibv_async_event ev;
	struct ibv_qp *a, *b;
	struct ibv_srq *srq;
	struct ibv_wc wc[2];
	struct ibv_sge sge;
	struct env e;
	bool ok;
	int i;

	if (!env_open(&e))
		return false;
	srq = ibv_create_srq(e.pd, &sa);
	a = qp_new(&e, IBV_QPT_RC, NULL);
	b = srq ? qp_new(&e, IBV_QPT_RC, srq) : NULL;
	ok = CHECK(srq && a && b) && CHECK(b->srq == srq) && qp_connect(&e, a, b->qp_num) &&
	     qp_connect(&e, b, a->qp_num);
	for (i = 0; ok && i < 4; i++)
		ok = post_recv(NULL, srq, &e, 4096 + 64 * i, 64, 50 + i);
	ok = ok && CHECK(!ibv_modify_srq(srq, &lim, IBV_SRQ_LIMIT)) &&
	     CHECK(!ibv_query_srq(srq, &q)) && CHECK(q.srq_limit == 2 && q.max_wr >= 16);
	sge = (struct ibv_sge){ (uintptr_t)e.buf, 32, e.mr->lkey };
	w = (struct ibv_send_wr){ .wr_id = 1, .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED };
	for (i = 0; ok && i < 3; i++)
		ok = CHECK(!ibv_post_send(a, &w, &bad)) && poll_n(e.cq, 2, wc) &&
		     CHECK(wc[0].status == IBV_WC_SUCCESS && wc[1].status == IBV_WC_SUCCESS);
	ok = ok && CHECK(!ibv_get_async_event(e.ctx, &ev)) &&
	     CHECK(ev.event_type == IBV_EVENT_SRQ_LIMIT_REACHED && ev.element.srq == srq);
	if (ok)
		ibv_ack_async_event(&ev);
	ok = ok && CHECK(ibv_destroy_srq(srq) == EBUSY) && CHECK(!ibv_destroy_qp(b)) &&
	     CHECK(!ibv_destroy_srq(srq)) && CHECK(!ibv_destroy_qp(a));
	return env_close(&e) && ok;
}

/* UD: an AH, the remote QPN and Q_Key, the receive's GRH. */
static bool t_ud(void)
{
	struct ibv_ah_attr aa = { .is_global = 1, .port_num = 1 };
	struct ibv_send_wr w, *bad;
	struct ibv_qp *a, *b;
	struct ibv_wc wc[2];
	struct ibv_sge sge;
	struct ibv_ah *ah;
	struct env e;
	bool ok;

	if (!env_open(&e))
		return false;
	aa.grh.dgid = e.gid;
	aa.grh.hop_limit = 64;
	a = qp_new(&e, IBV_QPT_UD, NULL);
	b = qp_new(&e, IBV_QPT_UD, NULL);
	ah = ibv_create_ah(e.pd, &aa);
	ok = CHECK(a && b && ah) && qp_connect(&e, a, 0) && qp_connect(&e, b, 0) &&
	     post_recv(b, NULL, &e, 4096, 40 + 100, 5);
	memcpy(e.buf, "a datagram", 11);
	sge = (struct ibv_sge){ (uintptr_t)e.buf, 11, e.mr->lkey };
	w = (struct ibv_send_wr){ .wr_id = 4, .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED };
	w.wr.ud.ah = ah;
	w.wr.ud.remote_qpn = b->qp_num;
	w.wr.ud.remote_qkey = 0x1234;
	ok = ok && CHECK(!ibv_post_send(a, &w, &bad)) && poll_n(e.cq, 2, wc);
	if (ok && wc[0].wr_id != 5)
		wc[0] = wc[1];
	ok = ok && CHECK(wc[0].wr_id == 5 && wc[0].status == IBV_WC_SUCCESS) &&
	     CHECK(wc[0].byte_len == 40 + 11 && (wc[0].wc_flags & IBV_WC_GRH)) &&
	     CHECK(wc[0].src_qp == a->qp_num) && CHECK(!strcmp(e.buf + 4096 + 40, "a datagram"));
	w.wr.ud.ah = NULL;
	ok = ok && CHECK(ibv_post_send(a, &w, &bad) == EINVAL);
	ok = ok && CHECK(!ibv_destroy_qp(a)) && CHECK(!ibv_destroy_qp(b)) &&
	     CHECK(!ibv_destroy_ah(ah));
	return env_close(&e) && ok;
}

/* XRC through the verbs_context: a domain, an XRC SRQ and its number, a target and an initiator */
static bool t_xrc(void)
{
	struct ibv_xrcd_init_attr xa = { .comp_mask = IBV_XRCD_INIT_ATTR_FD |
					 IBV_XRCD_INIT_ATTR_OFLAGS, .fd = -1, .oflags = O_CREAT };
	struct ibv_srq_init_attr_ex sa = { .attr = { .max_wr = 8, .max_sge = 1 },
		.comp_mask = IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD |
			     IBV_SRQ_INIT_ATTR_XRCD | IBV_SRQ_INIT_ATTR_CQ,
		.srq_type = IBV_SRQT_XRC };
	struct ibv_qp_init_attr_ex ta = { .qp_type = IBV_QPT_XRC_RECV,
					  .comp_mask = IBV_QP_INIT_ATTR_XRCD };
	struct ibv_qp_init_attr_ex ia = { .qp_type = IBV_QPT_XRC_SEND, .cap = { .max_send_wr = 4,
					  .max_send_sge = 1 }, .comp_mask = IBV_QP_INIT_ATTR_PD };
	struct ibv_qp *tgt = NULL, *ini = NULL;
	struct ibv_send_wr w, *bad;
	struct ibv_srq *srq = NULL;
	struct ibv_xrcd *xrcd;
	unsigned int srqn = 0;
	struct ibv_wc wc[2];
	struct ibv_sge sge;
	struct env e;
	bool ok;

	if (!env_open(&e))
		return false;
	xrcd = ibv_open_xrcd(e.ctx, &xa);
	sa.pd = e.pd;
	sa.xrcd = xrcd;
	sa.cq = e.cq;
	ta.xrcd = xrcd;
	ia.pd = e.pd;
	ia.send_cq = e.cq;
	ok = CHECK(xrcd) && CHECK(srq = ibv_create_srq_ex(e.ctx, &sa)) &&
	     CHECK(!ibv_get_srq_num(srq, &srqn)) && CHECK(tgt = ibv_create_qp_ex(e.ctx, &ta)) &&
	     CHECK(ini = ibv_create_qp_ex(e.ctx, &ia)) && qp_connect(&e, ini, tgt->qp_num) &&
	     qp_connect(&e, tgt, ini->qp_num) && post_recv(NULL, srq, &e, 4096, 64, 3);
	memcpy(e.buf, "to an XRC SRQ", 14);
	sge = (struct ibv_sge){ (uintptr_t)e.buf, 14, e.mr->lkey };
	w = (struct ibv_send_wr){ .wr_id = 2, .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED };
	w.qp_type.xrc.remote_srqn = srqn;
	ok = ok && CHECK(!ibv_post_send(ini, &w, &bad)) && poll_n(e.cq, 2, wc) &&
	     CHECK(wc[0].status == IBV_WC_SUCCESS && wc[1].status == IBV_WC_SUCCESS) &&
	     CHECK(!strcmp(e.buf + 4096, "to an XRC SRQ"));
	/* busy while its SRQ lives; a basic SRQ has no number */
	ok = ok && CHECK(ibv_close_xrcd(xrcd) == EBUSY) && CHECK(!ibv_destroy_qp(ini)) &&
	     CHECK(!ibv_destroy_qp(tgt)) && CHECK(!ibv_destroy_srq(srq)) &&
	     CHECK(!ibv_close_xrcd(xrcd));
	ta.xrcd = NULL;
	ok = ok && CHECK(!ibv_create_qp_ex(e.ctx, &ta) && errno == EINVAL);
	return env_close(&e) && ok;
}

/* ping @n times from @a to @b, each a SEND of 8 bytes with its number, checked */
static bool ping(struct env *e, struct ibv_qp *a, struct ibv_qp *b, int n)
{
	struct ibv_sge sge = { (uintptr_t)e->buf, 8, e->mr->lkey };
	struct ibv_send_wr w = { .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
				 .send_flags = IBV_SEND_SIGNALED }, *bad;
	struct ibv_wc wc[2];
	bool ok = true;
	int i;

	for (i = 0; ok && i < n; i++) {
		memcpy(e->buf, &i, sizeof(i));
		ok = post_recv(b, NULL, e, 512, 8, i) && CHECK(!ibv_post_send(a, &w, &bad)) &&
		     poll_n(e->cq, 2, wc) && CHECK(!memcmp(e->buf + 512, &i, sizeof(i)));
	}
	return ok;
}

/* A fork with live QPs: the child opens a context of its own and pings; the parent goes on. */
static bool t_fork(void)
{
	struct ibv_qp *a, *b;
	struct env e;
	int st = -1;
	pid_t pid;
	bool ok;

	if (!env_open(&e))
		return false;
	a = qp_new(&e, IBV_QPT_RC, NULL);
	b = qp_new(&e, IBV_QPT_RC, NULL);
	ok = CHECK(a && b) && qp_connect(&e, a, b->qp_num) && qp_connect(&e, b, a->qp_num) &&
	     ping(&e, a, b, 5);
	pid = fork();
	if (!pid) {
		struct env c;
		struct ibv_qp *x, *y;
		bool cok;

		memset(e.buf, 0x55, BUF);	/* the child's copy, not the parent's pages */
		cok = env_open(&c);
		x = cok ? qp_new(&c, IBV_QPT_RC, NULL) : NULL;
		y = cok ? qp_new(&c, IBV_QPT_RC, NULL) : NULL;
		cok = x && y && qp_connect(&c, x, y->qp_num) && qp_connect(&c, y, x->qp_num) &&
		      ping(&c, x, y, 20) && !ibv_destroy_qp(x) && !ibv_destroy_qp(y) &&
		      env_close(&c);
		_exit(cok ? 0 : 1);
	}
	ok = ok && CHECK(pid > 0) && ping(&e, a, b, 20) && CHECK(waitpid(pid, &st, 0) == pid) &&
	     CHECK(WIFEXITED(st) && !WEXITSTATUS(st)) && ping(&e, a, b, 5);
	ok = ok && CHECK(!ibv_destroy_qp(a)) && CHECK(!ibv_destroy_qp(b));
	return env_close(&e) && ok;
}

#define THREADS 8
#define SENDS 800

struct poller {
	struct ibv_cq *cq;
	int *seen;		/* per wr_id, atomically counted */
	int *left;		/* completions not yet polled, atomic */
	bool ok;
};

static void *poller(void *arg)
{
	struct poller *p = arg;
	struct ibv_wc wc[4];
	int n, i, idle = 0;

	while (__atomic_load_n(p->left, __ATOMIC_ACQUIRE) > 0 && idle < 20000) {
		n = ibv_poll_cq(p->cq, 4, wc);
		if (n < 0) {
			p->ok = false;
			return NULL;
		}
		idle = n ? 0 : idle + 1;
		if (!n)
			usleep(500);
		for (i = 0; i < n; i++) {
			if (wc[i].status != IBV_WC_SUCCESS || wc[i].wr_id >= SENDS)
				p->ok = false;
			else
				__atomic_add_fetch(&p->seen[wc[i].wr_id], 1, __ATOMIC_RELAXED);
		}
		__atomic_sub_fetch(p->left, n, __ATOMIC_RELEASE);
	}
	return NULL;
}

/* THREADS threads polling one CQ while SENDS writes complete on it: each once. */
static bool t_threads_poll(void)
{
	struct poller p[THREADS];
	pthread_t th[THREADS];
	int seen[SENDS] = { 0 }, left = SENDS, i, posted = 0;
	struct ibv_send_wr w, *bad;
	struct ibv_sge sge;
	struct ibv_qp *a, *b;
	struct env e;
	bool ok;

	if (!env_open(&e))
		return false;
	a = qp_new(&e, IBV_QPT_RC, NULL);
	b = qp_new(&e, IBV_QPT_RC, NULL);
	ok = CHECK(a && b) && qp_connect(&e, a, b->qp_num) && qp_connect(&e, b, a->qp_num);
	for (i = 0; ok && i < THREADS; i++) {
		p[i] = (struct poller){ .cq = e.cq, .seen = seen, .left = &left, .ok = true };
		ok = CHECK(!pthread_create(&th[i], NULL, poller, &p[i]));
	}
	sge = (struct ibv_sge){ (uintptr_t)e.buf, 64, e.mr->lkey };
	w = (struct ibv_send_wr){ .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE,
				  .send_flags = IBV_SEND_SIGNALED };
	w.wr.rdma.remote_addr = (uintptr_t)e.buf + 4096;
	w.wr.rdma.rkey = e.mr->rkey;
	/* at most 32 in flight: the send queue holds 64 */
	while (ok && posted < SENDS) {
		if (posted - (SENDS - __atomic_load_n(&left, __ATOMIC_ACQUIRE)) >= 32) {
			usleep(200);
			continue;
		}
		w.wr_id = posted++;
		ok = CHECK(!ibv_post_send(a, &w, &bad));
	}
	if (!ok)
		__atomic_store_n(&left, 0, __ATOMIC_RELEASE);
	for (i = 0; i < THREADS; i++)
		if (p[i].cq) {
			pthread_join(th[i], NULL);
			ok = ok && CHECK(p[i].ok);
		}
	for (i = 0; ok && i < SENDS; i++)
		ok = CHECK(seen[i] == 1);
	ok = ok && CHECK(left == 0) && CHECK(!ibv_destroy_qp(a)) && CHECK(!ibv_destroy_qp(b));
	return env_close(&e) && ok;
}

static bool t_remove_device(void)
{
	ibv_free_device_list(list);
	return CHECK(!system("oib link delete " DEV_NAME));
}

static const struct ktap_case cases[] = {
	{ "devices", t_devices },
	{ "queries", t_queries },
	{ "bad_args", t_bad_args },
	{ "rc_inline_ops", t_rc_inline_ops },
	{ "srq", t_srq },
	{ "ud", t_ud },
	{ "xrc", t_xrc },
	{ "fork", t_fork },
	{ "threads_poll", t_threads_poll },
	{ "remove_device", t_remove_device },
};

/* the device, its port ACTIVE (10 s at most) */
static bool make_device(void)
{
	char path[128], state[32] = "";
	int i;

	if (system("oib link add " DEV_NAME " type rxe"))
		return false;
	snprintf(path, sizeof(path), "/sys/class/oib/%s/ports/1/state", DEV_NAME);
	for (i = 0; i < 1000 && strcmp(state, "4: ACTIVE"); i++) {
		if (ibv_read_sysfs_file("/", path + 1, state, sizeof(state)) < 0)
			return false;
		if (strcmp(state, "4: ACTIVE"))
			usleep(10000);
	}
	return !strcmp(state, "4: ACTIVE");
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!make_device()) {
		printf("KTAP version 1\n1..1\nnot ok 1 oib_ibverbs_compat # no device %s\n",
		       DEV_NAME);
		return 1;
	}
	return ktap_run("oib_ibverbs_compat", cases, sizeof(cases) / sizeof(cases[0]));
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_uverbs_xrc: XRC from user space (Documentation/xrc.md), on two oib_rxe devices it makes:
 * the receiving one (test_dev) and the initiators' (tx_dev).  Domains shared through a file,
 * every new command with bad arguments, XRC SRQs behind one kernel-owned receive QP, an MR
 * deregistered under RDMA WRITEs through it, and the 2007 XRC receive-QP design's scenario
 * between processes, with kill -9 at each step (uverbs_xrc_procs.c).  Prints KTAP (suite
 * oib_uverbs_xrc).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include "ktap.h"
#include "uverbs_util.h"
#include "uverbs_xrc.h"

struct oibv_device *tx_dev;
char tx_ibdev[64];
union oibv_gid rx_gid, tx_gid;
struct oibv_context *rx_ctx;	/* on test_dev */
struct oibv_context *tx_ctx;	/* on tx_dev */

static bool t_devices(void)
{
	if (!CHECK(setup_device()))
		return false;
	tx_dev = test_dev;
	snprintf(tx_ibdev, sizeof(tx_ibdev), "%s", test_ibdev);
	if (!CHECK(setup_device()))
		return false;
	rx_ctx = oibv_open_device(test_dev);
	tx_ctx = oibv_open_device(tx_dev);
	diag("receiving on %s, initiators on %s", test_ibdev, tx_ibdev);
	return CHECK(rx_ctx && tx_ctx) && CHECK(!oibv_query_gid(rx_ctx, 1, 0, &rx_gid)) &&
	       CHECK(!oibv_query_gid(tx_ctx, 1, 0, &tx_gid)) && CHECK(xrcd_files() == 0);
}

/* Do domains @a and @b share the receive QP @a makes (the same domain)? */
static bool same_domain(struct oibv_xrcd *a, struct oibv_xrcd *b)
{
	uint32_t qpn;
	int ret;

	if (!CHECK(!rcv_qp_make(a, 1, &qpn)))
		return false;
	ret = oibv_reg_xrc_rcv_qp(b, qpn);
	if (!ret)
		CHECK(!oibv_unreg_xrc_rcv_qp(b, qpn));
	return !ret;
}

static bool t_domain_file_rules(void)
{
	struct oibv_context *c2 = oibv_open_device(test_dev);
	struct oibv_xrcd *a, *b, *p, *t;
	char path[64];
	int fd = domain_file(path, sizeof(path));
	bool ok;

	if (!CHECK(c2 && fd >= 0))
		return false;
	ok = CHECK(!oibv_open_xrcd(rx_ctx, fd, 0)) && CHECK(errno == ENOENT);
	a = oibv_open_xrcd(rx_ctx, fd, O_CREAT);
	ok = ok && CHECK(a) && CHECK(xrcd_files() == 1);
	ok = ok && CHECK(!oibv_open_xrcd(c2, fd, O_CREAT | O_EXCL)) && CHECK(errno == EEXIST);
	b = oibv_open_xrcd(c2, fd, 0);
	p = oibv_open_xrcd(rx_ctx, -1, 0);
	t = oibv_open_xrcd(tx_ctx, fd, O_CREAT);	/* the same file on another device */
	ok = ok && CHECK(b && p && t) && CHECK(xrcd_files() == 1);
	ok = ok && CHECK(same_domain(a, b)) && CHECK(same_domain(b, a)) &&
	     CHECK(!same_domain(a, p)) && CHECK(!same_domain(p, b));
	ok = ok && CHECK(!oibv_close_xrcd(a)) && CHECK(xrcd_files() == 1);
	ok = ok && CHECK(!oibv_close_xrcd(b)) && CHECK(xrcd_files() == 0);
	ok = ok && CHECK(!oibv_close_xrcd(p)) && CHECK(!oibv_close_xrcd(t));
	/* the last close destroyed the receive QPs: a new opener makes a new, empty domain */
	a = oibv_open_xrcd(rx_ctx, fd, O_CREAT | O_EXCL);
	ok = ok && CHECK(a) && CHECK(!oibv_close_xrcd(a));
	ok = ok && CHECK(xrc_state_is(0, 0, false)) && CHECK(objects_back_to(base_objects + 0));
	close(fd);
	unlink(path);
	return ok && CHECK(!oibv_close_device(c2));
}

/* A domain opened through a file by a forked child is the parent's. */
static bool t_domain_fork(void)
{
	struct oibv_xrcd *a;
	char path[64];
	int fd = domain_file(path, sizeof(path)), st;
	uint32_t qpn;
	bool ok;
	pid_t pid;

	a = fd >= 0 ? oibv_open_xrcd(rx_ctx, fd, O_CREAT) : NULL;
	ok = CHECK(a) && CHECK(!rcv_qp_make(a, 1, &qpn));
	if (!ok)
		return false;
	pid = fork();
	if (!pid) {
		struct oibv_context *c = oibv_open_device(test_dev);
		struct oibv_xrcd *d = c ? oibv_open_xrcd(c, fd, 0) : NULL;

		_exit(d && !oibv_reg_xrc_rcv_qp(d, qpn) && !oibv_close_xrcd(d) ? 0 : 1);
	}
	ok = CHECK(pid > 0) && CHECK(waitpid(pid, &st, 0) == pid) && CHECK(st == 0);
	ok = ok && CHECK(rcv_qp_listed(qpn) == 1) && CHECK(!oibv_close_xrcd(a));
	ok = ok && CHECK(xrc_state_is(0, qpn, false)) && CHECK(objects_back_to(base_objects));
	close(fd);
	unlink(path);
	return ok;
}

/* 20 messages alternating between two SRQs of one domain, each on its own CQ. */
static bool send_to_srqs(bool ring)
{
	struct xrc_rcv r[2] = { 0 };
	struct xrc_ini ini;
	int good[2] = { 0 }, bad[2] = { 0 }, i;
	uint32_t qpn = 0;
	bool ok;

	tx_ctx->rings = ring;	/* the initiator's sends by its send ring, or by ioctls */
	ok = CHECK(ini_make(&ini, tx_ctx)) && CHECK(rcv_make(&r[0], rx_ctx, -1, 0)) &&
	     CHECK(rcv_make_on(&r[1], rx_ctx, r[0].xrcd));
	ok = ok && CHECK(!rcv_qp_make(r[0].xrcd, ini.qp->qp_num, &qpn)) &&
	     CHECK(ini_connect(&ini, qpn));
	ok = ok && CHECK(r[1].srq->xrc_srq_num != r[0].srq->xrc_srq_num);
	for (i = 0; ok && i < 20; i++)
		ok = CHECK(ini_send(&ini, r[i % 2].srq->xrc_srq_num, i) == OIBV_WC_SUCCESS);
	for (i = 0; i < 2 && ok; i++) {
		int64_t end = now_ms() + 10000;

		while (good[i] + bad[i] < 10 && now_ms() < end && rcv_poll(&r[i], &good[i],
									   &bad[i]) >= 0)
			;
		diag("rings %d, SRQ %u: %d messages for it, %d for another", ring,
		     r[i].srq->xrc_srq_num, good[i], bad[i]);
		ok = CHECK(good[i] == 10) && CHECK(!bad[i]);
	}
	rcv_free(&r[1]);
	rcv_free(&r[0]);
	ini_free(&ini);
	tx_ctx->rings = 1;
	return ok && CHECK(xrc_state_is(0, qpn, false)) && CHECK(objects_back_to(base_objects));
}

static bool t_send_to_srqs(void)
{
	return send_to_srqs(true) && send_to_srqs(false);
}

/* Post @n signalled RDMA WRITEs of @len bytes from @sge's memory to SRQ @srqn's @va under @rkey. */
static bool post_writes(struct xrc_ini *s, struct oibv_sge *sge, uint32_t srqn, uint64_t va,
			uint32_t rkey, int n)
{
	struct oibv_send_wr wr = {
		.sg_list = sge, .num_sge = 1, .opcode = OIBV_WR_RDMA_WRITE,
		.send_flags = OIBV_SEND_SIGNALED, .xrc_remote_srq_num = srqn,
		.wr.rdma = { .remote_addr = va, .rkey = rkey },
	};
	struct oibv_send_wr *bad;
	int i;

	for (i = 0; i < n; i++) {
		wr.wr_id = i;
		if (!CHECK(!oibv_post_send(s->qp, &wr, &bad)))
			return false;
	}
	return true;
}

#define MID_LEN		(1024 * 1024)
#define MID_WRITES	8

/*
 * 1 MiB RDMA WRITEs through the kernel's receive QP to an MR of the XRC SRQ's PD (no user QP
 * counts on that PD), the MR deregistered and its memory unmapped as the first write completes,
 * the others under way: DEREG_MR lets go of the pinned pages only once the device is done with
 * them (else the responder writes into unmapped memory: an oops), and the writes behind fail.
 * What completes: writes that succeeded, then REM_ACCESS_ERR, then flushed ones.
 */
static bool t_dereg_mid_write(void)
{
	char *buf = mmap(NULL, MID_LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *src = mmap(NULL, MID_LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct oibv_mr *mr = NULL, *smr = NULL;
	struct oibv_wc wc[MID_WRITES];
	struct xrc_rcv r = { 0 };
	struct oibv_qp_attr a;
	struct xrc_ini ini;
	int good = 0, i;
	uint32_t qpn = 0;
	bool ok;

	ok = CHECK(buf != MAP_FAILED && src != MAP_FAILED) && CHECK(ini_make(&ini, tx_ctx)) &&
	     CHECK(rcv_make(&r, rx_ctx, -1, 0));
	rcv_qp_attr(ok ? ini.qp->qp_num : 0, &a);
	a.qp_access_flags = OIBV_ACCESS_REMOTE_WRITE;
	ok = ok && CHECK(!oibv_create_xrc_rcv_qp(r.xrcd, &a, XRC_RCV_MASK, &qpn)) &&
	     CHECK(ini_connect(&ini, qpn));
	mr = ok ? oibv_reg_mr(r.pd, buf, MID_LEN,
			      OIBV_ACCESS_LOCAL_WRITE | OIBV_ACCESS_REMOTE_WRITE) : NULL;
	smr = mr ? oibv_reg_mr(ini.pd, src, MID_LEN, OIBV_ACCESS_LOCAL_WRITE) : NULL;
	ok = ok && CHECK(mr && smr);
	if (ok) {
		struct oibv_sge sge = { (uintptr_t)src, MID_LEN, smr->lkey };

		memset(src, 0x5a, MID_LEN);
		ok = post_writes(&ini, &sge, r.srq->xrc_srq_num, (uintptr_t)buf, mr->rkey,
				 MID_WRITES) && poll_n(ini.cq, 1, wc) &&
		     CHECK(wc[0].status == OIBV_WC_SUCCESS);
		/* as soon as one is done, the next under way */
		ok = CHECK(!oibv_dereg_mr(mr)) && ok;
		mr = NULL;
		munmap(buf, MID_LEN);
		buf = MAP_FAILED;
		ok = ok && poll_n(ini.cq, MID_WRITES - 1, wc + 1);
	}
	for (i = 0; ok && i < MID_WRITES && wc[i].status == OIBV_WC_SUCCESS; i++)
		good++;
	if (ok)
		diag("%d of %d writes done before DEREG_MR took effect", good, MID_WRITES);
	ok = ok && CHECK(good < MID_WRITES) && CHECK(wc[good].status == OIBV_WC_REM_ACCESS_ERR);
	for (i = good + 1; ok && i < MID_WRITES; i++)
		ok = CHECK(wc[i].status == OIBV_WC_WR_FLUSH_ERR);
	if (mr)
		CHECK(!oibv_dereg_mr(mr));
	if (smr)
		CHECK(!oibv_dereg_mr(smr));
	rcv_free(&r);
	ini_free(&ini);
	if (buf != MAP_FAILED)
		munmap(buf, MID_LEN);
	if (src != MAP_FAILED)
		munmap(src, MID_LEN);
	return ok && CHECK(xrc_state_is(0, qpn, false)) && CHECK(objects_back_to(base_objects));
}

/* An owner's target QP: the creator's, modified by it to RTR, gone when it destroys it. */
static struct oibv_qp *owner_target(struct oibv_xrcd *d, uint32_t ini_qpn)
{
	struct oibv_qp_init_attr ia = { .qp_type = OIBV_QPT_XRC_RECV, .xrcd = d };
	struct oibv_qp *qp = oibv_create_qp(NULL, &ia);
	struct oibv_qp_attr a = { .qp_state = OIBV_QPS_INIT, .port_num = 1 };

	if (!CHECK(qp) ||
	    !CHECK(!oibv_modify_qp(qp, &a, OIBV_QP_STATE | OIBV_QP_PKEY_INDEX | OIBV_QP_PORT |
				   OIBV_QP_ACCESS_FLAGS)))
		return NULL;
	rcv_qp_attr(ini_qpn, &a);
	a.qp_state = OIBV_QPS_RTR;
	if (!CHECK(!oibv_modify_qp(qp, &a, OIBV_QP_STATE | OIBV_QP_AV | OIBV_QP_PATH_MTU |
				   OIBV_QP_DEST_QPN | OIBV_QP_RQ_PSN |
				   OIBV_QP_MAX_DEST_RD_ATOMIC | OIBV_QP_MIN_RNR_TIMER)))
		return NULL;
	return qp;
}

static bool t_owner_target(void)
{
	struct oib_uverbs_recv_wr w = { 0 };
	struct oib_uverbs_post post = { .count = 1, .wrs = (uintptr_t)&w };
	struct xrc_rcv r[2] = { 0 };
	struct xrc_ini ini;
	struct oibv_qp *tgt = NULL;
	int good[2] = { 0 }, bad[2] = { 0 }, i;
	bool ok;

	ok = CHECK(ini_make(&ini, tx_ctx)) && CHECK(rcv_make(&r[0], rx_ctx, -1, 0)) &&
	     CHECK(rcv_make_on(&r[1], rx_ctx, r[0].xrcd));
	tgt = ok ? owner_target(r[0].xrcd, ini.qp->qp_num) : NULL;
	ok = ok && CHECK(tgt) && CHECK(ini_connect(&ini, tgt->qp_num));
	for (i = 0; ok && i < 10; i++)
		ok = CHECK(ini_send(&ini, r[i % 2].srq->xrc_srq_num, i) == OIBV_WC_SUCCESS);
	for (i = 0; i < 2 && ok; i++) {
		int64_t end = now_ms() + 10000;

		while (good[i] + bad[i] < 5 && now_ms() < end && rcv_poll(&r[i], &good[i],
									  &bad[i]) >= 0)
			;
		ok = CHECK(good[i] == 5) && CHECK(!bad[i]);
	}
	/* no queues of its own; it holds its domain handle; its owner's destroy ends it */
	post.handle = tgt ? tgt->handle : 0;
	ok = ok && CHECK_ERR(raw_cmd(rx_ctx->cmd_fd, OIB_UVERBS_POST_RECV, &post, sizeof(post)),
			     EINVAL);
	ok = ok && CHECK_ERR(oibv_close_xrcd(r[0].xrcd), EBUSY) && CHECK(!oibv_destroy_qp(tgt));
	ok = ok && CHECK(ini_send(&ini, r[0].srq->xrc_srq_num, 99) == OIBV_WC_RETRY_EXC_ERR);
	rcv_free(&r[1]);
	rcv_free(&r[0]);
	ini_free(&ini);
	return ok && CHECK(objects_back_to(base_objects));
}

/* ---- every new command with bad arguments, by raw ioctl ---- */

static int open_raw(int cmd_fd, int fd, uint32_t oflags, uint32_t *handle)
{
	struct oib_uverbs_open_xrcd c = { .fd = fd, .oflags = oflags };
	int ret = raw_cmd(cmd_fd, OIB_UVERBS_OPEN_XRCD, &c, sizeof(c));

	*handle = c.handle;
	return ret;
}

static bool abuse_open_close(void)
{
	struct oib_uverbs_open_xrcd o = { .fd = -1, .reserved = 1 };
	struct oib_uverbs_destroy d = { 0 };
	struct oibv_pd *pd = oibv_alloc_pd(rx_ctx);
	int cfd = rx_ctx->cmd_fd;
	uint32_t h;
	bool ok;

	ok = CHECK(pd) && CHECK_ERR(raw_cmd(cfd, OIB_UVERBS_OPEN_XRCD, &o, sizeof(o)), EINVAL);
	ok = ok && CHECK_ERR(open_raw(cfd, -1, O_EXCL, &h), EINVAL) &&
	     CHECK_ERR(open_raw(cfd, -1, O_CREAT | O_EXCL, &h), EINVAL) &&
	     CHECK_ERR(open_raw(cfd, cfd, O_EXCL, &h), EINVAL) &&
	     CHECK_ERR(open_raw(cfd, cfd, O_CREAT | O_TRUNC, &h), EINVAL) &&
	     CHECK_ERR(open_raw(cfd, -2, O_CREAT, &h), EBADF) &&
	     CHECK_ERR(open_raw(cfd, 100000, O_CREAT, &h), EBADF);
	d.handle = 0;
	ok = ok && CHECK_ERR(raw_cmd(cfd, OIB_UVERBS_CLOSE_XRCD, &d, sizeof(d)), EINVAL);
	d.handle = pd->handle;	/* a PD is no domain, and a domain no PD */
	ok = ok && CHECK_ERR(raw_cmd(cfd, OIB_UVERBS_CLOSE_XRCD, &d, sizeof(d)), EINVAL);
	ok = ok && CHECK(!open_raw(cfd, -1, O_CREAT, &h));
	d.handle = h;
	ok = ok && CHECK_ERR(raw_cmd(cfd, OIB_UVERBS_DEALLOC_PD, &d, sizeof(d)), EINVAL);
	/* the handle means nothing on the other device's context */
	ok = ok && CHECK_ERR(raw_cmd(tx_ctx->cmd_fd, OIB_UVERBS_CLOSE_XRCD, &d, sizeof(d)),
			     EINVAL);
	d.reserved = 1;
	ok = ok && CHECK_ERR(raw_cmd(cfd, OIB_UVERBS_CLOSE_XRCD, &d, sizeof(d)), EINVAL);
	d.reserved = 0;
	ok = ok && CHECK(!raw_cmd(cfd, OIB_UVERBS_CLOSE_XRCD, &d, sizeof(d))) &&
	     CHECK_ERR(raw_cmd(cfd, OIB_UVERBS_CLOSE_XRCD, &d, sizeof(d)), EINVAL);
	return ok && CHECK(!oibv_dealloc_pd(pd));
}

static int srq_raw(struct oib_uverbs_create_srq *c)
{
	int ret;

	c->attr = (struct oib_uverbs_srq_attr){ .max_wr = 8, .max_sge = 1 };
	ret = raw_cmd(rx_ctx->cmd_fd, OIB_UVERBS_CREATE_SRQ, c, sizeof(*c));
	if (!ret)
		raw_cmd(rx_ctx->cmd_fd, OIB_UVERBS_DESTROY_SRQ,
			&(struct oib_uverbs_destroy_reported){ .handle = c->handle },
			sizeof(struct oib_uverbs_destroy_reported));
	return ret;
}

static bool abuse_xrc_srq(void)
{
	struct xrc_rcv r;
	struct oib_uverbs_create_srq c;
	struct oibv_cq *tx_cq = oibv_create_cq(tx_ctx, 8, NULL, NULL, 0);
	bool ok = CHECK(tx_cq) && CHECK(rcv_make(&r, rx_ctx, -1, 0));
	const struct oib_uverbs_create_srq good = {
		.pd_handle = r.pd->handle, .srq_type = OIB_UVERBS_SRQT_XRC,
		.xrcd_handle = r.xrcd->handle, .cq_handle = r.cq->handle,
	};

	c = good;
	ok = ok && CHECK(!srq_raw(&c)) && CHECK(c.srq_num);
	c = good;
	c.xrcd_handle = r.pd->handle;
	ok = ok && CHECK_ERR(srq_raw(&c), EINVAL);
	c = good;
	c.xrcd_handle = 0;
	ok = ok && CHECK_ERR(srq_raw(&c), EINVAL);
	c = good;
	c.cq_handle = r.xrcd->handle;
	ok = ok && CHECK_ERR(srq_raw(&c), EINVAL);
	c = good;
	c.cq_handle = tx_cq->handle + 1000;
	ok = ok && CHECK_ERR(srq_raw(&c), EINVAL);
	c = good;
	c.pd_handle = r.xrcd->handle;
	ok = ok && CHECK_ERR(srq_raw(&c), EINVAL);
	c = good;
	c.ring_flags = OIB_UVERBS_CREATE_MAPPED;
	ok = ok && CHECK_ERR(srq_raw(&c), EINVAL);
	c = good;
	c.srq_type = 2;
	ok = ok && CHECK_ERR(srq_raw(&c), EINVAL);
	c = good;
	c.srq_num = 5;
	ok = ok && CHECK_ERR(srq_raw(&c), EINVAL);
	c = good;
	c.srq_type = OIB_UVERBS_SRQT_BASIC;	/* a basic SRQ names no domain or CQ */
	ok = ok && CHECK_ERR(srq_raw(&c), EINVAL);
	c = good;
	c.srq_type = OIB_UVERBS_SRQT_BASIC, c.xrcd_handle = c.cq_handle = 0;
	ok = ok && CHECK(!srq_raw(&c)) && CHECK(!c.srq_num);
	/* busy: the domain while its SRQ lives, the SRQ's CQ */
	ok = ok && CHECK_ERR(oibv_close_xrcd(r.xrcd), EBUSY) && CHECK_ERR(oibv_destroy_cq(r.cq),
									      EBUSY);
	rcv_free(&r);
	return ok && CHECK(!oibv_destroy_cq(tx_cq)) && CHECK(objects_back_to(base_objects));
}

static int rcv_raw(uint32_t handle, uint32_t mask, uint32_t state, uint32_t *qpn)
{
	struct oib_uverbs_create_xrc_rcv_qp c = {
		.attr = { .handle = handle, .attr_mask = mask, .qp_state = state, .port_num = 1,
			  .path_mtu = OIBV_MTU_1024, .dest_qp_num = 1, .max_dest_rd_atomic = 1,
			  .min_rnr_timer = 12,
			  .ah_attr = { .is_global = 1, .port_num = 1, .hop_limit = 64 } },
	};
	int ret;

	memcpy(c.attr.ah_attr.dgid, tx_gid.raw, sizeof(tx_gid.raw));
	ret = raw_cmd(rx_ctx->cmd_fd, OIB_UVERBS_CREATE_XRC_RCV_QP, &c, sizeof(c));

	*qpn = c.qp_num;
	return ret;
}

static int reg_raw(unsigned int nr, uint32_t handle, uint32_t qpn)
{
	struct oib_uverbs_xrc_rcv_qp_reg c = { .xrcd_handle = handle, .qp_num = qpn };

	return raw_cmd(rx_ctx->cmd_fd, nr, &c, sizeof(c));
}

#define RCV_MASK XRC_RCV_MASK

static bool abuse_rcv_qp(void)
{
	struct oibv_xrcd *d = oibv_open_xrcd(rx_ctx, -1, 0), *e = oibv_open_xrcd(rx_ctx, -1, 0);
	struct pair p;
	uint32_t qpn, q2;
	bool ok = CHECK(d && e) && CHECK(pair_setup(&p, rx_ctx, OIBV_QPT_RC, NULL, NULL));

	ok = ok && CHECK_ERR(rcv_raw(d->handle, RCV_MASK | OIB_UVERBS_QP_STATE, 0, &qpn), EINVAL);
	ok = ok && CHECK_ERR(rcv_raw(d->handle, RCV_MASK, OIBV_QPS_RTR, &qpn), EINVAL);
	ok = ok && CHECK_ERR(rcv_raw(d->handle, RCV_MASK | OIB_UVERBS_QP_SQ_PSN, 0, &qpn), EINVAL);
	ok = ok && CHECK_ERR(rcv_raw(d->handle, RCV_MASK | (1u << 30), 0, &qpn), EINVAL);
	ok = ok && CHECK_ERR(rcv_raw(d->handle, RCV_MASK & ~OIB_UVERBS_QP_PORT, 0, &qpn), EINVAL);
	ok = ok && CHECK_ERR(rcv_raw(d->handle, RCV_MASK & ~OIB_UVERBS_QP_AV, 0, &qpn), EINVAL);
	ok = ok && CHECK_ERR(rcv_raw(p.pd->handle, RCV_MASK, 0, &qpn), EINVAL);
	ok = ok && CHECK_ERR(rcv_raw(0, RCV_MASK, 0, &qpn), EINVAL);
	ok = ok && CHECK(!rcv_raw(d->handle, RCV_MASK, 0, &qpn)) && CHECK(rcv_qp_listed(qpn) == 1);
	/* registrations: only a receive QP of the handle's domain, once per handle */
	ok = ok && CHECK_ERR(reg_raw(OIB_UVERBS_REG_XRC_RCV_QP, e->handle, qpn), ENOENT) &&
	     CHECK_ERR(reg_raw(OIB_UVERBS_REG_XRC_RCV_QP, d->handle, p.a->qp_num), ENOENT) &&
	     CHECK_ERR(reg_raw(OIB_UVERBS_REG_XRC_RCV_QP, d->handle, qpn + 1000), ENOENT) &&
	     CHECK_ERR(reg_raw(OIB_UVERBS_REG_XRC_RCV_QP, p.pd->handle, qpn), EINVAL) &&
	     CHECK_ERR(reg_raw(OIB_UVERBS_UNREG_XRC_RCV_QP, d->handle, qpn), ENOENT) &&
	     CHECK(!reg_raw(OIB_UVERBS_REG_XRC_RCV_QP, d->handle, qpn)) &&
	     CHECK_ERR(reg_raw(OIB_UVERBS_REG_XRC_RCV_QP, d->handle, qpn), EEXIST) &&
	     CHECK_ERR(reg_raw(OIB_UVERBS_UNREG_XRC_RCV_QP, e->handle, qpn), ENOENT) &&
	     CHECK(!reg_raw(OIB_UVERBS_UNREG_XRC_RCV_QP, d->handle, qpn)) &&
	     CHECK_ERR(reg_raw(OIB_UVERBS_UNREG_XRC_RCV_QP, d->handle, qpn), ENOENT);
	/* registered at close: the registration goes with the handle, and the QP with it */
	ok = ok && CHECK(!rcv_raw(d->handle, RCV_MASK, 0, &q2)) &&
	     CHECK(!reg_raw(OIB_UVERBS_REG_XRC_RCV_QP, d->handle, q2));
	pair_teardown(&p);
	ok = ok && CHECK(!oibv_close_xrcd(d)) && CHECK(!oibv_close_xrcd(e));
	return ok && CHECK(xrc_state_is(0, q2, false)) && CHECK(rcv_qp_listed(qpn) == 0) &&
	       CHECK(objects_back_to(base_objects));
}

/* CREATE_QP @c on @ctx, and at once DESTROY_QP what it made: the create's result. */
static int qp_raw(struct oibv_context *ctx, struct oib_uverbs_create_qp *c)
{
	int ret = raw_cmd(ctx->cmd_fd, OIB_UVERBS_CREATE_QP, c, sizeof(*c));

	if (!ret)
		raw_cmd(ctx->cmd_fd, OIB_UVERBS_DESTROY_QP,
			&(struct oib_uverbs_destroy_reported){ .handle = c->handle },
			sizeof(struct oib_uverbs_destroy_reported));
	return ret;
}

static bool abuse_ini(void)
{
	struct xrc_ini s;
	struct oib_uverbs_create_qp c, good;
	struct oib_uverbs_send_wr w = { .opcode = OIB_UVERBS_WR_SEND, .xrc_remote_srq_num = 1 };
	struct oib_uverbs_post post = { .count = 1, .wrs = (uintptr_t)&w };
	struct oibv_srq *srq;
	bool ok = CHECK(ini_make(&s, tx_ctx));

	srq = ok ? oibv_create_srq(s.pd, &(struct oibv_srq_init_attr){ .attr = { 8, 1 } }) : NULL;
	good = (struct oib_uverbs_create_qp){
		.pd_handle = s.pd->handle, .send_cq_handle = s.cq->handle,
		.qp_type = OIB_UVERBS_QPT_XRC_INI, .cap = { .max_send_wr = 4, .max_send_sge = 1 },
	};
	c = good;
	ok = ok && CHECK(srq) && CHECK(!qp_raw(tx_ctx, &c));
	c = good;
	c.recv_cq_handle = s.cq->handle;
	ok = ok && CHECK_ERR(qp_raw(tx_ctx, &c), EINVAL);
	c = good;
	c.srq_handle = srq->handle;
	ok = ok && CHECK_ERR(qp_raw(tx_ctx, &c), EINVAL);
	c = good;
	c.cap.max_recv_wr = 1;
	ok = ok && CHECK_ERR(qp_raw(tx_ctx, &c), EINVAL);
	c = good;
	c.ring_flags = OIB_UVERBS_CREATE_MAPPED_RQ;
	ok = ok && CHECK_ERR(qp_raw(tx_ctx, &c), EINVAL);
	c = good;
	c.pd_handle = 0;
	ok = ok && CHECK_ERR(qp_raw(tx_ctx, &c), EINVAL);
	/* sends: no AH or Q_Key on an initiator; no SRQ number on an RC QP */
	post.handle = s.qp->handle;
	w.ah_handle = s.pd->handle;
	ok = ok && CHECK_ERR(raw_cmd(tx_ctx->cmd_fd, OIB_UVERBS_POST_SEND, &post, sizeof(post)),
			     EINVAL);
	w.ah_handle = 0, w.remote_qkey = 7, post.bad_wr = 0;
	ok = ok && CHECK_ERR(raw_cmd(tx_ctx->cmd_fd, OIB_UVERBS_POST_SEND, &post, sizeof(post)),
			     EINVAL);
	ok = ok && CHECK(!oibv_destroy_srq(srq));
	ini_free(&s);
	return ok;
}

static bool abuse_target(void)
{
	struct xrc_rcv r;
	struct oib_uverbs_create_qp c, good;
	bool ok = CHECK(rcv_make(&r, rx_ctx, -1, 0));

	good = (struct oib_uverbs_create_qp){
		.qp_type = OIB_UVERBS_QPT_XRC_TGT, .xrcd_handle = r.xrcd->handle,
	};
	c = good;
	ok = ok && CHECK(!qp_raw(rx_ctx, &c)) && CHECK(c.qp_num);
	c = good;
	c.pd_handle = r.pd->handle;
	ok = ok && CHECK_ERR(qp_raw(rx_ctx, &c), EINVAL);
	c = good;
	c.send_cq_handle = r.cq->handle;
	ok = ok && CHECK_ERR(qp_raw(rx_ctx, &c), EINVAL);
	c = good;
	c.srq_handle = r.srq->handle;
	ok = ok && CHECK_ERR(qp_raw(rx_ctx, &c), EINVAL);
	c = good;
	c.cap.max_recv_wr = 1;
	ok = ok && CHECK_ERR(qp_raw(rx_ctx, &c), EINVAL);
	c = good;
	c.ring_flags = OIB_UVERBS_CREATE_MAPPED;
	ok = ok && CHECK_ERR(qp_raw(rx_ctx, &c), EINVAL);
	c = good;
	c.xrcd_handle = 0;
	ok = ok && CHECK_ERR(qp_raw(rx_ctx, &c), EINVAL);
	c = good;
	c.xrcd_handle = r.pd->handle;
	ok = ok && CHECK_ERR(qp_raw(rx_ctx, &c), EINVAL);
	c = good;
	c.reserved3 = 1;
	ok = ok && CHECK_ERR(qp_raw(rx_ctx, &c), EINVAL);
	/* a domain handle on another type of QP */
	c = (struct oib_uverbs_create_qp){
		.pd_handle = r.pd->handle, .send_cq_handle = r.cq->handle,
		.recv_cq_handle = r.cq->handle, .qp_type = OIB_UVERBS_QPT_RC,
		.xrcd_handle = r.xrcd->handle, .cap = { .max_send_wr = 1, .max_recv_wr = 1 },
	};
	ok = ok && CHECK_ERR(qp_raw(rx_ctx, &c), EINVAL);
	rcv_free(&r);
	return ok && CHECK(objects_back_to(base_objects));
}

static bool abuse_rc_srq_num(void)
{
	struct oib_uverbs_send_wr w = { .opcode = OIB_UVERBS_WR_SEND, .xrc_remote_srq_num = 1 };
	struct oib_uverbs_post post = { .count = 1, .wrs = (uintptr_t)&w };
	struct pair p;
	bool ok = CHECK(pair_setup(&p, rx_ctx, OIBV_QPT_RC, NULL, NULL));

	post.handle = ok ? p.a->handle : 0;
	ok = ok && CHECK_ERR(raw_cmd(rx_ctx->cmd_fd, OIB_UVERBS_POST_SEND, &post, sizeof(post)),
			     EINVAL);
	pair_teardown(&p);
	return ok && CHECK(objects_back_to(base_objects));
}

/* A context closed with a domain, SRQs and registrations: nothing left. */
static bool t_close_context(void)
{
	struct oibv_context *c = oibv_open_device(test_dev);
	struct xrc_rcv r;
	char path[64];
	int fd = domain_file(path, sizeof(path));
	uint32_t qpn = 0;
	bool ok = CHECK(c && fd >= 0) && CHECK(rcv_make(&r, c, fd, O_CREAT));

	ok = ok && CHECK(!rcv_qp_make(r.xrcd, 1, &qpn)) &&
	     CHECK(!oibv_reg_xrc_rcv_qp(r.xrcd, qpn)) && CHECK(xrcd_files() == 1);
	ok = ok && CHECK(!oibv_close_device(c));
	munmap(r.buf, BUF_SIZE);
	close(fd);
	unlink(path);
	return ok && CHECK(xrc_state_is(0, qpn, false)) && CHECK(objects_back_to(base_objects));
}

static void close_raw(struct oibv_context *c)
{
	close(c->async_fd);
	close(c->cmd_fd);
}

/*
 * The receiving device removed under two contexts sharing a file's domain, with an XRC SRQ, the
 * receive QP carrying traffic, a registration and an owner's target QP: the removal tears it all
 * down (the log and kmemleak checks see the rest), the contexts answer -EIO, and the initiator's
 * requests go unanswered.
 */
static bool t_remove_devices(void)
{
	struct oibv_context *c = oibv_open_device(test_dev), *c2 = oibv_open_device(test_dev);
	struct oib_uverbs_query_device q = { 0 };
	struct oibv_xrcd *d2;
	struct xrc_ini ini;
	struct xrc_rcv r;
	char path[64];
	int fd = domain_file(path, sizeof(path));
	uint32_t qpn = 0;
	bool ok = CHECK(c && c2 && fd >= 0) && CHECK(!oibv_close_device(rx_ctx));

	ok = ok && CHECK(ini_make(&ini, tx_ctx)) && CHECK(rcv_make(&r, c, fd, O_CREAT)) &&
	     CHECK(!rcv_qp_make(r.xrcd, ini.qp->qp_num, &qpn)) && CHECK(ini_connect(&ini, qpn));
	d2 = ok ? oibv_open_xrcd(c2, fd, 0) : NULL;
	ok = ok && CHECK(d2) && CHECK(!oibv_reg_xrc_rcv_qp(d2, qpn)) &&
	     CHECK(owner_target(r.xrcd, 1)) &&
	     CHECK(ini_send(&ini, r.srq->xrc_srq_num, 1) == OIBV_WC_SUCCESS);
	ok = ok && CHECK(remove_device()) &&
	     CHECK(raw_cmd(c->cmd_fd, OIB_UVERBS_QUERY_DEVICE, &q, sizeof(q)) == EIO) &&
	     CHECK(raw_cmd(c2->cmd_fd, OIB_UVERBS_QUERY_DEVICE, &q, sizeof(q)) == EIO);
	ok = ok && CHECK(ini_send(&ini, r.srq->xrc_srq_num, 2) == OIBV_WC_RETRY_EXC_ERR);
	close_raw(c);
	close_raw(c2);
	ini_free(&ini);
	close(fd);
	unlink(path);
	ok = ok && CHECK(!oibv_close_device(tx_ctx));
	snprintf(test_ibdev, sizeof(test_ibdev), "%s", tx_ibdev);
	return ok && CHECK(remove_device());
}

static const struct ktap_case cases[] = {
	{ "devices", t_devices },
	{ "domain_file_rules", t_domain_file_rules },
	{ "domain_fork", t_domain_fork },
	{ "send_to_srqs", t_send_to_srqs },
	{ "owner_target", t_owner_target },
	{ "dereg_mid_write", t_dereg_mid_write },
	{ "bad_open_close", abuse_open_close },
	{ "bad_xrc_srq", abuse_xrc_srq },
	{ "bad_rcv_qp_and_reg", abuse_rcv_qp },
	{ "bad_initiator", abuse_ini },
	{ "bad_owner_target", abuse_target },
	{ "srq_num_on_rc", abuse_rc_srq_num },
	{ "close_context", t_close_context },
	{ "scenario", xrc_scenario },
	{ "scenario_kill9", xrc_scenario_kill9 },
	{ "kill9_before_publish", xrc_kill9_before_publish },
	{ "kill9_after_open", xrc_kill9_after_open },
	{ "kill9_fuzz", xrc_kill9_fuzz },
	{ "remove_devices", t_remove_devices },
};

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	return ktap_run("oib_uverbs_xrc", cases, sizeof(cases) / sizeof(cases[0]));
}

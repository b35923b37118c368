// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_uverbs_user: the userspace suite of oib_uverbs, through liboibv (and raw ioctls where a
 * library would never go).  Every verb of the first slice, completion channels (the
 * completion-channel design thread's cases: many CQs on one channel, one CQ per channel,
 * epoll, vectors, acknowledgment in batches, destroy waiting for acknowledgments), then abuse
 * (uverbs_abuse.c).  Runs as root in the test guest, on an oib_rxe device it makes and removes;
 * prints KTAP (suite oib_uverbs_user).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/stat.h>
#include "ktap.h"
#include "uverbs_util.h"
#include "uverbs_abuse.h"
#include "uverbs_rdma.h"
#include "uverbs_rings.h"

static struct oibv_context *ctx;	/* the suite's context, open from device_list on */

struct oibv_context *ctx_for_tests(void)
{
	return ctx;
}

static bool t_device_list(void)
{
	char link[256], path[128];
	struct stat st;
	ssize_t n;

	if (!CHECK(setup_device()))
		return false;
	snprintf(path, sizeof(path), "/sys/class/oib/%s/uverbs", test_ibdev);
	n = readlink(path, link, sizeof(link) - 1);
	if (!CHECK(n > 0))
		return false;
	link[n] = 0;
	diag("%s -> %s", path, link);
	ctx = oibv_open_device(test_dev);
	return CHECK(strstr(link, test_dev->name)) && CHECK(!stat(test_dev->dev_path, &st)) &&
	       CHECK(S_ISCHR(st.st_mode)) && CHECK(ctx) && CHECK(ctx->async_fd >= 0);
}

static bool t_query(void)
{
	struct oibv_device_attr da;
	struct oibv_port_attr pa;
	union oibv_gid gid;
	bool ok;

	ok = CHECK(!oibv_query_device(ctx, &da)) && CHECK(da.phys_port_cnt == 1) &&
	     CHECK(da.num_comp_vectors >= 1) && CHECK(da.max_cqe > 0) &&
	     CHECK(ctx->num_comp_vectors == da.num_comp_vectors);
	ok = ok && CHECK(!oibv_query_port(ctx, 1, &pa)) && CHECK(pa.gid_tbl_len > 0) &&
	     CHECK(pa.link_layer == 2);
	ok = ok && CHECK_ERR(oibv_query_port(ctx, 0, &pa), EINVAL) &&
	     CHECK_ERR(oibv_query_port(ctx, 2, &pa), EINVAL);
	ok = ok && CHECK(!oibv_query_gid(ctx, 1, 0, &gid)) && CHECK(gid.raw[0] == 0xfe) &&
	     CHECK_ERR(oibv_query_gid(ctx, 1, 1 << 20, &gid), EINVAL);
	diag("%d completion vectors, port state %d, active MTU %d", da.num_comp_vectors, pa.state,
	     pa.active_mtu);
	return ok;
}

static bool t_comp_vector_map(void)
{
	int v, cpu;
	bool ok = true;

	for (v = 0; v < ctx->num_comp_vectors; v++) {
		cpu = oibv_comp_vector_cpu(ctx, v);
		diag("vector %d -> CPU %d", v, cpu);
		ok = ok && CHECK(cpu >= 0);
	}
	return ok && CHECK(oibv_comp_vector_cpu(ctx, ctx->num_comp_vectors) == -1);
}

static bool t_pd(void)
{
	struct oibv_pd *pd = oibv_alloc_pd(ctx), stale;
	int base = live_objects();

	if (!CHECK(pd))
		return false;
	stale = *pd;
	return CHECK(live_objects() == base) && CHECK(!oibv_dealloc_pd(pd)) &&
	       CHECK(live_objects() == base - 1) && CHECK_ERR(oibv_dealloc_pd(&stale), EINVAL);
}

static bool t_cq_checks(void)
{
	struct oibv_comp_channel *ch = oibv_create_comp_channel(ctx);
	struct oibv_context *other = oibv_open_device(test_dev);
	struct oibv_comp_channel *foreign = other ? oibv_create_comp_channel(other) : NULL;
	struct oibv_comp_channel fake = { .fd = ctx->cmd_fd }, bad = { .fd = 999 };
	struct oibv_cq *cq;
	bool ok;

	if (!CHECK(ch && other && foreign))
		return false;
	ok = CHECK(!oibv_create_cq(ctx, 0, NULL, ch, 0)) && CHECK(errno == EINVAL) &&
	     CHECK(!oibv_create_cq(ctx, 16, NULL, ch, ctx->num_comp_vectors)) &&
	     CHECK(errno == EINVAL) &&
	     CHECK(!oibv_create_cq(ctx, 16, NULL, foreign, 0)) && CHECK(errno == EINVAL) &&
	     CHECK(!oibv_create_cq(ctx, 16, NULL, &fake, 0)) && CHECK(errno == EINVAL) &&
	     CHECK(!oibv_create_cq(ctx, 16, NULL, &bad, 0)) && CHECK(errno == EBADF);
	cq = oibv_create_cq(ctx, 5, NULL, ch, ctx->num_comp_vectors - 1);
	ok = ok && CHECK(cq) && CHECK(cq->cqe >= 5) &&
	     CHECK_ERR(oibv_destroy_comp_channel(ch), EBUSY) && CHECK(!oibv_req_notify_cq(cq, 0)) &&
	     CHECK(!oibv_req_notify_cq(cq, 1)) && CHECK(!oibv_destroy_cq(cq));
	ok = ok && CHECK(!oibv_destroy_comp_channel(ch)) &&
	     CHECK(!oibv_destroy_comp_channel(foreign)) && CHECK(!oibv_close_device(other));
	return ok;
}

static bool t_mr_checks(void)
{
	struct oibv_pd *pd = oibv_alloc_pd(ctx);
	static char buf[3 * 4096];
	struct oibv_mr *mr;
	bool ok;

	if (!CHECK(pd))
		return false;
	ok = CHECK(!oibv_reg_mr(pd, buf, sizeof(buf), 2)) && CHECK(errno == EINVAL) &&
	     CHECK(!oibv_reg_mr(pd, buf, 0, 0)) && CHECK(errno == EINVAL) &&
	     CHECK(!oibv_reg_mr(pd, (void *)4096, 4096, 0)) && CHECK(errno == EFAULT);
	mr = oibv_reg_mr(pd, buf + 100, sizeof(buf) - 200, OIBV_ACCESS_LOCAL_WRITE);
	ok = ok && CHECK(mr) && CHECK(mr->lkey) && CHECK(!mr->rkey) &&
	     CHECK_ERR(oibv_dealloc_pd(pd), EBUSY) && CHECK(!oibv_dereg_mr(mr));
	return CHECK(!oibv_dealloc_pd(pd)) && ok;
}

static bool send_recv(enum oibv_qp_type type)
{
	struct oibv_wc wc[2];
	struct pair p;
	bool ok;

	if (!pair_setup(&p, ctx, type, NULL, NULL))
		return false;
	memset(p.buf, 0x5a, 1000);
	memset(p.buf + BUF_SIZE / 2, 0, 1000);
	ok = pair_send(&p, 1000, 0, 7) && poll_n(p.cq_a, 1, wc) &&
	     CHECK(wc[0].status == OIBV_WC_SUCCESS) && CHECK(wc[0].wr_id == 7) &&
	     CHECK(wc[0].opcode == OIBV_WC_SEND) && CHECK(wc[0].qp_num == p.a->qp_num) &&
	     poll_n(p.cq_b, 1, wc + 1) && CHECK(wc[1].status == OIBV_WC_SUCCESS) &&
	     CHECK(wc[1].opcode == OIBV_WC_RECV) && CHECK(wc[1].byte_len == 1000) &&
	     CHECK(!memcmp(p.buf, p.buf + BUF_SIZE / 2, 1000));
	pair_teardown(&p);
	return ok;
}

static bool t_rc_send_recv(void)
{
	return send_recv(OIBV_QPT_RC);
}

static bool t_uc_send_recv(void)
{
	return send_recv(OIBV_QPT_UC);
}

/* The same over ioctls (POST_SEND, POLL_CQ): what OIBV_RINGS=0 gives. */
static bool t_rc_send_recv_ioctls(void)
{
	bool ok;

	ctx->rings = 0;
	ok = send_recv(OIBV_QPT_RC);
	ctx->rings = 1;
	return ok;
}

/* QUERY_QP answers what the QP was given on its way to RTS, and its capabilities. */
static bool t_query_qp(void)
{
	struct oib_uverbs_query_qp c = { 0 };
	struct oibv_qp_init_attr init;
	struct oibv_qp_attr a;
	union oibv_gid gid;
	struct pair p;
	bool ok;

	if (!pair_setup(&p, ctx, OIBV_QPT_RC, NULL, NULL))
		return false;
	ok = CHECK(!oibv_query_gid(ctx, 1, 0, &gid)) &&
	     CHECK(!oibv_query_qp(p.a, &a, OIBV_QP_STATE, &init)) &&
	     CHECK(a.qp_state == OIBV_QPS_RTS) && CHECK(a.dest_qp_num == p.b->qp_num) &&
	     CHECK(a.path_mtu == OIBV_MTU_1024) && CHECK(a.timeout == 14) &&
	     CHECK(a.retry_cnt == 7) && CHECK(a.rnr_retry == 7) && CHECK(a.max_rd_atomic == 1) &&
	     CHECK(a.max_dest_rd_atomic == 1) && CHECK(a.min_rnr_timer == 12) &&
	     CHECK(a.ah_attr.is_global && a.ah_attr.port_num == 1) &&
	     CHECK(!memcmp(a.ah_attr.grh.dgid.raw, gid.raw, 16)) &&
	     CHECK(init.qp_type == OIBV_QPT_RC) && CHECK(!init.sq_sig_all) &&
	     CHECK(init.cap.max_send_wr >= 64 && init.cap.max_send_sge >= 2) &&
	     CHECK(init.send_cq == p.cq_a && init.recv_cq == p.cq_a && !init.srq);
	/* a mask bit MODIFY_QP does not take, a stale handle */
	c.attr.hdr.size = sizeof(c);
	c.attr.handle = p.a->handle;
	c.attr.attr_mask = 1u << 30;
	ok = ok && CHECK(raw_cmd(ctx->cmd_fd, OIB_UVERBS_QUERY_QP, &c, sizeof(c)) == EINVAL);
	c.attr.attr_mask = 0;
	c.attr.handle = 0xfffff;
	ok = ok && CHECK(raw_cmd(ctx->cmd_fd, OIB_UVERBS_QUERY_QP, &c, sizeof(c)) == EINVAL);
	pair_teardown(&p);
	return ok;
}

/* Read one event from @ch, check it names @cq; acknowledges it. */
static bool get_event(struct oibv_comp_channel *ch, struct oibv_cq *want, int *cpu)
{
	struct oibv_cq *cq;
	void *cq_ctx;

	if (!CHECK(readable(ch->fd, 10000)) ||
	    !CHECK(!oibv_get_cq_event_cpu(ch, &cq, &cq_ctx, cpu)))
		return false;
	oibv_ack_cq_events(cq, 1);
	return CHECK(cq == want) && CHECK(cq_ctx == want->cq_context);
}

static bool drain(struct oibv_cq *cq, int n)
{
	struct oibv_wc wc[8];

	return poll_n(cq, n, wc);
}

static bool t_channel_one_cq(void)
{
	struct oibv_comp_channel *ch = oibv_create_comp_channel(ctx);
	struct oibv_cq *cq = ch ? oibv_create_cq(ctx, 64, &ch, ch, 0) : NULL;
	struct pair p;
	bool ok;

	if (!CHECK(cq) || !pair_setup(&p, ctx, OIBV_QPT_RC, cq, cq))
		return false;
	ok = CHECK(!readable(ch->fd, 0)) && CHECK(!oibv_req_notify_cq(cq, 0)) &&
	     pair_send(&p, 64, 0, 1) && get_event(ch, cq, NULL) && drain(cq, 2);
	/* not armed: completions raise no event */
	ok = ok && pair_send(&p, 64, 0, 2) && drain(cq, 2) && CHECK(!readable(ch->fd, 0));
	/* solicited-only arming: a solicited send raises one */
	ok = ok && CHECK(!oibv_req_notify_cq(cq, 1)) &&
	     pair_send(&p, 64, OIBV_SEND_SOLICITED, 3) && get_event(ch, cq, NULL) && drain(cq, 2);
	pair_teardown_cqs(&p, false);
	return CHECK(!oibv_destroy_cq(cq)) && CHECK(!oibv_destroy_comp_channel(ch)) && ok;
}

#define NCQ 8

/* NCQ CQs, each the only CQ of its own QP pair, on the channels @ch[i % nch], vectors i % nvec. */
struct fan {
	struct oibv_cq *cq[NCQ];
	struct pair p[NCQ / 2];
};

static bool fan_setup(struct fan *f, struct oibv_comp_channel **ch, int nch)
{
	int i;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < NCQ; i++) {
		f->cq[i] = oibv_create_cq(ctx, 64, (void *)(uintptr_t)(i + 1), ch[i % nch],
					  i % ctx->num_comp_vectors);
		if (!CHECK(f->cq[i]))
			return false;
	}
	for (i = 0; i < NCQ / 2; i++)
		if (!pair_setup(&f->p[i], ctx, OIBV_QPT_RC, f->cq[2 * i], f->cq[2 * i + 1]))
			return false;
	return true;
}

static void fan_teardown(struct fan *f)
{
	int i;

	for (i = 0; i < NCQ / 2; i++)
		pair_teardown_cqs(&f->p[i], false);
	for (i = 0; i < NCQ; i++)
		if (f->cq[i])
			CHECK(!oibv_destroy_cq(f->cq[i]));
}

/* Arm every CQ, send on every pair: each CQ gets one completion and raises one event. */
static bool fan_fire(struct fan *f)
{
	int i;

	for (i = 0; i < NCQ; i++)
		if (!CHECK(!oibv_req_notify_cq(f->cq[i], 0)))
			return false;
	for (i = 0; i < NCQ / 2; i++)
		if (!pair_send(&f->p[i], 32, 0, i))
			return false;
	return true;
}

/* Collect events from @ch through epoll until every CQ had one; checks vectors' CPUs. */
static bool fan_collect(struct fan *f, struct oibv_comp_channel **ch, int nch)
{
	int ep = epoll_create1(EPOLL_CLOEXEC), i, n, seen = 0, got = 0, cpu;
	struct epoll_event ev[4];
	int64_t end = now_ms() + 10000;
	bool ok = CHECK(ep >= 0);

	for (i = 0; ok && i < nch; i++) {
		struct epoll_event e = { .events = EPOLLIN, .data.ptr = ch[i] };

		ok = CHECK(!epoll_ctl(ep, EPOLL_CTL_ADD, ch[i]->fd, &e));
	}
	while (ok && got < NCQ && now_ms() < end) {
		n = epoll_wait(ep, ev, 4, 1000);
		for (i = 0; ok && i < n; i++) {
			struct oibv_comp_channel *c = ev[i].data.ptr;
			struct oibv_cq *cq;
			void *cq_ctx;
			int idx;

			ok = CHECK(!oibv_get_cq_event_cpu(c, &cq, &cq_ctx, &cpu));
			idx = (int)(uintptr_t)cq_ctx - 1;
			ok = ok && CHECK(idx >= 0 && idx < NCQ) && CHECK(f->cq[idx] == cq) &&
			     CHECK(cq->channel == c) && CHECK(!(seen & (1 << idx))) &&
			     CHECK(cpu == oibv_comp_vector_cpu(ctx, cq->comp_vector));
			seen |= 1 << idx;
			got++;
			oibv_ack_cq_events(cq, 1);
		}
	}
	close(ep);
	for (i = 0; ok && i < NCQ; i++)
		ok = drain(f->cq[i], 1);
	return ok && CHECK(got == NCQ);
}

static bool fan_case(int nch)
{
	struct oibv_comp_channel *ch[NCQ];
	struct fan f;
	bool ok;
	int i;

	for (i = 0; i < nch; i++) {
		ch[i] = oibv_create_comp_channel(ctx);
		if (!CHECK(ch[i]))
			return false;
	}
	ok = fan_setup(&f, ch, nch) && fan_fire(&f) && fan_collect(&f, ch, nch);
	fan_teardown(&f);
	for (i = 0; i < nch; i++)
		ok = CHECK(!oibv_destroy_comp_channel(ch[i])) && ok;
	return ok;
}

static bool t_channel_many_cqs(void)
{
	return fan_case(1);
}

static bool t_channel_per_cq(void)
{
	return fan_case(NCQ);
}

static bool t_epoll_two_channels_vectors(void)
{
	return fan_case(2);
}

/* Three events on one CQ, acknowledged with one call; then destroy returns at once. */
static bool t_ack_batching(void)
{
	struct oibv_comp_channel *ch = oibv_create_comp_channel(ctx);
	struct oibv_cq *cq = ch ? oibv_create_cq(ctx, 64, NULL, ch, 0) : NULL, *got;
	struct pair p;
	void *c;
	bool ok = true;
	int i;

	if (!CHECK(cq) || !pair_setup(&p, ctx, OIBV_QPT_RC, cq, cq))
		return false;
	for (i = 0; ok && i < 3; i++)
		ok = CHECK(!oibv_req_notify_cq(cq, 0)) && pair_send(&p, 8, 0, i) &&
		     CHECK(readable(ch->fd, 10000)) && CHECK(!oibv_get_cq_event(ch, &got, &c)) &&
		     CHECK(got == cq) && drain(cq, 2);
	oibv_ack_cq_events(cq, 3);
	pair_teardown_cqs(&p, false);
	return CHECK(!oibv_destroy_cq(cq)) && CHECK(!oibv_destroy_comp_channel(ch)) && ok;
}

struct destroyer {
	struct oibv_cq *cq;
	int ret;
	int done;
};

static void *destroy_thread(void *arg)
{
	struct destroyer *d = arg;

	d->ret = oibv_destroy_cq(d->cq);
	__atomic_store_n(&d->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * An event read but not acknowledged holds oibv_destroy_cq() back: the kernel object is gone
 * (its handle no longer answers), the call has not returned; the acknowledgment releases it.
 */
static bool t_destroy_waits_for_ack(void)
{
	struct oibv_comp_channel *ch = oibv_create_comp_channel(ctx);
	struct oibv_cq *cq = ch ? oibv_create_cq(ctx, 64, NULL, ch, 0) : NULL, *got;
	struct oib_uverbs_req_notify_cq rn = { 0 };
	struct destroyer d = { .cq = cq };
	struct pair p;
	pthread_t th;
	int64_t end;
	void *c;
	bool ok;

	if (!CHECK(cq) || !pair_setup(&p, ctx, OIBV_QPT_RC, cq, cq))
		return false;
	ok = CHECK(!oibv_req_notify_cq(cq, 0)) && pair_send(&p, 8, 0, 1) &&
	     CHECK(readable(ch->fd, 10000)) && CHECK(!oibv_get_cq_event(ch, &got, &c)) &&
	     drain(cq, 2);
	pair_teardown_cqs(&p, false);
	rn.handle = cq->handle;
	if (!ok || !CHECK(!pthread_create(&th, NULL, destroy_thread, &d)))
		return false;
	end = now_ms() + 10000;
	while (raw_cmd(ctx->cmd_fd, OIB_UVERBS_REQ_NOTIFY_CQ, &rn, sizeof(rn)) != EINVAL &&
	       now_ms() < end)
		usleep(1000);
	ok = CHECK(now_ms() < end) && CHECK(!__atomic_load_n(&d.done, __ATOMIC_ACQUIRE));
	oibv_ack_cq_events(got, 1);
	pthread_join(th, NULL);
	return CHECK(d.done) && CHECK(!d.ret) && CHECK(!oibv_destroy_comp_channel(ch)) && ok;
}

/* An event not yet read when its CQ goes is dropped and not counted: destroy does not wait. */
static bool t_destroy_drops_unread(void)
{
	struct oibv_comp_channel *ch = oibv_create_comp_channel(ctx);
	struct oibv_cq *cq = ch ? oibv_create_cq(ctx, 64, NULL, ch, 1 % ctx->num_comp_vectors) :
				  NULL;
	struct pair p;
	bool ok;

	if (!CHECK(cq) || !pair_setup(&p, ctx, OIBV_QPT_RC, cq, cq))
		return false;
	ok = CHECK(!oibv_req_notify_cq(cq, 0)) && pair_send(&p, 8, 0, 1) &&
	     CHECK(readable(ch->fd, 10000)) && drain(cq, 2);
	pair_teardown_cqs(&p, false);
	return CHECK(!oibv_destroy_cq(cq)) && CHECK(!readable(ch->fd, 0)) &&
	       CHECK(!oibv_destroy_comp_channel(ch)) && ok;
}

/* The channel's fd closed under a CQ that uses it: events are dropped, the CQ works on. */
static bool t_channel_closed_first(void)
{
	struct oibv_comp_channel *ch = oibv_create_comp_channel(ctx);
	struct oibv_cq *cq = ch ? oibv_create_cq(ctx, 64, NULL, ch, 0) : NULL;
	struct pair p;
	bool ok;

	if (!CHECK(cq) || !pair_setup(&p, ctx, OIBV_QPT_RC, cq, cq))
		return false;
	close(ch->fd);
	ok = CHECK(!oibv_req_notify_cq(cq, 0)) && pair_send(&p, 8, 0, 1) && drain(cq, 2);
	pair_teardown_cqs(&p, false);
	ok = CHECK(!oibv_destroy_cq(cq)) && ok;
	free(ch);
	return ok;
}

/* A CQ overrun is an async event naming the CQ; destroy waits for its acknowledgment too. */
static bool t_async_cq_overflow(void)
{
	struct oibv_cq *cq = oibv_create_cq(ctx, 1, (void *)0x1234, NULL, 0);
	struct oibv_async_event ev;
	struct pair p;
	bool ok;

	if (!CHECK(cq) || !pair_setup(&p, ctx, OIBV_QPT_RC, cq, cq))
		return false;
	ok = pair_send(&p, 8, 0, 1) && pair_send(&p, 8, 0, 2) &&
	     CHECK(readable(ctx->async_fd, 10000)) && CHECK(!oibv_get_async_event(ctx, &ev)) &&
	     CHECK(ev.event_type == OIBV_EVENT_CQ_ERR) && CHECK(ev.element.cq == cq);
	if (ok)
		oibv_ack_async_event(&ev);
	pair_teardown_cqs(&p, false);
	return CHECK(!oibv_destroy_cq(cq)) && ok;
}

static bool t_async_fd_rules(void)
{
	struct oib_uverbs_new_fd c = { 0 };
	char b[sizeof(struct oib_uverbs_event)];
	int fl = fcntl(ctx->async_fd, F_GETFL);

	return CHECK(raw_cmd(ctx->cmd_fd, OIB_UVERBS_GET_ASYNC_FD, &c, sizeof(c)) == EEXIST) &&
	       CHECK(!fcntl(ctx->async_fd, F_SETFL, fl | O_NONBLOCK)) &&
	       CHECK(read(ctx->async_fd, b, sizeof(b)) == -1 && errno == EAGAIN) &&
	       CHECK(read(ctx->async_fd, b, sizeof(b) - 1) == -1 && errno == EINVAL) &&
	       CHECK(!fcntl(ctx->async_fd, F_SETFL, fl)) &&
	       CHECK(fcntl(ctx->async_fd, F_GETFD) & FD_CLOEXEC);
}

static bool t_no_leaks(void)
{
	bool ok = objects_back_to(base_objects);

	oibv_close_device(ctx);
	ctx = NULL;
	return ok;
}

static bool t_device_removal(void)
{
	return abuse_device_removal();
}

static const struct ktap_case cases[] = {
	{ "device_list_and_sysfs", t_device_list },
	{ "query_device_port_gid", t_query },
	{ "comp_vector_map", t_comp_vector_map },
	{ "pd", t_pd },
	{ "cq_checks", t_cq_checks },
	{ "mr_checks", t_mr_checks },
	{ "memlock_limit", abuse_memlock_limit },
	{ "rc_send_recv", t_rc_send_recv },
	{ "uc_send_recv", t_uc_send_recv },
	{ "rc_send_recv_over_ioctls", t_rc_send_recv_ioctls },
	{ "query_qp", t_query_qp },
	{ "rc_rdma_write_read", t_rc_rdma },
	{ "uc_rdma_write", t_uc_rdma_write },
	{ "rc_atomics", t_rc_atomics },
	{ "mr_permissions", t_mr_permissions },
	{ "ud_send_recv", t_ud_send_recv },
	{ "ud_checks", t_ud_checks },
	{ "qp1_as_root", t_qp1_root },
	{ "rc_between_processes", t_rc_between_processes },
	{ "uc_between_processes", t_uc_between_processes },
	{ "ud_between_processes", t_ud_between_processes },
	{ "srq_recv", t_srq_recv },
	{ "srq_limit_event", t_srq_limit_event },
	{ "srq_checks", t_srq_checks },
	{ "channel_one_cq", t_channel_one_cq },
	{ "channel_many_cqs", t_channel_many_cqs },
	{ "channel_per_cq", t_channel_per_cq },
	{ "epoll_two_channels_both_vectors", t_epoll_two_channels_vectors },
	{ "ack_batching", t_ack_batching },
	{ "destroy_waits_for_ack", t_destroy_waits_for_ack },
	{ "destroy_drops_unread", t_destroy_drops_unread },
	{ "channel_closed_first", t_channel_closed_first },
	{ "async_cq_overflow", t_async_cq_overflow },
	{ "async_fd_rules", t_async_fd_rules },
	{ "abi_sizes_and_flags", abuse_abi },
	{ "stale_and_foreign_handles", abuse_handles },
	{ "post_checks", abuse_post },
	{ "fuzz", abuse_fuzz },
	{ "rings_mapped", rings_mapped },
	{ "rings_outlive_objects", rings_outlive_objects },
	{ "rings_bad_producer", rings_bad_producer },
	{ "rings_bad_wqes", rings_bad_wqes },
	{ "rings_bad_wr_list", rings_bad_wr_list },
	{ "rings_wqe_rewritten", rings_wqe_rewritten },
	{ "rings_cq_bad_consumer", rings_cq_bad_consumer },
	{ "rings_close_under_traffic", rings_close_under_traffic },
	{ "rings_fork", rings_fork },
	{ "rings_fuzz", rings_fuzz },
	{ "rq_rings_mapped", rq_rings_mapped },
	{ "rq_rings_bad_entries", rq_rings_bad_entries },
	{ "rq_rings_srq_bad_entry", rq_rings_srq_bad_entry },
	{ "rq_rings_bad_producer", rq_rings_bad_producer },
	{ "rq_rings_rewritten", rq_rings_rewritten },
	{ "rq_rings_srq_limit", rq_rings_srq_limit },
	{ "rq_rings_flush", rq_rings_flush },
	{ "rq_rings_fork", rq_rings_fork },
	{ "rq_rings_close_under_traffic", rq_rings_close_under_traffic },
	{ "rq_rings_fuzz", rq_rings_fuzz },
	{ "close_while_in_use", abuse_close_in_use },
	{ "fork", abuse_fork },
	{ "kill9_in_traffic", abuse_kill9 },
	{ "unprivileged_user", abuse_unprivileged },
	{ "no_leaks", t_no_leaks },
	{ "device_removal", t_device_removal },
};

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	return ktap_run("oib_uverbs_user", cases, sizeof(cases) / sizeof(cases[0]));
}

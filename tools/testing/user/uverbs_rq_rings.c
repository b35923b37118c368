// SPDX-License-Identifier: GPL-2.0-only
/*
 * Receive rings (oib_uverbs_user): the QP and SRQ receive rings liboibv maps by default, written
 * and corrupted by hand.  The kernel takes entries when messages come, checks each as POST_RECV
 * does, and stops at a bad one: the ring flagged OIB_UVERBS_RING_ERROR, the consumer index on it,
 * the QP in ERR with QP_FATAL (an SRQ: SRQ_ERR); whatever the process rewrites meanwhile, a
 * receive completes as the kernel checked it; the SRQ limit counts the ring's receives; nothing
 * leaks.  Each case has a context of its own, so its async events are its own.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include "ktap.h"
#include "uverbs_util.h"
#include "uverbs_rings.h"

static struct oib_uverbs_ring_hdr *rhdr(struct oibv_ring *r)
{
	return r->mem;
}

static struct oib_uverbs_recv_wr *rq_entry(struct oibv_ring *r, uint32_t index)
{
	return (void *)((char *)r->mem + sizeof(struct oib_uverbs_ring_hdr) +
			(index & (r->entries - 1)) * r->stride);
}

/* A receive of @len bytes into the second half of the pair's buffer, at ring index @index. */
static void write_recv(struct pair *p, struct oibv_ring *r, uint32_t index, uint64_t wr_id,
		       uint32_t len)
{
	struct oib_uverbs_recv_wr *e = rq_entry(r, index);
	struct oib_uverbs_sge *sge = (void *)(e + 1);

	*e = (struct oib_uverbs_recv_wr){ .wr_id = wr_id, .num_sge = 1 };
	*sge = (struct oib_uverbs_sge){ (uintptr_t)p->buf + BUF_SIZE / 2, len, p->mr->lkey };
}

/* Publish the producer index of @r (and liboibv's copy of it). */
static void publish(struct oibv_ring *r, uint32_t prod)
{
	r->index = prod;
	__atomic_store_n(&rhdr(r)->producer, prod, __ATOMIC_RELEASE);
}

/* A signalled SEND of @len bytes from A; its receive is whatever B has. */
static bool send_only(struct pair *p, uint32_t len, uint64_t wr_id)
{
	struct oibv_sge ss = { (uintptr_t)p->buf, len, p->mr->lkey };
	struct oibv_send_wr swr = {
		.wr_id = wr_id, .sg_list = &ss, .num_sge = 1, .opcode = OIBV_WR_SEND,
		.send_flags = OIBV_SEND_SIGNALED,
	};
	struct oibv_send_wr *bad;

	return CHECK(!oibv_post_send(p->a, &swr, &bad));
}

/* The next async event of @ctx is @type (acknowledged); its element in *@elem. */
static bool async_is(struct oibv_context *ctx, enum oibv_event_type type, void **elem)
{
	struct oibv_async_event ev;

	if (!CHECK(readable(ctx->async_fd, 10000)) || !CHECK(!oibv_get_async_event(ctx, &ev)))
		return false;
	*elem = ev.element.qp;	/* a union: the QP, CQ or SRQ */
	oibv_ack_async_event(&ev);
	if (ev.event_type != type)
		diag("async event %d, want %d", ev.event_type, type);
	return ev.event_type == type;
}

/* @r is broken at @cons: flagged, the consumer index on the bad entry. */
static bool broken_at(struct oibv_ring *r, uint32_t cons)
{
	return CHECK(rhdr(r)->flags & OIB_UVERBS_RING_ERROR) && CHECK(rhdr(r)->consumer == cons);
}

/* liboibv maps both receive rings by default; their geometry; refusals; the ioctl path. */
bool rq_rings_mapped(void)
{
	struct oibv_context *c = oibv_open_device(test_dev);
	int base = live_objects();
	struct oib_uverbs_create_qp cq;
	struct oibv_wc wc;
	struct pair p, q;
	bool ok;

	if (!CHECK(c) || !pair_setup(&p, c, OIBV_QPT_RC, NULL, NULL))
		return false;
	ok = CHECK(p.b->rq.mem) && CHECK(p.b->rq.entries == 64) &&
	     CHECK(p.b->rq.stride == sizeof(struct oib_uverbs_recv_wr) + 2 * 16) &&
	     pair_send(&p, 8, 0, 1) && poll_n(p.cq_b, 1, &wc) && CHECK(wc.wr_id == 1) &&
	     CHECK(rhdr(&p.b->rq)->consumer == 1) && CHECK(!rhdr(&p.b->rq)->flags);
	/* a QP on an SRQ has no receive ring; the SRQ has one */
	ok = ok && pair_setup_srq(&q, c, OIBV_QPT_RC) && CHECK(!q.b->rq.mem) &&
	     CHECK(q.srq->ring.mem) && CHECK(q.srq->ring.entries == 64);
	cq = (struct oib_uverbs_create_qp){
		.pd_handle = q.pd->handle, .send_cq_handle = q.cq_b->handle,
		.recv_cq_handle = q.cq_b->handle, .qp_type = OIBV_QPT_RC,
		.srq_handle = q.srq->handle, .ring_flags = OIB_UVERBS_CREATE_MAPPED_RQ,
		.cap = { .max_send_wr = 1 },
	};
	ok = ok && CHECK(raw_cmd(c->cmd_fd, OIB_UVERBS_CREATE_QP, &cq, sizeof(cq)) == EINVAL);
	pair_teardown(&q);
	/* OIBV_RINGS=0's way: receives through POST_RECV */
	c->rings = 0;
	ok = ok && pair_setup(&q, c, OIBV_QPT_RC, NULL, NULL) && CHECK(!q.b->rq.mem) &&
	     pair_send(&q, 8, 0, 2) && poll_n(q.cq_b, 1, &wc) && CHECK(wc.wr_id == 2);
	pair_teardown(&q);
	c->rings = 1;
	pair_teardown(&p);
	oibv_close_device(c);
	return objects_back_to(base) && ok;
}

/* Ways to spoil a receive entry (a u32 at an offset); each is one POST_RECV refuses. */
#define RWR sizeof(struct oib_uverbs_recv_wr)
static const struct rspoil {
	const char *what;
	size_t off;
	uint32_t val;
} rspoils[] = {
	{ "sg_list", offsetof(struct oib_uverbs_recv_wr, sg_list), 0x1000 },
	{ "num_sge > max_recv_sge", offsetof(struct oib_uverbs_recv_wr, num_sge), 3 },
	{ "num_sge huge", offsetof(struct oib_uverbs_recv_wr, num_sge), 0xffffffffu },
	{ "reserved", offsetof(struct oib_uverbs_recv_wr, reserved), 1 },
	{ "lkey of no MR", RWR + offsetof(struct oib_uverbs_sge, lkey), 0x5a5a5a },
	{ "the local DMA lkey", RWR + offsetof(struct oib_uverbs_sge, lkey), 0 },
	{ "length beyond the MR", RWR + offsetof(struct oib_uverbs_sge, length), BUF_SIZE },
	{ "addr far from the MR", RWR + offsetof(struct oib_uverbs_sge, addr) + 4, 1 },
};

#define RSPOILS ((int)(sizeof(rspoils) / sizeof(rspoils[0])))

/* Another context's MR's lkey in the entry's SGE. */
static uint32_t foreign_lkey(struct pair *p, struct oibv_context **c2, struct oibv_pd **pd2,
			     struct oibv_mr **mr2)
{
	*c2 = oibv_open_device(test_dev);
	*pd2 = *c2 ? oibv_alloc_pd(*c2) : NULL;
	*mr2 = *pd2 ? oibv_reg_mr(*pd2, p->buf, BUF_SIZE, OIBV_ACCESS_LOCAL_WRITE) : NULL;
	return *mr2 ? (*mr2)->lkey : 0;
}

/*
 * A good entry, a bad one, a good one: the first takes the message, the bad one breaks the ring
 * (flag, consumer index on it) and the QP goes to ERR with QP_FATAL.  how == RSPOILS: another
 * context's lkey.
 */
static bool rq_spoiled(struct oibv_context *c, int how)
{
	struct oibv_context *c2 = NULL;
	struct oibv_pd *pd2 = NULL;
	struct oibv_mr *mr2 = NULL;
	struct oibv_ring *r;
	struct oibv_wc wc;
	struct pair p;
	void *elem;
	uint32_t i, lkey;
	bool ok;

	if (!pair_setup(&p, c, OIBV_QPT_RC, NULL, NULL))
		return false;
	r = &p.b->rq;
	i = r->index;
	write_recv(&p, r, i, 1, 64);
	write_recv(&p, r, i + 1, 2, 64);
	if (how < RSPOILS) {
		memcpy((char *)rq_entry(r, i + 1) + rspoils[how].off, &rspoils[how].val, 4);
	} else {
		lkey = foreign_lkey(&p, &c2, &pd2, &mr2);
		((struct oib_uverbs_sge *)(rq_entry(r, i + 1) + 1))->lkey = lkey;
	}
	write_recv(&p, r, i + 2, 3, 64);
	publish(r, i + 3);
	ok = send_only(&p, 8, 1) && poll_n(p.cq_b, 1, &wc) && CHECK(wc.wr_id == 1) &&
	     CHECK(wc.status == OIBV_WC_SUCCESS) && async_is(c, OIBV_EVENT_QP_FATAL, &elem) &&
	     CHECK(elem == p.b) && broken_at(r, i + 1);
	if (!ok)
		diag("spoiled: %s", how < RSPOILS ? rspoils[how].what : "another context's lkey");
	pair_teardown(&p);
	if (mr2)
		oibv_dereg_mr(mr2);
	if (pd2)
		oibv_dealloc_pd(pd2);
	if (c2)
		oibv_close_device(c2);
	return ok;
}

bool rq_rings_bad_entries(void)
{
	struct oibv_context *c = oibv_open_device(test_dev);
	int base = live_objects(), how;
	bool ok = CHECK(c);

	for (how = 0; ok && how <= RSPOILS; how++)
		ok = rq_spoiled(c, how);
	if (c)
		oibv_close_device(c);
	return objects_back_to(base) && ok;
}

/* An SRQ's ring with a bad entry after a good one: SRQ_ERR naming it, the ring flagged. */
bool rq_rings_srq_bad_entry(void)
{
	struct oibv_context *c = oibv_open_device(test_dev);
	int base = live_objects();
	struct oibv_wc wc;
	struct pair p;
	void *elem;
	bool ok;

	if (!CHECK(c) || !pair_setup_srq(&p, c, OIBV_QPT_RC))
		return false;
	write_recv(&p, &p.srq->ring, 0, 1, 64);
	write_recv(&p, &p.srq->ring, 1, 2, 64);
	rq_entry(&p.srq->ring, 1)->reserved = 1;
	publish(&p.srq->ring, 2);
	ok = send_only(&p, 8, 1) && poll_n(p.cq_b, 1, &wc) && CHECK(wc.wr_id == 1) &&
	     CHECK(wc.status == OIBV_WC_SUCCESS) && async_is(c, OIBV_EVENT_SRQ_ERR, &elem) &&
	     CHECK(elem == p.srq) && broken_at(&p.srq->ring, 1);
	pair_teardown(&p);
	oibv_close_device(c);
	return objects_back_to(base) && ok;
}

/* Producer indices beyond the ring, behind the consumer, huge: the ring breaks at once. */
bool rq_rings_bad_producer(void)
{
	struct oibv_context *c = oibv_open_device(test_dev);
	uint32_t cons, bad[] = { 65, 0xffffffffu, 0x80000000u, 0x7fffffffu, 1000 };
	int base = live_objects();
	struct oibv_wc wc;
	struct pair p;
	bool ok = CHECK(c);
	unsigned int i;
	void *elem;

	for (i = 0; ok && i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (!pair_setup(&p, c, OIBV_QPT_RC, NULL, NULL))
			return false;
		/* one message through first: the consumer index is 1 */
		ok = pair_send(&p, 8, 0, 1) && poll_n(p.cq_b, 1, &wc);
		cons = rhdr(&p.b->rq)->consumer;
		write_recv(&p, &p.b->rq, cons, 5, 64);
		rhdr(&p.b->rq)->producer = cons + bad[i];
		ok = ok && CHECK(cons == 1) && send_only(&p, 8, 2) &&
		     async_is(c, OIBV_EVENT_QP_FATAL, &elem) && CHECK(elem == p.b) &&
		     broken_at(&p.b->rq, cons);
		if (!ok)
			diag("producer %#x", bad[i]);
		pair_teardown(&p);
	}
	if (c)
		oibv_close_device(c);
	return objects_back_to(base) && ok;
}

struct rflipper {
	struct oibv_ring *r;
	int stop;	/* atomic */
};

/* Rewrite every entry's wr_id (1..3) and length (16 or 32 bytes, both good) until told to stop. */
static void *rflip_thread(void *arg)
{
	struct rflipper *f = arg;
	uint32_t n = 0, i;

	while (!__atomic_load_n(&f->stop, __ATOMIC_RELAXED)) {
		for (i = 0; i < f->r->entries; i++) {
			struct oib_uverbs_recv_wr *e = rq_entry(f->r, i);
			struct oib_uverbs_sge *sge = (void *)(e + 1);

			e->wr_id = n++ % 3 + 1;
			sge->length = 16 << (n % 2);
		}
	}
	return NULL;
}

/*
 * Entries rewritten while the kernel reads them: every receive completes as one of the versions
 * the process wrote (wr_id 1..3, room for the 8 bytes), none fails; after the thread stops, a bad
 * entry still breaks the ring cleanly.
 */
bool rq_rings_rewritten(void)
{
	struct oibv_context *c = oibv_open_device(test_dev);
	struct oibv_sge rs;
	struct oibv_recv_wr rwr = { .wr_id = 1, .sg_list = &rs, .num_sge = 1 }, *rbad;
	int64_t end = now_ms() + 3000;
	int base = live_objects(), n = 0;
	struct rflipper f = { 0 };
	struct oibv_wc wc;
	struct pair p;
	pthread_t th;
	void *elem;
	uint32_t i;
	bool ok, th_ok;

	if (!CHECK(c) || !pair_setup(&p, c, OIBV_QPT_RC, NULL, NULL))
		return false;
	rs = (struct oibv_sge){ (uintptr_t)p.buf + BUF_SIZE / 2, 16, p.mr->lkey };
	f.r = &p.b->rq;
	th_ok = CHECK(!pthread_create(&th, NULL, rflip_thread, &f));
	ok = th_ok;
	while (ok && now_ms() < end && n < 1000) {
		ok = CHECK(!oibv_post_recv(p.b, &rwr, &rbad)) && send_only(&p, 8, n) &&
		     poll_n(p.cq_a, 1, &wc) && CHECK(wc.status == OIBV_WC_SUCCESS) &&
		     poll_n(p.cq_b, 1, &wc) && CHECK(wc.status == OIBV_WC_SUCCESS) &&
		     CHECK(wc.wr_id >= 1 && wc.wr_id <= 3) && CHECK(wc.byte_len == 8);
		n++;
	}
	__atomic_store_n(&f.stop, 1, __ATOMIC_RELAXED);
	if (th_ok)
		pthread_join(th, NULL);
	diag("%d receives", n);
	i = p.b->rq.index;
	write_recv(&p, &p.b->rq, i, 9, 4 * BUF_SIZE);
	publish(&p.b->rq, i + 1);
	ok = ok && CHECK(n > 0) && send_only(&p, 8, 9) &&
	     async_is(c, OIBV_EVENT_QP_FATAL, &elem) && broken_at(&p.b->rq, i);
	pair_teardown(&p);
	oibv_close_device(c);
	return objects_back_to(base) && ok;
}

/* @n of B's completions, each a flush of the next wr_id from @first on. */
static bool flushed(struct pair *p, uint64_t first, int n)
{
	struct oibv_wc wc;
	bool ok = true;
	int i;

	for (i = 0; ok && i < n; i++)
		ok = poll_n(p->cq_b, 1, &wc) && CHECK(wc.wr_id == first + i) &&
		     CHECK(wc.status == OIBV_WC_WR_FLUSH_ERR);
	return ok;
}

/*
 * A QP moved to ERR flushes what its ring holds and marks it; a receive posted then is flushed
 * at once (liboibv posts it by ioctl); one written by hand is flushed by another move to ERR;
 * RESET discards what is left and clears the mark.
 */
bool rq_rings_flush(void)
{
	struct oibv_context *c = oibv_open_device(test_dev);
	struct oibv_qp_attr a = { .qp_state = OIBV_QPS_ERR };
	struct oibv_sge rs;
	struct oibv_recv_wr rwr = { .sg_list = &rs, .num_sge = 1 }, *rbad;
	int base = live_objects(), i;
	struct oibv_ring *r;
	struct pair p;
	uint32_t idx;
	bool ok = true;

	if (!CHECK(c) || !pair_setup(&p, c, OIBV_QPT_RC, NULL, NULL))
		return false;
	r = &p.b->rq;
	rs = (struct oibv_sge){ (uintptr_t)p.buf + BUF_SIZE / 2, 64, p.mr->lkey };
	for (i = 1; ok && i <= 3; i++) {
		rwr.wr_id = i;
		ok = CHECK(!oibv_post_recv(p.b, &rwr, &rbad));
	}
	ok = ok && CHECK(!(rhdr(r)->flags & OIB_UVERBS_RING_FLUSH)) &&
	     CHECK(!oibv_modify_qp(p.b, &a, OIBV_QP_STATE)) && flushed(&p, 1, 3) &&
	     CHECK(rhdr(r)->flags & OIB_UVERBS_RING_FLUSH);
	rwr.wr_id = 4;
	ok = ok && CHECK(!oibv_post_recv(p.b, &rwr, &rbad)) && flushed(&p, 4, 1);
	idx = r->index;
	write_recv(&p, r, idx, 5, 64);
	publish(r, idx + 1);
	ok = ok && CHECK(!oibv_modify_qp(p.b, &a, OIBV_QP_STATE)) && flushed(&p, 5, 1);
	write_recv(&p, r, idx + 1, 6, 64);
	publish(r, idx + 2);
	a.qp_state = OIBV_QPS_RESET;
	ok = ok && CHECK(!oibv_modify_qp(p.b, &a, OIBV_QP_STATE)) && CHECK(!rhdr(r)->flags) &&
	     CHECK(rhdr(r)->consumer == idx + 2);
	pair_teardown(&p);
	oibv_close_device(c);
	return objects_back_to(base) && ok;
}

#define LIMIT_QPS 8

/* B's side: QPs on one SRQ with a receive ring, each connected to one of A's. */
struct srq_fan {
	struct pair p;		/* p.a and p.b: the first pair */
	struct oibv_qp *a[LIMIT_QPS], *b[LIMIT_QPS];
};

static struct oibv_qp *fan_qp(struct pair *p, struct oibv_cq *cq, struct oibv_srq *srq)
{
	struct oibv_qp_init_attr ia = {
		.send_cq = cq, .recv_cq = cq, .srq = srq, .qp_type = OIBV_QPT_RC,
		.cap = { .max_send_wr = 8, .max_recv_wr = srq ? 0 : 8, .max_send_sge = 1,
			 .max_recv_sge = srq ? 0 : 1 },
	};

	return oibv_create_qp(p->pd, &ia);
}

static bool fan_setup(struct srq_fan *f, struct oibv_context *c)
{
	union oibv_gid gid;
	int i;

	if (!pair_setup_srq(&f->p, c, OIBV_QPT_RC) || !CHECK(!oibv_query_gid(c, 1, 0, &gid)))
		return false;
	f->a[0] = f->p.a;
	f->b[0] = f->p.b;
	for (i = 1; i < LIMIT_QPS; i++) {
		f->a[i] = fan_qp(&f->p, f->p.cq_a, NULL);
		f->b[i] = fan_qp(&f->p, f->p.cq_b, f->p.srq);
		if (!CHECK(f->a[i] && f->b[i]) || !qp_connect(f->a[i], f->b[i]->qp_num, &gid) ||
		    !qp_connect(f->b[i], f->a[i]->qp_num, &gid))
			return false;
	}
	return true;
}

static void fan_teardown(struct srq_fan *f)
{
	int i;

	for (i = 1; i < LIMIT_QPS; i++) {
		if (f->a[i])
			CHECK(!oibv_destroy_qp(f->a[i]));
		if (f->b[i])
			CHECK(!oibv_destroy_qp(f->b[i]));
	}
	pair_teardown(&f->p);
}

/* One 8-byte SEND from A's QP @i, received on the SRQ. */
static bool fan_send(struct srq_fan *f, int i, struct oibv_wc *wc)
{
	struct oibv_sge ss = { (uintptr_t)f->p.buf, 8, f->p.mr->lkey };
	struct oibv_send_wr swr = {
		.wr_id = i, .sg_list = &ss, .num_sge = 1, .opcode = OIBV_WR_SEND,
		.send_flags = OIBV_SEND_SIGNALED,
	};
	struct oibv_send_wr *bad;

	return CHECK(!oibv_post_send(f->a[i], &swr, &bad)) && poll_n(f->p.cq_a, 1, wc) &&
	       CHECK(wc->status == OIBV_WC_SUCCESS) && poll_n(f->p.cq_b, 1, wc) &&
	       CHECK(wc->status == OIBV_WC_SUCCESS);
}

/*
 * Many QPs on an SRQ fed by its ring, the limit armed at LIMIT_QPS with 3 * LIMIT_QPS posted:
 * no event while the SRQ and its ring hold LIMIT_QPS receives or more, one event when they hold
 * fewer, none after (the limit disarms).
 */
bool rq_rings_srq_limit(void)
{
	struct oibv_context *c = oibv_open_device(test_dev);
	struct oibv_srq_attr sa = { .srq_limit = LIMIT_QPS };
	struct oibv_sge rs;
	struct oibv_recv_wr rwr = { .sg_list = &rs, .num_sge = 1 }, *rbad;
	int base = live_objects(), i, posted = 3 * LIMIT_QPS;
	struct srq_fan f = { 0 };
	struct oibv_wc wc;
	void *elem;
	bool ok;

	if (!CHECK(c) || !fan_setup(&f, c))
		return false;
	rs = (struct oibv_sge){ (uintptr_t)f.p.buf + BUF_SIZE / 2, 64, f.p.mr->lkey };
	ok = CHECK(f.p.srq->ring.mem);
	for (i = 0; ok && i < posted; i++) {
		rwr.wr_id = i;
		ok = CHECK(!oibv_post_srq_recv(f.p.srq, &rwr, &rbad));
	}
	ok = ok && CHECK(!oibv_modify_srq(f.p.srq, &sa, OIBV_SRQ_LIMIT));
	/* down to LIMIT_QPS left: no event */
	for (i = 0; ok && i < posted - LIMIT_QPS; i++)
		ok = fan_send(&f, i % LIMIT_QPS, &wc);
	ok = ok && CHECK(!readable(c->async_fd, 0));
	/* one fewer: the event, once */
	ok = ok && fan_send(&f, 0, &wc) && async_is(c, OIBV_EVENT_SRQ_LIMIT_REACHED, &elem) &&
	     CHECK(elem == f.p.srq) && fan_send(&f, 1, &wc) && CHECK(!readable(c->async_fd, 0)) &&
	     CHECK(!oibv_query_srq(f.p.srq, &sa)) && CHECK(sa.srq_limit == 0);
	fan_teardown(&f);
	oibv_close_device(c);
	return objects_back_to(base) && ok;
}

/* A child does not inherit the receive rings (it faults on them); the parent's keep working. */
bool rq_rings_fork(void)
{
	struct oibv_context *c = oibv_open_device(test_dev);
	int base = live_objects(), st = -1;
	struct oibv_wc wc;
	struct pair p;
	pid_t pid;
	bool ok;

	if (!CHECK(c) || !pair_setup(&p, c, OIBV_QPT_RC, NULL, NULL))
		return false;
	pid = fork();
	if (pid == 0) {
		signal(SIGSEGV, SIG_DFL);
		_exit(__atomic_load_n(&rhdr(&p.b->rq)->consumer, __ATOMIC_RELAXED) == 0 ? 0 : 1);
	}
	ok = CHECK(pid > 0) && CHECK(waitpid(pid, &st, 0) == pid) &&
	     CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV) && pair_send(&p, 8, 0, 1) &&
	     poll_n(p.cq_b, 1, &wc) && CHECK(wc.wr_id == 1);
	pair_teardown(&p);
	oibv_close_device(c);
	return objects_back_to(base) && ok;
}

/* Receives waiting in the rings, sends in flight, then close and munmap: nothing leaks. */
bool rq_rings_close_under_traffic(void)
{
	struct oibv_context *c = oibv_open_device(test_dev);
	struct oibv_sge rs;
	struct oibv_recv_wr rwr = { .sg_list = &rs, .num_sge = 1 }, *rbad;
	int base = live_objects(), i;
	struct pair p, q;
	bool ok;

	if (!CHECK(c) || !pair_setup(&p, c, OIBV_QPT_RC, NULL, NULL) ||
	    !pair_setup_srq(&q, c, OIBV_QPT_RC))
		return false;
	rs = (struct oibv_sge){ (uintptr_t)p.buf + BUF_SIZE / 2, 64, p.mr->lkey };
	ok = true;
	for (i = 0; ok && i < 48; i++)
		ok = CHECK(!oibv_post_recv(p.b, &rwr, &rbad)) && send_only(&p, 8, i);
	rs = (struct oibv_sge){ (uintptr_t)q.buf + BUF_SIZE / 2, 64, q.mr->lkey };
	for (i = 0; ok && i < 48; i++)
		ok = CHECK(!oibv_post_srq_recv(q.srq, &rwr, &rbad)) && send_only(&q, 8, i);
	close(c->async_fd);
	close(c->cmd_fd);
	ok = ok && CHECK(live_objects() > base);
	pair_unmap(&p);
	pair_unmap(&q);
	munmap(p.buf, BUF_SIZE);
	munmap(q.buf, BUF_SIZE);
	return objects_back_to(base) && ok;
}

#define RQ_FUZZ_ROUNDS 400

/* xorshift64*, seeded from OIB_FUZZ_SEED: a seed reproduces a run. */
static uint64_t rq_rnd_state;

static uint64_t rq_rnd(void)
{
	rq_rnd_state ^= rq_rnd_state >> 12;
	rq_rnd_state ^= rq_rnd_state << 25;
	rq_rnd_state ^= rq_rnd_state >> 27;
	return rq_rnd_state * 0x2545f4914f6cdd1dULL;
}

/*
 * A completion on B or an event of B's QP: what became of the round's message.  A's completions
 * are drained as they come.  (A destroyed QP's unread events are dropped: none is stale.)
 */
static bool rq_fuzz_wait(struct pair *p, struct oibv_context *c, bool *dead)
{
	int64_t end = now_ms() + 10000;
	struct oibv_async_event ev;
	struct oibv_wc wc[8];
	int n;

	while (now_ms() < end) {
		if (!CHECK(oibv_poll_cq(p->cq_a, 8, wc) >= 0))
			return false;
		n = oibv_poll_cq(p->cq_b, 1, wc);
		if (n < 0)
			return CHECK(n >= 0);
		if (n) {
			/*
			 * A good receive may take the message while the entry after it broke the
			 * ring (the flag is set before the completion is written): B goes now,
			 * whichever of the completion and QP_FATAL comes first, so a seed replays.
			 */
			*dead = wc->status != OIBV_WC_SUCCESS ||
				(rhdr(&p->b->rq)->flags & OIB_UVERBS_RING_ERROR);
			return CHECK(wc->status == OIBV_WC_SUCCESS ||
				     wc->status == OIBV_WC_LOC_LEN_ERR ||
				     wc->status == OIBV_WC_LOC_PROT_ERR ||
				     wc->status == OIBV_WC_WR_FLUSH_ERR);
		}
		if (readable(c->async_fd, 1) && !oibv_get_async_event(c, &ev)) {
			*dead = true;
			oibv_ack_async_event(&ev);
			/* a bad entry; or a good one too short: an invalid request */
			if (ev.event_type != OIBV_EVENT_QP_FATAL &&
			    ev.event_type != OIBV_EVENT_QP_REQ_ERR)
				diag("event %d", ev.event_type);
			return CHECK(ev.event_type == OIBV_EVENT_QP_FATAL ||
				     ev.event_type == OIBV_EVENT_QP_REQ_ERR) &&
			       CHECK(ev.element.qp == p->b);
		}
	}
	return CHECK(!"neither a completion nor an event");
}

/* One round: near-valid or noisy entries from the consumer index on, a producer, a message. */
static bool rq_fuzz_one(struct pair *p, struct oibv_context *c, bool *dead)
{
	struct oibv_ring *r = &p->b->rq;
	uint32_t cons = rhdr(r)->consumer, n = rq_rnd() % 4 + 1, i, k, prod;

	for (i = 0; i < n; i++) {
		uint32_t *w = (uint32_t *)rq_entry(r, cons + i);

		write_recv(p, r, cons + i, rq_rnd(), rq_rnd() % 64);
		for (k = rq_rnd() % 3; k; k--)
			w[rq_rnd() % (r->stride / 4)] = rq_rnd() % 3 ? rq_rnd() % 8 :
								      (uint32_t)rq_rnd();
	}
	prod = rq_rnd() % 8 ? cons + n : (uint32_t)rq_rnd();
	publish(r, prod == cons ? cons + 65 : prod);	/* never nothing: the send would wait */
	return send_only(p, 8, 0) && rq_fuzz_wait(p, c, dead);
}

/* Seeded (OIB_FUZZ_SEED) random receive entries and producer indices; nothing leaks. */
bool rq_rings_fuzz(void)
{
	struct oibv_context *c = oibv_open_device(test_dev);
	const char *env = getenv("OIB_FUZZ_SEED");
	int base = live_objects(), i, pairs = 1;
	bool ok, dead = false;
	struct pair p;

	rq_rnd_state = env ? strtoull(env, NULL, 0) : 0x0b1b5eedULL;
	diag("seed %#llx (OIB_FUZZ_SEED), %d rounds", (unsigned long long)rq_rnd_state,
	     RQ_FUZZ_ROUNDS);
	ok = CHECK(c) && pair_setup(&p, c, OIBV_QPT_RC, NULL, NULL);
	for (i = 0; ok && i < RQ_FUZZ_ROUNDS; i++) {
		ok = rq_fuzz_one(&p, c, &dead);
		if (ok && dead) {
			pair_teardown(&p);
			ok = pair_setup(&p, c, OIBV_QPT_RC, NULL, NULL);
			pairs++;
		}
	}
	diag("%d pairs", pairs);
	fuzz_inputs("uverbs_recv_entries", i);
	if (c)
		pair_teardown(&p);
	if (c)
		oibv_close_device(c);
	return objects_back_to(base) && ok;
}

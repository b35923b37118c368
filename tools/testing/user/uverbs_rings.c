// SPDX-License-Identifier: GPL-2.0-only
/*
 * Mapped rings (oib_uverbs_user): the send queue and CQ rings liboibv maps by default, written
 * and corrupted by hand.  The kernel must refuse bad indices and bad entries (nothing posted,
 * the QP unchanged), use its own copy of an entry whatever the process writes meanwhile, keep
 * going when the process unmaps or closes under traffic, and leak nothing.
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
#include "uverbs_rdma.h"
#include "uverbs_rings.h"

static struct oib_uverbs_ring_hdr *hdr_of(struct oibv_ring *r)
{
	return r->mem;
}

static struct oib_uverbs_send_wr *sq_entry(struct oibv_qp *qp, uint32_t index)
{
	return (void *)((char *)qp->sq.mem + sizeof(struct oib_uverbs_ring_hdr) +
			(index & (qp->sq.entries - 1)) * qp->sq.stride);
}

/* A signalled SEND of @len bytes from the pair's buffer, written at ring index @index. */
static void write_send(struct pair *p, uint32_t index, uint64_t wr_id, uint32_t len)
{
	struct oib_uverbs_send_wr *e = sq_entry(p->a, index);
	struct oib_uverbs_sge *sge = (void *)(e + 1);

	*e = (struct oib_uverbs_send_wr){
		.wr_id = wr_id, .num_sge = 1, .opcode = OIB_UVERBS_WR_SEND,
		.send_flags = OIB_UVERBS_SEND_SIGNALED,
	};
	*sge = (struct oib_uverbs_sge){ (uintptr_t)p->buf, len, p->mr->lkey };
}

static int doorbell(struct oibv_qp *qp, struct oib_uverbs_doorbell *c)
{
	*c = (struct oib_uverbs_doorbell){ .handle = qp->handle };
	return raw_cmd(qp->context->cmd_fd, OIB_UVERBS_DOORBELL, c, sizeof(*c));
}

/* Set the producer index of @qp's ring (and liboibv's copy of it). */
static void set_producer(struct oibv_qp *qp, uint32_t prod)
{
	qp->sq.index = prod;
	__atomic_store_n(&hdr_of(&qp->sq)->producer, prod, __ATOMIC_RELEASE);
}

static bool post_recvs(struct pair *p, int n)
{
	struct oibv_sge rs = { (uintptr_t)p->buf + BUF_SIZE / 2, BUF_SIZE / 2, p->mr->lkey };
	struct oibv_recv_wr rwr = { .wr_id = 100, .sg_list = &rs, .num_sge = 1 };
	struct oibv_recv_wr *bad;
	int i;

	for (i = 0; i < n; i++)
		if (!CHECK(!oibv_post_recv(p->b, &rwr, &bad)))
			return false;
	return true;
}

/* One good send still goes through: the QP was left as it was. */
static bool still_works(struct pair *p)
{
	struct oibv_wc wc[2];

	return pair_send(p, 8, 0, 7) && poll_n(p->cq_a, 1, wc) &&
	       CHECK(wc[0].status == OIBV_WC_SUCCESS && wc[0].wr_id == 7) &&
	       poll_n(p->cq_b, 1, wc + 1) && CHECK(wc[1].byte_len == 8);
}

/* liboibv maps by default; the ring's geometry; the mmap() rules; the ioctl path's refusals. */
bool rings_mapped(void)
{
	struct oibv_context *c = oibv_open_device(test_dev);
	struct oib_uverbs_poll_cq pc = { 0 };
	struct oib_uverbs_doorbell db;
	struct oibv_cq *cq;
	struct oibv_qp *qp;
	struct pair p;
	void *m;
	bool ok;

	if (!CHECK(c) || !CHECK(c->rings) || !pair_setup(&p, c, OIBV_QPT_RC, NULL, NULL))
		return false;
	qp = p.a;
	cq = p.cq_a;
	pc.handle = cq->handle;
	ok = CHECK(qp->sq.mem && cq->ring.mem) && CHECK(qp->sq.entries == 64) &&
	     CHECK(qp->sq.stride == sizeof(struct oib_uverbs_send_wr) + 2 * 16) &&
	     CHECK(cq->ring.entries >= 256 && !(cq->ring.entries & (cq->ring.entries - 1))) &&
	     CHECK(raw_cmd(c->cmd_fd, OIB_UVERBS_POLL_CQ, &pc, sizeof(pc)) == EINVAL);
	/* the mapping: shared, whole, at a ring's offset; a second one outlives the CQ */
	ok = ok && CHECK(mmap(NULL, cq->ring.size, PROT_READ, MAP_PRIVATE, c->cmd_fd, 0) ==
			 MAP_FAILED && errno == EINVAL);
	ok = ok && CHECK(mmap(NULL, 4096, PROT_READ, MAP_SHARED, c->cmd_fd, 1ull << 40) ==
			 MAP_FAILED && errno == EINVAL);
	/* the context's first ring (key 1: cq_a's) with a size that is not its own */
	m = mmap(NULL, cq->ring.size + 4096, PROT_READ, MAP_SHARED, c->cmd_fd, 4096);
	ok = ok && CHECK(m == MAP_FAILED && errno == EINVAL);
	/* a QP without a ring refuses the doorbell; a CQ without one still polls */
	c->rings = 0;
	{
		struct pair q;

		ok = ok && pair_setup(&q, c, OIBV_QPT_RC, NULL, NULL) && CHECK(!q.a->sq.mem) &&
		     CHECK(doorbell(q.a, &db) == EINVAL) && still_works(&q);
		pair_teardown(&q);
	}
	c->rings = 1;
	ok = ok && still_works(&p);
	pair_teardown(&p);
	oibv_close_device(c);
	return ok;
}

/* The CQ's ring stays readable in a second mapping after the CQ is gone. */
bool rings_outlive_objects(void)
{
	struct oibv_context *c = oibv_open_device(test_dev);
	struct oib_uverbs_create_cq cc = { .cqe = 4, .channel_fd = -1,
					   .ring_flags = OIB_UVERBS_CREATE_MAPPED };
	struct oib_uverbs_destroy_reported d = { 0 };
	struct oib_uverbs_ring_hdr *h;
	int base = live_objects();
	bool ok;

	if (!CHECK(c) || !CHECK(!raw_cmd(c->cmd_fd, OIB_UVERBS_CREATE_CQ, &cc, sizeof(cc))))
		return false;
	h = mmap(NULL, cc.ring.size, PROT_READ | PROT_WRITE, MAP_SHARED, c->cmd_fd,
		 cc.ring.offset);
	d.handle = cc.handle;
	ok = CHECK(h != MAP_FAILED) && CHECK(cc.ring.entries == 4) &&
	     CHECK(cc.ring.stride == sizeof(struct oib_uverbs_wc)) &&
	     CHECK(!raw_cmd(c->cmd_fd, OIB_UVERBS_DESTROY_CQ, &d, sizeof(d))) &&
	     CHECK(h->producer == 0) &&
	     CHECK(mmap(NULL, cc.ring.size, PROT_READ, MAP_SHARED, c->cmd_fd, cc.ring.offset) ==
		   MAP_FAILED);
	h->consumer = 1;	/* still ours to write */
	/* ring flags and reserved output fields must be zero */
	cc = (struct oib_uverbs_create_cq){ .cqe = 4, .channel_fd = -1, .ring_flags = 2 };
	ok = ok && CHECK(raw_cmd(c->cmd_fd, OIB_UVERBS_CREATE_CQ, &cc, sizeof(cc)) == EINVAL);
	cc = (struct oib_uverbs_create_cq){ .cqe = 4, .channel_fd = -1, .ring.entries = 1 };
	ok = ok && CHECK(raw_cmd(c->cmd_fd, OIB_UVERBS_CREATE_CQ, &cc, sizeof(cc)) == EINVAL);
	oibv_close_device(c);
	ok = ok && CHECK(live_objects() == base);
	if (h != MAP_FAILED)
		munmap(h, 4096);
	return ok;
}

/* Producer indices beyond the ring, behind the consumer, huge: refused, nothing posted. */
bool rings_bad_producer(void)
{
	int base = live_objects();
	struct oib_uverbs_doorbell db;
	struct pair p;
	uint32_t cons, bad[] = { 65, 0xffffffffu, 0x80000000u, 0x7fffffffu, 1000 };
	bool ok = true;
	unsigned int i;

	if (!pair_setup(&p, ctx_for_tests(), OIBV_QPT_RC, NULL, NULL) || !still_works(&p))
		return false;
	cons = hdr_of(&p.a->sq)->consumer;
	ok = CHECK(cons == 1) && CHECK(p.a->sq.index == 1);
	for (i = 0; ok && i < sizeof(bad) / sizeof(bad[0]); i++) {
		write_send(&p, cons, 50 + i, 8);
		hdr_of(&p.a->sq)->producer = cons + bad[i];
		ok = CHECK(doorbell(p.a, &db) == EINVAL) && CHECK(db.posted == 0) &&
		     CHECK(db.bad_wr == cons) && CHECK(hdr_of(&p.a->sq)->consumer == cons);
	}
	/* the producer at the consumer: nothing to do */
	set_producer(p.a, cons);
	ok = ok && CHECK(!doorbell(p.a, &db)) && CHECK(db.posted == 0) && still_works(&p);
	pair_teardown(&p);
	return objects_back_to(base) && ok;
}

/* Ways to spoil a send entry (a u32 at an offset); each is refused, as POST_SEND refuses it. */
#define WR_SIZE sizeof(struct oib_uverbs_send_wr)
static const struct spoil {
	const char *what;
	size_t off;
	uint32_t val;
} spoils[] = {
	{ "opcode", offsetof(struct oib_uverbs_send_wr, opcode), 99 },
	{ "num_sge > max_send_sge", offsetof(struct oib_uverbs_send_wr, num_sge), 3 },
	{ "num_sge huge", offsetof(struct oib_uverbs_send_wr, num_sge), 0xffffffffu },
	{ "sg_list", offsetof(struct oib_uverbs_send_wr, sg_list), 0x1000 },
	{ "lkey", WR_SIZE + offsetof(struct oib_uverbs_sge, lkey), 0x5a5a5a },
	{ "length beyond the MR", WR_SIZE + offsetof(struct oib_uverbs_sge, length), BUF_SIZE + 1 },
	{ "imm_data on SEND", offsetof(struct oib_uverbs_send_wr, imm_data), 1 },
	{ "rkey on SEND", offsetof(struct oib_uverbs_send_wr, rkey), 5 },
	{ "send_flags", offsetof(struct oib_uverbs_send_wr, send_flags), 1u << 9 },
	{ "ah_handle on RC", offsetof(struct oib_uverbs_send_wr, ah_handle), 1 },
};

#define SPOILS ((int)(sizeof(spoils) / sizeof(spoils[0])))

static void spoil(struct oib_uverbs_send_wr *e, int how)
{
	memcpy((char *)e + spoils[how].off, &spoils[how].val, sizeof(uint32_t));
}

/*
 * A good entry, a bad one, a good one: the first is posted, the doorbell fails naming the bad
 * one, the consumer index stops there; the QP works on once the process moves back.
 */
bool rings_bad_wqes(void)
{
	int base = live_objects();
	struct oib_uverbs_doorbell db;
	struct oibv_wc wc;
	struct pair p;
	uint32_t i;
	bool ok;
	int how;

	if (!pair_setup(&p, ctx_for_tests(), OIBV_QPT_RC, NULL, NULL))
		return false;
	ok = post_recvs(&p, 2 * SPOILS);
	for (how = 0; ok && how < SPOILS; how++) {
		i = p.a->sq.index;
		write_send(&p, i, 1, 8);
		write_send(&p, i + 1, 2, 8);
		spoil(sq_entry(p.a, i + 1), how);
		write_send(&p, i + 2, 3, 8);
		set_producer(p.a, i + 3);
		ok = CHECK(doorbell(p.a, &db) == EINVAL) && CHECK(db.posted == 1) &&
		     CHECK(db.bad_wr == i + 1) && CHECK(hdr_of(&p.a->sq)->consumer == i + 1) &&
		     poll_n(p.cq_a, 1, &wc) && CHECK(wc.wr_id == 1 && !wc.status) &&
		     poll_n(p.cq_b, 1, &wc);
		if (!ok)
			diag("spoiled: %s", spoils[how].what);
		set_producer(p.a, i + 1);
	}
	ok = ok && still_works(&p);
	pair_teardown(&p);
	return objects_back_to(base) && ok;
}

/* liboibv's bad_wr over a ring: the list's second request names a foreign lkey. */
bool rings_bad_wr_list(void)
{
	int base = live_objects();
	struct oibv_send_wr w[3], *bad = NULL;
	struct oibv_sge sge[3];
	struct oibv_wc wc;
	struct pair p;
	bool ok;
	int i;

	if (!pair_setup(&p, ctx_for_tests(), OIBV_QPT_RC, NULL, NULL))
		return false;
	for (i = 0; i < 3; i++) {
		sge[i] = (struct oibv_sge){ (uintptr_t)p.buf, 8, p.mr->lkey };
		w[i] = (struct oibv_send_wr){
			.wr_id = i, .sg_list = &sge[i], .num_sge = 1, .opcode = OIBV_WR_SEND,
			.send_flags = OIBV_SEND_SIGNALED, .next = i < 2 ? &w[i + 1] : NULL,
		};
	}
	sge[1].lkey = 0;
	ok = post_recvs(&p, 1) && CHECK_ERR(oibv_post_send(p.a, w, &bad), EINVAL) &&
	     CHECK(bad == &w[1]) && poll_n(p.cq_a, 1, &wc) && CHECK(wc.wr_id == 0) &&
	     poll_n(p.cq_b, 1, &wc) && CHECK(p.a->sq.index == 1);
	/* too many SGEs for the ring: refused before the doorbell */
	w[0].num_sge = 3;
	ok = ok && CHECK_ERR(oibv_post_send(p.a, w, &bad), EINVAL) && CHECK(bad == &w[0]);
	ok = ok && still_works(&p);
	pair_teardown(&p);
	return objects_back_to(base) && ok;
}

struct flipper {
	struct pair *p;
	int stop;	/* atomic */
};

/* Rewrite every entry, field by field, as two good sends and a bad one, until told to stop. */
static void *flip_thread(void *arg)
{
	struct flipper *f = arg;
	uint32_t n = 0, i;

	while (!__atomic_load_n(&f->stop, __ATOMIC_RELAXED)) {
		for (i = 0; i < f->p->a->sq.entries; i++) {
			struct oib_uverbs_send_wr *e = sq_entry(f->p->a, i);
			struct oib_uverbs_sge *sge = (void *)(e + 1);

			/* wr_id 1 and 2: good sends of 8 and 16 bytes; 3: beyond the MR */
			e->wr_id = n++ % 3 + 1;
			sge->length = e->wr_id == 3 ? 4 * BUF_SIZE : 8 * e->wr_id;
		}
	}
	return NULL;
}

/*
 * Entries rewritten while the kernel reads them: whatever it posts is what it checked (a length
 * inside the MR, never the bad one), each doorbell posts or refuses, nothing in between.
 */
bool rings_wqe_rewritten(void)
{
	int base = live_objects();
	struct flipper f = { 0 };
	struct oib_uverbs_doorbell db;
	int64_t end = now_ms() + 3000;
	int posted = 0, refused = 0, r;
	struct oibv_wc wc;
	struct pair p;
	pthread_t th;
	uint32_t i;
	bool ok;

	if (!pair_setup(&p, ctx_for_tests(), OIBV_QPT_RC, NULL, NULL))
		return false;
	for (i = 0; i < p.a->sq.entries; i++)
		write_send(&p, i, 1, 8);
	f.p = &p;
	/* one receive waits for each send posted; a refused one leaves it for the next */
	if (!post_recvs(&p, 1) || !CHECK(!pthread_create(&th, NULL, flip_thread, &f))) {
		pair_teardown(&p);
		return false;
	}
	ok = true;
	while (ok && now_ms() < end && posted < 2000) {
		set_producer(p.a, p.a->sq.index + 1);
		r = doorbell(p.a, &db);
		if (r == EINVAL && db.posted == 0) {
			refused++;
			set_producer(p.a, db.bad_wr);
			continue;
		}
		ok = CHECK(!r) && CHECK(db.posted == 1) && poll_n(p.cq_a, 1, &wc) &&
		     CHECK(wc.status == OIBV_WC_SUCCESS) && poll_n(p.cq_b, 1, &wc) &&
		     CHECK(wc.byte_len == 8 || wc.byte_len == 16) && post_recvs(&p, 1);
		posted++;
	}
	__atomic_store_n(&f.stop, 1, __ATOMIC_RELAXED);
	pthread_join(th, NULL);
	diag("%d posted, %d refused", posted, refused);
	/* written after the doorbell: the kernel's copy was taken */
	i = p.a->sq.index;
	write_send(&p, i, 9, 8);
	set_producer(p.a, i + 1);
	ok = ok && CHECK(posted > 0) && CHECK(!doorbell(p.a, &db));
	write_send(&p, i, 10, 16);
	ok = ok && poll_n(p.cq_a, 1, &wc) && CHECK(wc.wr_id == 9) && poll_n(p.cq_b, 1, &wc) &&
	     CHECK(wc.byte_len == 8);
	pair_teardown(&p);
	return objects_back_to(base) && ok;
}

/* A CQ consumer index the process spoiled: the next completion is lost, CQ_ERR is raised. */
bool rings_cq_bad_consumer(void)
{
	int base = live_objects();
	struct oibv_context *ctx = ctx_for_tests();
	struct oibv_async_event ev;
	struct oib_uverbs_ring_hdr *h;
	struct oibv_wc wc;
	struct pair p;
	bool ok;

	if (!pair_setup(&p, ctx, OIBV_QPT_RC, NULL, NULL) || !still_works(&p))
		return false;
	h = hdr_of(&p.cq_b->ring);
	h->consumer = h->producer + 12345;	/* ahead of the producer */
	ok = pair_send(&p, 8, 0, 1) && poll_n(p.cq_a, 1, &wc) &&
	     CHECK(readable(ctx->async_fd, 10000)) && CHECK(!oibv_get_async_event(ctx, &ev)) &&
	     CHECK(ev.event_type == OIBV_EVENT_CQ_ERR) && CHECK(ev.element.cq == p.cq_b) &&
	     CHECK(h->flags & OIB_UVERBS_RING_OVERFLOW) &&
	     CHECK(oibv_poll_cq(p.cq_b, 1, &wc) == -EOVERFLOW);
	if (ok)
		oibv_ack_async_event(&ev);
	pair_teardown(&p);
	return objects_back_to(base) && ok;
}

/* Sends in flight, then close or munmap in either order: everything goes, nothing leaks. */
static bool unmap_close(bool close_first)
{
	struct oibv_context *c = oibv_open_device(test_dev);
	struct oibv_send_wr *bad, w;
	int base = live_objects(), i, n = 0;
	struct oibv_sge sge;
	struct pair p;
	bool ok;

	if (!CHECK(c) || !pair_setup(&p, c, OIBV_QPT_RC, NULL, NULL) || !post_recvs(&p, 32))
		return false;
	sge = (struct oibv_sge){ (uintptr_t)p.buf, 4096, p.mr->lkey };
	w = (struct oibv_send_wr){ .sg_list = &sge, .num_sge = 1, .opcode = OIBV_WR_SEND,
				   .send_flags = OIBV_SEND_SIGNALED };
	for (i = 0; i < 48; i++)
		n += !oibv_post_send(p.a, &w, &bad);
	ok = CHECK(n == 48);
	if (close_first) {
		close(c->async_fd);
		close(c->cmd_fd);
		/* the mappings hold the file: the context lives until they go */
		ok = ok && CHECK(live_objects() > base);
		pair_unmap(&p);
	} else {
		pair_unmap(&p);
		close(c->async_fd);
		close(c->cmd_fd);
	}
	munmap(p.buf, BUF_SIZE);
	return ok;
}

bool rings_close_under_traffic(void)
{
	int base = live_objects();

	return unmap_close(true) && unmap_close(false) && CHECK(objects_back_to(base));
}

/* A child does not inherit the rings (it faults on them); the parent's keep working. */
bool rings_fork(void)
{
	int base = live_objects();
	struct pair p;
	int st = -1;
	pid_t pid;
	bool ok;

	if (!pair_setup(&p, ctx_for_tests(), OIBV_QPT_RC, NULL, NULL))
		return false;
	pid = fork();
	if (pid == 0) {
		signal(SIGSEGV, SIG_DFL);
		_exit(__atomic_load_n(&hdr_of(&p.a->sq)->consumer, __ATOMIC_RELAXED) == 0 ? 0 : 1);
	}
	ok = CHECK(pid > 0) && CHECK(waitpid(pid, &st, 0) == pid) &&
	     CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV) && still_works(&p);
	pair_teardown(&p);
	return objects_back_to(base) && ok;
}

#define RING_FUZZ_ROUNDS 20000

/* xorshift64*, seeded from OIB_FUZZ_SEED: a seed reproduces a run. */
static uint64_t rnd_state;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state >> 12;
	rnd_state ^= rnd_state << 25;
	rnd_state ^= rnd_state >> 27;
	return rnd_state * 0x2545f4914f6cdd1dULL;
}

/* One round: random entries (near-valid or noise), a random producer, the doorbell. */
static bool ring_fuzz_one(struct pair *p)
{
	struct oibv_qp *qp = p->a;
	uint32_t cons = hdr_of(&qp->sq)->consumer, n = rnd() % 4, i, k;
	struct oib_uverbs_doorbell db;
	int r;

	for (i = 0; i < n; i++) {
		struct oib_uverbs_send_wr *e = sq_entry(qp, cons + i);
		uint32_t *w = (uint32_t *)e;

		write_send(p, cons + i, rnd(), rnd() % 64);
		for (k = rnd() % 4; k; k--)
			w[rnd() % (qp->sq.stride / 4)] = rnd() % 3 ? rnd() % 8 : (uint32_t)rnd();
	}
	if (rnd() % 8 == 0)
		hdr_of(&p->cq_a->ring)->consumer = rnd();
	set_producer(qp, rnd() % 8 ? cons + n : (uint32_t)rnd());
	r = doorbell(qp, &db);
	if (r && r != EINVAL && r != ENOMEM)
		return CHECK(!r);
	set_producer(qp, hdr_of(&qp->sq)->consumer);
	return true;
}

/* Seeded (OIB_FUZZ_SEED) random ring contents and indices; then close: nothing leaks. */
bool rings_fuzz(void)
{
	struct oibv_context *c = oibv_open_device(test_dev);
	const char *env = getenv("OIB_FUZZ_SEED");
	int base = live_objects(), i;
	struct pair p;
	bool ok = true;

	rnd_state = env ? strtoull(env, NULL, 0) : 0x0b1b5eedULL;
	diag("seed %#llx (OIB_FUZZ_SEED), %d rounds", (unsigned long long)rnd_state,
	     RING_FUZZ_ROUNDS);
	if (!CHECK(c) || !pair_setup(&p, c, OIBV_QPT_RC, NULL, NULL) || !post_recvs(&p, 64))
		return false;
	for (i = 0; ok && i < RING_FUZZ_ROUNDS; i++)
		ok = ring_fuzz_one(&p);
	fuzz_inputs("uverbs_ring_entries", i);
	pair_unmap(&p);
	munmap(p.buf, BUF_SIZE);
	close(c->async_fd);
	close(c->cmd_fd);
	return ok && CHECK(objects_back_to(base));
}

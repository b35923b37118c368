// SPDX-License-Identifier: GPL-2.0-only
/*
 * Programs: generated call by call from a seed, a call's missing resources made by calls
 * inserted before it (as syzkaller does); mutated (a field, a call inserted, removed or
 * repeated, the threads reassigned); printed.  Everything here is a function of the seeds only,
 * so a program is rebuilt from its ancestry (fz_prog.seeds).
 */
#include <stdio.h>
#include <string.h>
#include "fuzz.h"

uint64_t fz_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static unsigned int rnd(uint64_t *s, unsigned int n)
{
	return n ? fz_rand(s) % n : 0;
}

/* Percent chance. */
static bool pct(uint64_t *s, unsigned int p)
{
	return rnd(s, 100) < p;
}

/* A result the program has made so far, as the generator models it. */
struct gres {
	uint16_t call;
	uint8_t slot, kind;
	int16_t ctx;		/* the call that opened its context, or -1 */
	bool alive;
	uint8_t state;		/* QPs: the state the program last asked for */
	uint32_t qpt;		/* QPs: the type asked for */
	int16_t peer;		/* QPs: the peer_qp call connected to it, or -1 */
};

struct model {
	int n;
	struct gres r[FZ_MAXCALLS * FZ_MAXOUT];
};

static uint64_t lit(const struct fz_arg *a)
{
	return a->how == A_LIT ? a->val : 0;
}

static int call_ctx(const struct fz_prog *p, int i)
{
	const struct fz_desc *d = &fz_descs[p->c[i].cmd];

	if (d->pseudo == P_OPEN)
		return i;
	if (d->nf && d->f[0].type == FT_RES && p->c[i].a[0].how == A_RES)
		return call_ctx(p, p->c[i].a[0].call);
	return -1;
}

static struct gres *model_find(struct model *m, int call, int slot)
{
	int i;

	for (i = 0; i < m->n; i++)
		if (m->r[i].call == call && m->r[i].slot == slot)
			return &m->r[i];
	return NULL;
}

/* The model after call @i of @p. */
static void model_step(struct model *m, const struct fz_prog *p, int i)
{
	const struct fz_call *c = &p->c[i];
	const struct fz_desc *d = &fz_descs[c->cmd];
	struct gres *g;
	int k;

	for (k = 0; k < FZ_MAXOUT && d->out[k].kind; k++)
		m->r[m->n++] = (struct gres){
			.call = i, .slot = k, .kind = d->out[k].kind, .ctx = call_ctx(p, i),
			.alive = true, .peer = -1,
			.qpt = d->nr == OIB_UVERBS_CREATE_QP ? lit(&c->a[7]) : 0,
		};
	if (d->destroys && c->a[d->destroys - 1].how == A_RES) {
		g = model_find(m, c->a[d->destroys - 1].call, c->a[d->destroys - 1].slot);
		if (g)
			g->alive = false;
	}
	if (d->nr == OIB_UVERBS_MODIFY_QP && c->a[3].how == A_RES && (lit(&c->a[4]) & 1)) {
		g = model_find(m, c->a[3].call, c->a[3].slot);
		if (g)
			g->state = lit(&c->a[5]);
	}
	if (d->pseudo == P_PEER_QP && c->a[0].how == A_RES) {
		g = model_find(m, c->a[0].call, 0);	/* the QP of that qp_num */
		if (g)
			g->peer = i;
	}
}

static void model_build(struct model *m, const struct fz_prog *p, int end)
{
	int i;

	m->n = 0;
	for (i = 0; i < end; i++)
		model_step(m, p, i);
}

/* A result of a kind in @mask, of context @ctx if it can; NULL if there is none. */
static struct gres *pick(struct model *m, uint32_t mask, int ctx, bool alive, uint64_t *s)
{
	struct gres *c[FZ_MAXCALLS * FZ_MAXOUT];
	int n = 0, same = 0, i;

	for (i = 0; i < m->n; i++)
		if ((mask & KB(m->r[i].kind)) && m->r[i].alive == alive &&
		    (ctx < 0 || m->r[i].ctx == ctx || m->r[i].ctx < 0))
			c[n++] = &m->r[i];
	same = n;
	if (!n || pct(s, 5))
		for (i = 0; i < m->n; i++)
			if ((mask & KB(m->r[i].kind)) && m->r[i].alive == alive)
				c[n++] = &m->r[i];
	if (!n)
		return NULL;
	return c[same && n > same && pct(s, 80) ? rnd(s, same) : rnd(s, n)];
}

static void set_res(struct fz_arg *a, const struct gres *g)
{
	*a = (struct fz_arg){ .how = A_RES, .call = g->call, .slot = g->slot };
}

static uint64_t from_set(unsigned int id, uint64_t *s)
{
	int n;
	const uint64_t *v = fz_set(id, &n);
	uint64_t x;

	if (pct(s, 60))
		return v[rnd(s, n < 3 ? n : 3)];
	if (pct(s, 85))
		return v[rnd(s, n)];
	x = v[rnd(s, n)];
	return pct(s, 50) ? x + 1 - 2 * rnd(s, 2) : (uint32_t)fz_rand(s);
}

enum { FD_RW = 1, FD_RO = 2 };	/* FT_FD literals above 32 bits: the domain files */

static bool gen_call(struct fz_prog *p, struct model *m, int cmd, uint64_t *s, int depth);

/* Field @k of call @c (being made at the end of @p): a value for its type. */
static void gen_field(struct fz_prog *p, struct model *m, struct fz_call *c, int k, int ctx,
		      uint64_t *s, int depth)
{
	const struct fz_field *f = &fz_descs[c->cmd].f[k];
	struct fz_arg *a = &c->a[k];
	struct gres *g;
	int i;

	*a = (struct fz_arg){ .how = A_LIT };
	switch (f->type) {
	case FT_CONST:
		a->val = pct(s, 97) ? f->p : from_set(S_SMALL, s);
		break;
	case FT_RES:
		g = pct(s, 93) ? pick(m, f->p, ctx, true, s) : pick(m, f->p, ctx, false, s);
		if (!g && depth < 3 && pct(s, 85)) {
			/* make one: the first producer of a wanted kind */
			for (i = 0; i < fz_ndescs && !g; i++) {
				uint8_t kind = fz_descs[i].out[0].kind;

				if (kind && (f->p & KB(kind)) && !(kind == K_CTX && ctx >= 0) &&
				    gen_call(p, m, i, s, depth + 1))
					g = pick(m, f->p, ctx, true, s);
			}
		}
		if (g)
			set_res(a, g);
		else
			a->val = pct(s, 50) ? 0 : pct(s, 50) ? 0xffffffff : (uint32_t)fz_rand(s);
		break;
	case FT_INT:
		a->val = from_set(f->p, s);
		break;
	case FT_FLAGS:
		a->val = pct(s, 70) ? fz_rand(s) & f->p : pct(s, 50) ? 0 : pct(s, 70) ? f->p :
			 (uint32_t)fz_rand(s);
		break;
	case FT_UHANDLE:
		a->val = fz_rand(s);
		break;
	case FT_ADDR:
		if (pct(s, 95)) {
			static const uint64_t off[] = { 0, 0, 4096, 64, FZ_BUF - 4096, FZ_BUF / 2 };

			a->val = off[rnd(s, 6)];
		} else {
			static const uint64_t abs[] = { 0, 0xffff888000000000ull, 1ull << 46, 1 };

			a->how = A_ABS;
			a->val = abs[rnd(s, 4)];
		}
		break;
	case FT_GID:
		a->val = pct(s, 85) ? 0 : rnd(s, 5);
		break;
	case FT_SIZE:
		a->val = pct(s, 92) ? 0 : rnd(s, 7);
		break;
	case FT_FD:
		if (f->p & KB(K_CTX)) {		/* OPEN_XRCD */
			a->val = pct(s, 40) ? 0xffffffff : pct(s, 60) ? 1ull << 32 :
				 pct(s, 40) ? 2ull << 32 : 0;
			if (a->val || pct(s, 50))
				break;
		} else if (pct(s, 55)) {
			a->val = 0xffffffff;
			break;
		}
		g = pick(m, f->p, ctx, pct(s, 95), s);
		if (g)
			set_res(a, g);
		else
			a->val = 0xffffffff;
		break;
	case FT_PTR:
		a->val = pct(s, 92) ? 0 : 1 + rnd(s, 2);
		break;
	}
}

static void lit_set(struct fz_arg *a, uint64_t v)
{
	*a = (struct fz_arg){ .how = A_LIT, .val = v };
}

/* The QP a chain of MODIFY_QPs moves on (gen_call()), or -1. */
static int chain_qp = -1;

/* Sane values for a command most of the time: the rest of the program can build on it. */
static void gen_hint(struct fz_prog *p, struct model *m, struct fz_call *c, int ctx, uint64_t *s,
		     int depth)
{
	static const uint32_t types[] = { 2, 2, 2, 3, 4, 5, 6 };
	const struct fz_desc *d = &fz_descs[c->cmd];
	struct gres *g;
	uint32_t st, mask;

	if (!pct(s, 75))
		return;
	switch (d->nr) {
	case OIB_UVERBS_CREATE_QP:
		lit_set(&c->a[7], types[rnd(s, 7)]);
		lit_set(&c->a[8], rnd(s, 2));
		lit_set(&c->a[9], 0);
		lit_set(&c->a[10], 16);
		lit_set(&c->a[11], c->a[7].val >= 5 ? 0 : 16);
		lit_set(&c->a[12], 1 + rnd(s, 2));
		lit_set(&c->a[13], c->a[7].val >= 5 ? 0 : 1 + rnd(s, 2));
		lit_set(&c->a[14], 0);
		if (pct(s, 80) || c->a[7].val >= 5)
			lit_set(&c->a[15], 0);
		if (c->a[16].val & 2 && c->a[15].how == A_RES)
			c->a[16].val &= 1;
		if (c->a[7].val == OIB_UVERBS_QPT_XRC_TGT) {
			gen_field(p, m, c, 17, ctx, s, depth);
			lit_set(&c->a[4], 0);
			lit_set(&c->a[5], 0);
			lit_set(&c->a[6], 0);
			lit_set(&c->a[16], 0);
			lit_set(&c->a[10], 0);
			lit_set(&c->a[12], 0);
		} else {
			lit_set(&c->a[17], 0);
			if (pct(s, 70))
				c->a[6] = c->a[5];
		}
		if (c->a[7].val == OIB_UVERBS_QPT_XRC_INI)
			lit_set(&c->a[6], 0);
		break;
	case OIB_UVERBS_MODIFY_QP:
		g = chain_qp >= 0 ? model_find(m, chain_qp, 0) : NULL;
		g = g && g->alive ? g : pick(m, KB(K_QP), ctx, true, s);
		if (!g)
			return;
		set_res(&c->a[3], g);
		st = g->state < 3 ? g->state + 1 : pct(s, 50) ? 6 : pct(s, 50) ? 0 : 4;
		if (st == 2 && g->peer < 0 && (g->qpt == 2 || g->qpt == 3) && depth < 3) {
			struct fz_call pc = { .cmd = fz_desc_find("peer_qp") };

			if (p->n >= FZ_MAXCALLS - 1)
				return;
			pc.a[0] = (struct fz_arg){ .how = A_RES, .call = g->call, .slot = 1 };
			lit_set(&pc.a[1], g->qpt);
			p->c[p->n] = pc;
			model_step(m, p, p->n);
			p->n++;
		}
		/* INIT, RTR and RTS as uverbs_util.c's qp_connect() and ini_connect() */
		mask = st == 1 ? 0x39 : st == 2 ? 0x129181 : st == 3 ? 0x12e01 : 1;
		if (g->qpt == 4)		/* UD: a Q_Key at INIT, no path */
			mask = st == 1 ? 0x71 : st == 3 ? 0x10001 : 1;
		if (g->qpt == 3 || (g->qpt == 5 && st == 2))	/* UC, XRC_INI: no RC responder */
			mask &= ~(0x20000 | 0x8000);
		if (g->qpt == 3)		/* UC: no RC timers */
			mask &= ~(0x2000 | 0x800 | 0x400 | 0x200);
		lit_set(&c->a[4], mask);
		lit_set(&c->a[5], st);
		lit_set(&c->a[6], 3);
		lit_set(&c->a[7], 0);
		lit_set(&c->a[8], 0);
		if (g->peer >= 0)
			c->a[9] = (struct fz_arg){ .how = A_RES, .call = g->peer, .slot = 1 };
		lit_set(&c->a[10], 0xf);
		lit_set(&c->a[11], 0);
		lit_set(&c->a[12], 1);
		lit_set(&c->a[13], 14);
		lit_set(&c->a[14], 7);
		lit_set(&c->a[15], 7);
		lit_set(&c->a[16], 12);
		lit_set(&c->a[17], 1);
		lit_set(&c->a[18], 1);
		lit_set(&c->a[19], 0x11111111);
		lit_set(&c->a[20], 0);
		lit_set(&c->a[21], 64);
		lit_set(&c->a[22], 1);
		lit_set(&c->a[23], 1);
		break;
	case OIB_UVERBS_CREATE_XRC_RCV_QP:
		g = pick(m, KB(K_XRCD), ctx, true, s);
		if (g)
			set_res(&c->a[3], g);
		lit_set(&c->a[4], 0x1291b8);
		lit_set(&c->a[5], 0);
		lit_set(&c->a[6], 3);
		lit_set(&c->a[10], 0xf);
		lit_set(&c->a[11], 0);
		lit_set(&c->a[12], 1);
		lit_set(&c->a[17], 1);
		lit_set(&c->a[16], 12);
		lit_set(&c->a[20], 0);
		lit_set(&c->a[22], 1);
		lit_set(&c->a[23], 1);
		break;
	case OIB_UVERBS_REG_MR:
		lit_set(&c->a[5], 4096 << rnd(s, 6));
		lit_set(&c->a[7], pct(s, 50) ? 0xf : 1 | (fz_rand(s) & 0xf));
		break;
	case OIB_UVERBS_POST_SEND:
	case OIB_UVERBS_POST_RECV:
	case OIB_UVERBS_POST_SRQ_RECV:
		g = pick(m, d->nr == OIB_UVERBS_POST_SRQ_RECV ? KB(K_SRQ) : KB(K_QP), ctx, true, s);
		if (g)
			set_res(&c->a[3], g);
		lit_set(&c->a[4], 1 + rnd(s, 4));
		lit_set(&c->a[8], 1);
		lit_set(&c->a[10], 64);
		if (pct(s, 70))
			lit_set(&c->a[6], OIB_UVERBS_WR_SEND);
		lit_set(&c->a[7], 2);
		break;
	case OIB_UVERBS_CREATE_SRQ:
		lit_set(&c->a[6], 16);
		lit_set(&c->a[7], 1);
		lit_set(&c->a[8], pct(s, 50) ? 0 : 4);
		if (pct(s, 70)) {
			lit_set(&c->a[10], 0);
			lit_set(&c->a[11], 0);
			lit_set(&c->a[12], 0);
		} else {
			lit_set(&c->a[10], 1);
			lit_set(&c->a[9], 0);
		}
		break;
	case OIB_UVERBS_CREATE_CQ:
		lit_set(&c->a[5], pct(s, 70) ? 64 : 2);
		lit_set(&c->a[6], 0);
		break;
	}
}

/*
 * Make a call of @cmd at the end of @p (and, before it, what it needs and the program has not
 * made); false if the program is full.
 */
static bool gen_call(struct fz_prog *p, struct model *m, int cmd, uint64_t *s, int depth)
{
	const struct fz_desc *d = &fz_descs[cmd];
	struct fz_call c = { .cmd = cmd };
	int k, ctx = -1;

	if (p->n >= FZ_MAXCALLS - 4)
		return false;
	for (k = 0; k < d->nf; k++) {
		gen_field(p, m, &c, k, ctx, s, depth);
		if (k == 0 && c.a[0].how == A_RES && d->f[0].p == KB(K_CTX))
			ctx = call_ctx(p, c.a[0].call);
		if (p->n >= FZ_MAXCALLS - 1)
			return false;
	}
	gen_hint(p, m, &c, ctx, s, depth);
	if (p->n >= FZ_MAXCALLS)
		return false;
	p->c[p->n] = c;
	model_step(m, p, p->n);
	p->n++;
	/* often a QP's next transitions too, INIT to RTR to RTS: a connected QP to build on */
	if (d->nr == OIB_UVERBS_MODIFY_QP && c.a[3].how == A_RES && depth < 3 && pct(s, 60)) {
		chain_qp = c.a[3].call;
		gen_call(p, m, cmd, s, depth + 1);
		chain_qp = -1;
	}
	return true;
}

static int pick_cmd(uint64_t *s)
{
	int total = 0, i, r;

	for (i = 0; i < fz_ndescs; i++)
		total += fz_descs[i].weight;
	r = rnd(s, total);
	for (i = 0; i < fz_ndescs; i++) {
		r -= fz_descs[i].weight;
		if (r < 0)
			return i;
	}
	return 0;
}

/* Calls from @from on concurrent, on random threads (a split at @from). */
static void collide(struct fz_prog *p, uint64_t *s)
{
	int i;

	p->split = pct(s, 35) ? p->n : 1 + rnd(s, p->n);
	for (i = 0; i < p->n; i++)
		p->c[i].thread = i < p->split ? 0 : rnd(s, FZ_THREADS);
}

/* Calls of @cmd (-1: any) from @from on are on thread @t. */
static void gen_on(struct fz_prog *p, struct model *m, int cmd, int t, uint64_t *s)
{
	int from = p->n;

	gen_call(p, m, cmd < 0 ? pick_cmd(s) : cmd, s, 0);
	while (from < p->n)
		p->c[from++].thread = t;
}

/*
 * A stream on thread @t: what a running program spends most of its calls on, its objects'
 * data path (posts, polls, doorbells, ring writes, the peer's traffic into them, notifications,
 * events, queries), @n calls long: cheap calls, each on state the ones before it left.
 */
static void gen_stream(struct fz_prog *p, struct model *m, int t, int n, uint64_t *s)
{
	static const char *const ops[] = {
		"POST_SEND", "POST_RECV", "POLL_CQ", "POLL_CQ", "REQ_NOTIFY_CQ", "DOORBELL",
		"ring_write", "peer_send", "peer_send", "POST_SRQ_RECV", "read_events",
		"QUERY_QP", "MODIFY_SRQ",
	};

	while (n-- > 0 && p->n < FZ_MAXCALLS - 8)
		gen_on(p, m, fz_desc_find(ops[rnd(s, sizeof(ops) / sizeof(ops[0]))]), t, s);
}

/*
 * The shape of the order and overlap bugs: connected QPs (and often an MR) made in order, then
 * at once thread 0 destroys, thread 1 does what a context does besides (its async fd, events,
 * channels), thread 2 makes traffic into the objects; random calls among them.
 */
static void gen_race(struct fz_prog *p, struct model *m, uint64_t *s)
{
	static const char *const side[] = { "GET_ASYNC_FD", "read_events", "delay",
					    "CREATE_COMP_CHANNEL", "close" };
	static const char *const traffic[] = { "peer_send", "peer_send", "POST_SEND",
					       "ring_write", "DOORBELL", "POST_RECV" };
	static const char *const destroys[] = { "DESTROY_QP", "DESTROY_QP", "DEREG_MR",
						"DESTROY_CQ", "DESTROY_SRQ", "delay" };
	int nq = 1 + rnd(s, 4), q, k, at;

	for (q = 0; q < nq; q++) {
		if (!gen_call(p, m, fz_desc_find("CREATE_QP"), s, 0))
			break;
		at = p->n - 1;
		for (k = 0; k < 2 + (int)rnd(s, 2); k++) {
			chain_qp = at;
			gen_call(p, m, fz_desc_find("MODIFY_QP"), s, 3);
		}
		chain_qp = -1;
		if (pct(s, 50))
			gen_call(p, m, fz_desc_find("REG_MR"), s, 0);
	}
	p->split = p->n;
	/* each thread's first call: traffic, then a destroy and the async fd, maybe delayed */
	gen_on(p, m, fz_desc_find(traffic[rnd(s, 2)]), 2, s);
	if (pct(s, 60))		/* the destroy lands in the middle of a stream of traffic */
		gen_stream(p, m, 2, FZ_STREAM_MIN + rnd(s, FZ_STREAM_MAX - FZ_STREAM_MIN), s);
	if (pct(s, 50))
		gen_on(p, m, fz_desc_find("delay"), 0, s);
	/* one in twenty: the device removed under the other threads' calls */
	gen_on(p, m, fz_desc_find(pct(s, 5) ? "remove_device" : destroys[rnd(s, 5)]), 0, s);
	if (pct(s, 50))
		gen_on(p, m, fz_desc_find("delay"), 1, s);
	gen_on(p, m, fz_desc_find(side[pct(s, 60) ? 0 : rnd(s, 5)]), 1, s);
	for (k = 0; k < (int)rnd(s, 8) && p->n < FZ_MAXCALLS - 8; k++) {
		switch (rnd(s, 4)) {
		case 0:
			gen_on(p, m, fz_desc_find(destroys[rnd(s, 6)]), 0, s);
			break;
		case 1:
			gen_on(p, m, fz_desc_find(side[rnd(s, 5)]), 1, s);
			break;
		case 2:
			gen_on(p, m, fz_desc_find(traffic[rnd(s, 6)]), 2, s);
			break;
		default:
			gen_on(p, m, -1, rnd(s, FZ_THREADS), s);
		}
	}
}

void fz_generate(struct fz_prog *p, uint64_t seed)
{
	uint64_t s = seed;
	struct model m;
	int want = 6 + rnd(&s, 30);

	memset(p, 0, sizeof(*p));
	p->nseeds = 1;
	p->seeds[0] = seed;
	m.n = 0;
	gen_call(p, &m, fz_desc_find("open"), &s, 0);
	if (pct(&s, 30)) {
		gen_race(p, &m, &s);
		return;
	}
	while (p->n < want && gen_call(p, &m, pick_cmd(&s), &s, 0))
		;
	if (pct(&s, 70))
		gen_stream(p, &m, 0, FZ_STREAM_MIN + rnd(&s, FZ_STREAM_MAX - FZ_STREAM_MIN), &s);
	collide(p, &s);
}

/* Remove call @i; references to it become 0, later ones move down. */
static void remove_call(struct fz_prog *p, int i)
{
	int j, k;

	memmove(&p->c[i], &p->c[i + 1], (p->n - i - 1) * sizeof(p->c[0]));
	p->n--;
	for (j = i; j < p->n; j++)
		for (k = 0; k < FZ_MAXF; k++) {
			struct fz_arg *a = &p->c[j].a[k];

			if (a->how != A_RES || a->call < i)
				continue;
			if (a->call == i)
				*a = (struct fz_arg){ .how = A_LIT };
			else
				a->call--;
		}
	if (p->split > i)
		p->split--;
}

/* Insert calls generated at position @pos (what they need too). */
static void insert_calls(struct fz_prog *p, int pos, uint64_t *s)
{
	static struct fz_prog t;
	struct model m;
	int k, j, shift, old = p->n;

	t = *p;
	t.n = pos;
	model_build(&m, &t, pos);
	if (!gen_call(&t, &m, pick_cmd(s), s, 0))
		return;
	shift = t.n - pos;
	if (old + shift > FZ_MAXCALLS)
		return;
	for (j = pos; j < old; j++) {
		t.c[j + shift] = p->c[j];
		for (k = 0; k < FZ_MAXF; k++)
			if (t.c[j + shift].a[k].how == A_RES && t.c[j + shift].a[k].call >= pos)
				t.c[j + shift].a[k].call += shift;
	}
	t.n = old + shift;
	if (t.split >= pos)
		t.split += shift;
	*p = t;
}

void fz_mutate(struct fz_prog *p, uint64_t seed)
{
	uint64_t s = seed;
	int ops = 1 + rnd(&s, 3), i, k;
	struct model m;

	if (p->nseeds < FZ_MAXSEEDS)
		p->seeds[p->nseeds++] = seed;
	while (ops--) {
		switch (rnd(&s, 6)) {
		case 0:
		case 1:		/* a field */
			i = rnd(&s, p->n);
			if (!fz_descs[p->c[i].cmd].nf)
				break;
			k = rnd(&s, fz_descs[p->c[i].cmd].nf);
			model_build(&m, p, i);
			gen_field(p, &m, &p->c[i], k, call_ctx(p, i), &s, 3);
			break;
		case 2:		/* a call inserted */
			insert_calls(p, 1 + rnd(&s, p->n), &s);
			break;
		case 3:		/* a call removed */
			if (p->n > 2)
				remove_call(p, 1 + rnd(&s, p->n - 1));
			break;
		case 4:		/* a call repeated at the end */
			if (p->n < FZ_MAXCALLS) {
				p->c[p->n] = p->c[1 + rnd(&s, p->n - 1)];
				p->c[p->n].thread = rnd(&s, FZ_THREADS);
				p->n++;
			}
			break;
		case 5:		/* other threads, another split */
			collide(p, &s);
			break;
		}
	}
	if (p->split > p->n)
		p->split = p->n;
}

bool fz_rebuild(struct fz_prog *p, const uint64_t *seeds, int n)
{
	int i;

	if (n < 1)
		return false;
	fz_generate(p, seeds[0]);
	for (i = 1; i < n && i < FZ_MAXSEEDS; i++)
		fz_mutate(p, seeds[i]);
	return true;
}

static const char *errname(int e)
{
	static char b[16];

	switch (e) {
	case -1: return "not run";
	case 0: return "ok";
	case 1: return "EPERM";
	case 2: return "ENOENT";
	case 9: return "EBADF";
	case 12: return "ENOMEM";
	case 14: return "EFAULT";
	case 16: return "EBUSY";
	case 17: return "EEXIST";
	case 22: return "EINVAL";
	case 25: return "ENOTTY";
	case 5: return "EIO";
	case 7: return "E2BIG";
	case 11: return "EAGAIN";
	case 95: return "EOPNOTSUPP";
	}
	snprintf(b, sizeof(b), "errno %d", e);
	return b;
}

void fz_print(const struct fz_prog *p, const int *errs)
{
	char line[1024];
	int i, k, n;

	printf("    # program (replay: OIB_FUZZ_REPLAY=");
	for (i = 0; i < p->nseeds; i++)
		printf("%s%llx", i ? "," : "", (unsigned long long)p->seeds[i]);
	printf("), %d calls, concurrent from call %d:\n", p->n, p->split);
	for (i = 0; i < p->n; i++) {
		const struct fz_desc *d = &fz_descs[p->c[i].cmd];

		n = snprintf(line, sizeof(line), "#%d t%d %s(", i, p->c[i].thread, d->name);
		for (k = 0; k < d->nf && n < (int)sizeof(line) - 64; k++) {
			const struct fz_arg *a = &p->c[i].a[k];

			if ((d->f[k].type == FT_CONST || d->f[k].type == FT_SIZE) &&
			    a->how == A_LIT && a->val == d->f[k].p)
				continue;
			if (a->how == A_RES)
				n += snprintf(line + n, sizeof(line) - n, "%s=r%d.%d ",
					      d->f[k].name, a->call, a->slot);
			else
				n += snprintf(line + n, sizeof(line) - n, "%s=%s%llx ",
					      d->f[k].name, a->how == A_ABS ? "abs:" : "",
					      (unsigned long long)a->val);
		}
		if (line[n - 1] == ' ')
			n--;
		snprintf(line + n, sizeof(line) - n, ") = %s", errs ? errname(errs[i]) : "?");
		printf("    #   %s\n", line);
	}
	fflush(stdout);
}

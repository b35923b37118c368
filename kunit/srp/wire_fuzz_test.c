// SPDX-License-Identifier: GPL-2.0-only
/*
 * A seeded fuzz of the SRP wire (drivers/infiniband/ulp/srp/srp_wire_*.c), what the target and
 * the initiator run on every IU a peer sends: valid IUs of each kind (commands with no data,
 * direct and indirect descriptors and immediate data, responses with sense data, task
 * management, logins and their answers, the small IUs), mutated (bits flipped, bytes set, cut
 * short, lengthened, or noise), are handed to every parser.  The oracles, besides KASAN: what a
 * parser accepts packs again into an IU that parses to the same (a command, a response, task
 * management), and what it points at (immediate data, sense data) lies inside the IU it was
 * given.  WIRE_FUZZ_SEED reproduces a run.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <oib/srp.h>
#include "oib_toolkit.h"

#define WIRE_FUZZ_SEED		0x5e9f00d5ULL
#define WIRE_FUZZ_ROUNDS	1000000U
#define IU_MAX			1024
#define IMM_OFF			80	/* where the logins ask immediate data to start */

struct wf {
	u8 base[IU_MAX], iu[IU_MAX], again[IU_MAX];
	size_t base_len;
	struct oib_srp_cmd_info cmd, cmd2;
	struct oib_srp_rsp_info rsp, rsp2;
	u8 sense[96];
	u32 accepted;
};

static u32 wf_rand(struct rnd_state *rnd, u32 n)
{
	return n ? prandom_u32_state(rnd) % n : 0;
}

/* A command of @nbufs descriptors (or immediate data: @imm) in direction @dir, packed. */
static size_t wf_cmd(struct wf *w, struct rnd_state *rnd, enum oib_srp_data_dir dir, u32 nbufs,
		     bool imm)
{
	struct oib_srp_cmd_info *c = &w->cmd;
	u32 i;
	int len;

	memset(c, 0, sizeof(*c));
	c->tag = prandom_u32_state(rnd);
	c->lun = wf_rand(rnd, 4);
	c->cdb[0] = 0x28;
	c->dir = dir;
	if (imm) {
		c->imm_off = IMM_OFF;
		c->imm = w->sense;	/* any bytes */
		c->data_len = 1 + wf_rand(rnd, sizeof(w->sense) - 1);
	} else {
		c->nbufs = nbufs;
		for (i = 0; i < nbufs; i++)
			c->bufs[i] = (struct oib_srp_buf){ .va = prandom_u32_state(rnd),
							   .key = prandom_u32_state(rnd),
							   .len = 1 + wf_rand(rnd, 65536) };
		c->table = (struct oib_srp_buf){ .va = 0x1000, .key = 7 };
	}
	len = oib_srp_pack_cmd(w->base, IU_MAX, c);
	return len > 0 ? len : 0;
}

/* A valid IU of a kind @rnd picks, into w->base. */
static void wf_base(struct wf *w, struct rnd_state *rnd)
{
	struct oib_srp_login l = { .tag = 1, .it_iu_len = 8276, .buf_fmt = 6 };
	struct oib_srp_login_answer a = { .tag = 2, .req_lim_delta = 32, .max_it_iu_len = 8276,
					  .max_ti_iu_len = 256, .buf_fmt = 6, .reason = 0x10001 };
	struct oib_srp_tsk_info t = { .tag = 3, .lun = 1, .func = 1, .task_tag = 9 };
	struct oib_srp_rsp_info r = { .tag = 4, .req_lim_delta = 1, .status = 2,
				      .flags = 2, .sense = w->sense, .sense_len = 18 };
	int len = 0;

	memset(w->base, 0, IU_MAX);
	switch (wf_rand(rnd, 8)) {
	case 0:
		len = wf_cmd(w, rnd, wf_rand(rnd, 3), wf_rand(rnd, 2), false);
		break;
	case 1:
		len = wf_cmd(w, rnd, 1 + wf_rand(rnd, 2), 2 + wf_rand(rnd, 6), false);
		break;
	case 2:
		len = wf_cmd(w, rnd, OIB_SRP_DATA_OUT, 0, true);
		break;
	case 3:
		len = oib_srp_pack_rsp(w->base, IU_MAX, &r);
		break;
	case 4:
		oib_srp_pack_tsk_mgmt(w->base, &t);
		len = 48;
		break;
	case 5:
		oib_srp_pack_login_req(w->base, &l);
		len = 64;
		break;
	case 6:
		if (wf_rand(rnd, 2))
			oib_srp_pack_login_rsp(w->base, &a);
		else
			oib_srp_pack_login_rej(w->base, &a);
		len = 52;
		break;
	default:
		oib_srp_pack_small(w->base, wf_rand(rnd, 2) ? OIB_SRP_CRED_REQ : OIB_SRP_AER_RSP,
				   5, 6);
		len = 24;
		break;
	}
	w->base_len = len > 0 ? len : 0;
}

/* w->iu: w->base mutated; its length. */
static size_t wf_mutate(struct wf *w, struct rnd_state *rnd)
{
	size_t len = w->base_len;
	u32 k;

	memcpy(w->iu, w->base, IU_MAX);
	switch (wf_rand(rnd, 5)) {
	case 0:		/* noise */
		len = wf_rand(rnd, IU_MAX + 1);
		prandom_bytes_state(rnd, w->iu, len);
		break;
	case 1:		/* bits flipped */
		for (k = 1 + wf_rand(rnd, 4); k && len; k--)
			w->iu[wf_rand(rnd, len)] ^= BIT(wf_rand(rnd, 8));
		break;
	case 2:		/* bytes set */
		for (k = 1 + wf_rand(rnd, 4); k && len; k--)
			w->iu[wf_rand(rnd, len)] = prandom_u32_state(rnd);
		break;
	case 3:		/* cut short */
		len = wf_rand(rnd, len + 1);
		break;
	default:	/* lengthened */
		k = wf_rand(rnd, IU_MAX - len + 1);
		prandom_bytes_state(rnd, w->iu + len, k);
		len += k;
		break;
	}
	return len;
}

static bool wf_inside(const u8 *iu, size_t len, const u8 *p, size_t n)
{
	return p >= iu && p <= iu + len && n <= (size_t)(iu + len - p);
}

/* What the command parsers accept: pointers inside, and it packs to an IU that parses the same. */
static void wf_cmd_oracle(struct kunit *test, struct wf *w, size_t len, bool imm)
{
	struct oib_srp_cmd_info *c = &w->cmd;
	int n;

	if (imm && c->imm_off) {
		KUNIT_EXPECT_TRUE(test, wf_inside(w->iu, len, c->imm, c->data_len));
		return;
	}
	KUNIT_EXPECT_LE(test, c->nbufs, (u32)OIB_SRP_MAX_BUFS);
	n = oib_srp_pack_cmd(w->again, IU_MAX, c);
	if (n <= 0)
		return;		/* a form pack does not make (an oversized table) */
	KUNIT_EXPECT_EQ(test, 0, oib_srp_parse_cmd(w->again, n, &w->cmd2));
	if (c->nbufs <= 1)
		memset(&c->table, 0, sizeof(c->table));
	KUNIT_EXPECT_MEMEQ(test, c, &w->cmd2, sizeof(*c));
}

static void wf_rsp_oracle(struct kunit *test, struct wf *w, size_t len)
{
	struct oib_srp_rsp_info *r = &w->rsp;
	int n;

	if (r->sense_len)
		KUNIT_EXPECT_TRUE(test, wf_inside(w->iu, len, r->sense, r->sense_len));
	n = oib_srp_pack_rsp(w->again, IU_MAX, r);
	if (n <= 0)
		return;
	KUNIT_EXPECT_EQ(test, 0, oib_srp_parse_rsp(w->again, n, &w->rsp2));
	KUNIT_EXPECT_EQ(test, r->tag, w->rsp2.tag);
	KUNIT_EXPECT_EQ(test, r->status, w->rsp2.status);
	KUNIT_EXPECT_EQ(test, r->sense_len, w->rsp2.sense_len);
	KUNIT_EXPECT_EQ(test, r->resp_len, w->rsp2.resp_len);
}

/* Every parser on w->iu's @len bytes. */
static void wf_parse_all(struct kunit *test, struct wf *w, size_t len)
{
	struct oib_srp_login_answer a;
	struct oib_srp_tsk_info t, t2;
	struct oib_srp_login l;
	u32 value;
	u64 tag;
	u8 tb[48];

	oib_srp_iu_opcode(w->iu, len);
	w->accepted += !oib_srp_parse_login_req(w->iu, len, &l);
	w->accepted += !oib_srp_parse_login_rdma(w->iu, len, &l);
	w->accepted += !oib_srp_parse_login_answer(w->iu, len, &a);
	w->accepted += !oib_srp_parse_small(w->iu, len, OIB_SRP_CRED_REQ, &tag, &value);
	w->accepted += !oib_srp_parse_small(w->iu, len, OIB_SRP_AER_RSP, &tag, &value);
	if (!oib_srp_parse_tsk_mgmt(w->iu, len, &t)) {
		w->accepted++;
		oib_srp_pack_tsk_mgmt(tb, &t);
		KUNIT_EXPECT_EQ(test, 0, oib_srp_parse_tsk_mgmt(tb, sizeof(tb), &t2));
		KUNIT_EXPECT_MEMEQ(test, &t, &t2, sizeof(t));
	}
	if (!oib_srp_parse_cmd(w->iu, len, &w->cmd)) {
		w->accepted++;
		wf_cmd_oracle(test, w, len, false);
	}
	if (!oib_srp_parse_cmd_imm(w->iu, len, IMM_OFF, &w->cmd)) {
		w->accepted++;
		wf_cmd_oracle(test, w, len, true);
	}
	if (!oib_srp_parse_rsp(w->iu, len, &w->rsp)) {
		w->accepted++;
		wf_rsp_oracle(test, w, len);
	}
}

static void wire_fuzz(struct kunit *test)
{
	struct wf *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	struct rnd_state rnd;
	u32 round;

	KUNIT_ASSERT_NOT_NULL(test, w);
	prandom_seed_state(&rnd, WIRE_FUZZ_SEED);
	prandom_bytes_state(&rnd, w->sense, sizeof(w->sense));
	for (round = 0; round < WIRE_FUZZ_ROUNDS && test->status != KUNIT_FAILURE; round++) {
		wf_base(w, &rnd);
		wf_parse_all(test, w, wf_mutate(w, &rnd));
		if (!(round % 4096))
			cond_resched();
	}
	kunit_info(test, "seed %#llx: %u IUs, %u parses accepted", WIRE_FUZZ_SEED, round,
		   w->accepted);
	/* the mutations left enough valid IUs for the oracles to judge */
	KUNIT_EXPECT_GT(test, w->accepted, WIRE_FUZZ_ROUNDS / 20);
	oib_test_fuzz_inputs(test, "srp_ius", round);
}

static struct kunit_case wire_fuzz_cases[] = {
	KUNIT_CASE(wire_fuzz),
	{}
};

static struct kunit_suite wire_fuzz_suite = {
	.name = "oib_srp_wire_fuzz",
	.test_cases = wire_fuzz_cases,
};

kunit_test_suite(wire_fuzz_suite);

MODULE_DESCRIPTION("KUnit: a seeded fuzz of the SRP wire's parsers");
MODULE_LICENSE("GPL");

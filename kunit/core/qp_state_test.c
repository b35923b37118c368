// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for oib_modify_qp_is_ok().
 *
 * The expectations come from a separate encoding of the IBTA modify-QP attribute tables (as the
 * in-tree Linux stack applies them), not from the implementation: the oracle below is a 2-D
 * [from][to] array of edges, each listing the QP types it exists for and, per type, the required
 * and optional attribute masks.  Transitions into RESET and ERR carry no attributes and are
 * handled by rule in qpst_lookup() rather than by table entries.
 */

#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <oib/verbs.h>
#include <oib/kunit/core.h>

#define QPST_NBITS	21	/* attribute bits defined by enum oib_qp_attr_mask */
#define QPST_NCASES	(OIB_QPS_MAX * OIB_QPS_MAX * OIB_QPT_MAX)
#define QPST_NVALID	151U	/* (from, to, type) triples the oracle accepts */

#define QPST_ALL_TYPES	(BIT(OIB_QPT_MAX) - 1)
#define QPST_DGRAM	(BIT(OIB_QPT_SMI) | BIT(OIB_QPT_GSI) | BIT(OIB_QPT_UD))

/* Building blocks shared by several types. */

/* Requester-side connection attributes (RC, XRC initiator). */
#define QPST_REQUESTER	(OIB_QP_RETRY_CNT | OIB_QP_RNR_RETRY | OIB_QP_MAX_QP_RD_ATOMIC)
/* Responder-side connection attributes (RC, XRC target). */
#define QPST_RESPONDER	(OIB_QP_MAX_DEST_RD_ATOMIC | OIB_QP_MIN_RNR_TIMER)

/* RESET->INIT required, INIT->INIT optional. */
#define QPST_INIT_QP01	(OIB_QP_PKEY_INDEX | OIB_QP_QKEY)
#define QPST_INIT_UD	(OIB_QP_PKEY_INDEX | OIB_QP_PORT | OIB_QP_QKEY)
#define QPST_INIT_CONN	(OIB_QP_PKEY_INDEX | OIB_QP_PORT | OIB_QP_ACCESS_FLAGS)

/* INIT->RTR. */
#define QPST_RTR_UC	(OIB_QP_AV | OIB_QP_PATH_MTU | OIB_QP_DEST_QPN | OIB_QP_RQ_PSN)
#define QPST_RTR_RC	(QPST_RTR_UC | QPST_RESPONDER)
#define QPST_RTR_OPT_DG	(OIB_QP_PKEY_INDEX | OIB_QP_QKEY)
#define QPST_RTR_OPT_CN	(OIB_QP_ALT_PATH | OIB_QP_ACCESS_FLAGS | OIB_QP_PKEY_INDEX)

/* RTR->RTS required. */
#define QPST_RTS_RC	(OIB_QP_TIMEOUT | OIB_QP_SQ_PSN | QPST_REQUESTER)
#define QPST_RTS_TGT	(OIB_QP_TIMEOUT | OIB_QP_SQ_PSN)

/* Optional on RTR->RTS, RTS->RTS and SQD->RTS. */
#define QPST_RTS_OPT_DG	(OIB_QP_CUR_STATE | OIB_QP_QKEY)
#define QPST_RTS_OPT_UC	(OIB_QP_CUR_STATE | OIB_QP_ALT_PATH | OIB_QP_ACCESS_FLAGS | \
			 OIB_QP_PATH_MIG_STATE)
#define QPST_RTS_OPT_RC	(QPST_RTS_OPT_UC | OIB_QP_MIN_RNR_TIMER)

/* SQD->SQD optional. */
#define QPST_SQD_DG	(OIB_QP_PKEY_INDEX | OIB_QP_QKEY)
#define QPST_SQD_UC	(OIB_QP_AV | OIB_QP_ALT_PATH | OIB_QP_ACCESS_FLAGS | OIB_QP_PKEY_INDEX | \
			 OIB_QP_PATH_MIG_STATE)
#define QPST_SQD_CONN	(OIB_QP_PORT | OIB_QP_AV | OIB_QP_TIMEOUT | OIB_QP_ALT_PATH | \
			 OIB_QP_ACCESS_FLAGS | OIB_QP_PKEY_INDEX | OIB_QP_PATH_MIG_STATE)
#define QPST_SQD_INI	(QPST_SQD_CONN | QPST_REQUESTER)
#define QPST_SQD_TGT	(QPST_SQD_CONN | QPST_RESPONDER)
#define QPST_SQD_RC	(QPST_SQD_CONN | QPST_REQUESTER | QPST_RESPONDER)

struct qpst_attrs {
	u32 req;
	u32 opt;
};

struct qpst_edge {
	u32 types;				/* BIT(type) for each type the edge exists for */
	struct qpst_attrs attrs[OIB_QPT_MAX];
};

/* Only edges that carry attributes; into-RESET and into-ERR are rules in qpst_lookup(). */
static const struct qpst_edge qpst_edges[OIB_QPS_MAX][OIB_QPS_MAX] = {
	[OIB_QPS_RESET][OIB_QPS_INIT] = {
		.types = QPST_ALL_TYPES,
		.attrs = {
			[OIB_QPT_SMI]		= { .req = QPST_INIT_QP01 },
			[OIB_QPT_GSI]		= { .req = QPST_INIT_QP01 },
			[OIB_QPT_RC]		= { .req = QPST_INIT_CONN },
			[OIB_QPT_UC]		= { .req = QPST_INIT_CONN },
			[OIB_QPT_UD]		= { .req = QPST_INIT_UD },
			[OIB_QPT_XRC_INI]	= { .req = QPST_INIT_CONN },
			[OIB_QPT_XRC_TGT]	= { .req = QPST_INIT_CONN },
		},
	},
	[OIB_QPS_INIT][OIB_QPS_INIT] = {
		.types = QPST_ALL_TYPES,
		.attrs = {
			[OIB_QPT_SMI]		= { .opt = QPST_INIT_QP01 },
			[OIB_QPT_GSI]		= { .opt = QPST_INIT_QP01 },
			[OIB_QPT_RC]		= { .opt = QPST_INIT_CONN },
			[OIB_QPT_UC]		= { .opt = QPST_INIT_CONN },
			[OIB_QPT_UD]		= { .opt = QPST_INIT_UD },
			[OIB_QPT_XRC_INI]	= { .opt = QPST_INIT_CONN },
			[OIB_QPT_XRC_TGT]	= { .opt = QPST_INIT_CONN },
		},
	},
	[OIB_QPS_INIT][OIB_QPS_RTR] = {
		.types = QPST_ALL_TYPES,
		.attrs = {
			[OIB_QPT_SMI]		= { .opt = QPST_RTR_OPT_DG },
			[OIB_QPT_GSI]		= { .opt = QPST_RTR_OPT_DG },
			[OIB_QPT_RC]		= { QPST_RTR_RC, QPST_RTR_OPT_CN },
			[OIB_QPT_UC]		= { QPST_RTR_UC, QPST_RTR_OPT_CN },
			[OIB_QPT_UD]		= { .opt = QPST_RTR_OPT_DG },
			[OIB_QPT_XRC_INI]	= { QPST_RTR_UC, QPST_RTR_OPT_CN },
			[OIB_QPT_XRC_TGT]	= { QPST_RTR_RC, QPST_RTR_OPT_CN },
		},
	},
	[OIB_QPS_RTR][OIB_QPS_RTS] = {
		.types = QPST_ALL_TYPES,
		.attrs = {
			[OIB_QPT_SMI]		= { OIB_QP_SQ_PSN, QPST_RTS_OPT_DG },
			[OIB_QPT_GSI]		= { OIB_QP_SQ_PSN, QPST_RTS_OPT_DG },
			[OIB_QPT_RC]		= { QPST_RTS_RC, QPST_RTS_OPT_RC },
			[OIB_QPT_UC]		= { OIB_QP_SQ_PSN, QPST_RTS_OPT_UC },
			[OIB_QPT_UD]		= { OIB_QP_SQ_PSN, QPST_RTS_OPT_DG },
			[OIB_QPT_XRC_INI]	= { QPST_RTS_RC, QPST_RTS_OPT_UC },
			[OIB_QPT_XRC_TGT]	= { QPST_RTS_TGT, QPST_RTS_OPT_RC },
		},
	},
	[OIB_QPS_RTS][OIB_QPS_RTS] = {
		.types = QPST_ALL_TYPES,
		.attrs = {
			[OIB_QPT_SMI]		= { .opt = QPST_RTS_OPT_DG },
			[OIB_QPT_GSI]		= { .opt = QPST_RTS_OPT_DG },
			[OIB_QPT_RC]		= { .opt = QPST_RTS_OPT_RC },
			[OIB_QPT_UC]		= { .opt = QPST_RTS_OPT_UC },
			[OIB_QPT_UD]		= { .opt = QPST_RTS_OPT_DG },
			[OIB_QPT_XRC_INI]	= { .opt = QPST_RTS_OPT_UC },
			[OIB_QPT_XRC_TGT]	= { .opt = QPST_RTS_OPT_RC },
		},
	},
	[OIB_QPS_RTS][OIB_QPS_SQD] = {
		.types = QPST_ALL_TYPES,
		.attrs = {
			[OIB_QPT_SMI]		= { .opt = OIB_QP_EN_SQD_ASYNC_NOTIFY },
			[OIB_QPT_GSI]		= { .opt = OIB_QP_EN_SQD_ASYNC_NOTIFY },
			[OIB_QPT_RC]		= { .opt = OIB_QP_EN_SQD_ASYNC_NOTIFY },
			[OIB_QPT_UC]		= { .opt = OIB_QP_EN_SQD_ASYNC_NOTIFY },
			[OIB_QPT_UD]		= { .opt = OIB_QP_EN_SQD_ASYNC_NOTIFY },
			[OIB_QPT_XRC_INI]	= { .opt = OIB_QP_EN_SQD_ASYNC_NOTIFY },
			[OIB_QPT_XRC_TGT]	= { .opt = OIB_QP_EN_SQD_ASYNC_NOTIFY },
		},
	},
	[OIB_QPS_SQD][OIB_QPS_RTS] = {
		.types = QPST_ALL_TYPES,
		.attrs = {
			[OIB_QPT_SMI]		= { .opt = QPST_RTS_OPT_DG },
			[OIB_QPT_GSI]		= { .opt = QPST_RTS_OPT_DG },
			[OIB_QPT_RC]		= { .opt = QPST_RTS_OPT_RC },
			[OIB_QPT_UC]		= { .opt = QPST_RTS_OPT_UC },
			[OIB_QPT_UD]		= { .opt = QPST_RTS_OPT_DG },
			[OIB_QPT_XRC_INI]	= { .opt = QPST_RTS_OPT_UC },
			[OIB_QPT_XRC_TGT]	= { .opt = QPST_RTS_OPT_RC },
		},
	},
	[OIB_QPS_SQD][OIB_QPS_SQD] = {
		.types = QPST_ALL_TYPES,
		.attrs = {
			[OIB_QPT_SMI]		= { .opt = QPST_SQD_DG },
			[OIB_QPT_GSI]		= { .opt = QPST_SQD_DG },
			[OIB_QPT_RC]		= { .opt = QPST_SQD_RC },
			[OIB_QPT_UC]		= { .opt = QPST_SQD_UC },
			[OIB_QPT_UD]		= { .opt = QPST_SQD_DG },
			[OIB_QPT_XRC_INI]	= { .opt = QPST_SQD_INI },
			[OIB_QPT_XRC_TGT]	= { .opt = QPST_SQD_TGT },
		},
	},
	/* Leaving SQ error needs an unreliable transport: RC and XRC have no such edge. */
	[OIB_QPS_SQE][OIB_QPS_RTS] = {
		.types = QPST_DGRAM | BIT(OIB_QPT_UC),
		.attrs = {
			[OIB_QPT_SMI]		= { .opt = QPST_RTS_OPT_DG },
			[OIB_QPT_GSI]		= { .opt = QPST_RTS_OPT_DG },
			[OIB_QPT_UC]		= { .opt = OIB_QP_CUR_STATE | OIB_QP_ACCESS_FLAGS },
			[OIB_QPT_UD]		= { .opt = QPST_RTS_OPT_DG },
		},
	},
};

static const char * const qpst_state_names[OIB_QPS_MAX] = {
	[OIB_QPS_RESET]	= "RESET",
	[OIB_QPS_INIT]	= "INIT",
	[OIB_QPS_RTR]	= "RTR",
	[OIB_QPS_RTS]	= "RTS",
	[OIB_QPS_SQD]	= "SQD",
	[OIB_QPS_SQE]	= "SQE",
	[OIB_QPS_ERR]	= "ERR",
};

static const char * const qpst_type_names[OIB_QPT_MAX] = {
	[OIB_QPT_SMI]		= "SMI",
	[OIB_QPT_GSI]		= "GSI",
	[OIB_QPT_RC]		= "RC",
	[OIB_QPT_UC]		= "UC",
	[OIB_QPT_UD]		= "UD",
	[OIB_QPT_XRC_INI]	= "XRC_INI",
	[OIB_QPT_XRC_TGT]	= "XRC_TGT",
};

/*
 * The oracle: true if @from -> @to exists for @type, with its required and optional masks (never
 * including OIB_QP_STATE, which is always allowed) in *@req and *@opt.
 */
static bool qpst_lookup(unsigned int from, unsigned int to, unsigned int type, u32 *req, u32 *opt)
{
	const struct qpst_edge *e;

	*req = 0;
	*opt = 0;

	/* Any state may be reset, RESET included. */
	if (to == OIB_QPS_RESET)
		return true;
	/* Any state but RESET may be moved to ERR, ERR included. */
	if (to == OIB_QPS_ERR)
		return from != OIB_QPS_RESET;

	e = &qpst_edges[from][to];
	if (!(e->types & BIT(type)))
		return false;

	*req = e->attrs[type].req;
	*opt = e->attrs[type].opt;
	return true;
}

static void qpst_expect(struct kunit *test, unsigned int from, unsigned int to,
			unsigned int type, u32 mask, bool want, const char *why)
{
	bool got = oib_modify_qp_is_ok((enum oib_qp_state)from, (enum oib_qp_state)to,
				       (enum oib_qp_type)type, (int)mask);

	if (want)
		KUNIT_EXPECT_TRUE_MSG(test, got, "%s->%s %s mask 0x%08x (%s) must be accepted",
				      qpst_state_names[from], qpst_state_names[to],
				      qpst_type_names[type], mask, why);
	else
		KUNIT_EXPECT_FALSE_MSG(test, got, "%s->%s %s mask 0x%08x (%s) must be rejected",
				       qpst_state_names[from], qpst_state_names[to],
				       qpst_type_names[type], mask, why);
}

/* ---- Parameterised: every (from, to, type) triple ---- */

struct qpst_triple {
	unsigned int from;
	unsigned int to;
	unsigned int type;
};

static struct qpst_triple qpst_triples[QPST_NCASES];

static const void *qpst_triple_gen(const void *prev, char *desc)
{
	const struct qpst_triple *p = prev;
	unsigned int i = p ? p - qpst_triples + 1 : 0;
	struct qpst_triple *t;

	if (i >= ARRAY_SIZE(qpst_triples))
		return NULL;

	t = &qpst_triples[i];
	t->from = i / (OIB_QPS_MAX * OIB_QPT_MAX);
	t->to = i / OIB_QPT_MAX % OIB_QPS_MAX;
	t->type = i % OIB_QPT_MAX;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s->%s %s", qpst_state_names[t->from],
		 qpst_state_names[t->to], qpst_type_names[t->type]);
	return t;
}

static void qpst_check_invalid(struct kunit *test, const struct qpst_triple *t)
{
	unsigned int b;

	qpst_expect(test, t->from, t->to, t->type, 0, false, "no edge, empty mask");
	qpst_expect(test, t->from, t->to, t->type, OIB_QP_STATE, false, "no edge, STATE only");
	qpst_expect(test, t->from, t->to, t->type, OIB_QP_ATTR_ALL, false, "no edge, all bits");

	for (b = 0; b < QPST_NBITS; b++) {
		qpst_expect(test, t->from, t->to, t->type, BIT(b), false, "no edge, single bit");
		qpst_expect(test, t->from, t->to, t->type, BIT(b) | OIB_QP_STATE, false,
			    "no edge, single bit with STATE");
	}
}

static void qpst_check_valid(struct kunit *test, const struct qpst_triple *t, u32 req, u32 opt)
{
	u32 base = req | OIB_QP_STATE;
	u32 allowed = req | opt | OIB_QP_STATE;
	unsigned int b;

	qpst_expect(test, t->from, t->to, t->type, base, true, "required | STATE");
	qpst_expect(test, t->from, t->to, t->type, req, true, "required, STATE omitted");
	qpst_expect(test, t->from, t->to, t->type, allowed, true, "required | optional | STATE");
	if (req) {
		qpst_expect(test, t->from, t->to, t->type, 0, false, "empty mask");
		qpst_expect(test, t->from, t->to, t->type, OIB_QP_STATE, false, "STATE only");
	}

	for (b = 0; b < QPST_NBITS; b++) {
		u32 bit = BIT(b);

		if (bit == OIB_QP_STATE)
			continue;

		if (opt & bit) {
			qpst_expect(test, t->from, t->to, t->type, base | bit, true,
				    "required | STATE | one optional bit");
		} else if (req & bit) {
			qpst_expect(test, t->from, t->to, t->type, base & ~bit, false,
				    "one required bit missing");
			qpst_expect(test, t->from, t->to, t->type, allowed & ~bit, false,
				    "all optional, one required bit missing");
		} else {
			qpst_expect(test, t->from, t->to, t->type, base | bit, false,
				    "required | STATE | one disallowed bit");
			qpst_expect(test, t->from, t->to, t->type, allowed | bit, false,
				    "everything allowed | one disallowed bit");
		}
	}

	/* Bits beyond the defined attributes are never allowed. */
	for (b = QPST_NBITS; b < 32; b++)
		qpst_expect(test, t->from, t->to, t->type, base | BIT(b), false,
			    "required | STATE | undefined bit");
}

static void oib_qp_state_test_triple(struct kunit *test)
{
	const struct qpst_triple *t = test->param_value;
	u32 req, opt;

	if (qpst_lookup(t->from, t->to, t->type, &req, &opt))
		qpst_check_valid(test, t, req, opt);
	else
		qpst_check_invalid(test, t);
}

/* ---- Out-of-range arguments ---- */

static const unsigned int qpst_bad_states[] = { OIB_QPS_MAX, OIB_QPS_MAX + 1, 64, 255, 0x10000,
						 0x7fffffff, 0xffffffff };
static const unsigned int qpst_bad_types[] = { OIB_QPT_MAX, OIB_QPT_MAX + 1, 64, 255, 0x10000,
						0x7fffffff, 0xffffffff };

static void qpst_expect_bad(struct kunit *test, unsigned int from, unsigned int to,
			    unsigned int type, u32 mask)
{
	bool got = oib_modify_qp_is_ok((enum oib_qp_state)from, (enum oib_qp_state)to,
				       (enum oib_qp_type)type, (int)mask);

	KUNIT_EXPECT_FALSE_MSG(test, got,
			       "out of range: from %u to %u type %u mask 0x%08x must be rejected",
			       from, to, type, mask);
}

static void oib_qp_state_test_out_of_range(struct kunit *test)
{
	static const u32 masks[] = { 0, OIB_QP_STATE, OIB_QP_ATTR_ALL };
	unsigned int i, s, t, m;
	u32 req, opt;

	for (i = 0; i < ARRAY_SIZE(qpst_bad_states); i++) {
		unsigned int bad = qpst_bad_states[i];

		for (m = 0; m < ARRAY_SIZE(masks); m++) {
			for (t = 0; t < OIB_QPT_MAX; t++) {
				for (s = 0; s < OIB_QPS_MAX; s++) {
					qpst_expect_bad(test, bad, s, t, masks[m]);
					qpst_expect_bad(test, s, bad, t, masks[m]);
				}
				qpst_expect_bad(test, bad, bad, t, masks[m]);
			}
			for (t = 0; t < ARRAY_SIZE(qpst_bad_types); t++)
				qpst_expect_bad(test, bad, bad, qpst_bad_types[t], masks[m]);
		}
	}

	/* A bad type must not borrow any real type's rules, whatever the edge. */
	for (i = 0; i < ARRAY_SIZE(qpst_bad_types); i++) {
		unsigned int bad = qpst_bad_types[i];
		unsigned int from, to;

		for (from = 0; from < OIB_QPS_MAX; from++) {
			for (to = 0; to < OIB_QPS_MAX; to++) {
				for (m = 0; m < ARRAY_SIZE(masks); m++)
					qpst_expect_bad(test, from, to, bad, masks[m]);
				for (t = 0; t < OIB_QPT_MAX; t++) {
					if (!qpst_lookup(from, to, t, &req, &opt))
						continue;
					qpst_expect_bad(test, from, to, bad, req | OIB_QP_STATE);
					qpst_expect_bad(test, from, to, bad,
							req | opt | OIB_QP_STATE);
				}
			}
		}
	}
}

/* ---- Spot checks written straight from the spec, independent of the oracle table ---- */

static void oib_qp_state_test_spot(struct kunit *test)
{
	const u32 rc_rtr = OIB_QP_AV | OIB_QP_PATH_MTU | OIB_QP_DEST_QPN | OIB_QP_RQ_PSN |
			   OIB_QP_MAX_DEST_RD_ATOMIC | OIB_QP_MIN_RNR_TIMER;
	const u32 rc_rts = OIB_QP_TIMEOUT | OIB_QP_RETRY_CNT | OIB_QP_RNR_RETRY | OIB_QP_SQ_PSN |
			   OIB_QP_MAX_QP_RD_ATOMIC;
	const u32 ud_init = OIB_QP_PKEY_INDEX | OIB_QP_PORT | OIB_QP_QKEY;
	const u32 gsi_init = OIB_QP_PKEY_INDEX | OIB_QP_QKEY;
	const u32 rc_init = OIB_QP_PKEY_INDEX | OIB_QP_PORT | OIB_QP_ACCESS_FLAGS;
	const u32 st = OIB_QP_STATE;

	/* RC INIT->RTR: path, remote QP, receive PSN and responder resources. */
	qpst_expect(test, OIB_QPS_INIT, OIB_QPS_RTR, OIB_QPT_RC, rc_rtr | st, true, "spot");
	qpst_expect(test, OIB_QPS_INIT, OIB_QPS_RTR, OIB_QPT_RC,
		    (rc_rtr & ~OIB_QP_MIN_RNR_TIMER) | st, false, "spot: no MIN_RNR_TIMER");
	qpst_expect(test, OIB_QPS_INIT, OIB_QPS_RTR, OIB_QPT_RC,
		    (rc_rtr & ~OIB_QP_AV) | st, false, "spot: no AV");
	qpst_expect(test, OIB_QPS_INIT, OIB_QPS_RTR, OIB_QPT_RC,
		    rc_rtr | st | OIB_QP_ALT_PATH | OIB_QP_ACCESS_FLAGS | OIB_QP_PKEY_INDEX, true,
		    "spot: with all optional");
	qpst_expect(test, OIB_QPS_INIT, OIB_QPS_RTR, OIB_QPT_RC, rc_rtr | st | OIB_QP_SQ_PSN,
		    false, "spot: SQ_PSN belongs to RTR->RTS");
	qpst_expect(test, OIB_QPS_INIT, OIB_QPS_RTR, OIB_QPT_RC, rc_rtr | st | OIB_QP_CUR_STATE,
		    false, "spot: CUR_STATE not allowed on INIT->RTR");
	/* UC has no responder resources. */
	qpst_expect(test, OIB_QPS_INIT, OIB_QPS_RTR, OIB_QPT_UC, rc_rtr | st, false,
		    "spot: UC has no MAX_DEST_RD_ATOMIC/MIN_RNR_TIMER");
	/* UD needs nothing to reach RTR. */
	qpst_expect(test, OIB_QPS_INIT, OIB_QPS_RTR, OIB_QPT_UD, st, true, "spot");
	qpst_expect(test, OIB_QPS_INIT, OIB_QPS_RTR, OIB_QPT_UD, st | OIB_QP_AV, false,
		    "spot: UD has no AV on the QP");

	/* UD RESET->INIT. */
	qpst_expect(test, OIB_QPS_RESET, OIB_QPS_INIT, OIB_QPT_UD, ud_init | st, true, "spot");
	qpst_expect(test, OIB_QPS_RESET, OIB_QPS_INIT, OIB_QPT_UD, (ud_init & ~OIB_QP_QKEY) | st,
		    false, "spot: no QKEY");
	qpst_expect(test, OIB_QPS_RESET, OIB_QPS_INIT, OIB_QPT_UD,
		    ud_init | st | OIB_QP_ACCESS_FLAGS, false, "spot: UD has no ACCESS_FLAGS");

	/* GSI/SMI RESET->INIT: the port is fixed at create time. */
	qpst_expect(test, OIB_QPS_RESET, OIB_QPS_INIT, OIB_QPT_GSI, gsi_init | st, true, "spot");
	qpst_expect(test, OIB_QPS_RESET, OIB_QPS_INIT, OIB_QPT_GSI, gsi_init | st | OIB_QP_PORT,
		    false, "spot: GSI rejects PORT");
	qpst_expect(test, OIB_QPS_RESET, OIB_QPS_INIT, OIB_QPT_SMI, gsi_init | st, true, "spot");
	qpst_expect(test, OIB_QPS_RESET, OIB_QPS_INIT, OIB_QPT_SMI, gsi_init | st | OIB_QP_PORT,
		    false, "spot: SMI rejects PORT");

	/* RC RESET->INIT. */
	qpst_expect(test, OIB_QPS_RESET, OIB_QPS_INIT, OIB_QPT_RC, rc_init | st, true, "spot");
	qpst_expect(test, OIB_QPS_RESET, OIB_QPS_INIT, OIB_QPT_RC, rc_init | st | OIB_QP_QKEY,
		    false, "spot: RC has no QKEY");
	qpst_expect(test, OIB_QPS_RESET, OIB_QPS_INIT, OIB_QPT_RC, st, false,
		    "spot: RC RESET->INIT needs attributes");

	/* RC RTR->RTS: send-side timers and PSN. */
	qpst_expect(test, OIB_QPS_RTR, OIB_QPS_RTS, OIB_QPT_RC, rc_rts | st, true, "spot");
	qpst_expect(test, OIB_QPS_RTR, OIB_QPS_RTS, OIB_QPT_RC, (rc_rts & ~OIB_QP_RNR_RETRY) | st,
		    false, "spot: no RNR_RETRY");
	qpst_expect(test, OIB_QPS_RTR, OIB_QPS_RTS, OIB_QPT_RC, rc_rts | st | OIB_QP_CUR_STATE,
		    true, "spot: CUR_STATE allowed on RTR->RTS");
	qpst_expect(test, OIB_QPS_RTR, OIB_QPS_RTS, OIB_QPT_RC, rc_rts | st | OIB_QP_DEST_QPN,
		    false, "spot: DEST_QPN belongs to INIT->RTR");
	/* UC and UD only need the send PSN. */
	qpst_expect(test, OIB_QPS_RTR, OIB_QPS_RTS, OIB_QPT_UC, OIB_QP_SQ_PSN | st, true, "spot");
	qpst_expect(test, OIB_QPS_RTR, OIB_QPS_RTS, OIB_QPT_UC, OIB_QP_SQ_PSN | st | OIB_QP_TIMEOUT,
		    false, "spot: UC has no TIMEOUT");
	qpst_expect(test, OIB_QPS_RTR, OIB_QPS_RTS, OIB_QPT_UD, OIB_QP_SQ_PSN | st, true, "spot");

	/* Skipping a state is never allowed, whatever the mask. */
	qpst_expect(test, OIB_QPS_INIT, OIB_QPS_RTS, OIB_QPT_RC, rc_rtr | rc_rts | st, false,
		    "spot: INIT->RTS skips RTR");
	qpst_expect(test, OIB_QPS_RESET, OIB_QPS_RTR, OIB_QPT_UD, ud_init | st, false,
		    "spot: RESET->RTR skips INIT");

	/* Reset and error transitions. */
	qpst_expect(test, OIB_QPS_RESET, OIB_QPS_RESET, OIB_QPT_RC, st, true, "spot");
	qpst_expect(test, OIB_QPS_RESET, OIB_QPS_ERR, OIB_QPT_RC, st, false,
		    "spot: RESET->ERR is not a transition");
	qpst_expect(test, OIB_QPS_RESET, OIB_QPS_ERR, OIB_QPT_UD, st, false,
		    "spot: RESET->ERR is not a transition");
	qpst_expect(test, OIB_QPS_ERR, OIB_QPS_ERR, OIB_QPT_UD, st, true, "spot");
	qpst_expect(test, OIB_QPS_ERR, OIB_QPS_RESET, OIB_QPT_RC, st, true, "spot");
	qpst_expect(test, OIB_QPS_RTS, OIB_QPS_ERR, OIB_QPT_RC, st, true, "spot");
	qpst_expect(test, OIB_QPS_RTS, OIB_QPS_ERR, OIB_QPT_RC, st | OIB_QP_CUR_STATE, false,
		    "spot: no attributes into ERR");
	qpst_expect(test, OIB_QPS_RTS, OIB_QPS_RESET, OIB_QPT_UD, st | OIB_QP_QKEY, false,
		    "spot: no attributes into RESET");
	qpst_expect(test, OIB_QPS_ERR, OIB_QPS_RTS, OIB_QPT_UD, st, false,
		    "spot: ERR only leaves through RESET");

	/* Drain and recovery. */
	qpst_expect(test, OIB_QPS_RTS, OIB_QPS_SQD, OIB_QPT_RC, st | OIB_QP_EN_SQD_ASYNC_NOTIFY,
		    true, "spot");
	qpst_expect(test, OIB_QPS_SQD, OIB_QPS_RTS, OIB_QPT_RC, st, true, "spot");
	qpst_expect(test, OIB_QPS_SQE, OIB_QPS_RTS, OIB_QPT_UD, st | OIB_QP_CUR_STATE, true,
		    "spot");
	qpst_expect(test, OIB_QPS_SQE, OIB_QPS_RTS, OIB_QPT_UC, st, true, "spot");
	qpst_expect(test, OIB_QPS_SQE, OIB_QPS_RTS, OIB_QPT_RC, st, false,
		    "spot: RC cannot leave SQE for RTS");
	qpst_expect(test, OIB_QPS_SQE, OIB_QPS_RTS, OIB_QPT_XRC_INI, st, false,
		    "spot: XRC cannot leave SQE for RTS");
}

/* ---- Sanity of the oracle itself ---- */

static void qpst_check_entry(struct kunit *test, unsigned int from, unsigned int to,
			     unsigned int type, u32 req, u32 opt)
{
	const char *f = qpst_state_names[from];
	const char *n = qpst_state_names[to];
	const char *ty = qpst_type_names[type];

	KUNIT_EXPECT_EQ_MSG(test, req & opt, 0, "%s->%s %s: required and optional overlap",
			    f, n, ty);
	KUNIT_EXPECT_EQ_MSG(test, (req | opt) & ~(u32)OIB_QP_ATTR_ALL, 0,
			    "%s->%s %s: undefined bit in oracle", f, n, ty);
	KUNIT_EXPECT_EQ_MSG(test, (req | opt) & OIB_QP_STATE, 0,
			    "%s->%s %s: STATE listed in oracle", f, n, ty);

	/* CUR_STATE only makes sense from the states a QP can drift out of. */
	if (from != OIB_QPS_RTR && from != OIB_QPS_RTS && from != OIB_QPS_SQD &&
	    from != OIB_QPS_SQE)
		KUNIT_EXPECT_EQ_MSG(test, opt & OIB_QP_CUR_STATE, 0,
				    "%s->%s %s: CUR_STATE from a settled state", f, n, ty);
}

static void oib_qp_state_test_oracle(struct kunit *test)
{
	unsigned int from, to, type, valid = 0;
	u32 req, opt;

	for (from = 0; from < OIB_QPS_MAX; from++) {
		for (to = 0; to < OIB_QPS_MAX; to++) {
			if (to == OIB_QPS_RESET || to == OIB_QPS_ERR)
				KUNIT_EXPECT_EQ_MSG(test, qpst_edges[from][to].types, 0,
						    "%s->%s: handled by rule, not by table",
						    qpst_state_names[from], qpst_state_names[to]);

			for (type = 0; type < OIB_QPT_MAX; type++) {
				if (!qpst_lookup(from, to, type, &req, &opt))
					continue;
				valid++;
				qpst_check_entry(test, from, to, type, req, opt);
			}
		}
	}

	/*
	 * 49 into RESET, 42 into ERR, 7 each for RESET->INIT, INIT->INIT, INIT->RTR, RTR->RTS,
	 * RTS->RTS, RTS->SQD, SQD->RTS, SQD->SQD, and 4 for SQE->RTS.
	 */
	KUNIT_EXPECT_EQ(test, valid, QPST_NVALID);
}

/*
 * iWARP: RC only; INIT->RTR->RTS with nothing but the state (the READ depths and access flags
 * allowed), and the IB rules on every other edge.
 */
static void oib_qp_state_test_iwarp(struct kunit *test)
{
	const u32 st = OIB_QP_STATE, rc_init = OIB_QP_PKEY_INDEX | OIB_QP_PORT |
		       OIB_QP_ACCESS_FLAGS;
	unsigned int from, to, t, bit;
	u32 req, opt;

	KUNIT_EXPECT_TRUE(test, oib_iw_modify_qp_is_ok(OIB_QPS_INIT, OIB_QPS_RTR, OIB_QPT_RC, st));
	KUNIT_EXPECT_TRUE(test, oib_iw_modify_qp_is_ok(OIB_QPS_INIT, OIB_QPS_RTR, OIB_QPT_RC,
						       st | OIB_QP_MAX_DEST_RD_ATOMIC |
						       OIB_QP_ACCESS_FLAGS));
	KUNIT_EXPECT_FALSE(test, oib_iw_modify_qp_is_ok(OIB_QPS_INIT, OIB_QPS_RTR, OIB_QPT_RC,
							st | OIB_QP_AV));
	KUNIT_EXPECT_FALSE(test, oib_iw_modify_qp_is_ok(OIB_QPS_INIT, OIB_QPS_RTR, OIB_QPT_RC,
							st | OIB_QP_MAX_QP_RD_ATOMIC));
	KUNIT_EXPECT_TRUE(test, oib_iw_modify_qp_is_ok(OIB_QPS_RTR, OIB_QPS_RTS, OIB_QPT_RC, st));
	KUNIT_EXPECT_TRUE(test, oib_iw_modify_qp_is_ok(OIB_QPS_RTR, OIB_QPS_RTS, OIB_QPT_RC,
						       st | OIB_QP_MAX_QP_RD_ATOMIC));
	KUNIT_EXPECT_FALSE(test, oib_iw_modify_qp_is_ok(OIB_QPS_RTR, OIB_QPS_RTS, OIB_QPT_RC,
							st | OIB_QP_SQ_PSN));
	KUNIT_EXPECT_FALSE(test, oib_iw_modify_qp_is_ok(OIB_QPS_INIT, OIB_QPS_RTS, OIB_QPT_RC, st));
	KUNIT_EXPECT_TRUE(test, oib_iw_modify_qp_is_ok(OIB_QPS_RESET, OIB_QPS_INIT, OIB_QPT_RC,
						       st | rc_init));
	for (t = 0; t < OIB_QPT_MAX; t++)
		if (t != OIB_QPT_RC)
			KUNIT_EXPECT_FALSE(test, oib_iw_modify_qp_is_ok(OIB_QPS_RESET, OIB_QPS_INIT,
									t, st | rc_init));
	/* Every other RC edge, with every single attribute, as the IB table has it. */
	for (from = 0; from < OIB_QPS_MAX; from++) {
		for (to = 0; to < OIB_QPS_MAX; to++) {
			if ((from == OIB_QPS_INIT && to == OIB_QPS_RTR) ||
			    (from == OIB_QPS_RTR && to == OIB_QPS_RTS) ||
			    !qpst_lookup(from, to, OIB_QPT_RC, &req, &opt))
				continue;
			for (bit = 0; bit < QPST_NBITS; bit++) {
				u32 mask = req | st | BIT(bit);

				KUNIT_EXPECT_EQ(test, oib_iw_modify_qp_is_ok(from, to, OIB_QPT_RC,
									     mask),
						oib_modify_qp_is_ok(from, to, OIB_QPT_RC, mask));
			}
		}
	}
}

/*
 * The masks the table gives a caller that drives a QP itself (the kernel-owned XRC receive QPs)
 * are the oracle's, for every (from, to, type); none where the oracle has no edge.
 */
static void oib_qp_state_test_masks(struct kunit *test)
{
	unsigned int from, to, type;
	u32 req, opt, r, o;

	for (from = 0; from < OIB_QPS_MAX; from++) {
		for (to = 0; to < OIB_QPS_MAX; to++) {
			for (type = 0; type < OIB_QPT_MAX; type++) {
				qpst_lookup(from, to, type, &req, &opt);
				oib_qp_table_masks(from, to, type, &r, &o);
				KUNIT_EXPECT_EQ_MSG(test, r, req, "%s -> %s %s",
						    qpst_state_names[from], qpst_state_names[to],
						    qpst_type_names[type]);
				KUNIT_EXPECT_EQ_MSG(test, o, opt, "%s -> %s %s",
						    qpst_state_names[from], qpst_state_names[to],
						    qpst_type_names[type]);
			}
		}
	}
	oib_qp_table_masks(OIB_QPS_MAX, OIB_QPS_INIT, OIB_QPT_RC, &r, &o);
	KUNIT_EXPECT_EQ(test, r | o, 0u);
	oib_qp_table_masks(OIB_QPS_RESET, OIB_QPS_INIT, OIB_QPT_MAX, &r, &o);
	KUNIT_EXPECT_EQ(test, r | o, 0u);
}

static struct kunit_case oib_qp_state_test_cases[] = {
	KUNIT_CASE(oib_qp_state_test_masks),
	KUNIT_CASE(oib_qp_state_test_iwarp),
	KUNIT_CASE(oib_qp_state_test_oracle),
	KUNIT_CASE(oib_qp_state_test_spot),
	KUNIT_CASE(oib_qp_state_test_out_of_range),
	KUNIT_CASE_PARAM(oib_qp_state_test_triple, qpst_triple_gen),
	{}
};

static struct kunit_suite oib_qp_state_test_suite = {
	.name = "oib_core_qp_state",
	.test_cases = oib_qp_state_test_cases,
};

kunit_test_suite(oib_qp_state_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the oib modify-QP state table");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

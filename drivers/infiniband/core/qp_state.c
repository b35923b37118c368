// SPDX-License-Identifier: GPL-2.0-only
/*
 * The IBTA modify-QP state table (vol. 1, the "QP state transition" attribute tables).
 *
 * One row per legal (from, to) transition and group of QP types, with the attributes that
 * transition requires and those it allows.  A transition with no row is illegal; a mask missing a
 * required bit, or with a bit neither required nor optional, is illegal.  OIB_QP_STATE is always
 * allowed.  OIB_QP_CUR_STATE is only meaningful (and so only listed) where the spec lets a consumer
 * state the current state: leaving RTR, RTS, SQD or SQE.
 */
#include <linux/module.h>
#include <kunit/visibility.h>
#include <oib/kunit/core.h>
#include <oib/names.h>
#include "core_priv.h"

#define T(t) BIT(OIB_QPT_##t)
#define ALL_TYPES (BIT(OIB_QPT_MAX) - 1)
#define CONNECTED (T(RC) | T(UC) | T(XRC_INI) | T(XRC_TGT))
#define SPECIAL (T(SMI) | T(GSI))

#define M(a) OIB_QP_##a

struct oib_qp_transition {
	u8 from, to;
	u16 types;		/* bitmap of enum oib_qp_type */
	u32 required;
	u32 optional;
};

static const struct oib_qp_transition oib_qp_table[] = {
	/* Reset */
	{ OIB_QPS_RESET, OIB_QPS_RESET, ALL_TYPES, 0, 0 },
	{ OIB_QPS_RESET, OIB_QPS_INIT, T(UD),
	  M(PKEY_INDEX) | M(PORT) | M(QKEY), 0 },
	{ OIB_QPS_RESET, OIB_QPS_INIT, CONNECTED,
	  M(PKEY_INDEX) | M(PORT) | M(ACCESS_FLAGS), 0 },
	{ OIB_QPS_RESET, OIB_QPS_INIT, SPECIAL,
	  M(PKEY_INDEX) | M(QKEY), 0 },

	/* Init */
	{ OIB_QPS_INIT, OIB_QPS_RESET, ALL_TYPES, 0, 0 },
	{ OIB_QPS_INIT, OIB_QPS_ERR, ALL_TYPES, 0, 0 },
	{ OIB_QPS_INIT, OIB_QPS_INIT, T(UD),
	  0, M(PKEY_INDEX) | M(PORT) | M(QKEY) },
	{ OIB_QPS_INIT, OIB_QPS_INIT, CONNECTED,
	  0, M(PKEY_INDEX) | M(PORT) | M(ACCESS_FLAGS) },
	{ OIB_QPS_INIT, OIB_QPS_INIT, SPECIAL,
	  0, M(PKEY_INDEX) | M(QKEY) },
	{ OIB_QPS_INIT, OIB_QPS_RTR, T(UD) | SPECIAL,
	  0, M(PKEY_INDEX) | M(QKEY) },
	{ OIB_QPS_INIT, OIB_QPS_RTR, T(UC) | T(XRC_INI),
	  M(AV) | M(PATH_MTU) | M(DEST_QPN) | M(RQ_PSN),
	  M(ALT_PATH) | M(ACCESS_FLAGS) | M(PKEY_INDEX) },
	{ OIB_QPS_INIT, OIB_QPS_RTR, T(RC) | T(XRC_TGT),
	  M(AV) | M(PATH_MTU) | M(DEST_QPN) | M(RQ_PSN) | M(MAX_DEST_RD_ATOMIC) |
	  M(MIN_RNR_TIMER),
	  M(ALT_PATH) | M(ACCESS_FLAGS) | M(PKEY_INDEX) },

	/* Ready to receive */
	{ OIB_QPS_RTR, OIB_QPS_RESET, ALL_TYPES, 0, 0 },
	{ OIB_QPS_RTR, OIB_QPS_ERR, ALL_TYPES, 0, 0 },
	{ OIB_QPS_RTR, OIB_QPS_RTS, T(UD) | SPECIAL,
	  M(SQ_PSN), M(CUR_STATE) | M(QKEY) },
	{ OIB_QPS_RTR, OIB_QPS_RTS, T(UC),
	  M(SQ_PSN), M(CUR_STATE) | M(ALT_PATH) | M(ACCESS_FLAGS) | M(PATH_MIG_STATE) },
	{ OIB_QPS_RTR, OIB_QPS_RTS, T(RC),
	  M(TIMEOUT) | M(RETRY_CNT) | M(RNR_RETRY) | M(SQ_PSN) | M(MAX_QP_RD_ATOMIC),
	  M(CUR_STATE) | M(ALT_PATH) | M(ACCESS_FLAGS) | M(MIN_RNR_TIMER) | M(PATH_MIG_STATE) },
	{ OIB_QPS_RTR, OIB_QPS_RTS, T(XRC_INI),
	  M(TIMEOUT) | M(RETRY_CNT) | M(RNR_RETRY) | M(SQ_PSN) | M(MAX_QP_RD_ATOMIC),
	  M(CUR_STATE) | M(ALT_PATH) | M(ACCESS_FLAGS) | M(PATH_MIG_STATE) },
	{ OIB_QPS_RTR, OIB_QPS_RTS, T(XRC_TGT),
	  M(TIMEOUT) | M(SQ_PSN),
	  M(CUR_STATE) | M(ALT_PATH) | M(ACCESS_FLAGS) | M(MIN_RNR_TIMER) | M(PATH_MIG_STATE) },

	/* Ready to send */
	{ OIB_QPS_RTS, OIB_QPS_RESET, ALL_TYPES, 0, 0 },
	{ OIB_QPS_RTS, OIB_QPS_ERR, ALL_TYPES, 0, 0 },
	{ OIB_QPS_RTS, OIB_QPS_RTS, T(UD) | SPECIAL,
	  0, M(CUR_STATE) | M(QKEY) },
	{ OIB_QPS_RTS, OIB_QPS_RTS, T(UC) | T(XRC_INI),
	  0, M(CUR_STATE) | M(ACCESS_FLAGS) | M(ALT_PATH) | M(PATH_MIG_STATE) },
	{ OIB_QPS_RTS, OIB_QPS_RTS, T(RC) | T(XRC_TGT),
	  0, M(CUR_STATE) | M(ACCESS_FLAGS) | M(ALT_PATH) | M(PATH_MIG_STATE) |
	  M(MIN_RNR_TIMER) },
	{ OIB_QPS_RTS, OIB_QPS_SQD, ALL_TYPES,
	  0, M(EN_SQD_ASYNC_NOTIFY) },

	/* Send queue drain */
	{ OIB_QPS_SQD, OIB_QPS_RESET, ALL_TYPES, 0, 0 },
	{ OIB_QPS_SQD, OIB_QPS_ERR, ALL_TYPES, 0, 0 },
	{ OIB_QPS_SQD, OIB_QPS_RTS, T(UD) | SPECIAL,
	  0, M(CUR_STATE) | M(QKEY) },
	{ OIB_QPS_SQD, OIB_QPS_RTS, T(UC) | T(XRC_INI),
	  0, M(CUR_STATE) | M(ALT_PATH) | M(ACCESS_FLAGS) | M(PATH_MIG_STATE) },
	{ OIB_QPS_SQD, OIB_QPS_RTS, T(RC) | T(XRC_TGT),
	  0, M(CUR_STATE) | M(ALT_PATH) | M(ACCESS_FLAGS) | M(MIN_RNR_TIMER) |
	  M(PATH_MIG_STATE) },
	{ OIB_QPS_SQD, OIB_QPS_SQD, T(UD) | SPECIAL,
	  0, M(PKEY_INDEX) | M(QKEY) },
	{ OIB_QPS_SQD, OIB_QPS_SQD, T(UC),
	  0, M(AV) | M(ALT_PATH) | M(ACCESS_FLAGS) | M(PKEY_INDEX) | M(PATH_MIG_STATE) },
	{ OIB_QPS_SQD, OIB_QPS_SQD, T(RC),
	  0, M(PORT) | M(AV) | M(TIMEOUT) | M(RETRY_CNT) | M(RNR_RETRY) |
	  M(MAX_QP_RD_ATOMIC) | M(MAX_DEST_RD_ATOMIC) | M(ALT_PATH) | M(ACCESS_FLAGS) |
	  M(PKEY_INDEX) | M(MIN_RNR_TIMER) | M(PATH_MIG_STATE) },
	{ OIB_QPS_SQD, OIB_QPS_SQD, T(XRC_INI),
	  0, M(PORT) | M(AV) | M(TIMEOUT) | M(RETRY_CNT) | M(RNR_RETRY) |
	  M(MAX_QP_RD_ATOMIC) | M(ALT_PATH) | M(ACCESS_FLAGS) | M(PKEY_INDEX) |
	  M(PATH_MIG_STATE) },
	{ OIB_QPS_SQD, OIB_QPS_SQD, T(XRC_TGT),
	  0, M(PORT) | M(AV) | M(TIMEOUT) | M(MAX_DEST_RD_ATOMIC) | M(ALT_PATH) |
	  M(ACCESS_FLAGS) | M(PKEY_INDEX) | M(MIN_RNR_TIMER) | M(PATH_MIG_STATE) },

	/* Send queue error: only unreliable QPs have it (RC/XRC errors take the QP to ERR) */
	{ OIB_QPS_SQE, OIB_QPS_RESET, ALL_TYPES, 0, 0 },
	{ OIB_QPS_SQE, OIB_QPS_ERR, ALL_TYPES, 0, 0 },
	{ OIB_QPS_SQE, OIB_QPS_RTS, T(UD) | SPECIAL,
	  0, M(CUR_STATE) | M(QKEY) },
	{ OIB_QPS_SQE, OIB_QPS_RTS, T(UC),
	  0, M(CUR_STATE) | M(ACCESS_FLAGS) },

	/* Error */
	{ OIB_QPS_ERR, OIB_QPS_RESET, ALL_TYPES, 0, 0 },
	{ OIB_QPS_ERR, OIB_QPS_ERR, ALL_TYPES, 0, 0 },
};

bool oib_modify_qp_is_ok(enum oib_qp_state cur, enum oib_qp_state next, enum oib_qp_type type,
			 int mask)
{
	const struct oib_qp_transition *t;
	size_t i;

	if (cur >= OIB_QPS_MAX || next >= OIB_QPS_MAX || type >= OIB_QPT_MAX)
		return false;

	for (i = 0; i < ARRAY_SIZE(oib_qp_table); i++) {
		t = &oib_qp_table[i];
		if (t->from != cur || t->to != next || !(t->types & BIT(type)))
			continue;
		if ((mask & t->required) != t->required)
			return false;
		return !(mask & ~(t->required | t->optional | OIB_QP_STATE));
	}
	return false;
}
EXPORT_SYMBOL(oib_modify_qp_is_ok);

/*
 * The required and optional masks of the @cur -> @next row for @type (both 0 if it has none):
 * for callers that drive a QP through the table themselves (xrc_rcv.c).
 */
void oib_qp_table_masks(enum oib_qp_state cur, enum oib_qp_state next, enum oib_qp_type type,
			u32 *required, u32 *optional)
{
	const struct oib_qp_transition *t;
	size_t i;

	*required = 0;
	*optional = 0;
	for (i = 0; i < ARRAY_SIZE(oib_qp_table); i++) {
		t = &oib_qp_table[i];
		if (t->from == cur && t->to == next && type < OIB_QPT_MAX &&
		    (t->types & BIT(type))) {
			*required = t->required;
			*optional = t->optional;
			return;
		}
	}
}
EXPORT_SYMBOL_IF_KUNIT(oib_qp_table_masks);

/*
 * An iWARP RC QP's connection is the transport's (TCP and MPA): INIT->RTR and RTR->RTS take no
 * path, PSN or timer attributes, only the RDMA READ depths and access flags if given; the
 * rest is the IBTA table's.
 */
bool oib_iw_modify_qp_is_ok(enum oib_qp_state cur, enum oib_qp_state next, enum oib_qp_type type,
			    int mask)
{
	u32 allowed;

	if (type != OIB_QPT_RC)
		return false;
	if (cur == OIB_QPS_INIT && next == OIB_QPS_RTR)
		allowed = OIB_QP_ACCESS_FLAGS | OIB_QP_MAX_DEST_RD_ATOMIC;
	else if (cur == OIB_QPS_RTR && next == OIB_QPS_RTS)
		allowed = OIB_QP_ACCESS_FLAGS | OIB_QP_MAX_QP_RD_ATOMIC;
	else
		return oib_modify_qp_is_ok(cur, next, type, mask);
	return !(mask & ~(allowed | OIB_QP_STATE));
}
EXPORT_SYMBOL(oib_iw_modify_qp_is_ok);

static const char * const oib_qp_state_names[OIB_QPS_MAX] = {
	[OIB_QPS_RESET] = "RESET", [OIB_QPS_INIT] = "INIT", [OIB_QPS_RTR] = "RTR",
	[OIB_QPS_RTS] = "RTS", [OIB_QPS_SQD] = "SQD", [OIB_QPS_SQE] = "SQE",
	[OIB_QPS_ERR] = "ERR",
};

const char *oib_qp_state_name(enum oib_qp_state state)
{
	return oib_enum_name(oib_qp_state_names, state);
}
EXPORT_SYMBOL(oib_qp_state_name);

static const char * const oib_qp_type_names[OIB_QPT_MAX] = {
	[OIB_QPT_SMI] = "SMI", [OIB_QPT_GSI] = "GSI", [OIB_QPT_RC] = "RC", [OIB_QPT_UC] = "UC",
	[OIB_QPT_UD] = "UD", [OIB_QPT_XRC_INI] = "XRC_INI", [OIB_QPT_XRC_TGT] = "XRC_TGT",
};

const char *oib_qp_type_name(enum oib_qp_type type)
{
	return oib_enum_name(oib_qp_type_names, type);
}
EXPORT_SYMBOL(oib_qp_type_name);

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The SRP wire, logins and the small IUs: LOGIN_REQ (as an IU and in the RDMA CM's private data),
 * LOGIN_RSP, LOGIN_REJ, I_LOGOUT, T_LOGOUT, CRED_REQ, CRED_RSP; and the opcode check every
 * receiver starts with.  include/oib/srp.h has the layouts and the errno rules.
 */
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <oib/srp.h>

/* The fixed part of each opcode's IU; 0 for opcodes nobody here sends or takes. */
static const u8 srp_iu_min_len[256] = {
	[OIB_SRP_LOGIN_REQ] = sizeof(struct oib_srp_login_req),
	[OIB_SRP_TSK_MGMT] = sizeof(struct oib_srp_tsk_mgmt),
	[OIB_SRP_CMD] = sizeof(struct oib_srp_cmd),
	[OIB_SRP_I_LOGOUT] = sizeof(struct oib_srp_tag_iu),
	[OIB_SRP_CRED_RSP] = sizeof(struct oib_srp_tag_iu),
	[OIB_SRP_T_LOGOUT] = sizeof(struct oib_srp_t_iu),
	[OIB_SRP_CRED_REQ] = sizeof(struct oib_srp_t_iu),
	[OIB_SRP_LOGIN_RSP] = sizeof(struct oib_srp_login_rsp),
	[OIB_SRP_RSP] = sizeof(struct oib_srp_rsp),
	[OIB_SRP_LOGIN_REJ] = sizeof(struct oib_srp_login_rej),
};

int oib_srp_iu_opcode(const void *iu, size_t len)
{
	u8 op;

	if (!iu || !len)
		return -EMSGSIZE;
	op = *(const u8 *)iu;
	if (!srp_iu_min_len[op])
		return -EBADMSG;
	if (len < srp_iu_min_len[op])
		return -EMSGSIZE;
	return op;
}
EXPORT_SYMBOL(oib_srp_iu_opcode);

/*
 * A login's fields between struct oib_srp_login and its two wire layouts (the IU and the CM
 * private data), which name them alike but place them differently.
 */
#define SRP_LOGIN_TO_WIRE(wire, login) do {				\
	typeof(wire) _w = (wire);					\
	const struct oib_srp_login *_l = (login);			\
									\
	_w->tag = _l->tag;						\
	_w->req_it_iu_len = cpu_to_be32(_l->it_iu_len);		\
	_w->req_buf_fmt = cpu_to_be16(_l->buf_fmt);			\
	_w->req_flags = _l->flags;					\
	_w->imm_data_offset = cpu_to_be16(_l->imm_data_offset);	\
	memcpy(_w->initiator_port_id, _l->initiator_port_id, 16);	\
	memcpy(_w->target_port_id, _l->target_port_id, 16);		\
} while (0)

#define SRP_LOGIN_FROM_WIRE(login, wire) do {				\
	typeof(wire) _w = (wire);					\
	struct oib_srp_login *_l = (login);				\
									\
	memset(_l, 0, sizeof(*_l));					\
	_l->tag = _w->tag;						\
	_l->it_iu_len = be32_to_cpu(_w->req_it_iu_len);		\
	_l->buf_fmt = be16_to_cpu(_w->req_buf_fmt);			\
	_l->flags = _w->req_flags;					\
	_l->imm_data_offset = be16_to_cpu(_w->imm_data_offset);	\
	memcpy(_l->initiator_port_id, _w->initiator_port_id, 16);	\
	memcpy(_l->target_port_id, _w->target_port_id, 16);		\
} while (0)

/* What every login must satisfy, whichever way it came. */
static int srp_login_check(const struct oib_srp_login *l)
{
	if (l->it_iu_len < OIB_SRP_MIN_IU_LEN)
		return -EINVAL;
	if (!(l->buf_fmt & (OIB_SRP_BUF_FMT_DIRECT | OIB_SRP_BUF_FMT_INDIRECT)))
		return -EINVAL;
	if ((l->flags & 3) > OIB_SRP_MULTICHAN_MULTI)
		return -EINVAL;
	return 0;
}

void oib_srp_pack_login_rdma(void *pdata, const struct oib_srp_login *l)
{
	struct oib_srp_login_req_rdma *r = pdata;

	memset(r, 0, sizeof(*r));
	r->opcode = OIB_SRP_LOGIN_REQ;
	SRP_LOGIN_TO_WIRE(r, l);
}
EXPORT_SYMBOL(oib_srp_pack_login_rdma);

int oib_srp_parse_login_rdma(const void *pdata, size_t len, struct oib_srp_login *l)
{
	const struct oib_srp_login_req_rdma *r = pdata;

	if (!pdata || len < sizeof(*r))
		return -EMSGSIZE;
	if (r->opcode != OIB_SRP_LOGIN_REQ)
		return -EBADMSG;
	SRP_LOGIN_FROM_WIRE(l, r);
	return srp_login_check(l);
}
EXPORT_SYMBOL(oib_srp_parse_login_rdma);

void oib_srp_pack_login_req(void *iu, const struct oib_srp_login *l)
{
	struct oib_srp_login_req *r = iu;

	memset(r, 0, sizeof(*r));
	r->opcode = OIB_SRP_LOGIN_REQ;
	SRP_LOGIN_TO_WIRE(r, l);
}
EXPORT_SYMBOL(oib_srp_pack_login_req);

int oib_srp_parse_login_req(const void *iu, size_t len, struct oib_srp_login *l)
{
	const struct oib_srp_login_req *r = iu;
	int op = oib_srp_iu_opcode(iu, len);

	if (op < 0)
		return op;
	if (op != OIB_SRP_LOGIN_REQ)
		return -EBADMSG;
	SRP_LOGIN_FROM_WIRE(l, r);
	return srp_login_check(l);
}
EXPORT_SYMBOL(oib_srp_parse_login_req);

void oib_srp_pack_login_rsp(void *iu, const struct oib_srp_login_answer *a)
{
	struct oib_srp_login_rsp *r = iu;

	memset(r, 0, sizeof(*r));
	r->opcode = OIB_SRP_LOGIN_RSP;
	r->req_lim_delta = cpu_to_be32(a->req_lim_delta);
	r->tag = a->tag;
	r->max_it_iu_len = cpu_to_be32(a->max_it_iu_len);
	r->max_ti_iu_len = cpu_to_be32(a->max_ti_iu_len);
	r->buf_fmt = cpu_to_be16(a->buf_fmt);
	r->rsp_flags = a->flags;
}
EXPORT_SYMBOL(oib_srp_pack_login_rsp);

void oib_srp_pack_login_rej(void *iu, const struct oib_srp_login_answer *a)
{
	struct oib_srp_login_rej *r = iu;

	memset(r, 0, sizeof(*r));
	r->opcode = OIB_SRP_LOGIN_REJ;
	r->reason = cpu_to_be32(a->reason);
	r->tag = a->tag;
	r->buf_fmt = cpu_to_be16(a->buf_fmt);
}
EXPORT_SYMBOL(oib_srp_pack_login_rej);

static int srp_parse_login_rsp(const struct oib_srp_login_rsp *r, struct oib_srp_login_answer *a)
{
	a->tag = r->tag;
	a->req_lim_delta = be32_to_cpu(r->req_lim_delta);
	a->max_it_iu_len = be32_to_cpu(r->max_it_iu_len);
	a->max_ti_iu_len = be32_to_cpu(r->max_ti_iu_len);
	a->buf_fmt = be16_to_cpu(r->buf_fmt);
	a->flags = r->rsp_flags;
	a->reason = 0;
	/* A channel with no credit, or one that cannot take a command, is no channel. */
	if (!a->req_lim_delta || a->max_it_iu_len < OIB_SRP_MIN_IU_LEN ||
	    a->max_ti_iu_len < sizeof(struct oib_srp_rsp))
		return -EINVAL;
	if (!(a->buf_fmt & (OIB_SRP_BUF_FMT_DIRECT | OIB_SRP_BUF_FMT_INDIRECT)))
		return -EINVAL;
	return OIB_SRP_LOGIN_RSP;
}

int oib_srp_parse_login_answer(const void *iu, size_t len, struct oib_srp_login_answer *a)
{
	const struct oib_srp_login_rej *rej = iu;
	int op = oib_srp_iu_opcode(iu, len);

	if (op < 0)
		return op;
	memset(a, 0, sizeof(*a));
	if (op == OIB_SRP_LOGIN_RSP)
		return srp_parse_login_rsp(iu, a);
	if (op != OIB_SRP_LOGIN_REJ)
		return -EBADMSG;
	a->tag = rej->tag;
	a->reason = be32_to_cpu(rej->reason);
	a->buf_fmt = be16_to_cpu(rej->buf_fmt);
	if ((a->reason & 0xffff0000) != OIB_SRP_REJ_UNABLE_ESTABLISH_CHANNEL)
		return -EINVAL;
	return OIB_SRP_LOGIN_REJ;
}
EXPORT_SYMBOL(oib_srp_parse_login_answer);

/* The small IUs: which layout each takes. */
static bool srp_small_has_value(enum oib_srp_opcode op)
{
	return op == OIB_SRP_T_LOGOUT || op == OIB_SRP_CRED_REQ;
}

static bool srp_small_op(enum oib_srp_opcode op)
{
	return srp_small_has_value(op) || op == OIB_SRP_I_LOGOUT || op == OIB_SRP_CRED_RSP;
}

void oib_srp_pack_small(void *iu, enum oib_srp_opcode op, u64 tag, u32 value)
{
	struct oib_srp_t_iu *t = iu;

	memset(t, 0, sizeof(*t));
	t->opcode = op;
	t->tag = tag;
	if (srp_small_has_value(op))
		t->value = cpu_to_be32(value);
}
EXPORT_SYMBOL(oib_srp_pack_small);

int oib_srp_parse_small(const void *iu, size_t len, enum oib_srp_opcode op, u64 *tag, u32 *value)
{
	const struct oib_srp_t_iu *t = iu;
	int got;

	if (!srp_small_op(op))
		return -EINVAL;
	got = oib_srp_iu_opcode(iu, len);
	if (got < 0)
		return got;
	if (got != op)
		return -EBADMSG;
	*tag = t->tag;
	*value = srp_small_has_value(op) ? be32_to_cpu(t->value) : 0;
	return 0;
}
EXPORT_SYMBOL(oib_srp_parse_small);

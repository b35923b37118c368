// SPDX-License-Identifier: GPL-2.0-only
/*
 * The SRP wire, I/O: SRP_CMD with its direct or indirect data buffer descriptor or its immediate
 * data (SRP-2: the data-out in the IU, on a channel whose login granted it), SRP_RSP with
 * response and sense data, SRP_TSK_MGMT.  A command moves data one way (no bidirectional
 * commands, no additional CDB bytes) and an indirect table must be carried whole in the IU: the
 * rest is refused with -EOPNOTSUPP.  include/oib/srp.h has the layouts and the errno rules.
 */
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/overflow.h>
#include <linux/string.h>
#include <oib/srp.h>

/*
 * LUNs as the SCSI midlayer numbers them: the 8 wire bytes are four 16-bit levels, the first
 * level in the lowest 16 bits of the number (what scsilun_to_int() does, without needing the
 * SCSI modules here).
 */
static void srp_put_lun(u8 *w, u64 lun)
{
	int i;

	for (i = 0; i < 4; i++) {
		w[2 * i] = lun >> (16 * i + 8);
		w[2 * i + 1] = lun >> (16 * i);
	}
}

static u64 srp_get_lun(const u8 *w)
{
	u64 lun = 0;
	int i;

	for (i = 0; i < 4; i++)
		lun |= (u64)(w[2 * i] << 8 | w[2 * i + 1]) << (16 * i);
	return lun;
}

static void srp_put_buf(struct oib_srp_direct_buf *d, const struct oib_srp_buf *b)
{
	d->va = cpu_to_be64(b->va);
	d->key = cpu_to_be32(b->key);
	d->len = cpu_to_be32(b->len);
}

static void srp_get_buf(struct oib_srp_buf *b, const struct oib_srp_direct_buf *d)
{
	b->va = be64_to_cpu(d->va);
	b->key = be32_to_cpu(d->key);
	b->len = be32_to_cpu(d->len);
}

/* Immediate data: data-out, no descriptor, within an IU's 16-bit offset and 32-bit length. */
static int srp_cmd_imm_len(const struct oib_srp_cmd_info *c)
{
	if (c->dir != OIB_SRP_DATA_OUT || c->nbufs || !c->data_len ||
	    c->imm_off < OIB_SRP_MIN_IMM_OFFSET || c->imm_off > U16_MAX ||
	    c->data_len > INT_MAX - c->imm_off)
		return -EINVAL;
	return c->imm_off + c->data_len;
}

/*
 * The IU length for @c's descriptors, and their total in @c->data_len (immediate data: its
 * offset and length); -EINVAL.
 */
static int srp_cmd_len(struct oib_srp_cmd_info *c)
{
	u64 sum = 0;
	u32 i;

	if (c->imm_off)
		return srp_cmd_imm_len(c);
	if (c->dir > OIB_SRP_DATA_IN || c->nbufs > OIB_SRP_MAX_BUFS)
		return -EINVAL;
	if (c->dir == OIB_SRP_DATA_NONE && c->nbufs)
		return -EINVAL;
	if (c->dir != OIB_SRP_DATA_NONE && !c->nbufs)
		return -EINVAL;
	for (i = 0; i < c->nbufs; i++) {
		if (!c->bufs[i].len)
			return -EINVAL;
		sum += c->bufs[i].len;
	}
	if (sum > U32_MAX)
		return -EINVAL;
	c->data_len = sum;
	if (c->nbufs <= 1)
		return sizeof(struct oib_srp_cmd) + c->nbufs * sizeof(struct oib_srp_direct_buf);
	return sizeof(struct oib_srp_cmd) + struct_size_t(struct oib_srp_indirect_buf, desc_list,
							   c->nbufs);
}

static void srp_put_indirect(struct oib_srp_indirect_buf *ib, struct oib_srp_cmd_info *c)
{
	u32 i;

	c->table.len = c->nbufs * sizeof(struct oib_srp_direct_buf);
	srp_put_buf(&ib->table_desc, &c->table);
	ib->len = cpu_to_be32(c->data_len);
	for (i = 0; i < c->nbufs; i++)
		srp_put_buf(&ib->desc_list[i], &c->bufs[i]);
}

int oib_srp_pack_cmd(void *iu, size_t max, struct oib_srp_cmd_info *c)
{
	struct oib_srp_cmd *cmd = iu;
	int len = srp_cmd_len(c);
	u8 fmt;

	if (len < 0)
		return len;
	if (!iu || len > max)
		return -EINVAL;
	memset(cmd, 0, len);
	cmd->opcode = OIB_SRP_CMD;
	cmd->tag = c->tag;
	srp_put_lun(cmd->lun, c->lun);
	cmd->task_attr = c->task_attr;
	memcpy(cmd->cdb, c->cdb, sizeof(cmd->cdb));
	if (c->imm_off) {
		((struct oib_srp_imm_buf *)cmd->add_data)->len = cpu_to_be32(c->data_len);
		if (c->imm)
			memcpy((u8 *)iu + c->imm_off, c->imm, c->data_len);
		cmd->buf_fmt = OIB_SRP_DESC_IMM << 4;
		return len;
	}
	fmt = c->nbufs > 1 ? OIB_SRP_DESC_INDIRECT : OIB_SRP_DESC_DIRECT;
	if (c->nbufs == 1)
		srp_put_buf((struct oib_srp_direct_buf *)cmd->add_data, &c->bufs[0]);
	else if (c->nbufs)
		srp_put_indirect((struct oib_srp_indirect_buf *)cmd->add_data, c);
	if (c->dir == OIB_SRP_DATA_OUT) {
		cmd->buf_fmt = fmt << 4;
		cmd->data_out_desc_cnt = c->nbufs > 1 ? c->nbufs : 0;
	} else if (c->dir == OIB_SRP_DATA_IN) {
		cmd->buf_fmt = fmt;
		cmd->data_in_desc_cnt = c->nbufs > 1 ? c->nbufs : 0;
	}
	return len;
}
EXPORT_SYMBOL(oib_srp_pack_cmd);

static int srp_parse_indirect(const struct oib_srp_cmd *cmd, size_t len, u8 cnt,
			      struct oib_srp_cmd_info *c)
{
	const struct oib_srp_indirect_buf *ib = (const void *)cmd->add_data;
	u64 sum = 0;
	u32 i, n;

	if (len < sizeof(*cmd) + sizeof(*ib))
		return -EMSGSIZE;
	srp_get_buf(&c->table, &ib->table_desc);
	if (!c->table.len || c->table.len % sizeof(struct oib_srp_direct_buf))
		return -EINVAL;
	n = c->table.len / sizeof(struct oib_srp_direct_buf);
	if (cnt > n)
		return -EINVAL;
	if (cnt < n || n > OIB_SRP_MAX_BUFS)
		return -EOPNOTSUPP;	/* the table's rest would have to be fetched */
	if (len < sizeof(*cmd) + struct_size(ib, desc_list, n))
		return -EMSGSIZE;
	for (i = 0; i < n; i++) {
		srp_get_buf(&c->bufs[i], &ib->desc_list[i]);
		if (!c->bufs[i].len)
			return -EINVAL;
		sum += c->bufs[i].len;
	}
	if (sum != be32_to_cpu(ib->len))
		return -EINVAL;
	c->nbufs = n;
	c->data_len = sum;
	return 0;
}

/* The descriptor of a command moving data in direction @dir with format @fmt. */
static int srp_parse_desc(const struct oib_srp_cmd *cmd, size_t len, u8 fmt, u8 cnt,
			  struct oib_srp_cmd_info *c)
{
	if (fmt == OIB_SRP_DESC_INDIRECT)
		return srp_parse_indirect(cmd, len, cnt, c);
	if (len < sizeof(*cmd) + sizeof(struct oib_srp_direct_buf))
		return -EMSGSIZE;
	srp_get_buf(&c->bufs[0], (const struct oib_srp_direct_buf *)cmd->add_data);
	if (!c->bufs[0].len)
		return -EINVAL;
	c->nbufs = 1;
	c->data_len = c->bufs[0].len;
	return 0;
}

/* Immediate data at @imm_off: its descriptor (before the data), the data within the IU. */
static int srp_parse_imm(const struct oib_srp_cmd *cmd, size_t len, u32 imm_off,
			 struct oib_srp_cmd_info *c)
{
	const struct oib_srp_imm_buf *ib = (const void *)cmd->add_data;

	if (len < OIB_SRP_MIN_IMM_OFFSET || len < imm_off)
		return -EMSGSIZE;
	c->data_len = be32_to_cpu(ib->len);
	if (!c->data_len)
		return -EINVAL;
	if (c->data_len > len - imm_off)
		return -EMSGSIZE;
	c->imm_off = imm_off;
	c->imm = (const u8 *)cmd + imm_off;
	return 0;
}

int oib_srp_parse_cmd(const void *iu, size_t len, struct oib_srp_cmd_info *c)
{
	return oib_srp_parse_cmd_imm(iu, len, 0, c);
}
EXPORT_SYMBOL(oib_srp_parse_cmd);

int oib_srp_parse_cmd_imm(const void *iu, size_t len, u32 imm_off, struct oib_srp_cmd_info *c)
{
	const struct oib_srp_cmd *cmd = iu;
	int op = oib_srp_iu_opcode(iu, len);
	u8 out, in;

	if (op < 0)
		return op;
	if (op != OIB_SRP_CMD)
		return -EBADMSG;
	memset(c, 0, sizeof(*c));
	c->tag = cmd->tag;
	c->lun = srp_get_lun(cmd->lun);
	c->task_attr = cmd->task_attr & 7;
	memcpy(c->cdb, cmd->cdb, sizeof(c->cdb));
	out = cmd->buf_fmt >> 4;
	in = cmd->buf_fmt & 0xf;
	if (out == OIB_SRP_DESC_IMM && imm_off >= OIB_SRP_MIN_IMM_OFFSET && !in &&
	    !cmd->add_cdb_len) {
		c->dir = OIB_SRP_DATA_OUT;
		return srp_parse_imm(cmd, len, imm_off, c);
	}
	if (out > OIB_SRP_DESC_INDIRECT || in > OIB_SRP_DESC_INDIRECT)
		return -EINVAL;
	if ((out && in) || cmd->add_cdb_len)
		return -EOPNOTSUPP;
	if (out) {
		c->dir = OIB_SRP_DATA_OUT;
		return srp_parse_desc(cmd, len, out, cmd->data_out_desc_cnt, c);
	}
	if (in) {
		c->dir = OIB_SRP_DATA_IN;
		return srp_parse_desc(cmd, len, in, cmd->data_in_desc_cnt, c);
	}
	return 0;
}
EXPORT_SYMBOL(oib_srp_parse_cmd_imm);

int oib_srp_pack_rsp(void *iu, size_t max, const struct oib_srp_rsp_info *r)
{
	struct oib_srp_rsp *rsp = iu;
	u32 resp_len = r->resp_len ? 4 : 0;
	size_t len;

	if (!iu || (r->sense_len && !r->sense) || r->sense_len > max)
		return -EINVAL;
	len = sizeof(*rsp) + resp_len + r->sense_len;
	if (len > max)
		return -EINVAL;
	memset(rsp, 0, len);
	rsp->opcode = OIB_SRP_RSP;
	rsp->req_lim_delta = cpu_to_be32(r->req_lim_delta);
	rsp->tag = r->tag;
	rsp->status = r->status;
	rsp->flags = r->flags & ~(OIB_SRP_RSP_RSPVALID | OIB_SRP_RSP_SNSVALID);
	rsp->data_out_res_cnt = cpu_to_be32(r->data_out_res_cnt);
	rsp->data_in_res_cnt = cpu_to_be32(r->data_in_res_cnt);
	if (resp_len) {
		rsp->flags |= OIB_SRP_RSP_RSPVALID;
		rsp->resp_data_len = cpu_to_be32(resp_len);
		rsp->data[3] = r->resp_code;
	}
	if (r->sense_len) {
		rsp->flags |= OIB_SRP_RSP_SNSVALID;
		rsp->sense_data_len = cpu_to_be32(r->sense_len);
		memcpy(rsp->data + resp_len, r->sense, r->sense_len);
	}
	return len;
}
EXPORT_SYMBOL(oib_srp_pack_rsp);

int oib_srp_parse_rsp(const void *iu, size_t len, struct oib_srp_rsp_info *r)
{
	const struct oib_srp_rsp *rsp = iu;
	int op = oib_srp_iu_opcode(iu, len);
	u64 need;

	if (op < 0)
		return op;
	if (op != OIB_SRP_RSP)
		return -EBADMSG;
	memset(r, 0, sizeof(*r));
	r->tag = rsp->tag;
	r->req_lim_delta = be32_to_cpu(rsp->req_lim_delta);
	r->status = rsp->status;
	r->flags = rsp->flags;
	r->data_out_res_cnt = be32_to_cpu(rsp->data_out_res_cnt);
	r->data_in_res_cnt = be32_to_cpu(rsp->data_in_res_cnt);
	if (rsp->flags & OIB_SRP_RSP_RSPVALID)
		r->resp_len = be32_to_cpu(rsp->resp_data_len);
	if (rsp->flags & OIB_SRP_RSP_SNSVALID)
		r->sense_len = be32_to_cpu(rsp->sense_data_len);
	if ((rsp->flags & OIB_SRP_RSP_RSPVALID) && r->resp_len != 4)
		return -EINVAL;
	if ((rsp->flags & OIB_SRP_RSP_SNSVALID) && !r->sense_len)
		return -EINVAL;
	need = (u64)sizeof(*rsp) + r->resp_len + r->sense_len;
	if (need > len)
		return -EMSGSIZE;
	if (r->resp_len)
		r->resp_code = rsp->data[3];
	r->sense = r->sense_len ? rsp->data + r->resp_len : NULL;
	return 0;
}
EXPORT_SYMBOL(oib_srp_parse_rsp);

static bool srp_tsk_func_ok(u8 func)
{
	switch (func) {
	case OIB_SRP_TSK_ABORT_TASK:
	case OIB_SRP_TSK_ABORT_TASK_SET:
	case OIB_SRP_TSK_CLEAR_TASK_SET:
	case OIB_SRP_TSK_LUN_RESET:
	case OIB_SRP_TSK_CLEAR_ACA:
		return true;
	}
	return false;
}

void oib_srp_pack_tsk_mgmt(void *iu, const struct oib_srp_tsk_info *t)
{
	struct oib_srp_tsk_mgmt *m = iu;

	memset(m, 0, sizeof(*m));
	m->opcode = OIB_SRP_TSK_MGMT;
	m->tag = t->tag;
	srp_put_lun(m->lun, t->lun);
	m->tsk_mgmt_func = t->func;
	m->task_tag = t->task_tag;
}
EXPORT_SYMBOL(oib_srp_pack_tsk_mgmt);

int oib_srp_parse_tsk_mgmt(const void *iu, size_t len, struct oib_srp_tsk_info *t)
{
	const struct oib_srp_tsk_mgmt *m = iu;
	int op = oib_srp_iu_opcode(iu, len);

	if (op < 0)
		return op;
	if (op != OIB_SRP_TSK_MGMT)
		return -EBADMSG;
	t->tag = m->tag;
	t->lun = srp_get_lun(m->lun);
	t->func = m->tsk_mgmt_func;
	t->task_tag = m->task_tag;
	return srp_tsk_func_ok(t->func) ? 0 : -EINVAL;
}
EXPORT_SYMBOL(oib_srp_parse_tsk_mgmt);

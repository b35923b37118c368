// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the SRP wire's I/O units (drivers/infiniband/ulp/srp/srp_wire_io.c): SRP_CMD
 * with no data, a direct and an indirect descriptor, both ways, and immediate data (SRP-2),
 * packed and parsed back with the bytes T10 SRP r16a fixes checked; malformed commands and
 * responses refused.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <oib/srp.h>

#define IU_MAX	1024

struct io_test {
	u8 *iu;
	struct oib_srp_cmd_info *in, *out;
};

static int io_test_init(struct kunit *test)
{
	struct io_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->iu = kunit_kzalloc(test, IU_MAX, GFP_KERNEL);
	t->in = kunit_kzalloc(test, sizeof(*t->in), GFP_KERNEL);
	t->out = kunit_kzalloc(test, sizeof(*t->out), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->iu);
	KUNIT_ASSERT_NOT_NULL(test, t->in);
	KUNIT_ASSERT_NOT_NULL(test, t->out);
	test->priv = t;
	return 0;
}

static void io_test_fill(struct oib_srp_cmd_info *c, enum oib_srp_data_dir dir, u32 nbufs)
{
	u32 i;

	memset(c, 0, sizeof(*c));
	c->tag = 0x0102030405060708ULL;
	c->lun = 3;
	c->cdb[0] = dir == OIB_SRP_DATA_OUT ? 0x2a : 0x28;
	c->dir = dir;
	c->nbufs = nbufs;
	for (i = 0; i < nbufs; i++) {
		c->bufs[i].va = 0xffff888000000000ULL + i * 0x10000;
		c->bufs[i].key = 0x100 + i;
		c->bufs[i].len = 512 * (i + 1);
	}
	c->table.va = 0xffff888012345678ULL;
	c->table.key = 0x77;
}

/* Pack @t->in, check the length, parse it back into @t->out and compare. */
static void io_test_round_trip(struct kunit *test, struct io_test *t, int want_len)
{
	int len = oib_srp_pack_cmd(t->iu, IU_MAX, t->in);

	KUNIT_ASSERT_EQ(test, len, want_len);
	KUNIT_EXPECT_EQ(test, oib_srp_parse_cmd(t->iu, len - 1, t->out), -EMSGSIZE);
	KUNIT_ASSERT_EQ(test, oib_srp_parse_cmd(t->iu, len, t->out), 0);
	if (t->in->nbufs <= 1)
		memset(&t->in->table, 0, sizeof(t->in->table));
	KUNIT_EXPECT_MEMEQ(test, t->in, t->out, sizeof(*t->in));
}

static void io_test_cmd_round_trips(struct kunit *test)
{
	struct io_test *t = test->priv;

	io_test_fill(t->in, OIB_SRP_DATA_NONE, 0);
	io_test_round_trip(test, t, 48);
	KUNIT_EXPECT_EQ(test, t->iu[5], 0);
	KUNIT_EXPECT_EQ(test, t->iu[21], 3);	/* LUN 3: peripheral addressing */

	io_test_fill(t->in, OIB_SRP_DATA_IN, 1);
	io_test_round_trip(test, t, 64);
	KUNIT_EXPECT_EQ(test, t->iu[5], OIB_SRP_DESC_DIRECT);
	KUNIT_EXPECT_EQ(test, t->out->data_len, 512);

	io_test_fill(t->in, OIB_SRP_DATA_OUT, 1);
	io_test_round_trip(test, t, 64);
	KUNIT_EXPECT_EQ(test, t->iu[5], OIB_SRP_DESC_DIRECT << 4);

	io_test_fill(t->in, OIB_SRP_DATA_OUT, 3);
	io_test_round_trip(test, t, 48 + 20 + 3 * 16);
	KUNIT_EXPECT_EQ(test, t->iu[5], OIB_SRP_DESC_INDIRECT << 4);
	KUNIT_EXPECT_EQ(test, t->iu[6], 3);
	KUNIT_EXPECT_EQ(test, t->out->table.len, 48);
	KUNIT_EXPECT_EQ(test, t->out->data_len, 512 + 1024 + 1536);

	io_test_fill(t->in, OIB_SRP_DATA_IN, OIB_SRP_MAX_BUFS);
	io_test_round_trip(test, t, 48 + 20 + OIB_SRP_MAX_BUFS * 16);
	KUNIT_EXPECT_EQ(test, t->iu[5], OIB_SRP_DESC_INDIRECT);
	KUNIT_EXPECT_EQ(test, t->iu[7], OIB_SRP_MAX_BUFS);
}

static void io_test_cmd_pack_refused(struct kunit *test)
{
	struct io_test *t = test->priv;

	io_test_fill(t->in, OIB_SRP_DATA_IN, OIB_SRP_MAX_BUFS);
	t->in->nbufs = OIB_SRP_MAX_BUFS + 1;
	KUNIT_EXPECT_EQ(test, oib_srp_pack_cmd(t->iu, IU_MAX, t->in), -EINVAL);
	io_test_fill(t->in, OIB_SRP_DATA_NONE, 1);
	KUNIT_EXPECT_EQ(test, oib_srp_pack_cmd(t->iu, IU_MAX, t->in), -EINVAL);
	io_test_fill(t->in, OIB_SRP_DATA_IN, 0);
	KUNIT_EXPECT_EQ(test, oib_srp_pack_cmd(t->iu, IU_MAX, t->in), -EINVAL);
	io_test_fill(t->in, OIB_SRP_DATA_IN, 2);
	t->in->bufs[1].len = 0;
	KUNIT_EXPECT_EQ(test, oib_srp_pack_cmd(t->iu, IU_MAX, t->in), -EINVAL);
	io_test_fill(t->in, OIB_SRP_DATA_IN, 4);
	KUNIT_EXPECT_EQ(test, oib_srp_pack_cmd(t->iu, 48 + 20 + 3 * 16, t->in), -EINVAL);
	t->in->dir = 7;
	KUNIT_EXPECT_EQ(test, oib_srp_pack_cmd(t->iu, IU_MAX, t->in), -EINVAL);
}

/* Pack a good indirect data-in command, let @mangle break it, expect @err. */
static void io_test_bad(struct kunit *test, struct io_test *t, int err,
			void (*mangle)(struct oib_srp_cmd *cmd, struct oib_srp_indirect_buf *ib))
{
	struct oib_srp_cmd *cmd = (struct oib_srp_cmd *)t->iu;
	int len;

	io_test_fill(t->in, OIB_SRP_DATA_IN, 2);
	len = oib_srp_pack_cmd(t->iu, IU_MAX, t->in);
	KUNIT_ASSERT_GT(test, len, 0);
	mangle(cmd, (struct oib_srp_indirect_buf *)cmd->add_data);
	KUNIT_EXPECT_EQ(test, oib_srp_parse_cmd(t->iu, len, t->out), err);
}

static void bidi(struct oib_srp_cmd *c, struct oib_srp_indirect_buf *ib)
{
	c->buf_fmt |= OIB_SRP_DESC_DIRECT << 4;
}

static void fmt3(struct oib_srp_cmd *c, struct oib_srp_indirect_buf *ib)
{
	c->buf_fmt = 3;
}

static void add_cdb(struct oib_srp_cmd *c, struct oib_srp_indirect_buf *ib)
{
	c->add_cdb_len = 4 << 2;
}

static void table_odd(struct oib_srp_cmd *c, struct oib_srp_indirect_buf *ib)
{
	ib->table_desc.len = cpu_to_be32(40);
}

static void table_zero(struct oib_srp_cmd *c, struct oib_srp_indirect_buf *ib)
{
	ib->table_desc.len = 0;
}

static void count_high(struct oib_srp_cmd *c, struct oib_srp_indirect_buf *ib)
{
	c->data_in_desc_cnt = 3;
}

static void count_low(struct oib_srp_cmd *c, struct oib_srp_indirect_buf *ib)
{
	c->data_in_desc_cnt = 1;	/* the rest of the table would have to be fetched */
}

static void sum_wrong(struct oib_srp_cmd *c, struct oib_srp_indirect_buf *ib)
{
	ib->len = cpu_to_be32(be32_to_cpu(ib->len) + 1);
}

static void desc_zero(struct oib_srp_cmd *c, struct oib_srp_indirect_buf *ib)
{
	ib->desc_list[1].len = 0;
}

static void table_long(struct oib_srp_cmd *c, struct oib_srp_indirect_buf *ib)
{
	ib->table_desc.len = cpu_to_be32(3 * 16);	/* more than the IU holds */
	c->data_in_desc_cnt = 3;
}

static void opcode(struct oib_srp_cmd *c, struct oib_srp_indirect_buf *ib)
{
	c->opcode = OIB_SRP_TSK_MGMT;
}

static void io_test_cmd_parse_refused(struct kunit *test)
{
	struct io_test *t = test->priv;

	io_test_bad(test, t, -EOPNOTSUPP, bidi);
	io_test_bad(test, t, -EINVAL, fmt3);
	io_test_bad(test, t, -EOPNOTSUPP, add_cdb);
	io_test_bad(test, t, -EINVAL, table_odd);
	io_test_bad(test, t, -EINVAL, table_zero);
	io_test_bad(test, t, -EINVAL, count_high);
	io_test_bad(test, t, -EOPNOTSUPP, count_low);
	io_test_bad(test, t, -EINVAL, sum_wrong);
	io_test_bad(test, t, -EINVAL, desc_zero);
	io_test_bad(test, t, -EMSGSIZE, table_long);
	io_test_bad(test, t, -EBADMSG, opcode);
	KUNIT_EXPECT_EQ(test, oib_srp_parse_cmd(t->iu, 20, t->out), -EMSGSIZE);
}

/*
 * Immediate data (SRP-2) as the in-tree initiator sends it: format 3 in the data-out nibble, the
 * 4-byte length at byte 48, the data at the login's offset (68: room for 16 more CDB bytes).
 * Parsed back only on a channel that granted it; refused: a zero length, data beyond the IU,
 * the format on data-in, an offset before the descriptor's end; packing checks the same.
 */
static void io_test_cmd_imm(struct kunit *test)
{
	struct io_test *t = test->priv;
	struct oib_srp_cmd *cmd = (struct oib_srp_cmd *)t->iu;
	u8 data[300];
	int len, i;

	for (i = 0; i < sizeof(data); i++)
		data[i] = i * 13 + 1;
	io_test_fill(t->in, OIB_SRP_DATA_OUT, 0);
	t->in->imm_off = 68;
	t->in->imm = data;
	t->in->data_len = sizeof(data);
	len = oib_srp_pack_cmd(t->iu, IU_MAX, t->in);
	KUNIT_ASSERT_EQ(test, len, 68 + 300);
	KUNIT_EXPECT_EQ(test, t->iu[5], OIB_SRP_DESC_IMM << 4);
	KUNIT_EXPECT_EQ(test, t->iu[6], 0);
	KUNIT_EXPECT_EQ(test, t->iu[50], 300 >> 8);	/* the length, big-endian */
	KUNIT_EXPECT_EQ(test, t->iu[51], 300 & 0xff);
	KUNIT_EXPECT_MEMEQ(test, t->iu + 68, data, sizeof(data));

	KUNIT_ASSERT_EQ(test, oib_srp_parse_cmd_imm(t->iu, len, 68, t->out), 0);
	KUNIT_EXPECT_EQ(test, t->out->dir, OIB_SRP_DATA_OUT);
	KUNIT_EXPECT_EQ(test, t->out->nbufs, 0);
	KUNIT_EXPECT_EQ(test, t->out->data_len, 300);
	KUNIT_EXPECT_EQ(test, t->out->imm_off, 68);
	KUNIT_EXPECT_PTR_EQ(test, t->out->imm, (const u8 *)t->iu + 68);
	KUNIT_EXPECT_EQ(test, t->out->tag, t->in->tag);
	KUNIT_EXPECT_EQ(test, t->out->lun, 3);
	/* more than the data in the IU is fine (padding); less is not */
	KUNIT_EXPECT_EQ(test, oib_srp_parse_cmd_imm(t->iu, len + 4, 68, t->out), 0);
	KUNIT_EXPECT_EQ(test, oib_srp_parse_cmd_imm(t->iu, len - 1, 68, t->out), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, oib_srp_parse_cmd_imm(t->iu, 60, 68, t->out), -EMSGSIZE);
	/* a channel without immediate data: format 3 is refused as before */
	KUNIT_EXPECT_EQ(test, oib_srp_parse_cmd(t->iu, len, t->out), -EINVAL);
	KUNIT_EXPECT_EQ(test, oib_srp_parse_cmd_imm(t->iu, len, 0, t->out), -EINVAL);
	/* a channel that granted another offset reads the data there */
	KUNIT_EXPECT_EQ(test, oib_srp_parse_cmd_imm(t->iu, len, 52, t->out), 0);
	KUNIT_EXPECT_PTR_EQ(test, t->out->imm, (const u8 *)t->iu + 52);
	((struct oib_srp_imm_buf *)cmd->add_data)->len = 0;
	KUNIT_EXPECT_EQ(test, oib_srp_parse_cmd_imm(t->iu, len, 68, t->out), -EINVAL);
	((struct oib_srp_imm_buf *)cmd->add_data)->len = cpu_to_be32(301);
	KUNIT_EXPECT_EQ(test, oib_srp_parse_cmd_imm(t->iu, len, 68, t->out), -EMSGSIZE);
	((struct oib_srp_imm_buf *)cmd->add_data)->len = cpu_to_be32(300);
	cmd->buf_fmt = OIB_SRP_DESC_IMM;	/* data-in */
	KUNIT_EXPECT_EQ(test, oib_srp_parse_cmd_imm(t->iu, len, 68, t->out), -EINVAL);

	t->in->imm_off = OIB_SRP_MIN_IMM_OFFSET - 1;
	KUNIT_EXPECT_EQ(test, oib_srp_pack_cmd(t->iu, IU_MAX, t->in), -EINVAL);
	t->in->imm_off = 68;
	KUNIT_EXPECT_EQ(test, oib_srp_pack_cmd(t->iu, 68 + 299, t->in), -EINVAL);
	t->in->dir = OIB_SRP_DATA_IN;
	KUNIT_EXPECT_EQ(test, oib_srp_pack_cmd(t->iu, IU_MAX, t->in), -EINVAL);
	t->in->dir = OIB_SRP_DATA_OUT;
	t->in->nbufs = 1;
	KUNIT_EXPECT_EQ(test, oib_srp_pack_cmd(t->iu, IU_MAX, t->in), -EINVAL);
	t->in->nbufs = 0;
	t->in->data_len = 0;
	KUNIT_EXPECT_EQ(test, oib_srp_pack_cmd(t->iu, IU_MAX, t->in), -EINVAL);
}

static void io_test_rsp(struct kunit *test)
{
	static const u8 sense[18] = { 0x70, 0, 0x05, [7] = 10, [12] = 0x20 };
	struct oib_srp_rsp_info in = {
		.tag = 42, .req_lim_delta = 1, .status = 0x02, .flags = OIB_SRP_RSP_DIUNDER,
		.data_in_res_cnt = 512, .sense = sense, .sense_len = sizeof(sense),
	};
	struct oib_srp_rsp_info out;
	struct io_test *t = test->priv;
	int len;

	len = oib_srp_pack_rsp(t->iu, IU_MAX, &in);
	KUNIT_ASSERT_EQ(test, len, 36 + 18);
	KUNIT_EXPECT_EQ(test, t->iu[18], OIB_SRP_RSP_DIUNDER | OIB_SRP_RSP_SNSVALID);
	KUNIT_EXPECT_EQ(test, t->iu[19], 0x02);
	KUNIT_EXPECT_EQ(test, t->iu[36], 0x70);
	KUNIT_ASSERT_EQ(test, oib_srp_parse_rsp(t->iu, len, &out), 0);
	KUNIT_EXPECT_EQ(test, out.tag, 42);
	KUNIT_EXPECT_EQ(test, out.req_lim_delta, 1);
	KUNIT_EXPECT_EQ(test, out.data_in_res_cnt, 512);
	KUNIT_EXPECT_EQ(test, out.sense_len, 18);
	KUNIT_EXPECT_MEMEQ(test, out.sense, sense, sizeof(sense));
	KUNIT_EXPECT_EQ(test, oib_srp_parse_rsp(t->iu, len - 1, &out), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, oib_srp_pack_rsp(t->iu, len - 1, &in), -EINVAL);

	/* A task management answer: 4 bytes of response data, the code last. */
	memset(&in, 0, sizeof(in));
	in.resp_len = 4;
	in.resp_code = 0x05;
	len = oib_srp_pack_rsp(t->iu, IU_MAX, &in);
	KUNIT_ASSERT_EQ(test, len, 40);
	KUNIT_EXPECT_EQ(test, t->iu[18], OIB_SRP_RSP_RSPVALID);
	KUNIT_ASSERT_EQ(test, oib_srp_parse_rsp(t->iu, len, &out), 0);
	KUNIT_EXPECT_EQ(test, out.resp_code, 0x05);
	t->iu[35] = 3;		/* response data of 3 bytes */
	KUNIT_EXPECT_EQ(test, oib_srp_parse_rsp(t->iu, len, &out), -EINVAL);
	t->iu[35] = 4;
	t->iu[18] |= OIB_SRP_RSP_SNSVALID;	/* sense said valid, with no length */
	KUNIT_EXPECT_EQ(test, oib_srp_parse_rsp(t->iu, len, &out), -EINVAL);
	t->iu[31] = 0xff;	/* sense beyond the IU */
	KUNIT_EXPECT_EQ(test, oib_srp_parse_rsp(t->iu, len, &out), -EMSGSIZE);
	t->iu[28] = 0xff;	/* a length that would overflow 32 bits with the rest */
	KUNIT_EXPECT_EQ(test, oib_srp_parse_rsp(t->iu, len, &out), -EMSGSIZE);
	t->iu[0] = OIB_SRP_CMD;
	KUNIT_EXPECT_EQ(test, oib_srp_parse_rsp(t->iu, 48, &out), -EBADMSG);
}

static struct kunit_case io_test_cases[] = {
	KUNIT_CASE(io_test_cmd_round_trips),
	KUNIT_CASE(io_test_cmd_pack_refused),
	KUNIT_CASE(io_test_cmd_parse_refused),
	KUNIT_CASE(io_test_cmd_imm),
	KUNIT_CASE(io_test_rsp),
	{}
};

static struct kunit_suite io_test_suite = {
	.name = "oib_srp_wire_io",
	.init = io_test_init,
	.test_cases = io_test_cases,
};

kunit_test_suite(io_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the SRP wire's I/O units");

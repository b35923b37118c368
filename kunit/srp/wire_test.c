// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the SRP wire (drivers/infiniband/ulp/srp/srp_wire_*.c): field offsets checked
 * against T10 SRP r16a's byte numbers (written here from the standard's tables, not from the
 * structs), every IU packed and parsed back, bytes checked where the standard fixes them, and
 * malformed IUs refused with the errno include/oib/srp.h promises.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/stddef.h>
#include <oib/srp.h>

#define OFF(type, field, byte) \
	KUNIT_EXPECT_EQ_MSG(test, offsetof(struct type, field), (size_t)(byte), #type "." #field)

static void wire_test_offsets(struct kunit *test)
{
	OFF(oib_srp_login_req, tag, 8);
	OFF(oib_srp_login_req, req_it_iu_len, 16);
	OFF(oib_srp_login_req, req_buf_fmt, 24);
	OFF(oib_srp_login_req, req_flags, 26);
	OFF(oib_srp_login_req, imm_data_offset, 28);	/* SRP-2 */
	OFF(oib_srp_login_req, initiator_port_id, 32);
	OFF(oib_srp_login_req, target_port_id, 48);
	OFF(oib_srp_login_req_rdma, req_buf_fmt, 8);
	OFF(oib_srp_login_req_rdma, opcode, 11);
	OFF(oib_srp_login_req_rdma, req_it_iu_len, 12);
	OFF(oib_srp_login_req_rdma, target_port_id, 32);
	OFF(oib_srp_login_req_rdma, imm_data_offset, 48);
	OFF(oib_srp_login_rsp, req_lim_delta, 4);
	OFF(oib_srp_login_rsp, tag, 8);
	OFF(oib_srp_login_rsp, max_it_iu_len, 16);
	OFF(oib_srp_login_rsp, max_ti_iu_len, 20);
	OFF(oib_srp_login_rsp, buf_fmt, 24);
	OFF(oib_srp_login_rsp, rsp_flags, 26);
	OFF(oib_srp_login_rej, reason, 4);
	OFF(oib_srp_login_rej, buf_fmt, 24);
	OFF(oib_srp_t_iu, value, 4);
	OFF(oib_srp_t_iu, tag, 8);
	OFF(oib_srp_tsk_mgmt, lun, 20);
	OFF(oib_srp_tsk_mgmt, tsk_mgmt_func, 30);
	OFF(oib_srp_tsk_mgmt, task_tag, 32);
	OFF(oib_srp_cmd, buf_fmt, 5);
	OFF(oib_srp_cmd, data_out_desc_cnt, 6);
	OFF(oib_srp_cmd, data_in_desc_cnt, 7);
	OFF(oib_srp_cmd, lun, 20);
	OFF(oib_srp_cmd, task_attr, 29);
	OFF(oib_srp_cmd, add_cdb_len, 31);
	OFF(oib_srp_cmd, cdb, 32);
	OFF(oib_srp_cmd, add_data, 48);
	OFF(oib_srp_rsp, req_lim_delta, 4);
	OFF(oib_srp_rsp, flags, 18);
	OFF(oib_srp_rsp, status, 19);
	OFF(oib_srp_rsp, data_out_res_cnt, 20);
	OFF(oib_srp_rsp, sense_data_len, 28);
	OFF(oib_srp_rsp, resp_data_len, 32);
	OFF(oib_srp_rsp, data, 36);
	OFF(oib_srp_indirect_buf, len, 16);
	OFF(oib_srp_indirect_buf, desc_list, 20);
}

static void wire_test_login(struct oib_srp_login *l)
{
	memset(l, 0, sizeof(*l));
	l->tag = 0x1122334455667788ULL;
	l->it_iu_len = 4096;
	l->buf_fmt = OIB_SRP_BUF_FMT_DIRECT | OIB_SRP_BUF_FMT_INDIRECT;
	l->flags = OIB_SRP_MULTICHAN_SINGLE | OIB_SRP_IMMED_REQUESTED;
	l->imm_data_offset = 68;
	memset(l->initiator_port_id, 0xa5, 16);
	memset(l->target_port_id, 0x5a, 16);
}

static void wire_test_login_rdma(struct kunit *test)
{
	struct oib_srp_login in, out;
	u8 buf[56];

	wire_test_login(&in);
	oib_srp_pack_login_rdma(buf, &in);
	KUNIT_EXPECT_EQ(test, buf[11], OIB_SRP_LOGIN_REQ);
	KUNIT_EXPECT_EQ(test, buf[14], 0x10);	/* 4096, big-endian */
	KUNIT_EXPECT_EQ(test, buf[9], 6);
	KUNIT_EXPECT_EQ(test, buf[10], 0x80);	/* immediate data requested */
	KUNIT_EXPECT_EQ(test, buf[49], 68);
	KUNIT_ASSERT_EQ(test, oib_srp_parse_login_rdma(buf, sizeof(buf), &out), 0);
	KUNIT_EXPECT_MEMEQ(test, &in, &out, sizeof(in));

	KUNIT_EXPECT_EQ(test, oib_srp_parse_login_rdma(buf, 55, &out), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, oib_srp_parse_login_rdma(NULL, 56, &out), -EMSGSIZE);
	buf[11] = OIB_SRP_CMD;
	KUNIT_EXPECT_EQ(test, oib_srp_parse_login_rdma(buf, sizeof(buf), &out), -EBADMSG);
	in.it_iu_len = 60;
	oib_srp_pack_login_rdma(buf, &in);
	KUNIT_EXPECT_EQ(test, oib_srp_parse_login_rdma(buf, sizeof(buf), &out), -EINVAL);
	in.it_iu_len = 4096;
	in.buf_fmt = 1;
	oib_srp_pack_login_rdma(buf, &in);
	KUNIT_EXPECT_EQ(test, oib_srp_parse_login_rdma(buf, sizeof(buf), &out), -EINVAL);
}

static void wire_test_login_req(struct kunit *test)
{
	struct oib_srp_login in, out;
	u8 buf[64];

	wire_test_login(&in);
	oib_srp_pack_login_req(buf, &in);
	KUNIT_EXPECT_EQ(test, buf[0], OIB_SRP_LOGIN_REQ);
	KUNIT_EXPECT_EQ(test, buf[32], 0xa5);
	KUNIT_EXPECT_EQ(test, buf[63], 0x5a);
	KUNIT_EXPECT_EQ(test, buf[26], 0x80);
	KUNIT_EXPECT_EQ(test, buf[29], 68);
	KUNIT_ASSERT_EQ(test, oib_srp_parse_login_req(buf, sizeof(buf), &out), 0);
	KUNIT_EXPECT_MEMEQ(test, &in, &out, sizeof(in));
	KUNIT_EXPECT_EQ(test, oib_srp_parse_login_req(buf, 63, &out), -EMSGSIZE);
	in.flags = 3;
	oib_srp_pack_login_req(buf, &in);
	KUNIT_EXPECT_EQ(test, oib_srp_parse_login_req(buf, sizeof(buf), &out), -EINVAL);
}

static void wire_test_login_answers(struct kunit *test)
{
	struct oib_srp_login_answer in = {
		.tag = 7, .req_lim_delta = 64, .max_it_iu_len = 4096, .max_ti_iu_len = 4096,
		.buf_fmt = OIB_SRP_BUF_FMT_DIRECT,
		.flags = OIB_SRP_LOGIN_RSP_MULTICHAN_NO_CHAN | OIB_SRP_LOGIN_RSP_IMMED_SUPP,
	};
	struct oib_srp_login_answer out;
	u8 buf[52];

	oib_srp_pack_login_rsp(buf, &in);
	KUNIT_EXPECT_EQ(test, buf[0], OIB_SRP_LOGIN_RSP);
	KUNIT_EXPECT_EQ(test, buf[7], 64);
	KUNIT_EXPECT_EQ(test, buf[26], 0x80);	/* SRP-2: immediate data supported */
	KUNIT_ASSERT_EQ(test, oib_srp_parse_login_answer(buf, 52, &out), OIB_SRP_LOGIN_RSP);
	KUNIT_EXPECT_MEMEQ(test, &in, &out, sizeof(in));
	KUNIT_EXPECT_EQ(test, oib_srp_parse_login_answer(buf, 51, &out), -EMSGSIZE);
	in.req_lim_delta = 0;
	oib_srp_pack_login_rsp(buf, &in);
	KUNIT_EXPECT_EQ(test, oib_srp_parse_login_answer(buf, 52, &out), -EINVAL);

	memset(&in, 0, sizeof(in));
	in.tag = 9;
	in.reason = OIB_SRP_REJ_IT_IU_LEN_TOO_LARGE;
	in.buf_fmt = OIB_SRP_BUF_FMT_DIRECT;
	oib_srp_pack_login_rej(buf, &in);
	KUNIT_EXPECT_EQ(test, buf[0], OIB_SRP_LOGIN_REJ);
	KUNIT_EXPECT_EQ(test, buf[5], 1);
	KUNIT_EXPECT_EQ(test, buf[7], 2);
	KUNIT_ASSERT_EQ(test, oib_srp_parse_login_answer(buf, 32, &out), OIB_SRP_LOGIN_REJ);
	KUNIT_EXPECT_MEMEQ(test, &in, &out, sizeof(in));
	in.reason = 0x00020000;
	oib_srp_pack_login_rej(buf, &in);
	KUNIT_EXPECT_EQ(test, oib_srp_parse_login_answer(buf, 32, &out), -EINVAL);
	buf[0] = OIB_SRP_RSP;
	KUNIT_EXPECT_EQ(test, oib_srp_parse_login_answer(buf, 52, &out), -EBADMSG);
}

static void wire_test_small(struct kunit *test)
{
	static const u8 ops[] = { OIB_SRP_I_LOGOUT, OIB_SRP_T_LOGOUT, OIB_SRP_CRED_REQ,
				  OIB_SRP_CRED_RSP };
	u8 buf[16];
	u32 value;
	u64 tag;
	int i;

	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		bool has_value = ops[i] == OIB_SRP_T_LOGOUT || ops[i] == OIB_SRP_CRED_REQ;

		oib_srp_pack_small(buf, ops[i], 0xabcdef + i, 0x01020304);
		KUNIT_EXPECT_EQ(test, buf[0], ops[i]);
		KUNIT_EXPECT_EQ(test, buf[4], has_value ? 1 : 0);
		KUNIT_ASSERT_EQ(test, oib_srp_parse_small(buf, 16, ops[i], &tag, &value), 0);
		KUNIT_EXPECT_EQ(test, tag, 0xabcdef + i);
		KUNIT_EXPECT_EQ(test, value, has_value ? 0x01020304 : 0);
		KUNIT_EXPECT_EQ(test, oib_srp_parse_small(buf, 15, ops[i], &tag, &value),
				-EMSGSIZE);
		KUNIT_EXPECT_EQ(test, oib_srp_parse_small(buf, 16, ops[(i + 1) % 4], &tag,
							  &value), -EBADMSG);
	}
	KUNIT_EXPECT_EQ(test, oib_srp_parse_small(buf, 16, OIB_SRP_CMD, &tag, &value), -EINVAL);
}

static void wire_test_opcodes(struct kunit *test)
{
	u8 buf[64] = {};

	KUNIT_EXPECT_EQ(test, oib_srp_iu_opcode(buf, 0), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, oib_srp_iu_opcode(buf, 64), OIB_SRP_LOGIN_REQ);
	KUNIT_EXPECT_EQ(test, oib_srp_iu_opcode(buf, 63), -EMSGSIZE);
	buf[0] = 0x55;
	KUNIT_EXPECT_EQ(test, oib_srp_iu_opcode(buf, 64), -EBADMSG);
	buf[0] = OIB_SRP_AER_REQ;	/* nobody here takes asynchronous event reports */
	KUNIT_EXPECT_EQ(test, oib_srp_iu_opcode(buf, 64), -EBADMSG);
	buf[0] = OIB_SRP_CMD;
	KUNIT_EXPECT_EQ(test, oib_srp_iu_opcode(buf, 48), OIB_SRP_CMD);
	KUNIT_EXPECT_EQ(test, oib_srp_iu_opcode(buf, 47), -EMSGSIZE);
	buf[0] = OIB_SRP_RSP;
	KUNIT_EXPECT_EQ(test, oib_srp_iu_opcode(buf, 36), OIB_SRP_RSP);
}

static void wire_test_tsk_mgmt(struct kunit *test)
{
	struct oib_srp_tsk_info in = { .tag = 3, .lun = 0x4001, .func = OIB_SRP_TSK_ABORT_TASK,
				       .task_tag = 0x99 };
	struct oib_srp_tsk_info out;
	u8 buf[48];

	oib_srp_pack_tsk_mgmt(buf, &in);
	KUNIT_EXPECT_EQ(test, buf[20], 0x40);	/* flat LUN 1, as the midlayer numbers it */
	KUNIT_EXPECT_EQ(test, buf[21], 0x01);
	KUNIT_EXPECT_EQ(test, buf[30], OIB_SRP_TSK_ABORT_TASK);
	KUNIT_ASSERT_EQ(test, oib_srp_parse_tsk_mgmt(buf, 48, &out), 0);
	KUNIT_EXPECT_MEMEQ(test, &in, &out, sizeof(in));
	KUNIT_EXPECT_EQ(test, oib_srp_parse_tsk_mgmt(buf, 47, &out), -EMSGSIZE);
	in.func = 0x10;
	oib_srp_pack_tsk_mgmt(buf, &in);
	KUNIT_EXPECT_EQ(test, oib_srp_parse_tsk_mgmt(buf, 48, &out), -EINVAL);
}

static struct kunit_case wire_test_cases[] = {
	KUNIT_CASE(wire_test_offsets),
	KUNIT_CASE(wire_test_login_rdma),
	KUNIT_CASE(wire_test_login_req),
	KUNIT_CASE(wire_test_login_answers),
	KUNIT_CASE(wire_test_small),
	KUNIT_CASE(wire_test_opcodes),
	KUNIT_CASE(wire_test_tsk_mgmt),
	{}
};

static struct kunit_suite wire_test_suite = {
	.name = "oib_srp_wire",
	.test_cases = wire_test_cases,
};

kunit_test_suite(wire_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the SRP wire of oib_srp");

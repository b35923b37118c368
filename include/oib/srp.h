/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The SRP wire (T10 SRP revision 16a, and the login of SRP over the RDMA CM as Linux sends it):
 * the information units, their sizes, and what oib_srp exports to pack and check them
 * (Documentation/srp.md).
 *
 * Every IU starts with its opcode byte.  Multi-byte fields are big-endian, except the tag: an
 * opaque 8 bytes the target returns as it got them (here: copied, never swapped).  Parsers take
 * a received buffer and its length and fill a host-order struct; they refuse a short buffer with
 * -EMSGSIZE, a wrong opcode with -EBADMSG, a field out of range with -EINVAL and a valid but
 * unsupported form with -EOPNOTSUPP, so a receiver can drop and count it.
 */
#ifndef OIB_SRP_H
#define OIB_SRP_H

#include <linux/build_bug.h>
#include <linux/types.h>

enum oib_srp_opcode {
	OIB_SRP_LOGIN_REQ = 0x00,
	OIB_SRP_TSK_MGMT = 0x01,
	OIB_SRP_CMD = 0x02,
	OIB_SRP_I_LOGOUT = 0x03,
	OIB_SRP_CRED_RSP = 0x41,
	OIB_SRP_AER_RSP = 0x42,
	OIB_SRP_T_LOGOUT = 0x80,
	OIB_SRP_CRED_REQ = 0x81,
	OIB_SRP_AER_REQ = 0x82,
	OIB_SRP_LOGIN_RSP = 0xc0,
	OIB_SRP_RSP = 0xc1,
	OIB_SRP_LOGIN_REJ = 0xc2,
};

/* Data buffer formats a channel supports (login req_buf_fmt, rsp buf_fmt). */
enum oib_srp_buf_fmt {
	OIB_SRP_BUF_FMT_DIRECT = 1 << 1,
	OIB_SRP_BUF_FMT_INDIRECT = 1 << 2,
};

/*
 * Descriptor formats in an SRP_CMD's buf_fmt nibbles (data-out high, data-in low).  IMM (SRP-2,
 * data-out only): a 4-byte length after the CDB, the data in the IU itself at the immediate
 * data offset the login named.
 */
enum oib_srp_desc_fmt {
	OIB_SRP_DESC_NONE = 0,
	OIB_SRP_DESC_DIRECT = 1,
	OIB_SRP_DESC_INDIRECT = 2,
	OIB_SRP_DESC_IMM = 3,
};

/* The login's req_flags: the multichannel action in bits 1:0; SRP-2's immediate data request. */
enum oib_srp_login_flags {
	OIB_SRP_MULTICHAN_SINGLE = 0,
	OIB_SRP_MULTICHAN_MULTI = 1,
	OIB_SRP_IMMED_REQUESTED = 0x80,
};

/* The multichannel bits of a login's req_flags and of a LOGIN_RSP's rsp_flags. */
#define OIB_SRP_MULTICHAN_MASK	0x3

/* The LOGIN_RSP's rsp_flags: the multichannel result in bits 1:0; immediate data granted. */
enum oib_srp_login_rsp_flags {
	OIB_SRP_LOGIN_RSP_MULTICHAN_NO_CHAN = 0,
	OIB_SRP_LOGIN_RSP_MULTICHAN_TERMINATED = 1,
	OIB_SRP_LOGIN_RSP_MULTICHAN_MAINTAINED = 2,
	OIB_SRP_LOGIN_RSP_IMMED_SUPP = 0x80,
};

enum oib_srp_login_rej_reason {
	OIB_SRP_REJ_UNABLE_ESTABLISH_CHANNEL = 0x00010000,
	OIB_SRP_REJ_INSUFFICIENT_RESOURCES = 0x00010001,
	OIB_SRP_REJ_IT_IU_LEN_TOO_LARGE = 0x00010002,
	OIB_SRP_REJ_UNABLE_ASSOCIATE_CHANNEL = 0x00010003,
	OIB_SRP_REJ_UNSUPPORTED_DESC_FMT = 0x00010004,
	OIB_SRP_REJ_MULTICHAN_UNSUPPORTED = 0x00010005,
	OIB_SRP_REJ_CHANNEL_LIMIT = 0x00010006,
};

enum oib_srp_tsk_func {
	OIB_SRP_TSK_ABORT_TASK = 0x01,
	OIB_SRP_TSK_ABORT_TASK_SET = 0x02,
	OIB_SRP_TSK_CLEAR_TASK_SET = 0x04,
	OIB_SRP_TSK_LUN_RESET = 0x08,
	OIB_SRP_TSK_CLEAR_ACA = 0x40,
};

/* SRP_T_LOGOUT reasons. */
enum oib_srp_t_logout_reason {
	OIB_SRP_T_LOGOUT_NO_REASON = 0,
	OIB_SRP_T_LOGOUT_INACTIVE = 1,
	OIB_SRP_T_LOGOUT_INVALID_IU = 2,
};

enum oib_srp_rsp_flags {
	OIB_SRP_RSP_RSPVALID = 1 << 0,
	OIB_SRP_RSP_SNSVALID = 1 << 1,
	OIB_SRP_RSP_DOOVER = 1 << 2,
	OIB_SRP_RSP_DOUNDER = 1 << 3,
	OIB_SRP_RSP_DIOVER = 1 << 4,
	OIB_SRP_RSP_DIUNDER = 1 << 5,
};

/* ---- The IUs as they are on the wire ---- */

struct oib_srp_direct_buf {
	__be64 va;
	__be32 key;
	__be32 len;
} __packed;

struct oib_srp_indirect_buf {
	struct oib_srp_direct_buf table_desc;	/* the whole descriptor table */
	__be32 len;				/* the data: sum of the descriptors' lengths */
	struct oib_srp_direct_buf desc_list[];	/* the first descriptors, carried in the IU */
} __packed;

struct oib_srp_login_req {
	u8 opcode;
	u8 reserved1[7];
	u64 tag;
	__be32 req_it_iu_len;
	u8 reserved2[4];
	__be16 req_buf_fmt;
	u8 req_flags;
	u8 reserved3;
	__be16 imm_data_offset;	/* SRP-2: where a command's immediate data starts */
	u8 reserved4[2];
	u8 initiator_port_id[16];
	u8 target_port_id[16];
} __packed;

/* The login in a CM REQ's private data: the REQ's 92 bytes less the rdma_cm's 36 leave 56. */
struct oib_srp_login_req_rdma {
	u64 tag;
	__be16 req_buf_fmt;
	u8 req_flags;
	u8 opcode;
	__be32 req_it_iu_len;
	u8 initiator_port_id[16];
	u8 target_port_id[16];
	__be16 imm_data_offset;
	u8 reserved[6];
} __packed;

struct oib_srp_login_rsp {
	u8 opcode;
	u8 reserved1[3];
	__be32 req_lim_delta;
	u64 tag;
	__be32 max_it_iu_len;
	__be32 max_ti_iu_len;
	__be16 buf_fmt;
	u8 rsp_flags;
	u8 reserved2[25];
} __packed;

struct oib_srp_login_rej {
	u8 opcode;
	u8 reserved1[3];
	__be32 reason;
	u64 tag;
	u8 reserved2[8];
	__be16 buf_fmt;
	u8 reserved3[6];
} __packed;

/* SRP_I_LOGOUT and SRP_CRED_RSP have this layout; SRP_T_LOGOUT and SRP_CRED_REQ the next. */
struct oib_srp_tag_iu {
	u8 opcode;
	u8 reserved[7];
	u64 tag;
} __packed;

struct oib_srp_t_iu {
	u8 opcode;
	u8 sol_not;
	u8 reserved[2];
	__be32 value;		/* T_LOGOUT: the reason; CRED_REQ: the request-limit delta */
	u64 tag;
} __packed;

struct oib_srp_tsk_mgmt {
	u8 opcode;
	u8 sol_not;
	u8 reserved1[6];
	u64 tag;
	u8 reserved2[4];
	u8 lun[8];
	u8 reserved3[2];
	u8 tsk_mgmt_func;
	u8 reserved4;
	u64 task_tag;
	u8 reserved5[8];
} __packed;

/* The immediate data descriptor: the length of the data the IU carries. */
struct oib_srp_imm_buf {
	__be32 len;
} __packed;

struct oib_srp_cmd {
	u8 opcode;
	u8 sol_not;
	u8 reserved1[3];
	u8 buf_fmt;		/* data-out descriptor format << 4 | data-in format */
	u8 data_out_desc_cnt;
	u8 data_in_desc_cnt;
	u64 tag;
	u8 reserved2[4];
	u8 lun[8];
	u8 reserved3;
	u8 task_attr;
	u8 reserved4;
	u8 add_cdb_len;		/* in bits 7:2 (4-byte words); 0 here */
	u8 cdb[16];
	u8 add_data[];		/* the data-out, then the data-in descriptor */
} __packed;

struct oib_srp_rsp {
	u8 opcode;
	u8 sol_not;
	u8 reserved1[2];
	__be32 req_lim_delta;
	u64 tag;
	u8 reserved2[2];
	u8 flags;
	u8 status;
	__be32 data_out_res_cnt;
	__be32 data_in_res_cnt;
	__be32 sense_data_len;
	__be32 resp_data_len;
	u8 data[];		/* response data, then sense data */
} __packed;

static_assert(sizeof(struct oib_srp_direct_buf) == 16);
static_assert(sizeof(struct oib_srp_indirect_buf) == 20);
static_assert(sizeof(struct oib_srp_imm_buf) == 4);
static_assert(sizeof(struct oib_srp_login_req) == 64);
static_assert(sizeof(struct oib_srp_login_req_rdma) == 56);
static_assert(sizeof(struct oib_srp_login_rsp) == 52);
static_assert(sizeof(struct oib_srp_login_rej) == 32);
static_assert(sizeof(struct oib_srp_tag_iu) == 16);
static_assert(sizeof(struct oib_srp_t_iu) == 16);
static_assert(sizeof(struct oib_srp_tsk_mgmt) == 48);
static_assert(sizeof(struct oib_srp_cmd) == 48);
static_assert(sizeof(struct oib_srp_rsp) == 36);

/* ---- Host-order views, and the calls that pack and check them ---- */

/* LOGIN_REQ (in a CM REQ's private data: oib_srp_login_req_rdma). */
struct oib_srp_login {
	u64 tag;
	u32 it_iu_len;		/* the largest IU the initiator will send */
	u16 buf_fmt;		/* enum oib_srp_buf_fmt */
	u16 imm_data_offset;	/* with OIB_SRP_IMMED_REQUESTED: where immediate data starts */
	u8 flags;		/* enum oib_srp_login_flags */
	u8 initiator_port_id[16];
	u8 target_port_id[16];
};

/* LOGIN_RSP, or LOGIN_REJ (reason). */
struct oib_srp_login_answer {
	u64 tag;
	u32 req_lim_delta;	/* RSP: the initial request limit */
	u32 max_it_iu_len;
	u32 max_ti_iu_len;
	u16 buf_fmt;
	u8 flags;		/* RSP: enum oib_srp_login_rsp_flags */
	u32 reason;		/* REJ: enum oib_srp_login_rej_reason */
};

/* The smallest IU a channel must take: an SRP_CMD with an indirect table of one descriptor. */
#define OIB_SRP_MIN_IU_LEN						\
	(sizeof(struct oib_srp_cmd) + sizeof(struct oib_srp_indirect_buf) +	\
	 sizeof(struct oib_srp_direct_buf))

/*
 * The smallest immediate data offset: the data follows its descriptor, after a command with no
 * additional CDB bytes.
 */
#define OIB_SRP_MIN_IMM_OFFSET	(sizeof(struct oib_srp_cmd) + sizeof(struct oib_srp_imm_buf))

/* A memory buffer of the initiator's, as a descriptor names it. */
struct oib_srp_buf {
	u64 va;
	u32 key;
	u32 len;
};

enum oib_srp_data_dir {
	OIB_SRP_DATA_NONE,
	OIB_SRP_DATA_OUT,	/* initiator to target: the target RDMA READs */
	OIB_SRP_DATA_IN,	/* target to initiator: the target RDMA WRITEs */
};

/*
 * SRP_CMD.  Descriptors in @bufs; at most OIB_SRP_MAX_BUFS.  Or, for data-out, immediate data:
 * @imm_off non-zero, no descriptors, @data_len bytes at @imm (in the IU at @imm_off).
 */
#define OIB_SRP_MAX_BUFS	32
struct oib_srp_cmd_info {
	u64 tag;
	u64 lun;
	u8 cdb[16];
	u8 task_attr;
	enum oib_srp_data_dir dir;
	u32 nbufs;
	u32 data_len;		/* sum of the descriptors' lengths, or of the immediate data */
	struct oib_srp_buf bufs[OIB_SRP_MAX_BUFS];
	struct oib_srp_buf table;	/* indirect: the table itself (pack: filled in) */
	u32 imm_off;		/* immediate data: its offset in the IU (the login's); else 0 */
	/* pack: copied into the IU (NULL: the caller puts it there after); parse: into it */
	const u8 *imm;
};

/* SRP_RSP.  @sense points into the received IU (parse) or is copied (pack). */
struct oib_srp_rsp_info {
	u64 tag;
	u32 req_lim_delta;
	u8 status;		/* SCSI status */
	u8 flags;		/* enum oib_srp_rsp_flags */
	u32 data_out_res_cnt;
	u32 data_in_res_cnt;
	const u8 *sense;
	u32 sense_len;
	u32 resp_len;		/* RSPVALID: 4 bytes whose last is the task management status */
	u8 resp_code;
};

struct oib_srp_tsk_info {
	u64 tag;
	u64 lun;
	u8 func;		/* enum oib_srp_tsk_func */
	u64 task_tag;
};

/* The opcode of a received IU, if its length fits the opcode's fixed part; else -errno. */
int oib_srp_iu_opcode(const void *iu, size_t len);

/* Login: pack into the CM private data (56 bytes) or an IU (64); parse either. */
void oib_srp_pack_login_rdma(void *pdata, const struct oib_srp_login *l);
int oib_srp_parse_login_rdma(const void *pdata, size_t len, struct oib_srp_login *l);
void oib_srp_pack_login_req(void *iu, const struct oib_srp_login *l);
int oib_srp_parse_login_req(const void *iu, size_t len, struct oib_srp_login *l);
void oib_srp_pack_login_rsp(void *iu, const struct oib_srp_login_answer *a);
void oib_srp_pack_login_rej(void *iu, const struct oib_srp_login_answer *a);
/* Either answer: @a->reason is 0 for a LOGIN_RSP.  Returns the opcode or -errno. */
int oib_srp_parse_login_answer(const void *iu, size_t len, struct oib_srp_login_answer *a);

/* Logout and credits: the 16-byte IUs.  @value: T_LOGOUT reason, CRED_REQ delta, else 0. */
void oib_srp_pack_small(void *iu, enum oib_srp_opcode op, u64 tag, u32 value);
int oib_srp_parse_small(const void *iu, size_t len, enum oib_srp_opcode op, u64 *tag, u32 *value);

/*
 * SRP_CMD: packed length, or -EINVAL (too many descriptors, a zero length, @max too small, an
 * immediate data offset below OIB_SRP_MIN_IMM_OFFSET or with descriptors or not data-out).
 */
int oib_srp_pack_cmd(void *iu, size_t max, struct oib_srp_cmd_info *c);
int oib_srp_parse_cmd(const void *iu, size_t len, struct oib_srp_cmd_info *c);
/*
 * The same on a channel that granted immediate data at @imm_off (0: none, as the call above):
 * a command with the IMM format gets @c->imm and @c->data_len; -EMSGSIZE if the IU is shorter
 * than the data it announces, -EINVAL for a zero length or the format on data-in.
 */
int oib_srp_parse_cmd_imm(const void *iu, size_t len, u32 imm_off, struct oib_srp_cmd_info *c);

/* SRP_RSP: packed length, or -EINVAL (@max too small for the sense data). */
int oib_srp_pack_rsp(void *iu, size_t max, const struct oib_srp_rsp_info *r);
int oib_srp_parse_rsp(const void *iu, size_t len, struct oib_srp_rsp_info *r);

void oib_srp_pack_tsk_mgmt(void *iu, const struct oib_srp_tsk_info *t);
int oib_srp_parse_tsk_mgmt(const void *iu, size_t len, struct oib_srp_tsk_info *t);

#endif /* OIB_SRP_H */

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fuzzer's description of the user ABI (include/uapi/oib/uverbs.h): one entry per command,
 * its struct's fields and what each takes, the results it makes and what it destroys; then the
 * pseudo-calls.  Field 0 of every ioctl is the context it runs on.
 */
#include <fcntl.h>
#include <stddef.h>
#include <string.h>
#include "fuzz.h"

#define CTX		{ "ctx", -1, 4, FT_RES, KB(K_CTX) }
#define HSIZE		{ "hdr.size", 0, 4, FT_SIZE, 0 }
#define HFLAGS		{ "hdr.flags", 4, 4, FT_CONST, 0 }
#define F(st, m, t, p)	{ #m, offsetof(struct oib_uverbs_##st, m),			\
			  sizeof(((struct oib_uverbs_##st *)0)->m), t, p }
#define V(n, t, p)	{ n, -1, 8, t, p }
#define OUT(st, m, k)	{ k, offsetof(struct oib_uverbs_##st, m),			\
			  sizeof(((struct oib_uverbs_##st *)0)->m) }
#define RING(st, m)	{ K_RING, offsetof(struct oib_uverbs_##st, m), 0 }
#define IOC(n, st, fl)	.name = #n, .nr = OIB_UVERBS_##n,				\
			.size = sizeof(struct oib_uverbs_##st),				\
			.min_size = offsetof(struct oib_uverbs_##st, fl) +		\
				    sizeof(((struct oib_uverbs_##st *)0)->fl)
#define FIELDS(a)	.f = a, .nf = sizeof(a) / sizeof(a[0])

static const struct fz_field f_query_device[] = { CTX, HSIZE, HFLAGS };

static const struct fz_field f_query_port[] = {
	CTX, HSIZE, HFLAGS, F(query_port, port_num, FT_INT, S_PORT),
};

static const struct fz_field f_query_gid[] = {
	CTX, HSIZE, HFLAGS, F(query_gid, port_num, FT_INT, S_PORT),
	F(query_gid, index, FT_INT, S_SMALL), F(query_gid, reserved, FT_CONST, 0),
};

static const struct fz_field f_new_fd[] = {
	CTX, HSIZE, HFLAGS, F(new_fd, fd, FT_CONST, 0), F(new_fd, reserved, FT_CONST, 0),
};

static const struct fz_field f_alloc_pd[] = {
	CTX, HSIZE, HFLAGS, F(alloc_pd, user_handle, FT_UHANDLE, 0),
	F(alloc_pd, handle, FT_CONST, 0), F(alloc_pd, reserved, FT_CONST, 0),
};

/* The destroys: field 3 the handle destroyed. */
static const struct fz_field f_dealloc_pd[] = {
	CTX, HSIZE, HFLAGS, F(destroy, handle, FT_RES, KB(K_PD)), F(destroy, reserved, FT_CONST, 0),
};

static const struct fz_field f_dereg_mr[] = {
	CTX, HSIZE, HFLAGS, F(destroy, handle, FT_RES, KB(K_MR)), F(destroy, reserved, FT_CONST, 0),
};

static const struct fz_field f_destroy_ah[] = {
	CTX, HSIZE, HFLAGS, F(destroy, handle, FT_RES, KB(K_AH)), F(destroy, reserved, FT_CONST, 0),
};

static const struct fz_field f_close_xrcd[] = {
	CTX, HSIZE, HFLAGS, F(destroy, handle, FT_RES, KB(K_XRCD)),
	F(destroy, reserved, FT_CONST, 0),
};

static const struct fz_field f_destroy_cq[] = {
	CTX, HSIZE, HFLAGS, F(destroy_reported, handle, FT_RES, KB(K_CQ)),
	F(destroy_reported, reserved, FT_CONST, 0),
};

static const struct fz_field f_destroy_qp[] = {
	CTX, HSIZE, HFLAGS, F(destroy_reported, handle, FT_RES, KB(K_QP)),
	F(destroy_reported, reserved, FT_CONST, 0),
};

static const struct fz_field f_destroy_srq[] = {
	CTX, HSIZE, HFLAGS, F(destroy_reported, handle, FT_RES, KB(K_SRQ)),
	F(destroy_reported, reserved, FT_CONST, 0),
};

static const struct fz_field f_create_cq[] = {
	CTX, HSIZE, HFLAGS, F(create_cq, user_handle, FT_UHANDLE, 0),
	F(create_cq, cqe, FT_INT, S_CQE), F(create_cq, comp_vector, FT_INT, S_SMALL),
	F(create_cq, channel_fd, FT_FD, KB(K_CHAN)), F(create_cq, handle, FT_CONST, 0),
	F(create_cq, ring_flags, FT_FLAGS, 1), F(create_cq, reserved, FT_CONST, 0),
};

static const struct fz_field f_req_notify_cq[] = {
	CTX, HSIZE, HFLAGS, F(req_notify_cq, handle, FT_RES, KB(K_CQ)),
	F(req_notify_cq, notify, FT_FLAGS, 1),
};

static const struct fz_field f_poll_cq[] = {
	CTX, HSIZE, HFLAGS, F(poll_cq, handle, FT_RES, KB(K_CQ)), F(poll_cq, count, FT_INT, S_WR),
	F(poll_cq, wcs, FT_PTR, PTR_WCS),
};

static const struct fz_field f_reg_mr[] = {
	CTX, HSIZE, HFLAGS, F(reg_mr, user_handle, FT_UHANDLE, 0), F(reg_mr, addr, FT_ADDR, 0),
	F(reg_mr, length, FT_INT, S_LEN), F(reg_mr, pd_handle, FT_RES, KB(K_PD)),
	F(reg_mr, access, FT_FLAGS, 0xf), F(reg_mr, handle, FT_CONST, 0),
	F(reg_mr, lkey, FT_CONST, 0), F(reg_mr, rkey, FT_CONST, 0),
	F(reg_mr, reserved, FT_CONST, 0),
};

static const struct fz_field f_create_qp[] = {
	CTX, HSIZE, HFLAGS, F(create_qp, user_handle, FT_UHANDLE, 0),
	F(create_qp, pd_handle, FT_RES, KB(K_PD)), F(create_qp, send_cq_handle, FT_RES, KB(K_CQ)),
	F(create_qp, recv_cq_handle, FT_RES, KB(K_CQ)), F(create_qp, qp_type, FT_INT, S_QPT),
	F(create_qp, sq_sig_all, FT_INT, S_U8), F(create_qp, port_num, FT_INT, S_PORT),
	F(create_qp, cap.max_send_wr, FT_INT, S_WR), F(create_qp, cap.max_recv_wr, FT_INT, S_WR),
	F(create_qp, cap.max_send_sge, FT_INT, S_SGE),
	F(create_qp, cap.max_recv_sge, FT_INT, S_SGE),
	F(create_qp, cap.max_inline_data, FT_INT, S_SMALL),
	F(create_qp, srq_handle, FT_RES, KB(K_SRQ)), F(create_qp, ring_flags, FT_FLAGS, 3),
	F(create_qp, xrcd_handle, FT_RES, KB(K_XRCD)), F(create_qp, reserved, FT_CONST, 0),
};

/* MODIFY_QP's, and CREATE_XRC_RCV_QP's (its attr is at offset 0; the handle a domain's). */
static const struct fz_field f_modify_qp[] = {
	CTX, HSIZE, HFLAGS, F(modify_qp, handle, FT_RES, KB(K_QP) | KB(K_XRCD)),
	F(modify_qp, attr_mask, FT_FLAGS, 0x13fff9), F(modify_qp, qp_state, FT_INT, S_QPS),
	F(modify_qp, path_mtu, FT_INT, S_MTU), F(modify_qp, rq_psn, FT_INT, S_PSN),
	F(modify_qp, sq_psn, FT_INT, S_PSN),
	F(modify_qp, dest_qp_num, FT_RES, KB(K_PEERQPN) | KB(K_QPN)),
	F(modify_qp, qp_access_flags, FT_FLAGS, 0xf), F(modify_qp, pkey_index, FT_INT, S_U8),
	F(modify_qp, port_num, FT_INT, S_PORT), F(modify_qp, timeout, FT_INT, S_U8),
	F(modify_qp, retry_cnt, FT_INT, S_U8), F(modify_qp, rnr_retry, FT_INT, S_U8),
	F(modify_qp, min_rnr_timer, FT_INT, S_U8), F(modify_qp, max_rd_atomic, FT_INT, S_U8),
	F(modify_qp, max_dest_rd_atomic, FT_INT, S_U8), F(modify_qp, qkey, FT_INT, S_SMALL),
	F(modify_qp, ah_attr.dgid, FT_GID, 0), F(modify_qp, ah_attr.hop_limit, FT_INT, S_U8),
	F(modify_qp, ah_attr.is_global, FT_INT, S_U8),
	F(modify_qp, ah_attr.port_num, FT_INT, S_PORT),
};

/* POST_SEND's, POST_RECV's, POST_SRQ_RECV's; from field 6 the builder's, the same for every WR. */
static const struct fz_field f_post[] = {
	CTX, HSIZE, HFLAGS, F(post, handle, FT_RES, KB(K_QP) | KB(K_SRQ)),
	F(post, count, FT_INT, S_WR), F(post, wrs, FT_PTR, 0),
	V("wr.opcode", FT_INT, S_OPCODE), V("wr.flags", FT_FLAGS, 0x7),
	V("wr.num_sge", FT_INT, S_SGE), V("sge.addr", FT_ADDR, 0),
	V("sge.length", FT_INT, S_LEN), V("sge.lkey", FT_RES, KB(K_LKEY)),
	V("wr.remote_addr", FT_ADDR, 0), V("wr.rkey", FT_RES, KB(K_RKEY)),
	V("wr.ah", FT_RES, KB(K_AH)),
	V("wr.remote_qpn", FT_RES, KB(K_QPN) | KB(K_PEERQPN) | KB(K_SRQN)),
	V("wr.remote_qkey", FT_INT, S_SMALL),
};

static const struct fz_field f_create_ah[] = {
	CTX, HSIZE, HFLAGS, F(create_ah, user_handle, FT_UHANDLE, 0),
	F(create_ah, pd_handle, FT_RES, KB(K_PD)), F(create_ah, handle, FT_CONST, 0),
	F(create_ah, attr.dgid, FT_GID, 0), F(create_ah, attr.flow_label, FT_INT, S_SMALL),
	F(create_ah, attr.dlid, FT_INT, S_SMALL), F(create_ah, attr.sgid_index, FT_INT, S_U8),
	F(create_ah, attr.hop_limit, FT_INT, S_U8), F(create_ah, attr.is_global, FT_INT, S_U8),
	F(create_ah, attr.port_num, FT_INT, S_PORT),
};

static const struct fz_field f_create_srq[] = {
	CTX, HSIZE, HFLAGS, F(create_srq, user_handle, FT_UHANDLE, 0),
	F(create_srq, pd_handle, FT_RES, KB(K_PD)), F(create_srq, handle, FT_CONST, 0),
	F(create_srq, attr.max_wr, FT_INT, S_WR), F(create_srq, attr.max_sge, FT_INT, S_SGE),
	F(create_srq, attr.srq_limit, FT_INT, S_WR), F(create_srq, ring_flags, FT_FLAGS, 1),
	F(create_srq, srq_type, FT_INT, S_SRQT), F(create_srq, xrcd_handle, FT_RES, KB(K_XRCD)),
	F(create_srq, cq_handle, FT_RES, KB(K_CQ)), F(create_srq, reserved, FT_CONST, 0),
};

static const struct fz_field f_modify_srq[] = {
	CTX, HSIZE, HFLAGS, F(modify_srq, handle, FT_RES, KB(K_SRQ)),
	F(modify_srq, attr_mask, FT_FLAGS, 3), F(modify_srq, attr.max_wr, FT_INT, S_WR),
	F(modify_srq, attr.srq_limit, FT_INT, S_WR),
};

static const struct fz_field f_query_srq[] = {
	CTX, HSIZE, HFLAGS, F(modify_srq, handle, FT_RES, KB(K_SRQ)),
	F(modify_srq, attr_mask, FT_CONST, 0),
};

static const struct fz_field f_doorbell[] = {
	CTX, HSIZE, HFLAGS, F(doorbell, handle, FT_RES, KB(K_QP)),
	F(doorbell, reserved, FT_CONST, 0),
};

static const struct fz_field f_query_qp[] = {
	CTX, HSIZE, HFLAGS, F(query_qp, attr.handle, FT_RES, KB(K_QP)),
	F(query_qp, attr.attr_mask, FT_FLAGS, 0x13fff9),
};

static const struct fz_field f_open_xrcd[] = {
	CTX, HSIZE, HFLAGS, F(open_xrcd, user_handle, FT_UHANDLE, 0),
	F(open_xrcd, fd, FT_FD, KB(K_CTX) | KB(K_CHAN)), F(open_xrcd, oflags, FT_INT, S_OFLAGS),
	F(open_xrcd, handle, FT_CONST, 0), F(open_xrcd, reserved, FT_CONST, 0),
};

static const struct fz_field f_xrc_rcv_qp_reg[] = {
	CTX, HSIZE, HFLAGS, F(xrc_rcv_qp_reg, xrcd_handle, FT_RES, KB(K_XRCD)),
	F(xrc_rcv_qp_reg, qp_num, FT_RES, KB(K_RCVQPN)),
};

/* The pseudo-calls' arguments. */
static const struct fz_field f_close[] = {
	V("fd", FT_RES, KB(K_CTX) | KB(K_CHAN) | KB(K_ASYNC)),
};

static const struct fz_field f_mmap[] = { CTX, V("ring", FT_RES, KB(K_RING)) };

static const struct fz_field f_munmap[] = { V("map", FT_RES, KB(K_MAP)) };

static const struct fz_field f_ring_write[] = {
	V("map", FT_RES, KB(K_MAP)), V("what", FT_INT, S_RINGW), V("index", FT_INT, S_SMALL),
	V("value", FT_INT, S_SMALL), V("lkey", FT_RES, KB(K_LKEY)),
};

static const struct fz_field f_read_events[] = {
	V("fd", FT_RES, KB(K_CHAN) | KB(K_ASYNC)), V("count", FT_INT, S_NEV),
};

static const struct fz_field f_fork[] = { V("kill_after_us", FT_INT, S_KILL) };

static const struct fz_field f_delay[] = { V("us", FT_INT, S_DELAY) };

static const struct fz_field f_peer_qp[] = {
	V("qpn", FT_RES, KB(K_QPN)), V("type", FT_INT, S_QPT),
};

static const struct fz_field f_peer_send[] = {
	V("peer", FT_RES, KB(K_PEER)), V("opcode", FT_INT, S_PEEROP), V("count", FT_INT, S_NEV),
	V("length", FT_INT, S_LEN), V("remote_addr", FT_ADDR, 0), V("rkey", FT_RES, KB(K_RKEY)),
};

const struct fz_desc fz_descs[] = {
	{ IOC(QUERY_DEVICE, query_device, reserved), .weight = 1, FIELDS(f_query_device) },
	{ IOC(QUERY_PORT, query_port, reserved), .weight = 1, FIELDS(f_query_port) },
	{ IOC(QUERY_GID, query_gid, reserved), .weight = 1, FIELDS(f_query_gid) },
	{ IOC(GET_ASYNC_FD, new_fd, reserved), .weight = 6, FIELDS(f_new_fd),
	  .out = { OUT(new_fd, fd, K_ASYNC) } },
	{ IOC(CREATE_COMP_CHANNEL, new_fd, reserved), .weight = 3, FIELDS(f_new_fd),
	  .out = { OUT(new_fd, fd, K_CHAN) } },
	{ IOC(ALLOC_PD, alloc_pd, reserved), .weight = 4, FIELDS(f_alloc_pd),
	  .out = { OUT(alloc_pd, handle, K_PD) } },
	{ IOC(DEALLOC_PD, destroy, reserved), .weight = 3, .destroys = 4, FIELDS(f_dealloc_pd) },
	{ IOC(CREATE_CQ, create_cq, handle), .weight = 6, FIELDS(f_create_cq),
	  .out = { OUT(create_cq, handle, K_CQ), RING(create_cq, ring) } },
	{ IOC(DESTROY_CQ, destroy_reported, reserved), .weight = 4, .destroys = 4,
	  FIELDS(f_destroy_cq) },
	{ IOC(REQ_NOTIFY_CQ, req_notify_cq, notify), .weight = 3, FIELDS(f_req_notify_cq) },
	{ IOC(POLL_CQ, poll_cq, wcs), .weight = 4, FIELDS(f_poll_cq) },
	{ IOC(REG_MR, reg_mr, reserved), .weight = 5, FIELDS(f_reg_mr),
	  .out = { OUT(reg_mr, handle, K_MR), OUT(reg_mr, lkey, K_LKEY),
		   OUT(reg_mr, rkey, K_RKEY) } },
	{ IOC(DEREG_MR, destroy, reserved), .weight = 4, .destroys = 4, FIELDS(f_dereg_mr) },
	{ IOC(CREATE_QP, create_qp, cap), .weight = 8, FIELDS(f_create_qp),
	  .out = { OUT(create_qp, handle, K_QP), OUT(create_qp, qp_num, K_QPN),
		   RING(create_qp, sq), RING(create_qp, rq) } },
	{ IOC(MODIFY_QP, modify_qp, ah_attr), .weight = 12, FIELDS(f_modify_qp) },
	{ IOC(DESTROY_QP, destroy_reported, reserved), .weight = 6, .destroys = 4,
	  FIELDS(f_destroy_qp) },
	{ IOC(POST_SEND, post, reserved), .weight = 6, .vbase = 6, FIELDS(f_post) },
	{ IOC(POST_RECV, post, reserved), .weight = 5, .vbase = 6, FIELDS(f_post) },
	{ IOC(CREATE_AH, create_ah, attr), .weight = 2, FIELDS(f_create_ah),
	  .out = { OUT(create_ah, handle, K_AH) } },
	{ IOC(DESTROY_AH, destroy, reserved), .weight = 2, .destroys = 4, FIELDS(f_destroy_ah) },
	{ IOC(CREATE_SRQ, create_srq, attr), .weight = 4, FIELDS(f_create_srq),
	  .out = { OUT(create_srq, handle, K_SRQ), RING(create_srq, ring),
		   OUT(create_srq, srq_num, K_SRQN) } },
	{ IOC(MODIFY_SRQ, modify_srq, attr), .weight = 3, FIELDS(f_modify_srq) },
	{ IOC(QUERY_SRQ, modify_srq, attr), .weight = 1, FIELDS(f_query_srq) },
	{ IOC(DESTROY_SRQ, destroy_reported, reserved), .weight = 3, .destroys = 4,
	  FIELDS(f_destroy_srq) },
	{ IOC(POST_SRQ_RECV, post, reserved), .weight = 3, .vbase = 6, FIELDS(f_post) },
	{ IOC(DOORBELL, doorbell, reserved), .weight = 4, FIELDS(f_doorbell) },
	{ IOC(QUERY_QP, query_qp, sq_sig_all), .weight = 1, FIELDS(f_query_qp) },
	{ IOC(OPEN_XRCD, open_xrcd, reserved), .weight = 3, FIELDS(f_open_xrcd),
	  .out = { OUT(open_xrcd, handle, K_XRCD) } },
	{ IOC(CLOSE_XRCD, destroy, reserved), .weight = 2, .destroys = 4, FIELDS(f_close_xrcd) },
	{ IOC(CREATE_XRC_RCV_QP, create_xrc_rcv_qp, reserved), .weight = 2, FIELDS(f_modify_qp),
	  .out = { OUT(create_xrc_rcv_qp, qp_num, K_RCVQPN) } },
	{ IOC(REG_XRC_RCV_QP, xrc_rcv_qp_reg, qp_num), .weight = 2, FIELDS(f_xrc_rcv_qp_reg) },
	{ IOC(UNREG_XRC_RCV_QP, xrc_rcv_qp_reg, qp_num), .weight = 2, FIELDS(f_xrc_rcv_qp_reg) },

	{ .name = "open", .nr = -1, .pseudo = P_OPEN, .weight = 2, .out = { { K_CTX, -1, 4 } } },
	{ .name = "close", .nr = -1, .pseudo = P_CLOSE, .destroys = 1, .weight = 3,
	  FIELDS(f_close) },
	{ .name = "mmap", .nr = -1, .pseudo = P_MMAP, .weight = 5, FIELDS(f_mmap),
	  .out = { { K_MAP, -1, 8 } } },
	{ .name = "munmap", .nr = -1, .pseudo = P_MUNMAP, .destroys = 1, .weight = 2,
	  FIELDS(f_munmap) },
	{ .name = "ring_write", .nr = -1, .pseudo = P_RINGW, .weight = 6, FIELDS(f_ring_write) },
	{ .name = "read_events", .nr = -1, .pseudo = P_READEV, .weight = 4,
	  FIELDS(f_read_events) },
	{ .name = "fork", .nr = -1, .pseudo = P_FORK, .weight = 1, FIELDS(f_fork) },
	{ .name = "delay", .nr = -1, .pseudo = P_DELAY, .weight = 2, FIELDS(f_delay) },
	{ .name = "peer_qp", .nr = -1, .pseudo = P_PEER_QP, .weight = 3, FIELDS(f_peer_qp),
	  .out = { { K_PEER, -1, 4 }, { K_PEERQPN, -1, 4 } } },
	{ .name = "peer_send", .nr = -1, .pseudo = P_PEER_SEND, .weight = 6,
	  FIELDS(f_peer_send) },
	/* the fuzzed device removed (only where gen_race() puts it: weight 0) */
	{ .name = "remove_device", .nr = -1, .pseudo = P_REMOVE },
};

const int fz_ndescs = sizeof(fz_descs) / sizeof(fz_descs[0]);
_Static_assert(sizeof(fz_descs) / sizeof(fz_descs[0]) <= FZ_MAXDESCS, "fz_cmd_ns[] too small");

int fz_desc_find(const char *name)
{
	int i;

	for (i = 0; i < fz_ndescs; i++)
		if (!strcmp(fz_descs[i].name, name))
			return i;
	return -1;
}

#define SET(...)	{ .v = { __VA_ARGS__ }, \
			  .n = sizeof((uint64_t[]){ __VA_ARGS__ }) / sizeof(uint64_t) }

static const struct { uint64_t v[24]; int n; } sets[S_NSETS] = {
	[S_SMALL] = SET(0, 1, 2, 3, 4, 7, 8, 16, 31, 32, 64, 127, 128, 255, 256, 1024, 4096,
			65535, 65536, 0x7fffffff, 0x80000000, 0xffffffff),
	[S_CQE] = SET(1, 2, 4, 16, 64, 256, 0, 4096, 0x40000, 0x40001, 0xffffffff),
	[S_WR] = SET(1, 2, 4, 16, 64, 0, 3, 65, 256, 0x4000, 0x4001, 0xffffffff),
	[S_SGE] = SET(1, 2, 0, 4, 16, 17, 0xffffffff),
	[S_QPT] = SET(OIB_UVERBS_QPT_RC, OIB_UVERBS_QPT_UC, OIB_UVERBS_QPT_UD,
		      OIB_UVERBS_QPT_XRC_INI, OIB_UVERBS_QPT_XRC_TGT, OIB_UVERBS_QPT_GSI,
		      OIB_UVERBS_QPT_SMI, 7, 0xffffffff),
	[S_QPS] = SET(0, 1, 2, 3, 4, 5, 6, 7, 0xffffffff),
	[S_MTU] = SET(1, 2, 3, 4, 5, 0, 6, 0xffffffff),
	[S_PORT] = SET(1, 0, 2, 3, 255),
	[S_OPCODE] = SET(OIB_UVERBS_WR_SEND, OIB_UVERBS_WR_RDMA_WRITE, OIB_UVERBS_WR_RDMA_READ,
			 OIB_UVERBS_WR_SEND_WITH_IMM, OIB_UVERBS_WR_RDMA_WRITE_WITH_IMM,
			 OIB_UVERBS_WR_ATOMIC_CMP_AND_SWP, OIB_UVERBS_WR_ATOMIC_FETCH_AND_ADD, 7,
			 0xffffffff),
	[S_SRQT] = SET(OIB_UVERBS_SRQT_BASIC, OIB_UVERBS_SRQT_XRC, 2),
	[S_OFLAGS] = SET(O_CREAT, 0, O_CREAT | O_EXCL, O_EXCL, O_RDWR, 0xffffffff),
	/* ring_write: producer +1, +n, -1, way ahead; consumer; flags; an entry word; a WQE */
	[S_RINGW] = SET(0, 1, 2, 3, 4, 5, 6, 7),
	[S_KILL] = SET(0, 10, 100, 1000, 10000, 0xffffffff),
	[S_DELAY] = SET(0, 1, 5, 20, 100, 500, 2000),
	[S_PEEROP] = SET(OIB_UVERBS_WR_SEND, OIB_UVERBS_WR_RDMA_WRITE, OIB_UVERBS_WR_RDMA_READ,
			 OIB_UVERBS_WR_SEND_WITH_IMM, OIB_UVERBS_WR_ATOMIC_FETCH_AND_ADD),
	[S_LEN] = SET(64, 4096, 0, 1, 4095, 8192, 65536, FZ_BUF, FZ_BUF + 4096, 1ull << 40,
		      0xffffffff, 0xffffffffffffffffull),
	[S_NEV] = SET(1, 2, 8, 32),
	[S_U8] = SET(0, 1, 2, 7, 14, 31, 64, 255),
	[S_PSN] = SET(0, 1, 0xffffff, 0x1000000, 0xffffffff),
};

const uint64_t *fz_set(unsigned int id, int *n)
{
	*n = sets[id].n;
	return sets[id].v;
}

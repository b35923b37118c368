/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* What the liboibv examples share: finding a device, connecting an RC QP, dying on errors. */
#ifndef OIBV_EXAMPLE_H
#define OIBV_EXAMPLE_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "oibv.h"

#define die(...) do { fprintf(stderr, __VA_ARGS__); fprintf(stderr, "\n"); exit(1); } while (0)

/* The device named @name (an oib device, oib_rxe0), or the first one if @name is NULL. */
static inline struct oibv_device *find_device(const char *name)
{
	struct oibv_device **list = oibv_get_device_list(NULL);
	int i;

	for (i = 0; list && list[i]; i++)
		if (!name || !strcmp(oibv_get_device_name(list[i]), name))
			return list[i];	/* the list stays allocated for the program's life */
	die("no oib device%s%s", name ? " " : "", name ? name : "");
}

/* INIT, RTR (to @qpn at @gid on port 1), RTS. */
static inline void connect_rc(struct oibv_qp *qp, uint32_t qpn, const union oibv_gid *gid)
{
	struct oibv_qp_attr a = {
		.qp_state = OIBV_QPS_INIT, .port_num = 1,
		.qp_access_flags = OIBV_ACCESS_LOCAL_WRITE,
	};

	if (oibv_modify_qp(qp, &a, OIBV_QP_STATE | OIBV_QP_PKEY_INDEX | OIBV_QP_PORT |
			   OIBV_QP_ACCESS_FLAGS))
		die("modify to INIT failed");
	a = (struct oibv_qp_attr){
		.qp_state = OIBV_QPS_RTR, .path_mtu = OIBV_MTU_1024, .dest_qp_num = qpn,
		.max_dest_rd_atomic = 1, .min_rnr_timer = 12,
		.ah_attr = {
			.is_global = 1, .port_num = 1, .grh = { .dgid = *gid, .hop_limit = 64 },
		},
	};
	if (oibv_modify_qp(qp, &a, OIBV_QP_STATE | OIBV_QP_AV | OIBV_QP_PATH_MTU |
			   OIBV_QP_DEST_QPN | OIBV_QP_RQ_PSN | OIBV_QP_MAX_DEST_RD_ATOMIC |
			   OIBV_QP_MIN_RNR_TIMER))
		die("modify to RTR failed");
	/*
	 * The ACK timeout: 4.096 us << 17, about 0.5 s, 8 tries.  A guest on a busy host can stall
	 * a vCPU for tenths of a second (ibv_rc_pingpong's 14, 67 ms, once ran out of retries
	 * with 64 QPs in oibv_channel_demo while the guest logged a 60 ms timer interrupt).
	 */
	a = (struct oibv_qp_attr){
		.qp_state = OIBV_QPS_RTS, .timeout = 17, .retry_cnt = 7, .rnr_retry = 7,
		.max_rd_atomic = 1,
	};
	if (oibv_modify_qp(qp, &a, OIBV_QP_STATE | OIBV_QP_SQ_PSN | OIBV_QP_TIMEOUT |
			   OIBV_QP_RETRY_CNT | OIBV_QP_RNR_RETRY | OIBV_QP_MAX_QP_RD_ATOMIC))
		die("modify to RTS failed");
}

/*
 * Over a pair of pipes (or any pair of file descriptors) to the peer: tell it @qp's number and the
 * GID of its port 1, index 0, learn its own, and connect @qp to it (connect_rc()).  Returns the
 * peer's QP number.
 */
static inline uint32_t connect_over_pipes(struct oibv_qp *qp, int rfd, int wfd)
{
	union oibv_gid gid, rgid;
	char line[128], c;
	uint32_t rqpn;
	int i, off;

	if (oibv_query_gid(qp->context, 1, 0, &gid))
		die("query_gid failed");
	off = snprintf(line, sizeof(line), "%06x ", qp->qp_num);
	for (i = 0; i < 16; i++)
		off += snprintf(line + off, sizeof(line) - off, "%02x", gid.raw[i]);
	line[off++] = '\n';
	if (write(wfd, line, off) != off)
		die("cannot write to the peer");
	/* the peer's line: unbuffered reads, so nothing after it is taken from the pipe */
	for (off = 0; off < (int)sizeof(line) - 1 && read(rfd, &c, 1) == 1 && c != '\n'; off++)
		line[off] = c;
	line[off] = '\0';
	if (sscanf(line, "%x", &rqpn) != 1 || off != 7 + 32)
		die("cannot read the peer's QP number and GID");
	for (i = 0; i < 16; i++)
		if (sscanf(line + 7 + 2 * i, "%2hhx", &rgid.raw[i]) != 1)
			die("cannot read the peer's GID");
	connect_rc(qp, rqpn, &rgid);
	return rqpn;
}

/* Tell the peer we are ready (our first receives posted) and wait until it is. */
static inline void sync_over_pipes(int rfd, int wfd)
{
	char c;

	if (write(wfd, "R", 1) != 1 || read(rfd, &c, 1) != 1 || c != 'R')
		die("cannot synchronise with the peer");
}

#endif /* OIBV_EXAMPLE_H */

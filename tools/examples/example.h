/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* What the liboibv examples share: finding a device, connecting an RC QP, dying on errors. */
#ifndef OIBV_EXAMPLE_H
#define OIBV_EXAMPLE_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	a = (struct oibv_qp_attr){
		.qp_state = OIBV_QPS_RTS, .timeout = 14, .retry_cnt = 7, .rnr_retry = 7,
		.max_rd_atomic = 1,
	};
	if (oibv_modify_qp(qp, &a, OIBV_QP_STATE | OIBV_QP_SQ_PSN | OIBV_QP_TIMEOUT |
			   OIBV_QP_RETRY_CNT | OIBV_QP_RNR_RETRY | OIBV_QP_MAX_QP_RD_ATOMIC))
		die("modify to RTS failed");
}

#endif /* OIBV_EXAMPLE_H */

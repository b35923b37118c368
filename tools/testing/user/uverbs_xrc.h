/* SPDX-License-Identifier: GPL-2.0-only */
/* What oib_uverbs_xrc's files share: two devices, the initiator side, the domain's file. */
#ifndef OIB_UVERBS_XRC_H
#define OIB_UVERBS_XRC_H

#include <stdbool.h>
#include <stdint.h>
#include "oibv.h"

/* The receiving device is test_dev (uverbs_util.h); the initiators are on this one. */
extern struct oibv_device *tx_dev;
extern char tx_ibdev[64];
extern union oibv_gid rx_gid, tx_gid;	/* GID 0 of port 1 of each */
extern struct oibv_context *rx_ctx, *tx_ctx;	/* the parent's contexts on each */

#define XRC_MSG 64	/* bytes of each message: "srq <num> seq <n>" */

/* The initiator side: an XRC initiator QP on tx_dev, its CQ and a registered buffer. */
struct xrc_ini {
	struct oibv_context *ctx;
	struct oibv_pd *pd;
	struct oibv_cq *cq;
	struct oibv_mr *mr;
	struct oibv_qp *qp;
	char *buf;
};

bool ini_make(struct xrc_ini *s, struct oibv_context *ctx);
void ini_free(struct xrc_ini *s);
/* Connect the initiator to the receive QP @rcv_qpn on test_dev (short timeout, 2 retries). */
bool ini_connect(struct xrc_ini *s, uint32_t rcv_qpn);
/* Send message @seq to XRC SRQ @srq_num, signalled; wait for its completion's status. */
int ini_send(struct xrc_ini *s, uint32_t srq_num, uint32_t seq);

/* Every attribute a receive QP takes (RESET->INIT and INIT->RTR of an XRC target). */
#define XRC_RCV_MASK (OIBV_QP_PKEY_INDEX | OIBV_QP_PORT | OIBV_QP_ACCESS_FLAGS | OIBV_QP_AV | \
		      OIBV_QP_PATH_MTU | OIBV_QP_DEST_QPN | OIBV_QP_RQ_PSN | \
		      OIBV_QP_MAX_DEST_RD_ATOMIC | OIBV_QP_MIN_RNR_TIMER)

/* The attributes of a receive QP whose initiator is @ini_qpn on tx_dev (RTR, no STATE bit). */
void rcv_qp_attr(uint32_t ini_qpn, struct oibv_qp_attr *a);

/* The receive side of one process: a domain, an XRC SRQ on its own CQ, receives posted. */
struct xrc_rcv {
	struct oibv_context *ctx;
	struct oibv_xrcd *xrcd;
	bool own_xrcd;		/* opened by rcv_make(), closed by rcv_free() */
	struct oibv_pd *pd;
	struct oibv_cq *cq;
	struct oibv_mr *mr;
	struct oibv_srq *srq;
	char *buf;
};

bool rcv_make(struct xrc_rcv *r, struct oibv_context *ctx, int fd, int oflags);
/* The same on the open domain @xrcd (left open by rcv_free()). */
bool rcv_make_on(struct xrc_rcv *r, struct oibv_context *ctx, struct oibv_xrcd *xrcd);
/* Make the domain's receive QP for the initiator @ini_qpn. */
int rcv_qp_make(struct oibv_xrcd *d, uint32_t ini_qpn, uint32_t *qpn);
/* Poll r->cq once: received messages counted in *@good (named our SRQ) or *@bad. */
int rcv_poll(struct xrc_rcv *r, int *good, int *bad);
void rcv_free(struct xrc_rcv *r);

/* The debugfs list of test_dev's receive QPs: is @qpn (0: any) on it?  -1 on error. */
int rcv_qp_listed(uint32_t qpn);
/* test_dev's domain table entries (sysfs xrcd_files), -1 on error. */
int xrcd_files(void);
/* Wait (10 s at most) until the table has @n entries and @qpn is (not) listed, as @listed. */
bool xrc_state_is(int n, uint32_t qpn, bool listed);
/* A fresh domain file, open read-write; its path in @path. */
int domain_file(char *path, size_t len);

/* uverbs_xrc_procs.c */
bool xrc_scenario(void);
bool xrc_scenario_kill9(void);
bool xrc_kill9_before_publish(void);
bool xrc_kill9_after_open(void);
bool xrc_kill9_fuzz(void);

#endif /* OIB_UVERBS_XRC_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/* What the oib_uverbs userspace tests share: the device under test, QP pairs, waiting. */
#ifndef OIB_UVERBS_UTIL_H
#define OIB_UVERBS_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <oib/uverbs.h>
#include "oibv.h"

/* The software device the tests run on (made by setup_device()). */
extern char test_ibdev[64];		/* oib_rxe<N> */
extern struct oibv_device *test_dev;	/* its oib_uverbs<N> */
extern int base_objects;		/* its live objects before the tests (other clients') */

bool setup_device(void);
bool remove_device(void);
/* Live verbs objects of the device (debugfs objects file), all types together; -1 on error. */
int live_objects(void);
/* Wait (10 s at most) until the device's live objects are @n again. */
bool objects_back_to(int n);
/* Milliseconds on the monotonic clock. */
int64_t now_ms(void);

/* A raw command on @fd: 0 or errno. */
int raw_cmd(int fd, unsigned int nr, void *cmd, uint32_t size);

#define BUF_SIZE 65536

/* Everything a send between two connected QPs of one context needs. */
struct pair {
	struct oibv_context *ctx;
	struct oibv_pd *pd;
	struct oibv_cq *cq_a, *cq_b;	/* A's send and receive CQ, B's */
	struct oibv_qp *a, *b;
	struct oibv_srq *srq;		/* B's receives come from it (pair_setup_srq()) */
	struct oibv_mr *mr;
	char *buf;			/* BUF_SIZE bytes, registered */
};

/* An RC or UC QP through INIT and RTR to RTS, its peer @remote_qpn at @gid (port 1). */
bool qp_connect(struct oibv_qp *qp, uint32_t remote_qpn, const union oibv_gid *gid);

/* Two QPs of @type on @ctx (CQs given, or made without channel), connected to each other. */
bool pair_setup(struct pair *p, struct oibv_context *ctx, enum oibv_qp_type type,
		struct oibv_cq *cq_a, struct oibv_cq *cq_b);
/* The same, own CQs, QPs left in RESET. */
bool pair_setup_qps(struct pair *p, struct oibv_context *ctx, enum oibv_qp_type type);
/* As pair_setup() with own CQs, B's receives from an SRQ of 64 requests on the pair's PD. */
bool pair_setup_srq(struct pair *p, struct oibv_context *ctx, enum oibv_qp_type type);
void pair_teardown(struct pair *p);
/*
 * Unmap a ring (a pair's rings) without destroying anything; liboibv forgets it.  A mapped
 * ring holds the context's file open: closing the file frees the context after the last goes.
 */
void unmap_ring(struct oibv_ring *r);
void pair_unmap(struct pair *p);
void pair_teardown_cqs(struct pair *p, bool own_cqs);
/* B posts a receive at buf + 32768, A sends @len bytes from buf (signalled, @flags added). */
bool pair_send(struct pair *p, uint32_t len, unsigned int flags, uint64_t wr_id);
/* Poll @cq until @n completions arrived (10 s at most); stores them in @wc. */
bool poll_n(struct oibv_cq *cq, int n, struct oibv_wc *wc);
/* Wait until @fd is readable (10 s at most). */
bool readable(int fd, int timeout_ms);

#endif /* OIB_UVERBS_UTIL_H */

/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* liboibv internals shared between its files. */
#ifndef OIBV_PRIV_H
#define OIBV_PRIV_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

int oibv_cmd(int fd, unsigned int nr, void *cmd, size_t size);

/*
 * An object's events acknowledged (oibv_cq.c): @n more in *@completed, under @mutex; its destroy
 * waits until *@completed is what the kernel says was read, then the mutex and cond go.
 */
void oibv_events_ack(pthread_mutex_t *mutex, pthread_cond_t *cond, uint32_t *completed,
		     uint32_t n);
void oibv_events_wait_done(pthread_mutex_t *mutex, pthread_cond_t *cond,
			   const uint32_t *completed, uint32_t reported);

/* oibv_ring.c: mapped rings. */
struct oib_uverbs_ring;
struct oib_uverbs_wc;
struct oibv_ring;
struct oibv_wc;
struct oibv_qp;
struct oibv_send_wr;
struct oibv_recv_wr;
struct oib_uverbs_send_wr;
struct oibv_context;
int oibv_ring_map(struct oibv_context *ctx, struct oibv_ring *r, const struct oib_uverbs_ring *u,
		  uint32_t max_sge);
void oibv_ring_unmap(struct oibv_context *ctx, struct oibv_ring *r);
void oibv_ring_unmap_all(struct oibv_context *ctx);
int oibv_poll_ring(struct oibv_ring *r, int num_entries, struct oibv_wc *wc);
int oibv_post_send_ring(struct oibv_qp *qp, struct oibv_send_wr *wr,
			struct oibv_send_wr **bad_wr);
int oibv_post_recv_ring(struct oibv_ring *r, struct oibv_recv_wr *wr,
			struct oibv_recv_wr **bad_wr);
int oibv_ring_flushing(struct oibv_ring *r);
void oibv_wc_from_user(struct oibv_wc *wc, const struct oib_uverbs_wc *u);
void oibv_send_wr(const struct oibv_qp *qp, const struct oibv_send_wr *w,
		  struct oib_uverbs_send_wr *u);
struct oib_uverbs_modify_qp;
struct oibv_qp_attr;
void oibv_qp_attr_cmd(struct oib_uverbs_modify_qp *c, const struct oibv_qp_attr *a, int mask);
struct oib_uverbs_create_srq;
struct oibv_pd;
struct oibv_srq;
struct oibv_srq_init_attr;
struct oibv_srq *oibv_srq_create(struct oibv_pd *pd, struct oibv_srq_init_attr *attr,
				 struct oib_uverbs_create_srq *c);

#endif /* OIBV_PRIV_H */

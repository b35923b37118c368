/* SPDX-License-Identifier: GPL-2.0-only */
/* oib_uverbs_user's cases beyond the first slice: RDMA, atomics, MR access, UD, QP1, SRQ. */
#ifndef OIB_UVERBS_RDMA_H
#define OIB_UVERBS_RDMA_H

#include <stdbool.h>

struct oibv_context;
/* The suite's context (oib_uverbs_user.c). */
struct oibv_context *ctx_for_tests(void);

bool t_rc_rdma(void);
bool t_uc_rdma_write(void);
bool t_rc_atomics(void);
bool t_mr_permissions(void);
bool t_ud_send_recv(void);
bool t_ud_checks(void);
bool t_qp1_root(void);

/* uverbs_procs.c */
bool t_rc_between_processes(void);
bool t_uc_between_processes(void);
bool t_ud_between_processes(void);

/* uverbs_srq.c */
bool t_srq_recv(void);
bool t_srq_limit_event(void);
bool t_srq_checks(void);

#endif /* OIB_UVERBS_RDMA_H */

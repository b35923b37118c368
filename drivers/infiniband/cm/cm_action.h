/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The actions of the state table (enum cm_action), each carried out by cm_run_locked() with the
 * id's mutex held and the state not yet changed; 0 lets the step happen, a -errno refuses it.
 * Setting up a connection: cm_connect.c; tearing it down: cm_release.c; SIDR: cm_sidr.c.
 */
#ifndef OIB_CM_ACTION_H
#define OIB_CM_ACTION_H

#include "cm_id.h"

#define CM_ACTION(name)	int cm_act_##name(struct cm_id_priv *priv, struct cm_ctx *ctx)

/* cm_connect.c */
CM_ACTION(spawn);
CM_ACTION(send_req);
CM_ACTION(deliver_req);
CM_ACTION(cross_passive);
CM_ACTION(send_mra_req);
CM_ACTION(send_mra_rep);
CM_ACTION(resend_kept);
CM_ACTION(mra_rcvd);
CM_ACTION(send_rep);
CM_ACTION(resend_rep);
CM_ACTION(deliver_rep);
CM_ACTION(send_rtu);
CM_ACTION(establish);
CM_ACTION(send_rej);
CM_ACTION(rej_rcvd);
CM_ACTION(send_rej_stale);
CM_ACTION(req_timeout);
CM_ACTION(rep_timeout);
CM_ACTION(destroy_rej_timeout);
CM_ACTION(destroy_rej);

/* cm_release.c */
CM_ACTION(stale_dreq);
CM_ACTION(send_dreq);
CM_ACTION(dreq_rcvd);
CM_ACTION(dreq_crossed);
CM_ACTION(send_drep);
CM_ACTION(drep_rcvd);
CM_ACTION(dreq_timeout);
CM_ACTION(send_apr_unsupported);
CM_ACTION(timewait_exit);
CM_ACTION(destroy_dreq);
CM_ACTION(destroy_drep);

/* cm_sidr.c */
CM_ACTION(send_sidr_req);
CM_ACTION(deliver_sidr_req);
CM_ACTION(send_sidr_rep);
CM_ACTION(sidr_rep_rcvd);
CM_ACTION(sidr_req_timeout);
CM_ACTION(destroy_sidr_rej);

/* Shared by the files above. */
struct cm_pdata_args {			/* ctx->param of the calls with private data only */
	const void *pdata;
	u8 len;
};

int cm_bind_port_locked(struct cm_id_priv *priv, const union oib_gid *sgid);
void cm_path_av(struct oib_ah_attr *av, const struct oib_cm_path *path);
int cm_send_msg_locked(struct cm_id_priv *priv, struct cm_msg *msg, bool await);
int cm_send_kept_locked(struct cm_id_priv *priv, struct cm_msg *msg);
int cm_queue_simple(struct cm_id_priv *priv, enum oib_cm_event_type type, int status);
int cm_queue_pdata(struct cm_id_priv *priv, struct oib_cm_event *event, const struct cm_pdata *pd);

#endif /* OIB_CM_ACTION_H */

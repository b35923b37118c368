// SPDX-License-Identifier: GPL-2.0-only
/*
 * The QP of a connection.  The CM moves it along with the connection (INIT, RTR, RTS, ERR) from
 * the attributes the two sides negotiated, and while a passive side waits to be established it
 * watches the QP (oib_qp_watch(), Documentation/core.md): the QP's communication-established
 * event and the first receive completion polled from it in RTR become signals for the id's work.
 * The same attributes are what oib_cm_init_qp_attr() gives owners who move a QP themselves.
 * Which attributes a step takes follows the QP type each side of the transport has (an XRC
 * initiator requests like RC and has no receive side, an XRC target responds like RC).
 */
#include <linux/errno.h>
#include <kunit/visibility.h>
#include <oib/kunit/cm.h>
#include "cm_id.h"
#include "cm_port.h"

/* The transport a REQ from @qp asks for; a type no REQ may come from is -EINVAL. */
int cm_qp_transport(const struct oib_qp *qp)
{
	switch (qp->qp_type) {
	case OIB_QPT_RC:
		return OIB_CM_TRANSPORT_RC;
	case OIB_QPT_UC:
		return OIB_CM_TRANSPORT_UC;
	case OIB_QPT_XRC_INI:
		return OIB_CM_TRANSPORT_XRC;
	default:
		return -EINVAL;
	}
}

/* The QP type this side of a connection needs: XRC's initiator is active, its target passive. */
static enum oib_qp_type cm_qp_type(const struct cm_id_priv *priv)
{
	switch (priv->conn.transport) {
	case OIB_CM_TRANSPORT_UC:
		return OIB_QPT_UC;
	case OIB_CM_TRANSPORT_XRC:
		return priv->passive ? OIB_QPT_XRC_TGT : OIB_QPT_XRC_INI;
	default:
		return OIB_QPT_RC;
	}
}

/* Whether this side's QP answers reads and atomics (and RNR NAKs): RC, an XRC target. */
static bool cm_qp_responds(const struct cm_id_priv *priv)
{
	return cm_qp_type(priv) == OIB_QPT_RC || cm_qp_type(priv) == OIB_QPT_XRC_TGT;
}

/* Whether it sends reliably (ACK timeout, retries, reads): RC, an XRC initiator. */
static bool cm_qp_requests(const struct cm_id_priv *priv)
{
	return cm_qp_type(priv) == OIB_QPT_RC || cm_qp_type(priv) == OIB_QPT_XRC_INI;
}

/* Take @qp for the connection (whose transport is known): its type must be this side's. */
int cm_qp_attach_locked(struct cm_id_priv *priv, struct oib_qp *qp)
{
	lockdep_assert_held(&priv->mutex);
	if (IS_ERR_OR_NULL(qp) || qp->device != priv->id.device ||
	    qp->qp_type != cm_qp_type(priv) || qp->real_qp ||
	    READ_ONCE(qp->state) > OIB_QPS_INIT || priv->watching)
		return -EINVAL;
	priv->id.qp = qp;
	WRITE_ONCE(priv->qp_num, qp->qp_num);
	return 0;
}

/* What the peer may do to the QP: reads and atomics if the connection gave it resources. */
static int cm_qp_access(const struct cm_id_priv *priv)
{
	int access = OIB_ACCESS_LOCAL_WRITE | OIB_ACCESS_REMOTE_WRITE;

	if (priv->conn.max_dest_rd_atomic)
		access |= OIB_ACCESS_REMOTE_READ | OIB_ACCESS_REMOTE_ATOMIC;
	return access;
}

static int cm_qp_init_attr(struct cm_id_priv *priv, struct oib_qp_attr *attr, int *mask)
{
	attr->port_num = priv->port->port_num;
	attr->pkey_index = priv->conn.pkey_index;
	attr->qp_access_flags = cm_qp_access(priv);
	*mask = OIB_QP_STATE | OIB_QP_PORT | OIB_QP_PKEY_INDEX | OIB_QP_ACCESS_FLAGS;
	return 0;
}

static int cm_qp_rtr_attr(struct cm_id_priv *priv, struct oib_qp_attr *attr, int *mask)
{
	if (!priv->conn.remote_known)
		return -EINVAL;
	attr->ah_attr = priv->conn.av;
	attr->path_mtu = priv->conn.mtu;
	attr->dest_qp_num = priv->conn.remote_qpn;
	attr->rq_psn = priv->conn.rq_psn;
	/*
	 * The access again: a QP its owner took to INIT before the connection's resources were
	 * known (as the CMA does, to post receives early) gets them here.
	 */
	attr->qp_access_flags = cm_qp_access(priv);
	*mask = OIB_QP_STATE | OIB_QP_AV | OIB_QP_PATH_MTU | OIB_QP_DEST_QPN | OIB_QP_RQ_PSN |
		OIB_QP_ACCESS_FLAGS;
	if (cm_qp_responds(priv)) {
		attr->max_dest_rd_atomic = priv->conn.max_dest_rd_atomic;
		attr->min_rnr_timer = 0;
		*mask |= OIB_QP_MAX_DEST_RD_ATOMIC | OIB_QP_MIN_RNR_TIMER;
	}
	return 0;
}

static int cm_qp_rts_attr(struct cm_id_priv *priv, struct oib_qp_attr *attr, int *mask)
{
	if (!priv->conn.remote_known)
		return -EINVAL;
	attr->sq_psn = priv->conn.sq_psn;
	*mask = OIB_QP_STATE | OIB_QP_SQ_PSN;
	if (cm_qp_responds(priv) || cm_qp_requests(priv)) {
		attr->timeout = priv->conn.ack_timeout;
		*mask |= OIB_QP_TIMEOUT;
	}
	if (cm_qp_requests(priv)) {
		attr->retry_cnt = priv->conn.retry_count;
		attr->rnr_retry = priv->conn.rnr_retry;
		attr->max_rd_atomic = priv->conn.max_rd_atomic;
		*mask |= OIB_QP_RETRY_CNT | OIB_QP_RNR_RETRY | OIB_QP_MAX_QP_RD_ATOMIC;
	}
	return 0;
}

int cm_qp_attr_locked(struct cm_id_priv *priv, struct oib_qp_attr *attr, int *mask)
{
	enum oib_qp_state state = attr->qp_state;

	lockdep_assert_held(&priv->mutex);
	if (!priv->port)
		return -EINVAL;
	memset(attr, 0, sizeof(*attr));
	attr->qp_state = state;
	switch (state) {
	case OIB_QPS_INIT:
		return cm_qp_init_attr(priv, attr, mask);
	case OIB_QPS_RTR:
		return cm_qp_rtr_attr(priv, attr, mask);
	case OIB_QPS_RTS:
		return cm_qp_rts_attr(priv, attr, mask);
	default:
		return -EINVAL;
	}
}

/* Move the attached QP on, through each step, to @state (INIT, RTR or RTS). */
int cm_qp_move_locked(struct cm_id_priv *priv, enum oib_qp_state state)
{
	struct oib_qp *qp = priv->id.qp;
	struct oib_qp_attr attr;
	enum oib_qp_state s;
	int mask, ret;

	lockdep_assert_held(&priv->mutex);
	if (!qp)
		return 0;
	for (s = OIB_QPS_INIT; s <= state; s++) {
		if (READ_ONCE(qp->state) >= s)
			continue;
		attr.qp_state = s;
		ret = cm_qp_attr_locked(priv, &attr, &mask);
		if (!ret)
			ret = oib_modify_qp(qp, &attr, mask);
		if (ret)
			return ret;
	}
	return 0;
}

/* The connection failed or is being released: its QP flushes what it holds. */
void cm_qp_error_locked(struct cm_id_priv *priv)
{
	struct oib_qp_attr attr = { .qp_state = OIB_QPS_ERR };
	struct oib_qp *qp = priv->id.qp;

	lockdep_assert_held(&priv->mutex);
	if (qp && READ_ONCE(qp->state) != OIB_QPS_RESET && READ_ONCE(qp->state) != OIB_QPS_ERR)
		oib_modify_qp(qp, &attr, OIB_QP_STATE);
}

/* ---- The watch ---- */

/* Tests only: COMM_EST not taken, so that the first receive establishes (oib/kunit/cm.h). */
static bool cm_ignore_comm_est;

#if IS_ENABLED(CONFIG_KUNIT)
void oib_cm_ignore_comm_est(bool ignore)
{
	WRITE_ONCE(cm_ignore_comm_est, ignore);
}
EXPORT_SYMBOL_IF_KUNIT(oib_cm_ignore_comm_est);
#endif

static void cm_qp_watch_event(struct oib_qp_watch *watch, const struct oib_event *event)
{
	if (event->event == OIB_EVENT_COMM_EST && !READ_ONCE(cm_ignore_comm_est))
		cm_signal(container_of(watch, struct cm_id_priv, watch), CM_SIG_COMM_EST);
}

static void cm_qp_watch_first_recv(struct oib_qp_watch *watch)
{
	cm_signal(container_of(watch, struct cm_id_priv, watch), CM_SIG_FIRST_RECV);
}

static const struct oib_qp_watch_ops cm_qp_watch_ops = {
	.event = cm_qp_watch_event,
	.first_recv = cm_qp_watch_first_recv,
};

/* An XRC target's receives complete on its SRQs' CQs, which many QPs share: the event only. */
static const struct oib_qp_watch_ops cm_qp_watch_event_ops = {
	.event = cm_qp_watch_event,
};

int cm_qp_watch_locked(struct cm_id_priv *priv)
{
	int ret;

	lockdep_assert_held(&priv->mutex);
	if (!priv->id.qp || priv->watching)
		return 0;
	priv->watch.ops = priv->id.qp->recv_cq ? &cm_qp_watch_ops : &cm_qp_watch_event_ops;
	ret = oib_qp_watch(priv->id.qp, &priv->watch);
	priv->watching = !ret;
	return ret;
}

/*
 * The watch is no longer wanted: true if the caller must end it with oib_qp_unwatch() once it
 * has dropped the mutex (that call waits for an RCU grace period, which must not hold up the
 * port's MADs waiting for this id).  Its callbacks until then raise signals the table ignores.
 */
bool cm_qp_unwatch_locked(struct cm_id_priv *priv)
{
	lockdep_assert_held(&priv->mutex);
	if (!priv->watching)
		return false;
	priv->watching = false;
	return true;
}

void oib_cm_release_qp(struct oib_cm_id *id)
{
	struct cm_id_priv *priv;

	if (!id)
		return;
	priv = cm_id_priv(id);
	mutex_lock(&priv->mutex);
	cm_qp_error_locked(priv);
	cm_qp_unwatch_locked(priv);
	WRITE_ONCE(priv->id.qp, NULL);
	mutex_unlock(&priv->mutex);
	cm_qp_unwatch(priv);	/* also one the id's work has yet to end */
}
EXPORT_SYMBOL(oib_cm_release_qp);

/*
 * End the watch (after cm_qp_unwatch_locked() said so, or to be sure it ended): callers may
 * race (the id's work after delivering ESTABLISHED, and oib_cm_release_qp() before the owner
 * destroys the QP), so they take turns, and the second finds nothing to do.
 */
void cm_qp_unwatch(struct cm_id_priv *priv)
{
	mutex_lock(&priv->watch_mutex);
	oib_qp_unwatch(&priv->watch);
	mutex_unlock(&priv->watch_mutex);
}

int oib_cm_init_qp_attr(struct oib_cm_id *id, struct oib_qp_attr *attr, int *mask)
{
	struct cm_id_priv *priv;
	int ret;

	if (!id || !attr || !mask)
		return -EINVAL;
	priv = cm_id_priv(id);
	mutex_lock(&priv->mutex);
	ret = cm_qp_attr_locked(priv, attr, mask);
	mutex_unlock(&priv->mutex);
	return ret;
}
EXPORT_SYMBOL(oib_cm_init_qp_attr);

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Completion queues.  A CQ is owned by its creator; cq->usecnt counts the QPs that use it as send
 * or receive CQ, and oib_destroy_cq() refuses with -EBUSY until they are destroyed.  Polling and
 * arming go straight to the provider: they are the hot path.
 */
#include <linux/module.h>
#include "core_priv.h"

static const char * const oib_wc_status_names[] = {
	[OIB_WC_SUCCESS] = "success",
	[OIB_WC_LOC_LEN_ERR] = "local length error",
	[OIB_WC_LOC_QP_OP_ERR] = "local QP operation error",
	[OIB_WC_LOC_EEC_OP_ERR] = "local EE context operation error",
	[OIB_WC_LOC_PROT_ERR] = "local protection error",
	[OIB_WC_WR_FLUSH_ERR] = "WR flushed",
	[OIB_WC_MW_BIND_ERR] = "memory bind operation error",
	[OIB_WC_BAD_RESP_ERR] = "bad response error",
	[OIB_WC_LOC_ACCESS_ERR] = "local access error",
	[OIB_WC_REM_INV_REQ_ERR] = "remote invalid request error",
	[OIB_WC_REM_ACCESS_ERR] = "remote access error",
	[OIB_WC_REM_OP_ERR] = "remote operation error",
	[OIB_WC_RETRY_EXC_ERR] = "transport retry counter exceeded",
	[OIB_WC_RNR_RETRY_EXC_ERR] = "RNR retry counter exceeded",
	[OIB_WC_LOC_RDD_VIOL_ERR] = "local RDD violation error",
	[OIB_WC_REM_INV_RD_REQ_ERR] = "remote invalid RD request",
	[OIB_WC_REM_ABORT_ERR] = "operation aborted",
	[OIB_WC_INV_EECN_ERR] = "invalid EE context number",
	[OIB_WC_INV_EEC_STATE_ERR] = "invalid EE context state",
	[OIB_WC_FATAL_ERR] = "fatal error",
	[OIB_WC_RESP_TIMEOUT_ERR] = "response timeout error",
	[OIB_WC_GENERAL_ERR] = "general error",
};

const char *oib_wc_status_msg(enum oib_wc_status status)
{
	if (status < ARRAY_SIZE(oib_wc_status_names))
		return oib_wc_status_names[status];
	return "unknown status";
}
EXPORT_SYMBOL(oib_wc_status_msg);

struct oib_cq *oib_create_cq(struct oib_device *device, oib_comp_handler_t comp_handler,
			     oib_event_handler_t event_handler, void *cq_context,
			     const struct oib_cq_init_attr *attr)
{
	struct oib_cq *cq;
	int ret;

	if (!device || !attr)
		return ERR_PTR(-EINVAL);
	if (READ_ONCE(device->reg_state) != OIB_DEV_REGISTERED)
		return ERR_PTR(-ENODEV);
	if (!attr->cqe || attr->cqe > device->attrs.max_cqe || attr->flags ||
	    attr->comp_vector >= device->attrs.num_comp_vectors)
		return ERR_PTR(-EINVAL);

	cq = oib_alloc_object(device, OIB_OBJ_CQ, device->ops->size_cq);
	if (IS_ERR(cq))
		return cq;
	cq->device = device;
	cq->comp_handler = comp_handler;
	cq->event_handler = event_handler;
	cq->cq_context = cq_context;
	cq->comp_vector = attr->comp_vector;
	atomic_set(&cq->usecnt, 0);
	xa_init(&cq->watch_qps);

	ret = device->ops->create_cq(cq, attr);
	if (ret) {
		oib_free_object(device, OIB_OBJ_CQ, cq);
		return ERR_PTR(ret);
	}
	oib_res_add(device, OIB_OBJ_CQ, &cq->res, _RET_IP_);
	return cq;
}
EXPORT_SYMBOL(oib_create_cq);

/*
 * The provider's destroy (no completion handler runs after it), then, for a CQ the core polls,
 * the poller's last stop (cq_poll.c), then the memory.
 */
void oib_cq_destroy(struct oib_cq *cq)
{
	oib_res_del(cq->device, OIB_OBJ_CQ, &cq->res);
	cq->device->ops->destroy_cq(cq);
	if (cq->managed)
		oib_cq_poller_stop(cq);
	xa_destroy(&cq->watch_qps);	/* empty: a watched QP holds the CQ */
	oib_free_object(cq->device, OIB_OBJ_CQ, cq);
}

int oib_destroy_cq(struct oib_cq *cq)
{
	if (IS_ERR_OR_NULL(cq) || cq->managed)
		return -EINVAL;
	if (atomic_read(&cq->usecnt))
		return -EBUSY;
	oib_cq_destroy(cq);
	return 0;
}
EXPORT_SYMBOL(oib_destroy_cq);

int oib_poll_cq(struct oib_cq *cq, int num_entries, struct oib_wc *wc)
{
	int n;

	if (unlikely(num_entries < 0))
		return -EINVAL;
	n = cq->device->ops->poll_cq(cq, num_entries, wc);
	if (unlikely(atomic_read(&cq->watches)) && n > 0)
		oib_qp_watch_polled(cq, wc, n);
	return n;
}
EXPORT_SYMBOL(oib_poll_cq);

int oib_req_notify_cq(struct oib_cq *cq, enum oib_cq_notify_flags flags)
{
	if (unlikely((flags & OIB_CQ_SOLICITED_MASK) == 0 ||
		     (flags & OIB_CQ_SOLICITED_MASK) == OIB_CQ_SOLICITED_MASK ||
		     (flags & ~(OIB_CQ_SOLICITED_MASK | OIB_CQ_REPORT_MISSED_EVENTS))))
		return -EINVAL;
	return cq->device->ops->req_notify_cq(cq, flags);
}
EXPORT_SYMBOL(oib_req_notify_cq);

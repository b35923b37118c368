// SPDX-License-Identifier: GPL-2.0-only
/*
 * The test RNIC (oib_toolkit_rnic.h).  Connections: iw_connect finds the listener, on any test
 * RNIC, whose address takes the destination (same port; same address or a wildcard, the IPv6
 * one taking both families) on a device that has the address, and hands it a passive half;
 * accept reports CONNECT_REPLY to the active half and ESTABLISHED to the passive one; reject
 * (or no listener) reports a refused CONNECT_REPLY.  A QP moved to ERR closes its half: the
 * peer hears DISCONNECT and CLOSE, the half itself CLOSE (before accept: a CONNECT_REPLY
 * -ECONNRESET).  Every event is reported from the call that caused it, under trnic_lock, which
 * the provider contract allows (oib_iwcm queues them).  A test RNIC reaches the addresses
 * (GIDs) of every test RNIC.
 */
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include <oib/provider.h>
#include "oib_toolkit.h"
#include "oib_toolkit_rnic.h"

enum trnic_conn_state { TCONN_REQUEST, TCONN_UP, TCONN_CLOSED };

/* Every test RNIC, the listeners, every connection and event: one lock, as a fabric's. */
static DEFINE_MUTEX(trnic_lock);
static LIST_HEAD(trnic_devices);	/* struct trnic */
static LIST_HEAD(trnic_listeners);	/* struct trnic_listener */

/* A half of a connection; freed with the device of its id. */
struct trnic_conn {
	struct list_head entry;		/* trnic.conns */
	struct oib_iw_cm_id *cm_id;	/* active: from connect; passive: from accept */
	struct trnic_conn *peer;
	struct oib_qp *qp;
	enum trnic_conn_state state;
};

struct trnic_listener {
	struct list_head entry;		/* trnic_listeners */
	struct oib_iw_cm_id *cm_id;
};

struct trnic {
	struct oib_device dev;
	struct list_head entry;		/* trnic_devices */
	struct list_head conns;		/* its ids' halves */
	int connections;		/* accepted on it */
	u32 next_qpn;
};

struct trnic_qp {
	struct oib_qp qp;
	struct trnic_conn *conn;	/* under trnic_lock */
};

static struct trnic *to_trnic(struct oib_device *dev)
{
	return container_of(dev, struct trnic, dev);
}

static void trnic_report(struct oib_iw_cm_id *cm_id, enum oib_iw_cm_event_type type,
			 int status, const void *pdata, u8 len)
{
	struct oib_iw_cm_event ev = {
		.event = type,
		.status = status,
		.local_addr = cm_id->local_addr,
		.remote_addr = cm_id->remote_addr,
		.private_data = pdata,
		.private_data_len = len,
	};

	cm_id->event_handler(cm_id, &ev);
}

/* ---- CM verbs ---- */

static bool trnic_addr_takes(const struct sockaddr_storage *listen,
			     const struct sockaddr_storage *dst)
{
	const struct sockaddr_in *l4 = (const void *)listen, *d4 = (const void *)dst;
	const struct sockaddr_in6 *l6 = (const void *)listen, *d6 = (const void *)dst;

	__be16 dport = dst->ss_family == AF_INET ? d4->sin_port : d6->sin6_port;

	if (listen->ss_family == AF_INET6 && ipv6_addr_any(&l6->sin6_addr))
		return l6->sin6_port == dport;
	if (listen->ss_family != dst->ss_family)
		return false;
	if (listen->ss_family == AF_INET)
		return l4->sin_port == dport &&
		       (!l4->sin_addr.s_addr || l4->sin_addr.s_addr == d4->sin_addr.s_addr);
	return l6->sin6_port == dport && ipv6_addr_equal(&l6->sin6_addr, &d6->sin6_addr);
}

/* The listener taking @dst on a device that has the address (a specific one wins). */
static struct trnic_listener *trnic_find_listener(const struct sockaddr_storage *dst)
{
	struct trnic_listener *l, *best = NULL;
	union oib_gid gid;

	lockdep_assert_held(&trnic_lock);
	if (dst->ss_family == AF_INET)
		ipv6_addr_set_v4mapped(((const struct sockaddr_in *)dst)->sin_addr.s_addr,
				       &gid.in6);
	else
		gid.in6 = ((const struct sockaddr_in6 *)dst)->sin6_addr;
	list_for_each_entry(l, &trnic_listeners, entry) {
		if (!trnic_addr_takes(&l->cm_id->local_addr, dst) ||
		    oib_find_gid(l->cm_id->device, &gid, NULL, NULL))
			continue;
		if (!best || l->cm_id->local_addr.ss_family == dst->ss_family)
			best = l;
	}
	return best;
}

static struct trnic_conn *trnic_conn_new(struct trnic *t, struct oib_iw_cm_id *cm_id)
{
	struct trnic_conn *c = kzalloc(sizeof(*c), GFP_KERNEL);

	lockdep_assert_held(&trnic_lock);
	if (!c)
		return NULL;
	c->cm_id = cm_id;
	list_add(&c->entry, &t->conns);
	return c;
}

static void trnic_attach_qp(struct trnic_conn *c, struct oib_qp *qp)
{
	c->qp = qp;
	container_of(qp, struct trnic_qp, qp)->conn = c;
}

static int trnic_connect(struct oib_iw_cm_id *cm_id, const struct oib_iw_cm_conn_param *p)
{
	struct trnic *t = to_trnic(cm_id->device);
	struct oib_iw_cm_event req = {
		.event = OIB_IW_CM_EVENT_CONNECT_REQUEST,
		.local_addr = cm_id->remote_addr,
		.remote_addr = cm_id->local_addr,
		.private_data = p->private_data,
		.private_data_len = p->private_data_len,
		.ird = p->ord,
		.ord = p->ird,
	};
	struct trnic_conn *a, *b = NULL;
	struct trnic_listener *l;
	int ret = -ENOMEM;

	mutex_lock(&trnic_lock);
	a = trnic_conn_new(t, cm_id);
	l = trnic_find_listener(&cm_id->remote_addr);
	if (a && l)
		b = trnic_conn_new(to_trnic(l->cm_id->device), NULL);
	if (!a || (l && !b))
		goto out;
	ret = 0;
	cm_id->provider_data = a;
	trnic_attach_qp(a, p->qp);
	if (!l) {		/* nobody listens: the TCP connection is refused */
		a->state = TCONN_CLOSED;
		trnic_report(cm_id, OIB_IW_CM_EVENT_CONNECT_REPLY, -ECONNREFUSED, NULL, 0);
		goto out;
	}
	a->peer = b;
	b->peer = a;
	req.provider_data = b;
	l->cm_id->event_handler(l->cm_id, &req);
out:
	mutex_unlock(&trnic_lock);
	return ret;
}

static int trnic_accept(struct oib_iw_cm_id *cm_id, const struct oib_iw_cm_conn_param *p)
{
	struct trnic *t = to_trnic(cm_id->device);
	struct trnic_conn *b = cm_id->provider_data, *a;
	int ret = -ECONNRESET;

	mutex_lock(&trnic_lock);
	a = b->peer;
	if (b->state != TCONN_REQUEST || !a || a->state != TCONN_REQUEST)
		goto out;	/* the active side gave up meanwhile */
	ret = 0;
	b->cm_id = cm_id;
	trnic_attach_qp(b, p->qp);
	a->state = TCONN_UP;
	b->state = TCONN_UP;
	t->connections++;
	trnic_report(a->cm_id, OIB_IW_CM_EVENT_CONNECT_REPLY, 0, p->private_data,
		     p->private_data_len);
	trnic_report(cm_id, OIB_IW_CM_EVENT_ESTABLISHED, 0, NULL, 0);
out:
	mutex_unlock(&trnic_lock);
	return ret;
}

static int trnic_reject(struct oib_iw_cm_id *cm_id, const void *pdata, u8 len)
{
	struct trnic_conn *b = cm_id->provider_data, *a;

	mutex_lock(&trnic_lock);
	a = b->peer;
	b->state = TCONN_CLOSED;
	if (a && a->state == TCONN_REQUEST) {
		a->state = TCONN_CLOSED;
		trnic_report(a->cm_id, OIB_IW_CM_EVENT_CONNECT_REPLY, -ECONNREFUSED, pdata, len);
	}
	mutex_unlock(&trnic_lock);
	return 0;
}

static int trnic_create_listen(struct oib_iw_cm_id *cm_id, int backlog)
{
	struct trnic_listener *l;
	int ret = -EADDRINUSE;

	mutex_lock(&trnic_lock);
	list_for_each_entry(l, &trnic_listeners, entry)
		if (l->cm_id->device == cm_id->device &&
		    !memcmp(&l->cm_id->local_addr, &cm_id->local_addr, sizeof(cm_id->local_addr)))
			goto out;
	ret = -ENOMEM;
	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		goto out;
	ret = 0;
	l->cm_id = cm_id;
	cm_id->provider_data = l;
	list_add_tail(&l->entry, &trnic_listeners);
out:
	mutex_unlock(&trnic_lock);
	return ret;
}

static void trnic_destroy_listen(struct oib_iw_cm_id *cm_id)
{
	struct trnic_listener *l = cm_id->provider_data;

	mutex_lock(&trnic_lock);
	list_del(&l->entry);
	mutex_unlock(&trnic_lock);
	kfree(l);
}

/* The QP went to ERR: its half closes. */
static void trnic_close_locked(struct trnic_conn *c)
{
	struct trnic_conn *peer = c->peer;

	lockdep_assert_held(&trnic_lock);
	if (c->state == TCONN_REQUEST) {	/* still connecting: the attempt is reset */
		c->state = TCONN_CLOSED;
		trnic_report(c->cm_id, OIB_IW_CM_EVENT_CONNECT_REPLY, -ECONNRESET, NULL, 0);
		return;
	}
	if (c->state != TCONN_UP)
		return;
	c->state = TCONN_CLOSED;
	trnic_report(c->cm_id, OIB_IW_CM_EVENT_CLOSE, 0, NULL, 0);
	if (peer && peer->state == TCONN_UP) {
		peer->state = TCONN_CLOSED;
		trnic_report(peer->cm_id, OIB_IW_CM_EVENT_DISCONNECT, 0, NULL, 0);
		trnic_report(peer->cm_id, OIB_IW_CM_EVENT_CLOSE, 0, NULL, 0);
	}
}

/* ---- Verbs objects without a data path ---- */

static int trnic_query_device(struct oib_device *dev, struct oib_device_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->max_qp = 64;
	attr->max_qp_wr = 64;
	attr->max_send_sge = 4;
	attr->max_recv_sge = 4;
	attr->max_cq = 64;
	attr->max_cqe = 4096;
	attr->max_mr = 64;
	attr->max_pd = 64;
	attr->max_qp_rd_atom = 16;
	attr->max_qp_init_rd_atom = 16;
	attr->max_inline_data = 64;
	attr->max_pkeys = 1;
	attr->num_comp_vectors = 1;
	return 0;
}

static int trnic_query_port(struct oib_device *dev, u32 port, struct oib_port_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->state = OIB_PORT_ACTIVE;
	attr->phys_state = OIB_PORT_PHYS_LINK_UP;
	attr->max_mtu = OIB_MTU_1024;
	attr->active_mtu = OIB_MTU_1024;
	attr->max_msg_sz = 1 << 20;
	attr->link_layer = OIB_LINK_LAYER_ETHERNET;
	return 0;
}

static int trnic_port_immutable(struct oib_device *dev, u32 port,
				struct oib_port_immutable *imm)
{
	imm->gid_tbl_len = 16;
	imm->pkey_tbl_len = 1;
	imm->core_cap_flags = OIB_CORE_CAP_IW_CM;
	imm->link_layer = OIB_LINK_LAYER_ETHERNET;
	return 0;
}

static int trnic_ok_pd(struct oib_pd *pd)
{
	return 0;
}

static void trnic_no_pd(struct oib_pd *pd)
{
}

static int trnic_ok_cq(struct oib_cq *cq, const struct oib_cq_init_attr *attr)
{
	return 0;
}

static void trnic_no_cq(struct oib_cq *cq)
{
}

static int trnic_poll_cq(struct oib_cq *cq, int n, struct oib_wc *wc)
{
	return 0;
}

static int trnic_notify_cq(struct oib_cq *cq, enum oib_cq_notify_flags flags)
{
	return 0;
}

static int trnic_create_qp(struct oib_qp *qp, struct oib_qp_init_attr *attr)
{
	struct trnic *t = to_trnic(qp->device);

	if (attr->qp_type != OIB_QPT_RC)
		return -EOPNOTSUPP;
	mutex_lock(&trnic_lock);
	qp->qp_num = 2 + t->next_qpn++;
	mutex_unlock(&trnic_lock);
	return 0;
}

/* RTR and RTS: the connection is up already; ERR closes it. */
static int trnic_modify_qp(struct oib_qp *qp, struct oib_qp_attr *attr, int mask)
{
	struct trnic_qp *tqp = container_of(qp, struct trnic_qp, qp);

	if (!(mask & OIB_QP_STATE) || attr->qp_state != OIB_QPS_ERR)
		return 0;
	mutex_lock(&trnic_lock);
	if (tqp->conn)
		trnic_close_locked(tqp->conn);
	mutex_unlock(&trnic_lock);
	return 0;
}

static int trnic_query_qp(struct oib_qp *qp, struct oib_qp_attr *attr, int mask,
			  struct oib_qp_init_attr *init)
{
	return 0;
}

static void trnic_destroy_qp(struct oib_qp *qp)
{
	struct trnic_qp *tqp = container_of(qp, struct trnic_qp, qp);

	mutex_lock(&trnic_lock);
	if (tqp->conn) {
		trnic_close_locked(tqp->conn);
		tqp->conn->qp = NULL;
	}
	mutex_unlock(&trnic_lock);
}

static int trnic_post_send(struct oib_qp *qp, const struct oib_send_wr *wr,
			   const struct oib_send_wr **bad)
{
	*bad = wr;
	return -EOPNOTSUPP;
}

static int trnic_post_recv(struct oib_qp *qp, const struct oib_recv_wr *wr,
			   const struct oib_recv_wr **bad)
{
	*bad = wr;
	return -EOPNOTSUPP;
}

static int trnic_create_srq(struct oib_srq *srq, struct oib_srq_init_attr *attr)
{
	return -EOPNOTSUPP;
}

static int trnic_modify_srq(struct oib_srq *srq, struct oib_srq_attr *attr,
			    enum oib_srq_attr_mask mask)
{
	return -EOPNOTSUPP;
}

static int trnic_query_srq(struct oib_srq *srq, struct oib_srq_attr *attr)
{
	return -EOPNOTSUPP;
}

static void trnic_destroy_srq(struct oib_srq *srq)
{
}

static int trnic_post_srq_recv(struct oib_srq *srq, const struct oib_recv_wr *wr,
			       const struct oib_recv_wr **bad)
{
	*bad = wr;
	return -EOPNOTSUPP;
}

static int trnic_dma_mr(struct oib_mr *mr, int access)
{
	return -EOPNOTSUPP;
}

static int trnic_kernel_mr(struct oib_mr *mr, void *addr, size_t len, int access)
{
	return -EOPNOTSUPP;
}

static void trnic_dereg_mr(struct oib_mr *mr)
{
}

static int trnic_create_ah(struct oib_ah *ah)
{
	return -EOPNOTSUPP;
}

static void trnic_destroy_ah(struct oib_ah *ah)
{
}

/* Whether some test RNIC has @dgid: the fabric is every test RNIC. */
static int trnic_reach(struct oib_device *dev, u32 port, const union oib_gid *dgid, u8 *hops)
{
	struct trnic *t;
	int ret = -EHOSTUNREACH;

	mutex_lock(&trnic_lock);
	list_for_each_entry(t, &trnic_devices, entry)
		if (!oib_find_gid(&t->dev, dgid, NULL, NULL))
			ret = 0;
	mutex_unlock(&trnic_lock);
	*hops = 64;
	return ret;
}

static void trnic_dealloc(struct oib_device *dev)
{
	struct trnic *t = to_trnic(dev);
	struct trnic_conn *c, *next;

	mutex_lock(&trnic_lock);
	list_for_each_entry_safe(c, next, &t->conns, entry) {
		if (c->peer)
			c->peer->peer = NULL;
		kfree(c);
	}
	mutex_unlock(&trnic_lock);
}

static const struct oib_device_ops trnic_ops = {
	.owner = THIS_MODULE,
	.size_pd = sizeof(struct oib_pd), .size_cq = sizeof(struct oib_cq),
	.size_qp = sizeof(struct trnic_qp), .size_srq = sizeof(struct oib_srq),
	.size_mr = sizeof(struct oib_mr), .size_ah = sizeof(struct oib_ah),
	.query_device = trnic_query_device, .query_port = trnic_query_port,
	.get_port_immutable = trnic_port_immutable,
	.alloc_pd = trnic_ok_pd, .dealloc_pd = trnic_no_pd,
	.create_cq = trnic_ok_cq, .destroy_cq = trnic_no_cq, .poll_cq = trnic_poll_cq,
	.req_notify_cq = trnic_notify_cq,
	.create_qp = trnic_create_qp, .modify_qp = trnic_modify_qp, .query_qp = trnic_query_qp,
	.destroy_qp = trnic_destroy_qp, .post_send = trnic_post_send,
	.post_recv = trnic_post_recv,
	.create_srq = trnic_create_srq, .modify_srq = trnic_modify_srq,
	.query_srq = trnic_query_srq, .destroy_srq = trnic_destroy_srq,
	.post_srq_recv = trnic_post_srq_recv,
	.get_dma_mr = trnic_dma_mr, .reg_kernel_mr = trnic_kernel_mr, .dereg_mr = trnic_dereg_mr,
	.create_ah = trnic_create_ah, .destroy_ah = trnic_destroy_ah, .reach = trnic_reach,
	.iw_connect = trnic_connect, .iw_accept = trnic_accept, .iw_reject = trnic_reject,
	.iw_create_listen = trnic_create_listen, .iw_destroy_listen = trnic_destroy_listen,
	.dealloc_driver = trnic_dealloc,
};

static void trnic_release(void *arg)
{
	struct oib_device *dev = arg;

	mutex_lock(&trnic_lock);
	list_del(&to_trnic(dev)->entry);
	mutex_unlock(&trnic_lock);
	oib_unregister_device(dev);
	oib_dealloc_device(dev);
}

struct oib_device *oib_test_rnic(struct kunit *test)
{
	struct oib_device *dev = oib_alloc_device(&trnic_ops, sizeof(struct trnic));
	struct trnic *t;

	KUNIT_ASSERT_NOT_NULL(test, dev);
	t = to_trnic(dev);
	INIT_LIST_HEAD(&t->conns);
	dev->node_type = OIB_NODE_RNIC;
	dev->phys_port_cnt = 1;
	dev->node_guid = cpu_to_be64(0x02000000000000ULL | (uintptr_t)dev);
	if (oib_register_device(dev, "oib_trnic%d")) {
		oib_dealloc_device(dev);
		KUNIT_FAIL_AND_ABORT(test, "test RNIC not registered");
	}
	mutex_lock(&trnic_lock);
	list_add_tail(&t->entry, &trnic_devices);
	mutex_unlock(&trnic_lock);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, trnic_release, dev));
	return dev;
}

void oib_test_rnic_remove(struct kunit *test, struct oib_device *device)
{
	kunit_release_action(test, trnic_release, device);
}

void oib_test_rnic_addr(struct kunit *test, struct oib_device *device, u8 host)
{
	union oib_gid gid;

	ipv6_addr_set_v4mapped(htonl(0x0a000000 | host), &gid.in6);
	KUNIT_ASSERT_LE(test, 0, oib_add_gid(device, 1, &gid, OIB_GID_TYPE_ROCE_V2));
}

int oib_test_rnic_connections(struct oib_device *device)
{
	struct trnic *t = to_trnic(device);
	int n;

	mutex_lock(&trnic_lock);
	n = t->connections;
	mutex_unlock(&trnic_lock);
	return n;
}

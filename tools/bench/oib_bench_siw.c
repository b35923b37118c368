// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_bench over iWARP: two oib_siw devices, on the netdevs siw_netdev (the guest's dummy2 and
 * dummy3, with the addresses siw_addr), and OIB_BENCH_PAIRS RC QP pairs between them connected
 * through oib_cma the way oib_bench_intree connects the in-tree siw's through rdma_cm: the client
 * resolves the server's address and route, creates its QP and connects; the server side is made
 * on the listener's CONNECT_REQUEST and accepts.  Both addresses are the guest's own, so the TCP
 * connections run through lo, as the in-tree siw's to its own address do.
 */
#include <linux/delay.h>
#include <linux/inet.h>
#include <linux/jiffies.h>
#include <linux/moduleparam.h>
#include <linux/netdevice.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <oib/siw.h>
#include "oib_bench_cma.h"
#include "oib_bench_oib.h"

#define OIB_BENCH_SIW_PORT	18517
#define OIB_BENCH_SIW_WAIT_MS	5000

static char *siw_netdev[2] = { "dummy2", "dummy3" };
module_param_array(siw_netdev, charp, NULL, 0444);
MODULE_PARM_DESC(siw_netdev, "the netdevs of the two oib_siw devices (client, server)");
static char *siw_addr[2] = { "10.0.2.1", "10.0.3.1" };
module_param_array(siw_addr, charp, NULL, 0444);
MODULE_PARM_DESC(siw_addr, "their IPv4 addresses (client, server)");

/*
 * The listener's context: the server side the next CONNECT_REQUEST is for, set by the loading
 * thread before it connects (one connection at a time); @req completes when it has its id.
 */
struct obs_listen {
	struct oib_cma_id *id;
	struct oib_bench_side *next;
	struct completion req;
};

static int obs_handler(struct oib_cma_id *id, struct oib_cma_event *ev)
{
	struct oib_bench_side *s;
	struct obs_listen *l;

	if (ev->event == OIB_CMA_EVENT_CONNECT_REQUEST) {
		l = id->context;
		s = xchg(&l->next, NULL);
		if (!s)
			return -ECONNREFUSED;	/* not ours: the CMA destroys the new id */
		id->context = s;
		s->id = id;
		complete(&l->req);
		return 0;
	}
	s = id->context;
	s->ev = ev->event;
	s->status = ev->status;
	complete(&s->ev_done);
	return 0;
}

/* Wait for the next event of @s; -ETIMEDOUT, or -ECONNREFUSED if it is not @want. */
static int obs_wait(struct oib_bench_side *s, enum oib_cma_event_type want)
{
	if (!wait_for_completion_timeout(&s->ev_done, msecs_to_jiffies(OIB_BENCH_SIW_WAIT_MS)))
		return -ETIMEDOUT;
	if (s->ev != want || s->status) {
		pr_info("oib-bench: oib_siw: event %s (status %d), waiting for %s\n",
			oib_cma_event_msg(s->ev), s->status, oib_cma_event_msg(want));
		return -ECONNREFUSED;
	}
	return 0;
}

static int obs_addr(int i, struct sockaddr_in *sin, u16 port)
{
	*sin = (struct sockaddr_in){ .sin_family = AF_INET, .sin_port = htons(port) };
	return in4_pton(siw_addr[i], -1, (u8 *)&sin->sin_addr.s_addr, -1, NULL) ? 0 : -EINVAL;
}

static int obs_remove(struct oib_device *device)
{
	oib_siw_remove(device);
	return 0;
}

/*
 * Wait until @device has @addr as a GID: an oib_siw device takes its netdev's addresses from a
 * work item of its own, and oib_cma finds a device by them.
 */
static int obs_wait_addr(struct oib_device *device, const struct sockaddr_in *addr)
{
	unsigned long end = jiffies + msecs_to_jiffies(OIB_BENCH_SIW_WAIT_MS);
	union oib_gid gid = {};

	ipv6_addr_set_v4mapped(addr->sin_addr.s_addr, &gid.in6);
	while (oib_find_gid(device, &gid, NULL, NULL)) {
		if (time_after(jiffies, end))
			return -EADDRNOTAVAIL;
		msleep(20);
	}
	return 0;
}

/* Device @i of @c on its netdev of the initial namespace, with its address. */
static int obs_dev_create(struct oib_bench_dev *d, int i)
{
	struct net_device *ndev;
	struct sockaddr_in sin;
	int ret;

	ndev = dev_get_by_name(&init_net, siw_netdev[i]);
	if (!ndev)
		return -ENODEV;
	d->device = oib_siw_add(NULL, ndev);
	dev_put(ndev);
	if (IS_ERR(d->device)) {
		ret = PTR_ERR(d->device);
		d->device = NULL;
		return ret;
	}
	d->remove = obs_remove;
	ret = obs_addr(i, &sin, 0) ?: obs_wait_addr(d->device, &sin);
	return ret ?: oib_bench_dev_init(d);
}

/* Connect pair @p: the client connects, the server side is made on its request and accepts. */
static int obs_pair(struct oib_bench_conn *c, struct obs_listen *l, int p)
{
	struct oib_bench_side *cl = &c->side[p][0], *sv = &c->side[p][1];
	struct oib_cma_conn_param param = {
		.responder_resources = c->dev[0].rd_atom, .initiator_depth = c->dev[0].rd_atom,
		.retry_count = 7, .rnr_retry_count = 7,
	};
	struct sockaddr_in src, dst;
	int ret;

	init_completion(&cl->ev_done);
	init_completion(&sv->ev_done);
	ret = obs_addr(0, &src, 0) ?: obs_addr(1, &dst, OIB_BENCH_SIW_PORT);
	if (ret)
		return ret;
	cl->id = oib_cma_create_id(&init_net, obs_handler, cl, OIB_PS_TCP, OIB_QPT_RC);
	if (IS_ERR(cl->id)) {
		ret = PTR_ERR(cl->id);
		cl->id = NULL;
		return ret;
	}
	ret = oib_cma_resolve_addr(cl->id, (struct sockaddr *)&src, (struct sockaddr *)&dst,
				   OIB_BENCH_SIW_WAIT_MS) ?:
	      obs_wait(cl, OIB_CMA_EVENT_ADDR_RESOLVED) ?:
	      oib_cma_resolve_route(cl->id, OIB_BENCH_SIW_WAIT_MS) ?:
	      obs_wait(cl, OIB_CMA_EVENT_ROUTE_RESOLVED);
	if (ret)
		return ret;
	if (cl->id->device != c->dev[0].device)
		return -EXDEV;
	ret = oib_bench_side_create(cl, &c->dev[0]);
	if (ret)
		return ret;
	WRITE_ONCE(l->next, sv);
	ret = oib_cma_connect(cl->id, &param);
	if (ret)
		return ret;
	if (!wait_for_completion_timeout(&l->req, msecs_to_jiffies(OIB_BENCH_SIW_WAIT_MS)))
		return -ETIMEDOUT;
	if (sv->id->device != c->dev[1].device)
		return -EXDEV;
	ret = oib_bench_side_create(sv, &c->dev[1]);
	if (!ret)
		ret = oib_cma_accept(sv->id, &param);
	return ret ?: obs_wait(cl, OIB_CMA_EVENT_ESTABLISHED) ?:
		obs_wait(sv, OIB_CMA_EVENT_ESTABLISHED);
}

const char *oib_bench_siw_setup(struct oib_bench_conn *c, int *ret)
{
	struct obs_listen l = {};
	struct sockaddr_in sin;
	const char *step = NULL;
	int i, p;

	*ret = 0;
	for (i = 0; i < 2 && !*ret; i++)
		*ret = obs_dev_create(&c->dev[i], i);
	if (*ret)
		return "create_device";
	init_completion(&l.req);
	*ret = obs_addr(1, &sin, OIB_BENCH_SIW_PORT);
	if (*ret)
		return "address";
	l.id = oib_cma_create_id(&init_net, obs_handler, &l, OIB_PS_TCP, OIB_QPT_RC);
	if (IS_ERR(l.id))
		*ret = PTR_ERR(l.id);
	else
		*ret = oib_cma_bind_addr(l.id, (struct sockaddr *)&sin) ?:
		       oib_cma_listen(l.id, OIB_BENCH_NPAIRS);
	if (*ret)
		step = "listen";
	for (p = 0; p < OIB_BENCH_NPAIRS && !*ret; p++) {
		*ret = obs_pair(c, &l, p);
		if (*ret)
			step = "connect";
	}
	/* no request after this one: the sides' ids stay as they are */
	if (!IS_ERR(l.id))
		oib_cma_destroy_id(l.id);
	return step;
}

void oib_bench_siw_cma(struct oib_bench_conn *c, unsigned int timeout_ms)
{
	struct oib_device *dev[2] = { c->dev[0].device, c->dev[1].device };

	oib_bench_cma_run("oib_siw", dev, (const char *const *)siw_addr, timeout_ms);
}

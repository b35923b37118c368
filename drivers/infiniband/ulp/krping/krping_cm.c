// SPDX-License-Identifier: GPL-2.0-only
/*
 * The oib_cma side of a test: one handler for every id (a listener's context is the test's
 * lconn, every other id's its connection), the server's listener and its queue of requested
 * connections, the client's resolve and connect, and the thread's waits for events and
 * completions.  rping's connection parameters: responder resources and initiator depth 1,
 * retry 7, RNR retry 7.
 */
#include <linux/slab.h>
#include <net/net_namespace.h>
#include "krping.h"

#define KRPING_BACKLOG		8

/* Events after which the connection is of no use. */
#define KRPING_FATAL	(BIT(OIB_CMA_EVENT_ADDR_ERROR) | BIT(OIB_CMA_EVENT_ROUTE_ERROR) | \
			 BIT(OIB_CMA_EVENT_CONNECT_ERROR) | BIT(OIB_CMA_EVENT_UNREACHABLE) | \
			 BIT(OIB_CMA_EVENT_REJECTED) | BIT(OIB_CMA_EVENT_DEVICE_REMOVAL))
#define KRPING_GONE	(KRPING_FATAL | BIT(OIB_CMA_EVENT_DISCONNECTED))

static void krping_param(struct oib_cma_conn_param *p)
{
	*p = (struct oib_cma_conn_param){
		.responder_resources = 1, .initiator_depth = 1,
		.retry_count = 7, .rnr_retry_count = 7,
	};
}

/* A listener's CONNECT_REQUEST: queue a connection for the thread; non-zero refuses it. */
static int krping_request(struct krping_test *t, struct oib_cma_id *id)
{
	struct krping_conn *c, *pos;
	int n = 0;

	c = krping_conn_alloc(t);
	if (!c)
		return -ENOMEM;
	c->id = id;
	c->events = BIT(OIB_CMA_EVENT_CONNECT_REQUEST);
	spin_lock_irq(&t->lock);
	list_for_each_entry(pos, &t->spawned, entry)
		n += !pos->taken;
	if (t->stopping || n >= KRPING_BACKLOG) {
		spin_unlock_irq(&t->lock);
		kfree(c);
		return -ECONNREFUSED;	/* oib_cma destroys the new id */
	}
	list_add_tail(&c->entry, &t->spawned);
	spin_unlock_irq(&t->lock);
	wake_up_all(&t->wq);
	return 0;
}

/* The connection of a server-side @id (under the test's lock); the listener's own otherwise. */
static struct krping_conn *krping_find(struct krping_test *t, struct oib_cma_id *id)
{
	struct krping_conn *c;

	list_for_each_entry(c, &t->spawned, entry)
		if (c->id == id)
			return c;
	return &t->lconn;
}

static int krping_cma_handler(struct oib_cma_id *id, struct oib_cma_event *ev)
{
	struct krping_conn *c = id->context;
	struct krping_test *t = c->t;

	if (t->o.verbose)
		pr_info("oib_krping: test %d: %s (%d)\n", t->id, oib_cma_event_msg(ev->event),
			ev->status);
	if (ev->event == OIB_CMA_EVENT_CONNECT_REQUEST)
		return krping_request(t, id);
	spin_lock_irq(&t->lock);
	if (c == &t->lconn && id != t->lconn.id)
		c = krping_find(t, id);
	c->events |= BIT(ev->event);
	c->last = ev->event;
	if (ev->status && !c->status)
		c->status = ev->status;
	if (c != &t->lconn)
		t->cm_last = ev->event;
	spin_unlock_irq(&t->lock);
	wake_up_all(&t->wq);
	return 0;
}

static struct oib_cma_id *krping_create_id(struct krping_conn *c)
{
	return oib_cma_create_id(&init_net, krping_cma_handler, c, OIB_PS_TCP, OIB_QPT_RC);
}

/* The test's address with its port. */
static struct sockaddr *krping_addr(struct krping_test *t, struct sockaddr_storage *ss)
{
	*ss = t->o.addr;
	if (ss->ss_family == AF_INET)
		((struct sockaddr_in *)ss)->sin_port = htons(t->o.port);
	else
		((struct sockaddr_in6 *)ss)->sin6_port = htons(t->o.port);
	return (struct sockaddr *)ss;
}

/* Server: bind and listen now, so the ctl write returns the address's error. */
int krping_listen(struct krping_test *t)
{
	struct sockaddr_storage ss;
	struct oib_cma_id *id;
	int ret;

	id = krping_create_id(&t->lconn);
	if (IS_ERR(id))
		return PTR_ERR(id);
	ret = oib_cma_bind_addr(id, krping_addr(t, &ss));
	if (!ret)
		ret = oib_cma_listen(id, KRPING_BACKLOG);
	if (ret) {
		oib_cma_destroy_id(id);
		return ret;
	}
	t->lconn.id = id;
	t->cm_last = OIB_CMA_EVENT_CONNECT_REQUEST;
	t->state = KRPING_S_LISTENING;
	return 0;
}

/* Server: no more requests; the ones not taken are refused (their ids destroyed). */
void krping_unlisten(struct krping_test *t)
{
	struct krping_conn *c;

	if (!t->lconn.id)
		return;
	spin_lock_irq(&t->lock);
	t->stopping = true;
	spin_unlock_irq(&t->lock);
	oib_cma_destroy_id(t->lconn.id);	/* no request handler runs after this */
	t->lconn.id = NULL;
	/* the thread has ended: every connection left is pending */
	while ((c = list_first_entry_or_null(&t->spawned, struct krping_conn, entry)))
		krping_conn_free(c);
}

/* Take the oldest pending connection, if any. */
static bool krping_pending(struct krping_test *t, struct krping_conn **cp)
{
	struct krping_conn *c;

	spin_lock_irq(&t->lock);
	list_for_each_entry(c, &t->spawned, entry) {
		if (c->taken)
			continue;
		c->taken = true;
		*cp = c;
		t->cm_last = OIB_CMA_EVENT_CONNECT_REQUEST;
		break;
	}
	spin_unlock_irq(&t->lock);
	return *cp;
}

/*
 * Server: the next requested connection; -EINTR when the test is stopped, -ENODEV when the
 * listener's device goes away (the thread ends, and krping_unlisten() destroys the listener).
 */
struct krping_conn *krping_next_conn(struct krping_test *t)
{
	struct krping_conn *c = NULL;

	wait_event_interruptible(t->wq, krping_pending(t, &c) || kthread_should_stop() ||
				 krping_cm_failed(&t->lconn));
	if (kthread_should_stop())
		return ERR_PTR(-EINTR);
	if (!c && krping_cm_failed(&t->lconn))
		return ERR_PTR(-ENODEV);
	if (!c)
		return ERR_PTR(-EINTR);		/* a signal: kernel threads take none */
	return c;
}

int krping_accept(struct krping_conn *c)
{
	struct oib_cma_conn_param param;
	int ret;

	c->t->step = "accept";
	krping_param(&param);
	ret = oib_cma_accept(c->id, &param);
	ret = ret ?: krping_first_recv(c);
	return ret ?: krping_cm_wait(c, OIB_CMA_EVENT_ESTABLISHED);
}

/* Client: resolve the address and the route, set up, connect, until ESTABLISHED. */
int krping_connect(struct krping_test *t, struct krping_conn *c)
{
	struct oib_cma_conn_param param;
	struct sockaddr_storage ss;
	struct oib_cma_id *id;
	int ret;

	t->step = "create_id";
	id = krping_create_id(c);
	if (IS_ERR(id))
		return PTR_ERR(id);
	c->id = id;
	t->step = "resolve_addr";
	ret = oib_cma_resolve_addr(id, NULL, krping_addr(t, &ss), KRPING_TIMEOUT_MS);
	if (!ret)
		ret = krping_cm_wait(c, OIB_CMA_EVENT_ADDR_RESOLVED);
	if (ret)
		return ret;
	t->step = "resolve_route";
	ret = oib_cma_resolve_route(id, KRPING_TIMEOUT_MS);
	if (!ret)
		ret = krping_cm_wait(c, OIB_CMA_EVENT_ROUTE_RESOLVED);
	if (!ret)
		ret = krping_conn_setup(c);
	if (ret)
		return ret;
	t->step = "connect";
	krping_param(&param);
	ret = oib_cma_connect(id, &param);
	ret = ret ?: krping_cm_wait(c, OIB_CMA_EVENT_ESTABLISHED);
	return ret ?: krping_first_recv(c);
}

bool krping_cm_failed(struct krping_conn *c)
{
	return READ_ONCE(c->events) & KRPING_GONE;
}

/* Why a connection is gone, as an errno. */
static int krping_cm_errno(struct krping_conn *c)
{
	unsigned long ev = READ_ONCE(c->events);

	if (ev & BIT(OIB_CMA_EVENT_REJECTED))
		return -ECONNREFUSED;
	if (ev & BIT(OIB_CMA_EVENT_UNREACHABLE))
		return -EHOSTUNREACH;
	if (ev & BIT(OIB_CMA_EVENT_DEVICE_REMOVAL))
		return -ENODEV;
	if (ev & BIT(OIB_CMA_EVENT_DISCONNECTED))
		return -ECONNRESET;
	return c->status < 0 ? c->status : -EIO;
}

/* Wait for @ev on @c: 0; the failure's errno; -EINTR (stopped); -ETIMEDOUT. */
int krping_cm_wait(struct krping_conn *c, enum oib_cma_event_type ev)
{
	struct krping_test *t = c->t;
	long left;

	left = wait_event_interruptible_timeout(t->wq,
						(READ_ONCE(c->events) & (BIT(ev) | KRPING_GONE)) ||
						kthread_should_stop(),
						msecs_to_jiffies(KRPING_TIMEOUT_MS));
	if (READ_ONCE(c->events) & BIT(ev))
		return 0;
	if (krping_cm_failed(c))
		return krping_cm_errno(c);
	return left ? -EINTR : -ETIMEDOUT;	/* stopped (or a signal), or no event */
}

static bool krping_wait_done(struct krping_conn *c, atomic_t *v, int n)
{
	return atomic_read(v) >= n || READ_ONCE(c->wc_error) || krping_cm_failed(c) ||
	       kthread_should_stop();
}

/* poll: the thread polls the CQ itself until the condition holds; 0 on a timeout */
static long krping_busy_wait(struct krping_conn *c, atomic_t *v, int n)
{
	unsigned long end = jiffies + msecs_to_jiffies(KRPING_TIMEOUT_MS);

	while (!krping_wait_done(c, v, n)) {
		if (!oib_process_cq_direct(c->cq, 16)) {
			if (time_after(jiffies, end))
				return 0;
			cond_resched();
		}
	}
	return 1;
}

/*
 * Wait until @v counts @n completions: 0; -EIO (a completion failed); the connection's errno
 * when it is gone; -EINTR (stopped); -ETIMEDOUT (no progress for KRPING_TIMEOUT_MS).
 */
int krping_wait(struct krping_conn *c, atomic_t *v, int n)
{
	struct krping_test *t = c->t;
	long left;

	if (t->o.poll)
		left = krping_busy_wait(c, v, n);
	else
		left = wait_event_interruptible_timeout(t->wq, krping_wait_done(c, v, n),
							msecs_to_jiffies(KRPING_TIMEOUT_MS));
	if (atomic_read(v) >= n)
		return 0;
	if (READ_ONCE(c->wc_error))
		return -EIO;
	if (krping_cm_failed(c))
		return krping_cm_errno(c);
	return left ? -EINTR : -ETIMEDOUT;
}

/*
 * Disconnect if connected (a DREQ, or the DREP to the peer's) and wait for DISCONNECTED (the
 * DREP, or the DREQ's timeout; not when the test is being stopped); the rest is krping_conn_free.
 */
void krping_conn_close(struct krping_conn *c)
{
	unsigned long ev = READ_ONCE(c->events);

	if (!c->id || !(ev & BIT(OIB_CMA_EVENT_ESTABLISHED)))
		return;
	if (!oib_cma_disconnect(c->id))
		krping_cm_wait(c, OIB_CMA_EVENT_DISCONNECTED);
}

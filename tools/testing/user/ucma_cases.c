// SPDX-License-Identifier: GPL-2.0-only
/* oib_ucma_user's cases: refusals, states, a connection, and the lifetime of events and ids. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include "ktap.h"
#include "ucma_user.h"

#define EXPECT_ERR(err, expr) CHECK_ERR((expr) ? -1 : 0, err)

static uint16_t port = 7400;	/* a port of its own for each listener */

bool t_refusals(void)
{
	struct oib_ucma_create_id c = { .ps = OIB_UCMA_PS_TCP, .qp_type = OIB_UCMA_QPT_RC };
	struct oib_ucma_resolve_addr r = {};
	struct oib_ucma_set_option o = {};
	struct oib_ucma_notify n = {};
	struct oib_ucma_connect k = {};
	struct oib_ucma_attach_qp a = {};
	struct oib_ucma_bind b = {};
	struct oib_ucma_event e;
	int fd = ucma_open(), fd2 = ucma_open();
	uint32_t id = create_id(fd, 1), reported = 9;
	bool ok = CHECK(fd >= 0 && fd2 >= 0 && id);

	c.reserved = 1;
	ok &= CHECK(call(fd, OIB_UCMA_CREATE_ID, &c) == EINVAL);
	c.reserved = 0;
	c.ps = 0x013f;			/* RDMA_PS_IB: AF_IB's, not offered */
	ok &= CHECK(call(fd, OIB_UCMA_CREATE_ID, &c) == EINVAL);
	c.ps = OIB_UCMA_PS_TCP;
	c.qp_type = OIB_UCMA_QPT_UD;	/* TCP takes RC and UC */
	ok &= CHECK(call(fd, OIB_UCMA_CREATE_ID, &c) == EINVAL);
	ip4(&b.addr, ADDR_A, 0);
	b.id = 0;
	ok &= CHECK(call(fd, OIB_UCMA_BIND, &b) == EINVAL);
	b.id = id + 1000;
	ok &= CHECK(call(fd, OIB_UCMA_BIND, &b) == EINVAL);
	b.id = id;
	ok &= CHECK(call(fd2, OIB_UCMA_BIND, &b) == EINVAL);	/* another file's id */
	b.reserved = 1;
	ok &= CHECK(call(fd, OIB_UCMA_BIND, &b) == EINVAL);
	b.reserved = 0;
	b.addr.ss_family = 27;		/* AF_IB */
	ok &= CHECK(call(fd, OIB_UCMA_BIND, &b) == EAFNOSUPPORT);
	b.addr.ss_family = AF_UNSPEC;
	ok &= CHECK(call(fd, OIB_UCMA_BIND, &b) == EINVAL);
	ok &= CHECK(call(fd, OIB_UCMA_BIND, (void *)8) == EFAULT);
	r.id = id;
	ip4(&r.dst, ADDR_B, 1);
	ok &= CHECK(call(fd, OIB_UCMA_RESOLVE_ADDR, &r) == EINVAL);	/* timeout 0 */
	r.timeout_ms = OIB_UCMA_MAX_TIMEOUT_MS + 1;
	ok &= CHECK(call(fd, OIB_UCMA_RESOLVE_ADDR, &r) == EINVAL);
	ok &= CHECK(call(fd, _IOW(OIB_UCMA_IOC_TYPE, 2, uint64_t), &b) == ENOTTY);	/* size */
	ok &= CHECK(call(fd, _IOW(OIB_UCMA_IOC_TYPE, 99, struct oib_ucma_id), &b) == ENOTTY);
	ok &= CHECK(call(fd, _IOW('x', 2, struct oib_ucma_bind), &b) == ENOTTY);
	o.id = id;
	ok &= CHECK(call(fd, OIB_UCMA_SET_OPTION, &o) == ENOPROTOOPT);
	n.id = id;
	n.event = 3;
	ok &= CHECK(call(fd, OIB_UCMA_NOTIFY, &n) == EINVAL);
	k.id = id;
	k.param.srq = 2;
	ok &= CHECK(call(fd, OIB_UCMA_CONNECT, &k) == EINVAL);
	k.param.srq = 0;
	k.param.reserved = 1;
	ok &= CHECK(call(fd, OIB_UCMA_CONNECT, &k) == EINVAL);
	a.id = id;
	a.uverbs_fd = -1;
	ok &= CHECK(call(fd, OIB_UCMA_ATTACH_QP, &a) == EBADF);
	a.uverbs_fd = fd;		/* not a /dev/oib_uverbs<N> */
	ok &= CHECK(call(fd, OIB_UCMA_ATTACH_QP, &a) == EBADF);
	fcntl(fd, F_SETFL, O_NONBLOCK);
	ok &= CHECK(call(fd, OIB_UCMA_GET_EVENT, &e) == EAGAIN);
	ok &= CHECK(!destroy_id(fd, id, &reported) && reported == 0);
	ok &= CHECK(destroy_id(fd, id, NULL) == EINVAL);
	ok &= CHECK(call(fd, OIB_UCMA_BIND, &b) == EINVAL);
	close(fd);
	close(fd2);
	return no_ids_left() && ok;
}

bool t_wrong_states(void)
{
	struct oib_ucma_resolve_route rr = { .timeout_ms = 1000 };
	struct oib_ucma_accept ac = {};
	struct oib_ucma_reject rj = {};
	struct oib_ucma_id d = {};
	struct oib_ucma_connect k = {};
	struct oib_ucma_bind b = {};
	struct oibv_qp *q1 = reset_qp(ctx_a), *q2 = reset_qp(ctx_a), *qb = reset_qp(ctx_b);
	int fd = ucma_open();
	uint32_t id = create_id(fd, 1), id2 = create_id(fd, 2), id3 = create_id(fd, 3);
	bool ok = CHECK(fd >= 0 && id && id2 && id3 && q1 && q2 && qb);

	rr.id = id;
	ac.id = id;
	rj.id = id;
	d.id = id;
	k.id = id;
	ok &= CHECK(call(fd, OIB_UCMA_RESOLVE_ROUTE, &rr) == EINVAL);	/* no address */
	ok &= CHECK(call(fd, OIB_UCMA_CONNECT, &k) == EINVAL);
	ok &= CHECK(call(fd, OIB_UCMA_ACCEPT, &ac) == EINVAL);
	ok &= CHECK(call(fd, OIB_UCMA_REJECT, &rj) == EINVAL);
	ok &= CHECK(call(fd, OIB_UCMA_DISCONNECT, &d) == EINVAL);
	ok &= CHECK(attach(fd, id, q1) == EINVAL);			/* no device yet */
	ok &= CHECK(call(fd, OIB_UCMA_DETACH_QP, &d) == EINVAL);	/* no QP */
	b.id = id;
	ip4(&b.addr, ADDR_A, port++);
	ok &= CHECK(!call(fd, OIB_UCMA_BIND, &b));
	ok &= CHECK(call(fd, OIB_UCMA_BIND, &b) == EINVAL);		/* bound already */
	ok &= resolve(fd, id2, port);
	k.id = id2;
	ok &= CHECK(call(fd, OIB_UCMA_CONNECT, &k) == EINVAL);		/* RC without a QP */
	ok &= CHECK(!attach(fd, id2, q1));
	ok &= CHECK(attach(fd, id2, q2) == EINVAL);			/* a QP already */
	ok &= CHECK(attach(fd, id, q1) == EINVAL);			/* q1 is id2's */
	ok &= resolve(fd, id3, port);
	ok &= CHECK(attach(fd, id3, qb) == EINVAL);			/* another device's */
	d.id = id2;
	ok &= CHECK(!call(fd, OIB_UCMA_DETACH_QP, &d));
	ok &= CHECK(call(fd, OIB_UCMA_DETACH_QP, &d) == EINVAL);
	ok &= CHECK(attach(fd, id2, q1) == EINVAL);	/* moved to INIT: not RESET */
	ok &= CHECK(!attach(fd, id3, q2));
	ok &= CHECK(!oibv_destroy_qp(q2));	/* taken from id3 first */
	ok &= CHECK(!oibv_destroy_qp(q1) && !oibv_destroy_qp(qb));
	close(fd);
	return no_ids_left() && ok;
}

/* A connection: s listening on sf, c on cf connected to it with QP qc, conn accepted with qs. */
struct conn {
	int sf, cf;
	uint32_t s, c, conn;
	struct oibv_qp *qc, *qs;
};

static bool conn_request(struct conn *t, struct oib_ucma_event *e)
{
	t->sf = ucma_open();
	t->cf = ucma_open();
	t->s = create_id(t->sf, 5);
	t->c = create_id(t->cf, 0xc);
	t->qc = reset_qp(ctx_a);
	t->qs = reset_qp(ctx_b);
	if (!CHECK(t->sf >= 0 && t->cf >= 0 && t->s && t->c && t->qc && t->qs))
		return false;
	port++;
	return listen_on(t->sf, t->s, port) && resolve(t->cf, t->c, port) &&
	       CHECK(!attach(t->cf, t->c, t->qc)) && connect_with(t->cf, t->c, "hello") &&
	       (!e || expect(t->sf, t->s, OIB_UCMA_EVENT_CONNECT_REQUEST, e));
}

static bool conn_establish(struct conn *t)
{
	struct oib_ucma_accept ac = { .uid = 0x77 };
	struct oib_ucma_event e;
	bool ok;

	if (!conn_request(t, &e))
		return false;
	t->conn = e.conn_id;
	ok = CHECK(e.uid == 5 && e.conn_id && e.param.private_data_len >= 5 &&
		   !memcmp(e.param.private_data, "hello", 5));
	ac.id = t->conn;
	ac.param.private_data_len = 5;
	memcpy(ac.param.private_data, "world", 5);
	ac.param.responder_resources = 1;
	ac.param.initiator_depth = 1;
	ok &= CHECK(!attach(t->sf, t->conn, t->qs)) && CHECK(!call(t->sf, OIB_UCMA_ACCEPT, &ac));
	ok &= expect(t->cf, t->c, OIB_UCMA_EVENT_ESTABLISHED, &e) &&
	      CHECK(e.uid == 0xc && e.param.private_data_len >= 5 &&
		    !memcmp(e.param.private_data, "world", 5));
	ok &= expect(t->sf, t->conn, OIB_UCMA_EVENT_ESTABLISHED, &e) && CHECK(e.uid == 0x77);
	return ok;
}

static bool conn_end(struct conn *t)
{
	close(t->sf);
	close(t->cf);
	if (t->qc)
		oibv_destroy_qp(t->qc);
	if (t->qs)
		oibv_destroy_qp(t->qs);
	return no_ids_left();
}

bool t_connection(void)
{
	struct oib_ucma_query q = {};
	struct oib_ucma_id d = {};
	uint32_t reported = 0;
	struct conn t = {};
	bool ok = conn_establish(&t);

	q.id = t.c;
	ok &= CHECK(!call(t.cf, OIB_UCMA_QUERY, &q) && !strcmp(q.ibdev, dev_a) &&
		    q.num_paths == 1 && q.port_num == 1);
	memset(&q, 0, sizeof(q));
	q.id = t.conn;
	ok &= CHECK(!call(t.sf, OIB_UCMA_QUERY, &q) && !strcmp(q.ibdev, dev_b));
	d.id = t.c;
	ok &= CHECK(!call(t.cf, OIB_UCMA_DISCONNECT, &d));	/* the DREQ */
	ok &= expect(t.sf, t.conn, OIB_UCMA_EVENT_DISCONNECTED, NULL);
	d.id = t.conn;
	ok &= CHECK(!call(t.sf, OIB_UCMA_DISCONNECT, &d));	/* the DREP */
	ok &= expect(t.cf, t.c, OIB_UCMA_EVENT_DISCONNECTED, NULL);
	ok &= CHECK(!destroy_id(t.cf, t.c, &reported) && reported >= 4);
	ok &= CHECK(!destroy_id(t.sf, t.s, &reported) && reported == 1);
	ok &= CHECK(!destroy_id(t.sf, t.conn, &reported) && reported >= 2);
	return conn_end(&t) && ok;
}

/* The request arrived, unread: poll says so. */
static bool request_waits(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return CHECK(poll(&p, 1, 20000) == 1);
}

/* The client's answer after its request's id went unread: refused. */
static bool client_refused(struct conn *t)
{
	struct oib_ucma_event e;

	return expect(t->cf, t->c, OIB_UCMA_EVENT_REJECTED, &e);
}

bool t_listener_destroyed(void)
{
	struct oib_ucma_event e;
	uint32_t reported = 9;
	struct conn t = {};
	bool ok = conn_request(&t, NULL) && request_waits(t.sf);

	ok &= CHECK(!destroy_id(t.sf, t.s, &reported) && reported == 0);
	fcntl(t.sf, F_SETFL, O_NONBLOCK);
	ok &= CHECK(call(t.sf, OIB_UCMA_GET_EVENT, &e) == EAGAIN);	/* dropped with it */
	ok &= client_refused(&t);
	return conn_end(&t) && ok;
}

bool t_file_closed(void)
{
	struct conn t = {};
	bool ok = conn_request(&t, NULL) && request_waits(t.sf);

	close(t.sf);
	t.sf = -1;
	ok &= client_refused(&t);
	return conn_end(&t) && ok;
}

bool t_qp_destroyed(void)
{
	struct oib_ucma_id d = {};
	struct conn t = {};
	bool ok = conn_establish(&t);

	ok &= CHECK(!oibv_destroy_qp(t.qc));	/* the CM lets go of it first */
	t.qc = NULL;
	d.id = t.c;
	ok &= CHECK(call(t.cf, OIB_UCMA_DETACH_QP, &d) == EINVAL);
	ok &= CHECK(!call(t.cf, OIB_UCMA_DISCONNECT, &d));
	ok &= expect(t.sf, t.conn, OIB_UCMA_EVENT_DISCONNECTED, NULL);
	return conn_end(&t) && ok;
}

/*
 * A child attaches a QP of its own context to the parent's id (the ucma file is shared), the
 * parent connects, and the child exits: its context's close takes the QP from the connection.
 */
bool t_uverbs_closed(void)
{
	int go[2], ready[2], status = 0;
	struct oib_ucma_id d = {};
	struct conn t = {};
	char c = 0;
	pid_t pid;
	bool ok;

	if (!CHECK(!pipe(go) && !pipe(ready)))
		return false;
	t.sf = ucma_open();
	t.cf = ucma_open();
	t.s = create_id(t.sf, 5);
	t.c = create_id(t.cf, 0xc);
	t.qs = reset_qp(ctx_b);
	port++;
	ok = listen_on(t.sf, t.s, port) && resolve(t.cf, t.c, port);
	pid = fork();
	if (!pid) {
		struct oibv_context *ctx = oibv_open_device(ctx_a->device);
		struct oibv_qp *qp = ctx ? reset_qp(ctx) : NULL;

		c = qp && !attach(t.cf, t.c, qp);
		if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(2);
		_exit(0);	/* the context's file closes with the process */
	}
	ok &= CHECK(pid > 0 && read(ready[0], &c, 1) == 1 && c == 1);
	ok &= connect_with(t.cf, t.c, "hello");
	ok &= expect(t.sf, t.s, OIB_UCMA_EVENT_CONNECT_REQUEST, NULL);
	ok &= CHECK(write(go[1], &c, 1) == 1 && waitpid(pid, &status, 0) == pid &&
		    WIFEXITED(status) && !WEXITSTATUS(status));
	d.id = t.c;
	ok &= CHECK(call(t.cf, OIB_UCMA_DETACH_QP, &d) == EINVAL);	/* gone with the child */
	close(go[0]);
	close(go[1]);
	close(ready[0]);
	close(ready[1]);
	return conn_end(&t) && ok;
}

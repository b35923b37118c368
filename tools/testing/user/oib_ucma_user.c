// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_ucma from user space, through its ioctls (Documentation/ucma.md): every command's
 * refusals (ids that are not the file's, reserved fields, sizes, families, timeouts, pointers,
 * what no state allows), a connection between two oib_rxe devices with its whole event stream
 * and private data both ways, and the lifetime of events and ids: a listener destroyed or its
 * file closed with a request unread (the request's id goes with it, the peer is refused), a QP
 * destroyed or its context closed while the id connects it, and the ids' count (oib res show
 * cm_id) back to none after each case.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/ioctl.h>
#include <oib/ucma.h>
#include "ktap.h"
#include "ucma_user.h"

char dev_a[32], dev_b[32];
struct oibv_context *ctx_a, *ctx_b;

int ucma_open(void)
{
	return open(DEV, O_RDWR | O_CLOEXEC);
}

int call(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? errno : 0;
}

uint32_t create_id(int fd, uint64_t uid)
{
	struct oib_ucma_create_id c = {
		.uid = uid, .ps = OIB_UCMA_PS_TCP, .qp_type = OIB_UCMA_QPT_RC,
	};

	return call(fd, OIB_UCMA_CREATE_ID, &c) ? 0 : c.id;
}

int destroy_id(int fd, uint32_t id, uint32_t *reported)
{
	struct oib_ucma_destroy_id d = { .id = id };
	int ret = call(fd, OIB_UCMA_DESTROY_ID, &d);

	if (reported)
		*reported = d.events_reported;
	return ret;
}

void ip4(struct __kernel_sockaddr_storage *ss, const char *ip, uint16_t port)
{
	struct sockaddr_in *s = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	s->sin_family = AF_INET;
	s->sin_port = htons(port);
	inet_pton(AF_INET, ip, &s->sin_addr);
}

/* The next event of @fd within 20 s: 0, or errno (ETIMEDOUT). */
int get_event(int fd, struct oib_ucma_event *e)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (poll(&p, 1, 20000) != 1)
		return ETIMEDOUT;
	return call(fd, OIB_UCMA_GET_EVENT, e);
}

bool expect(int fd, uint32_t id, uint32_t type, struct oib_ucma_event *e)
{
	struct oib_ucma_event tmp;

	if (!e)
		e = &tmp;
	if (!CHECK(!get_event(fd, e)))
		return false;
	if (e->id != id || e->event != type) {
		diag("event %u of id %u (status %d), wanted %u of id %u", e->event, e->id,
		     e->status, type, id);
		return false;
	}
	return true;
}

/* The cm_ids oib_ucma made, as oib res show cm_id lists them. */
int ucma_ids(void)
{
	FILE *f = popen("oib res show cm_id | grep -c 'owner oib_ucma'", "r");
	int n = -1;

	if (f) {
		if (fscanf(f, "%d", &n) != 1)
			n = -1;
		pclose(f);
	}
	return n;
}

bool no_ids_left(void)
{
	int i, n = -1;

	for (i = 0; i < 200 && n; i++) {
		n = ucma_ids();
		if (n)
			usleep(100000);	/* polling the condition, 20 s at most */
	}
	return CHECK(n == 0);
}

/* A QP in RESET on @ctx (its CQ and PD are left to the context's close). */
struct oibv_qp *reset_qp(struct oibv_context *ctx)
{
	struct oibv_pd *pd = oibv_alloc_pd(ctx);
	struct oibv_cq *cq = pd ? oibv_create_cq(ctx, 16, NULL, NULL, 0) : NULL;
	struct oibv_qp_init_attr a = {
		.send_cq = cq, .recv_cq = cq, .qp_type = OIBV_QPT_RC,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4, .max_send_sge = 1, .max_recv_sge = 1 },
	};

	return cq ? oibv_create_qp(pd, &a) : NULL;
}

int attach(int fd, uint32_t id, struct oibv_qp *qp)
{
	struct oib_ucma_attach_qp a = {
		.id = id, .uverbs_fd = qp->context->cmd_fd, .qp_handle = qp->handle,
	};

	return call(fd, OIB_UCMA_ATTACH_QP, &a);
}

/* Client @c on file @cf resolved to ADDR_B:@port, its route too. */
bool resolve(int cf, uint32_t c, uint16_t port)
{
	struct oib_ucma_resolve_addr r = { .id = c, .timeout_ms = 2000 };
	struct oib_ucma_resolve_route rr = { .id = c, .timeout_ms = 2000 };

	ip4(&r.dst, ADDR_B, port);
	return CHECK(!call(cf, OIB_UCMA_RESOLVE_ADDR, &r)) &&
	       expect(cf, c, OIB_UCMA_EVENT_ADDR_RESOLVED, NULL) &&
	       CHECK(!call(cf, OIB_UCMA_RESOLVE_ROUTE, &rr)) &&
	       expect(cf, c, OIB_UCMA_EVENT_ROUTE_RESOLVED, NULL);
}

bool listen_on(int sf, uint32_t s, uint16_t port)
{
	struct oib_ucma_bind b = { .id = s };
	struct oib_ucma_listen l = { .id = s };

	ip4(&b.addr, ADDR_B, port);
	return CHECK(!call(sf, OIB_UCMA_BIND, &b)) && CHECK(!call(sf, OIB_UCMA_LISTEN, &l));
}

bool connect_with(int cf, uint32_t c, const char *pdata)
{
	struct oib_ucma_connect k = { .id = c };

	k.param.private_data_len = strlen(pdata);
	memcpy(k.param.private_data, pdata, strlen(pdata));
	k.param.responder_resources = 1;
	k.param.initiator_depth = 1;
	k.param.retry_count = 7;
	k.param.rnr_retry_count = 7;
	return CHECK(!call(cf, OIB_UCMA_CONNECT, &k));
}

static const struct ktap_case cases[] = {
	{ "refusals", t_refusals },
	{ "wrong_states", t_wrong_states },
	{ "connection", t_connection },
	{ "listener_destroyed_with_request", t_listener_destroyed },
	{ "file_closed_with_request", t_file_closed },
	{ "qp_destroyed_while_connected", t_qp_destroyed },
	{ "uverbs_closed_while_connected", t_uverbs_closed },
};

static struct oibv_context *open_ctx(const char *name)
{
	struct oibv_device **list;
	struct oibv_context *ctx = NULL;
	int i, n;

	list = oibv_get_device_list(&n);
	for (i = 0; list && i < n; i++)
		if (!strcmp(oibv_get_device_name(list[i]), name))
			ctx = oibv_open_device(list[i]);
	if (list)
		oibv_free_device_list(list);
	return ctx;
}

static bool setup(void)
{
	char cmd[256];
	int i;

	for (i = 0; i < 64 && !dev_b[0]; i++) {
		snprintf(cmd, sizeof(cmd), "/sys/class/oib/oib_rxe%d", i);
		if (access(cmd, F_OK))
			snprintf(dev_a[0] ? dev_b : dev_a, sizeof(dev_a), "oib_rxe%d", i);
	}
	snprintf(cmd, sizeof(cmd), "oib link add %s type rxe && oib link add %s type rxe",
		 dev_a, dev_b);
	if (system(cmd))
		return false;
	snprintf(cmd, sizeof(cmd), "oib addr add %s/1 %s && oib addr add %s/1 %s",
		 dev_a, ADDR_A, dev_b, ADDR_B);
	if (system(cmd))
		return false;
	ctx_a = open_ctx(dev_a);
	ctx_b = open_ctx(dev_b);
	return ctx_a && ctx_b;
}

int main(void)
{
	char cmd[128];
	int ret;

	if (access(DEV, F_OK) || !setup()) {
		printf("KTAP version 1\n1..0 # SKIP no %s or devices\n", DEV);
		return 0;
	}
	ret = ktap_run("oib_ucma_user", cases, sizeof(cases) / sizeof(cases[0]));
	oibv_close_device(ctx_a);
	oibv_close_device(ctx_b);
	snprintf(cmd, sizeof(cmd), "oib link delete %s; oib link delete %s", dev_a, dev_b);
	if (system(cmd))
		ret = 1;
	return ret;
}

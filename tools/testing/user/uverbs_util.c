// SPDX-License-Identifier: GPL-2.0-only
/* What the oib_uverbs userspace tests share. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include "ktap.h"
#include "uverbs_util.h"

char test_ibdev[64];
int base_objects;
struct oibv_device *test_dev;
static struct oibv_device **test_list;

int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* The oib tool (in the guest's /bin) with @args: whether it succeeded. */
static bool oib_tool(const char *args)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "oib %s", args);
	return system(cmd) == 0;
}

/* An oib_rxe device of one port named oib_rxe<N>, the first N free: oib link add. */
bool setup_device(void)
{
	char path[128], args[128];
	int i, n;

	for (i = 0;; i++) {
		snprintf(path, sizeof(path), "/sys/class/oib/oib_rxe%d", i);
		if (access(path, F_OK))
			break;
	}
	snprintf(test_ibdev, sizeof(test_ibdev), "oib_rxe%d", i);
	snprintf(args, sizeof(args), "link add %s type rxe", test_ibdev);
	if (!oib_tool(args)) {
		test_ibdev[0] = '\0';
		return false;
	}
	test_list = oibv_get_device_list(&n);
	for (i = 0; test_list && i < n; i++)
		if (!strcmp(oibv_get_device_name(test_list[i]), test_ibdev))
			test_dev = test_list[i];
	base_objects = live_objects();	/* oib_mad's QP1, its PD and CQs */
	diag("device %s, %s", test_ibdev, test_dev ? test_dev->dev_path : "no char device");
	return test_dev;
}

bool remove_device(void)
{
	char args[128];

	snprintf(args, sizeof(args), "link delete %s", test_ibdev);
	return oib_tool(args);
}

int live_objects(void)
{
	char path[128], type[16];
	int n, total = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/oib/%s/objects", test_ibdev);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fscanf(f, "%15s %d", type, &n) == 2)
		total += n;
	fclose(f);
	return total;
}

/* The debugfs objects file, as diagnostics. */
static void show_objects(void)
{
	char path[128], line[128];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/oib/%s/objects", test_ibdev);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		diag("objects: %s", line);
	}
	if (f)
		fclose(f);
}

int raw_cmd(int fd, unsigned int nr, void *cmd, uint32_t size)
{
	((struct oib_uverbs_hdr *)cmd)->size = size;
	return ioctl(fd, OIB_UVERBS_IOC(nr), cmd) ? errno : 0;
}

bool qp_connect(struct oibv_qp *qp, uint32_t remote_qpn, const union oibv_gid *gid)
{
	bool rc = qp->qp_type == OIBV_QPT_RC;
	struct oibv_qp_attr a = {
		.qp_state = OIBV_QPS_INIT, .port_num = 1,
		.qp_access_flags = OIBV_ACCESS_LOCAL_WRITE | OIBV_ACCESS_REMOTE_WRITE |
				   OIBV_ACCESS_REMOTE_READ | OIBV_ACCESS_REMOTE_ATOMIC,
	};
	int mask;

	if (!CHECK(!oibv_modify_qp(qp, &a, OIBV_QP_STATE | OIBV_QP_PKEY_INDEX | OIBV_QP_PORT |
				   OIBV_QP_ACCESS_FLAGS)))
		return false;
	a = (struct oibv_qp_attr){
		.qp_state = OIBV_QPS_RTR, .path_mtu = OIBV_MTU_1024, .dest_qp_num = remote_qpn,
		.max_dest_rd_atomic = 1, .min_rnr_timer = 12,
		.ah_attr = {
			.is_global = 1, .port_num = 1, .grh = { .dgid = *gid, .hop_limit = 64 },
		},
	};
	mask = OIBV_QP_STATE | OIBV_QP_AV | OIBV_QP_PATH_MTU | OIBV_QP_DEST_QPN | OIBV_QP_RQ_PSN;
	if (rc)
		mask |= OIBV_QP_MAX_DEST_RD_ATOMIC | OIBV_QP_MIN_RNR_TIMER;
	if (!CHECK(!oibv_modify_qp(qp, &a, mask)))
		return false;
	a = (struct oibv_qp_attr){
		.qp_state = OIBV_QPS_RTS, .timeout = 14, .retry_cnt = 7, .rnr_retry = 7,
		.max_rd_atomic = 1,
	};
	mask = OIBV_QP_STATE | OIBV_QP_SQ_PSN;
	if (rc)
		mask |= OIBV_QP_TIMEOUT | OIBV_QP_RETRY_CNT | OIBV_QP_RNR_RETRY |
			OIBV_QP_MAX_QP_RD_ATOMIC;
	return CHECK(!oibv_modify_qp(qp, &a, mask));
}

static struct oibv_qp *make_qp(struct pair *p, enum oibv_qp_type type, struct oibv_cq *cq,
			       struct oibv_srq *srq)
{
	struct oibv_qp_init_attr ia = {
		.send_cq = cq, .recv_cq = cq, .srq = srq, .qp_type = type, .sq_sig_all = 0,
		.cap = {
			.max_send_wr = 64, .max_recv_wr = srq ? 0 : 64, .max_send_sge = 2,
			.max_recv_sge = srq ? 0 : 2,
		},
	};

	return oibv_create_qp(p->pd, &ia);
}

static bool pair_make(struct pair *p, struct oibv_context *ctx, enum oibv_qp_type type,
		      struct oibv_cq *cq_a, struct oibv_cq *cq_b, bool srq)
{
	struct oibv_srq_init_attr sa = { .attr = { .max_wr = 64, .max_sge = 2 } };

	memset(p, 0, sizeof(*p));
	p->ctx = ctx;
	p->buf = mmap(NULL, BUF_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!CHECK(p->buf != MAP_FAILED))
		return false;
	p->pd = oibv_alloc_pd(ctx);
	if (!CHECK(p->pd))
		return false;
	p->cq_a = cq_a ? cq_a : oibv_create_cq(ctx, 256, NULL, NULL, 0);
	p->cq_b = cq_b ? cq_b : oibv_create_cq(ctx, 256, NULL, NULL, 0);
	p->mr = oibv_reg_mr(p->pd, p->buf, BUF_SIZE, OIBV_ACCESS_LOCAL_WRITE);
	if (!CHECK(p->cq_a && p->cq_b && p->mr))
		return false;
	if (srq) {
		p->srq = oibv_create_srq(p->pd, &sa);
		if (!CHECK(p->srq))
			return false;
	}
	p->a = make_qp(p, type, p->cq_a, NULL);
	p->b = make_qp(p, type, p->cq_b, p->srq);
	return CHECK(p->a && p->b);
}

bool pair_setup_qps(struct pair *p, struct oibv_context *ctx, enum oibv_qp_type type)
{
	return pair_make(p, ctx, type, NULL, NULL, false);
}

static bool pair_connect(struct pair *p)
{
	union oibv_gid gid;

	if (!CHECK(!oibv_query_gid(p->ctx, 1, 0, &gid)))
		return false;
	return qp_connect(p->a, p->b->qp_num, &gid) && qp_connect(p->b, p->a->qp_num, &gid);
}

bool pair_setup(struct pair *p, struct oibv_context *ctx, enum oibv_qp_type type,
		struct oibv_cq *cq_a, struct oibv_cq *cq_b)
{
	return pair_make(p, ctx, type, cq_a, cq_b, false) && pair_connect(p);
}

bool pair_setup_srq(struct pair *p, struct oibv_context *ctx, enum oibv_qp_type type)
{
	return pair_make(p, ctx, type, NULL, NULL, true) && pair_connect(p);
}

/* Destroys what pair_setup() made (CQs it was given are the caller's). */
void pair_teardown_cqs(struct pair *p, bool own_cqs)
{
	if (p->a)
		CHECK(!oibv_destroy_qp(p->a));
	if (p->b)
		CHECK(!oibv_destroy_qp(p->b));
	if (p->srq)
		CHECK(!oibv_destroy_srq(p->srq));
	if (p->mr)
		CHECK(!oibv_dereg_mr(p->mr));
	if (own_cqs && p->cq_a)
		CHECK(!oibv_destroy_cq(p->cq_a));
	if (own_cqs && p->cq_b)
		CHECK(!oibv_destroy_cq(p->cq_b));
	if (p->pd)
		CHECK(!oibv_dealloc_pd(p->pd));
	if (p->buf && p->buf != MAP_FAILED)
		munmap(p->buf, BUF_SIZE);
	memset(p, 0, sizeof(*p));
}

void pair_teardown(struct pair *p)
{
	pair_teardown_cqs(p, true);
}

bool pair_send(struct pair *p, uint32_t len, unsigned int flags, uint64_t wr_id)
{
	struct oibv_sge rs = { (uintptr_t)p->buf + BUF_SIZE / 2, BUF_SIZE / 2, p->mr->lkey };
	struct oibv_sge ss = { (uintptr_t)p->buf, len, p->mr->lkey };
	struct oibv_recv_wr rwr = { .wr_id = wr_id, .sg_list = &rs, .num_sge = 1 };
	struct oibv_send_wr swr = {
		.wr_id = wr_id, .sg_list = &ss, .num_sge = 1, .opcode = OIBV_WR_SEND,
		.send_flags = OIBV_SEND_SIGNALED | flags,
	};
	struct oibv_recv_wr *rbad;
	struct oibv_send_wr *sbad;

	return CHECK(!oibv_post_recv(p->b, &rwr, &rbad)) &&
	       CHECK(!oibv_post_send(p->a, &swr, &sbad));
}

bool poll_n(struct oibv_cq *cq, int n, struct oibv_wc *wc)
{
	int64_t end = now_ms() + 10000;
	int got = 0, r;

	while (got < n && now_ms() < end) {
		r = oibv_poll_cq(cq, n - got, wc + got);
		if (r < 0)
			return CHECK(r >= 0);
		got += r;
		if (!r)
			usleep(100);	/* TCG: give the fabric's work the CPU */
	}
	if (got < n)
		diag("polled %d of %d completions", got, n);
	return got == n;
}

bool readable(int fd, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, timeout_ms) == 1 && (pfd.revents & POLLIN);
}

bool objects_back_to(int n)
{
	int64_t end = now_ms() + 10000;

	while (live_objects() != n && now_ms() < end)
		usleep(1000);
	if (live_objects() != n) {
		diag("live objects %d, want %d", live_objects(), n);
		show_objects();
	}
	return live_objects() == n;
}

void unmap_ring(struct oibv_ring *r)
{
	if (r->mem)
		munmap(r->mem, r->size);
	r->mem = NULL;
}

void pair_unmap(struct pair *p)
{
	unmap_ring(&p->a->sq);
	unmap_ring(&p->b->sq);
	unmap_ring(&p->a->rq);
	unmap_ring(&p->b->rq);
	if (p->srq)
		unmap_ring(&p->srq->ring);
	unmap_ring(&p->cq_a->ring);
	unmap_ring(&p->cq_b->ring);
}

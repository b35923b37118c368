// SPDX-License-Identifier: GPL-2.0-only
/*
 * Abuse of oib_uverbs: sizes, flags and reserved fields, unknown commands, stale and foreign
 * handles, bad SGEs, a seeded fuzz of random commands and payloads, closing a context while a
 * thread uses it, fork, kill -9 in the middle of traffic, the device removed under open files.
 * Every case ends with the device's live object count where it began.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "ktap.h"
#include "uverbs_util.h"
#include "uverbs_abuse.h"

static bool drop_ipc_lock(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return false;
	d[CAP_IPC_LOCK / 32].effective &= ~(1u << (CAP_IPC_LOCK % 32));
	d[CAP_IPC_LOCK / 32].permitted &= ~(1u << (CAP_IPC_LOCK % 32));
	return !syscall(SYS_capset, &h, d);
}

/* In a child without CAP_IPC_LOCK: registrations are charged to RLIMIT_MEMLOCK. */
static int memlock_child(void)
{
	struct rlimit rl = { 64 << 10, 64 << 10 };
	struct oibv_context *c;
	struct oibv_mr *mr, *mr2;
	struct oibv_pd *pd;
	static char buf[1 << 20] __attribute__((aligned(4096)));

	if (!drop_ipc_lock() || setrlimit(RLIMIT_MEMLOCK, &rl))
		return 2;
	c = oibv_open_device(test_dev);
	pd = c ? oibv_alloc_pd(c) : NULL;
	if (!pd)
		return 3;
	if (oibv_reg_mr(pd, buf, sizeof(buf), 0) || errno != ENOMEM)
		return 4;
	mr = oibv_reg_mr(pd, buf, 32 << 10, 0);
	if (!mr)
		return 5;
	if (oibv_reg_mr(pd, buf + (32 << 10), 48 << 10, 0) || errno != ENOMEM)
		return 6;
	if (oibv_dereg_mr(mr))
		return 7;
	mr2 = oibv_reg_mr(pd, buf, 48 << 10, 0);
	if (!mr2 || oibv_dereg_mr(mr2) || oibv_dealloc_pd(pd))
		return 8;
	return 0;
}

bool abuse_memlock_limit(void)
{
	int base = live_objects(), st = -1;
	pid_t pid = fork();

	if (pid == 0)
		_exit(memlock_child());
	if (!CHECK(pid > 0) || !CHECK(waitpid(pid, &st, 0) == pid))
		return false;
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		diag("child status %#x", st);
	return CHECK(WIFEXITED(st) && !WEXITSTATUS(st)) && objects_back_to(base);
}

/* A command at the end of the mapped memory claiming more: -EFAULT, not a read beyond. */
static bool edge_of_mapping(int fd)
{
	char *m = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct oib_uverbs_query_device *q;
	bool ok;

	if (!CHECK(m != MAP_FAILED) || !CHECK(!munmap(m + 4096, 4096)))
		return false;
	q = (void *)(m + 4096 - sizeof(*q));
	ok = CHECK(raw_cmd(fd, OIB_UVERBS_QUERY_DEVICE, q, sizeof(*q)) == 0) &&
	     CHECK(raw_cmd(fd, OIB_UVERBS_QUERY_DEVICE, q, sizeof(*q) + 8) == EFAULT) &&
	     CHECK(raw_cmd(fd, OIB_UVERBS_QUERY_DEVICE, q, 4096) == EFAULT) &&
	     CHECK(raw_cmd(fd, OIB_UVERBS_QUERY_DEVICE, q, 4097) == E2BIG) &&
	     CHECK(raw_cmd(fd, OIB_UVERBS_QUERY_DEVICE, q, 1 << 30) == E2BIG);
	munmap(m, 4096);
	return ok;
}

bool abuse_abi(void)
{
	struct oibv_context *c = oibv_open_device(test_dev);
	struct {
		struct oib_uverbs_query_device q;
		uint64_t more[2];
	} big;
	struct oib_uverbs_poll_cq pq = { .count = OIB_UVERBS_POLL_MAX + 1 };
	struct oib_uverbs_query_device q;
	bool ok;
	int fd;

	if (!CHECK(c))
		return false;
	fd = c->cmd_fd;
	memset(&big, 0, sizeof(big));
	ok = CHECK(raw_cmd(fd, OIB_UVERBS_QUERY_DEVICE, &big, sizeof(big)) == 0) &&
	     CHECK(big.q.hdr.size == sizeof(big.q)) && CHECK(big.q.abi_version == 1);
	memset(&big, 0, sizeof(big));
	big.more[1] = 1;
	ok = ok && CHECK(raw_cmd(fd, OIB_UVERBS_QUERY_DEVICE, &big, sizeof(big)) == E2BIG);
	memset(&q, 0, sizeof(q));
	ok = ok && CHECK(raw_cmd(fd, OIB_UVERBS_QUERY_DEVICE, &q, 4) == EINVAL) &&
	     CHECK(raw_cmd(fd, OIB_UVERBS_QUERY_DEVICE, &q, sizeof(q) - 1) == EINVAL);
	q.hdr.flags = 1;
	ok = ok && CHECK(raw_cmd(fd, OIB_UVERBS_QUERY_DEVICE, &q, sizeof(q)) == EINVAL);
	memset(&q, 0, sizeof(q));
	q.reserved = 1;
	ok = ok && CHECK(raw_cmd(fd, OIB_UVERBS_QUERY_DEVICE, &q, sizeof(q)) == EINVAL);
	ok = ok && CHECK(raw_cmd(fd, OIB_UVERBS_POLL_CQ, &pq, sizeof(pq)) == EINVAL);
	/* unknown commands, wrong direction or type bits, bad pointers */
	ok = ok &&
	     CHECK(ioctl(fd, OIB_UVERBS_IOC(OIB_UVERBS_CMD_MAX), &q) == -1 && errno == ENOTTY) &&
	     CHECK(ioctl(fd, _IOWR(OIB_UVERBS_IOC_TYPE, 0, int), &q) == -1 && errno == ENOTTY) &&
	     CHECK(ioctl(fd, _IO(0x42, 0), &q) == -1 && errno == ENOTTY) &&
	     CHECK(ioctl(fd, OIB_UVERBS_IOC(0), NULL) == -1 && errno == EFAULT) &&
	     CHECK(ioctl(fd, OIB_UVERBS_IOC(0), (void *)8) == -1 && errno == EFAULT);
	ok = ok && edge_of_mapping(fd);
	oibv_close_device(c);
	return ok;
}

bool abuse_handles(void)
{
	struct oibv_context *c1 = oibv_open_device(test_dev), *c2 = oibv_open_device(test_dev);
	struct oib_uverbs_destroy d = { 0 };
	struct oibv_pd *pd2;
	struct pair p;
	uint32_t h;
	bool ok;
	int base = live_objects();

	if (!CHECK(c1 && c2) || !pair_setup(&p, c2, OIBV_QPT_RC, NULL, NULL))
		return false;
	pd2 = oibv_alloc_pd(c2);
	/* c1 has no objects: c2's handles, 0 and the largest mean nothing there */
	for (h = 0; h < 16; h++) {
		d.handle = h;
		ok = CHECK(raw_cmd(c1->cmd_fd, OIB_UVERBS_DEALLOC_PD, &d, sizeof(d)) == EINVAL);
		if (!ok)
			break;
	}
	d.handle = ~0u;
	ok = ok && CHECK(raw_cmd(c1->cmd_fd, OIB_UVERBS_DEALLOC_PD, &d, sizeof(d)) == EINVAL);
	/* a handle of another type */
	d.handle = p.cq_a->handle;
	ok = ok && CHECK(raw_cmd(c2->cmd_fd, OIB_UVERBS_DEALLOC_PD, &d, sizeof(d)) == EINVAL) &&
	     CHECK(raw_cmd(c2->cmd_fd, OIB_UVERBS_DEREG_MR, &d, sizeof(d)) == EINVAL);
	/* objects with dependents */
	ok = ok && CHECK_ERR(oibv_dealloc_pd(p.pd), EBUSY) &&
	     CHECK_ERR(oibv_destroy_cq(p.cq_a), EBUSY);
	/* a stale handle: destroyed once, then again */
	d.handle = pd2->handle;
	ok = ok && CHECK(!oibv_dealloc_pd(pd2)) &&
	     CHECK(raw_cmd(c2->cmd_fd, OIB_UVERBS_DEALLOC_PD, &d, sizeof(d)) == EINVAL);
	pair_teardown(&p);
	oibv_close_device(c1);
	oibv_close_device(c2);
	return ok && objects_back_to(base);
}

static bool post_recv_b(struct pair *p)
{
	struct oibv_sge rs = { (uintptr_t)p->buf + BUF_SIZE / 2, BUF_SIZE / 2, p->mr->lkey };
	struct oibv_recv_wr rwr = { .sg_list = &rs, .num_sge = 1 };
	struct oibv_recv_wr *bad;

	return CHECK(!oibv_post_recv(p->b, &rwr, &bad));
}

static int post_one(struct pair *p, struct oibv_sge *sge, int nsge, int opcode)
{
	struct oibv_send_wr wr = {
		.sg_list = sge, .num_sge = nsge, .opcode = opcode, .send_flags = OIBV_SEND_SIGNALED,
	};
	struct oibv_send_wr *bad;

	return oibv_post_send(p->a, &wr, &bad);
}

/* A request with a field its opcode (or an RC QP) does not use: refused. */
static bool unused_fields(struct pair *p, struct oibv_sge *sge)
{
	struct oib_uverbs_send_wr u = {
		.sg_list = (uintptr_t)sge, .num_sge = 1, .opcode = OIB_UVERBS_WR_SEND,
	};
	struct oib_uverbs_post c = { .handle = p->a->handle, .count = 1, .wrs = (uintptr_t)&u };
	__u32 *fields[] = { &u.imm_data, &u.rkey, &u.ah_handle, &u.remote_qpn, &u.remote_qkey };
	__u64 *fields64[] = { &u.remote_addr, &u.compare_add, &u.swap };
	bool ok = true;
	size_t i;

	for (i = 0; ok && i < sizeof(fields) / sizeof(fields[0]); i++) {
		*fields[i] = 1;
		ok = CHECK(raw_cmd(p->ctx->cmd_fd, OIB_UVERBS_POST_SEND, &c, sizeof(c)) == EINVAL);
		*fields[i] = 0;
		c.bad_wr = 0;
	}
	for (i = 0; ok && i < sizeof(fields64) / sizeof(fields64[0]); i++) {
		*fields64[i] = 8;
		ok = CHECK(raw_cmd(p->ctx->cmd_fd, OIB_UVERBS_POST_SEND, &c, sizeof(c)) == EINVAL);
		*fields64[i] = 0;
		c.bad_wr = 0;
	}
	/* RDMA WRITE with swap, READ with compare_add */
	u.opcode = OIB_UVERBS_WR_RDMA_WRITE;
	u.swap = 1;
	ok = ok && CHECK(raw_cmd(p->ctx->cmd_fd, OIB_UVERBS_POST_SEND, &c, sizeof(c)) == EINVAL);
	u.opcode = OIB_UVERBS_WR_RDMA_READ;
	u.swap = 0;
	u.compare_add = 1;
	c.bad_wr = 0;
	return ok && CHECK(raw_cmd(p->ctx->cmd_fd, OIB_UVERBS_POST_SEND, &c, sizeof(c)) == EINVAL);
}

/*
 * Bad requests through liboibv, over mapped rings (@rings) or ioctls: each refused, the ones
 * before a bad one posted.  A bad sg_list pointer is EFAULT from the ioctl; over a ring,
 * liboibv reads the SGEs itself, in the process, as libibverbs's providers do.
 */
static bool post_checks(bool rings)
{
	struct oibv_context *c = oibv_open_device(test_dev), *o = oibv_open_device(test_dev);
	struct oibv_sge sge[OIB_UVERBS_MAX_SGE + 1];
	struct oibv_send_wr wr[2], *bad = NULL;
	struct pair p, q;
	struct oibv_wc wc[2];
	bool ok;
	int i;

	if (!CHECK(c && o))
		return false;
	c->rings = rings;
	if (!pair_setup(&p, c, OIBV_QPT_RC, NULL, NULL) ||
	    !pair_setup(&q, o, OIBV_QPT_RC, NULL, NULL) || !CHECK(!p.a->sq.mem == !rings))
		return false;
	for (i = 0; i <= OIB_UVERBS_MAX_SGE; i++)
		sge[i] = (struct oibv_sge){ (uintptr_t)p.buf, 8, p.mr->lkey };
	ok = post_recv_b(&p) && CHECK(!post_one(&p, sge, 1, OIBV_WR_SEND)) &&
	     poll_n(p.cq_a, 1, wc) && poll_n(p.cq_b, 1, wc);
	sge[1] = (struct oibv_sge){ 0, 8, 0 };			/* local DMA lkey: never */
	ok = ok && CHECK_ERR(post_one(&p, sge + 1, 1, OIBV_WR_SEND), EINVAL);
	sge[1] = (struct oibv_sge){ (uintptr_t)p.buf + BUF_SIZE - 4, 8, p.mr->lkey };
	ok = ok && CHECK_ERR(post_one(&p, sge + 1, 1, OIBV_WR_SEND), EINVAL);
	sge[1] = (struct oibv_sge){ (uintptr_t)q.buf, 8, q.mr->lkey };	/* another context's */
	ok = ok && CHECK_ERR(post_one(&p, sge + 1, 1, OIBV_WR_SEND), EINVAL);
	ok = ok && CHECK_ERR(post_one(&p, sge, OIB_UVERBS_MAX_SGE + 1, OIBV_WR_SEND), EINVAL) &&
	     CHECK_ERR(post_one(&p, sge, 1, 7 /* SEND_WITH_INV: not offered */), EINVAL) &&
	     unused_fields(&p, sge) &&
	     (rings || CHECK_ERR(post_one(&p, (void *)8, 1, OIBV_WR_SEND), EFAULT));
	/* the second of two is bad: the first is posted, bad_wr names the second */
	memset(wr, 0, sizeof(wr));
	wr[0] = (struct oibv_send_wr){ .wr_id = 1, .next = &wr[1], .sg_list = sge, .num_sge = 1,
				       .opcode = OIBV_WR_SEND, .send_flags = OIBV_SEND_SIGNALED };
	wr[1] = wr[0];
	wr[1].next = NULL;
	wr[1].sg_list = sge + 1;
	ok = ok && post_recv_b(&p) && CHECK_ERR(oibv_post_send(p.a, wr, &bad), EINVAL) &&
	     CHECK(bad == &wr[1]);
	ok = ok && pair_send(&p, 8, 0, 10) && poll_n(p.cq_a, 2, wc) && poll_n(p.cq_b, 2, wc);
	pair_teardown(&p);
	pair_teardown(&q);
	oibv_close_device(c);
	oibv_close_device(o);
	return ok;
}

bool abuse_post(void)
{
	return post_checks(true) && post_checks(false);
}

/* xorshift64*: the fuzz's one source of randomness, so a seed reproduces a run. */
static uint64_t rnd_state;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state >> 12;
	rnd_state ^= rnd_state << 25;
	rnd_state ^= rnd_state >> 27;
	return rnd_state * 0x2545f4914f6cdd1dULL;
}

#define FUZZ_CALLS 100000

/* One random command: random number and size, a payload of zeros, small handles and noise. */
static void fuzz_one(int fd, int *nok)
{
	uint8_t buf[320] __attribute__((aligned(8)));
	unsigned int nr = rnd() % (OIB_UVERBS_CMD_MAX + 2), i, n;
	uint32_t size;

	memset(buf, 0, sizeof(buf));
	switch (rnd() % 4) {
	case 0:
		size = rnd() % 300;
		break;
	default:
		size = 8 + (rnd() % 120);
		break;
	}
	n = rnd() % 6;
	for (i = 0; i < n; i++) {
		unsigned int off = 8 + (rnd() % 120) / 4 * 4;
		uint32_t v = rnd() % 3 ? rnd() % 10 : (uint32_t)rnd();

		memcpy(buf + off, &v, sizeof(v));
	}
	((struct oib_uverbs_hdr *)buf)->size = size;
	((struct oib_uverbs_hdr *)buf)->flags = rnd() % 16 ? 0 : (uint32_t)rnd();
	if (!ioctl(fd, OIB_UVERBS_IOC(nr), buf)) {
		(*nok)++;
		if (nr == OIB_UVERBS_CREATE_COMP_CHANNEL || nr == OIB_UVERBS_GET_ASYNC_FD)
			close(((struct oib_uverbs_new_fd *)buf)->fd);
	}
}

bool abuse_fuzz(void)
{
	struct oibv_context *c = oibv_open_device(test_dev);
	struct oibv_comp_channel *ch = c ? oibv_create_comp_channel(c) : NULL;
	const char *env = getenv("OIB_FUZZ_SEED");
	int base = live_objects(), nok = 0, i, fd;
	struct oibv_cq *cq;
	struct pair p;

	rnd_state = env ? strtoull(env, NULL, 0) : 0x0b1b5eedULL;
	diag("seed %#llx (OIB_FUZZ_SEED), %d calls", (unsigned long long)rnd_state, FUZZ_CALLS);
	if (!CHECK(ch) || !pair_setup(&p, c, OIBV_QPT_RC, NULL, NULL))
		return false;
	cq = oibv_create_cq(c, 8, NULL, ch, 0);
	if (!CHECK(cq))
		return false;
	fd = c->cmd_fd;
	for (i = 0; i < FUZZ_CALLS; i++)
		fuzz_one(fd, &nok);
	diag("%d calls succeeded", nok);
	fuzz_inputs("uverbs_commands", FUZZ_CALLS);
	/* the context still answers; closing it frees whatever the fuzz made */
	struct oib_uverbs_query_device q = { 0 };

	i = raw_cmd(fd, OIB_UVERBS_QUERY_DEVICE, &q, sizeof(q));
	pair_unmap(&p);		/* a mapped ring holds the file open */
	unmap_ring(&cq->ring);
	close(ch->fd);
	close(c->async_fd);
	close(c->cmd_fd);
	return CHECK(!i) && objects_back_to(base);
}

struct hammer {
	int fd;
	int calls;
	int err;
};

static void *hammer_thread(void *arg)
{
	struct hammer *h = arg;
	struct oib_uverbs_query_device q;
	struct oib_uverbs_alloc_pd pd;

	for (;;) {
		memset(&q, 0, sizeof(q));
		memset(&pd, 0, sizeof(pd));
		h->err = raw_cmd(h->fd, OIB_UVERBS_QUERY_DEVICE, &q, sizeof(q));
		if (!h->err)
			h->err = raw_cmd(h->fd, OIB_UVERBS_ALLOC_PD, &pd, sizeof(pd));
		if (h->err)
			return NULL;
		__atomic_add_fetch(&h->calls, 1, __ATOMIC_RELEASE);
	}
}

/*
 * Closing a context under a thread that keeps making objects: the thread's calls end in EBADF,
 * everything is freed; the context's channel stays readable-empty until closed.
 */
bool abuse_close_in_use(void)
{
	struct oibv_context *c = oibv_open_device(test_dev);
	struct oibv_comp_channel *ch = c ? oibv_create_comp_channel(c) : NULL;
	int base = live_objects();
	struct hammer h = { 0 };
	int64_t end = now_ms() + 10000;
	struct oibv_cq *cq;
	struct pair p;
	pthread_t th;
	bool ok;

	if (!CHECK(ch) || !pair_setup(&p, c, OIBV_QPT_RC, NULL, NULL))
		return false;
	cq = oibv_create_cq(c, 8, NULL, ch, 0);
	if (!CHECK(cq))
		return false;
	h.fd = c->cmd_fd;
	if (!CHECK(!pthread_create(&th, NULL, hammer_thread, &h)))
		return false;
	while (__atomic_load_n(&h.calls, __ATOMIC_ACQUIRE) < 50 && now_ms() < end)
		usleep(1000);
	close(c->cmd_fd);
	pthread_join(th, NULL);
	/* the mapped rings hold the file: the context goes with the last of them */
	ok = CHECK(live_objects() > base);
	pair_unmap(&p);
	unmap_ring(&cq->ring);
	ok = ok && CHECK(h.calls >= 50) && CHECK(h.err == EBADF) && objects_back_to(base) &&
	     CHECK(!readable(ch->fd, 0));
	close(ch->fd);
	close(c->async_fd);
	return ok;
}

/* A child shares its parent's context: it can use it; its exit takes nothing with it. */
bool abuse_fork(void)
{
	struct oibv_context *c = oibv_open_device(test_dev);
	struct oibv_pd *pd = c ? oibv_alloc_pd(c) : NULL, *pd2;
	int base = live_objects(), st = -1;
	pid_t pid;
	bool ok;

	if (!CHECK(pd))
		return false;
	pid = fork();
	if (pid == 0) {
		struct oibv_device_attr a;
		struct oibv_pd *cpd = oibv_alloc_pd(c);

		_exit(oibv_query_device(c, &a) || !cpd || oibv_dealloc_pd(cpd));
	}
	ok = CHECK(pid > 0) && CHECK(waitpid(pid, &st, 0) == pid) &&
	     CHECK(WIFEXITED(st) && !WEXITSTATUS(st)) && CHECK(live_objects() == base);
	pd2 = oibv_alloc_pd(c);
	ok = ok && CHECK(pd2) && CHECK(!oibv_dealloc_pd(pd2)) && CHECK(!oibv_dealloc_pd(pd));
	oibv_close_device(c);
	return ok && objects_back_to(base - 1);
}

/* A child in the middle of traffic, killed: its objects go with it. */
/* RDMA WRITEs and sends into an SRQ's receives, an AH on the side, until killed. */
static void kill9_child(int wfd)
{
	struct oibv_context *c = oibv_open_device(test_dev);
	struct oibv_ah_attr aa = { .is_global = 1, .port_num = 1, .grh.hop_limit = 64 };
	struct oibv_wc wc[2];
	struct oibv_mr *rmr;
	struct pair p;
	uintptr_t up;
	int i;

	if (!c || !pair_setup_srq(&p, c, OIBV_QPT_RC) || !oibv_create_ah(p.pd, &aa))
		_exit(1);
	up = (uintptr_t)p.buf + BUF_SIZE / 2;
	rmr = oibv_reg_mr(p.pd, (void *)up, BUF_SIZE / 2,
			  OIBV_ACCESS_LOCAL_WRITE | OIBV_ACCESS_REMOTE_WRITE);
	if (!rmr)
		_exit(1);
	for (i = 0;; i++) {
		struct oibv_sge rs = { up, 4096, p.mr->lkey }, ss = { (uintptr_t)p.buf, 512,
								       p.mr->lkey };
		struct oibv_recv_wr rwr = { .sg_list = &rs, .num_sge = 1 }, *rbad;
		struct oibv_send_wr w[2] = {
			{ .next = &w[1], .sg_list = &ss, .num_sge = 1,
			  .opcode = OIBV_WR_RDMA_WRITE, .wr.rdma = { up + 8192, rmr->rkey } },
			{ .sg_list = &ss, .num_sge = 1, .opcode = OIBV_WR_SEND,
			  .send_flags = OIBV_SEND_SIGNALED },
		}, *sbad;

		if (oibv_post_srq_recv(p.srq, &rwr, &rbad) || oibv_post_send(p.a, w, &sbad) ||
		    !poll_n(p.cq_a, 1, wc) || !poll_n(p.cq_b, 1, wc))
			_exit(2);
		if (i == 10 && write(wfd, "R", 1) != 1)
			_exit(3);
	}
}

bool abuse_kill9(void)
{
	int base = live_objects(), fds[2], st;
	char ch = 0;
	pid_t pid;

	if (!CHECK(!pipe(fds)))
		return false;
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		kill9_child(fds[1]);
	}
	close(fds[1]);
	if (!CHECK(pid > 0) || !CHECK(read(fds[0], &ch, 1) == 1 && ch == 'R'))
		return false;
	close(fds[0]);
	kill(pid, SIGKILL);
	return CHECK(waitpid(pid, &st, 0) == pid) && CHECK(WIFSIGNALED(st)) &&
	       objects_back_to(base);
}

/*
 * The device goes while a context has objects, a channel and a thread's worth of state: its
 * objects are destroyed, every later command is -EIO, the files close cleanly.
 */
bool abuse_device_removal(void)
{
	struct oibv_context *c = oibv_open_device(test_dev);
	struct oibv_comp_channel *ch = c ? oibv_create_comp_channel(c) : NULL;
	struct oib_uverbs_query_device q = { 0 };
	char path[128];
	struct stat st;
	struct pair p;
	bool ok;

	if (!CHECK(ch) || !pair_setup(&p, c, OIBV_QPT_RC, NULL, NULL) ||
	    !CHECK(oibv_create_cq(c, 8, NULL, ch, 1 % c->num_comp_vectors)))
		return false;
	ok = CHECK(remove_device());
	snprintf(path, sizeof(path), "/sys/class/oib/%s", test_ibdev);
	ok = ok && CHECK(stat(path, &st)) && CHECK(stat(test_dev->dev_path, &st)) &&
	     CHECK(raw_cmd(c->cmd_fd, OIB_UVERBS_QUERY_DEVICE, &q, sizeof(q)) == EIO) &&
	     CHECK(open(test_dev->dev_path, O_RDWR) < 0) && CHECK(!readable(ch->fd, 0)) &&
	     CHECK(!readable(c->async_fd, 0));
	close(ch->fd);
	close(c->async_fd);
	close(c->cmd_fd);
	return ok;
}

/* As user nobody: 0 if the device could not be opened (@want_open false) or was usable. */
static int nobody_child(bool want_open)
{
	struct oibv_context *c;
	struct oibv_pd *pd;
	struct oibv_cq *cq;
	struct oibv_mr *mr;
	struct oibv_qp_init_attr ia = { .qp_type = OIBV_QPT_GSI, .port_num = 1 };
	struct oibv_qp_attr a = {
		.qp_state = OIBV_QPS_INIT, .port_num = 1, .qkey = 0x80010000 /* controlled */,
	};
	struct oibv_qp *ud;
	static char buf[4096] __attribute__((aligned(4096)));

	if (setgid(65534) || setuid(65534))
		return 2;
	c = oibv_open_device(test_dev);
	if (!want_open)
		return c || errno != EACCES ? 3 : 0;
	if (!c)
		return diag("open: errno %d", errno), 4;
	pd = oibv_alloc_pd(c);
	cq = oibv_create_cq(c, 4, NULL, NULL, 0);
	if (!pd || !cq)
		return diag("pd %p cq %p: errno %d", pd, cq, errno), 7;
	mr = oibv_reg_mr(pd, buf, sizeof(buf), OIBV_ACCESS_LOCAL_WRITE);
	if (!mr)
		return diag("reg_mr: errno %d", errno), 8;
	ia.send_cq = cq;
	ia.recv_cq = cq;
	if (oibv_create_qp(pd, &ia) || errno != EPERM)
		return 5;
	ia.qp_type = OIBV_QPT_SMI;
	if (oibv_create_qp(pd, &ia) || errno != EPERM)
		return 9;
	ia.qp_type = OIBV_QPT_UD;
	ia.port_num = 0;
	ia.cap = (struct oibv_qp_cap){ .max_send_wr = 4, .max_recv_wr = 4, .max_send_sge = 1,
				       .max_recv_sge = 1 };
	ud = oibv_create_qp(pd, &ia);
	if (!ud)
		return diag("UD QP: errno %d", errno), 10;
	if (oibv_modify_qp(ud, &a, OIBV_QP_STATE | OIBV_QP_PKEY_INDEX | OIBV_QP_PORT |
			   OIBV_QP_QKEY) != EPERM)
		return 11;
	return oibv_destroy_qp(ud) || oibv_dereg_mr(mr) || oibv_destroy_cq(cq) ||
	       oibv_dealloc_pd(pd) ? 6 : 0;
}

static bool run_nobody(bool want_open)
{
	int st = -1;
	pid_t pid = fork();

	if (pid == 0)
		_exit(nobody_child(want_open));
	if (!CHECK(pid > 0) || !CHECK(waitpid(pid, &st, 0) == pid))
		return false;
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		diag("user nobody (%s): status %#x", want_open ? "may open" : "may not", st);
	return CHECK(WIFEXITED(st) && !WEXITSTATUS(st));
}

/*
 * A user without privileges reaches the device only if its file permissions let it; then it
 * may use it (its MRs charged to its RLIMIT_MEMLOCK), but not ask for QP0 or QP1, nor give a
 * UD QP a controlled Q_Key (CAP_NET_RAW's).
 */
bool abuse_unprivileged(void)
{
	int base = live_objects();
	struct stat st;
	bool ok;

	if (!CHECK(!stat(test_dev->dev_path, &st)) || !CHECK(!(st.st_mode & 0006)))
		return false;
	ok = run_nobody(false);
	if (!CHECK(!chmod(test_dev->dev_path, 0666)))
		return false;
	ok = run_nobody(true) && ok;
	return CHECK(!chmod(test_dev->dev_path, st.st_mode & 07777)) && ok && objects_back_to(base);
}

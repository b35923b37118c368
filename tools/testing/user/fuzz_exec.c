// SPDX-License-Identifier: GPL-2.0-only
/*
 * Running a program: its arguments resolved (a result of a call not run, or failed, is 0), its
 * structs built, its calls made: those before the split in order on the main thread, the rest
 * on the threads they name, started together.  Rings are mapped into slots of a region the
 * fuzzer reserves, and "unmapped" by mapping that slot inaccessible again, so that a stale write
 * faults (caught) instead of landing in the fuzzer's own memory.  What a program opened, mapped
 * or forked is closed, unmapped or killed after it.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include "fuzz.h"
#include "uverbs_util.h"

#define SLOTS		64
#define SLOT_SIZE	(1024 * 1024)
#define RING_HDR	sizeof(struct oib_uverbs_ring_hdr)

struct fz_env fz_env;
unsigned long long fz_calls;
double fz_cleanup_s;

static char *region;			/* SLOTS reserved slots for mapped rings */
static const struct fz_prog *prog;	/* the program running */
static uint64_t res[FZ_MAXCALLS][FZ_MAXOUT];
static int done[FZ_MAXCALLS];		/* 1: the call ran and succeeded */
static int *errs_out;
static unsigned int fresh_cover;	/* edges the program's calls found first */
static uint8_t *sig_out;

struct ringinfo {
	uint32_t entries, stride;
};

static struct ringinfo rings[FZ_MAXCALLS][FZ_MAXOUT];

struct mapinfo {
	char *addr;
	uint32_t len, entries, stride;
};

static struct mapinfo maps[FZ_MAXCALLS];
static unsigned int next_slot;

static pthread_mutex_t own_lock = PTHREAD_MUTEX_INITIALIZER;	/* protects fds, npids */
static int fds[FZ_MAXCALLS * 4], nfds;	/* the program's fds, closed after it */
static pid_t pids[FZ_MAXCALLS];
static int npids;

static pthread_barrier_t start, end;
static __thread sigjmp_buf *fault_jmp;

static void count_call(void)
{
	__atomic_add_fetch(&fz_calls, 1, __ATOMIC_RELAXED);
}

static void on_fault(int sig)
{
	if (fault_jmp)
		siglongjmp(*fault_jmp, 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

static bool own_fd(int fd, bool drop)
{
	bool found = false;
	int i;

	pthread_mutex_lock(&own_lock);
	for (i = 0; i < nfds; i++)
		if (fds[i] == fd) {
			found = true;
			if (drop)
				fds[i] = fds[--nfds];
			break;
		}
	pthread_mutex_unlock(&own_lock);
	return found;
}

static void add_fd(int fd)
{
	pthread_mutex_lock(&own_lock);
	if (nfds < (int)(sizeof(fds) / sizeof(fds[0])))
		fds[nfds++] = fd;
	pthread_mutex_unlock(&own_lock);
}

static uint64_t argv_of(const struct fz_arg *a)
{
	if (a->how != A_RES)
		return a->val;
	return __atomic_load_n(&done[a->call], __ATOMIC_ACQUIRE) ? res[a->call][a->slot] : 0;
}

/* The requests the post builders make, per thread. */
static __thread struct oib_uverbs_send_wr swr[OIB_UVERBS_MAX_WR];
static __thread struct oib_uverbs_recv_wr rwr[OIB_UVERBS_MAX_WR];
static __thread struct oib_uverbs_sge sges[OIB_UVERBS_MAX_WR][OIB_UVERBS_MAX_SGE];
static __thread struct oib_uverbs_wc wcs[OIB_UVERBS_POLL_MAX];

static uint64_t addr_of(const struct fz_arg *a)
{
	return a->how == A_ABS ? a->val : (uintptr_t)fz_env.buf + a->val;
}

static uint64_t build_ptr(const struct fz_call *c, const struct fz_desc *d, int kind,
			  uint64_t choice, uint32_t count)
{
	const struct fz_arg *v = &c->a[d->vbase];
	uint32_t nsge = argv_of(&v[2]), i, j;

	if (choice)
		return choice == 1 ? 0 : 0xdead0000;
	if (kind == PTR_WCS)
		return (uintptr_t)wcs;
	if (count > OIB_UVERBS_MAX_WR)
		count = OIB_UVERBS_MAX_WR;
	for (i = 0; i < count; i++) {
		for (j = 0; j < nsge && j < OIB_UVERBS_MAX_SGE; j++)
			sges[i][j] = (struct oib_uverbs_sge){
				.addr = addr_of(&v[3]) + j * 64, .length = argv_of(&v[4]),
				.lkey = argv_of(&v[5]),
			};
		if (kind == PTR_RECV) {
			rwr[i] = (struct oib_uverbs_recv_wr){
				.wr_id = i, .sg_list = (uintptr_t)sges[i], .num_sge = nsge,
			};
			continue;
		}
		swr[i] = (struct oib_uverbs_send_wr){
			.wr_id = i, .sg_list = (uintptr_t)sges[i], .num_sge = nsge,
			.opcode = argv_of(&v[0]), .send_flags = argv_of(&v[1]),
			.remote_addr = addr_of(&v[6]), .rkey = argv_of(&v[7]),
			.ah_handle = argv_of(&v[8]), .remote_qpn = argv_of(&v[9]),
			.remote_qkey = argv_of(&v[10]),
		};
		if (swr[i].opcode >= OIB_UVERBS_WR_RDMA_READ)
			swr[i].remote_addr &= ~7ull;
	}
	return kind == PTR_RECV ? (uintptr_t)rwr : (uintptr_t)swr;
}

static void put_field(char *buf, const struct fz_field *f, uint64_t v)
{
	memcpy(buf + f->off, &v, f->size);	/* little endian: the low bytes */
}

/* An ioctl of the table: build its struct, call, take its results.  Returns errno. */
static int run_ioctl(int i, const struct fz_call *c, const struct fz_desc *d)
{
	static const uint32_t ones[4] = { ~0u, ~0u, ~0u, ~0u };
	uint64_t cmd[4400 / 8] = { 0 };
	char *b = (char *)cmd;
	uint32_t size = d->size;
	int k, fd = argv_of(&c->a[0]), ret, last = d->vbase ? d->vbase : d->nf;

	for (k = 1; k < last; k++) {
		const struct fz_field *f = &d->f[k];
		const struct fz_arg *a = &c->a[k];
		uint64_t v = argv_of(a);

		switch (f->type) {
		case FT_SIZE:
			size = v == 1 ? d->min_size : v == 2 ? d->min_size - 1 : v == 3 || v == 4 ?
			       d->size + 8 : v == 5 ? 4097 : v == 6 ? 0 : d->size;
			if (v == 4)
				b[d->size + 3] = 1;
			break;
		case FT_ADDR:
			put_field(b, f, addr_of(a));
			break;
		case FT_GID:
			memcpy(b + f->off, v == 0 ? fz_env.peer_gid : v == 1 ? fz_env.own_gid :
			       v == 3 ? (const uint8_t *)ones : (const uint8_t *)&cmd[500], 16);
			if (v == 4)
				b[f->off + 15] = (char)i;
			break;
		case FT_FD:
			if (a->how == A_LIT && v == 0xffffffff)
				v = (uint64_t)-1;
			else if (a->how == A_LIT && v >> 32)	/* the domain files */
				v = v == 1ull << 32 ? fz_env.file_rw : fz_env.file_ro;
			put_field(b, f, v);
			break;
		case FT_PTR:	/* the post commands' WRs, POLL_CQ's completions */
			ret = d->nr == OIB_UVERBS_POLL_CQ ? PTR_WCS :
			      d->nr == OIB_UVERBS_POST_SEND ? PTR_SEND : PTR_RECV;
			put_field(b, f, build_ptr(c, d, ret, v, argv_of(&c->a[k - 1])));
			break;
		default:
			put_field(b, f, v);
		}
	}
	((struct oib_uverbs_hdr *)b)->size = size;
	count_call();
	ret = ioctl(fd, OIB_UVERBS_IOC(d->nr), b) ? errno : 0;
	if (ret)
		return ret;
	for (k = 0; k < FZ_MAXOUT && d->out[k].kind; k++) {
		const struct fz_out *o = &d->out[k];
		uint32_t v32 = 0;

		if (o->size == 0) {
			struct oib_uverbs_ring r;

			memcpy(&r, b + o->off, sizeof(r));
			res[i][k] = r.size ? (r.offset >> 12) << 32 | r.size : 0;
			rings[i][k] = (struct ringinfo){ r.entries, r.stride };
			continue;
		}
		memcpy(&v32, b + o->off, o->size < 4 ? o->size : 4);
		res[i][k] = v32;
		if (o->kind == K_ASYNC || o->kind == K_CHAN) {
			add_fd(v32);
			fcntl(v32, F_SETFL, O_NONBLOCK);
		}
	}
	if (d->nr == OIB_UVERBS_MODIFY_QP && (argv_of(&c->a[4]) & 1))
		sig_out[i] = argv_of(&c->a[5]) & 0xf;
	if (d->nr == OIB_UVERBS_CREATE_QP)
		sig_out[i] = (argv_of(&c->a[7]) & 7) | (argv_of(&c->a[16]) & 3) << 3 |
			     !!argv_of(&c->a[15]) << 5;
	return 0;
}

static void reserve(char *addr, size_t len)
{
	mmap(addr, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
}

static int do_mmap(int i, const struct fz_call *c)
{
	uint64_t ring = argv_of(&c->a[1]);
	unsigned int slot = __atomic_fetch_add(&next_slot, 1, __ATOMIC_RELAXED) % SLOTS;
	char *at = region + (size_t)slot * SLOT_SIZE, *m;
	uint32_t len = (uint32_t)ring ? (uint32_t)ring : 4096;
	struct ringinfo ri = { 0, 0 };

	if (len > SLOT_SIZE)
		len = SLOT_SIZE;
	if (c->a[1].how == A_RES)
		ri = rings[c->a[1].call][c->a[1].slot];
	count_call();
	m = mmap(at, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, argv_of(&c->a[0]),
		 (ring >> 32) << 12);
	if (m == MAP_FAILED) {
		reserve(at, SLOT_SIZE);
		return errno;
	}
	maps[i] = (struct mapinfo){ at, len, ri.entries, ri.stride };
	res[i][0] = (uintptr_t)at;
	return 0;
}

static struct mapinfo *map_of(const struct fz_arg *a)
{
	if (a->how != A_RES || !__atomic_load_n(&done[a->call], __ATOMIC_ACQUIRE) ||
	    !maps[a->call].addr)
		return NULL;
	return &maps[a->call];
}

/* Write into a mapped ring as the process may, sane or not. */
static void ring_poke(const struct mapinfo *mi, const struct fz_call *c)
{
	uint32_t what = argv_of(&c->a[1]), idx = argv_of(&c->a[2]), val = argv_of(&c->a[3]);
	struct oib_uverbs_ring_hdr *h = (void *)mi->addr;
	uint32_t prod = __atomic_load_n(&h->producer, __ATOMIC_ACQUIRE);
	static const uint32_t step[4] = { 1, 0, -1u, 0x80000000u };
	char *e;

	switch (what) {
	case 0 ... 3:	/* the producer index moved: +1, +index, -1, half the index space */
		__atomic_store_n(&h->producer, prod + (what == 1 ? idx : step[what]),
				 __ATOMIC_RELEASE);
		break;
	case 4:
		__atomic_store_n(&h->consumer, val, __ATOMIC_RELEASE);
		break;
	case 5:
		__atomic_store_n(&h->flags, val, __ATOMIC_RELEASE);
		break;
	case 6:		/* a word of the entries */
		if (mi->len > RING_HDR + 8)
			__atomic_store_n((uint64_t *)(mi->addr + RING_HDR +
				(idx * 8ull) % (mi->len - RING_HDR - 8) / 8 * 8), val,
				__ATOMIC_RELAXED);
		break;
	default:	/* a request at the producer index, then the index */
		if (!mi->entries || !mi->stride)
			break;
		e = mi->addr + RING_HDR + (size_t)(prod & (mi->entries - 1)) * mi->stride;
		if (e + mi->stride > mi->addr + mi->len || mi->stride < 96)
			break;
		if (idx & 1)
			*(struct oib_uverbs_recv_wr *)e = (struct oib_uverbs_recv_wr){
				.wr_id = prod, .num_sge = 1 };
		else
			*(struct oib_uverbs_send_wr *)e = (struct oib_uverbs_send_wr){
				.wr_id = prod, .num_sge = 1, .opcode = OIB_UVERBS_WR_SEND,
				.send_flags = OIB_UVERBS_SEND_SIGNALED };
		*(struct oib_uverbs_sge *)(e + (idx & 1 ? sizeof(struct oib_uverbs_recv_wr) :
						sizeof(struct oib_uverbs_send_wr))) =
			(struct oib_uverbs_sge){ (uintptr_t)fz_env.buf, 64, argv_of(&c->a[4]) };
		__atomic_store_n(&h->producer, prod + 1, __ATOMIC_RELEASE);
	}
}

/* A ring write; a fault (the slot unmapped meanwhile) is EFAULT. */
static int ring_write(const struct fz_call *c)
{
	struct mapinfo *mi = map_of(&c->a[0]);
	sigjmp_buf jb;

	if (!mi)
		return EFAULT;
	if (sigsetjmp(jb, 1)) {
		fault_jmp = NULL;
		return EFAULT;
	}
	fault_jmp = &jb;
	ring_poke(mi, c);
	fault_jmp = NULL;
	return 0;
}

static int read_events(int i, const struct fz_call *c)
{
	struct oib_uverbs_event ev[32];
	uint32_t n = argv_of(&c->a[1]);
	int fd = argv_of(&c->a[0]);
	ssize_t r;

	if (!own_fd(fd, false))
		return EBADF;
	count_call();
	r = read(fd, ev, (n > 32 ? 32 : n ? n : 1) * sizeof(ev[0]));
	if (r < 0)
		return errno;
	if (r >= (ssize_t)sizeof(ev[0]))
		sig_out[i] = 1 + (ev[0].type & 0x3f);
	return 0;
}

static void spin_us(uint32_t us)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000 + (b.tv_nsec - a.tv_nsec) / 1000 < us);
}

static void run_thread(int tid, int from, bool child);

static int do_fork(int i, const struct fz_call *c, int tid)
{
	uint32_t kill_us = argv_of(&c->a[0]);
	pid_t pid;

	count_call();
	pid = fork();
	if (pid < 0)
		return errno;
	if (!pid) {		/* the rest of this thread's calls, then exit mid-program */
		fz_cover_forget();
		run_thread(tid, i + 1, true);
		_exit(0);
	}
	pthread_mutex_lock(&own_lock);
	pids[npids++] = pid;
	pthread_mutex_unlock(&own_lock);
	if (kill_us != 0xffffffff) {
		spin_us(kill_us % 20000);
		kill(pid, SIGKILL);
	}
	return 0;
}

static int run_pseudo(int i, const struct fz_call *c, const struct fz_desc *d, int tid)
{
	uint32_t qpn;
	int fd, r;

	switch (d->pseudo) {
	case P_OPEN:
		count_call();
		fd = open(fz_env.dev_path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			return errno;
		add_fd(fd);
		res[i][0] = fd;
		return 0;
	case P_CLOSE:
		fd = argv_of(&c->a[0]);
		if (!own_fd(fd, true))
			return EBADF;
		count_call();
		return close(fd) ? errno : 0;
	case P_MMAP:
		return do_mmap(i, c);
	case P_MUNMAP:
		if (!map_of(&c->a[0]))
			return EINVAL;
		count_call();
		reserve(map_of(&c->a[0])->addr, SLOT_SIZE);
		return 0;
	case P_RINGW:
		return ring_write(c);
	case P_READEV:
		return read_events(i, c);
	case P_FORK:
		return do_fork(i, c, tid);
	case P_DELAY:
		spin_us(argv_of(&c->a[0]) % 5000);
		return 0;
	case P_PEER_QP:
		count_call();
		r = fz_peer_qp(argv_of(&c->a[0]), argv_of(&c->a[1]), &qpn);
		if (r < 0)
			return -r;
		res[i][0] = r;
		res[i][1] = qpn;
		return 0;
	case P_REMOVE:		/* the fuzzer makes a new device after the program */
		count_call();
		return remove_device() ? 0 : EIO;
	case P_PEER_SEND:
		count_call();
		r = fz_peer_send(argv_of(&c->a[0]), argv_of(&c->a[1]), argv_of(&c->a[2]),
				 argv_of(&c->a[3]), addr_of(&c->a[4]), argv_of(&c->a[5]));
		if (!r)
			sig_out[i] = argv_of(&c->a[1]) & 0xf;
		return r;
	}
	return EINVAL;
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000ull + t.tv_nsec;
}

uint64_t fz_cmd_ns[FZ_MAXDESCS], fz_cmd_runs[FZ_MAXDESCS];

static void run_call(int i, int tid)
{
	const struct fz_call *c = &prog->c[i];
	const struct fz_desc *d = &fz_descs[c->cmd];
	uint64_t t0 = now_ns();
	unsigned int fresh;
	int e;

	fz_cover_begin();
	e = d->pseudo ? run_pseudo(i, c, d, tid) : run_ioctl(i, c, d);
	__atomic_add_fetch(&fz_cmd_ns[c->cmd], now_ns() - t0, __ATOMIC_RELAXED);
	__atomic_add_fetch(&fz_cmd_runs[c->cmd], 1, __ATOMIC_RELAXED);
	fresh = fz_cover_end();
	if (fresh)
		__atomic_add_fetch(&fresh_cover, fresh, __ATOMIC_RELAXED);
	errs_out[i] = e;
	if (!e)
		__atomic_store_n(&done[i], 1, __ATOMIC_RELEASE);
}

/* Thread @tid's calls from @from: the concurrent part (a child: what is left of its part). */
static void run_thread(int tid, int from, bool child)
{
	int i;

	for (i = from; i < prog->n; i++)
		if (i < prog->split ? child : prog->c[i].thread == tid)
			run_call(i, tid);
}

static void *worker(void *arg)
{
	int tid = (intptr_t)arg;

	fz_cover_thread();
	for (;;) {
		pthread_barrier_wait(&start);
		run_thread(tid, prog->split, false);
		pthread_barrier_wait(&end);
	}
	return NULL;
}

bool fz_exec_init(void)
{
	struct sigaction sa = { .sa_handler = on_fault, .sa_flags = SA_NODEFER };
	pthread_t t;
	int i;

	region = mmap(NULL, (size_t)SLOTS * SLOT_SIZE, PROT_NONE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	fz_env.buf = mmap(NULL, FZ_BUF, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);
	if (region == MAP_FAILED || fz_env.buf == MAP_FAILED)
		return false;
	memset(fz_env.buf, 0x5a, FZ_BUF);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	pthread_barrier_init(&start, NULL, FZ_THREADS);
	pthread_barrier_init(&end, NULL, FZ_THREADS);
	for (i = 1; i < FZ_THREADS; i++)
		if (pthread_create(&t, NULL, worker, (void *)(intptr_t)i))
			return false;
	fz_cover_thread();
	return true;
}

unsigned int fz_exec(const struct fz_prog *p, int *errs, uint8_t *sig)
{
	struct timespec t0, t1;
	int i;

	prog = p;
	fresh_cover = 0;
	errs_out = errs;
	sig_out = sig;
	memset(done, 0, sizeof(done));
	memset(res, 0, sizeof(res));
	memset(maps, 0, sizeof(maps));
	for (i = 0; i < p->n; i++) {
		errs[i] = -1;
		sig[i] = 0;
	}
	for (i = 0; i < p->split; i++)
		run_call(i, 0);
	pthread_barrier_wait(&start);
	run_thread(0, p->split, false);
	pthread_barrier_wait(&end);

	/* What the program left: its children killed, its fds closed, its rings unmapped. */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < npids; i++) {
		kill(pids[i], SIGKILL);
		waitpid(pids[i], NULL, 0);
	}
	npids = 0;
	for (i = 0; i < nfds; i++)
		close(fds[i]);
	nfds = 0;
	reserve(region, (size_t)SLOTS * SLOT_SIZE);
	fz_peer_reset();
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fz_cleanup_s += t1.tv_sec - t0.tv_sec + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	return fresh_cover;
}

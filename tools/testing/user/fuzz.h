/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_uverbs_fuzz: a stateful syscall fuzzer of the oib_uverbs user ABI (Documentation/testing.md).
 * A program is a list of calls (ioctls of the command table, and pseudo-calls: open, close, mmap,
 * ring writes, fork, a peer on a second device); each argument is a literal or the result of an
 * earlier call (a handle, an fd, a key, a ring, a mapping).  Calls before the program's split run
 * in order on one thread, the rest concurrently on the threads they name.
 */
#ifndef OIB_FUZZ_H
#define OIB_FUZZ_H

#include <stdbool.h>
#include <stdint.h>
#include <oib/uverbs.h>

#define FZ_MAXCALLS	128
/* A program's stream of data-path calls (fuzz_gen.c): most of its calls, and the cheap ones. */
#define FZ_STREAM_MIN	16
#define FZ_STREAM_MAX	96
#define FZ_MAXF		24	/* fields (arguments) of a call */
#define FZ_MAXOUT	4	/* results of a call */
#define FZ_THREADS	3
/* A program's ancestry: generated from the first seed, mutated by each of the others. */
#define FZ_MAXSEEDS	8

/* What a result is (and what an argument wants). */
enum fz_kind {
	K_NONE, K_CTX, K_PD, K_CQ, K_QP, K_SRQ, K_MR, K_LKEY, K_RKEY, K_AH, K_XRCD, K_CHAN,
	K_ASYNC, K_QPN, K_SRQN, K_RING, K_MAP, K_PEER, K_PEERQPN, K_RCVQPN, K_NKINDS,
};

#define KB(k)	(1u << (k))

enum fz_ftype {
	FT_CONST,	/* p (a reserved field: almost always) */
	FT_RES,		/* a result of a kind in the mask p */
	FT_INT,		/* from the value set p */
	FT_FLAGS,	/* bits of the mask p */
	FT_UHANDLE,	/* a user handle: anything */
	FT_ADDR,	/* a user address: in the fuzz buffer, or NULL, or bad */
	FT_GID,		/* 16 bytes: the peer's GID, our own, zero, ones */
	FT_SIZE,	/* hdr.size: ours, the first version's, less, more */
	FT_FD,		/* an fd argument: -1, a result (kinds p), the domain files */
	FT_PTR,		/* a pointer the executor builds: p = PTR_SEND, PTR_RECV, PTR_WCS */
};

enum { PTR_SEND, PTR_RECV, PTR_WCS };

struct fz_field {
	const char *name;
	int16_t off;		/* -1: not in the struct (a pseudo-call's or a builder's) */
	uint8_t size;
	uint8_t type;
	uint64_t p;
};

struct fz_out {
	uint8_t kind;
	int16_t off;
	uint8_t size;		/* 0: a struct oib_uverbs_ring at @off (K_RING) */
};

/* Pseudo-calls: what a process does around the ioctls. */
enum fz_pseudo {
	P_NONE, P_OPEN, P_CLOSE, P_MMAP, P_MUNMAP, P_RINGW, P_READEV, P_FORK, P_DELAY,
	P_PEER_QP, P_PEER_SEND, P_REMOVE,
};

struct fz_desc {
	const char *name;
	int nr;			/* the ioctl, or -1 */
	uint8_t pseudo;
	uint8_t destroys;	/* 1 + the field whose result it destroys, or 0 */
	uint8_t weight;
	uint16_t size, min_size;
	uint8_t nf, vbase;	/* fields; the first not in the struct (builders' inputs) */
	const struct fz_field *f;
	struct fz_out out[FZ_MAXOUT];
};

extern const struct fz_desc fz_descs[];
extern const int fz_ndescs;
int fz_desc_find(const char *name);
/* The value set @id (FT_INT), its length in *@n. */
const uint64_t *fz_set(unsigned int id, int *n);
enum { S_SMALL, S_CQE, S_WR, S_SGE, S_QPT, S_QPS, S_MTU, S_PORT, S_OPCODE, S_SRQT, S_OFLAGS,
	S_RINGW, S_KILL, S_DELAY, S_PEEROP, S_LEN, S_NEV, S_U8, S_PSN, S_NSETS };

enum { A_LIT, A_RES, A_ABS };	/* a literal, a result, an absolute address */

struct fz_arg {
	uint8_t how;
	uint8_t slot;
	uint16_t call;
	uint64_t val;
};

struct fz_call {
	uint8_t cmd;
	uint8_t thread;
	struct fz_arg a[FZ_MAXF];
};

struct fz_prog {
	int n, split;
	struct fz_call c[FZ_MAXCALLS];
	int nseeds;
	uint64_t seeds[FZ_MAXSEEDS];
};

/* fuzz_gen.c */
uint64_t fz_rand(uint64_t *s);
void fz_generate(struct fz_prog *p, uint64_t seed);
void fz_mutate(struct fz_prog *p, uint64_t seed);
/* A program from its ancestry (fz_prog.seeds); false if it has none. */
bool fz_rebuild(struct fz_prog *p, const uint64_t *seeds, int n);
void fz_print(const struct fz_prog *p, const int *errs);

/* fuzz_exec.c */
struct fz_env {
	char dev_path[96];	/* /dev/oib_uverbs<N> of the device under test */
	uint8_t peer_gid[16], own_gid[16];
	int file_rw, file_ro;	/* the domain files */
	char *buf;		/* FZ_BUF bytes, what MRs and SGEs point into */
};

#define FZ_BUF	(256 * 1024)
extern struct fz_env fz_env;
extern unsigned long long fz_calls;	/* system calls made, all threads */
extern double fz_cleanup_s;		/* time spent after programs, undoing what they left */
#define FZ_MAXDESCS	64
/* Per command (fz_descs' index): time spent in its calls, and how many ran. */
extern uint64_t fz_cmd_ns[FZ_MAXDESCS], fz_cmd_runs[FZ_MAXDESCS];

bool fz_exec_init(void);
/*
 * Run @p: errs[i] is call i's errno (0 success, -1 not run); sig[i] a value of the state it
 * reached (the feedback).  Returns how many coverage edges its calls were the first to reach.
 */
unsigned int fz_exec(const struct fz_prog *p, int *errs, uint8_t *sig);

/* fuzz_cover.c: KCOV's edges; fz_exec() answers how many its program found first. */
bool fz_cover_init(void);
void fz_cover_thread(void);
void fz_cover_forget(void);
void fz_cover_begin(void);
unsigned int fz_cover_end(void);
long fz_cover_edges(void);

/* fuzz_peer.c: the second device, driven by the peer calls. */
struct oibv_device;
bool fz_peer_init(struct oibv_device *dev);
void fz_peer_fini(void);
/* A peer QP of @type connected to @qpn on the device under test: its index, or -errno. */
int fz_peer_qp(uint32_t qpn, int type, uint32_t *peer_qpn);
int fz_peer_send(int idx, int op, uint32_t count, uint32_t len, uint64_t raddr, uint32_t rkey);
/* Destroy every peer QP of the program. */
void fz_peer_reset(void);

#endif /* OIB_FUZZ_H */

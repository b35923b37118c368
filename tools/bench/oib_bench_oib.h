/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_bench's connections over the oib verbs, shared by its two device kinds: two oib_rxe devices
 * on a fabric whose QP pairs oib_bench_main.c moves to RTS itself, and two oib_siw devices on
 * netdevs whose QP pairs oib_bench_siw.c connects through oib_cma (an iWARP QP moves only with
 * its TCP connection).  The phases of oib_bench_core.h run over either through the same calls.
 */
#ifndef OIB_BENCH_OIB_H
#define OIB_BENCH_OIB_H

#include <linux/completion.h>
#include <oib/verbs.h>
#include <oib/rdma_cm.h>

/* OIB_BENCH_PAIRS of oib_bench_core.h (oib_bench_main.c checks), which only main includes */
#define OIB_BENCH_NPAIRS	8

/* One device and what its QPs share; @remove takes the device away again; @gid: oib_rxe's. */
struct oib_bench_dev {
	struct oib_device *device;
	int (*remove)(struct oib_device *device);
	struct oib_pd *pd;
	union oib_gid gid;
	enum oib_mtu mtu;
	u32 rd_atom;
};

/*
 * One side of a pair: a QP, its CQ and its buffer.  Over oib_cma the QP is @id's; the id's
 * handler writes @ev and @status and completes @ev_done, for the loading thread to wait on.
 */
struct oib_bench_side {
	struct oib_bench_dev *dev;
	struct oib_cq *cq;
	struct oib_qp *qp;
	struct oib_mr *mr;
	void *buf;
	struct oib_cma_id *id;
	struct completion ev_done;
	enum oib_cma_event_type ev;
	int status;
};

struct oib_bench_conn {
	struct oib_bench_dev dev[2];
	struct oib_bench_side side[OIB_BENCH_NPAIRS][2];
};

/*
 * oib_bench_main.c: @s's buffer, CQ, MR and QP on @d; the QP is @s->id's if @s has an oib_cma
 * id (made by the caller or a listener), else one of its own.
 */
int oib_bench_side_create(struct oib_bench_side *s, struct oib_bench_dev *d);
/* Query @d's device (@mtu, @rd_atom), make its PD: what both kinds do once it is there. */
int oib_bench_dev_init(struct oib_bench_dev *d);
/*
 * oib_bench_main.c: an oib_rxe device on the bench fabric, initialised (oib_bench_dev_init()); a
 * failure leaves what was made in @d for oib_bench_dev_destroy(), which removes the device.
 */
int oib_bench_dev_create(struct oib_bench_dev *d);
void oib_bench_dev_destroy(struct oib_bench_dev *d);
/* oib_bench_main.c: print what @d's port resent, its timeouts, RNR NAKs and sequence drops. */
void oib_bench_port_stats(struct oib_bench_dev *d);
/*
 * oib_bench_main.c: move @qp (RC or XRC initiator) of @me RESET -> INIT -> RTR -> RTS towards QP
 * @dest_qpn of @peer (oib_rxe devices: the path is the GID's).
 */
int oib_bench_qp_connect(struct oib_qp *qp, struct oib_bench_dev *me, struct oib_bench_dev *peer,
			 u32 dest_qpn);

/*
 * oib_bench_siw.c: the two oib_siw devices of @c and its pairs connected through oib_cma;
 * returns the name of the step that failed (and sets *@ret), or NULL.  Teardown is main's, as
 * for oib_rxe (the sides, then the devices).
 */
const char *oib_bench_siw_setup(struct oib_bench_conn *c, int *ret);
/* oib_bench_cma.c's connection phases between the two oib_siw devices of @c, as "oib_siw". */
void oib_bench_siw_cma(struct oib_bench_conn *c, unsigned int timeout_ms);

#endif /* OIB_BENCH_OIB_H */

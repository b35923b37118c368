/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_rxe, the software RDMA device: what tests and tools call to make and break devices.
 * Users reach the same from sysfs: /sys/module/oib_rxe/parameters/{add,remove}.
 */
#ifndef OIB_RXE_H
#define OIB_RXE_H

#include <oib/device.h>

/* Zero in any limit means the default. */
struct oib_rxe_params {
	u32 num_ports;		/* 1..OIB_RXE_MAX_PORTS */
	const char *fabric;	/* the in-kernel fabric its ports attach to; NULL: "default" */
	u32 max_pd, max_cq, max_qp, max_srq, max_mr, max_ah;
	u32 max_cqe, max_qp_wr, max_srq_wr;
};

#define OIB_RXE_MAX_PORTS 8

/* What a port counts about the frames it receives and sends; also in debugfs. */
enum oib_rxe_port_stat {
	OIB_RXE_RX_FRAMES,
	OIB_RXE_RX_DROP_PORT_DOWN,	/* link down, or the device is going away */
	OIB_RXE_RX_DROP_MALFORMED,	/* the parser refused it */
	OIB_RXE_RX_DROP_DGID,		/* not addressed to one of this port's GIDs */
	OIB_RXE_RX_DROP_NO_QP,		/* no such QP, or one of the wrong type */
	OIB_RXE_RX_DROP_QP_STATE,	/* the QP does not receive in its state */
	OIB_RXE_RX_DROP_PKEY,
	OIB_RXE_RX_DROP_QKEY,
	OIB_RXE_RX_DROP_NO_RECV,	/* UD and UC: no receive posted */
	OIB_RXE_RX_DROP_SEQ,		/* out of sequence: NAKed (RC), message dropped (UC) */
	OIB_RXE_RX_DROP_RESP,		/* an ACK or response that answers nothing outstanding */
	OIB_RXE_RX_DROP_ACCESS,		/* UC: a write to memory its R_Key does not grant */
	OIB_RXE_RX_DUPLICATES,		/* RC requests seen before: acknowledged or replayed */
	OIB_RXE_RX_BYTES,		/* of the frames received */
	OIB_RXE_RX_RNR_NAKS,		/* requester: RNR NAKs received */
	OIB_RXE_RX_NAKS,		/* requester: sequence and error NAKs received */
	OIB_RXE_TX_FRAMES,
	OIB_RXE_TX_BYTES,
	OIB_RXE_TX_NO_ROUTE,		/* link down, or nobody owns the destination GID */
	OIB_RXE_TX_RETRANSMITS,		/* request packets sent again */
	OIB_RXE_TX_TIMEOUTS,		/* requester: retransmission timer expiries */
	OIB_RXE_TX_ACKS,		/* responder: ACKs sent */
	OIB_RXE_TX_RNR_NAKS,		/* responder: RNR NAKs sent */
	OIB_RXE_TX_NAKS,		/* responder: sequence and error NAKs sent */
	OIB_RXE_PORT_NSTATS,
};

/*
 * Create and register a device named oib_rxe<N>, its ports ACTIVE, attached to the named fabric
 * and reachable there at their link-local GIDs.
 */
struct oib_device *oib_rxe_add(const struct oib_rxe_params *params);
/* Unregister (waiting for its users) and free a device made by oib_rxe_add(). */
int oib_rxe_remove(struct oib_device *device);
/* A port counter, or 0 for a device or port that is not oib_rxe's. */
u64 oib_rxe_port_stat(struct oib_device *device, u32 port, enum oib_rxe_port_stat stat);
/* Take a port's link down or up, raising PORT_ERR or PORT_ACTIVE. */
int oib_rxe_set_port_state(struct oib_device *device, u32 port, bool up);

#endif /* OIB_RXE_H */

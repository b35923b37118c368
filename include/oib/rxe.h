/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_rxe, the software RDMA device: what tests and tools call to make and break devices and the
 * fabrics between them.  Users reach the same from sysfs
 * (/sys/module/oib_rxe/parameters/{add,remove}) and debugfs.
 */
#ifndef OIB_RXE_H
#define OIB_RXE_H

#include <oib/device.h>

/* Zero in any limit means the default. */
struct net_device;

struct oib_rxe_params {
	u32 num_ports;		/* 1..OIB_RXE_MAX_PORTS; 1 (or 0) with netdev */
	const char *fabric;	/* the in-kernel fabric its ports attach to; NULL: "default" */
	/*
	 * A device on a network device instead: one port, RoCEv2 over UDP on @netdev (held by the
	 * caller during the call), in its namespace.  The port's fabric is the device's own, named
	 * @name (or "link<N>"), with the netdev as its uplink; fabric must be NULL.
	 */
	struct net_device *netdev;
	const char *name;	/* the device's name; NULL: "oib_rxe<N>" */
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
	OIB_RXE_RX_DROP_XRC,		/* XRC: for no XRC SRQ, or one of another domain: NAKed */
	OIB_RXE_RX_WRITE_RUNS,		/* RC write middle packets a train's run executed at once */
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

/*
 * Fabrics: the in-kernel switches oib_rxe ports send their RoCEv2 frames over, found by name
 * (oib_rxe_params.fabric).  Tests and tools take a reference on one to inject faults into it,
 * and capture what crosses it; the same controls are in debugfs, under
 * /sys/kernel/debug/oib_rxe/fabrics/<name>/.  A fabric's ports are oib_rxe's own.
 */
struct orxe_fabric;
struct orxe_fabric_port;

#define ORXE_FABRIC_NAME_MAX	32	/* including the NUL; [A-Za-z0-9_.-] */
#define ORXE_FABRIC_QLEN		4096	/* frames waiting per destination port */
#define ORXE_FABRIC_MAX_RULES	64
#define ORXE_FABRIC_DEFAULT_DELAY_US	1000	/* when delay_us is 0 */
#define ORXE_FABRIC_DEFAULT_HOLD_US	1000	/* when reorder_hold_us is 0 */
#define ORXE_FABRIC_CAPTURE_DEFAULT	(8u << 20)	/* bytes of records */
#define ORXE_FABRIC_CAPTURE_MAX		(512u << 20)
#define ORXE_PPM			1000000u

/*
 * Fault settings: probabilities in parts per million, each drawn independently per frame.  A
 * dropped frame gets no other fault.  corrupt flips one random bit after the Ethernet header; dup
 * puts a copy on the wire right after the frame; delay holds the frame (and its copy) for delay_us;
 * reorder holds the frame until the next frame on its (source, destination) path has gone, then
 * sends it: the two swap.  A held frame with no successor is sent after reorder_hold_us.  A delayed
 * frame is not also held.
 */
struct orxe_fault_cfg {
	u32 drop_ppm, dup_ppm, reorder_ppm, delay_ppm, corrupt_ppm;
	u32 delay_us;		/* 0: ORXE_FABRIC_DEFAULT_DELAY_US */
	u32 reorder_hold_us;	/* 0: ORXE_FABRIC_DEFAULT_HOLD_US */
};

enum orxe_fault_action {
	ORXE_FAULT_DROP,
	ORXE_FAULT_DUP,
	ORXE_FAULT_DELAY,
	ORXE_FAULT_CORRUPT,
};

#define ORXE_FAULT_ANY	(-1)

/*
 * A rule: apply action to the next count frames (any sender) whose BTH opcode is opcode and whose
 * BTH destination QPN is qpn, either being ORXE_FAULT_ANY to match all.  Rules are tried in the
 * order added, before the random faults; the first with frames left applies, and such a frame gets
 * no random fault.
 */
struct orxe_fault_rule {
	enum orxe_fault_action action;
	int opcode;		/* 0..255 or ORXE_FAULT_ANY */
	int qpn;		/* 0..0xffffff or ORXE_FAULT_ANY */
	u32 count;
	u32 delay_us;		/* ORXE_FAULT_DELAY; 0: the sender's delay_us */
};

/* Per-port counters: tx-side events count on the sender, queue and delivery ones on the receiver */
enum oib_rxe_fabric_stat {
	ORXE_FSTAT_TX_FRAMES,		/* handed to oib_rxe_fabric_xmit() by this port */
	ORXE_FSTAT_TX_BYTES,
	ORXE_FSTAT_RX_FRAMES,		/* delivered to this port's rx() */
	ORXE_FSTAT_RX_BYTES,
	ORXE_FSTAT_DROP_FAULT,		/* sender: random drop */
	ORXE_FSTAT_DROP_RULE,		/* sender: a drop rule */
	ORXE_FSTAT_DROP_QUEUE_FULL,	/* receiver: its queue was full */
	ORXE_FSTAT_DROP_NO_DEST,		/* sender: no port has the destination MAC */
	ORXE_FSTAT_DROP_MALFORMED,	/* sender: not a RoCEv2 frame the fabric can parse */
	ORXE_FSTAT_DROP_DETACHED,	/* freed at detach: queued to it, or held/delayed from it */
	ORXE_FSTAT_DUPLICATED,		/* sender: copies put on the wire */
	ORXE_FSTAT_REORDERED,		/* sender: swaps done */
	ORXE_FSTAT_DELAYED,		/* sender: frames (copies included) delayed */
	ORXE_FSTAT_CORRUPTED,
	ORXE_FSTAT_NUM
};

struct orxe_fabric_stats {
	u64 v[ORXE_FSTAT_NUM];	/* indexed by enum oib_rxe_fabric_stat */
};

struct orxe_capture_stats {
	bool on;
	size_t size, used;
	u64 records, dropped;
};

/* The named fabric, made on first use; a reference the caller drops.  ERR_PTR(-EINVAL, -ENOMEM) */
struct orxe_fabric *oib_rxe_fabric_get(const char *name);
void oib_rxe_fabric_put(struct orxe_fabric *f);
const char *oib_rxe_fabric_name(const struct orxe_fabric *f);
/*
 * The MAC of the port that owns @gid on the fabric, else of its uplink (the way off a fabric of a
 * device on a netdev), from any context; -ENOENT if neither.
 */
int oib_rxe_fabric_resolve(struct orxe_fabric *f, const union oib_gid *gid, u8 mac[6]);

/*
 * Faults; these may sleep.  @fp NULL: the fabric's settings, for every port without its own;
 * @cfg NULL: all zero (a port: follow the fabric's again).
 */
int oib_rxe_fabric_set_faults(struct orxe_fabric *f, struct orxe_fabric_port *fp,
			      const struct orxe_fault_cfg *cfg);
void oib_rxe_fabric_get_faults(struct orxe_fabric *f, struct orxe_fabric_port *fp,
			       struct orxe_fault_cfg *cfg);
int oib_rxe_fabric_add_rule(struct orxe_fabric *f, const struct orxe_fault_rule *rule);
void oib_rxe_fabric_clear_rules(struct orxe_fabric *f);
void oib_rxe_fabric_set_seed(struct orxe_fabric *f, u64 seed);
u64 oib_rxe_fabric_get_seed(struct orxe_fabric *f);
/* The debugfs write syntaxes of "faults" and "rules", for tools and tests. */
int oib_rxe_fabric_parse_faults(struct orxe_fabric *f, char *text);
int oib_rxe_fabric_parse_rule(struct orxe_fabric *f, char *text);

/* Capture; these may sleep.  max_bytes 0: ORXE_FABRIC_CAPTURE_DEFAULT. */
int oib_rxe_fabric_capture_start(struct orxe_fabric *f, size_t max_bytes);
void oib_rxe_fabric_capture_stop(struct orxe_fabric *f);
/* Reads the pcap file (global header, then the records so far) from *pos into a kernel buffer. */
ssize_t oib_rxe_fabric_capture_read(struct orxe_fabric *f, void *buf, size_t len, loff_t *pos);
void oib_rxe_fabric_capture_stats(struct orxe_fabric *f, struct orxe_capture_stats *st);

#endif /* OIB_RXE_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The in-kernel fabric that oib_rxe ports send RoCEv2 Ethernet frames over: a named switch with one
 * receive queue per attached port, GID-to-MAC resolution, seeded fault injection and pcap capture.
 *
 * Sending: oib_rxe_fabric_xmit() takes a whole Ethernet frame (Ethernet, IPv4 or IPv6, UDP to port
 * 4791, BTH, ...) and hands it to the attached port whose MAC is the frame's destination MAC.
 * Delivery is asynchronous: the destination's rx() runs later, in process context, from a work item
 * on the fabric's workqueue, never in the sender's call stack and never concurrently with itself
 * for one port.  Frames on one (source, destination) path arrive in the order sent unless a fault
 * reorders or delays them.  Frames the fabric cannot parse as RoCEv2, frames to unknown (or
 * broadcast) MACs and frames that find the destination's queue full are dropped and counted.
 *
 * Faults (orxe_fault.c) are decided at send time from one PRNG per fabric, so a seed and a frame
 * sequence fix every frame's fate.  Capture (orxe_pcap.c) records frames as they go on the wire.
 * Control and inspection: /sys/kernel/debug/oib_rxe/fabrics/<name>/ (orxe_fabric_debugfs.c).
 */
#ifndef OIB_RXE_FABRIC_H
#define OIB_RXE_FABRIC_H

#include <linux/atomic.h>
#include <linux/hashtable.h>
#include <linux/hrtimer.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/prandom.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <oib/verbs.h>

#define ORXE_FABRIC_NAME_MAX	32	/* including the NUL; [A-Za-z0-9_.-] */
#define ORXE_FABRIC_QLEN		4096	/* frames waiting per destination port */
#define ORXE_FABRIC_MAX_RULES	64
#define ORXE_FABRIC_DEFAULT_DELAY_US	1000	/* when delay_us is 0 */
#define ORXE_FABRIC_DEFAULT_HOLD_US	1000	/* when reorder_hold_us is 0 */
#define ORXE_FABRIC_CAPTURE_DEFAULT	(8u << 20)	/* bytes of records */
#define ORXE_FABRIC_CAPTURE_MAX		(512u << 20)
#define ORXE_ROCE_V2_PORT	4791
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

struct orxe_fabric;

/*
 * A port on a fabric, embedded in its owner's structure.  The owner sets mac and rx, then attaches;
 * the fabric initialises every other field.  mac must not change while attached.
 *
 * Lifetime: from oib_rxe_fabric_attach() until oib_rxe_fabric_detach() the port is in its fabric's
 * tables and holds a reference on the fabric.  The owner must have stopped calling
 * oib_rxe_fabric_xmit() on the port (other than from its own rx()) before detaching, and must not
 * detach from rx().  Detach waits: when it returns rx() is not running and never runs again, every
 * frame queued to the port or held/delayed from it is freed, and the memory may go.  The counters
 * stay readable, also after detach until the next attach.
 */
struct orxe_fabric_port {
	u8 mac[6];
	void (*rx)(struct orxe_fabric_port *fp, struct sk_buff *skb);	/* owns skb */

	/* Private to the fabric. */
	struct orxe_fabric *fabric;	/* NULL when detached */
	struct list_head list;		/* in fabric->ports; RCU */
	struct hlist_node mac_node;	/* in fabric->by_mac; RCU */
	struct list_head addrs;		/* struct orxe_fabric_addr, under fabric->lock */
	bool dead;			/* detaching: the worker stops calling rx() */
	struct sk_buff_head rxq;	/* frames for this port; rxq.lock protects it */
	struct work_struct rx_work;	/* drains rxq into rx() */
	/* Under fabric->fault_lock: */
	bool has_cfg;			/* cfg overrides the fabric's */
	struct orxe_fault_cfg cfg;
	struct sk_buff_head delayq;	/* delayed frames sent by this port, by due time */
	struct sk_buff_head held;	/* frames held for reordering, at most one per path */
	struct hrtimer timer;		/* releases delayq and held frames when due */
	atomic64_t stats[ORXE_FSTAT_NUM];
};

/* A GID owned by a port, in fabric->by_gid (RCU) and its port's addrs (fabric->lock). */
struct orxe_fabric_addr {
	struct hlist_node node;
	struct list_head port_list;
	struct rcu_head rcu;
	union oib_gid gid;
	struct orxe_fabric_port *port;
};

/* Frame capture as pcap records (orxe_pcap.c). */
struct orxe_capture {
	struct mutex mutex;	/* serialises start, stop, read and free: buf's replacement */
	spinlock_t lock;	/* on, buf, size, used and the counts, against senders appending */
	bool on;
	void *buf;		/* pcap records, without the global header */
	size_t size, used;
	u64 records, dropped;
};

struct orxe_capture_stats {
	bool on;
	size_t size, used;
	u64 records, dropped;
};

/*
 * A fabric.  Lifetime: a kref counts oib_rxe_fabric_get() callers and attached ports; the fabric is
 * in the global list (and so findable by name) until the count reaches zero, which happens under
 * the list mutex; then it is unlinked, its debugfs directory removed and its memory freed.  Since
 * every attached port holds a reference, a fabric being freed has no ports, no queued, held or
 * delayed frames and no pending work.
 */
struct orxe_fabric {
	struct kref ref;
	struct list_head list;		/* in the global list, under its mutex */
	char name[ORXE_FABRIC_NAME_MAX];
	struct workqueue_struct *wq;	/* the ports' rx_work */
	struct dentry *debugfs;

	/* lock: the port list, by_mac and by_gid (writers; readers use RCU), ports' addrs lists. */
	struct mutex lock;
	struct list_head ports;
	DECLARE_HASHTABLE(by_mac, 6);
	DECLARE_HASHTABLE(by_gid, 6);

	/*
	 * fault_lock: rnd, seed, cfg, rules, nr_rules, rules_active, ports_faulty and the writes of
	 * faulty; every port's has_cfg, cfg, delayq, held and timer arming.  Taken with interrupts
	 * off (frames may be sent from any context); nests outside the ports' rxq.lock and
	 * capture.lock.
	 */
	spinlock_t fault_lock;
	bool faulty;			/* any fault or rule is active: senders take fault_lock */
	u64 seed;
	struct rnd_state rnd;
	struct orxe_fault_cfg cfg;	/* for ports without their own */
	struct list_head rules;		/* struct orxe_fault_rule_entry, in the order added */
	u32 nr_rules, rules_active;	/* listed; with frames left */
	u32 ports_faulty;		/* attached ports with a non-zero cfg of their own */

	struct orxe_capture cap;
};

/* Registry. */
struct orxe_fabric *oib_rxe_fabric_get(const char *name);	/* ERR_PTR(-EINVAL, -ENOMEM) */
void oib_rxe_fabric_put(struct orxe_fabric *f);
const char *oib_rxe_fabric_name(const struct orxe_fabric *f);
void orxe_fabric_exit(void);	/* module exit: warns about fabrics left */

/* Ports and addresses; these may sleep. */
int oib_rxe_fabric_attach(struct orxe_fabric *f, struct orxe_fabric_port *fp);
void oib_rxe_fabric_detach(struct orxe_fabric_port *fp);
int oib_rxe_fabric_add_addr(struct orxe_fabric_port *fp, const union oib_gid *gid);
int oib_rxe_fabric_del_addr(struct orxe_fabric_port *fp, const union oib_gid *gid);
/* From any context. */
int oib_rxe_fabric_resolve(struct orxe_fabric *f, const union oib_gid *gid, u8 mac[6]);

/* Sending, from any context; consumes skb. */
void oib_rxe_fabric_xmit(struct orxe_fabric_port *src, struct sk_buff *skb);

/* Counters, from any context. */
u64 oib_rxe_fabric_stat(const struct orxe_fabric_port *fp, enum oib_rxe_fabric_stat stat);
void oib_rxe_fabric_port_stats(const struct orxe_fabric_port *fp, struct orxe_fabric_stats *out);
extern const char * const orxe_fabric_stat_names[ORXE_FSTAT_NUM];

/* Faults (orxe_fault.c); these may sleep.  cfg NULL: the port follows the fabric / all zero. */
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

/* Capture (orxe_pcap.c); these may sleep.  max_bytes 0: ORXE_FABRIC_CAPTURE_DEFAULT. */
int oib_rxe_fabric_capture_start(struct orxe_fabric *f, size_t max_bytes);
void oib_rxe_fabric_capture_stop(struct orxe_fabric *f);
/* Reads the pcap file (global header, then the records so far) from *pos into a kernel buffer. */
ssize_t oib_rxe_fabric_capture_read(struct orxe_fabric *f, void *buf, size_t len, loff_t *pos);
void oib_rxe_fabric_capture_stats(struct orxe_fabric *f, struct orxe_capture_stats *st);

/* ---- Between the fabric's files ---- */

/* What the fabric reads from a frame (orxe_fabric_peek()). */
struct orxe_frame_info {
	u8 dst[6];
	u8 opcode;
	u32 qpn;
};

/* skb->cb while the fabric holds a frame. */
struct orxe_fabric_cb {
	ktime_t due;		/* delayq, held: when to send */
	u8 dst[6];		/* destination MAC */
};

static inline struct orxe_fabric_cb *orxe_fabric_cb(struct sk_buff *skb)
{
	return (struct orxe_fabric_cb *)skb->cb;
}

static inline void orxe_fabric_count(struct orxe_fabric_port *fp, enum oib_rxe_fabric_stat stat,
				    u64 n)
{
	atomic64_add(n, &fp->stats[stat]);
}

bool orxe_fabric_peek(const struct sk_buff *skb, struct orxe_frame_info *fi);
struct orxe_fabric_port *orxe_fabric_lookup_mac(struct orxe_fabric *f, const u8 *mac);
void orxe_fabric_enqueue(struct orxe_fabric_port *dst, struct sk_buff *skb,
			struct sk_buff_head *freeq);

/* orxe_fault.c */
void orxe_fault_init(struct orxe_fabric *f);
void orxe_fault_destroy(struct orxe_fabric *f);
void orxe_fault_port_init(struct orxe_fabric_port *fp);
void orxe_fault_port_detach(struct orxe_fabric *f, struct orxe_fabric_port *fp);
void orxe_fault_xmit(struct orxe_fabric *f, struct orxe_fabric_port *src, struct sk_buff *skb,
		    const struct orxe_frame_info *fi);
const char *orxe_fault_action_name(enum orxe_fault_action action);
struct seq_file;
void orxe_fault_show_cfg(struct seq_file *m, const struct orxe_fault_cfg *cfg);
void orxe_fault_show_rules(struct seq_file *m, struct orxe_fabric *f);

/* orxe_pcap.c */
void orxe_capture_init(struct orxe_capture *cap);
void orxe_capture_destroy(struct orxe_capture *cap);
void orxe_capture_frame(struct orxe_capture *cap, const struct sk_buff *skb);

/* orxe_fabric_debugfs.c */
void orxe_fabric_debugfs_add(struct orxe_fabric *f);
void orxe_fabric_debugfs_remove(struct orxe_fabric *f, bool last);

#endif /* OIB_RXE_FABRIC_H */

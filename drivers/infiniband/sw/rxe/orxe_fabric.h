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
 *
 * What others call is declared in <oib/rxe.h>; the ports (struct orxe_fabric_port and the calls
 * that take one), which the KUnit suites use to put their own frames on a fabric, in
 * <oib/kunit/rxe.h>.  This header is the fabric's insides.
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
#include <oib/rxe.h>		/* the fabric's API: faults, rules, capture, counters */
#include <oib/kunit/rxe.h>	/* its ports, which the KUnit suites attach too */

#define ORXE_ROCE_V2_PORT	4791

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
	unsigned int attached;		/* ports attached so far: their rx_cpu, round robin */
	struct orxe_fabric_port __rcu *uplink;	/* the attached port with uplink set, if any */
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

void orxe_fabric_exit(void);	/* module exit: warns about fabrics left */
struct orxe_fabric *orxe_fabric_get_new(const char *name);
extern const char * const orxe_fabric_stat_names[ORXE_FSTAT_NUM];

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

/*
 * Implied trailers.  A frame that never leaves the host needs no ICRC, as a frame a NIC checksums
 * needs none from its driver: oib_rxe ports send their frames with the ICRC (and, for IPv6, the
 * UDP checksum, which covers it) not computed, marked with the skb's checksum offload state
 * (ip_summed CHECKSUM_PARTIAL: "to be computed where it goes on a wire").  The fabric computes
 * them (oib_rxe_fabric_seal()) wherever a frame is seen as bytes: before it is captured, before a
 * fault corrupts it, and before it reaches a port that does not take implied frames (implied_ok
 * false: every port the KUnit suites attach).  A port that receives a frame still marked skips
 * those checks; every other frame is checked in full.
 */
static inline void orxe_fabric_frame_imply(struct sk_buff *skb)
{
	skb->ip_summed = CHECKSUM_PARTIAL;
}

static inline bool orxe_fabric_frame_implied(const struct sk_buff *skb)
{
	return skb->ip_summed == CHECKSUM_PARTIAL;
}

/*
 * How many packets @skb carries: a train's count (orxe_train.c), else 1.  Only oib_rxe ports make
 * trains, and their frames' trailers are implied: a frame from elsewhere is one packet, whatever
 * its GSO fields say.
 */
static inline u32 orxe_train_segs(const struct sk_buff *skb)
{
	u16 segs = skb_shinfo(skb)->gso_segs;

	return orxe_fabric_frame_implied(skb) && segs > 1 ? segs : 1;
}

int orxe_train_seg(const struct sk_buff *skb, u32 i, u32 off, u32 *hlen, u32 *len);

bool orxe_fabric_owns_gid(struct orxe_fabric_port *fp, const union oib_gid *gid);
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
void orxe_capture_frame(struct orxe_capture *cap, struct sk_buff *skb);

/* orxe_fabric_debugfs.c */
void orxe_fabric_debugfs_add(struct orxe_fabric *f);
void orxe_fabric_debugfs_remove(struct orxe_fabric *f, bool last);

#endif /* OIB_RXE_FABRIC_H */

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fabric: registry, ports, addresses and the data path (see orxe_fabric.h).
 *
 * Data path.  oib_rxe_fabric_xmit() parses the frame's headers (bounds-checked, no allocation),
 * finds the destination port by MAC in an RCU hash table, computes the frame's implied trailers if
 * that port does not take them (see orxe_fabric.h) and, when no fault or rule is active,
 * appends the skb to the destination's rxq under that queue's own lock.  The 0 -> 1 transition of
 * the queue's length queues the port's rx_work; the work splices the queue out in batches and calls
 * rx() for each frame. No global lock is taken on that path, and nothing is allocated but the skb
 * the sender made.
 *
 * Detach: the port is marked dead and unpublished, synchronize_rcu() waits out every sender that
 * may have found it, cancel_work_sync() waits for rx(), and what is left in its queues is freed.
 */
#include <linux/ctype.h>
#include <linux/etherdevice.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <kunit/visibility.h>
#include "orxe_fabric.h"

#define ORXE_RX_BUDGET	256	/* frames per run of rx_work before it yields */
/*
 * Packets a run of a port out of a stream takes or sends at most: a ping-pong's port takes the
 * ACK of its request with the peer's next request, and sends one ACK.
 */
#define ORXE_RX_LONE	2

/* orxe_fabrics_lock protects orxe_fabrics, the debugfs directory and every fabric's 1 -> 0 put. */
static DEFINE_MUTEX(orxe_fabrics_lock);
static LIST_HEAD(orxe_fabrics);

const char * const orxe_fabric_stat_names[ORXE_FSTAT_NUM] = {
	[ORXE_FSTAT_TX_FRAMES] = "tx_frames",
	[ORXE_FSTAT_TX_BYTES] = "tx_bytes",
	[ORXE_FSTAT_RX_FRAMES] = "rx_frames",
	[ORXE_FSTAT_RX_BYTES] = "rx_bytes",
	[ORXE_FSTAT_DROP_FAULT] = "drop_fault",
	[ORXE_FSTAT_DROP_RULE] = "drop_rule",
	[ORXE_FSTAT_DROP_QUEUE_FULL] = "drop_queue_full",
	[ORXE_FSTAT_DROP_NO_DEST] = "drop_no_dest",
	[ORXE_FSTAT_DROP_MALFORMED] = "drop_malformed",
	[ORXE_FSTAT_DROP_DETACHED] = "drop_detached",
	[ORXE_FSTAT_DUPLICATED] = "duplicated",
	[ORXE_FSTAT_REORDERED] = "reordered",
	[ORXE_FSTAT_DELAYED] = "delayed",
	[ORXE_FSTAT_CORRUPTED] = "corrupted",
};

/* ---- Registry ---- */

static bool orxe_fabric_name_ok(const char *name)
{
	size_t i, len = strnlen(name, ORXE_FABRIC_NAME_MAX);

	if (!len || len == ORXE_FABRIC_NAME_MAX || !strcmp(name, ".") || !strcmp(name, ".."))
		return false;
	for (i = 0; i < len; i++)
		if (!isalnum(name[i]) && !strchr("_.-", name[i]))
			return false;
	return true;
}

static struct orxe_fabric *orxe_fabric_create(const char *name)
{
	struct orxe_fabric *f;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return NULL;
	/*
	 * Per-CPU high-priority workers, the CPU chosen by orxe_fabric_kick().  Per-CPU work once
	 * went to the sender's own CPU, where on a kernel without preemption a sender that does
	 * not sleep kept it from running (a burst of three queues' worth of frames lost two to a
	 * full queue); a thread's frames now never go there.  Unbound workers, which the scheduler
	 * put on one CPU as often as not, left the other idle (Documentation/rxe.md).
	 */
	f->wq = alloc_workqueue("oib_fabric_%s", WQ_HIGHPRI, 0, name);
	if (!f->wq) {
		kfree(f);
		return NULL;
	}
	kref_init(&f->ref);
	strscpy(f->name, name, sizeof(f->name));
	mutex_init(&f->lock);
	INIT_LIST_HEAD(&f->ports);
	hash_init(f->by_mac);
	hash_init(f->by_gid);
	orxe_fault_init(f);
	orxe_capture_init(&f->cap);
	return f;
}

/*
 * Finds the fabric called name, or creates it; either way the caller holds a reference, to drop
 * with oib_rxe_fabric_put().  With @excl, only a new one.  Returns ERR_PTR(-EINVAL) for a bad
 * name, ERR_PTR(-EEXIST) (@excl), ERR_PTR(-ENOMEM).
 */
static struct orxe_fabric *orxe_fabric_get(const char *name, bool excl)
{
	struct orxe_fabric *f;

	if (!name || !orxe_fabric_name_ok(name))
		return ERR_PTR(-EINVAL);

	mutex_lock(&orxe_fabrics_lock);
	list_for_each_entry(f, &orxe_fabrics, list) {
		if (!strcmp(f->name, name)) {
			if (excl)
				f = ERR_PTR(-EEXIST);
			else
				kref_get(&f->ref);
			goto out;
		}
	}
	f = orxe_fabric_create(name);
	if (!f) {
		f = ERR_PTR(-ENOMEM);
		goto out;
	}
	list_add_tail(&f->list, &orxe_fabrics);
	orxe_fabric_debugfs_add(f);
out:
	mutex_unlock(&orxe_fabrics_lock);
	return f;
}

struct orxe_fabric *oib_rxe_fabric_get(const char *name)
{
	return orxe_fabric_get(name, false);
}
EXPORT_SYMBOL(oib_rxe_fabric_get);

/* A fabric of its own for a device on a netdev. */
struct orxe_fabric *orxe_fabric_get_new(const char *name)
{
	return orxe_fabric_get(name, true);
}

/* Called by kref_put_mutex() with orxe_fabrics_lock held; drops it. */
static void orxe_fabric_release(struct kref *ref)
{
	struct orxe_fabric *f = container_of(ref, struct orxe_fabric, ref);

	list_del(&f->list);
	/* debugfs handlers never take orxe_fabrics_lock, so waiting for them here is safe. */
	orxe_fabric_debugfs_remove(f, list_empty(&orxe_fabrics));
	mutex_unlock(&orxe_fabrics_lock);

	WARN_ON(!list_empty(&f->ports));
	destroy_workqueue(f->wq);
	orxe_fault_destroy(f);
	orxe_capture_destroy(&f->cap);
	mutex_destroy(&f->lock);
	kfree(f);
}

void oib_rxe_fabric_put(struct orxe_fabric *f)
{
	if (f)
		kref_put_mutex(&f->ref, orxe_fabric_release, &orxe_fabrics_lock);
}
EXPORT_SYMBOL(oib_rxe_fabric_put);

const char *oib_rxe_fabric_name(const struct orxe_fabric *f)
{
	return f->name;
}
EXPORT_SYMBOL(oib_rxe_fabric_name);

/* For the module's exit: every owner must have put its fabrics by now. */
void orxe_fabric_exit(void)
{
	struct orxe_fabric *f;

	mutex_lock(&orxe_fabrics_lock);
	list_for_each_entry(f, &orxe_fabrics, list)
		pr_warn("oib_rxe: fabric %s still has %u references at exit\n", f->name,
			kref_read(&f->ref));
	WARN_ON(!list_empty(&orxe_fabrics));
	mutex_unlock(&orxe_fabrics_lock);
}

/* ---- Ports ---- */

/* Big-endian reads from byte pointers (<asm/unaligned.h> moved between 6.1 and 6.12). */
static inline u32 orxe_be16(const u8 *p)
{
	return (u32)p[0] << 8 | p[1];
}

static inline u32 orxe_be32(const u8 *p)
{
	return orxe_be16(p) << 16 | orxe_be16(p + 2);
}

static u32 orxe_mac_key(const u8 *mac)
{
	return orxe_be32(mac + 2) ^ orxe_be16(mac) << 8;
}

/* With rcu_read_lock() held (or fabric->lock); the port stays valid until rcu_read_unlock(). */
struct orxe_fabric_port *orxe_fabric_lookup_mac(struct orxe_fabric *f, const u8 *mac)
{
	struct orxe_fabric_port *fp;

	hash_for_each_possible_rcu(f->by_mac, fp, mac_node, orxe_mac_key(mac),
				   lockdep_is_held(&f->lock))
		if (ether_addr_equal_unaligned(fp->mac, mac))
			return fp;
	return NULL;
}

/* A sender that is no worker of the fabric's: a ULP, a system call, a test, a timer. */
static bool orxe_fabric_thread_sends(void)
{
	return !(current->flags & PF_WQ_WORKER);
}

/*
 * Queue @fp's receive work on a bound worker (per-CPU, high priority), on a CPU chosen by who
 * sends:
 *  - A worker sending to a port in a stream (its last run took or sent more than ORXE_RX_LONE
 *    packets: a responder taking a requester's packets, the requester's port taking the ACKs and
 *    sending the next ones): the port's own CPU, so the two ends of a stream run in parallel and
 *    stay where they are.
 *  - A worker's frame to a port that takes and sends a packet or two at a time (a reply, a lone
 *    ACK, a MAD, a ping-pong): this CPU, once the worker is done, without waking another: under
 *    emulation the wake-up of an idle vCPU costs more than the work.
 *  - A thread: the port's own CPU; if that is the thread's, the port moves to the next CPU for
 *    good.  On a kernel without preemption a sender that does not sleep would keep its own
 *    CPU's worker from running, and a polling thread would share its CPU with the stream it
 *    feeds (orxe_fabric_follow() brings the thread's own port to it instead).
 * Ports get their CPUs spread over the online ones as they attach.
 */
static void orxe_fabric_kick(struct orxe_fabric_port *fp)
{
	unsigned int cur = raw_smp_processor_id(), cpu = READ_ONCE(fp->rx_cpu);

	if (!orxe_fabric_thread_sends()) {
		if (!READ_ONCE(fp->rx_stream))
			cpu = cur;
	} else if (cpu == cur) {
		cpu = cpumask_next(cur, cpu_online_mask);
		if (cpu >= nr_cpu_ids)
			cpu = cpumask_first(cpu_online_mask);
		WRITE_ONCE(fp->rx_cpu, cpu);
	}
	if (cpu >= nr_cpu_ids || !cpu_online(cpu))
		cpu = WORK_CPU_UNBOUND;
	queue_work_on(cpu, fp->fabric->wq, &fp->rx_work);
}

/*
 * A thread sending from @src takes @src's frames (the ACKs and responses it will poll for) to its
 * own CPU, as receive flow steering brings a socket's packets to its reader's: with the port it
 * sends to moved off its CPU (orxe_fabric_kick()), a stream's two ends and the thread feeding it
 * sit as they should wherever the scheduler put the thread.
 */
static void orxe_fabric_follow(struct orxe_fabric_port *src)
{
	unsigned int cur = raw_smp_processor_id();

	if (orxe_fabric_thread_sends() && READ_ONCE(src->rx_cpu) != cur)
		WRITE_ONCE(src->rx_cpu, cur);
}

static void orxe_fabric_rx_work(struct work_struct *work)
{
	struct orxe_fabric_port *fp = container_of(work, struct orxe_fabric_port, rx_work);
	u64 sent0 = atomic64_read(&fp->stats[ORXE_FSTAT_TX_FRAMES]), sent;
	struct sk_buff_head batch;
	struct sk_buff *skb;
	unsigned long flags;
	int budget = ORXE_RX_BUDGET;
	u32 segs;

	__skb_queue_head_init(&batch);
	while (budget > 0) {
		spin_lock_irqsave(&fp->rxq.lock, flags);
		skb_queue_splice_init(&fp->rxq, &batch);
		spin_unlock_irqrestore(&fp->rxq.lock, flags);
		if (skb_queue_empty(&batch)) {
			/*
			 * A stream: this run took or sent more than ORXE_RX_LONE packets.  A run
			 * that found nothing (queued again while the last one ran, which took
			 * its frames) says nothing.
			 */
			sent = atomic64_read(&fp->stats[ORXE_FSTAT_TX_FRAMES]) - sent0;
			if (budget < ORXE_RX_BUDGET || sent)
				WRITE_ONCE(fp->rx_stream, budget < ORXE_RX_BUDGET - ORXE_RX_LONE ||
					   sent > ORXE_RX_LONE);
			return;
		}
		while ((skb = __skb_dequeue(&batch))) {
			segs = orxe_train_segs(skb);
			if (READ_ONCE(fp->dead)) {
				orxe_fabric_count(fp, ORXE_FSTAT_DROP_DETACHED, segs);
				kfree_skb(skb);
				continue;
			}
			orxe_fabric_count(fp, ORXE_FSTAT_RX_FRAMES, segs);
			orxe_fabric_count(fp, ORXE_FSTAT_RX_BYTES, skb->len);
			fp->rx(fp, skb);
			budget -= segs;
			cond_resched();
		}
	}
	/* Out of budget: let other ports' work run, then continue. */
	orxe_fabric_kick(fp);
}

/*
 * Appends skb to dst's queue, or drops it (counted on dst) if the queue is full: freed at once, or
 * put on *freeq for the caller to free outside its locks.  With rcu_read_lock() held since dst was
 * found.
 */
void orxe_fabric_enqueue(struct orxe_fabric_port *dst, struct sk_buff *skb,
			 struct sk_buff_head *freeq)
{
	unsigned long flags;
	bool kick;

	spin_lock_irqsave(&dst->rxq.lock, flags);
	if (unlikely(skb_queue_len(&dst->rxq) >= ORXE_FABRIC_QLEN)) {
		spin_unlock_irqrestore(&dst->rxq.lock, flags);
		orxe_fabric_count(dst, ORXE_FSTAT_DROP_QUEUE_FULL, orxe_train_segs(skb));
		if (freeq)
			__skb_queue_tail(freeq, skb);
		else
			kfree_skb(skb);
		return;
	}
	__skb_queue_tail(&dst->rxq, skb);
	kick = skb_queue_len(&dst->rxq) == 1;
	spin_unlock_irqrestore(&dst->rxq.lock, flags);
	/* A non-empty queue always has its work pending or running; the work re-checks. */
	if (kick)
		orxe_fabric_kick(dst);
}

/*
 * Attaches fp (mac and rx set by the owner) to f and takes a reference on f for it.  -EINVAL for a
 * missing rx or a MAC that is zero or multicast, -EEXIST if another port on f has the MAC, -EBUSY
 * if fp is an uplink and f has one already.
 */
int oib_rxe_fabric_attach(struct orxe_fabric *f, struct orxe_fabric_port *fp)
{
	int i;

	if (!f || !fp || !fp->rx || !is_valid_ether_addr(fp->mac))
		return -EINVAL;

	fp->fabric = f;
	fp->dead = false;
	fp->rx_stream = false;
	INIT_LIST_HEAD(&fp->addrs);
	skb_queue_head_init(&fp->rxq);
	INIT_WORK(&fp->rx_work, orxe_fabric_rx_work);
	for (i = 0; i < ORXE_FSTAT_NUM; i++)
		atomic64_set(&fp->stats[i], 0);
	orxe_fault_port_init(fp);

	mutex_lock(&f->lock);
	if (orxe_fabric_lookup_mac(f, fp->mac) ||
	    (fp->uplink && rcu_access_pointer(f->uplink))) {
		mutex_unlock(&f->lock);
		fp->fabric = NULL;
		return fp->uplink ? -EBUSY : -EEXIST;
	}
	if (fp->uplink)
		rcu_assign_pointer(f->uplink, fp);
	kref_get(&f->ref);
	list_add_tail(&fp->list, &f->ports);
	fp->rx_cpu = cpumask_local_spread(f->attached++, NUMA_NO_NODE);
	hash_add_rcu(f->by_mac, &fp->mac_node, orxe_mac_key(fp->mac));
	mutex_unlock(&f->lock);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(oib_rxe_fabric_attach);

static void orxe_fabric_addr_unlink(struct orxe_fabric_addr *a)
{
	hash_del_rcu(&a->node);
	list_del(&a->port_list);
	kfree_rcu(a, rcu);
}

/* See struct orxe_fabric_port for what the caller must have done and what this guarantees. */
void oib_rxe_fabric_detach(struct orxe_fabric_port *fp)
{
	struct orxe_fabric *f = fp->fabric;
	struct orxe_fabric_addr *a, *tmp;
	struct sk_buff *skb;

	if (WARN_ON(!f))
		return;

	WRITE_ONCE(fp->dead, true);
	mutex_lock(&f->lock);
	list_for_each_entry_safe(a, tmp, &fp->addrs, port_list)
		orxe_fabric_addr_unlink(a);
	hash_del_rcu(&fp->mac_node);
	list_del(&fp->list);
	if (rcu_access_pointer(f->uplink) == fp)
		RCU_INIT_POINTER(f->uplink, NULL);
	mutex_unlock(&f->lock);

	/* Every sender (or timer) that found fp as a destination has finished enqueueing. */
	synchronize_rcu();
	/* rx() has returned and the work will not run again: nothing can queue it now. */
	cancel_work_sync(&fp->rx_work);
	while ((skb = skb_dequeue(&fp->rxq))) {
		orxe_fabric_count(fp, ORXE_FSTAT_DROP_DETACHED, 1);
		kfree_skb(skb);
	}
	/* Frames fp sent that are still delayed or held, and fp's fault settings. */
	orxe_fault_port_detach(f, fp);

	fp->fabric = NULL;
	oib_rxe_fabric_put(f);
}
EXPORT_SYMBOL_IF_KUNIT(oib_rxe_fabric_detach);

/* ---- Addresses ---- */

static u32 orxe_gid_key(const union oib_gid *gid)
{
	return orxe_be32(&gid->raw[12]) ^ orxe_be32(&gid->raw[8]);
}

static struct orxe_fabric_addr *orxe_fabric_find_gid(struct orxe_fabric *f,
						     const union oib_gid *gid)
{
	struct orxe_fabric_addr *a;

	hash_for_each_possible_rcu(f->by_gid, a, node, orxe_gid_key(gid), lockdep_is_held(&f->lock))
		if (!memcmp(a->gid.raw, gid->raw, sizeof(gid->raw)))
			return a;
	return NULL;
}

/* Does attached port @fp own @gid on its fabric (a GID of its table, mirrored)?  Any context. */
bool orxe_fabric_owns_gid(struct orxe_fabric_port *fp, const union oib_gid *gid)
{
	struct orxe_fabric_addr *a;
	bool ret;

	rcu_read_lock();
	a = orxe_fabric_find_gid(fp->fabric, gid);
	ret = a && a->port == fp;
	rcu_read_unlock();
	return ret;
}

/*
 * Makes fp the owner of gid on its fabric (what ARP/ND would answer for).  0 if fp owns it already,
 * -EEXIST if another port does, -EINVAL if fp is not attached.
 */
int oib_rxe_fabric_add_addr(struct orxe_fabric_port *fp, const union oib_gid *gid)
{
	struct orxe_fabric *f = fp->fabric;
	struct orxe_fabric_addr *a, *old;
	int ret = 0;

	if (!f || !gid)
		return -EINVAL;
	a = kzalloc(sizeof(*a), GFP_KERNEL);
	if (!a)
		return -ENOMEM;
	a->gid = *gid;
	a->port = fp;

	mutex_lock(&f->lock);
	old = orxe_fabric_find_gid(f, gid);
	if (old) {
		ret = old->port == fp ? 0 : -EEXIST;
		kfree(a);
	} else {
		list_add_tail(&a->port_list, &fp->addrs);
		hash_add_rcu(f->by_gid, &a->node, orxe_gid_key(gid));
	}
	mutex_unlock(&f->lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(oib_rxe_fabric_add_addr);

/* -ENOENT if fp does not own gid. */
int oib_rxe_fabric_del_addr(struct orxe_fabric_port *fp, const union oib_gid *gid)
{
	struct orxe_fabric *f = fp->fabric;
	struct orxe_fabric_addr *a;
	int ret = -ENOENT;

	if (!f || !gid)
		return -EINVAL;
	mutex_lock(&f->lock);
	a = orxe_fabric_find_gid(f, gid);
	if (a && a->port == fp) {
		orxe_fabric_addr_unlink(a);
		ret = 0;
	}
	mutex_unlock(&f->lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(oib_rxe_fabric_del_addr);

/*
 * The MAC of the port owning gid on f, else of f's uplink, into mac; -ENOENT if nobody owns it and
 * f has no uplink.
 */
int oib_rxe_fabric_resolve(struct orxe_fabric *f, const union oib_gid *gid, u8 mac[6])
{
	struct orxe_fabric_port *up;
	struct orxe_fabric_addr *a;
	int ret = -ENOENT;

	rcu_read_lock();
	a = orxe_fabric_find_gid(f, gid);
	up = rcu_dereference(f->uplink);
	if (a || up) {
		ether_addr_copy(mac, a ? a->port->mac : up->mac);
		ret = 0;
	}
	rcu_read_unlock();
	return ret;
}
EXPORT_SYMBOL(oib_rxe_fabric_resolve);

/* ---- Sending ---- */

/*
 * Reads the destination MAC, BTH opcode and destination QPN of a RoCEv2 frame: Ethernet (no VLAN),
 * IPv4 (any IHL, not fragmented) or IPv6 (no extension headers), UDP to 4791, a whole BTH.  False
 * if the frame is anything else or too short.
 */
bool orxe_fabric_peek(const struct sk_buff *skb, struct orxe_frame_info *fi)
{
	u8 buf[40];
	const u8 *p;
	unsigned int off = ETH_HLEN;

	p = skb_header_pointer(skb, 0, ETH_HLEN, buf);
	if (!p)
		return false;
	memcpy(fi->dst, p, ETH_ALEN);
	switch (orxe_be16(p + 12)) {
	case ETH_P_IP:
		p = skb_header_pointer(skb, off, 20, buf);
		if (!p || p[0] >> 4 != 4 || (p[0] & 0xf) < 5 || p[9] != IPPROTO_UDP ||
		    (orxe_be16(p + 6) & 0x3fff))	/* MF or a fragment offset */
			return false;
		off += (p[0] & 0xf) * 4;
		break;
	case ETH_P_IPV6:
		p = skb_header_pointer(skb, off, 40, buf);
		if (!p || p[0] >> 4 != 6 || p[6] != IPPROTO_UDP)
			return false;
		off += 40;
		break;
	default:
		return false;
	}
	p = skb_header_pointer(skb, off, 8 + 12, buf);	/* UDP, BTH */
	if (!p || orxe_be16(p + 2) != ORXE_ROCE_V2_PORT)
		return false;
	fi->opcode = p[8];
	fi->qpn = orxe_be32(p + 8 + 4) & 0xffffff;
	return true;
}

/*
 * Computes the trailers of a frame whose trailers are implied, as a NIC's checksum offload does as
 * the frame leaves; then it is an ordinary frame, linear (a fragment frame's payload is copied
 * in).  False (the frame unchanged) if it cannot be made writable.
 */
bool oib_rxe_fabric_seal(struct sk_buff *skb)
{
	if (!orxe_fabric_frame_implied(skb))
		return true;
	if (skb_ensure_writable(skb, skb->len))
		return false;
	oib_rxe_frame_seal(skb->data, skb->len);
	skb->ip_summed = CHECKSUM_NONE;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(oib_rxe_fabric_seal);

/* Sends each packet of the train @skb on its own, where they are seen as bytes. */
static void orxe_fabric_xmit_split(struct orxe_fabric_port *src, struct sk_buff *skb)
{
	struct sk_buff_head frames;
	u32 lost;

	__skb_queue_head_init(&frames);
	lost = oib_rxe_train_split(skb, &frames);
	if (unlikely(lost)) {
		orxe_fabric_count(src, ORXE_FSTAT_TX_FRAMES, lost);
		orxe_fabric_count(src, ORXE_FSTAT_DROP_MALFORMED, lost);
	}
	while ((skb = __skb_dequeue(&frames)))
		oib_rxe_fabric_xmit(src, skb);
}

/*
 * Sends the Ethernet frame in skb from src to the attached port with its destination MAC.  Consumes
 * skb; delivery happens later, from the destination's rx_work.  A train (orxe_train.c) goes whole
 * to a port that takes implied frames, unless faults or capture are on; otherwise it is split and
 * its frames sent one by one.  Counts are of packets, a train's each.  The fabric uses skb->cb
 * while it has the frame: rx() gets it with cb undefined.
 */
void oib_rxe_fabric_xmit(struct orxe_fabric_port *src, struct sk_buff *skb)
{
	struct orxe_fabric *f = src->fabric;
	u32 segs = orxe_train_segs(skb);
	struct orxe_fabric_port *dst;
	struct orxe_frame_info fi;
	bool faulty, cap;

	if (WARN_ON_ONCE(!f)) {		/* not attached */
		kfree_skb(skb);
		return;
	}
	if (unlikely(!orxe_fabric_peek(skb, &fi))) {
		orxe_fabric_count(src, ORXE_FSTAT_TX_FRAMES, segs);
		orxe_fabric_count(src, ORXE_FSTAT_TX_BYTES, skb->len);
		orxe_fabric_count(src, ORXE_FSTAT_DROP_MALFORMED, segs);
		kfree_skb(skb);
		return;
	}

	orxe_fabric_follow(src);
	/* read once: a train must not reach the fault injector or capture whole */
	faulty = READ_ONCE(f->faulty);
	cap = READ_ONCE(f->cap.on);
	rcu_read_lock();
	dst = orxe_fabric_lookup_mac(f, fi.dst);
	if (segs > 1 && dst && (!dst->implied_ok || faulty || cap)) {
		rcu_read_unlock();
		orxe_fabric_xmit_split(src, skb);
		return;
	}
	orxe_fabric_count(src, ORXE_FSTAT_TX_FRAMES, segs);
	orxe_fabric_count(src, ORXE_FSTAT_TX_BYTES, skb->len);
	if (unlikely(!dst)) {
		orxe_fabric_count(src, ORXE_FSTAT_DROP_NO_DEST, segs);
		kfree_skb(skb);
	} else if (unlikely(!dst->implied_ok && !oib_rxe_fabric_seal(skb))) {
		orxe_fabric_count(src, ORXE_FSTAT_DROP_MALFORMED, 1);
		kfree_skb(skb);
	} else if (unlikely(faulty)) {
		orxe_fault_xmit(f, src, skb, &fi);
	} else {
		if (unlikely(cap))
			orxe_capture_frame(&f->cap, skb);
		orxe_fabric_enqueue(dst, skb, NULL);
	}
	rcu_read_unlock();
}
EXPORT_SYMBOL_IF_KUNIT(oib_rxe_fabric_xmit);

/* ---- Counters ---- */

u64 oib_rxe_fabric_stat(const struct orxe_fabric_port *fp, enum oib_rxe_fabric_stat stat)
{
	return stat < ORXE_FSTAT_NUM ? atomic64_read(&fp->stats[stat]) : 0;
}
EXPORT_SYMBOL_IF_KUNIT(oib_rxe_fabric_stat);

void oib_rxe_fabric_port_stats(const struct orxe_fabric_port *fp, struct orxe_fabric_stats *out)
{
	int i;

	for (i = 0; i < ORXE_FSTAT_NUM; i++)
		out->v[i] = atomic64_read(&fp->stats[i]);
}
EXPORT_SYMBOL_IF_KUNIT(oib_rxe_fabric_port_stats);

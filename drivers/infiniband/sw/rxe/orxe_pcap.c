// SPDX-License-Identifier: GPL-2.0-only
/*
 * Frame capture in the classic pcap format: version 2.4, microsecond timestamps (CLOCK_REALTIME),
 * snaplen 65535, link type 1 (Ethernet), fields in host byte order as the magic 0xa1b2c3d4 tells.
 *
 * While capture is on, every frame the fabric puts on the wire is appended once, as it is sent
 * (after its faults are decided: corrupted frames as corrupted, duplicates twice, dropped frames
 * not at all), to a vmalloc'd buffer of records.  When the next record does not fit it is dropped
 * and counted. The buffer stays after stop, for reading, until the next start or the fabric's end.
 */
#include <linux/minmax.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>
#include "orxe_fabric.h"

#define ORXE_PCAP_MAGIC		0xa1b2c3d4
#define ORXE_PCAP_SNAPLEN	65535u
#define ORXE_PCAP_LINKTYPE_ETH	1

struct orxe_pcap_hdr {
	u32 magic;
	u16 version_major, version_minor;
	s32 thiszone;
	u32 sigfigs, snaplen, network;
};

struct orxe_pcap_rec {
	u32 ts_sec, ts_usec, incl_len, orig_len;
};

static const struct orxe_pcap_hdr orxe_pcap_hdr = {
	.magic = ORXE_PCAP_MAGIC,
	.version_major = 2,
	.version_minor = 4,
	.snaplen = ORXE_PCAP_SNAPLEN,
	.network = ORXE_PCAP_LINKTYPE_ETH,
};

void orxe_capture_init(struct orxe_capture *cap)
{
	mutex_init(&cap->mutex);
	spin_lock_init(&cap->lock);
}

void orxe_capture_destroy(struct orxe_capture *cap)
{
	vfree(cap->buf);
	cap->buf = NULL;
	mutex_destroy(&cap->mutex);
}

/*
 * From any context; the caller saw cap->on.  A frame with implied trailers gets them first
 * (oib_rxe_fabric_seal()): what is captured is the frame as a wire carries it.
 */
void orxe_capture_frame(struct orxe_capture *cap, struct sk_buff *skb)
{
	u32 incl = min(skb->len, ORXE_PCAP_SNAPLEN);
	bool sealed = oib_rxe_fabric_seal(skb);
	struct orxe_pcap_rec rec;
	struct timespec64 ts;
	unsigned long flags;

	spin_lock_irqsave(&cap->lock, flags);
	if (!cap->on)
		goto out;
	if (!sealed || cap->size - cap->used < sizeof(rec) + incl) {
		cap->dropped++;
		goto out;
	}
	/* Taken under the lock, so that records are in timestamp order. */
	ktime_get_real_ts64(&ts);
	rec.ts_sec = (u32)ts.tv_sec;
	rec.ts_usec = ts.tv_nsec / NSEC_PER_USEC;
	rec.incl_len = incl;
	rec.orig_len = skb->len;
	memcpy(cap->buf + cap->used, &rec, sizeof(rec));
	if (WARN_ON_ONCE(skb_copy_bits(skb, 0, cap->buf + cap->used + sizeof(rec), incl)))
		goto out;
	cap->used += sizeof(rec) + incl;
	cap->records++;
out:
	spin_unlock_irqrestore(&cap->lock, flags);
}

/*
 * Starts a new capture into a buffer of max_bytes (0: ORXE_FABRIC_CAPTURE_DEFAULT) for records, the
 * previous one's records gone.  -EINVAL above ORXE_FABRIC_CAPTURE_MAX.
 */
int oib_rxe_fabric_capture_start(struct orxe_fabric *f, size_t max_bytes)
{
	struct orxe_capture *cap = &f->cap;
	unsigned long flags;
	void *buf, *old;

	if (!max_bytes)
		max_bytes = ORXE_FABRIC_CAPTURE_DEFAULT;
	if (max_bytes > ORXE_FABRIC_CAPTURE_MAX)
		return -EINVAL;
	buf = vmalloc(max_bytes);
	if (!buf)
		return -ENOMEM;

	mutex_lock(&cap->mutex);
	spin_lock_irqsave(&cap->lock, flags);
	old = cap->buf;
	cap->buf = buf;
	cap->size = max_bytes;
	cap->used = 0;
	cap->records = 0;
	cap->dropped = 0;
	WRITE_ONCE(cap->on, true);
	spin_unlock_irqrestore(&cap->lock, flags);
	mutex_unlock(&cap->mutex);
	vfree(old);	/* readers hold the mutex while they use the buffer */
	return 0;
}
EXPORT_SYMBOL(oib_rxe_fabric_capture_start);

void oib_rxe_fabric_capture_stop(struct orxe_fabric *f)
{
	unsigned long flags;

	spin_lock_irqsave(&f->cap.lock, flags);
	WRITE_ONCE(f->cap.on, false);
	spin_unlock_irqrestore(&f->cap.lock, flags);
}
EXPORT_SYMBOL(oib_rxe_fabric_capture_stop);

/*
 * Copies up to len bytes of the pcap file from *pos: the global header, then the records captured
 * so far (a capture still running only grows the file).  Returns the bytes copied, 0 at the end.
 */
ssize_t oib_rxe_fabric_capture_read(struct orxe_fabric *f, void *buf, size_t len, loff_t *pos)
{
	struct orxe_capture *cap = &f->cap;
	size_t hlen = sizeof(orxe_pcap_hdr), total, done = 0, n;
	unsigned long flags;
	loff_t p = *pos;

	if (p < 0)
		return -EINVAL;
	mutex_lock(&cap->mutex);
	spin_lock_irqsave(&cap->lock, flags);
	total = hlen + cap->used;	/* records below used are complete and no longer change */
	spin_unlock_irqrestore(&cap->lock, flags);

	if (p < hlen) {
		n = min_t(size_t, len, hlen - p);
		memcpy(buf, (const u8 *)&orxe_pcap_hdr + p, n);
		done += n;
		p += n;
	}
	if (p >= hlen && p < total && done < len) {
		n = min_t(size_t, len - done, total - p);
		memcpy(buf + done, cap->buf + (p - hlen), n);
		done += n;
		p += n;
	}
	mutex_unlock(&cap->mutex);
	*pos = p;
	return done;
}
EXPORT_SYMBOL(oib_rxe_fabric_capture_read);

void oib_rxe_fabric_capture_stats(struct orxe_fabric *f, struct orxe_capture_stats *st)
{
	unsigned long flags;

	spin_lock_irqsave(&f->cap.lock, flags);
	st->on = f->cap.on;
	st->size = f->cap.size;
	st->used = f->cap.used;
	st->records = f->cap.records;
	st->dropped = f->cap.dropped;
	spin_unlock_irqrestore(&f->cap.lock, flags);
}
EXPORT_SYMBOL(oib_rxe_fabric_capture_stats);

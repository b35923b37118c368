// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fault injection on the fabric (see struct orxe_fault_cfg and struct orxe_fault_rule).
 *
 * When any fault or rule is active (fabric->faulty), every frame goes through orxe_fault_xmit(),
 * which decides its fate under fabric->fault_lock from the fabric's PRNG: rules first, then one
 * draw per fault kind whose probability is neither 0 nor 100%, always in the same order (drop; then
 * corrupt with its bit position, dup, delay, reorder).  So one seed and one frame sequence give the
 * same fates, whatever the timing.  Delayed frames wait on their sender's delayq, sorted by due
 * time; frames held for reordering wait on their sender's held list, at most one per
 * destination.  One hrtimer per sending port (soft-irq mode) sends both when due.
 */
#include <linux/etherdevice.h>
#include <linux/if_ether.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <kunit/visibility.h>
#include <oib/names.h>
#include "orxe_fabric.h"

struct orxe_fault_rule_entry {
	struct list_head list;		/* in fabric->rules */
	struct orxe_fault_rule rule;
	u32 left;			/* frames still to hit */
};

static const char * const orxe_fault_action_names[] = {
	[ORXE_FAULT_DROP] = "drop",
	[ORXE_FAULT_DUP] = "duplicate",
	[ORXE_FAULT_DELAY] = "delay",
	[ORXE_FAULT_CORRUPT] = "corrupt",
};

const char *orxe_fault_action_name(enum orxe_fault_action action)
{
	return oib_enum_name(orxe_fault_action_names, action);
}

static bool orxe_cfg_any(const struct orxe_fault_cfg *c)
{
	return c->drop_ppm || c->dup_ppm || c->reorder_ppm || c->delay_ppm || c->corrupt_ppm;
}

static bool orxe_cfg_valid(const struct orxe_fault_cfg *c)
{
	return c->drop_ppm <= ORXE_PPM && c->dup_ppm <= ORXE_PPM && c->reorder_ppm <= ORXE_PPM &&
	       c->delay_ppm <= ORXE_PPM && c->corrupt_ppm <= ORXE_PPM;
}

static void orxe_fault_update(struct orxe_fabric *f)
{
	lockdep_assert_held(&f->fault_lock);
	WRITE_ONCE(f->faulty, f->rules_active || f->ports_faulty || orxe_cfg_any(&f->cfg));
}

/* True with probability ppm / 10^6; draws from the PRNG only when the answer is not certain. */
static bool orxe_chance(struct orxe_fabric *f, u32 ppm)
{
	if (!ppm)
		return false;
	if (ppm >= ORXE_PPM)
		return true;
	return prandom_u32_state(&f->rnd) % ORXE_PPM < ppm;
}

/* ---- Held and delayed frames ---- */

static void orxe_fault_arm(struct orxe_fabric_port *fp, ktime_t due)
{
	/*
	 * Not queued: idle, or its callback is running and will look at the lists after we drop
	 * fault_lock, or has already looked; starting it again is right in every case.
	 */
	if (!hrtimer_is_queued(&fp->timer) || ktime_before(due, hrtimer_get_expires(&fp->timer)))
		hrtimer_start(&fp->timer, due, HRTIMER_MODE_ABS_SOFT);
}

/* Sends skb to the port with its destination MAC, now. */
static void orxe_fault_send(struct orxe_fabric *f, struct orxe_fabric_port *src,
			    struct sk_buff *skb, struct sk_buff_head *freeq)
{
	struct orxe_fabric_port *dst = orxe_fabric_lookup_mac(f, orxe_fabric_cb(skb)->dst);

	if (!dst) {
		orxe_fabric_count(src, ORXE_FSTAT_DROP_NO_DEST, 1);
		__skb_queue_tail(freeq, skb);
		return;
	}
	orxe_fabric_enqueue(dst, skb, freeq);
}

/*
 * Puts skb on the wire from src: if a frame is held on the same path, skb goes first and the held
 * one right after it (the swap); else skb is held until hold_due if hold is set, or sent.
 */
static void orxe_fault_emit(struct orxe_fabric *f, struct orxe_fabric_port *src,
			    struct sk_buff *skb, bool hold, ktime_t hold_due,
			    struct sk_buff_head *freeq)
{
	struct orxe_fabric_cb *cb = orxe_fabric_cb(skb);
	struct sk_buff *h;

	skb_queue_walk(&src->held, h) {
		if (ether_addr_equal(orxe_fabric_cb(h)->dst, cb->dst)) {
			__skb_unlink(h, &src->held);
			orxe_fault_send(f, src, skb, freeq);
			orxe_fault_send(f, src, h, freeq);
			orxe_fabric_count(src, ORXE_FSTAT_REORDERED, 1);
			return;
		}
	}
	if (hold) {
		cb->due = hold_due;
		__skb_queue_tail(&src->held, skb);
		orxe_fault_arm(src, hold_due);
		return;
	}
	orxe_fault_send(f, src, skb, freeq);
}

/* Sends src's held frames: all of them, or those due by now. */
static void orxe_fault_release_held(struct orxe_fabric *f, struct orxe_fabric_port *src, bool all,
				    ktime_t now, struct sk_buff_head *freeq)
{
	struct sk_buff *skb, *tmp;

	skb_queue_walk_safe(&src->held, skb, tmp) {
		if (!all && ktime_after(orxe_fabric_cb(skb)->due, now))
			continue;
		__skb_unlink(skb, &src->held);
		orxe_fault_send(f, src, skb, freeq);
	}
}

static void orxe_fault_delay(struct orxe_fabric_port *src, struct sk_buff *skb, ktime_t due)
{
	struct sk_buff *prev;

	orxe_fabric_count(src, ORXE_FSTAT_DELAYED, 1);
	orxe_fabric_cb(skb)->due = due;
	/* Usually the latest: search from the tail; stops at the head if skb is the earliest. */
	skb_queue_reverse_walk(&src->delayq, prev)
		if (!ktime_after(orxe_fabric_cb(prev)->due, due))
			break;
	__skb_queue_after(&src->delayq, prev, skb);
	orxe_fault_arm(src, due);
}

static enum hrtimer_restart orxe_fault_timer(struct hrtimer *timer)
{
	struct orxe_fabric_port *fp = container_of(timer, struct orxe_fabric_port, timer);
	struct orxe_fabric *f = fp->fabric;
	struct sk_buff_head freeq;
	struct sk_buff *skb;
	unsigned long flags;
	ktime_t now = ktime_get(), next = KTIME_MAX;

	__skb_queue_head_init(&freeq);
	rcu_read_lock();
	spin_lock_irqsave(&f->fault_lock, flags);
	while ((skb = skb_peek(&fp->delayq)) && !ktime_after(orxe_fabric_cb(skb)->due, now)) {
		__skb_unlink(skb, &fp->delayq);
		orxe_fault_emit(f, fp, skb, false, 0, &freeq);
	}
	orxe_fault_release_held(f, fp, false, now, &freeq);

	skb = skb_peek(&fp->delayq);
	if (skb)
		next = orxe_fabric_cb(skb)->due;
	skb_queue_walk(&fp->held, skb)
		if (ktime_before(orxe_fabric_cb(skb)->due, next))
			next = orxe_fabric_cb(skb)->due;
	/* Re-armed here rather than by HRTIMER_RESTART: a sender may have started it meanwhile. */
	if (next != KTIME_MAX)
		hrtimer_start(timer, next, HRTIMER_MODE_ABS_SOFT);
	spin_unlock_irqrestore(&f->fault_lock, flags);
	rcu_read_unlock();
	__skb_queue_purge(&freeq);
	return HRTIMER_NORESTART;
}

/* ---- The slow path of oib_rxe_fabric_xmit() ---- */

static struct orxe_fault_rule_entry *orxe_fault_match(struct orxe_fabric *f,
						      const struct orxe_frame_info *fi)
{
	struct orxe_fault_rule_entry *r;

	if (!f->rules_active)
		return NULL;
	list_for_each_entry(r, &f->rules, list) {
		if (r->left && (r->rule.opcode == ORXE_FAULT_ANY || r->rule.opcode == fi->opcode) &&
		    (r->rule.qpn == ORXE_FAULT_ANY || r->rule.qpn == fi->qpn))
			return r;
	}
	return NULL;
}

/*
 * Flips one bit after the Ethernet header, chosen by the PRNG, in the frame with its trailers
 * computed (so the receiver checks them).  False if skb cannot be written.
 */
static bool orxe_fault_corrupt(struct orxe_fabric *f, struct sk_buff *skb)
{
	u32 bit = prandom_u32_state(&f->rnd) % ((skb->len - ETH_HLEN) * 8);
	u32 off = ETH_HLEN + bit / 8;

	/* Unshares a clone (the sender may keep the original) and makes the byte linear. */
	if (!oib_rxe_fabric_seal(skb) || skb_ensure_writable(skb, off + 1))
		return false;
	skb->data[off] ^= 1 << (bit % 8);
	return true;
}

/* Decides skb's fate and sends it (or not).  rcu_read_lock() held; dst was found. */
void orxe_fault_xmit(struct orxe_fabric *f, struct orxe_fabric_port *src, struct sk_buff *skb,
		     const struct orxe_frame_info *fi)
{
	bool drop = false, dup = false, delay = false, reorder = false, corrupt = false;
	bool by_rule = false;
	const struct orxe_fault_cfg *cfg;
	struct orxe_fault_rule_entry *r;
	struct sk_buff *copy = NULL;
	struct sk_buff_head freeq;
	unsigned long flags;
	u32 delay_us;
	ktime_t now;

	__skb_queue_head_init(&freeq);
	ether_addr_copy(orxe_fabric_cb(skb)->dst, fi->dst);

	spin_lock_irqsave(&f->fault_lock, flags);
	cfg = src->has_cfg ? &src->cfg : &f->cfg;
	delay_us = cfg->delay_us ?: ORXE_FABRIC_DEFAULT_DELAY_US;
	r = orxe_fault_match(f, fi);
	if (r) {
		by_rule = true;
		switch (r->rule.action) {
		case ORXE_FAULT_DROP:
			drop = true;
			break;
		case ORXE_FAULT_DUP:
			dup = true;
			break;
		case ORXE_FAULT_DELAY:
			delay = true;
			if (r->rule.delay_us)
				delay_us = r->rule.delay_us;
			break;
		case ORXE_FAULT_CORRUPT:
			corrupt = true;
			break;
		}
		if (!--r->left) {
			f->rules_active--;
			orxe_fault_update(f);
		}
	} else {
		drop = orxe_chance(f, cfg->drop_ppm);
		if (!drop) {
			corrupt = orxe_chance(f, cfg->corrupt_ppm);
			dup = orxe_chance(f, cfg->dup_ppm);
			delay = orxe_chance(f, cfg->delay_ppm);
			reorder = !delay && orxe_chance(f, cfg->reorder_ppm);
		}
	}

	if (drop) {
		orxe_fabric_count(src, by_rule ? ORXE_FSTAT_DROP_RULE : ORXE_FSTAT_DROP_FAULT, 1);
		__skb_queue_tail(&freeq, skb);
		goto out;
	}
	if (corrupt && orxe_fault_corrupt(f, skb))
		orxe_fabric_count(src, ORXE_FSTAT_CORRUPTED, 1);
	if (dup) {
		copy = skb_copy(skb, GFP_ATOMIC);	/* cb too */
		if (copy)
			orxe_fabric_count(src, ORXE_FSTAT_DUPLICATED, 1);
	}
	if (READ_ONCE(f->cap.on)) {
		orxe_capture_frame(&f->cap, skb);
		if (copy)
			orxe_capture_frame(&f->cap, copy);
	}

	now = ktime_get();
	if (delay) {
		ktime_t due = ktime_add_us(now, delay_us);

		orxe_fault_delay(src, skb, due);
		if (copy)
			orxe_fault_delay(src, copy, due);
	} else {
		u32 hold_us = cfg->reorder_hold_us ?: ORXE_FABRIC_DEFAULT_HOLD_US;

		orxe_fault_emit(f, src, skb, reorder, ktime_add_us(now, hold_us), &freeq);
		if (copy)
			orxe_fault_emit(f, src, copy, false, 0, &freeq);
	}
out:
	spin_unlock_irqrestore(&f->fault_lock, flags);
	__skb_queue_purge(&freeq);
}

/* ---- Setup and teardown ---- */

void orxe_fault_init(struct orxe_fabric *f)
{
	spin_lock_init(&f->fault_lock);
	INIT_LIST_HEAD(&f->rules);
	f->seed = 1;
	prandom_seed_state(&f->rnd, f->seed);
}

void orxe_fault_destroy(struct orxe_fabric *f)
{
	oib_rxe_fabric_clear_rules(f);
}

/* Before the port is published. */
void orxe_fault_port_init(struct orxe_fabric_port *fp)
{
	fp->has_cfg = false;
	memset(&fp->cfg, 0, sizeof(fp->cfg));
	__skb_queue_head_init(&fp->delayq);
	__skb_queue_head_init(&fp->held);
	hrtimer_init(&fp->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	fp->timer.function = orxe_fault_timer;
}

/* From detach, once fp's rx() can no longer run (and so no longer send). */
void orxe_fault_port_detach(struct orxe_fabric *f, struct orxe_fabric_port *fp)
{
	struct sk_buff_head freeq;
	unsigned long flags;

	__skb_queue_head_init(&freeq);
	spin_lock_irqsave(&f->fault_lock, flags);
	skb_queue_splice_init(&fp->delayq, &freeq);
	skb_queue_splice_init(&fp->held, &freeq);
	if (fp->has_cfg && orxe_cfg_any(&fp->cfg))
		f->ports_faulty--;
	fp->has_cfg = false;
	orxe_fault_update(f);
	spin_unlock_irqrestore(&f->fault_lock, flags);
	/* The lists are empty, so a callback running now does not re-arm the timer. */
	hrtimer_cancel(&fp->timer);
	orxe_fabric_count(fp, ORXE_FSTAT_DROP_DETACHED, skb_queue_len(&freeq));
	__skb_queue_purge(&freeq);
}

/* ---- Configuration ---- */

/* With f->lock held: fp, if any, is attached to f. */
static void __rxe_fabric_set_faults(struct orxe_fabric *f, struct orxe_fabric_port *fp,
				    const struct orxe_fault_cfg *cfg)
{
	struct orxe_fabric_port *p;
	struct sk_buff_head freeq;
	unsigned long flags;

	lockdep_assert_held(&f->lock);
	__skb_queue_head_init(&freeq);
	rcu_read_lock();
	spin_lock_irqsave(&f->fault_lock, flags);
	if (fp) {
		if (fp->has_cfg && orxe_cfg_any(&fp->cfg))
			f->ports_faulty--;
		fp->has_cfg = !!cfg;
		if (cfg)
			fp->cfg = *cfg;
		else
			memset(&fp->cfg, 0, sizeof(fp->cfg));
		if (fp->has_cfg && orxe_cfg_any(&fp->cfg))
			f->ports_faulty++;
		orxe_fault_release_held(f, fp, true, 0, &freeq);
	} else {
		if (cfg)
			f->cfg = *cfg;
		else
			memset(&f->cfg, 0, sizeof(f->cfg));
		list_for_each_entry(p, &f->ports, list)
			orxe_fault_release_held(f, p, true, 0, &freeq);
	}
	orxe_fault_update(f);
	spin_unlock_irqrestore(&f->fault_lock, flags);
	rcu_read_unlock();
	__skb_queue_purge(&freeq);
}

/*
 * Sets the fault settings of the fabric (fp NULL), or of fp, which then no longer follows the
 * fabric's; cfg NULL clears the fabric's, or makes fp follow the fabric's again.  Frames held for
 * reordering by the ports concerned are sent at once.  -EINVAL for a probability above 10^6 or a
 * port not on f.
 */
int oib_rxe_fabric_set_faults(struct orxe_fabric *f, struct orxe_fabric_port *fp,
			      const struct orxe_fault_cfg *cfg)
{
	if (cfg && !orxe_cfg_valid(cfg))
		return -EINVAL;
	mutex_lock(&f->lock);
	if (fp && fp->fabric != f) {
		mutex_unlock(&f->lock);
		return -EINVAL;
	}
	__rxe_fabric_set_faults(f, fp, cfg);
	mutex_unlock(&f->lock);
	return 0;
}
EXPORT_SYMBOL(oib_rxe_fabric_set_faults);

/* The settings that apply to frames fp sends (fp NULL: the fabric's). */
void oib_rxe_fabric_get_faults(struct orxe_fabric *f, struct orxe_fabric_port *fp,
			       struct orxe_fault_cfg *cfg)
{
	unsigned long flags;

	spin_lock_irqsave(&f->fault_lock, flags);
	*cfg = fp && fp->has_cfg ? fp->cfg : f->cfg;
	spin_unlock_irqrestore(&f->fault_lock, flags);
}
EXPORT_SYMBOL(oib_rxe_fabric_get_faults);

/* Appends a rule.  -EINVAL: bad action, opcode, QPN or zero count; -ENOSPC: too many rules. */
int oib_rxe_fabric_add_rule(struct orxe_fabric *f, const struct orxe_fault_rule *rule)
{
	struct orxe_fault_rule_entry *r;
	unsigned long flags;
	int ret = 0;

	if ((unsigned int)rule->action > ORXE_FAULT_CORRUPT || !rule->count ||
	    rule->opcode < ORXE_FAULT_ANY || rule->opcode > 0xff ||
	    rule->qpn < ORXE_FAULT_ANY || rule->qpn > 0xffffff)
		return -EINVAL;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->rule = *rule;
	r->left = rule->count;

	spin_lock_irqsave(&f->fault_lock, flags);
	if (f->nr_rules >= ORXE_FABRIC_MAX_RULES) {
		ret = -ENOSPC;
	} else {
		list_add_tail(&r->list, &f->rules);
		f->nr_rules++;
		f->rules_active++;
		orxe_fault_update(f);
	}
	spin_unlock_irqrestore(&f->fault_lock, flags);
	if (ret)
		kfree(r);
	return ret;
}
EXPORT_SYMBOL(oib_rxe_fabric_add_rule);

void oib_rxe_fabric_clear_rules(struct orxe_fabric *f)
{
	struct orxe_fault_rule_entry *r, *tmp;
	unsigned long flags;
	LIST_HEAD(old);

	spin_lock_irqsave(&f->fault_lock, flags);
	list_splice_init(&f->rules, &old);
	f->nr_rules = 0;
	f->rules_active = 0;
	orxe_fault_update(f);
	spin_unlock_irqrestore(&f->fault_lock, flags);
	list_for_each_entry_safe(r, tmp, &old, list)
		kfree(r);
}
EXPORT_SYMBOL(oib_rxe_fabric_clear_rules);

/* Restarts the fabric's PRNG from seed. */
void oib_rxe_fabric_set_seed(struct orxe_fabric *f, u64 seed)
{
	unsigned long flags;

	spin_lock_irqsave(&f->fault_lock, flags);
	f->seed = seed;
	prandom_seed_state(&f->rnd, seed);
	spin_unlock_irqrestore(&f->fault_lock, flags);
}
EXPORT_SYMBOL(oib_rxe_fabric_set_seed);

u64 oib_rxe_fabric_get_seed(struct orxe_fabric *f)
{
	unsigned long flags;
	u64 seed;

	spin_lock_irqsave(&f->fault_lock, flags);
	seed = f->seed;
	spin_unlock_irqrestore(&f->fault_lock, flags);
	return seed;
}
EXPORT_SYMBOL(oib_rxe_fabric_get_seed);

bool oib_rxe_fabric_faulty(struct orxe_fabric *f)
{
	return READ_ONCE(f->faulty);
}
EXPORT_SYMBOL_IF_KUNIT(oib_rxe_fabric_faulty);

/* ---- Text forms (debugfs) ---- */

void orxe_fault_show_cfg(struct seq_file *m, const struct orxe_fault_cfg *c)
{
	seq_printf(m, "drop=%u dup=%u reorder=%u delay=%u delay_us=%u corrupt=%u hold_us=%u\n",
		   c->drop_ppm, c->dup_ppm, c->reorder_ppm, c->delay_ppm, c->delay_us,
		   c->corrupt_ppm, c->reorder_hold_us);
}

static void orxe_show_match(struct seq_file *m, const char *key, int v)
{
	if (v == ORXE_FAULT_ANY)
		seq_printf(m, " %s=any", key);
	else
		seq_printf(m, " %s=0x%02x", key, v);
}

void orxe_fault_show_rules(struct seq_file *m, struct orxe_fabric *f)
{
	struct orxe_fault_rule_entry *r;
	unsigned long flags;

	spin_lock_irqsave(&f->fault_lock, flags);
	list_for_each_entry(r, &f->rules, list) {
		seq_puts(m, orxe_fault_action_name(r->rule.action));
		orxe_show_match(m, "opcode", r->rule.opcode);
		orxe_show_match(m, "qpn", r->rule.qpn);
		seq_printf(m, " count=%u remaining=%u", r->rule.count, r->left);
		if (r->rule.action == ORXE_FAULT_DELAY && r->rule.delay_us)
			seq_printf(m, " us=%u", r->rule.delay_us);
		seq_putc(m, '\n');
	}
	spin_unlock_irqrestore(&f->fault_lock, flags);
}

/* Splits "key=value"; value is NULL without '='. */
static char *orxe_next_token(char **text, char **value)
{
	char *tok;

	do {
		tok = strsep(text, " \t\n");
	} while (tok && !*tok);
	if (tok) {
		*value = strchr(tok, '=');
		if (*value)
			*(*value)++ = '\0';
	}
	return tok;
}

/*
 * "[port=MAC] [inherit] [off] [drop=PPM] [dup=PPM] [reorder=PPM] [delay=PPM] [delay_us=N]
 * [corrupt=PPM] [hold_us=N]": sets the fabric's (or the port's) settings to the values given, the
 * others 0; "port=MAC inherit" makes the port follow the fabric's again.
 */
int oib_rxe_fabric_parse_faults(struct orxe_fabric *f, char *text)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "drop", offsetof(struct orxe_fault_cfg, drop_ppm) },
		{ "dup", offsetof(struct orxe_fault_cfg, dup_ppm) },
		{ "reorder", offsetof(struct orxe_fault_cfg, reorder_ppm) },
		{ "delay", offsetof(struct orxe_fault_cfg, delay_ppm) },
		{ "corrupt", offsetof(struct orxe_fault_cfg, corrupt_ppm) },
		{ "delay_us", offsetof(struct orxe_fault_cfg, delay_us) },
		{ "hold_us", offsetof(struct orxe_fault_cfg, reorder_hold_us) },
	};
	struct orxe_fault_cfg cfg = {};
	struct orxe_fabric_port *fp = NULL;
	bool port = false, inherit = false;
	u8 mac[ETH_ALEN];
	char *tok, *val;
	size_t i;
	int ret;

	while ((tok = orxe_next_token(&text, &val))) {
		if (!val) {
			if (!strcmp(tok, "inherit"))
				inherit = true;
			else if (strcmp(tok, "off"))
				return -EINVAL;
			continue;
		}
		if (!strcmp(tok, "port")) {
			if (!mac_pton(val, mac))
				return -EINVAL;
			port = true;
			continue;
		}
		for (i = 0; i < ARRAY_SIZE(keys); i++)
			if (!strcmp(tok, keys[i].key))
				break;
		if (i == ARRAY_SIZE(keys))
			return -EINVAL;
		ret = kstrtou32(val, 0, (u32 *)((u8 *)&cfg + keys[i].off));
		if (ret)
			return ret;
	}
	if ((inherit && !port) || !orxe_cfg_valid(&cfg))
		return -EINVAL;

	mutex_lock(&f->lock);
	if (port) {
		fp = orxe_fabric_lookup_mac(f, mac);
		if (!fp) {
			mutex_unlock(&f->lock);
			return -ENOENT;
		}
	}
	__rxe_fabric_set_faults(f, fp, inherit ? NULL : &cfg);
	mutex_unlock(&f->lock);
	return 0;
}
EXPORT_SYMBOL(oib_rxe_fabric_parse_faults);

static int orxe_parse_match(const char *val, int max, int *out)
{
	u32 v;
	int ret;

	if (!strcmp(val, "any")) {
		*out = ORXE_FAULT_ANY;
		return 0;
	}
	ret = kstrtou32(val, 0, &v);
	if (ret)
		return ret;
	if (v > (u32)max)
		return -EINVAL;
	*out = v;
	return 0;
}

/*
 * "ACTION [opcode=N|any] [qpn=N|any] [count=N] [us=N]" with ACTION drop, duplicate (dup), delay or
 * corrupt; opcode and qpn default to any, count to 1.  "clear" removes every rule.
 */
int oib_rxe_fabric_parse_rule(struct orxe_fabric *f, char *text)
{
	struct orxe_fault_rule rule = {
		.opcode = ORXE_FAULT_ANY, .qpn = ORXE_FAULT_ANY, .count = 1,
	};
	char *tok, *val;
	int ret = 0;

	tok = orxe_next_token(&text, &val);
	if (!tok || val)
		return -EINVAL;
	if (!strcmp(tok, "clear")) {
		if (orxe_next_token(&text, &val))
			return -EINVAL;
		oib_rxe_fabric_clear_rules(f);
		return 0;
	}
	if (!strcmp(tok, "dup"))
		tok = "duplicate";
	for (rule.action = 0; rule.action <= ORXE_FAULT_CORRUPT; rule.action++)
		if (!strcmp(tok, orxe_fault_action_names[rule.action]))
			break;
	if (rule.action > ORXE_FAULT_CORRUPT)
		return -EINVAL;

	while (!ret && (tok = orxe_next_token(&text, &val))) {
		if (!val)
			ret = -EINVAL;
		else if (!strcmp(tok, "opcode"))
			ret = orxe_parse_match(val, 0xff, &rule.opcode);
		else if (!strcmp(tok, "qpn"))
			ret = orxe_parse_match(val, 0xffffff, &rule.qpn);
		else if (!strcmp(tok, "count"))
			ret = kstrtou32(val, 0, &rule.count);
		else if (!strcmp(tok, "us") && rule.action == ORXE_FAULT_DELAY)
			ret = kstrtou32(val, 0, &rule.delay_us);
		else
			ret = -EINVAL;
	}
	return ret ?: oib_rxe_fabric_add_rule(f, &rule);
}
EXPORT_SYMBOL(oib_rxe_fabric_parse_rule);

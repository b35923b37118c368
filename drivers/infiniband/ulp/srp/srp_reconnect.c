// SPDX-License-Identifier: GPL-2.0-only
/*
 * A host's connection over its life: the first login (add_target), the loss of a live
 * connection and the reconnect work, a host reset, the stop.  A lost connection (RECOVER in the
 * state table) holds the host's commands (scsi_block_requests()) and queues the reconnect work:
 * it releases the old connection (drained, its unanswered commands requeued) and logs in again,
 * every SRP_RECONNECT_MS, until srp_fail_timeout seconds after the loss; then it gives up: the
 * held commands and every later one fail with DID_NO_CONNECT until the host is removed.
 */
#include <kunit/visibility.h>
#include <linux/jiffies.h>
#include <scsi/scsi_host.h>
#include "srp_priv.h"

/* Let the held commands go; hold them again if the connection went meanwhile. */
static void srp_resume(struct srp_host *h)
{
	scsi_unblock_requests(h->shost);
	if (READ_ONCE(h->state) == SRP_CONN_DOWN)
		scsi_block_requests(h->shost);
}

static void srp_reconnect_work(struct work_struct *work)
{
	struct srp_host *h = container_of(to_delayed_work(work), struct srp_host, reconnect_work);
	unsigned long deadline = READ_ONCE(h->down_since) + READ_ONCE(srp_fail_timeout) * HZ;
	int ret;

	srp_conn_release(h);
	if (READ_ONCE(h->state) != SRP_CONN_DOWN)
		return;
	if (time_after_eq(jiffies, deadline)) {
		pr_warn("oib_srp: host%u: %pISpc away for %u s: its commands fail\n",
			h->shost->host_no, &h->dst, srp_fail_timeout);
		srp_conn_step(h, SRP_CEV_GIVE_UP);
		return;
	}
	ret = srp_conn_login(h, SRP_CEV_RETRY, deadline);
	if (!ret) {
		pr_info("oib_srp: host%u: logged in to %pISpc again\n", h->shost->host_no,
			&h->dst);
		srp_resume(h);
		return;
	}
	if (READ_ONCE(h->state) == SRP_CONN_DOWN)
		queue_delayed_work(srp_wq, &h->reconnect_work, msecs_to_jiffies(SRP_RECONNECT_MS));
}

void srp_conn_init(struct srp_host *h)
{
	spin_lock_init(&h->lock);
	init_waitqueue_head(&h->state_wq);
	init_completion(&h->answered);
	INIT_DELAYED_WORK(&h->reconnect_work, srp_reconnect_work);
}

/*
 * The first login, SRP_CONNECT_MS a channel at most: 0 once live, else its reason (the objects
 * are left for srp_conn_stop()).
 */
int srp_conn_start(struct srp_host *h)
{
	return srp_conn_login(h, SRP_CEV_CONNECT,
			      jiffies + msecs_to_jiffies(SRP_CONNECT_MS) * h->nch);
}

static bool srp_settled(struct srp_host *h)
{
	enum srp_conn_state s = READ_ONCE(h->state);

	return s == SRP_CONN_LIVE || s == SRP_CONN_FAILED || s == SRP_CONN_REMOVING;
}

/*
 * A host reset: the connection dropped (if it is still live) and logged in again.  0 once it
 * is; -ENOTCONN once the reconnect work gave up (a bound: the wait's is a safety net).
 */
int srp_conn_reset(struct srp_host *h)
{
	long limit = (READ_ONCE(srp_fail_timeout) + 3 * SRP_CONNECT_MS / MSEC_PER_SEC) * HZ;

	srp_conn_gone(h, "host reset");
	wait_event_timeout(h->state_wq, srp_settled(h), limit);
	return READ_ONCE(h->state) == SRP_CONN_LIVE ? 0 : -ENOTCONN;
}
EXPORT_SYMBOL_IF_KUNIT(srp_conn_reset);

/* Everything the connection made, whatever it got to; no callback or work runs after. */
void srp_conn_stop(struct srp_host *h)
{
	srp_conn_step(h, SRP_CEV_REMOVE);
	cancel_delayed_work_sync(&h->reconnect_work);
	srp_conn_release(h);
}

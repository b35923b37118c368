// SPDX-License-Identifier: GPL-2.0-only
/*
 * A port's MAD service: the GSI QP with its receive ring kept full, the work that handles its
 * completions, the bounded window of posted work requests fed from the backlogs, and recovery of
 * the QP from the error state.  Ports are set up and torn down by the oib_core client in
 * mad_main.c.
 *
 * This file and mad_send.c call each other, as the concept needs: send MADs enter the window here
 * (mad_port_post_locked()) and the window hands their work requests' completions back
 * (mad_send_wr_done()); the port work is where finished MADs' handlers run.
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <kunit/visibility.h>
#include <oib/kunit/mad.h>
#include "mad_priv.h"

static void mad_port_release(struct kref *ref)
{
	struct mad_port *port = container_of(ref, struct mad_port, ref);

	cancel_delayed_work_sync(&port->reasm_tick);
	cancel_work_sync(&port->move);	/* it queues the work */
	cancel_work_sync(&port->work);	/* the last kick may still be queued */
	kvfree(port->rbufs);
	kfree(port);
}

void mad_port_put(struct mad_port *port)
{
	kref_put(&port->ref, mad_port_release);
}

/* The port's service, or NULL; the caller must hold the device (client add/remove or a user). */
struct mad_port *mad_port_get(struct oib_device *device, u32 port)
{
	struct mad_port **ports;

	if (!device || !oib_port_valid(device, port))
		return NULL;
	ports = oib_get_client_data(device, &mad_client);
	return ports ? ports[port - 1] : NULL;
}

/*
 * Queue the port work on a per-CPU worker.  A port taking a MAD or two at a time (a request and
 * its response, a ping-pong) runs on the CPU that kicks it, without waking another: under
 * emulation the wake-up of an idle vCPU costs more than the work.  A port in a stream (its last
 * run found more than MAD_WORK_LONE completions: many MADs outstanding) runs on its own CPU,
 * so that the two ends of a stream run in parallel.  Ports get their CPUs spread over the online
 * ones as they are set up.
 */
void mad_port_kick(struct mad_port *port)
{
	unsigned int cpu = port->home_cpu;

	if (READ_ONCE(port->stream) && cpu_online(cpu))
		queue_work_on(cpu, mad_wq, &port->work);
	else
		queue_work(mad_wq, &port->work);
}

/*
 * Something for the port work to take (finished MADs' handlers to call, completions of sends just
 * posted): kick it, unless this is the port work, which takes them before it ends (the handlers in
 * mad_send_deliver_done(), the completions in its next pass or through mad_port_arm()).  Queued
 * again while it runs, the work would run again where it is, keeping a stream's port off its CPU.
 */
void mad_port_kick_outside(struct mad_port *port)
{
	if (current_work() != &port->work)
		mad_port_kick(port);
}

/* Wait until the work is neither queued nor running, unless something else queues it again. */
static void mad_port_quiesce(struct mad_port *port)
{
	flush_work(&port->work);
	flush_work(&port->move);	/* it may have queued the work again */
	flush_work(&port->work);
}

/* Queue the work on its own CPU once the run that queued this has ended. */
static void mad_port_move(struct work_struct *work)
{
	struct mad_port *port = container_of(work, struct mad_port, move);

	flush_work(&port->work);
	queue_work_on(port->home_cpu, mad_wq, &port->work);
}

/*
 * A run that left completions behind queues the work again.  Queued by itself, the work would run
 * where it is (a work queued while it runs waits for the run, on its CPU); a stream's port that
 * ran elsewhere is queued on its own CPU by @move instead.
 */
static void mad_port_again(struct mad_port *port)
{
	unsigned int cpu = port->home_cpu;

	if (READ_ONCE(port->stream) && cpu != raw_smp_processor_id() && cpu_online(cpu))
		queue_work_on(cpu, mad_wq, &port->move);
	else
		queue_work(mad_wq, &port->work);
}

static void mad_cq_event(struct oib_cq *cq, void *context)
{
	mad_port_kick(context);
}

static int mad_post_recv(struct mad_port *port, u32 index)
{
	struct mad_recv_buf *rb = &port->rbufs[index];
	struct oib_sge sge = { .addr = (u64)(uintptr_t)rb->data, .length = MAD_RECV_BUF_SIZE,
			       .lkey = port->pd->local_dma_lkey };
	struct oib_recv_wr wr = { .wr_id = index, .sg_list = &sge, .num_sge = 1 };
	int ret;

	ret = oib_post_recv(port->qp, &wr, NULL);
	if (!ret)
		__clear_bit(index, port->unposted);
	return ret;
}

/* Keep the ring full: post every receive buffer not on the QP. */
static void mad_fill_ring(struct mad_port *port)
{
	unsigned int i;

	for_each_set_bit(i, port->unposted, MAD_RECV_RING)
		if (mad_post_recv(port, i))
			break;
}

/* A receive completion: the MAD to the receive path, its buffer back on the ring. */
static void mad_recv_complete(struct mad_port *port, const struct oib_wc *wc)
{
	struct mad_recv_buf *rb;

	if (wc->wr_id >= MAD_RECV_RING)
		return;
	rb = &port->rbufs[wc->wr_id];
	__set_bit(wc->wr_id, port->unposted);
	if (wc->status == OIB_WC_WR_FLUSH_ERR)
		return;	/* the QP is in error: recovery refills the ring */
	mad_recv(port, rb->data, wc);
	if (!port->recovering)	/* back on the ring at once: bursts must not find it empty */
		mad_post_recv(port, wc->wr_id);
}

static int mad_qp_to_rts(struct oib_qp *qp)
{
	struct oib_qp_attr attr = { .qp_state = OIB_QPS_INIT, .qkey = OIB_GSI_QKEY };
	int ret;

	ret = oib_modify_qp(qp, &attr, OIB_QP_STATE | OIB_QP_PKEY_INDEX | OIB_QP_QKEY);
	if (ret)
		return ret;
	attr.qp_state = OIB_QPS_RTR;
	ret = oib_modify_qp(qp, &attr, OIB_QP_STATE);
	if (ret)
		return ret;
	attr.qp_state = OIB_QPS_RTS;
	return oib_modify_qp(qp, &attr, OIB_QP_STATE | OIB_QP_SQ_PSN);
}

/* Post @ms's work requests: one MAD, or a train of RMPP segments with only the last signalled. */
static int mad_port_post_wrs(struct mad_port *port, struct mad_send *ms)
{
	struct oib_send_wr wrs[MAD_RMPP_TRAIN];
	struct oib_sge sges[MAD_RMPP_TRAIN];
	unsigned int i;

	for (i = 0; i < ms->wr_count; i++) {
		bool last = i + 1 == ms->wr_count;

		sges[i] = (struct oib_sge){
			.addr = (u64)(uintptr_t)(ms->rmpp ? ms->train + i * OIB_MAD_SIZE : ms->mad),
			.length = OIB_MAD_SIZE, .lkey = port->pd->local_dma_lkey,
		};
		wrs[i] = (struct oib_send_wr){
			.next = last ? NULL : &wrs[i + 1], .wr_id = ms->wr_id + i,
			.opcode = OIB_WR_SEND, .send_flags = last ? OIB_SEND_SIGNALED : 0,
			.sg_list = &sges[i], .num_sge = 1,
			.wr.ud = { .ah = ms->buf.ah, .remote_qpn = ms->buf.remote_qpn,
				   .remote_qkey = ms->buf.remote_qkey,
				   .pkey_index = ms->buf.pkey_index },
		};
	}
	return oib_post_send(port->qp, wrs, NULL);
}

/*
 * Post from the backlogs while the window has room: responses first, so that answers never
 * starve behind a flood of new requests; each backlog in order.  A post the QP refuses completes
 * that MAD in error.  Posted from outside the port work, the work requests' completions are the
 * port work's to take: it is kicked (mad_port_arm() left the send CQ unarmed if the QP had none).
 */
void mad_port_post_locked(struct mad_port *port)
{
	bool posted = false;
	struct mad_send *ms;
	u64 high;
	int ret;

	lockdep_assert_held(&port->lock);
	while (!port->dying && !port->recovering && port->outstanding < MAD_MAX_OUTSTANDING) {
		ms = list_first_entry_or_null(&port->resp_backlog, struct mad_send, port_link);
		if (!ms)
			ms = list_first_entry_or_null(&port->req_backlog, struct mad_send,
						      port_link);
		if (!ms)
			break;
		ms->wr_count = 1;
		if (ms->rmpp) {
			ms->wr_count = mad_rmpp_build_train(ms, MAD_MAX_OUTSTANDING -
								port->outstanding);
			atomic64_add(ms->wr_count, &port->stats[OIB_MAD_PORT_RMPP_SEGS_SENT]);
		}
		ms->wr_id = port->next_wr_id;
		port->next_wr_id += MAD_RMPP_TRAIN;
		ms->wr_error = OIB_WC_SUCCESS;
		mad_fsm(ms, MAD_EV_WR_POSTED);
		list_move_tail(&ms->port_link, &port->send_list);
		port->outstanding += ms->wr_count;
		high = atomic64_read(&port->stats[OIB_MAD_PORT_MAX_OUTSTANDING]);
		if (port->outstanding > high)
			atomic64_set(&port->stats[OIB_MAD_PORT_MAX_OUTSTANDING], port->outstanding);

		ret = mad_port_post_wrs(port, ms);
		atomic64_add(ms->wr_count, &port->stats[OIB_MAD_PORT_SENT]);
		if (ret)
			mad_send_wr_done(port, ms, OIB_WC_LOC_QP_OP_ERR);
		posted = true;
	}
	if (posted)
		mad_port_kick_outside(port);
}

/*
 * A send completion: find its MAD on the send list by the id of its work request (a stale id
 * matches nothing).  A train's MAD is done with its last work request, which completes even after
 * an error in the train (flushed, as everything after an error is); the first error is its status.
 */
static void mad_send_complete(struct mad_port *port, const struct oib_wc *wc)
{
	struct mad_send *ms, *found = NULL;
	unsigned long flags;
	u64 i = 0;

	spin_lock_irqsave(&port->lock, flags);
	list_for_each_entry(ms, &port->send_list, port_link) {
		i = wc->wr_id - ms->wr_id;
		if (i < ms->wr_count) {
			found = ms;
			break;
		}
	}
	if (found && wc->status != OIB_WC_SUCCESS && found->wr_error == OIB_WC_SUCCESS)
		found->wr_error = wc->status;
	if (found && i == found->wr_count - 1)
		mad_send_wr_done(port, found, found->wr_error);
	spin_unlock_irqrestore(&port->lock, flags);
}

static bool mad_qp_in_error(struct mad_port *port)
{
	struct oib_qp_init_attr init;
	struct oib_qp_attr attr;

	if (oib_query_qp(port->qp, &attr, OIB_QP_STATE, &init))
		return true;
	return attr.qp_state == OIB_QPS_ERR || attr.qp_state == OIB_QPS_SQE;
}

/*
 * The QP went to the error state: stop posting, drain the CQs, reset the QP (which discards what
 * is left on it), complete every MAD whose work request was on it as flushed, bring the QP back to
 * RTS, refill the receive ring and resume the backlog.  MADs waiting for responses are untouched.
 */
static void mad_port_recover(struct mad_port *port)
{
	struct oib_qp_attr attr = { .qp_state = OIB_QPS_RESET };
	struct mad_send *ms, *next;
	struct oib_wc wc;

	spin_lock_irq(&port->lock);
	port->recovering = true;
	spin_unlock_irq(&port->lock);

	while (oib_poll_cq(port->recv_cq, 1, &wc) > 0)
		mad_recv_complete(port, &wc);
	while (oib_poll_cq(port->send_cq, 1, &wc) > 0)
		mad_send_complete(port, &wc);
	if (oib_modify_qp(port->qp, &attr, OIB_QP_STATE) || mad_qp_to_rts(port->qp)) {
		dev_err(&port->device->dev, "oib_mad: port %u: GSI QP recovery failed\n",
			port->port_num);
		spin_lock_irq(&port->lock);
		port->dying = true;	/* no more posting on this port */
		port->recovering = false;
		spin_unlock_irq(&port->lock);
		return;
	}
	bitmap_fill(port->unposted, MAD_RECV_RING);

	spin_lock_irq(&port->lock);
	list_for_each_entry_safe(ms, next, &port->send_list, port_link)
		mad_send_wr_done(port, ms, OIB_WC_WR_FLUSH_ERR);
	port->recovering = false;
	spin_unlock_irq(&port->lock);
	mad_port_count(port, OIB_MAD_PORT_RECOVERIES);
	mad_fill_ring(port);
}

/*
 * Handle up to @budget completions, receives first (if @recv) then sends (not while held); then
 * recover the QP if one failed and it is in error, or else refill the receive ring.  Returns how
 * many were handled.
 */
static int mad_port_poll(struct mad_port *port, int budget, bool recv)
{
	struct oib_wc wc[MAD_POLL_BATCH];
	bool error = false, hold;
	int n, i, done = 0;

	mutex_lock(&port->qp_mutex);
	if (!port->recv_cq)
		goto out;
	while (recv && done < budget &&
	       (n = oib_poll_cq(port->recv_cq, min(budget - done, MAD_POLL_BATCH), wc)) > 0) {
		for (i = 0; i < n; i++) {
			error |= wc[i].status != OIB_WC_SUCCESS;
			mad_recv_complete(port, &wc[i]);
		}
		done += n;
	}
	spin_lock_irq(&port->lock);
	hold = port->hold_sends;
	spin_unlock_irq(&port->lock);
	while (!hold && done < budget &&
	       (n = oib_poll_cq(port->send_cq, min(budget - done, MAD_POLL_BATCH), wc)) > 0) {
		for (i = 0; i < n; i++) {
			error |= wc[i].status != OIB_WC_SUCCESS;
			mad_send_complete(port, &wc[i]);
		}
		done += n;
	}
	if (error && mad_qp_in_error(port))
		mad_port_recover(port);
	else
		mad_fill_ring(port);
out:
	mutex_unlock(&port->qp_mutex);
	return done;
}

/*
 * Ask for an event on the next receive completion, and on the next send completion while work
 * requests are on the QP (a post from outside the port work kicks it: mad_port_post_locked()),
 * so that sends the port work posts and then polls itself raise no event; true if completions
 * came meanwhile.
 */
static bool mad_port_arm(struct mad_port *port)
{
	bool sends, missed = false;

	mutex_lock(&port->qp_mutex);
	if (port->recv_cq) {
		spin_lock_irq(&port->lock);
		sends = !port->hold_sends && port->outstanding;
		spin_unlock_irq(&port->lock);
		missed = oib_req_notify_cq(port->recv_cq, OIB_CQ_NEXT_COMP |
					   OIB_CQ_REPORT_MISSED_EVENTS) > 0 ||
			 (sends && oib_req_notify_cq(port->send_cq, OIB_CQ_NEXT_COMP |
						     OIB_CQ_REPORT_MISSED_EVENTS) > 0);
	}
	mutex_unlock(&port->qp_mutex);
	return missed;
}

/*
 * The port's work: receive and send completions (a bounded number per run), QP recovery when
 * needed, then the done list (where every handler call of the port's agents happens) and
 * posting; then again with the send completions of what was just posted (a datagram's may be
 * there already), while there are some.  Receives wait for the next run: taken a batch at a
 * time, a stream's requests and responses keep their batches.
 */
static void mad_port_work(struct work_struct *work)
{
	struct mad_port *port = container_of(work, struct mad_port, work);
	int n, budget = READ_ONCE(port->work_budget);

	WRITE_ONCE(port->last_cpu, raw_smp_processor_id());
	n = mad_port_poll(port, budget, true);
	/*
	 * What the run was kicked for makes a stream, not the sends it reaps after posting them; a
	 * run that found nothing (kicked again while the last one ran) says nothing.
	 */
	if (n)
		WRITE_ONCE(port->stream, n > MAD_WORK_LONE);
	for (;;) {
		budget -= n;
		mad_reasm_expire(port);
		mad_send_deliver_done(port);
		spin_lock_irq(&port->lock);
		mad_port_post_locked(port);
		spin_unlock_irq(&port->lock);
		if (!n || budget <= 0)
			break;
		n = mad_port_poll(port, budget, false);
	}
	WRITE_ONCE(port->runs, port->runs + 1);
	if (budget <= 0 || mad_port_arm(port))
		mad_port_again(port);
}

/* Have the port work look at its RMPP transfers: the tick, or an agent unregistering. */
void mad_port_expire_reasm(struct mad_port *port)
{
	set_bit(0, &port->reasm_due);
	mad_port_kick(port);
}

static void mad_port_reasm_tick(struct work_struct *work)
{
	mad_port_expire_reasm(container_of(to_delayed_work(work), struct mad_port, reasm_tick));
}

int mad_port_setup(struct mad_port *port)
{
	struct oib_cq_init_attr cq_attr = { .cqe = MAD_RECV_RING + MAD_SEND_DEPTH };
	struct oib_qp_init_attr qp_attr = {
		.qp_type = OIB_QPT_GSI, .port_num = port->port_num,
		.cap = { .max_send_wr = MAD_SEND_DEPTH, .max_recv_wr = MAD_RECV_RING,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.sq_sig_type = OIB_SIGNAL_REQ_WR,	/* RMPP trains: the last WR only */
	};
	int ret;

	/* ~150 KiB: vmalloc is fine, the local DMA lkey names any kernel memory */
	port->rbufs = kvcalloc(MAD_RECV_RING, sizeof(*port->rbufs), GFP_KERNEL);
	if (!port->rbufs)
		return -ENOMEM;
	port->pd = oib_alloc_pd(port->device);
	if (IS_ERR(port->pd))
		return PTR_ERR(port->pd);
	port->send_cq = oib_create_cq(port->device, mad_cq_event, NULL, port, &cq_attr);
	if (IS_ERR(port->send_cq)) {
		ret = PTR_ERR(port->send_cq);
		goto err_pd;
	}
	port->recv_cq = oib_create_cq(port->device, mad_cq_event, NULL, port, &cq_attr);
	if (IS_ERR(port->recv_cq)) {
		ret = PTR_ERR(port->recv_cq);
		goto err_send_cq;
	}
	qp_attr.send_cq = port->send_cq;
	qp_attr.recv_cq = port->recv_cq;
	qp_attr.qp_context = port;
	port->qp = oib_create_qp(port->pd, &qp_attr);
	if (IS_ERR(port->qp)) {
		ret = PTR_ERR(port->qp);
		goto err_recv_cq;
	}
	ret = mad_qp_to_rts(port->qp);
	if (ret)
		goto err_qp;
	bitmap_fill(port->unposted, MAD_RECV_RING);
	mad_fill_ring(port);
	oib_req_notify_cq(port->recv_cq, OIB_CQ_NEXT_COMP);	/* sends: mad_port_arm() */
	return 0;

err_qp:
	oib_destroy_qp(port->qp);
err_recv_cq:
	oib_destroy_cq(port->recv_cq);
err_send_cq:
	oib_destroy_cq(port->send_cq);
err_pd:
	oib_dealloc_pd(port->pd);
	port->qp = NULL;
	port->recv_cq = NULL;
	port->send_cq = NULL;
	return ret;
}

/*
 * Take the port down with agents possibly still registered and MADs in flight: no more posting,
 * every MAD flushed, the QP and CQs destroyed (after which no completion arrives), the MADs whose
 * work requests were on the QP completed as flushed, and every handler call made.
 */
void mad_port_teardown(struct mad_port *port)
{
	struct mad_send *ms, *next;
	struct mad_agent *ma;

	spin_lock_irq(&port->lock);
	port->dying = true;
	list_for_each_entry(ma, &port->agents, port_link)
		mad_flush_agent_locked(ma, OIB_MAD_SEND_FLUSHED);
	spin_unlock_irq(&port->lock);

	mutex_lock(&port->qp_mutex);
	oib_destroy_qp(port->qp);
	oib_destroy_cq(port->recv_cq);
	oib_destroy_cq(port->send_cq);
	port->qp = NULL;
	port->recv_cq = NULL;
	port->send_cq = NULL;
	mutex_unlock(&port->qp_mutex);
	spin_lock_irq(&port->lock);
	list_for_each_entry_safe(ms, next, &port->send_list, port_link)
		mad_send_wr_done(port, ms, OIB_WC_WR_FLUSH_ERR);
	spin_unlock_irq(&port->lock);
	/* No run of the work that still saw the port alive, so no tick after this cancel. */
	mad_port_quiesce(port);
	cancel_delayed_work_sync(&port->reasm_tick);
	mad_port_kick(port);	/* handlers, and the messages being received dropped */
	flush_work(&port->work);
	oib_dealloc_pd(port->pd);
}

/* Ports set up so far: their home CPUs, round robin. */
static atomic_t mad_ports_seen = ATOMIC_INIT(0);

void mad_port_init(struct mad_port *port, struct oib_device *device, u32 port_num)
{
	kref_init(&port->ref);
	port->device = device;
	port->port_num = port_num;
	spin_lock_init(&port->lock);
	mutex_init(&port->qp_mutex);
	INIT_LIST_HEAD(&port->agents);
	INIT_LIST_HEAD(&port->resp_backlog);
	INIT_LIST_HEAD(&port->req_backlog);
	INIT_LIST_HEAD(&port->held);
	INIT_LIST_HEAD(&port->send_list);
	INIT_LIST_HEAD(&port->done);
	INIT_WORK(&port->work, mad_port_work);
	INIT_WORK(&port->move, mad_port_move);
	port->home_cpu = cpumask_local_spread(atomic_inc_return(&mad_ports_seen) - 1,
					      NUMA_NO_NODE);
	port->last_cpu = port->home_cpu;
	port->work_budget = MAD_WORK_BUDGET;
	hash_init(port->reasm);
	INIT_DELAYED_WORK(&port->reasm_tick, mad_port_reasm_tick);
	port->reasm_idle = MAD_REASM_IDLE;
	port->reasm_time_wait = MAD_REASM_TIME_WAIT;
	port->rmpp_ack_ms = MAD_RMPP_ACK_TIMEOUT_MS;
}

struct oib_qp *oib_mad_port_qp(struct oib_device *device, u32 port_num)
{
	struct mad_port *port = mad_port_get(device, port_num);

	return port ? port->qp : ERR_PTR(-ENODEV);
}
EXPORT_SYMBOL_IF_KUNIT(oib_mad_port_qp);

int oib_mad_port_hold_send_completions(struct oib_device *device, u32 port_num, bool hold)
{
	struct mad_port *port = mad_port_get(device, port_num);

	if (!port)
		return -ENODEV;
	spin_lock_irq(&port->lock);
	port->hold_sends = hold;
	spin_unlock_irq(&port->lock);
	mad_port_kick(port);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(oib_mad_port_hold_send_completions);

int oib_mad_port_set_reasm_timeouts(struct oib_device *device, u32 port_num, unsigned long idle,
				    unsigned long time_wait)
{
	struct mad_port *port = mad_port_get(device, port_num);

	if (!port)
		return -ENODEV;
	WRITE_ONCE(port->reasm_idle, idle ?: MAD_REASM_IDLE);
	WRITE_ONCE(port->reasm_time_wait, time_wait ?: MAD_REASM_TIME_WAIT);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(oib_mad_port_set_reasm_timeouts);

int oib_mad_port_set_rmpp_ack_timeout(struct oib_device *device, u32 port_num, unsigned int ms)
{
	struct mad_port *port = mad_port_get(device, port_num);

	if (!port || ms > OIB_MAD_TIMEOUT_MAX_MS)
		return port ? -EINVAL : -ENODEV;
	WRITE_ONCE(port->rmpp_ack_ms, ms ?: MAD_RMPP_ACK_TIMEOUT_MS);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(oib_mad_port_set_rmpp_ack_timeout);

int oib_mad_port_placement(struct oib_device *device, u32 port_num,
			   struct oib_mad_port_placement *out)
{
	struct mad_port *port = mad_port_get(device, port_num);

	if (!port || !out)
		return port ? -EINVAL : -ENODEV;
	out->home_cpu = port->home_cpu;
	out->stream = READ_ONCE(port->stream);
	out->last_cpu = READ_ONCE(port->last_cpu);
	out->runs = READ_ONCE(port->runs);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(oib_mad_port_placement);

int oib_mad_port_flush(struct oib_device *device, u32 port_num)
{
	struct mad_port *port = mad_port_get(device, port_num);

	if (!port)
		return -ENODEV;
	mad_port_quiesce(port);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(oib_mad_port_flush);

int oib_mad_port_set_work_budget(struct oib_device *device, u32 port_num, unsigned int budget)
{
	struct mad_port *port = mad_port_get(device, port_num);

	if (!port || budget > MAD_WORK_BUDGET)
		return port ? -EINVAL : -ENODEV;
	WRITE_ONCE(port->work_budget, budget ?: MAD_WORK_BUDGET);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(oib_mad_port_set_work_budget);

u64 oib_mad_port_stat(struct oib_device *device, u32 port_num, enum oib_mad_port_stat stat)
{
	struct mad_port *port = mad_port_get(device, port_num);

	if (!port || stat >= OIB_MAD_PORT_NSTATS)
		return 0;
	return atomic64_read(&port->stats[stat]);
}
EXPORT_SYMBOL(oib_mad_port_stat);

// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_bench's MAD phases, run after the RC ones: two oib_rxe devices on the bench fabric, the MAD
 * service of their ports (module oib_mad, loaded before oib_bench), a requester agent on the first
 * device and a responder agent on the second:
 *   mad_rt_1        Get -> GetResp round trips in vendor class 0x0a, one request outstanding
 *   mad_rt_64       the same with 64 outstanding: each finished round trip posts the next request
 *   rmpp_64KiB_bw   Gets in vendor range 2 class 0x30 between RMPP agents, each answered with a
 *                   GetResp of 64 KiB of data, sent and reassembled by the layer's RMPP; one
 *                   transfer outstanding
 * The requester is a send-only agent.  A round trip ends when its send handler reports
 * OIB_MAD_SEND_OK, which the layer does after the response went to its receive handler; that
 * send handler then posts the next request.  The responder answers from its receive handler as a
 * real one does: an address handle from the request, a new send buffer, the request's headers with
 * method GetResp; its send handler frees both.  RMPP responses carry a pattern of the request's
 * TID that the requester checks word by word.
 *
 * Each phase runs a tenth of its count as warm-up, then times its count from the completion of the
 * last warm-up round trip to that of the last one, with ktime_get_ns().  Requests wait timeout_ms
 * for their response and are not resent: a response timeout, a send error, a wrong response or no
 * progress for twice timeout_ms ends the phase as n/a (and the round trip phase after it), with
 * every wait bounded.  Results use oib_bench_core.h's lines:
 *   oib-bench: result oib TEST ops=N bytes=N ns=N
 *   oib-bench: n/a oib TEST REASON (ERRNO)
 * and after the RMPP phase a line with both ports' RMPP counters (segments, ACKs, duplicates).
 */
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/unaligned.h>
#include <linux/wait.h>
#include <oib/device.h>
#include <oib/mad.h>
#include <oib/rxe.h>
#include "oib_bench_mad.h"

#define OIB_BENCH_MAD_CLASS	0x0a		/* vendor range 1: no OUI, no RMPP */
#define OIB_BENCH_RMPP_CLASS	0x30		/* vendor range 2: an OUI, RMPP */
#define OIB_BENCH_MAD_VERSION	1
#define OIB_BENCH_MAD_ATTR	0x0010
#define OIB_BENCH_MAD_DEPTH	64		/* outstanding requests, second phase */
#define OIB_BENCH_RMPP_LEN	(64 * 1024)	/* data bytes of each RMPP response */

/* Any OUI will do: both agents are ours. */
static const u8 oib_bench_oui[3] = { 0x00, 0x0f, 0xb1 };

/* The phases, in the order they run. */
static const char * const oib_bench_mad_tests[] = { "mad_rt_1", "mad_rt_64", "rmpp_64KiB_bw" };

static unsigned int mad_iters = 5000;
module_param(mad_iters, uint, 0444);
MODULE_PARM_DESC(mad_iters, "measured MAD round trips with 1 and with 64 outstanding");
static unsigned int rmpp_iters = 50;
module_param(rmpp_iters, uint, 0444);
MODULE_PARM_DESC(rmpp_iters, "measured 64 KiB RMPP responses");

struct oib_bench_mad {
	struct oib_device *device[2];		/* the requester's, the responder's */
	struct oib_mad_agent *req, *resp;	/* the agents of the phases running */
	struct oib_ah *ah;			/* from req to the responder's port */
	unsigned int timeout_ms;
	const char *only;			/* the one phase to run; NULL: all */
	/* the phase, set before its first post */
	u8 mgmt_class;
	size_t resp_len;			/* data bytes of each RMPP response; 0: one MAD */
	unsigned int warmup, total;
	atomic_t posted, done;			/* requests posted, round trips finished */
	atomic_t answering;			/* responses posted, send handler not yet called */
	u64 start_ns, end_ns;
	spinlock_t lock;			/* the fields below */
	bool stop;				/* no more posts: finished, failed, torn down */
	bool finished;				/* all round trips done, end_ns set */
	int error;				/* why the phase failed, if it did */
	const char *why;
	wait_queue_head_t wq;			/* the loading thread, for stop */
};

/* The phase failed (unless it is over already): stop posting, tell the loading thread. */
static void oib_bench_mad_fail(struct oib_bench_mad *b, int err, const char *why)
{
	spin_lock(&b->lock);
	if (!b->stop) {
		b->error = err;
		b->why = why;
		b->stop = true;
	}
	spin_unlock(&b->lock);
	wake_up(&b->wq);
}

static bool oib_bench_mad_stopped(struct oib_bench_mad *b)
{
	return READ_ONCE(b->stop);
}

static int oib_bench_mad_status_err(enum oib_mad_send_status status)
{
	switch (status) {
	case OIB_MAD_SEND_RESP_TIMEOUT:
		return -ETIMEDOUT;
	case OIB_MAD_SEND_ABORTED:
		return -ECONNABORTED;
	case OIB_MAD_SEND_CANCELLED:
	case OIB_MAD_SEND_FLUSHED:
		return -ECANCELED;
	default:
		return -EIO;
	}
}

static const char *oib_bench_mad_status_why(enum oib_mad_send_status status, bool response)
{
	switch (status) {
	case OIB_MAD_SEND_RESP_TIMEOUT:
		return "response_timeout";
	case OIB_MAD_SEND_ABORTED:
		return response ? "rmpp_response_aborted" : "request_aborted";
	case OIB_MAD_SEND_CANCELLED:
	case OIB_MAD_SEND_FLUSHED:
		return response ? "response_flushed" : "request_flushed";
	default:
		return response ? "response_send_error" : "request_send_error";
	}
}

/* The data of the RMPP response to the request with TID @tid: 32-bit words, TID and index. */
static u32 oib_bench_mad_word(u64 tid, size_t i)
{
	return ((u32)tid << 16) ^ (u32)i;
}

static void oib_bench_mad_fill(u8 *data, size_t len, u64 tid)
{
	size_t i;

	for (i = 0; i < len / 4; i++)
		put_unaligned_le32(oib_bench_mad_word(tid, i), data + 4 * i);
}

static bool oib_bench_mad_check(const u8 *data, size_t len, u64 tid)
{
	size_t i;

	for (i = 0; i < len / 4; i++)
		if (get_unaligned_le32(data + 4 * i) != oib_bench_mad_word(tid, i))
			return false;
	return true;
}

/* Post the next request of the phase, unless all are posted or the phase stopped. */
static void oib_bench_mad_post(struct oib_bench_mad *b)
{
	struct oib_mad_send_buf *sb;
	struct oib_rmpp_hdr *rmpp;
	struct oib_mad_hdr *hdr;
	unsigned int n;
	int ret;

	if (oib_bench_mad_stopped(b))
		return;
	n = atomic_inc_return(&b->posted);
	if (n > b->total)
		return;
	sb = oib_create_send_mad(b->req, b->ah, GFP_KERNEL);
	if (IS_ERR(sb)) {
		oib_bench_mad_fail(b, PTR_ERR(sb), "no_send_buffer");
		return;
	}
	hdr = sb->mad;
	hdr->base_version = OIB_MAD_BASE_VERSION;
	hdr->mgmt_class = b->mgmt_class;
	hdr->class_version = OIB_BENCH_MAD_VERSION;
	hdr->method = OIB_MGMT_METHOD_GET;
	hdr->tid = cpu_to_be64(n);	/* the layer puts the agent's hi_tid on top */
	hdr->attr_id = cpu_to_be16(OIB_BENCH_MAD_ATTR);
	if (oib_mad_class_uses_rmpp(b->mgmt_class)) {
		/* a request of one MAD: RMPP header without the active flag, then the OUI */
		rmpp = (struct oib_rmpp_hdr *)(hdr + 1);
		rmpp->rmpp_version = OIB_RMPP_VERSION;
		rmpp->rmpp_rtime_flags = OIB_RMPP_NO_RESPTIME << 3;
		memcpy((u8 *)sb->mad + OIB_MAD_OUI_OFFSET, oib_bench_oui, sizeof(oib_bench_oui));
	}
	sb->timeout_ms = b->timeout_ms;
	sb->retries = 0;
	ret = oib_post_send_mad(sb);
	if (ret) {
		oib_free_send_mad(sb);
		oib_bench_mad_fail(b, ret, "request_post_refused");
	}
}

/* Requester: the response to one of its Gets, before that Get's send handler. */
static void oib_bench_mad_req_recv(struct oib_mad_agent *agent, struct oib_mad_send_buf *req,
				   const struct oib_mad_recv *recv)
{
	struct oib_bench_mad *b = agent->context;
	const struct oib_mad_hdr *hdr = recv->mad;
	size_t hdr_len;

	if (!req)
		return;		/* a send-only agent is given no requests */
	if (hdr->method != OIB_MGMT_METHOD_GET_RESP || hdr->status) {
		if (!oib_bench_mad_stopped(b))
			pr_info("oib-bench: oib mad: response method 0x%02x status 0x%04x\n",
				hdr->method, be16_to_cpu(hdr->status));
		oib_bench_mad_fail(b, -EPROTO, "response_method_or_status");
		return;
	}
	if (!b->resp_len)
		return;
	hdr_len = oib_mad_rmpp_hdr_len(b->mgmt_class);
	if (recv->len != hdr_len + b->resp_len) {
		if (!oib_bench_mad_stopped(b))
			pr_info("oib-bench: oib mad: RMPP response of %zu bytes, not %zu\n",
				recv->len, hdr_len + b->resp_len);
		oib_bench_mad_fail(b, -EPROTO, "rmpp_response_length");
		return;
	}
	if (!oib_bench_mad_check((const u8 *)hdr + hdr_len, b->resp_len,
				 be64_to_cpu(((struct oib_mad_hdr *)req->mad)->tid)))
		oib_bench_mad_fail(b, -EPROTO, "rmpp_response_data");
}

/* Requester: a Get is done; after its response, post the next one. */
static void oib_bench_mad_req_send(struct oib_mad_agent *agent, struct oib_mad_send_wc *wc)
{
	struct oib_bench_mad *b = agent->context;
	enum oib_mad_send_status status = wc->status;
	unsigned int n;
	u64 now;

	oib_free_send_mad(wc->send_buf);
	if (status != OIB_MAD_SEND_OK) {
		oib_bench_mad_fail(b, oib_bench_mad_status_err(status),
				   oib_bench_mad_status_why(status, false));
		return;
	}
	n = atomic_inc_return(&b->done);
	now = ktime_get_ns();
	if (n == b->warmup)
		b->start_ns = now;
	if (n < b->total) {
		oib_bench_mad_post(b);
		return;
	}
	spin_lock(&b->lock);
	if (!b->stop) {
		b->end_ns = now;
		b->finished = true;
		b->stop = true;
	}
	spin_unlock(&b->lock);
	wake_up(&b->wq);
}

/* Responder: a Get; answer it with a GetResp (of resp_len bytes of data with RMPP). */
static void oib_bench_mad_resp_recv(struct oib_mad_agent *agent, struct oib_mad_send_buf *req,
				    const struct oib_mad_recv *recv)
{
	struct oib_bench_mad *b = agent->context;
	struct oib_mad_send_buf *sb;
	struct oib_mad_hdr *hdr;
	struct oib_ah *ah;
	int ret;

	if (req)
		return;		/* the responder sends no requests */
	ah = oib_mad_create_resp_ah(agent, recv);
	if (IS_ERR(ah)) {
		oib_bench_mad_fail(b, PTR_ERR(ah), "no_response_address");
		return;
	}
	if (b->resp_len)
		sb = oib_create_rmpp_send_mad(agent, ah, recv->mad->mgmt_class, b->resp_len,
					      GFP_KERNEL);
	else
		sb = oib_create_send_mad(agent, ah, GFP_KERNEL);
	if (IS_ERR(sb)) {
		oib_destroy_ah(ah);
		oib_bench_mad_fail(b, PTR_ERR(sb), b->resp_len ? "rmpp_send_buffer_refused" :
				   "no_response_buffer");
		return;
	}
	/* the request as a GetResp: all of it, or with RMPP its headers (RMPP's is the layer's) */
	memcpy(sb->mad, recv->mad, b->resp_len ? sb->hdr_len : OIB_MAD_SIZE);
	hdr = sb->mad;
	hdr->method = OIB_MGMT_METHOD_GET_RESP;
	hdr->status = 0;
	if (b->resp_len)
		oib_bench_mad_fill((u8 *)sb->mad + sb->hdr_len, b->resp_len,
				   be64_to_cpu(hdr->tid));
	sb->remote_qpn = recv->src_qp;
	sb->pkey_index = recv->pkey_index;
	sb->context[0] = ah;
	atomic_inc(&b->answering);
	ret = oib_post_send_mad(sb);
	if (ret) {
		atomic_dec(&b->answering);
		oib_free_send_mad(sb);
		oib_destroy_ah(ah);
		oib_bench_mad_fail(b, ret, "response_post_refused");
	}
}

static void oib_bench_mad_resp_send(struct oib_mad_agent *agent, struct oib_mad_send_wc *wc)
{
	struct oib_bench_mad *b = agent->context;
	struct oib_ah *ah = wc->send_buf->context[0];
	enum oib_mad_send_status status = wc->status;

	if (status == OIB_MAD_SEND_ABORTED && !oib_bench_mad_stopped(b))
		pr_info("oib-bench: oib mad: RMPP response aborted by the requester (status %u)\n",
			wc->rmpp_status);
	oib_free_send_mad(wc->send_buf);
	oib_destroy_ah(ah);
	if (status != OIB_MAD_SEND_OK)
		oib_bench_mad_fail(b, oib_bench_mad_status_err(status),
				   oib_bench_mad_status_why(status, true));
	atomic_dec(&b->answering);
}

/* Register on port 1 of side @side, waiting up to timeout_ms for the port's MAD service. */
static struct oib_mad_agent *oib_bench_mad_register(struct oib_bench_mad *b, int side,
						    const struct oib_mad_reg_req *req,
						    oib_mad_send_handler send_handler,
						    oib_mad_recv_handler recv_handler)
{
	unsigned long end = jiffies + msecs_to_jiffies(b->timeout_ms);
	struct oib_mad_agent *agent;

	for (;;) {
		agent = oib_register_mad_agent(b->device[side], 1, OIB_QPT_GSI, req, send_handler,
					       recv_handler, b);
		if (!IS_ERR(agent) || PTR_ERR(agent) != -ENODEV || time_after(jiffies, end))
			return agent;
		msleep(20);
	}
}

/* Unregister the agents (flushing what is outstanding) and drop the address handle. */
static void oib_bench_mad_agents_put(struct oib_bench_mad *b)
{
	spin_lock(&b->lock);
	b->stop = true;
	spin_unlock(&b->lock);
	if (b->req)
		oib_unregister_mad_agent(b->req);
	if (b->resp)
		oib_unregister_mad_agent(b->resp);
	if (b->ah)
		oib_destroy_ah(b->ah);
	b->req = NULL;
	b->resp = NULL;
	b->ah = NULL;
}

/* The requester (@sreq, send-only), the responder (@rreq) and the address between them. */
static int oib_bench_mad_agents_get(struct oib_bench_mad *b, const struct oib_mad_reg_req *sreq,
				    const struct oib_mad_reg_req *rreq, const char **why)
{
	struct oib_ah_attr attr = {
		.port_num = 1, .flags = OIB_AH_GRH, .grh = { .hop_limit = 64 },
	};
	struct oib_mad_agent *agent;
	struct oib_ah *ah;
	int ret;

	agent = oib_bench_mad_register(b, 0, sreq, oib_bench_mad_req_send, oib_bench_mad_req_recv);
	if (IS_ERR(agent)) {
		*why = sreq->rmpp_version ? "rmpp_requester_refused" : "requester_refused";
		return PTR_ERR(agent);
	}
	b->req = agent;
	agent = oib_bench_mad_register(b, 1, rreq, oib_bench_mad_resp_send,
				       oib_bench_mad_resp_recv);
	if (IS_ERR(agent)) {
		*why = rreq->rmpp_version ? "rmpp_responder_refused" : "responder_refused";
		return PTR_ERR(agent);
	}
	b->resp = agent;
	ret = oib_query_gid(b->device[1], 1, 0, &attr.grh.dgid, NULL);
	if (ret) {
		*why = "no_responder_gid";
		return ret;
	}
	ah = oib_mad_create_ah(b->req, &attr);
	if (IS_ERR(ah)) {
		*why = "no_address_handle";
		return PTR_ERR(ah);
	}
	b->ah = ah;
	return 0;
}

/* Wait (bounded) until the responder's send handler ran for every response it posted. */
static int oib_bench_mad_drain(struct oib_bench_mad *b)
{
	unsigned long end = jiffies + msecs_to_jiffies(2 * b->timeout_ms);

	while (atomic_read(&b->answering) > 0) {
		if (time_after(jiffies, end))
			return -ETIMEDOUT;
		usleep_range(500, 1000);
	}
	return 0;
}

/*
 * One phase over the agents of @b: @depth requests outstanding, @iters timed round trips after a
 * tenth of that as warm-up; *@ns their time.  On failure b->why says why.
 */
static int oib_bench_mad_phase(struct oib_bench_mad *b, unsigned int depth, unsigned int iters,
			       u64 *ns)
{
	unsigned long slice = msecs_to_jiffies(2 * b->timeout_ms);
	unsigned int i, seen = 0, now;
	int ret;

	b->warmup = iters / 10;
	b->total = b->warmup + iters;
	atomic_set(&b->posted, 0);
	atomic_set(&b->done, 0);
	b->finished = false;
	b->error = 0;
	b->why = NULL;
	b->start_ns = ktime_get_ns();	/* stays, with no warm-up */
	WRITE_ONCE(b->stop, false);
	for (i = 0; i < min(depth, b->total); i++)
		oib_bench_mad_post(b);
	while (!wait_event_timeout(b->wq, oib_bench_mad_stopped(b), slice)) {
		now = atomic_read(&b->done);
		if (now == seen)
			oib_bench_mad_fail(b, -ETIMEDOUT, "no_progress");
		seen = now;
	}
	spin_lock(&b->lock);
	ret = b->error ? b->error : b->finished ? 0 : -EIO;
	spin_unlock(&b->lock);
	if (ret)
		return ret;
	*ns = b->end_ns - b->start_ns;
	ret = oib_bench_mad_drain(b);
	if (ret)
		b->why = "responses_not_completing";
	return ret;
}

static void oib_bench_mad_na(const char *test, const char *why, bool first, int err)
{
	pr_info("oib-bench: n/a oib %s %s%s (%d)\n", test, first ? "" : "not_run_after_",
		why ? why : "error", err);
}

static void oib_bench_mad_result(const char *test, u64 ops, u64 bytes, u64 ns)
{
	pr_info("oib-bench: result oib %s ops=%llu bytes=%llu ns=%llu\n", test, ops, bytes, ns);
}

bool oib_bench_mad_phase_name(const char *name)
{
	return match_string(oib_bench_mad_tests, ARRAY_SIZE(oib_bench_mad_tests), name) >= 0;
}

/* Whether phase @test is to run; if not, says so in its n/a line. */
static bool oib_bench_mad_selected(struct oib_bench_mad *b, const char *test)
{
	if (!b->only || !strcmp(b->only, test))
		return true;
	pr_info("oib-bench: n/a oib %s not_selected\n", test);
	return false;
}

/* mad_rt_1 and mad_rt_64: Get/GetResp round trips in a vendor range 1 class. */
static void oib_bench_mad_roundtrips(struct oib_bench_mad *b)
{
	static const unsigned int depth[] = { 1, OIB_BENCH_MAD_DEPTH };
	struct oib_mad_reg_req sreq = { };
	struct oib_mad_reg_req rreq = {
		.mgmt_class = OIB_BENCH_MAD_CLASS, .class_version = OIB_BENCH_MAD_VERSION,
	};
	unsigned int n = max(mad_iters, 1U);
	const char *why = NULL;
	bool first = true;
	int i, ret;
	u64 ns;

	__set_bit(OIB_MGMT_METHOD_GET, rreq.method_mask);
	b->mgmt_class = OIB_BENCH_MAD_CLASS;
	b->resp_len = 0;
	ret = oib_bench_mad_agents_get(b, &sreq, &rreq, &why);
	for (i = 0; i < ARRAY_SIZE(depth); i++) {
		const char *name = oib_bench_mad_tests[i];	/* mad_rt_1, mad_rt_64 */

		if (!oib_bench_mad_selected(b, name))
			continue;
		if (!ret) {
			ret = oib_bench_mad_phase(b, depth[i], n, &ns);
			if (!ret) {
				oib_bench_mad_result(name, n, (u64)n * 2 * OIB_MAD_SIZE, ns);
				continue;
			}
			why = b->why;
		}
		oib_bench_mad_na(name, why, first, ret);
		first = false;
	}
	oib_bench_mad_agents_put(b);
}

/* What RMPP did on both ports (warm-up included): to tell a slow transfer from a lossy one. */
static void oib_bench_mad_rmpp_stats(struct oib_bench_mad *b)
{
	struct oib_device *req = b->device[0], *resp = b->device[1];

	pr_info("oib-bench: oib rmpp: responder sent %llu segments, got %llu ACKs; requester took %llu segments, %llu duplicates, %llu out of window, sent %llu ACKs, reassembled %llu\n",
		oib_mad_port_stat(resp, 1, OIB_MAD_PORT_RMPP_SEGS_SENT),
		oib_mad_port_stat(resp, 1, OIB_MAD_PORT_RMPP_ACKS_RECV),
		oib_mad_port_stat(req, 1, OIB_MAD_PORT_RMPP_SEGS_RECV),
		oib_mad_port_stat(req, 1, OIB_MAD_PORT_RMPP_DUPLICATES),
		oib_mad_port_stat(req, 1, OIB_MAD_PORT_RMPP_OUT_OF_WINDOW),
		oib_mad_port_stat(req, 1, OIB_MAD_PORT_RMPP_ACKS_SENT),
		oib_mad_port_stat(req, 1, OIB_MAD_PORT_RMPP_REASSEMBLED));
}

/* rmpp_64KiB_bw: Gets between RMPP agents of a vendor range 2 class, 64 KiB responses. */
static void oib_bench_mad_rmpp(struct oib_bench_mad *b)
{
	struct oib_mad_reg_req sreq = { .rmpp_version = OIB_RMPP_VERSION };
	struct oib_mad_reg_req rreq = {
		.mgmt_class = OIB_BENCH_RMPP_CLASS, .class_version = OIB_BENCH_MAD_VERSION,
		.rmpp_version = OIB_RMPP_VERSION,
	};
	unsigned int n = max(rmpp_iters, 1U);
	const char *why = NULL;
	int ret;
	u64 ns;

	memcpy(rreq.oui, oib_bench_oui, sizeof(rreq.oui));
	__set_bit(OIB_MGMT_METHOD_GET, rreq.method_mask);
	b->mgmt_class = OIB_BENCH_RMPP_CLASS;
	b->resp_len = OIB_BENCH_RMPP_LEN;
	ret = oib_bench_mad_agents_get(b, &sreq, &rreq, &why);
	if (!ret) {
		ret = oib_bench_mad_phase(b, 1, n, &ns);
		why = b->why;
	}
	if (ret)
		oib_bench_mad_na("rmpp_64KiB_bw", why, true, ret);
	else
		oib_bench_mad_result("rmpp_64KiB_bw", n, (u64)n * OIB_BENCH_RMPP_LEN, ns);
	oib_bench_mad_agents_put(b);
	oib_bench_mad_rmpp_stats(b);
}

void oib_bench_mad_run(const char *fabric, unsigned int timeout_ms, const char *only)
{
	struct oib_rxe_params params = { .num_ports = 1, .fabric = fabric };
	struct oib_bench_mad *b;
	int i, ret = 0;

	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b) {
		for (i = 0; i < ARRAY_SIZE(oib_bench_mad_tests); i++)
			oib_bench_mad_na(oib_bench_mad_tests[i], "no_memory", true, -ENOMEM);
		return;
	}
	spin_lock_init(&b->lock);
	init_waitqueue_head(&b->wq);
	b->timeout_ms = max(timeout_ms, 100U);
	b->only = only;
	for (i = 0; i < 2 && !ret; i++) {
		b->device[i] = oib_rxe_add(&params);
		if (IS_ERR(b->device[i])) {
			ret = PTR_ERR(b->device[i]);
			b->device[i] = NULL;
		}
	}
	if (ret) {
		for (i = 0; i < ARRAY_SIZE(oib_bench_mad_tests); i++)
			oib_bench_mad_na(oib_bench_mad_tests[i], "device_setup_failed", true, ret);
	} else {
		pr_info("oib-bench: oib mad: requester %s, responder %s, on fabric %s\n",
			oib_dev_name(b->device[0]), oib_dev_name(b->device[1]), fabric);
		oib_bench_mad_roundtrips(b);
		if (oib_bench_mad_selected(b, "rmpp_64KiB_bw"))
			oib_bench_mad_rmpp(b);
	}
	for (i = 1; i >= 0; i--)
		if (b->device[i])
			oib_rxe_remove(b->device[i]);
	kfree(b);
}

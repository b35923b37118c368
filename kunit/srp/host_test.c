// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of oib_srp's SCSI host against oib_srpt over two oib_rxe devices (the initiator on
 * 10.0.0.1, the target on 10.0.0.2) through oib_cma: commands from many threads at once held
 * within the credits the target granted (the initiator's count and the target's agree), and a
 * connection lost under I/O (every frame dropped, or a host reset) logged in again with every
 * command completed and its data where it belongs; a target that stays away fails the commands
 * after fail_timeout.
 */
#include <kunit/test.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/unaligned.h>
#include <linux/workqueue.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_host.h>
#include <scsi/scsi_proto.h>
#include <oib/kunit/srp.h>
#include <oib/kunit/srpt.h>
#include "oib_toolkit_cma.h"

#define HT_PORT		5556
#define HT_LUN_BYTES	SZ_4M
#define HT_IO		SZ_64K		/* each worker's region and command size */
#define HT_WORKERS	40		/* more than the credits */
#define HT_ROUNDS	6

static const u8 ht_port_id[16] = "oib_srpt";

struct ht {
	struct kunit *test;
	struct cmat_ctx *ctx;
	struct srpt_target *t;
	struct srp_host *h;
	struct scsi_device *sdev;
	struct workqueue_struct *wq;
	atomic_t busy;		/* workers started and not ended */
	atomic_t errors;	/* commands that failed, data that differed */
	u32 rounds;
};

struct ht_worker {
	struct work_struct work;
	struct ht *ht;
	int index;
	u8 *buf;
};

static void ht_target_release(void *t)
{
	srpt_target_destroy(t);
}

static void ht_host_release(void *h)
{
	srp_host_remove(h);
	srp_host_free(h);
}

KUNIT_DEFINE_ACTION_WRAPPER(ht_sdev_release, scsi_device_put, struct scsi_device *);
KUNIT_DEFINE_ACTION_WRAPPER(ht_wq_release, destroy_workqueue, struct workqueue_struct *);

/* Whether the scan found LUN 0 (no reference kept: the wait evaluates this more than once). */
static bool ht_has_lun0(struct Scsi_Host *shost)
{
	struct scsi_device *sdev = scsi_device_lookup(shost, 0, 0, 0);

	if (sdev)
		scsi_device_put(sdev);
	return sdev;
}

/* Devices, a target of one LUN on b, a host on a logged in to it, and its LUN 0. */
static struct ht *ht_setup(struct kunit *test)
{
	struct ht *ht = kunit_kzalloc(test, sizeof(*ht), GFP_KERNEL);
	struct sockaddr_storage any = {};
	struct srp_target_spec spec;
	struct Scsi_Host *shost;

	KUNIT_ASSERT_NOT_NULL(test, ht);
	ht->test = test;
	ht->ctx = cmat_ctx(test);
	((struct sockaddr_in *)&any)->sin_family = AF_INET;
	((struct sockaddr_in *)&any)->sin_port = htons(HT_PORT);
	ht->t = srpt_target_create((struct sockaddr *)&any, ht_port_id, 1, HT_LUN_BYTES);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ht->t);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, ht_target_release, ht->t));
	/* the login names the target port ID of b, as SRP targets make them (srpt_ids.c) */
	KUNIT_ASSERT_EQ(test, srp_target_parse("10.0.0.2 1", &spec), 0);
	cmat_addr(&spec.dst, false, 2, HT_PORT);
	memcpy(spec.port_id, &ht->ctx->b.dev->node_guid, 8);
	memcpy(spec.port_id + 8, &ht->ctx->b.dev->node_guid, 8);
	ht->h = srp_host_add(&spec);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ht->h);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, ht_host_release, ht->h));
	shost = srp_host_shost(ht->h);
	KUNIT_ASSERT_TRUE(test, oib_test_wait_for(ht_has_lun0(shost)));
	/*
	 * sd attaches the LUN asynchronously and reads its partition table meanwhile: the cases
	 * count every request on the host, so they begin once that is done.
	 */
	wait_for_device_probe();
	ht->sdev = scsi_device_lookup(shost, 0, 0, 0);
	KUNIT_ASSERT_NOT_NULL(test, ht->sdev);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, ht_sdev_release, ht->sdev));
	ht->wq = alloc_workqueue("oib_srp_ht", WQ_UNBOUND, HT_WORKERS);
	KUNIT_ASSERT_NOT_NULL(test, ht->wq);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, ht_wq_release, ht->wq));
	return ht;
}

/* READ (10) or WRITE (10) of @len bytes at @lba: 0, or the SCSI result. */
static int ht_rw_len(struct ht *ht, bool write, u32 lba, u8 *buf, u32 len)
{
	u8 cdb[10] = { write ? WRITE_10 : READ_10 };
	const struct scsi_exec_args args = {};

	put_unaligned_be32(lba, &cdb[2]);
	put_unaligned_be16(len / SRPT_BLOCK_SIZE, &cdb[7]);
	return scsi_execute_cmd(ht->sdev, cdb, write ? REQ_OP_DRV_OUT : REQ_OP_DRV_IN, buf,
				len, 30 * HZ, 0, &args);
}

static int ht_rw(struct ht *ht, bool write, u32 lba, u8 *buf)
{
	return ht_rw_len(ht, write, lba, buf, HT_IO);
}

/* Write a pattern of (index, round) to its region, read it back, compare; every round. */
static void ht_work(struct work_struct *work)
{
	struct ht_worker *w = container_of(work, struct ht_worker, work);
	struct ht *ht = w->ht;
	u32 lba = w->index * (HT_IO / SRPT_BLOCK_SIZE);
	u32 r;

	for (r = 0; r < ht->rounds; r++) {
		memset(w->buf, w->index * 16 + r, HT_IO);
		if (ht_rw(ht, true, lba, w->buf))
			atomic_inc(&ht->errors);
		memset(w->buf, 0xff, HT_IO);
		if (ht_rw(ht, false, lba, w->buf) || memchr_inv(w->buf, w->index * 16 + r, HT_IO))
			atomic_inc(&ht->errors);
	}
	atomic_dec(&ht->busy);
}

static void ht_start(struct ht *ht, int n, u32 rounds, struct ht_worker **out)
{
	struct ht_worker *w = kunit_kcalloc(ht->test, n, sizeof(*w), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(ht->test, w);
	ht->rounds = rounds;
	atomic_set(&ht->busy, n);
	for (i = 0; i < n; i++) {
		w[i].ht = ht;
		w[i].index = i;
		w[i].buf = kunit_kmalloc(ht->test, HT_IO, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(ht->test, w[i].buf);
		INIT_WORK(&w[i].work, ht_work);
		queue_work(ht->wq, &w[i].work);
	}
	*out = w;
}

/* Every worker's last pattern is in the LUN's memory. */
static void ht_check_lun(struct ht *ht, int n)
{
	u8 *mem = srpt_target_lun_mem(ht->t, 0);
	void *bad;
	int i;

	for (i = 0; i < n; i++) {
		bad = memchr_inv(mem + i * HT_IO, i * 16 + ht->rounds - 1, HT_IO);
		KUNIT_EXPECT_NULL_MSG(ht->test, bad, "worker %d", i);
	}
}

/* 40 threads at once: never more requests than credits, on either side's count. */
static void ht_test_credits(struct kunit *test)
{
	struct ht *ht = ht_setup(test);
	struct srpt_stats *ts = srpt_target_stats(ht->t);
	struct srp_host_stats st;
	struct ht_worker *w;

	ht_start(ht, HT_WORKERS, HT_ROUNDS, &w);
	flush_workqueue(ht->wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&ht->busy), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ht->errors), 0);
	ht_check_lun(ht, HT_WORKERS);
	st = srp_host_get_stats(ht->h);
	KUNIT_EXPECT_EQ(test, st.outstanding, 0);
	kunit_info(test, "at most %u requests outstanding, %u credits held\n",
		   st.max_outstanding, st.max_credits);
	KUNIT_EXPECT_GE(test, st.max_outstanding, 2);	/* more than one at a time */
	KUNIT_EXPECT_LE(test, st.max_outstanding, SRPT_RQ_SIZE);
	KUNIT_EXPECT_LE(test, st.max_credits, SRPT_RQ_SIZE);
	KUNIT_EXPECT_EQ(test, st.logins, 1);
	/* every command with data had its MR invalidated by oib_srpt's response */
	KUNIT_EXPECT_GE(test, st.remote_inv, 2 * HT_WORKERS * HT_ROUNDS);
	KUNIT_EXPECT_EQ(test, st.local_inv, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ts->over_limit), 0);
	KUNIT_EXPECT_LE(test, atomic_read(&ts->max_in_flight), SRPT_RQ_SIZE);
	KUNIT_EXPECT_GE(test, atomic_read(&ts->cmds), HT_WORKERS * HT_ROUNDS * 2);
}

struct ht_cpu_io {
	struct work_struct work;
	struct ht *ht;
	u8 *buf;
};

static void ht_cpu_work(struct work_struct *work)
{
	struct ht_cpu_io *io = container_of(work, struct ht_cpu_io, work);
	int i;

	for (i = 0; i < 4; i++)
		if (ht_rw(io->ht, false, 0, io->buf))
			atomic_inc(&io->ht->errors);
}

/*
 * Multichannel: a channel per hardware queue (as many as the CPUs here: oib_rxe has a
 * completion vector per CPU, ch_count is 4), each logged in once; reads issued on every CPU
 * go on every channel, each within its own credits.
 */
static void ht_test_channels(struct kunit *test)
{
	struct ht *ht = ht_setup(test);
	struct srp_host_stats st = srp_host_get_stats(ht->h), c;
	struct ht_cpu_io *io = kunit_kcalloc(test, nr_cpu_ids, sizeof(*io), GFP_KERNEL);
	int cpu;
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, io);
	KUNIT_EXPECT_EQ(test, st.channels, min(num_online_cpus(), 4U));
	KUNIT_EXPECT_EQ(test, srp_host_shost(ht->h)->nr_hw_queues, st.channels);
	for_each_online_cpu(cpu) {
		io[cpu].ht = ht;
		io[cpu].buf = kunit_kmalloc(test, HT_IO, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, io[cpu].buf);
		INIT_WORK(&io[cpu].work, ht_cpu_work);
		queue_work_on(cpu, system_wq, &io[cpu].work);
	}
	for_each_online_cpu(cpu)
		flush_work(&io[cpu].work);
	KUNIT_EXPECT_EQ(test, atomic_read(&ht->errors), 0);
	for (i = 0; i < st.channels; i++) {
		c = srp_host_ch_stats(ht->h, i);
		KUNIT_EXPECT_EQ_MSG(test, c.logins, 1, "channel %u", i);
		KUNIT_EXPECT_GT_MSG(test, c.cmds, 0, "channel %u", i);
		KUNIT_EXPECT_LE_MSG(test, c.max_credits, SRPT_RQ_SIZE, "channel %u", i);
	}
	KUNIT_EXPECT_EQ(test, srpt_target_channels_in(ht->t, SRPT_CH_LIVE) +
			      srpt_target_channels_in(ht->t, SRPT_CH_CONNECTING), st.channels);
}

/*
 * An IU oib_srpt drops, sent with a credit on each channel: each channel gets its credit back in
 * an SRP_CRED_REQ (no response carries it) and answers with an SRP_CRED_RSP the target takes
 * (its tag matched: nothing more dropped); never more credits than the target's receives; I/O
 * goes on.
 */
static void ht_test_cred_req(struct kunit *test)
{
	struct ht *ht = ht_setup(test);
	struct srpt_stats *ts = srpt_target_stats(ht->t);
	u32 nch = srp_host_get_stats(ht->h).channels, i;
	u8 *buf = kunit_kzalloc(test, HT_IO, GFP_KERNEL);
	u8 junk[32] = { 0x55 };
	struct srp_host_stats c;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < nch; i++)
		KUNIT_EXPECT_EQ(test, srp_host_send_raw(ht->h, i, junk, sizeof(junk)), 0);
	KUNIT_EXPECT_TRUE(test, oib_test_wait_for(srp_host_get_stats(ht->h).cred_reqs == nch));
	KUNIT_EXPECT_EQ(test, atomic_read(&ts->cred_reqs), nch);
	for (i = 0; i < nch; i++) {
		c = srp_host_ch_stats(ht->h, i);
		KUNIT_EXPECT_EQ_MSG(test, c.cred_reqs, 1, "channel %u", i);
		KUNIT_EXPECT_LE_MSG(test, c.max_credits, SRPT_RQ_SIZE, "channel %u", i);
	}
	KUNIT_EXPECT_EQ(test, ht_rw(ht, true, 0, buf), 0);
	KUNIT_EXPECT_EQ(test, ht_rw(ht, false, 0, buf), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ts->dropped), nch);	/* the junk, no CRED_RSP */
	KUNIT_EXPECT_EQ(test, atomic_read(&ts->over_limit), 0);
}

/*
 * Writes of up to 8 KiB go as immediate data (oib_srpt grants it): no MR, the target counts
 * them; a larger one and every read through an MR.  Each is read back the same.
 */
static void ht_test_immediate(struct kunit *test)
{
	static const u32 lens[] = { SRPT_BLOCK_SIZE, SZ_4K, SZ_8K, SZ_8K + SRPT_BLOCK_SIZE };
	struct ht *ht = ht_setup(test);
	struct srpt_stats *ts = srpt_target_stats(ht->t);
	struct srp_host_stats st0 = srp_host_get_stats(ht->h), st;
	u8 *buf = kunit_kmalloc(test, 2 * SZ_16K, GFP_KERNEL), *back = buf + SZ_16K;
	int imm0 = atomic_read(&ts->imm);
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		get_random_bytes(buf, lens[i]);
		KUNIT_EXPECT_EQ(test, ht_rw_len(ht, true, 64 * i, buf, lens[i]), 0);
		memset(back, 0, lens[i]);
		KUNIT_EXPECT_EQ(test, ht_rw_len(ht, false, 64 * i, back, lens[i]), 0);
		KUNIT_EXPECT_MEMEQ_MSG(test, back, buf, lens[i], "%u bytes", lens[i]);
	}
	st = srp_host_get_stats(ht->h);
	KUNIT_EXPECT_EQ(test, st.imm - st0.imm, 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&ts->imm) - imm0, 3);
	/* the reads and the one write too large for the IU, each through its MR */
	KUNIT_EXPECT_EQ(test, st.remote_inv + st.local_inv - st0.remote_inv - st0.local_inv, 5);
}

static bool ht_state_is(struct ht *ht, enum srp_conn_state a, enum srp_conn_state b)
{
	enum srp_conn_state s = srp_host_state(ht->h);

	return s == a || s == b;
}

/*
 * A loss is seen when the QP's retries run out: seconds each (the RC timeout the CM set from
 * the path), so this waits longer than oib_test_wait_for().
 */
#define HT_LOSS_WAIT_US	(90 * USEC_PER_SEC)
#define ht_wait_loss(cond) ({							\
	int __zero;								\
	!read_poll_timeout(oib_test_nothing, __zero, __zero || (cond), 10000,	\
			   HT_LOSS_WAIT_US, false);				\
})

/* Every frame dropped under I/O: the host goes down, logs in again once frames pass. */
static void ht_test_fabric_loss(struct kunit *test)
{
	struct orxe_fault_cfg all = { .drop_ppm = 1000000 };
	struct ht *ht = ht_setup(test);
	struct ht_worker *w;

	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_set_faults(ht->ctx->f, NULL, &all));
	ht_start(ht, 8, 2, &w);
	KUNIT_EXPECT_TRUE(test, ht_wait_loss(ht_state_is(ht, SRP_CONN_DOWN,
							 SRP_CONN_RECONNECTING)));
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_set_faults(ht->ctx->f, NULL, NULL));
	KUNIT_EXPECT_TRUE(test, oib_test_wait_for(srp_host_state(ht->h) == SRP_CONN_LIVE));
	flush_workqueue(ht->wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&ht->errors), 0);
	ht_check_lun(ht, 8);
	KUNIT_EXPECT_GE(test, srp_host_get_stats(ht->h).logins, 2);
}

/* Host resets under I/O: each logs in again; the commands complete with their data. */
static void ht_test_reset(struct kunit *test)
{
	struct ht *ht = ht_setup(test);
	struct ht_worker *w;
	int i;

	ht_start(ht, 16, 4, &w);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, srp_conn_reset(ht->h), 0);
	flush_workqueue(ht->wq);
	KUNIT_EXPECT_EQ(test, atomic_read(&ht->errors), 0);
	ht_check_lun(ht, 16);
	KUNIT_EXPECT_EQ(test, srp_host_get_stats(ht->h).logins, 4);
	KUNIT_EXPECT_EQ(test, srp_host_state(ht->h), SRP_CONN_LIVE);
}

static bool ht_target_live(struct ht *ht, u32 n)
{
	return srpt_target_channels_in(ht->t, SRPT_CH_LIVE) == n;
}

/*
 * The target gone for good while every channel is live (the target saw each established): the
 * host hears SRP_T_LOGOUT (each channel's, unless its QP was already drained for the first
 * one's) and goes down; commands fail after fail_timeout, and at once after that.
 */
static void ht_test_target_gone(struct kunit *test)
{
	struct ht *ht = ht_setup(test);
	u8 *buf = kunit_kzalloc(test, HT_IO, GFP_KERNEL);
	u32 nch = srp_host_get_stats(ht->h).channels;
	unsigned long start;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_EXPECT_EQ(test, ht_rw(ht, true, 0, buf), 0);
	KUNIT_ASSERT_TRUE(test, oib_test_wait_for(ht_target_live(ht, nch)));
	KUNIT_EXPECT_EQ(test, srp_host_get_stats(ht->h).t_logouts, 0);
	kunit_release_action(test, ht_target_release, ht->t);
	KUNIT_EXPECT_TRUE(test, oib_test_wait_for(srp_host_get_stats(ht->h).t_logouts >= 1));
	KUNIT_EXPECT_LE(test, srp_host_get_stats(ht->h).t_logouts, nch);
	KUNIT_EXPECT_TRUE(test, oib_test_wait_for(srp_host_state(ht->h) != SRP_CONN_LIVE));
	start = jiffies;
	KUNIT_EXPECT_NE(test, ht_rw(ht, true, 0, buf), 0);
	KUNIT_EXPECT_EQ(test, srp_host_state(ht->h), SRP_CONN_FAILED);
	KUNIT_EXPECT_LE(test, jiffies - start, 30 * HZ);	/* fail_timeout 15 s, and a bound */
	KUNIT_EXPECT_NE(test, ht_rw(ht, false, 0, buf), 0);
	KUNIT_EXPECT_NE(test, srp_conn_reset(ht->h), 0);
}

static struct kunit_case ht_test_cases[] = {
	KUNIT_CASE_SLOW(ht_test_credits),
	KUNIT_CASE(ht_test_channels),
	KUNIT_CASE(ht_test_immediate),
	KUNIT_CASE(ht_test_cred_req),
	KUNIT_CASE_SLOW(ht_test_fabric_loss),
	KUNIT_CASE_SLOW(ht_test_reset),
	KUNIT_CASE_SLOW(ht_test_target_gone),
	{}
};

static struct kunit_suite ht_test_suite = {
	.name = "oib_srp_host",
	.test_cases = ht_test_cases,
};

kunit_test_suite(ht_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the oib_srp SCSI host over oib_srpt");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

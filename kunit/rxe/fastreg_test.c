// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fast-registration MRs on oib_rxe, between two devices on a fabric of their own: remote access
 * to a fast-registration MR before its REG_MR (refused), after it (RDMA WRITE and READ within the
 * access the REG_MR granted), after a local invalidate and after a remote send-with-invalidate
 * (refused again: REM_ACCESS_ERR on the requester, LOC_PROT_ERR for local use), REG_MR on a valid
 * MR, key bumps, oib_map_mr_sg() with offsets, page sizes, discontiguous pages and gaps, bad
 * arguments and allocation failures.  Every access error puts both QPs in ERR, so each scenario
 * after one starts on a fresh pair.
 */
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include "oib_toolkit.h"

#define FR_FABRIC	"oib_fastreg_test"
#define FR_ORDER	2			/* the region: 4 pages, 16 KiB aligned */
#define FR_LEN		(PAGE_SIZE << FR_ORDER)
#define FR_PAGES	8			/* the MR's max_num_sg */
#define FR_QP_ACCESS	(OIB_ACCESS_REMOTE_WRITE | OIB_ACCESS_REMOTE_READ)
#define FR_RW		(OIB_ACCESS_LOCAL_WRITE | OIB_ACCESS_REMOTE_WRITE | \
			 OIB_ACCESS_REMOTE_READ)

struct fr_end {
	struct oib_device *dev;
	struct oib_pd *pd;
	struct oib_cq *cq;
	struct oib_qp *qp;
	u8 *buf;			/* FR_LEN bytes under kmr */
	struct oib_mr *kmr;
};

/* a is the requester; b owns mr, a fast-registration MR meant for region. */
struct fr_pair {
	struct fr_end a, b;
	struct oib_mr *mr;
	u8 *region;
};

static void fr_free_pages(void *addr)
{
	free_pages((unsigned long)addr, FR_ORDER);
}

static u8 *fr_region(struct kunit *test)
{
	u8 *p = (u8 *)__get_free_pages(GFP_KERNEL | __GFP_ZERO, FR_ORDER);

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, fr_free_pages, p));
	return p;
}

static void fr_end_init(struct kunit *test, struct fr_end *e)
{
	e->dev = oib_test_rxe_on(test, FR_FABRIC, 1);
	e->pd = oib_test_pd(test, e->dev);
	e->cq = oib_test_cq(test, e->dev, 64);
	e->qp = oib_test_qp(test, e->pd, e->cq, OIB_QPT_RC, 16);
	e->buf = fr_region(test);
	e->kmr = oib_test_kernel_mr(test, e->pd, e->buf, FR_LEN, FR_RW);
}

static struct fr_pair *fr_pair(struct kunit *test)
{
	struct fr_pair *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	oib_test_fabric(test, FR_FABRIC, 0);
	fr_end_init(test, &p->a);
	fr_end_init(test, &p->b);
	KUNIT_ASSERT_EQ(test, 0, oib_test_rc_connect(p->a.qp, p->b.qp, FR_QP_ACCESS));
	p->mr = oib_test_alloc_mr(test, p->b.pd, FR_PAGES);
	p->region = fr_region(test);
	return p;
}

/* Map [@off, @off + @len) of the region as one scatterlist entry. */
static void fr_map(struct kunit *test, struct fr_pair *p, u32 off, u32 len)
{
	struct scatterlist sg;

	sg_init_one(&sg, p->region + off, len);
	KUNIT_ASSERT_EQ(test, 1, oib_map_mr_sg(p->mr, &sg, 1, NULL, PAGE_SIZE));
	KUNIT_ASSERT_EQ(test, p->mr->iova, (u64)(uintptr_t)(p->region + off));
	KUNIT_ASSERT_EQ(test, p->mr->length, (u64)len);
}

static enum oib_wc_status fr_wait(struct kunit *test, struct oib_cq *cq, enum oib_wc_opcode op)
{
	struct oib_wc wc;

	KUNIT_ASSERT_EQ(test, 1, oib_test_poll_cq(cq, &wc, 1));
	if (wc.status == OIB_WC_SUCCESS)
		KUNIT_EXPECT_EQ(test, wc.opcode, op);
	return wc.status;
}

/* Post a REG_MR of @mr on @e's QP and wait for it; its status. */
static enum oib_wc_status fr_reg_mr(struct kunit *test, struct fr_end *e, struct oib_mr *mr,
				    u32 key, int access)
{
	struct oib_send_wr wr = { .wr_id = 7, .opcode = OIB_WR_REG_MR,
				  .send_flags = OIB_SEND_SIGNALED,
				  .wr.reg = { .mr = mr, .key = key, .access = access } };

	KUNIT_ASSERT_EQ(test, 0, oib_post_send(e->qp, &wr, NULL));
	return fr_wait(test, e->cq, OIB_WC_REG_MR);
}

static enum oib_wc_status fr_reg(struct kunit *test, struct fr_pair *p, int access)
{
	return fr_reg_mr(test, &p->b, p->mr, p->mr->rkey, access);
}

/* a's RDMA @op of @len bytes at a.buf + @off against @va under @rkey; its status. */
static enum oib_wc_status fr_rdma(struct kunit *test, struct fr_pair *p, enum oib_wr_opcode op,
				  u64 va, u32 rkey, u32 off, u32 len)
{
	struct oib_sge sge = { .addr = (u64)(uintptr_t)(p->a.buf + off), .length = len,
			       .lkey = p->a.kmr->lkey };
	struct oib_send_wr wr = { .wr_id = 1, .opcode = op, .send_flags = OIB_SEND_SIGNALED,
				  .sg_list = &sge, .num_sge = 1,
				  .wr.rdma = { .remote_addr = va, .rkey = rkey } };

	KUNIT_ASSERT_EQ(test, 0, oib_post_send(p->a.qp, &wr, NULL));
	return fr_wait(test, p->a.cq, op == OIB_WR_RDMA_READ ? OIB_WC_RDMA_READ :
							      OIB_WC_RDMA_WRITE);
}

static void fr_fill(u8 *buf, u32 len, u8 seed)
{
	u32 i;

	for (i = 0; i < len; i++)
		buf[i] = seed + i * 13 + (i >> 9);
}

/* b sends @len bytes of the region at @off under the MR's lkey to a; its status. */
static enum oib_wc_status fr_local_send(struct kunit *test, struct fr_pair *p, u32 off, u32 len)
{
	struct oib_sge rsge = { .addr = (u64)(uintptr_t)p->a.buf, .length = FR_LEN,
				.lkey = p->a.kmr->lkey };
	struct oib_recv_wr rwr = { .wr_id = 3, .sg_list = &rsge, .num_sge = 1 };
	struct oib_sge sge = { .addr = p->mr->iova + off, .length = len, .lkey = p->mr->lkey };
	struct oib_send_wr wr = { .wr_id = 4, .opcode = OIB_WR_SEND,
				  .send_flags = OIB_SEND_SIGNALED, .sg_list = &sge, .num_sge = 1 };

	KUNIT_ASSERT_EQ(test, 0, oib_post_recv(p->a.qp, &rwr, NULL));
	KUNIT_ASSERT_EQ(test, 0, oib_post_send(p->b.qp, &wr, NULL));
	return fr_wait(test, p->b.cq, OIB_WC_SEND);
}

/*
 * Before its REG_MR an MR's keys fail; after it, writes and reads within the granted access and
 * range work; beyond either they are remote access errors; local use of the lkey works.
 */
static void fastreg_remote_access(struct kunit *test)
{
	struct fr_pair *p = fr_pair(test);
	u64 va;

	fr_map(test, p, 100, 8000);
	va = p->mr->iova;
	KUNIT_EXPECT_EQ(test, OIB_WC_REM_ACCESS_ERR,
			fr_rdma(test, p, OIB_WR_RDMA_WRITE, va, p->mr->rkey, 0, 16));

	p = fr_pair(test);
	fr_map(test, p, 100, 8000);
	va = p->mr->iova;
	KUNIT_ASSERT_EQ(test, OIB_WC_SUCCESS,
			fr_reg(test, p, OIB_ACCESS_LOCAL_WRITE | OIB_ACCESS_REMOTE_WRITE));
	fr_fill(p->a.buf, 8000, 1);
	KUNIT_EXPECT_EQ(test, OIB_WC_SUCCESS,
			fr_rdma(test, p, OIB_WR_RDMA_WRITE, va, p->mr->rkey, 0, 8000));
	KUNIT_EXPECT_MEMEQ(test, p->region + 100, p->a.buf, 8000);
	KUNIT_EXPECT_EQ(test, OIB_WC_SUCCESS, fr_local_send(test, p, 10, 64));
	KUNIT_EXPECT_EQ(test, OIB_WC_SUCCESS, fr_wait(test, p->a.cq, OIB_WC_RECV));
	KUNIT_EXPECT_MEMEQ(test, p->a.buf, p->region + 110, 64);
	/* no REMOTE_READ granted */
	KUNIT_EXPECT_EQ(test, OIB_WC_REM_ACCESS_ERR,
			fr_rdma(test, p, OIB_WR_RDMA_READ, va, p->mr->rkey, 0, 16));

	/* beyond the mapping */
	p = fr_pair(test);
	fr_map(test, p, 100, 8000);
	KUNIT_ASSERT_EQ(test, OIB_WC_SUCCESS, fr_reg(test, p, FR_RW));
	KUNIT_EXPECT_EQ(test, OIB_WC_SUCCESS,
			fr_rdma(test, p, OIB_WR_RDMA_READ, p->mr->iova + 7000, p->mr->rkey, 0,
				1000));
	KUNIT_EXPECT_EQ(test, OIB_WC_REM_ACCESS_ERR,
			fr_rdma(test, p, OIB_WR_RDMA_WRITE, p->mr->iova + 7990, p->mr->rkey, 0,
				20));
}

/* REG_MR on a valid MR, with another PD's MR, or with a key of another index: LOC_PROT_ERR. */
static void fastreg_reg_refused(struct kunit *test)
{
	struct fr_pair *p = fr_pair(test);
	struct oib_mr *other;

	fr_map(test, p, 0, PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, OIB_WC_SUCCESS, fr_reg(test, p, FR_RW));
	KUNIT_EXPECT_EQ(test, OIB_WC_LOC_PROT_ERR, fr_reg(test, p, FR_RW));
	KUNIT_EXPECT_EQ(test, READ_ONCE(p->b.qp->state), OIB_QPS_ERR);

	p = fr_pair(test);
	other = oib_test_alloc_mr(test, oib_test_pd(test, p->b.dev), 1);
	KUNIT_EXPECT_EQ(test, OIB_WC_LOC_PROT_ERR,
			fr_reg_mr(test, &p->b, other, other->rkey, FR_RW));

	p = fr_pair(test);
	fr_map(test, p, 0, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, OIB_WC_LOC_PROT_ERR,
			fr_reg_mr(test, &p->b, p->mr, p->mr->rkey + 0x100, FR_RW));
}

/* A fresh pair whose MR was mapped (two pages), registered, and invalidated with @lkey's key. */
static struct fr_pair *fr_invalidated(struct kunit *test, bool lkey)
{
	struct oib_send_wr inv = { .wr_id = 5, .opcode = OIB_WR_LOCAL_INV,
				   .send_flags = OIB_SEND_SIGNALED };
	struct fr_pair *p = fr_pair(test);

	fr_map(test, p, 0, 2 * PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, OIB_WC_SUCCESS, fr_reg(test, p, FR_RW));
	inv.ex.invalidate_rkey = lkey ? p->mr->lkey : p->mr->rkey;
	KUNIT_ASSERT_EQ(test, 0, oib_post_send(p->b.qp, &inv, NULL));
	KUNIT_EXPECT_EQ(test, OIB_WC_SUCCESS, fr_wait(test, p->b.cq, OIB_WC_LOCAL_INV));
	return p;
}

/*
 * LOCAL_INV makes the keys fail, remotely and locally; a REG_MR after it, with the key bumped,
 * registers again: the old key fails, the new one works.
 */
static void fastreg_local_inv(struct kunit *test)
{
	struct fr_pair *p = fr_invalidated(test, true);
	u32 old;

	KUNIT_EXPECT_EQ(test, OIB_WC_REM_ACCESS_ERR,
			fr_rdma(test, p, OIB_WR_RDMA_READ, p->mr->iova, p->mr->rkey, 0, 16));

	p = fr_invalidated(test, false);
	KUNIT_EXPECT_EQ(test, OIB_WC_LOC_PROT_ERR, fr_local_send(test, p, 0, 16));

	/* invalid -> valid again under a new key */
	p = fr_invalidated(test, false);
	old = p->mr->rkey;
	KUNIT_ASSERT_EQ(test, 0, oib_update_fast_reg_key(p->mr, (u8)(old + 1)));
	KUNIT_EXPECT_EQ(test, p->mr->rkey, (old & ~0xffu) | (u8)(old + 1));
	KUNIT_EXPECT_EQ(test, p->mr->lkey, p->mr->rkey);
	fr_map(test, p, PAGE_SIZE, PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, OIB_WC_SUCCESS, fr_reg(test, p, FR_RW));
	fr_fill(p->region + PAGE_SIZE, PAGE_SIZE, 9);
	KUNIT_EXPECT_EQ(test, OIB_WC_SUCCESS,
			fr_rdma(test, p, OIB_WR_RDMA_READ, p->mr->iova, p->mr->rkey, 0, PAGE_SIZE));
	KUNIT_EXPECT_MEMEQ(test, p->a.buf, p->region + PAGE_SIZE, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, OIB_WC_REM_ACCESS_ERR,
			fr_rdma(test, p, OIB_WR_RDMA_WRITE, p->mr->iova, old, 0, 16));
}

/* SEND_WITH_INV from the peer revokes the rkey: the next access is REM_ACCESS_ERR. */
static void fastreg_remote_inv(struct kunit *test)
{
	struct fr_pair *p = fr_pair(test);
	struct oib_sge rsge = { .addr = (u64)(uintptr_t)p->b.buf, .length = 64,
				.lkey = p->b.kmr->lkey };
	struct oib_recv_wr rwr = { .wr_id = 8, .sg_list = &rsge, .num_sge = 1 };
	struct oib_sge sge = { .addr = (u64)(uintptr_t)p->a.buf, .length = 16,
			       .lkey = p->a.kmr->lkey };
	struct oib_send_wr wr = { .wr_id = 2, .opcode = OIB_WR_SEND_WITH_INV,
				  .send_flags = OIB_SEND_SIGNALED, .sg_list = &sge, .num_sge = 1 };
	struct oib_wc wc;

	fr_map(test, p, 0, FR_LEN);
	KUNIT_ASSERT_EQ(test, OIB_WC_SUCCESS, fr_reg(test, p, FR_RW));
	KUNIT_EXPECT_EQ(test, OIB_WC_SUCCESS,
			fr_rdma(test, p, OIB_WR_RDMA_WRITE, p->mr->iova + 5, p->mr->rkey, 0, 3000));
	wr.ex.invalidate_rkey = p->mr->rkey;
	KUNIT_ASSERT_EQ(test, 0, oib_post_recv(p->b.qp, &rwr, NULL));
	KUNIT_ASSERT_EQ(test, 0, oib_post_send(p->a.qp, &wr, NULL));
	KUNIT_EXPECT_EQ(test, OIB_WC_SUCCESS, fr_wait(test, p->a.cq, OIB_WC_SEND));
	KUNIT_ASSERT_EQ(test, 1, oib_test_poll_cq(p->b.cq, &wc, 1));
	KUNIT_EXPECT_EQ(test, wc.status, OIB_WC_SUCCESS);
	KUNIT_EXPECT_TRUE(test, wc.wc_flags & OIB_WC_WITH_INVALIDATE);
	KUNIT_EXPECT_EQ(test, wc.ex.invalidate_rkey, p->mr->rkey);
	KUNIT_EXPECT_EQ(test, OIB_WC_REM_ACCESS_ERR,
			fr_rdma(test, p, OIB_WR_RDMA_WRITE, p->mr->iova, p->mr->rkey, 0, 16));
}

static void fr_free_page(void *page)
{
	__free_page(page);
}

static struct page *fr_page(struct kunit *test)
{
	struct page *pg = alloc_page(GFP_KERNEL | __GFP_ZERO);

	KUNIT_ASSERT_NOT_NULL(test, pg);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, fr_free_page, pg));
	return pg;
}

/* Separate pages: each block of the MR reaches its own page. */
static void fastreg_map_pages(struct kunit *test)
{
	struct fr_pair *p = fr_pair(test);
	struct page *pg[2] = { fr_page(test), fr_page(test) };
	struct scatterlist sg[2];

	sg_init_table(sg, 2);
	sg_set_page(&sg[0], pg[0], PAGE_SIZE, 0);
	sg_set_page(&sg[1], pg[1], PAGE_SIZE, 0);
	KUNIT_ASSERT_EQ(test, 2, oib_map_mr_sg(p->mr, sg, 2, NULL, PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, p->mr->iova, (u64)(uintptr_t)page_address(pg[0]));
	KUNIT_EXPECT_EQ(test, p->mr->length, 2 * PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, OIB_WC_SUCCESS, fr_reg(test, p, FR_RW));
	fr_fill(p->a.buf, 2 * PAGE_SIZE, 3);
	KUNIT_EXPECT_EQ(test, OIB_WC_SUCCESS,
			fr_rdma(test, p, OIB_WR_RDMA_WRITE, p->mr->iova + PAGE_SIZE, p->mr->rkey,
				PAGE_SIZE, PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, OIB_WC_SUCCESS,
			fr_rdma(test, p, OIB_WR_RDMA_WRITE, p->mr->iova + 8, p->mr->rkey, 0,
				PAGE_SIZE - 8));
	KUNIT_EXPECT_MEMEQ(test, page_address(pg[1]), p->a.buf + PAGE_SIZE, PAGE_SIZE);
	KUNIT_EXPECT_MEMEQ(test, page_address(pg[0]) + 8, p->a.buf, PAGE_SIZE - 8);
	KUNIT_EXPECT_EQ(test, OIB_WC_SUCCESS,
			fr_rdma(test, p, OIB_WR_RDMA_READ, p->mr->iova + PAGE_SIZE + 10,
				p->mr->rkey, 3 * PAGE_SIZE, 100));
	KUNIT_EXPECT_MEMEQ(test, p->a.buf + 3 * PAGE_SIZE, p->a.buf + PAGE_SIZE + 10, 100);
}

/*
 * One page three times (as the block layer writes zeroes: the zero page, repeated): three
 * blocks, each reaching it.
 */
static void fastreg_map_same_page(struct kunit *test)
{
	struct fr_pair *p = fr_pair(test);
	struct page *pg = fr_page(test);
	struct scatterlist sg[3];
	int i;

	sg_init_table(sg, 3);
	for (i = 0; i < 3; i++)
		sg_set_page(&sg[i], pg, PAGE_SIZE, 0);
	KUNIT_ASSERT_EQ(test, 3, oib_map_mr_sg(p->mr, sg, 3, NULL, PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, p->mr->length, 3 * PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, OIB_WC_SUCCESS, fr_reg(test, p, FR_RW));
	fr_fill(page_address(pg), PAGE_SIZE, 7);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, OIB_WC_SUCCESS,
				fr_rdma(test, p, OIB_WR_RDMA_READ, p->mr->iova + i * PAGE_SIZE,
					p->mr->rkey, i * PAGE_SIZE, PAGE_SIZE));
		KUNIT_EXPECT_MEMEQ(test, p->a.buf + i * PAGE_SIZE, page_address(pg), PAGE_SIZE);
	}
}

/* Page sizes, offsets, merged and cut entries, and the refusals. */
static void fastreg_map_sg(struct kunit *test)
{
	struct fr_pair *p = fr_pair(test);
	struct oib_mr *two = oib_test_alloc_mr(test, p->b.pd, 2);
	struct page *pg[3] = { fr_page(test), fr_page(test), fr_page(test) };
	unsigned int off = 50;
	struct scatterlist sg[3];

	/* 12 KiB from offset 100: four 4 KiB blocks, or two 8 KiB ones */
	sg_init_one(sg, p->region + 100, 3 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_map_mr_sg(two, sg, 1, NULL, PAGE_SIZE));
	KUNIT_ASSERT_EQ(test, 1, oib_map_mr_sg(two, sg, 1, NULL, 2 * PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, two->iova, (u64)(uintptr_t)(p->region + 100));
	KUNIT_EXPECT_EQ(test, two->length, 3 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, two->page_size, 2 * PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, OIB_WC_SUCCESS, fr_reg_mr(test, &p->b, two, two->rkey, FR_RW));
	fr_fill(p->a.buf, 3 * PAGE_SIZE, 5);
	KUNIT_EXPECT_EQ(test, OIB_WC_SUCCESS,
			fr_rdma(test, p, OIB_WR_RDMA_WRITE, two->iova, two->rkey, 0,
				3 * PAGE_SIZE));
	KUNIT_EXPECT_MEMEQ(test, p->region + 100, p->a.buf, 3 * PAGE_SIZE);

	/* an offset into the first entry */
	KUNIT_ASSERT_EQ(test, 1, oib_map_mr_sg(p->mr, sg, 1, &off, PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, p->mr->iova, (u64)(uintptr_t)(p->region + 150));
	KUNIT_EXPECT_EQ(test, p->mr->length, 3 * PAGE_SIZE - 50);

	/* contiguous entries merge; a gap inside a block cuts the list; so does the limit */
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], p->region, 100);
	sg_set_buf(&sg[1], p->region + 100, 4000);
	KUNIT_EXPECT_EQ(test, 2, oib_map_mr_sg(two, sg, 2, NULL, PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, two->length, 4100u);
	sg_init_table(sg, 2);
	sg_set_page(&sg[0], pg[0], 100, 0);
	sg_set_page(&sg[1], pg[1], PAGE_SIZE, 0);
	KUNIT_EXPECT_EQ(test, 1, oib_map_mr_sg(p->mr, sg, 2, NULL, PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, p->mr->length, 100u);
	sg_init_table(sg, 3);
	sg_set_page(&sg[0], pg[0], PAGE_SIZE, 0);
	sg_set_page(&sg[1], pg[1], PAGE_SIZE, 0);
	sg_set_page(&sg[2], pg[2], PAGE_SIZE, 0);
	KUNIT_EXPECT_EQ(test, 2, oib_map_mr_sg(two, sg, 3, NULL, PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, two->length, 2 * PAGE_SIZE);

	/* refusals */
	off = PAGE_SIZE;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_map_mr_sg(two, sg, 3, &off, PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_map_mr_sg(two, sg, 3, NULL, 1000));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_map_mr_sg(two, sg, 3, NULL, PAGE_SIZE / 2));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_map_mr_sg(two, sg, 0, NULL, PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_map_mr_sg(two, NULL, 1, NULL, PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_map_mr_sg(NULL, sg, 1, NULL, PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_map_mr_sg(p->b.kmr, sg, 1, NULL, PAGE_SIZE));
}

/* Every entry point's -EINVAL. */
static void fastreg_errors(struct kunit *test)
{
	struct fr_pair *p = fr_pair(test);
	struct oib_device *dev = p->b.dev;
	struct oib_send_wr wr = { .opcode = OIB_WR_REG_MR,
				  .wr.reg = { .mr = p->mr, .key = p->mr->rkey, .access = FR_RW } };

	KUNIT_EXPECT_PTR_EQ(test, oib_alloc_mr(NULL, OIB_MR_TYPE_MEM_REG, 1), ERR_PTR(-EINVAL));
	KUNIT_EXPECT_PTR_EQ(test, oib_alloc_mr(p->b.pd, OIB_MR_TYPE_KERNEL, 1), ERR_PTR(-EINVAL));
	KUNIT_EXPECT_PTR_EQ(test, oib_alloc_mr(p->b.pd, OIB_MR_TYPE_MEM_REG, 0), ERR_PTR(-EINVAL));
	KUNIT_EXPECT_PTR_EQ(test, oib_alloc_mr(p->b.pd, OIB_MR_TYPE_MEM_REG,
					       dev->attrs.max_fast_reg_page_list_len + 1),
			    ERR_PTR(-EINVAL));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_update_fast_reg_key(NULL, 1));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_update_fast_reg_key(p->b.kmr, 1));

	wr.wr.reg.mr = NULL;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send(p->b.qp, &wr, NULL));
	wr.wr.reg.mr = p->b.kmr;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send(p->b.qp, &wr, NULL));
	wr.wr.reg.mr = p->a.kmr;	/* another device's */
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send(p->b.qp, &wr, NULL));
	wr.wr.reg.mr = p->mr;
	wr.wr.reg.access = OIB_ACCESS_REMOTE_WRITE;	/* without local write */
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send(p->b.qp, &wr, NULL));
	wr.wr.reg.access = OIB_ACCESS_ALL + 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send(p->b.qp, &wr, NULL));
	/* nothing was posted: the QP still works */
	fr_map(test, p, 0, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, OIB_WC_SUCCESS, fr_reg(test, p, FR_RW));
}

struct fr_sweep {
	struct oib_pd *pd;
	struct oib_mr *mr;
};

static int fr_sweep_alloc(struct kunit *test, void *ctx)
{
	struct fr_sweep *s = ctx;

	s->mr = oib_alloc_mr(s->pd, OIB_MR_TYPE_MEM_REG, FR_PAGES);
	return PTR_ERR_OR_ZERO(s->mr);
}

static void fr_sweep_free(struct kunit *test, void *ctx)
{
	KUNIT_EXPECT_EQ(test, 0, oib_dereg_mr(((struct fr_sweep *)ctx)->mr));
}

static void fastreg_failslab(struct kunit *test)
{
	struct oib_device *dev = oib_test_rxe_ports(test, 1);
	struct fr_sweep s = { .pd = oib_test_pd(test, dev) };

	KUNIT_EXPECT_GT(test, oib_test_failslab_sweep(test, dev, fr_sweep_alloc, fr_sweep_free,
						      &s), 0);
}

static struct kunit_case fastreg_cases[] = {
	KUNIT_CASE(fastreg_remote_access),
	KUNIT_CASE(fastreg_reg_refused),
	KUNIT_CASE(fastreg_local_inv),
	KUNIT_CASE(fastreg_remote_inv),
	KUNIT_CASE(fastreg_map_pages),
	KUNIT_CASE(fastreg_map_same_page),
	KUNIT_CASE(fastreg_map_sg),
	KUNIT_CASE(fastreg_errors),
	KUNIT_CASE(fastreg_failslab),
	{}
};

static struct kunit_suite fastreg_suite = {
	.name = "oib_rxe_fastreg",
	.test_cases = fastreg_cases,
};

kunit_test_suite(fastreg_suite);

MODULE_DESCRIPTION("KUnit: fast-registration MRs on oib_rxe");
MODULE_LICENSE("GPL");

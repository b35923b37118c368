// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite oib_srpt_scsi: oib_srpt's SCSI decisions for a memory LUN and a file LUN side by
 * side (srpt_scsi_exec() on its own: the file is never touched here): where a READ's and a
 * WRITE's data is (the LUN's memory, or the file at the LBA's offset), SYNCHRONIZE CACHE as a
 * write-back of the file alone, the caching mode page's WCE, the INQUIRY product, a failed file
 * I/O's sense; and the LUN specs a target refuses before it listens.
 */
#include <kunit/test.h>
#include <linux/in.h>
#include <linux/sizes.h>
#include <scsi/scsi_proto.h>
#include <oib/kunit/srpt.h>

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define ST_BLOCKS	2048

/* LUN 0 memory, LUN 1 a file (a pointer never followed). */
struct st {
	struct srpt_lun lun[2];
	struct srpt_luns luns;
	struct srpt_scsi_req req;
	u8 cdb[16];
};

static struct st *st_setup(struct kunit *test)
{
	struct st *st = kunit_kzalloc(test, sizeof(*st), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, st);
	st->lun[0] = (struct srpt_lun){ .lun = 0, .blocks = ST_BLOCKS,
					.mem = kunit_kzalloc(test, ST_BLOCKS * 512, GFP_KERNEL) };
	KUNIT_ASSERT_NOT_NULL(test, st->lun[0].mem);
	st->lun[1] = (struct srpt_lun){ .lun = 1, .blocks = ST_BLOCKS,
					.file = (struct file *)st };
	st->luns = (struct srpt_luns){ .n = 2, .lun = st->lun, .serial = "0001" };
	return st;
}

/* The CDB in st->cdb for LUN @lun with descriptors allowing @dir. */
static void st_exec(struct st *st, u64 lun, enum oib_srp_data_dir dir)
{
	memset(&st->req, 0, sizeof(st->req));
	st->req.lun = lun;
	st->req.cdb = st->cdb;
	st->req.dir = dir;
	srpt_scsi_exec(&st->luns, &st->req);
}

static void st_rw10(struct st *st, u8 op, u32 lba, u16 nblk)
{
	memset(st->cdb, 0, sizeof(st->cdb));
	st->cdb[0] = op;
	st->cdb[2] = lba >> 24;
	st->cdb[3] = lba >> 16;
	st->cdb[4] = lba >> 8;
	st->cdb[5] = lba;
	st->cdb[7] = nblk >> 8;
	st->cdb[8] = nblk;
}

static void scsi_test_read_write(struct kunit *test)
{
	struct st *st = st_setup(test);

	st_rw10(st, READ_10, 100, 8);
	st_exec(st, 0, OIB_SRP_DATA_IN);
	KUNIT_EXPECT_EQ(test, st->req.status, SAM_STAT_GOOD);
	KUNIT_EXPECT_PTR_EQ(test, st->req.data, st->lun[0].mem + 100 * 512);
	KUNIT_EXPECT_NULL(test, st->req.file);
	KUNIT_EXPECT_EQ(test, st->req.data_len, 8 * 512);

	st_exec(st, 1, OIB_SRP_DATA_IN);
	KUNIT_EXPECT_EQ(test, st->req.status, SAM_STAT_GOOD);
	KUNIT_EXPECT_NULL(test, st->req.data);
	KUNIT_EXPECT_PTR_EQ(test, st->req.file, st->lun[1].file);
	KUNIT_EXPECT_EQ(test, st->req.pos, 100 * 512);
	KUNIT_EXPECT_EQ(test, st->req.data_len, 8 * 512);
	KUNIT_EXPECT_EQ(test, st->req.data_dir, OIB_SRP_DATA_IN);

	st_rw10(st, WRITE_10, ST_BLOCKS - 1, 1);
	st_exec(st, 1, OIB_SRP_DATA_OUT);
	KUNIT_EXPECT_EQ(test, st->req.status, SAM_STAT_GOOD);
	KUNIT_EXPECT_PTR_EQ(test, st->req.file, st->lun[1].file);
	KUNIT_EXPECT_EQ(test, st->req.pos, (ST_BLOCKS - 1) * 512);
	KUNIT_EXPECT_EQ(test, st->req.data_dir, OIB_SRP_DATA_OUT);

	/* beyond the end, and no blocks at all: no file I/O */
	st_rw10(st, WRITE_10, ST_BLOCKS, 1);
	st_exec(st, 1, OIB_SRP_DATA_OUT);
	KUNIT_EXPECT_EQ(test, st->req.status, SAM_STAT_CHECK_CONDITION);
	KUNIT_EXPECT_EQ(test, st->req.sense[12], 0x21);
	KUNIT_EXPECT_NULL(test, st->req.file);
	st_rw10(st, READ_10, 5, 0);
	st_exec(st, 1, OIB_SRP_DATA_NONE);
	KUNIT_EXPECT_EQ(test, st->req.status, SAM_STAT_GOOD);
	KUNIT_EXPECT_NULL(test, st->req.file);
}

static void scsi_test_sync_cache(struct kunit *test)
{
	struct st *st = st_setup(test);

	memset(st->cdb, 0, sizeof(st->cdb));
	st->cdb[0] = SYNCHRONIZE_CACHE;
	st_exec(st, 0, OIB_SRP_DATA_NONE);
	KUNIT_EXPECT_EQ(test, st->req.status, SAM_STAT_GOOD);
	KUNIT_EXPECT_NULL(test, st->req.file);
	st_exec(st, 1, OIB_SRP_DATA_NONE);
	KUNIT_EXPECT_EQ(test, st->req.status, SAM_STAT_GOOD);
	KUNIT_EXPECT_PTR_EQ(test, st->req.file, st->lun[1].file);
	KUNIT_EXPECT_EQ(test, st->req.data_dir, OIB_SRP_DATA_NONE);
	KUNIT_EXPECT_EQ(test, st->req.data_len, 0);

	/* TEST UNIT READY is not a write-back */
	st->cdb[0] = TEST_UNIT_READY;
	st_exec(st, 1, OIB_SRP_DATA_NONE);
	KUNIT_EXPECT_NULL(test, st->req.file);
}

static void scsi_test_mode_inquiry(struct kunit *test)
{
	struct st *st = st_setup(test);

	memset(st->cdb, 0, sizeof(st->cdb));
	st->cdb[0] = MODE_SENSE;
	st->cdb[2] = 0x08;
	st->cdb[4] = 255;
	st_exec(st, 0, OIB_SRP_DATA_IN);
	KUNIT_EXPECT_EQ(test, st->req.data[4], 0x08);
	KUNIT_EXPECT_EQ(test, st->req.data[6] & 0x04, 0);	/* memory: write cache off */
	st_exec(st, 1, OIB_SRP_DATA_IN);
	KUNIT_EXPECT_EQ(test, st->req.data[6] & 0x04, 0x04);	/* file: WCE */
	KUNIT_EXPECT_NULL(test, st->req.file);

	memset(st->cdb, 0, sizeof(st->cdb));
	st->cdb[0] = INQUIRY;
	st->cdb[4] = 36;
	st_exec(st, 0, OIB_SRP_DATA_IN);
	KUNIT_EXPECT_MEMEQ(test, st->req.data + 16, "srpt memory LUN ", 16);
	st_exec(st, 1, OIB_SRP_DATA_IN);
	KUNIT_EXPECT_MEMEQ(test, st->req.data + 16, "srpt file LUN   ", 16);
}

static void scsi_test_io_error(struct kunit *test)
{
	struct st *st = st_setup(test);

	st_rw10(st, READ_10, 0, 8);
	st_exec(st, 1, OIB_SRP_DATA_IN);
	srpt_scsi_io_error(&st->req, false);
	KUNIT_EXPECT_EQ(test, st->req.status, SAM_STAT_CHECK_CONDITION);
	KUNIT_EXPECT_EQ(test, st->req.sense[2], MEDIUM_ERROR);
	KUNIT_EXPECT_EQ(test, st->req.sense[12], 0x11);
	KUNIT_EXPECT_EQ(test, st->req.data_len, 0);
	KUNIT_EXPECT_EQ(test, st->req.data_dir, OIB_SRP_DATA_NONE);
	srpt_scsi_io_error(&st->req, true);
	KUNIT_EXPECT_EQ(test, st->req.sense[12], 0x0c);
}

/* Refused before anything is opened or listened on. */
static void scsi_test_bad_specs(struct kunit *test)
{
	static const u8 port_id[16] = "oib_srpt";
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(5999) };
	struct srpt_lun_spec two[2] = { { .lun = 3, .bytes = SZ_1M },
					{ .lun = 3, .bytes = SZ_1M } };
	struct srpt_lun_spec one = { .lun = 256, .bytes = SZ_1M };
	struct sockaddr *a = (struct sockaddr *)&sin;

	KUNIT_EXPECT_EQ(test, PTR_ERR(srpt_target_create_luns(a, port_id, two, 2)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(srpt_target_create_luns(a, port_id, &one, 1)), -EINVAL);
	one = (struct srpt_lun_spec){ .lun = 0, .bytes = SZ_1M - 512 };
	KUNIT_EXPECT_EQ(test, PTR_ERR(srpt_target_create_luns(a, port_id, &one, 1)), -EINVAL);
	one = (struct srpt_lun_spec){ .lun = 0, .bytes = SZ_1M + 1 };
	KUNIT_EXPECT_EQ(test, PTR_ERR(srpt_target_create_luns(a, port_id, &one, 1)), -EINVAL);
	one = (struct srpt_lun_spec){ .lun = 0, .path = "/nonexistent/oib_srpt_lun" };
	KUNIT_EXPECT_EQ(test, PTR_ERR(srpt_target_create_luns(a, port_id, &one, 1)), -ENOENT);
	one = (struct srpt_lun_spec){ .lun = 0, .path = "/" };
	KUNIT_EXPECT_TRUE(test, IS_ERR(srpt_target_create_luns(a, port_id, &one, 1)));
	KUNIT_EXPECT_EQ(test, PTR_ERR(srpt_target_create_luns(a, port_id, &one, 0)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(srpt_target_create_luns(a, port_id, &one, 17)), -EINVAL);
}

static struct kunit_case scsi_test_cases[] = {
	KUNIT_CASE(scsi_test_read_write),
	KUNIT_CASE(scsi_test_sync_cache),
	KUNIT_CASE(scsi_test_mode_inquiry),
	KUNIT_CASE(scsi_test_io_error),
	KUNIT_CASE(scsi_test_bad_specs),
	{}
};

static struct kunit_suite scsi_test_suite = {
	.name = "oib_srpt_scsi",
	.test_cases = scsi_test_cases,
};

kunit_test_suite(scsi_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit: oib_srpt's SCSI decisions for memory and file LUNs, and LUN specs");

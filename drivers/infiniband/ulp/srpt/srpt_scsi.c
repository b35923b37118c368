// SPDX-License-Identifier: GPL-2.0-only
/*
 * The SCSI commands oib_srpt answers, on LUNs backed by memory, a file or a block device:
 * INQUIRY (standard data and the VPD pages 0x00, 0x80, 0x83), READ CAPACITY (10) and (16), READ
 * and WRITE (10) and (16), TEST UNIT READY, REQUEST SENSE, REPORT LUNS, MODE SENSE (6) and (10)
 * (the caching page), SYNCHRONIZE CACHE (10) and (16).  Anything else gets CHECK CONDITION with
 * ILLEGAL REQUEST sense (SPC-4 fixed format).  Only the decision is here: the channel moves the
 * data (a file LUN's READ, WRITE and SYNCHRONIZE CACHE through srpt_file.c).
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <scsi/scsi_proto.h>
#include <kunit/visibility.h>
#include <oib/kunit/srpt.h>

/* SPC-4 additional sense codes used here. */
#define ASC_INVALID_OPCODE	0x20
#define ASC_LBA_OUT_OF_RANGE	0x21
#define ASC_INVALID_FIELD_CDB	0x24
#define ASC_LUN_NOT_SUPPORTED	0x25
#define ASC_WRITE_ERROR		0x0c
#define ASC_READ_ERROR		0x11

/*
 * Big-endian CDB and parameter data fields at any alignment (byte by byte: <asm/unaligned.h>
 * moved to <linux/unaligned.h> between the kernels this builds on).
 */
static u64 scsi_get_be(const u8 *p, int n)
{
	u64 v = 0;

	while (n--)
		v = v << 8 | *p++;
	return v;
}

static void scsi_put_be(u8 *p, int n, u64 v)
{
	while (n--) {
		p[n] = v;
		v >>= 8;
	}
}

static void scsi_check(struct srpt_scsi_req *req, u8 key, u8 asc)
{
	req->status = SAM_STAT_CHECK_CONDITION;
	memset(req->sense, 0, sizeof(req->sense));
	req->sense[0] = 0x70;		/* current error, fixed format */
	req->sense[2] = key;
	req->sense[7] = SRPT_SENSE_LEN - 8;
	req->sense[12] = asc;
	req->sense_len = SRPT_SENSE_LEN;
	req->data_len = 0;
	req->data_dir = OIB_SRP_DATA_NONE;
}

/* Data-in from @buf: at most @alloc bytes of the @len made. */
static void scsi_data_in(struct srpt_scsi_req *req, u32 len, u32 alloc)
{
	req->data = req->buf;
	req->data_len = min(len, alloc);
	req->data_dir = req->data_len ? OIB_SRP_DATA_IN : OIB_SRP_DATA_NONE;
}

static const struct srpt_lun *scsi_find(const struct srpt_luns *luns, u64 lun)
{
	u32 i;

	for (i = 0; i < luns->n; i++)
		if (luns->lun[i].lun == lun)
			return &luns->lun[i];
	return NULL;
}

static u32 scsi_vpd(const struct srpt_luns *luns, u8 page, u8 *b)
{
	size_t slen = strnlen(luns->serial, sizeof(luns->serial));

	switch (page) {
	case 0x00:
		b[3] = 3;
		b[4] = 0x00;
		b[5] = 0x80;
		b[6] = 0x83;
		return 7;
	case 0x80:
		b[3] = slen;
		memcpy(b + 4, luns->serial, slen);
		return 4 + slen;
	case 0x83:
		/* one T10 vendor ID designator, ASCII: vendor then serial */
		b[4] = 0x02;		/* code set: ASCII */
		b[5] = 0x01;		/* association: LU, type: T10 vendor ID */
		b[7] = 8 + slen;
		memcpy(b + 8, "OIB     ", 8);
		memcpy(b + 16, luns->serial, slen);
		scsi_put_be(b + 2, 2, 4 + 8 + slen);
		return 16 + slen;
	}
	return 0;
}

static void scsi_inquiry(const struct srpt_luns *luns, const struct srpt_lun *lun,
			 struct srpt_scsi_req *req)
{
	const u8 *cdb = req->cdb;
	u32 alloc = scsi_get_be(cdb + 3, 2), len;
	u8 *b = req->buf;

	memset(b, 0, SRPT_EMUL_BUF);
	b[0] = lun ? TYPE_DISK : 0x7f;	/* no such LUN: qualifier 3, type 0x1f */
	if (cdb[1] & 1) {
		if (!lun)
			return scsi_check(req, ILLEGAL_REQUEST, ASC_LUN_NOT_SUPPORTED);
		b[1] = cdb[2];
		len = scsi_vpd(luns, cdb[2], b);
		if (!len)
			return scsi_check(req, ILLEGAL_REQUEST, ASC_INVALID_FIELD_CDB);
		return scsi_data_in(req, len, alloc);
	}
	if (cdb[2])
		return scsi_check(req, ILLEGAL_REQUEST, ASC_INVALID_FIELD_CDB);
	b[2] = 0x06;		/* SPC-4 */
	b[3] = 0x02;		/* response data format 2 */
	b[4] = 36 - 5;
	b[7] = 0x02;		/* CMDQUE */
	memcpy(b + 8, "OIB     ", 8);
	memcpy(b + 16, lun && lun->file ? "srpt file LUN   " : "srpt memory LUN ", 16);
	memcpy(b + 32, "0001", 4);
	scsi_data_in(req, 36, alloc);
}

static void scsi_report_luns(const struct srpt_luns *luns, struct srpt_scsi_req *req)
{
	u32 alloc = scsi_get_be(req->cdb + 6, 4);
	u32 i, n = min_t(u32, luns->n, SRPT_EMUL_BUF / 8 - 1);
	u8 *b = req->buf;

	memset(b, 0, SRPT_EMUL_BUF);
	scsi_put_be(b, 4, n * 8);
	for (i = 0; i < n; i++)
		scsi_put_be(b + 8 + 8 * i, 2, luns->lun[i].lun);
	scsi_data_in(req, 8 + n * 8, alloc);
}

static void scsi_capacity(const struct srpt_lun *lun, struct srpt_scsi_req *req, bool sixteen)
{
	u8 *b = req->buf;

	memset(b, 0, SRPT_EMUL_BUF);
	if (!sixteen) {
		scsi_put_be(b, 4, min_t(u64, lun->blocks - 1, U32_MAX));
		scsi_put_be(b + 4, 4, SRPT_BLOCK_SIZE);
		return scsi_data_in(req, 8, 8);
	}
	scsi_put_be(b, 8, lun->blocks - 1);
	scsi_put_be(b + 8, 4, SRPT_BLOCK_SIZE);
	scsi_data_in(req, 32, scsi_get_be(req->cdb + 10, 4));
}

/*
 * MODE SENSE (6) and (10): no block descriptors; the caching page: the write cache is on for a
 * file LUN (its writes reach the page cache; SYNCHRONIZE CACHE writes them back), off for memory.
 */
static void scsi_mode_sense(const struct srpt_lun *lun, struct srpt_scsi_req *req, bool ten)
{
	const u8 *cdb = req->cdb;
	u8 page = cdb[2] & 0x3f, *b = req->buf;
	u32 hdr = ten ? 8 : 4, len = hdr;
	u32 alloc = ten ? scsi_get_be(cdb + 7, 2) : cdb[4];

	memset(b, 0, SRPT_EMUL_BUF);
	if (page != 0x08 && page != 0x3f)
		return scsi_check(req, ILLEGAL_REQUEST, ASC_INVALID_FIELD_CDB);
	b[len] = 0x08;
	b[len + 1] = 0x12;
	if (lun->file)
		b[len + 2] = 0x04;	/* WCE */
	len += 0x14;
	if (ten)
		scsi_put_be(b, 2, len - 2);
	else
		b[0] = len - 1;
	scsi_data_in(req, len, alloc);
}

/* READ and WRITE: the LBA range, checked against the LUN, becomes @data. */
static void scsi_rw(const struct srpt_lun *lun, struct srpt_scsi_req *req, bool sixteen,
		    enum oib_srp_data_dir dir)
{
	u64 lba = sixteen ? scsi_get_be(req->cdb + 2, 8) : scsi_get_be(req->cdb + 2, 4);
	u32 nblk = sixteen ? scsi_get_be(req->cdb + 10, 4) : scsi_get_be(req->cdb + 7, 2);

	if (lba > lun->blocks || nblk > lun->blocks - lba)
		return scsi_check(req, ILLEGAL_REQUEST, ASC_LBA_OUT_OF_RANGE);
	if (nblk && req->dir != dir)
		return scsi_check(req, ILLEGAL_REQUEST, ASC_INVALID_FIELD_CDB);
	req->data_len = nblk * SRPT_BLOCK_SIZE;
	req->data_dir = nblk ? dir : OIB_SRP_DATA_NONE;
	if (!lun->file) {
		req->data = lun->mem + lba * SRPT_BLOCK_SIZE;
		return;
	}
	req->file = nblk ? lun->file : NULL;
	req->pos = lba * SRPT_BLOCK_SIZE;
}

/* The commands that need a LUN. */
static void scsi_exec_lun(const struct srpt_lun *lun, struct srpt_scsi_req *req)
{
	switch (req->cdb[0]) {
	case TEST_UNIT_READY:
		return;
	case SYNCHRONIZE_CACHE:
	case SYNCHRONIZE_CACHE_16:
		req->file = lun->file;	/* the whole file written back */
		return;
	case READ_CAPACITY:
		return scsi_capacity(lun, req, false);
	case SERVICE_ACTION_IN_16:
		if ((req->cdb[1] & 0x1f) != SAI_READ_CAPACITY_16)
			break;
		return scsi_capacity(lun, req, true);
	case MODE_SENSE:
	case MODE_SENSE_10:
		return scsi_mode_sense(lun, req, req->cdb[0] == MODE_SENSE_10);
	case READ_10:
	case READ_16:
		return scsi_rw(lun, req, req->cdb[0] == READ_16, OIB_SRP_DATA_IN);
	case WRITE_10:
	case WRITE_16:
		return scsi_rw(lun, req, req->cdb[0] == WRITE_16, OIB_SRP_DATA_OUT);
	}
	scsi_check(req, ILLEGAL_REQUEST, ASC_INVALID_OPCODE);
}

void srpt_scsi_exec(const struct srpt_luns *luns, struct srpt_scsi_req *req)
{
	const struct srpt_lun *lun = scsi_find(luns, req->lun);

	req->status = SAM_STAT_GOOD;
	req->sense_len = 0;
	req->data = NULL;
	req->data_len = 0;
	req->data_dir = OIB_SRP_DATA_NONE;
	req->file = NULL;
	switch (req->cdb[0]) {
	case INQUIRY:
		return scsi_inquiry(luns, lun, req);
	case REPORT_LUNS:
		return scsi_report_luns(luns, req);
	case REQUEST_SENSE:
		memset(req->buf, 0, SRPT_SENSE_LEN);
		req->buf[0] = 0x70;
		req->buf[7] = SRPT_SENSE_LEN - 8;
		return scsi_data_in(req, SRPT_SENSE_LEN, req->cdb[4]);
	}
	if (!lun)
		return scsi_check(req, ILLEGAL_REQUEST, ASC_LUN_NOT_SUPPORTED);
	scsi_exec_lun(lun, req);
}
EXPORT_SYMBOL_IF_KUNIT(srpt_scsi_exec);

/* A command whose IU could not be taken (an unsupported descriptor): ILLEGAL REQUEST. */
void srpt_scsi_refuse(struct srpt_scsi_req *req)
{
	scsi_check(req, ILLEGAL_REQUEST, ASC_INVALID_FIELD_CDB);
}

/* A file LUN's read, write or write-back failed: MEDIUM ERROR, no data. */
void srpt_scsi_io_error(struct srpt_scsi_req *req, bool write)
{
	scsi_check(req, MEDIUM_ERROR, write ? ASC_WRITE_ERROR : ASC_READ_ERROR);
}
EXPORT_SYMBOL_IF_KUNIT(srpt_scsi_io_error);

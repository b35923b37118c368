// SPDX-License-Identifier: GPL-2.0-only
/*
 * ioctl dispatch: the one entry point of every command.  It checks the command number, reads the
 * caller's size, copies the command in with copy_struct_from_user() (older, smaller structs are
 * zero-extended; bytes beyond what this version knows must be zero, else -E2BIG; more than a
 * page is -E2BIG at once), checks the header's flags, runs the handler with the context held
 * shared (-EIO once the context is torn down), between the command's own copies of other user
 * memory, made without the lock (uverbs.h), and copies the answer back: min(caller's size,
 * ours) bytes.  include/uapi/oib/uverbs.h has the rules as user space sees them.
 */
#include <linux/module.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/nospec.h>
#include <linux/uaccess.h>
#include <kunit/visibility.h>
#include <oib/kunit/uverbs.h>
#include "uverbs.h"

#define CMD(nr, fn, type, first_last)						\
	[OIB_UVERBS_##nr] = { .handler = fn,					\
			      .min_size = offsetofend(type, first_last),	\
			      .size = sizeof(type) }
/* A command with copies of its own before and after the handler */
#define CMD_COPIES(nr, fn, in, out, type, first_last)				\
	[OIB_UVERBS_##nr] = { .handler = fn, .before = in, .after = out,	\
			      .min_size = offsetofend(type, first_last),	\
			      .size = sizeof(type) }

const struct oib_uverbs_ioctl oib_uverbs_ioctls[OIB_UVERBS_CMD_MAX] = {
	CMD(QUERY_DEVICE, oib_uverbs_query_device, struct oib_uverbs_query_device, reserved),
	CMD(QUERY_PORT, oib_uverbs_query_port, struct oib_uverbs_query_port, reserved),
	CMD(QUERY_GID, oib_uverbs_query_gid, struct oib_uverbs_query_gid, reserved),
	CMD(GET_ASYNC_FD, oib_uverbs_get_async_fd, struct oib_uverbs_new_fd, reserved),
	CMD(CREATE_COMP_CHANNEL, oib_uverbs_create_comp_channel, struct oib_uverbs_new_fd,
	    reserved),
	CMD(ALLOC_PD, oib_uverbs_alloc_pd, struct oib_uverbs_alloc_pd, reserved),
	CMD(DEALLOC_PD, oib_uverbs_dealloc_pd, struct oib_uverbs_destroy, reserved),
	CMD(CREATE_CQ, oib_uverbs_create_cq, struct oib_uverbs_create_cq, handle),
	CMD(DESTROY_CQ, oib_uverbs_destroy_cq, struct oib_uverbs_destroy_reported, reserved),
	CMD(REQ_NOTIFY_CQ, oib_uverbs_req_notify_cq, struct oib_uverbs_req_notify_cq, notify),
	CMD_COPIES(POLL_CQ, oib_uverbs_poll_cq, oib_uverbs_poll_cq_before,
		   oib_uverbs_poll_cq_after, struct oib_uverbs_poll_cq, wcs),
	CMD_COPIES(REG_MR, oib_uverbs_reg_mr, oib_uverbs_reg_mr_before, oib_uverbs_reg_mr_after,
		   struct oib_uverbs_reg_mr, reserved),
	CMD(DEREG_MR, oib_uverbs_dereg_mr, struct oib_uverbs_destroy, reserved),
	CMD(CREATE_QP, oib_uverbs_create_qp, struct oib_uverbs_create_qp, cap),	/* v1: no SRQ */
	CMD(MODIFY_QP, oib_uverbs_modify_qp, struct oib_uverbs_modify_qp, ah_attr),
	CMD(DESTROY_QP, oib_uverbs_destroy_qp, struct oib_uverbs_destroy_reported, reserved),
	CMD_COPIES(POST_SEND, oib_uverbs_post_send, oib_uverbs_post_send_before,
		   oib_uverbs_post_after, struct oib_uverbs_post, reserved),
	CMD_COPIES(POST_RECV, oib_uverbs_post_recv, oib_uverbs_post_recv_before,
		   oib_uverbs_post_after, struct oib_uverbs_post, reserved),
	CMD(CREATE_AH, oib_uverbs_create_ah, struct oib_uverbs_create_ah, attr),
	CMD(DESTROY_AH, oib_uverbs_destroy_ah, struct oib_uverbs_destroy, reserved),
	CMD(CREATE_SRQ, oib_uverbs_create_srq, struct oib_uverbs_create_srq, attr),
	CMD(MODIFY_SRQ, oib_uverbs_modify_srq, struct oib_uverbs_modify_srq, attr),
	CMD(QUERY_SRQ, oib_uverbs_query_srq, struct oib_uverbs_modify_srq, attr),
	CMD(DESTROY_SRQ, oib_uverbs_destroy_srq, struct oib_uverbs_destroy_reported, reserved),
	CMD_COPIES(POST_SRQ_RECV, oib_uverbs_post_srq_recv, oib_uverbs_post_recv_before,
		   oib_uverbs_post_after, struct oib_uverbs_post, reserved),
	CMD_COPIES(DOORBELL, oib_uverbs_doorbell, NULL, oib_uverbs_doorbell_after,
		   struct oib_uverbs_doorbell, reserved),
	CMD(QUERY_QP, oib_uverbs_query_qp, struct oib_uverbs_query_qp, sq_sig_all),
	CMD(OPEN_XRCD, oib_uverbs_open_xrcd, struct oib_uverbs_open_xrcd, reserved),
	CMD(CLOSE_XRCD, oib_uverbs_close_xrcd, struct oib_uverbs_destroy, reserved),
	CMD(CREATE_XRC_RCV_QP, oib_uverbs_create_xrc_rcv_qp, struct oib_uverbs_create_xrc_rcv_qp,
	    reserved),
	CMD(REG_XRC_RCV_QP, oib_uverbs_reg_xrc_rcv_qp, struct oib_uverbs_xrc_rcv_qp_reg, qp_num),
	CMD(UNREG_XRC_RCV_QP, oib_uverbs_unreg_xrc_rcv_qp, struct oib_uverbs_xrc_rcv_qp_reg,
	    qp_num),
};

/* Room for any command of this version. */
union oib_uverbs_cmd_buf {
	struct oib_uverbs_hdr hdr;
	struct oib_uverbs_query_device query_device;
	struct oib_uverbs_query_port query_port;
	struct oib_uverbs_query_gid query_gid;
	struct oib_uverbs_new_fd new_fd;
	struct oib_uverbs_alloc_pd alloc_pd;
	struct oib_uverbs_destroy destroy;
	struct oib_uverbs_create_cq create_cq;
	struct oib_uverbs_destroy_reported destroy_reported;
	struct oib_uverbs_req_notify_cq req_notify_cq;
	struct oib_uverbs_poll_cq poll_cq;
	struct oib_uverbs_reg_mr reg_mr;
	struct oib_uverbs_create_qp create_qp;
	struct oib_uverbs_modify_qp modify_qp;
	struct oib_uverbs_post post;
	struct oib_uverbs_create_ah create_ah;
	struct oib_uverbs_create_srq create_srq;
	struct oib_uverbs_modify_srq modify_srq;
	struct oib_uverbs_doorbell doorbell;
	struct oib_uverbs_query_qp query_qp;
	struct oib_uverbs_open_xrcd open_xrcd;
	struct oib_uverbs_create_xrc_rcv_qp create_xrc_rcv_qp;
	struct oib_uverbs_xrc_rcv_qp_reg xrc_rcv_qp_reg;
};

static const struct oib_uverbs_ioctl *oib_uverbs_ioctl_desc(unsigned int cmd)
{
	unsigned int nr = _IOC_NR(cmd);

	if (_IOC_TYPE(cmd) != OIB_UVERBS_IOC_TYPE || _IOC_DIR(cmd) != _IOC_NONE ||
	    _IOC_SIZE(cmd) || nr >= OIB_UVERBS_CMD_MAX)
		return NULL;
	return &oib_uverbs_ioctls[array_index_nospec(nr, OIB_UVERBS_CMD_MAX)];
}

static int oib_uverbs_run(struct oib_uverbs_call *call, const struct oib_uverbs_ioctl *desc,
			  void *buf)
{
	struct oib_uverbs_file *ufile = call->ufile;
	int ret = desc->before ? desc->before(call, buf) : 0;

	if (!ret) {
		down_read(&ufile->hw_rwsem);
		ret = ufile->ibdev ? desc->handler(call, buf) : -EIO;
		up_read(&ufile->hw_rwsem);
	}
	return desc->after ? desc->after(call, buf, ret) : ret;
}

long oib_uverbs_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	void __user *uptr = (void __user *)arg;
	struct oib_uverbs_call call = { .ufile = filp->private_data, .ucmd = uptr, .new_fd = -1 };
	const struct oib_uverbs_ioctl *desc = oib_uverbs_ioctl_desc(cmd);
	union oib_uverbs_cmd_buf buf;
	u32 usize;
	int ret;

	BUILD_BUG_ON(sizeof(buf) > 256);
	if (!desc)
		return -ENOTTY;
	if (get_user(usize, (u32 __user *)uptr))
		return -EFAULT;
	if (usize < desc->min_size)
		return -EINVAL;
	if (usize > PAGE_SIZE)		/* no command will ever be that big */
		return -E2BIG;
	memset(&buf, 0, sizeof(buf));
	ret = copy_struct_from_user(&buf, desc->size, uptr, usize);
	if (ret)
		return ret;
	if (buf.hdr.flags)
		return -EINVAL;

	ret = oib_uverbs_run(&call, desc, &buf);
	if (ret)
		return ret;
	buf.hdr.size = min(usize, desc->size);
	if (copy_to_user(uptr, &buf, buf.hdr.size))
		ret = -EFAULT;
	if (call.new_file) {
		if (ret) {	/* an event file: the next ask may make another */
			oib_uverbs_event_file_unused(call.new_file);
			put_unused_fd(call.new_fd);
			fput(call.new_file);
		} else {
			fd_install(call.new_fd, call.new_file);
		}
	}
	return ret;
}

#if IS_ENABLED(CONFIG_KUNIT)
/*
 * Command @nr's handler on @cmd, a kernel copy, as an ioctl runs it (for the KUnit suites: no
 * user memory, no file descriptors).
 */
int oib_uverbs_test_cmd(struct oib_uverbs_file *ufile, unsigned int nr, void *cmd)
{
	struct oib_uverbs_call call = { .ufile = ufile, .new_fd = -1 };

	if (nr >= OIB_UVERBS_CMD_MAX)
		return -ENOTTY;
	return oib_uverbs_run(&call, &oib_uverbs_ioctls[nr], cmd);
}
EXPORT_SYMBOL_IF_KUNIT(oib_uverbs_test_cmd);
#endif /* CONFIG_KUNIT */

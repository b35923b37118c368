// SPDX-License-Identifier: GPL-2.0-only
/*
 * An open /dev/oib_rdma_cm: an event channel and its ids.  release() (the last close, also when
 * the process dies) destroys every id the file has, the new connections its listeners made
 * included, until the table is empty: a listener's handler may add one while another id goes.
 */
#include <linux/fs.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include "ucma.h"

static int ucma_open(struct inode *inode, struct file *filp)
{
	struct ucma_file *file = kzalloc(sizeof(*file), GFP_KERNEL_ACCOUNT);

	if (!file)
		return -ENOMEM;
	xa_init_flags(&file->ctxs, XA_FLAGS_ALLOC1);
	spin_lock_init(&file->lock);
	INIT_LIST_HEAD(&file->events);
	init_waitqueue_head(&file->wait);
	filp->private_data = file;
	return nonseekable_open(inode, filp);
}

static int ucma_release(struct inode *inode, struct file *filp)
{
	struct ucma_file *file = filp->private_data;
	struct ucma_ctx *ctx;
	unsigned long index;

	while (!xa_empty(&file->ctxs)) {
		xa_for_each(&file->ctxs, index, ctx) {
			ctx = ucma_ctx_get(file, index);
			if (!ctx)
				continue;
			ucma_ctx_destroy(ctx);
			ucma_ctx_put(ctx);
		}
	}
	WARN_ON(!list_empty(&file->events));
	xa_destroy(&file->ctxs);
	kfree(file);
	return 0;
}

typedef int (*ucma_cmd_fn)(struct ucma_file *file, void __user *arg);

static const struct {
	unsigned int cmd;
	ucma_cmd_fn fn;
} ucma_cmds[] = {
	{ OIB_UCMA_CREATE_ID, ucma_create_id },
	{ OIB_UCMA_DESTROY_ID, ucma_destroy_id },
	{ OIB_UCMA_BIND, ucma_bind },
	{ OIB_UCMA_RESOLVE_ADDR, ucma_resolve_addr },
	{ OIB_UCMA_RESOLVE_ROUTE, ucma_resolve_route },
	{ OIB_UCMA_QUERY, ucma_query },
	{ OIB_UCMA_LISTEN, ucma_listen },
	{ OIB_UCMA_CONNECT, ucma_connect },
	{ OIB_UCMA_ACCEPT, ucma_accept },
	{ OIB_UCMA_REJECT, ucma_reject },
	{ OIB_UCMA_DISCONNECT, ucma_disconnect },
	{ OIB_UCMA_NOTIFY, ucma_notify },
	{ OIB_UCMA_SET_OPTION, ucma_set_option },
	{ OIB_UCMA_ATTACH_QP, ucma_attach_qp },
	{ OIB_UCMA_DETACH_QP, ucma_detach_qp },
};

static long ucma_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct ucma_file *file = filp->private_data;
	void __user *uarg = (void __user *)arg;
	unsigned int nr = _IOC_NR(cmd);

	if (cmd == OIB_UCMA_GET_EVENT)
		return ucma_get_event(file, filp->f_flags & O_NONBLOCK, uarg);
	if (_IOC_TYPE(cmd) != OIB_UCMA_IOC_TYPE || nr >= ARRAY_SIZE(ucma_cmds) ||
	    ucma_cmds[nr].cmd != cmd)
		return -ENOTTY;
	return ucma_cmds[nr].fn(file, uarg);
}

static __poll_t ucma_poll(struct file *filp, struct poll_table_struct *wait)
{
	struct ucma_file *file = filp->private_data;

	poll_wait(filp, &file->wait, wait);
	return list_empty(&file->events) ? 0 : EPOLLIN | EPOLLRDNORM;
}

const struct file_operations ucma_fops = {
	.owner = THIS_MODULE,
	.open = ucma_open,
	.release = ucma_release,
	.unlocked_ioctl = ucma_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.poll = ucma_poll,
};

// SPDX-License-Identifier: GPL-2.0-only
/*
 * XRC domains from user space, shared between processes through a file as OFED shared them:
 * OPEN_XRCD with a file descriptor finds the domain of that file's inode in the device's table
 * (udev->xrcd_inodes), or makes it (O_CREAT), so every context that opens the same file gets
 * the same struct oib_xrcd; fd -1 makes a private one.  Each open handle holds one holder's
 * reference on the domain (oib_xrcd_get(), the first the allocation's), dropped by CLOSE_XRCD
 * or the context's teardown (also when the process is killed); the table entry goes with its
 * last opener's close, and with it the domain's last holder (oib_xrcd_put()), which destroys
 * the domain's unregistered receive QPs (Documentation/xrc.md).
 *
 * Who may name a domain by a file: only a regular file (an anonymous inode, shared by every
 * anon_inode fd, a pipe or a socket names nothing: -EINVAL), and only through an fd open for
 * writing or by the file's owner (its fsuid the inode's uid, or CAP_FOWNER): -EACCES otherwise,
 * for joining and for O_CREAT alike.  Reading a file grants no share in its owner's domain.  The
 * check asks the filesystem nothing (no ->permission(), which a FUSE daemon could stall while the
 * context's hw_rwsem is held): the fd's mode and the inode's owner are already at hand.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/fcntl.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/path.h>
#include <linux/slab.h>
#include "uverbs.h"

/*
 * A table entry: the domain of the file @inode.  While in the table it holds @inode (ihold())
 * and @path, the file's mount and dentry (path_get()): the mount stays busy (umount is -EBUSY,
 * a lazy umount leaves the superblock alive) until the entry's iput() is done.  @openers, under
 * udev->xrcd_lock, counts the open handles made through it, in every context; each of them
 * holds the domain, so the last one's close is the domain's last put.
 */
struct oib_uverbs_xrcd_inode {
	struct list_head list;
	struct inode *inode;
	struct path path;
	struct oib_xrcd *xrcd;
	unsigned int openers;
};

static struct oib_uverbs_xrcd_inode *oib_uverbs_xrcd_find(struct oib_uverbs_device *udev,
							  struct inode *inode)
{
	struct oib_uverbs_xrcd_inode *e;

	lockdep_assert_held(&udev->xrcd_lock);
	list_for_each_entry(e, &udev->xrcd_inodes, list)
		if (e->inode == inode)
			return e;
	return NULL;
}

/* A new domain for @f's inode, entered in the table with one opener. */
static struct oib_uverbs_xrcd_inode *oib_uverbs_xrcd_new(struct oib_uverbs_device *udev,
							 struct oib_device *ibdev, struct file *f)
{
	struct oib_uverbs_xrcd_inode *e = kzalloc(sizeof(*e), GFP_KERNEL);

	if (!e)
		return ERR_PTR(-ENOMEM);
	e->xrcd = oib_alloc_xrcd(ibdev);
	if (IS_ERR(e->xrcd)) {
		struct oib_xrcd *err = e->xrcd;

		kfree(e);
		return ERR_CAST(err);
	}
	e->inode = file_inode(f);
	ihold(e->inode);
	e->path = f->f_path;
	path_get(&e->path);
	e->openers = 1;
	list_add(&e->list, &udev->xrcd_inodes);
	return e;
}

/* The domain of @f's inode for a new handle: found (and held) or made, as @oflags say. */
static struct oib_uverbs_xrcd_inode *oib_uverbs_xrcd_lookup(struct oib_uverbs_device *udev,
							    struct oib_device *ibdev,
							    struct file *f, u32 oflags)
{
	struct oib_uverbs_xrcd_inode *e;

	mutex_lock(&udev->xrcd_lock);
	e = oib_uverbs_xrcd_find(udev, file_inode(f));
	if (e && (oflags & O_EXCL)) {
		e = ERR_PTR(-EEXIST);
	} else if (e) {
		oib_xrcd_get(e->xrcd);
		e->openers++;
	} else if (oflags & O_CREAT) {
		e = oib_uverbs_xrcd_new(udev, ibdev, f);
	} else {
		e = ERR_PTR(-ENOENT);
	}
	mutex_unlock(&udev->xrcd_lock);
	return e;
}

/* May the caller name a domain by @f (the rule at the top)?  0 or -errno. */
static int oib_uverbs_xrcd_file_check(struct file *f)
{
	struct inode *inode = file_inode(f);

	if (!S_ISREG(inode->i_mode))
		return -EINVAL;
	if ((f->f_mode & FMODE_WRITE) || uid_eq(current_fsuid(), inode->i_uid) ||
	    capable(CAP_FOWNER))
		return 0;
	return -EACCES;
}

/* Attach @ux to the domain @fd and @oflags name (fd -1: a private one). */
static int oib_uverbs_xrcd_attach(struct oib_uverbs_file *ufile, struct oib_uverbs_xrcd *ux,
				  int fd, u32 oflags)
{
	struct oib_uverbs_xrcd_inode *e;
	struct file *f;
	int ret;

	if (fd == -1) {
		ux->xrcd = oib_alloc_xrcd(ufile->ibdev);
		return PTR_ERR_OR_ZERO(ux->xrcd);
	}
	f = fget(fd);
	if (!f)
		return -EBADF;
	ret = oib_uverbs_xrcd_file_check(f);
	e = ret ? ERR_PTR(ret) : oib_uverbs_xrcd_lookup(ufile->udev, ufile->ibdev, f, oflags);
	fput(f);
	if (IS_ERR(e))
		return PTR_ERR(e);
	ux->ino = e;
	ux->xrcd = e->xrcd;
	return 0;
}

/* Drop @ux's hold; the last opener of a file's domain takes it out of the table. */
static int oib_uverbs_xrcd_detach(struct oib_uverbs_device *udev, struct oib_uverbs_xrcd *ux)
{
	struct oib_uverbs_xrcd_inode *e = ux->ino;
	bool gone = false;
	int ret;

	if (!e)
		return oib_xrcd_put(ux->xrcd);
	mutex_lock(&udev->xrcd_lock);
	ret = oib_xrcd_put(ux->xrcd);	/* -EBUSY only if XRC SRQs still use it */
	if (!ret && !--e->openers) {
		list_del(&e->list);
		gone = true;
	}
	mutex_unlock(&udev->xrcd_lock);
	if (gone) {
		iput(e->inode);		/* while the mount still keeps its superblock */
		path_put(&e->path);
		kfree(e);
	}
	return ret;
}

int oib_uverbs_open_xrcd(struct oib_uverbs_call *call, void *buf)
{
	struct oib_uverbs_open_xrcd *cmd = buf;
	struct oib_uverbs_xrcd *ux;
	int ret;

	if (cmd->reserved || cmd->handle || (cmd->oflags & ~(O_CREAT | O_EXCL)) ||
	    ((cmd->oflags & O_EXCL) && !(cmd->oflags & O_CREAT)) ||
	    (cmd->fd == -1 && (cmd->oflags & O_EXCL)))
		return -EINVAL;
	if (cmd->fd < -1)
		return -EBADF;
	ux = kzalloc(sizeof(*ux), GFP_KERNEL_ACCOUNT);
	if (!ux)
		return -ENOMEM;
	mutex_init(&ux->lock);
	xa_init(&ux->regs);
	atomic_set(&ux->nusers, 0);
	ret = oib_uverbs_xrcd_attach(call->ufile, ux, cmd->fd, cmd->oflags);
	if (ret)
		goto free;
	ret = oib_uobj_insert(call->ufile, &ux->uobj, OIB_UVERBS_OBJ_XRCD, cmd->user_handle);
	if (ret) {
		WARN_ON(oib_uverbs_xrcd_detach(call->ufile->udev, ux));
		goto free;
	}
	cmd->handle = ux->uobj.handle;
	oib_uobj_commit(&ux->uobj);
	return 0;
free:
	mutex_destroy(&ux->lock);
	kfree(ux);
	return ret;
}

/* Drop the registrations made through @ux (its domain's receive QPs hold its memory). */
static void oib_uverbs_xrcd_unreg_all(struct oib_uverbs_xrcd *ux)
{
	unsigned long qpn;
	void *v;

	mutex_lock(&ux->lock);
	xa_for_each(&ux->regs, qpn, v) {
		xa_erase(&ux->regs, qpn);
		WARN_ON(oib_unreg_xrc_rcv_qp(ux->xrcd, qpn));
	}
	mutex_unlock(&ux->lock);
}

int oib_uverbs_xrcd_destroy(struct oib_uverbs_uobj *uobj, void *resp)
{
	struct oib_uverbs_xrcd *ux = container_of(uobj, struct oib_uverbs_xrcd, uobj);
	int ret;

	if (atomic_read(&ux->nusers))
		return -EBUSY;
	ret = oib_uverbs_xrcd_detach(uobj->ufile->udev, ux);
	if (ret)
		return ret;
	oib_uverbs_xrcd_unreg_all(ux);
	xa_destroy(&ux->regs);
	mutex_destroy(&ux->lock);
	return 0;
}

int oib_uverbs_close_xrcd(struct oib_uverbs_call *call, void *buf)
{
	struct oib_uverbs_destroy *cmd = buf;

	if (cmd->reserved)
		return -EINVAL;
	return oib_uobj_destroy(call->ufile, cmd->handle, OIB_UVERBS_OBJ_XRCD, NULL);
}

unsigned int oib_uverbs_xrcd_files(struct oib_uverbs_device *udev)
{
	struct oib_uverbs_xrcd_inode *e;
	unsigned int n = 0;

	mutex_lock(&udev->xrcd_lock);
	list_for_each_entry(e, &udev->xrcd_inodes, list)
		n++;
	mutex_unlock(&udev->xrcd_lock);
	return n;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * An open /dev/oib_uverbs<N>: a context and its lifetime.
 *
 * open() makes a struct oib_uverbs_file and puts it on its device's list.  Teardown destroys all
 * its objects in dependency order and closes its async event source; it runs once, at release()
 * (the last close, also when the process dies) or at the device's removal, whichever is first,
 * both under the device's lock (so removal returns only after every teardown is done) and under
 * hw_rwsem held exclusive (so no ioctl is running on the context meanwhile).  The
 * struct's memory lives on while completion channels made by the context are open (@ref).
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include "uverbs.h"

static void oib_uverbs_file_release_mem(struct kref *ref)
{
	struct oib_uverbs_file *ufile = container_of(ref, struct oib_uverbs_file, ref);

	xa_destroy(&ufile->handles);
	xa_destroy(&ufile->mr_keys);
	put_device(&ufile->udev->dev);
	kfree(ufile);
}

void oib_uverbs_file_put(struct oib_uverbs_file *ufile)
{
	kref_put(&ufile->ref, oib_uverbs_file_release_mem);
}

void oib_uverbs_file_teardown(struct oib_uverbs_file *ufile)
{
	down_write(&ufile->hw_rwsem);
	if (ufile->ibdev) {
		oib_uobj_destroy_all(ufile);
		oib_uverbs_async_teardown(ufile);
		ufile->ibdev = NULL;
	}
	up_write(&ufile->hw_rwsem);
}

static int oib_uverbs_open(struct inode *inode, struct file *filp)
{
	struct oib_uverbs_device *udev;
	struct oib_uverbs_file *ufile;

	udev = container_of(inode->i_cdev, struct oib_uverbs_device, cdev);
	ufile = kzalloc(sizeof(*ufile), GFP_KERNEL);
	if (!ufile)
		return -ENOMEM;
	kref_init(&ufile->ref);
	INIT_LIST_HEAD(&ufile->list);
	init_rwsem(&ufile->hw_rwsem);
	xa_init_flags(&ufile->handles, XA_FLAGS_ALLOC1);
	xa_init(&ufile->mr_keys);
	get_device(&udev->dev);
	ufile->udev = udev;

	mutex_lock(&udev->lock);
	if (udev->removed) {
		mutex_unlock(&udev->lock);
		oib_uverbs_file_put(ufile);
		return -ENODEV;
	}
	ufile->ibdev = udev->ibdev;
	list_add_tail(&ufile->list, &udev->files);
	mutex_unlock(&udev->lock);

	filp->private_data = ufile;
	return nonseekable_open(inode, filp);
}

static int oib_uverbs_release(struct inode *inode, struct file *filp)
{
	struct oib_uverbs_file *ufile = filp->private_data;
	struct oib_uverbs_device *udev = ufile->udev;

	/* Under udev->lock, so that the device's removal cannot return while this runs. */
	mutex_lock(&udev->lock);
	list_del_init(&ufile->list);
	oib_uverbs_file_teardown(ufile);
	mutex_unlock(&udev->lock);
	oib_uverbs_file_put(ufile);
	return 0;
}

const struct file_operations oib_uverbs_fops = {
	.owner = THIS_MODULE,
	.open = oib_uverbs_open,
	.release = oib_uverbs_release,
	.unlocked_ioctl = oib_uverbs_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

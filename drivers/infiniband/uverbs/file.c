// SPDX-License-Identifier: GPL-2.0-only
/*
 * An open /dev/oib_uverbs<N>: a context and its lifetime.
 *
 * open() makes a struct oib_uverbs_file, its async event queue and its port event handler, and
 * puts it on its device's list.  Teardown destroys all its objects in dependency order and
 * unregisters the port event handler; it runs once, at release() (the last close, also when the
 * process dies) or at the device's removal, whichever is first, both under the device's lock (so
 * removal returns only after every teardown is done) and under hw_rwsem held exclusive (so no
 * ioctl is running on the context meanwhile).  The struct's memory, and the async event queue
 * with it, lives on while completion channels made by the context are open (@ref).
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <kunit/visibility.h>
#include <oib/kunit/uverbs.h>
#include "uverbs.h"
#include "uverbs_dev.h"

static void oib_uverbs_file_release_mem(struct kref *ref)
{
	struct oib_uverbs_file *ufile = container_of(ref, struct oib_uverbs_file, ref);

	xa_destroy(&ufile->handles);
	xa_destroy(&ufile->mr_keys);
	xa_destroy(&ufile->rings);
	if (ufile->async)
		oib_uverbs_event_file_put(ufile->async);
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

/* A new context on @udev, or an ERR_PTR (-ENODEV once the device is being removed). */
static struct oib_uverbs_file *oib_uverbs_file_new(struct oib_uverbs_device *udev)
{
	struct oib_uverbs_file *ufile;
	int ret;

	ufile = kzalloc(sizeof(*ufile), GFP_KERNEL_ACCOUNT);
	if (!ufile)
		return ERR_PTR(-ENOMEM);
	kref_init(&ufile->ref);
	INIT_LIST_HEAD(&ufile->list);
	init_rwsem(&ufile->hw_rwsem);
	xa_init_flags(&ufile->handles, XA_FLAGS_ALLOC1);
	xa_init_flags(&ufile->mr_keys, XA_FLAGS_LOCK_IRQ);
	xa_init_flags(&ufile->rings, XA_FLAGS_ALLOC1);
	get_device(&udev->dev);
	ufile->udev = udev;
	ret = oib_uverbs_async_alloc(ufile);
	if (ret)
		goto put;

	mutex_lock(&udev->lock);
	if (udev->removed) {
		mutex_unlock(&udev->lock);
		ret = -ENODEV;
		goto put;
	}
	ufile->ibdev = udev->ibdev;
	oib_uverbs_async_start(ufile);
	list_add_tail(&ufile->list, &udev->files);
	mutex_unlock(&udev->lock);
	return ufile;
put:
	oib_uverbs_file_put(ufile);
	return ERR_PTR(ret);
}

/* The context's last close: tear down (if the device's removal has not) and drop the file's ref. */
static void oib_uverbs_file_close(struct oib_uverbs_file *ufile)
{
	struct oib_uverbs_device *udev = ufile->udev;

	/* Under udev->lock, so that the device's removal cannot return while this runs. */
	mutex_lock(&udev->lock);
	list_del_init(&ufile->list);
	oib_uverbs_file_teardown(ufile);
	mutex_unlock(&udev->lock);
	oib_uverbs_file_put(ufile);
}

static int oib_uverbs_open(struct inode *inode, struct file *filp)
{
	struct oib_uverbs_file *ufile;

	ufile = oib_uverbs_file_new(container_of(inode->i_cdev, struct oib_uverbs_device, cdev));
	if (IS_ERR(ufile))
		return PTR_ERR(ufile);
	filp->private_data = ufile;
	return nonseekable_open(inode, filp);
}

static int oib_uverbs_release(struct inode *inode, struct file *filp)
{
	oib_uverbs_file_close(filp->private_data);
	return 0;
}

#if IS_ENABLED(CONFIG_KUNIT)
/* A context on @device without a struct file, for the KUnit suites (include/oib/kunit/uverbs.h). */
struct oib_uverbs_file *oib_uverbs_test_open(struct oib_device *device)
{
	struct oib_uverbs_device *udev = oib_get_client_data(device, &oib_uverbs_client);

	return udev ? oib_uverbs_file_new(udev) : ERR_PTR(-ENODEV);
}
EXPORT_SYMBOL_IF_KUNIT(oib_uverbs_test_open);

void oib_uverbs_test_close(struct oib_uverbs_file *ufile)
{
	oib_uverbs_file_close(ufile);
}
EXPORT_SYMBOL_IF_KUNIT(oib_uverbs_test_close);

/* The objects in @ufile's handle table. */
unsigned int oib_uverbs_test_nobjects(struct oib_uverbs_file *ufile)
{
	struct oib_uverbs_uobj *uobj;
	unsigned long index;
	unsigned int n = 0;

	xa_for_each(&ufile->handles, index, uobj)
		n++;
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(oib_uverbs_test_nobjects);
#endif /* CONFIG_KUNIT */

const struct file_operations oib_uverbs_fops = {
	.owner = THIS_MODULE,
	.open = oib_uverbs_open,
	.release = oib_uverbs_release,
	.unlocked_ioctl = oib_uverbs_ioctl,
	.mmap = oib_uverbs_mmap,
	.compat_ioctl = compat_ptr_ioctl,
};

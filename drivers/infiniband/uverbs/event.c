// SPDX-License-Identifier: GPL-2.0-only
/*
 * Event files: completion channels and the async event file share this code.  An event is
 * queued from the object's handler (any context but hard-irq: GFP_ATOMIC, irq-safe lock) on its
 * queue and on its object's list of unread events; read() hands out whole struct
 * oib_uverbs_event records, oldest first, and counts each against its object (the counts that
 * DESTROY_CQ and DESTROY_QP report); destroying an object drops its unread events.  poll() and
 * epoll see EPOLLIN while events are queued.  Events are queued only while the queue is LIVE
 * (struct oib_uverbs_event_file): once its file is closed, or when the file made for it never
 * reached user space, what was queued goes and new events are dropped.  A queue holds at most
 * OIB_UVERBS_EVENTS_MAX unread events (their memory is charged to no one): a reader that falls
 * that far behind loses the newer ones, as a full inotify queue does.
 */
#include <linux/module.h>
#include <linux/anon_inodes.h>
#include <linux/file.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <kunit/visibility.h>
#include <oib/kunit/uverbs.h>
#include "uverbs.h"

static const struct file_operations oib_uverbs_event_fops;

struct oib_uverbs_event_file *oib_uverbs_event_file_alloc(struct oib_uverbs_file *owner)
{
	struct oib_uverbs_event_file *ef = kzalloc(sizeof(*ef), GFP_KERNEL_ACCOUNT);

	if (!ef)
		return NULL;
	kref_init(&ef->ref);
	ef->state = OIB_UVERBS_EF_LIVE;
	spin_lock_init(&ef->lock);
	INIT_LIST_HEAD(&ef->events);
	init_waitqueue_head(&ef->wait);
	if (owner) {
		kref_get(&owner->ref);
		ef->owner = owner;
	}
	return ef;
}
EXPORT_SYMBOL_IF_KUNIT(oib_uverbs_event_file_alloc);

/*
 * The last reference: what is still queued goes too.  Only events of no object can be left (an
 * object drops its unread events when destroyed, and objects hold their channels; the async
 * file outlives its context's objects).
 */
static void oib_uverbs_event_file_free(struct kref *ref)
{
	struct oib_uverbs_event_file *ef = container_of(ref, struct oib_uverbs_event_file, ref);
	struct oib_uverbs_qevent *ev, *tmp;

	list_for_each_entry_safe(ev, tmp, &ef->events, list)
		kfree(ev);

	if (ef->owner)
		oib_uverbs_file_put(ef->owner);
	kfree(ef);
}

void oib_uverbs_event_file_put(struct oib_uverbs_event_file *ef)
{
	kref_put(&ef->ref, oib_uverbs_event_file_free);
}

/*
 * Give @ef a file (its reference goes to the file); the fd is installed by ioctl.c, which calls
 * oib_uverbs_event_file_unused() instead if the answer naming it cannot be copied out.
 */
int oib_uverbs_event_file_open(struct oib_uverbs_event_file *ef, const char *name,
			       struct oib_uverbs_call *call, struct oib_uverbs_new_fd *cmd)
{
	struct file *file;
	int fd;

	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0)
		return fd;
	file = anon_inode_getfile(name, &oib_uverbs_event_fops, ef, O_RDONLY);
	if (IS_ERR(file)) {
		put_unused_fd(fd);
		return PTR_ERR(file);
	}
	spin_lock_irq(&ef->lock);
	ef->file = file;
	spin_unlock_irq(&ef->lock);
	call->new_file = file;
	call->new_fd = fd;
	cmd->fd = fd;
	return 0;
}

/* The channel @fd names, if it is a completion channel of @ufile: a reference, or an ERR_PTR. */
struct oib_uverbs_event_file *oib_uverbs_channel_get(struct oib_uverbs_file *ufile, int fd)
{
	struct oib_uverbs_event_file *ef = ERR_PTR(-EINVAL);
	struct file *file = fget(fd);

	if (!file)
		return ERR_PTR(-EBADF);
	if (file->f_op == &oib_uverbs_event_fops) {
		struct oib_uverbs_event_file *cand = file->private_data;

		if (cand->owner == ufile) {
			kref_get(&cand->ref);
			ef = cand;
		}
	}
	fput(file);
	return ef;
}

/* Take @ev off @ef's queue and its object's list; under ef->lock. */
static void oib_uverbs_event_unlink(struct oib_uverbs_event_file *ef,
				    struct oib_uverbs_qevent *ev)
{
	lockdep_assert_held(&ef->lock);
	list_del(&ev->list);
	list_del(&ev->obj_list);
	ef->queued--;
}

/* Drop everything queued on @ef (unread, so not counted); under ef->lock. */
static void oib_uverbs_event_purge(struct oib_uverbs_event_file *ef)
{
	struct oib_uverbs_qevent *ev, *tmp;

	list_for_each_entry_safe(ev, tmp, &ef->events, list) {
		oib_uverbs_event_unlink(ef, ev);
		kfree(ev);
	}
}

/*
 * Stop @ef if @file is the one delivering its events (NULL: it has none): what is queued goes,
 * new events are dropped, and it is in @state.  A file that is not @ef's (one never given out,
 * replaced since) changes nothing.
 */
void oib_uverbs_event_file_stop(struct oib_uverbs_event_file *ef, struct file *file,
				enum oib_uverbs_ef_state state)
{
	spin_lock_irq(&ef->lock);
	if (ef->file == file) {
		ef->file = NULL;
		ef->state = state;
		oib_uverbs_event_purge(ef);
	}
	spin_unlock_irq(&ef->lock);
}

/* An UNOPENED queue starts queuing (its file is made next); false if it is not UNOPENED. */
bool oib_uverbs_event_file_start(struct oib_uverbs_event_file *ef)
{
	bool ret;

	spin_lock_irq(&ef->lock);
	ret = ef->state == OIB_UVERBS_EF_UNOPENED;
	if (ret)
		ef->state = OIB_UVERBS_EF_LIVE;
	spin_unlock_irq(&ef->lock);
	return ret;
}

/*
 * @file, made by oib_uverbs_event_file_open(), is dropped without its fd reaching user space:
 * its queue goes back to UNOPENED (an async file may be asked for again).  Its release, later,
 * finds it no longer the queue's file.
 */
void oib_uverbs_event_file_unused(struct file *file)
{
	oib_uverbs_event_file_stop(file->private_data, file, OIB_UVERBS_EF_UNOPENED);
}

void oib_uverbs_event_queue(struct oib_uverbs_event_file *ef, struct list_head *obj_list,
			    u32 *counter, const struct oib_uverbs_event *desc)
{
	struct oib_uverbs_qevent *ev;
	unsigned long flags;

	if (READ_ONCE(ef->state) != OIB_UVERBS_EF_LIVE)
		return;		/* checked again under the lock */
	ev = kmalloc(sizeof(*ev), GFP_ATOMIC);
	if (!ev)
		return;		/* like a lost interrupt: the consumer polls the CQ anyway */
	ev->desc = *desc;
	ev->counter = counter;
	spin_lock_irqsave(&ef->lock, flags);
	if (ef->state != OIB_UVERBS_EF_LIVE || ef->queued >= OIB_UVERBS_EVENTS_MAX) {
		spin_unlock_irqrestore(&ef->lock, flags);
		kfree(ev);
		return;
	}
	list_add_tail(&ev->list, &ef->events);
	ef->queued++;
	if (obj_list)
		list_add_tail(&ev->obj_list, obj_list);
	else
		INIT_LIST_HEAD(&ev->obj_list);
	spin_unlock_irqrestore(&ef->lock, flags);
	wake_up_interruptible(&ef->wait);
}
EXPORT_SYMBOL_IF_KUNIT(oib_uverbs_event_queue);

/* Drop an object's unread events (its handlers no longer run); returns *@counter. */
u32 oib_uverbs_event_drop_unread(struct oib_uverbs_event_file *ef, struct list_head *obj_list,
				 u32 *counter)
{
	struct oib_uverbs_qevent *ev, *tmp;
	unsigned long flags;
	u32 n;

	spin_lock_irqsave(&ef->lock, flags);
	list_for_each_entry_safe(ev, tmp, obj_list, obj_list) {
		oib_uverbs_event_unlink(ef, ev);
		kfree(ev);
	}
	n = *counter;
	spin_unlock_irqrestore(&ef->lock, flags);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(oib_uverbs_event_drop_unread);

/* Take the oldest event off @ef, counting it against its object; NULL if there is none. */
static struct oib_uverbs_qevent *oib_uverbs_event_take(struct oib_uverbs_event_file *ef)
{
	struct oib_uverbs_qevent *ev;

	spin_lock_irq(&ef->lock);
	ev = list_first_entry_or_null(&ef->events, struct oib_uverbs_qevent, list);
	if (ev) {
		oib_uverbs_event_unlink(ef, ev);
		if (ev->counter)
			(*ev->counter)++;
	}
	spin_unlock_irq(&ef->lock);
	return ev;
}

static bool oib_uverbs_event_pending(struct oib_uverbs_event_file *ef)
{
	bool ret;

	spin_lock_irq(&ef->lock);
	ret = !list_empty(&ef->events);
	spin_unlock_irq(&ef->lock);
	return ret;
}

/*
 * Whole events only: a buffer smaller than one event is -EINVAL.  Blocks until there is one
 * unless O_NONBLOCK (-EAGAIN).  An event that cannot be copied out is lost, as the caller asked
 * for it with a bad buffer.
 */
static ssize_t oib_uverbs_event_read(struct file *filp, char __user *buf, size_t count,
				     loff_t *pos)
{
	struct oib_uverbs_event_file *ef = filp->private_data;
	const size_t esz = sizeof(struct oib_uverbs_event);
	struct oib_uverbs_qevent *ev;
	size_t done = 0;
	int ret;

	if (count < esz)
		return -EINVAL;
	while (done + esz <= count) {
		ev = oib_uverbs_event_take(ef);
		if (!ev) {
			if (done)
				break;
			if (filp->f_flags & O_NONBLOCK)
				return -EAGAIN;
			ret = wait_event_interruptible(ef->wait, oib_uverbs_event_pending(ef));
			if (ret)
				return ret;
			continue;
		}
		ret = copy_to_user(buf + done, &ev->desc, esz) ? -EFAULT : 0;
		kfree(ev);
		if (ret)
			return done ? done : ret;
		done += esz;
	}
	return done;
}

static __poll_t oib_uverbs_event_poll(struct file *filp, struct poll_table_struct *wait)
{
	struct oib_uverbs_event_file *ef = filp->private_data;

	poll_wait(filp, &ef->wait, wait);
	return oib_uverbs_event_pending(ef) ? EPOLLIN | EPOLLRDNORM : 0;
}

/* What the release of a file does to @ef if it has none (KUnit): closed, and put. */
void oib_uverbs_event_file_close(struct oib_uverbs_event_file *ef)
{
	oib_uverbs_event_file_stop(ef, NULL, OIB_UVERBS_EF_CLOSED);
	oib_uverbs_event_file_put(ef);
}
EXPORT_SYMBOL_IF_KUNIT(oib_uverbs_event_file_close);

/* The file goes: if it is its queue's, drop what is queued and refuse new events. */
static int oib_uverbs_event_release(struct inode *inode, struct file *filp)
{
	struct oib_uverbs_event_file *ef = filp->private_data;

	oib_uverbs_event_file_stop(ef, filp, OIB_UVERBS_EF_CLOSED);
	oib_uverbs_event_file_put(ef);
	return 0;
}

#if IS_ENABLED(CONFIG_KUNIT)
/* Take the oldest event as read() would, into @out; false if there is none. */
bool oib_uverbs_test_event_take(struct oib_uverbs_event_file *ef, struct oib_uverbs_event *out)
{
	struct oib_uverbs_qevent *ev = oib_uverbs_event_take(ef);

	if (!ev)
		return false;
	*out = ev->desc;
	kfree(ev);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(oib_uverbs_test_event_take);
#endif /* CONFIG_KUNIT */

static const struct file_operations oib_uverbs_event_fops = {
	.owner = THIS_MODULE,
	.read = oib_uverbs_event_read,
	.poll = oib_uverbs_event_poll,
	.release = oib_uverbs_event_release,
};

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_uverbs internals for its KUnit suites only: exported with EXPORT_SYMBOL_IF_KUNIT (namespace
 * EXPORTED_FOR_KUNIT_TESTING) when the kernel has KUnit, absent otherwise.  Never for ULPs.
 *
 * Contexts without a struct file, on which the commands' handlers run as an ioctl runs them
 * (kernel copies of the command structs: no user memory, no file descriptors); the handle table
 * as ioctls hold objects; and event files without a file, with their queue.
 */
#ifndef OIB_KUNIT_UVERBS_H
#define OIB_KUNIT_UVERBS_H

#include <linux/list.h>
#include <oib/device.h>
#include <uapi/oib/uverbs.h>

struct oib_uverbs_file;
struct oib_uverbs_event_file;

/* A context on @device (oib_uverbs must have been added to it), or an ERR_PTR. */
struct oib_uverbs_file *oib_uverbs_test_open(struct oib_device *device);
/* What the context's last close does: teardown, then the file's reference dropped. */
void oib_uverbs_test_close(struct oib_uverbs_file *ufile);
unsigned int oib_uverbs_test_nobjects(struct oib_uverbs_file *ufile);
/* Command @nr (enum oib_uverbs_cmd_nr) on @cmd; -EIO once the context is torn down. */
int oib_uverbs_test_cmd(struct oib_uverbs_file *ufile, unsigned int nr, void *cmd);
/* Hold the object @handle as an ioctl that uses it does (0 or -errno); release it. */
int oib_uverbs_test_hold(struct oib_uverbs_file *ufile, u32 handle);
void oib_uverbs_test_release(struct oib_uverbs_file *ufile, u32 handle);

/* The kernel's mapping of the ring at mmap offset @offset of the context, or NULL. */
void *oib_uverbs_test_ring(struct oib_uverbs_file *ufile, u64 offset);

/*
 * A pull from the receive source of the QP or SRQ @handle (a mapped receive ring), as its
 * provider makes one: 1, 0 or -errno (struct oib_recv_source); -ENOENT without a source.
 */
int oib_uverbs_test_pull(struct oib_uverbs_file *ufile, u32 handle, struct oib_recv_wr *wr,
			 struct oib_sge *sge, u32 max_sge, u32 flags);

/* The context's async event file, made without a file (the context owns it), or an ERR_PTR. */
struct oib_uverbs_event_file *oib_uverbs_test_async(struct oib_uverbs_file *ufile);

/* An event file with no file and no owner; closing it is what its file's release does. */
struct oib_uverbs_event_file *oib_uverbs_event_file_alloc(struct oib_uverbs_file *owner);
void oib_uverbs_event_file_close(struct oib_uverbs_event_file *ef);
/* Queue an event of an object (@obj_list: its unread events, @counter: its events read). */
void oib_uverbs_event_queue(struct oib_uverbs_event_file *ef, struct list_head *obj_list,
			    u32 *counter, const struct oib_uverbs_event *desc);
/* Drop the object's unread events; returns *@counter. */
u32 oib_uverbs_event_drop_unread(struct oib_uverbs_event_file *ef, struct list_head *obj_list,
				 u32 *counter);
/* Read the oldest event as read() does; false if there is none. */
bool oib_uverbs_test_event_take(struct oib_uverbs_event_file *ef, struct oib_uverbs_event *out);

#endif /* OIB_KUNIT_UVERBS_H */

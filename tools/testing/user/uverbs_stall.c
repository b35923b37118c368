// SPDX-License-Identifier: GPL-2.0-only
/*
 * A command whose copy of user memory stalls must not hold up the device's removal: the page
 * is under userfaultfd here, as a page of a FUSE file would be, and the kernel copies such memory
 * outside the context's lock (drivers/infiniband/uverbs/uverbs.h).  For POST_SEND's requests and
 * REG_MR's pages: a thread's command stalls on a missing page, the device is removed (done
 * within STALL_REMOVE_MS while the page is still missing), then the page is supplied and the
 * command ends with EIO.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/userfaultfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include "ktap.h"
#include "uverbs_uabi.h"
#include "uverbs_util.h"

#define STALL_REMOVE_MS	10000

struct stall {
	int fd;			/* the context's */
	unsigned int nr;
	union {
		struct oib_uverbs_post post;
		struct oib_uverbs_reg_mr reg_mr;
	} cmd;
	uint32_t size;
	int err;		/* the command's errno */
};

static void *stall_cmd(void *arg)
{
	struct stall *s = arg;

	s->err = raw_cmd(s->fd, s->nr, &s->cmd, s->size);
	return NULL;
}

static void *stall_remove(void *arg)
{
	*(bool *)arg = remove_device();
	return NULL;
}

/* @len bytes of anonymous memory whose pages userfaultfd @*ufd must supply; NULL on failure. */
static char *missing_pages(size_t len, int *ufd)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	char *area;

	*ufd = syscall(SYS_userfaultfd, O_CLOEXEC);
	if (!CHECK(*ufd >= 0) || !CHECK(!ioctl(*ufd, UFFDIO_API, &api)))
		return NULL;
	area = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!CHECK(area != MAP_FAILED))
		return NULL;
	reg.range.start = (uintptr_t)area;
	reg.range.len = len;
	return CHECK(!ioctl(*ufd, UFFDIO_REGISTER, &reg)) ? area : NULL;
}

/* Command @s on a thread, stalled on @ufd's page, and the device removed: whether in time. */
static bool stall_and_remove(struct stall *s, int ufd, long page)
{
	struct uffdio_zeropage zp = { 0 };
	struct pollfd pfd = { .fd = ufd, .events = POLLIN };
	struct uffd_msg msg;
	pthread_t cmd, rm;
	struct timespec by;
	bool removed = false, in_time;

	if (!CHECK(!pthread_create(&cmd, NULL, stall_cmd, s)))
		return false;
	in_time = CHECK(poll(&pfd, 1, STALL_REMOVE_MS) == 1) &&
		  CHECK(read(ufd, &msg, sizeof(msg)) == sizeof(msg)) &&
		  CHECK(msg.event == UFFD_EVENT_PAGEFAULT);
	if (in_time) {		/* the command waits on the page: remove the device */
		clock_gettime(CLOCK_REALTIME, &by);
		by.tv_sec += STALL_REMOVE_MS / 1000;
		in_time = CHECK(!pthread_create(&rm, NULL, stall_remove, &removed)) &&
			  CHECK(!pthread_timedjoin_np(rm, NULL, &by));
		zp.range.start = msg.arg.pagefault.address & ~(page - 1);
		zp.range.len = page;
		CHECK(!ioctl(ufd, UFFDIO_ZEROPAGE, &zp));
		if (!in_time)
			pthread_join(rm, NULL);
	}
	pthread_join(cmd, NULL);
	if (s->err != EIO)
		diag("the stalled command: %s", strerror(s->err));
	return in_time && CHECK(removed) && CHECK(s->err == EIO);
}

static bool stall_one(unsigned int nr)
{
	struct oibv_device *dev = test_dev;
	long page = sysconf(_SC_PAGESIZE);
	struct stall s = { .nr = nr };
	char ibdev[64];
	struct pair p = { 0 };
	char *area;
	bool ok;
	int ufd;

	snprintf(ibdev, sizeof(ibdev), "%s", test_ibdev);
	if (!CHECK(setup_device()))
		return false;
	ok = CHECK(p.ctx = oibv_open_device(test_dev)) && pair_setup_qps(&p, p.ctx, OIBV_QPT_RC) &&
	     (area = missing_pages(2 * page, &ufd));
	if (ok) {
		s.fd = p.ctx->cmd_fd;
		if (nr == OIB_UVERBS_POST_SEND) {
			s.cmd.post = (struct oib_uverbs_post){ .handle = p.a->handle, .count = 1,
							       .wrs = (uintptr_t)area };
			s.size = sizeof(s.cmd.post);
		} else {
			s.cmd.reg_mr = (struct oib_uverbs_reg_mr){
				.addr = (uintptr_t)area, .length = page, .pd_handle = p.pd->handle,
				.access = OIB_UVERBS_ACCESS_LOCAL_WRITE,
			};
			s.size = sizeof(s.cmd.reg_mr);
		}
		ok = stall_and_remove(&s, ufd, page);
		close(ufd);
		munmap(area, 2 * page);
	}
	/* the device is gone with the context's objects: its files are all that is left */
	if (p.ctx) {
		pair_unmap(&p);
		close(p.ctx->async_fd);
		close(p.ctx->cmd_fd);
	}
	test_dev = dev;
	snprintf(test_ibdev, sizeof(test_ibdev), "%s", ibdev);
	return ok;
}

bool t_removal_under_stalled_copy(void)
{
	bool ok = stall_one(OIB_UVERBS_POST_SEND);

	return stall_one(OIB_UVERBS_REG_MR) && ok;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_uverbs_uabi: the user ABI's lifetime and permission rules that issue 33 found broken, each
 * case failing on a kernel without its fix:
 *  - the async event file asked for again after an answer that could not be copied out;
 *  - DESTROY_QP racing GET_ASYNC_FD and the QP's own event (uverbs_async_race.c);
 *  - an XRC domain's file keeps its mount busy: umount is -EBUSY while the domain is open, and
 *    a lazy umount leaves the superblock alive until the domain's close;
 *  - who may name a domain by a file (Documentation/xrc.md), across two uids, and fds that name
 *    no domain;
 *  - a process's rings are charged to its memory cgroup, and uncharged when they go;
 *  - a command stalled in a copy of user memory does not hold up the device's removal
 *    (uverbs_stall.c).
 * Prints KTAP (suite oib_uverbs_uabi).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "ktap.h"
#include "uverbs_util.h"
#include "uverbs_uabi.h"
#include "uverbs_xrc.h"

/* uverbs_xrc_util.c's: both ends on the one device here. */
struct oibv_device *tx_dev;
char tx_ibdev[64];
union oibv_gid rx_gid, tx_gid;
struct oibv_context *rx_ctx, *tx_ctx;

#define OWNER_UID	1001	/* owns the domain's file */
#define OTHER_UID	1002	/* may read it */

struct oibv_context *ctx_without_async(struct oibv_device *dev)
{
	struct oib_uverbs_query_device qd = { 0 };
	struct oibv_context *ctx = calloc(1, sizeof(*ctx));

	if (!ctx)
		return NULL;
	ctx->device = dev;
	ctx->async_fd = -1;
	pthread_mutex_init(&ctx->rings_lock, NULL);
	ctx->cmd_fd = open(dev->dev_path, O_RDWR | O_CLOEXEC);
	if (ctx->cmd_fd < 0 || raw_cmd(ctx->cmd_fd, OIB_UVERBS_QUERY_DEVICE, &qd, sizeof(qd))) {
		if (ctx->cmd_fd >= 0)
			close(ctx->cmd_fd);
		free(ctx);
		return NULL;
	}
	ctx->num_comp_vectors = qd.num_comp_vectors;
	return ctx;
}

/* The device, and its node: root's, 0600 (the administrator opens it to users). */
static bool t_device(void)
{
	struct stat st;

	if (!CHECK(setup_device()) || !CHECK(!stat(test_dev->dev_path, &st)) ||
	    !CHECK((st.st_mode & 07777) == 0600) || !CHECK(st.st_uid == 0))
		return false;
	tx_dev = test_dev;
	snprintf(tx_ibdev, sizeof(tx_ibdev), "%s", test_ibdev);
	rx_ctx = oibv_open_device(test_dev);
	tx_ctx = rx_ctx;
	if (!CHECK(rx_ctx) || !CHECK(!oibv_query_gid(rx_ctx, 1, 0, &rx_gid)))
		return false;
	tx_gid = rx_gid;
	return CHECK(xrcd_files() == 0);
}

/* The open file descriptors of this process. */
static int fds_open(void)
{
	char path[64];
	int fd, n = 0;

	for (fd = 0; fd < 1024; fd++) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		n += !access(path, F_OK);
	}
	return n;
}

/*
 * GET_ASYNC_FD whose answer cannot be copied out (the command in a read-only page): -EFAULT, no
 * fd left behind, and the next call gives the file, which carries the context's events.
 */
static bool t_async_failed_copy(void)
{
	struct oibv_context *ctx = ctx_without_async(test_dev);
	struct oib_uverbs_new_fd c = { 0 }, *ro;
	struct oibv_async_event ev;
	struct oibv_cq *cq;
	struct pair p;
	int fds;
	bool ok;

	ro = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!CHECK(ctx) || !CHECK(ro != MAP_FAILED))
		return false;
	ro->hdr.size = sizeof(*ro);
	fds = fds_open();
	ok = CHECK(!mprotect(ro, 4096, PROT_READ)) &&
	     CHECK(ioctl(ctx->cmd_fd, OIB_UVERBS_IOC(OIB_UVERBS_GET_ASYNC_FD), ro) == -1) &&
	     CHECK(errno == EFAULT) && CHECK(fds_open() == fds);
	ok = ok && CHECK(!raw_cmd(ctx->cmd_fd, OIB_UVERBS_GET_ASYNC_FD, &c, sizeof(c)));
	ctx->async_fd = ok ? c.fd : -1;
	c.fd = 0;
	ok = ok && CHECK_ERR(raw_cmd(ctx->cmd_fd, OIB_UVERBS_GET_ASYNC_FD, &c, sizeof(c)), EEXIST);
	/* a CQ overrun (uverbs' own test of it): its event comes through the new file */
	cq = ok ? oibv_create_cq(ctx, 1, NULL, NULL, 0) : NULL;
	ok = ok && CHECK(cq) && pair_setup(&p, ctx, OIBV_QPT_RC, cq, cq);
	ok = ok && pair_send(&p, 8, 0, 1) && pair_send(&p, 8, 0, 2) &&
	     CHECK(readable(ctx->async_fd, 10000)) && CHECK(!oibv_get_async_event(ctx, &ev)) &&
	     CHECK(ev.event_type == OIBV_EVENT_CQ_ERR) && CHECK(ev.element.cq == cq);
	if (ok)
		oibv_ack_async_event(&ev);
	if (cq) {
		pair_teardown_cqs(&p, false);
		ok = CHECK(!oibv_destroy_cq(cq)) && ok;
	}
	munmap(ro, 4096);
	return CHECK(!oibv_close_device(ctx)) && ok && CHECK(objects_back_to(base_objects));
}

/* A fresh tmpfs at @dir (made), with the file @dir/domain open read-write: its fd, or -1. */
static int tmpfs_domain_file(const char *dir)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/domain", dir);
	if (!CHECK(!mkdir(dir, 0700) || errno == EEXIST) ||
	    !CHECK(!mount("oib_xrcd", dir, "tmpfs", 0, "size=64k")))
		return -1;
	return open(path, O_RDWR | O_CREAT, 0600);
}

/*
 * A domain opened through a file on a tmpfs, the file closed: the mount stays busy while the
 * domain is open (umount -EBUSY, as with an open file), and is free after its close.
 */
static bool t_domain_unmount(void)
{
	char dir[64];
	struct oibv_xrcd *d;
	int fd;
	bool ok;

	snprintf(dir, sizeof(dir), "/tmp/oib_xrcd_mnt.%d", (int)getpid());
	fd = tmpfs_domain_file(dir);
	d = fd >= 0 ? oibv_open_xrcd(rx_ctx, fd, O_CREAT) : NULL;
	ok = CHECK(d) && CHECK(xrcd_files() == 1);
	if (fd >= 0)
		close(fd);
	ok = ok && CHECK_ERR(umount(dir), EBUSY);
	ok = ok && CHECK(!oibv_close_xrcd(d)) && CHECK(xrcd_files() == 0);
	ok = CHECK(!umount(dir)) && ok;
	rmdir(dir);
	return ok;
}

/*
 * The same with a lazy umount: it detaches the mount at once, and the superblock goes with the
 * domain's close (the log and KASAN checks see that it goes cleanly).
 */
static bool t_domain_lazy_unmount(void)
{
	char dir[64];
	struct oibv_xrcd *d;
	uint32_t qpn = 0;
	int fd;
	bool ok;

	snprintf(dir, sizeof(dir), "/tmp/oib_xrcd_lazy.%d", (int)getpid());
	fd = tmpfs_domain_file(dir);
	d = fd >= 0 ? oibv_open_xrcd(rx_ctx, fd, O_CREAT) : NULL;
	ok = CHECK(d) && CHECK(!rcv_qp_make(d, 1, &qpn));
	if (fd >= 0)
		close(fd);
	ok = CHECK(!umount2(dir, MNT_DETACH)) && ok;
	ok = ok && CHECK(rcv_qp_listed(qpn) == 1) && CHECK(!oibv_close_xrcd(d));
	rmdir(dir);
	return ok && CHECK(xrc_state_is(0, qpn, false)) && CHECK(objects_back_to(base_objects));
}

/* Become @uid (group @uid, no other) for good: no capability is left. */
static bool become(uid_t uid)
{
	return !setgroups(0, NULL) && !setresgid(uid, uid, uid) && !setresuid(uid, uid, uid);
}

/*
 * In a child that becomes @uid after opening its context (the device node is root's): open
 * @path with @flags and the domain with @oflags; the child's exit status is the errno of
 * OPEN_XRCD (0 if it opened, and then it also registers @qpn, which only the same domain has:
 * status 100 if that fails).
 */
static int open_as(uid_t uid, const char *path, int flags, int oflags, uint32_t qpn)
{
	pid_t pid = fork();
	int st;

	if (!pid) {
		struct oibv_context *c = oibv_open_device(test_dev);
		struct oibv_xrcd *d;
		int fd;

		if (!c || !become(uid))
			_exit(101);
		fd = open(path, flags, 0600);
		if (fd < 0)
			_exit(102);
		d = oibv_open_xrcd(c, fd, oflags);
		if (!d)
			_exit(errno);
		_exit(qpn && oibv_reg_xrc_rcv_qp(d, qpn) ? 100 : 0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/*
 * Who may name a domain by a file: its owner (even through a read-only fd), and anyone through
 * an fd open for writing; not one who may only read it, to join the domain or to make it, nor
 * one who may write it but opened it read-only.
 */
static bool t_domain_permissions(void)
{
	char dir[64], path[96], mine[96];
	struct oibv_xrcd *d;
	uint32_t qpn = 0;
	int fd;
	bool ok;

	snprintf(dir, sizeof(dir), "/tmp/oib_xrcd_perm.%d", (int)getpid());
	snprintf(path, sizeof(path), "%s/domain", dir);
	snprintf(mine, sizeof(mine), "%s/other", dir);
	ok = CHECK(!mkdir(dir, 01777) && !chmod(dir, 01777));
	fd = ok ? open(path, O_RDWR | O_CREAT | O_EXCL, 0644) : -1;
	ok = CHECK(fd >= 0) && CHECK(!fchown(fd, OWNER_UID, OWNER_UID));
	/* only a reader: neither makes the domain nor, once made, joins it */
	ok = ok && CHECK(open_as(OTHER_UID, path, O_RDONLY, O_CREAT, 0) == EACCES) &&
	     CHECK(xrcd_files() == 0);
	d = ok ? oibv_open_xrcd(rx_ctx, fd, O_CREAT) : NULL;
	ok = ok && CHECK(d) && CHECK(!rcv_qp_make(d, 1, &qpn));
	ok = ok && CHECK(open_as(OTHER_UID, path, O_RDONLY, 0, qpn) == EACCES);
	/* the owner, through a read-only fd: the same domain */
	ok = ok && CHECK(open_as(OWNER_UID, path, O_RDONLY, 0, qpn) == 0);
	/* the other user's own file: a domain of its own */
	ok = ok && CHECK(open_as(OTHER_UID, mine, O_RDWR | O_CREAT, O_CREAT, 0) == 0);
	/* an fd open for writing is enough; the permission to open one is not */
	ok = ok && CHECK(!fchmod(fd, 0666)) &&
	     CHECK(open_as(OTHER_UID, path, O_RDONLY, 0, qpn) == EACCES) &&
	     CHECK(open_as(OTHER_UID, path, O_RDWR, 0, qpn) == 0) &&
	     CHECK(!fchmod(fd, 0622)) &&
	     CHECK(open_as(OTHER_UID, path, O_WRONLY, 0, qpn) == 0);
	ok = ok && CHECK(xrc_state_is(1, qpn, true)) && CHECK(!oibv_close_xrcd(d));
	if (fd >= 0)
		close(fd);
	unlink(path);
	unlink(mine);
	rmdir(dir);
	return ok && CHECK(xrc_state_is(0, qpn, false)) && CHECK(objects_back_to(base_objects));
}

/* An fd that names no domain: -EINVAL for anyone, O_CREAT or not. */
static bool no_domain(int fd, const char *what)
{
	bool ok = CHECK(fd >= 0) && CHECK(!oibv_open_xrcd(rx_ctx, fd, O_CREAT)) &&
		  CHECK(errno == EINVAL) && CHECK(!oibv_open_xrcd(rx_ctx, fd, 0)) &&
		  CHECK(errno == EINVAL);

	if (!ok)
		diag("%s", what);
	if (fd >= 0)
		close(fd);
	return ok;
}

/*
 * Anonymous inodes (one for every eventfd, epoll or event file: all would be one domain), pipes,
 * sockets, directories and the device itself name no domain.
 */
static bool t_domain_not_regular(void)
{
	int pfd[2] = { -1, -1 };
	bool ok;

	ok = no_domain(eventfd(0, EFD_CLOEXEC), "eventfd") &&
	     no_domain(dup(rx_ctx->async_fd), "async event file") &&
	     no_domain(socket(AF_UNIX, SOCK_STREAM, 0), "socket") &&
	     no_domain(open("/tmp", O_RDONLY | O_DIRECTORY), "directory") &&
	     no_domain(dup(rx_ctx->cmd_fd), "the device");
	ok = ok && CHECK(!pipe(pfd)) && no_domain(pfd[0], "pipe");
	if (pfd[1] >= 0)
		close(pfd[1]);
	return ok && CHECK(xrcd_files() == 0);
}

#define CGROOT	"/sys/fs/cgroup"
#define CGDIR	CGROOT "/oib_uabi"

static bool put_str(const char *path, const char *v)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	bool ok = fd >= 0 && write(fd, v, strlen(v)) == (ssize_t)strlen(v);

	if (fd >= 0)
		close(fd);
	return ok;
}

static long long cg_current(void)
{
	char b[32] = "";
	int fd = open(CGDIR "/memory.current", O_RDONLY | O_CLOEXEC);
	ssize_t r = fd >= 0 ? read(fd, b, sizeof(b) - 1) : -1;

	if (fd >= 0)
		close(fd);
	return r > 0 ? atoll(b) : -1;
}

/*
 * In a child moved into CGDIR: a CQ's ring raises the group's memory.current by its size, and its
 * destroy lowers it again.
 */
static int cg_child(void)
{
	struct oibv_context *ctx;
	struct oibv_cq *cq;
	long long before, with, after;
	char pid[16];

	snprintf(pid, sizeof(pid), "%d", getpid());
	if (!put_str(CGDIR "/cgroup.procs", pid))
		return 2;
	ctx = oibv_open_device(test_dev);
	if (!ctx)
		return 3;
	before = cg_current();
	cq = oibv_create_cq(ctx, 65536, NULL, NULL, 0);
	if (!cq)
		return 4;
	with = cg_current();
	diag("memory.current %lld, with a CQ of %zu ring bytes %lld", before, cq->ring.size, with);
	/* less a batch the cgroup may have charged ahead (64 pages a CPU) */
	if (cq->ring.size < (2u << 20) || with - before < (long long)cq->ring.size - (512 << 10))
		return 5;
	if (oibv_destroy_cq(cq))
		return 6;
	after = cg_current();
	diag("after its destroy %lld", after);
	if (with - after < (long long)cq->ring.size / 2)
		return 7;
	return oibv_close_device(ctx) ? 8 : 0;
}

static bool t_memcg_charged(void)
{
	int status = -1;
	pid_t pid;

	mkdir(CGROOT, 0755);
	if (access(CGROOT "/cgroup.controllers", F_OK))
		CHECK(!mount("cgroup2", CGROOT, "cgroup2", 0, NULL));
	if (!CHECK(put_str(CGROOT "/cgroup.subtree_control", "+memory")) ||
	    !CHECK(!mkdir(CGDIR, 0755) || errno == EEXIST))
		return false;
	pid = fork();
	if (!pid)
		_exit(cg_child());
	if (!CHECK(pid > 0) || !CHECK(waitpid(pid, &status, 0) == pid))
		return false;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		diag("child: status %#x", status);
	return CHECK(WIFEXITED(status) && !WEXITSTATUS(status)) && CHECK(!rmdir(CGDIR));
}

static bool t_cleanup(void)
{
	bool ok = CHECK(!oibv_close_device(rx_ctx)) && CHECK(objects_back_to(base_objects));

	return CHECK(remove_device()) && ok;
}

static const struct ktap_case cases[] = {
	{ "device", t_device },
	{ "async_failed_copy", t_async_failed_copy },
	{ "async_destroy_race", t_async_destroy_race },
	{ "domain_unmount", t_domain_unmount },
	{ "domain_lazy_unmount", t_domain_lazy_unmount },
	{ "domain_permissions", t_domain_permissions },
	{ "domain_not_regular", t_domain_not_regular },
	{ "memcg_charged", t_memcg_charged },
	{ "removal_under_stalled_copy", t_removal_under_stalled_copy },
	{ "cleanup", t_cleanup },
};

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	return ktap_run("oib_uverbs_uabi", cases, sizeof(cases) / sizeof(cases[0]));
}

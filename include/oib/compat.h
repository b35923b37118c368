/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What differs between the kernels oib builds against (the 6.12 test kernel and Debian 12's
 * stock 6.1), in one place (Documentation/architecture.md).  Features, not versions: a Kbuild
 * that needs one tests the kernel's headers for it and defines OIB_HAVE_*.
 */
#ifndef OIB_COMPAT_H
#define OIB_COMPAT_H

#include <linux/socket.h>

/*
 * proto_ops.accept: a struct proto_accept_arg (6.10 on), or the flags and kern as arguments
 * (OIB_HAVE_PROTO_ACCEPT_ARG: include/linux/net.h names the struct).
 */
#ifdef OIB_HAVE_PROTO_ACCEPT_ARG
#define OIB_PROTO_ACCEPT_ARGS	struct socket *sock, struct socket *newsock, \
				struct proto_accept_arg *arg
#define OIB_PROTO_ACCEPT_FLAGS	(arg->flags)
#else
#define OIB_PROTO_ACCEPT_ARGS	struct socket *sock, struct socket *newsock, int flags, bool kern
#define OIB_PROTO_ACCEPT_FLAGS	(flags)
#endif

/* sendmsg()'s flag for sendfile and splice's pages (6.5 on); 0 where pages came another way. */
#ifndef MSG_SPLICE_PAGES
#define MSG_SPLICE_PAGES	0
#endif

#endif /* OIB_COMPAT_H */

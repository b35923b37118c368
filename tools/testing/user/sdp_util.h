/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What oib_sdp_user's tests share: two oib_rxe devices on one fabric with an IPv4 and an IPv6
 * address each, SDP sockets between them, a byte pattern to check transfers by, waiting.
 */
#ifndef OIB_SDP_UTIL_H
#define OIB_SDP_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define AF_INET_SDP	27
#define AF_INET6_SDP	28
#define SDP_ZCOPY_THRESH	80	/* SOL_TCP options, as OFED numbered them */
#define SDP_LAST_BIND_ERR	81

/* The client's device has host 1 (10.35.0.1, fd35::1), the server's host 2. */
#define SDP_HOST_CLIENT	1
#define SDP_HOST_SERVER	2

bool sdp_setup_devices(void);
bool sdp_remove_devices(void);

/* @host's address (0: the wildcard; 99: one no device has) and @port, as sockaddr_in(6). */
socklen_t sdp_addr(struct sockaddr_storage *ss, bool v6, int host, uint16_t port);
int sdp_socket(bool v6);
/* A listener on the server's address and @port (0: one picked; *@port is set). */
int sdp_listener(bool v6, uint16_t *port, int backlog);
/* A client connected to the server's @port, and the listener's side of it: false on failure. */
bool sdp_pair(bool v6, int lfd, uint16_t port, int *cfd, int *afd);
/* The same, both ends' SO_RCVBUF and SO_SNDBUF @bytes first (0: as they are). */
bool sdp_pair_bufs(bool v6, int lfd, uint16_t port, int bytes, int *cfd, int *afd);
/* listen, connect and accept on a port of its own (buffers as above); the listener closed. */
bool sdp_pair_new(bool v6, int *cfd, int *afd);
bool sdp_pair_new_bufs(bool v6, int bytes, int *cfd, int *afd);
void sdp_close_pair(int cfd, int afd);

/* The pattern byte at @off of stream @seed; fill or check @len bytes of it from @off. */
uint8_t pattern_byte(uint32_t seed, uint64_t off);
void pattern_fill(void *buf, size_t len, uint32_t seed, uint64_t off);
/* The first offset (from @off) where @buf differs from the pattern, or -1. */
int64_t pattern_check(const void *buf, size_t len, uint32_t seed, uint64_t off);

/* Write @len bytes of stream @seed (in @chunk pieces) / read and check them; false on error. */
bool send_stream(int fd, uint64_t len, uint32_t seed, size_t chunk);
bool recv_stream(int fd, uint64_t len, uint32_t seed, size_t chunk);

/* poll() for @events, @ms at most: the revents, 0 on timeout. */
int wait_events(int fd, short events, int ms);
int64_t now_ms(void);
/* Bytes waiting (SIOCINQ); -1 on error. */
int inq(int fd);
/* Wait (10 s at most) until SIOCINQ says @n bytes are there. */
bool wait_inq(int fd, int n);
/* The SDP module's counter @name from debugfs; -1 if missing. */
long long sdp_counter(const char *name);

#endif /* OIB_SDP_UTIL_H */

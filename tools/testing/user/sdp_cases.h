/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_sdp_user's test cases, one file per concept: sdp_calls.c, sdp_data.c, sdp_poll.c,
 * sdp_opts.c, sdp_coalesce.c, sdp_faults.c.
 */
#ifndef OIB_SDP_CASES_H
#define OIB_SDP_CASES_H

#include <stdbool.h>

bool t_socket(void);
bool t_bind_listen(void);
bool t_connect_refused(void);
bool t_connect_nonblocking(void);
bool t_names(void);
bool t_shutdown(void);
bool t_close(void);
bool t_ioctls(void);

bool t_transfer_sizes(void);
bool t_iovecs(void);
bool t_sendfile_splice(void);
bool t_two_processes(void);
bool t_peer_killed(void);
bool t_close_in_flight(void);
bool t_many_connections(void);

bool t_poll_select(void);
bool t_epoll(void);
bool t_epoll_stream(void);

bool t_rcvbuf(void);
bool t_sndbuf(void);
bool t_tcp_options(void);
bool t_last_bind_err(void);
bool t_reuseaddr(void);
bool t_keepalive(void);

bool t_coalesce_nagle(void);
bool t_coalesce_nodelay(void);
bool t_coalesce_cork(void);
bool t_coalesce_more(void);
bool t_coalesce_updates(void);

bool t_frame_loss(void);
bool t_device_removed(void);

#endif /* OIB_SDP_CASES_H */

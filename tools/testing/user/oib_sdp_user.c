// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_sdp_user: SDP sockets (AF_INET_SDP 27, AF_INET6_SDP 28; Documentation/sdp.md) from user
 * space as a TCP program uses them, between two oib_rxe devices of one fabric: every call with
 * its errors (sdp_calls.c), data of 1 B to 16 MiB checked byte for byte, in one process and in
 * two, a killed peer, a few hundred connections (sdp_data.c), readiness by poll, select and
 * epoll (sdp_poll.c), the socket options (sdp_opts.c), small writes sharing messages
 * (sdp_coalesce.c), frames lost and the devices removed (sdp_faults.c).  A KTAP suite of its
 * own; make check runs it in the guest.
 */
#include <signal.h>
#include <unistd.h>
#include "ktap.h"
#include "sdp_cases.h"
#include "sdp_util.h"

static bool t_setup(void)
{
	return sdp_setup_devices();
}

static bool t_teardown(void)
{
	return sdp_remove_devices();
}

static const struct ktap_case cases[] = {
	{ "setup", t_setup },
	{ "socket", t_socket },
	{ "bind_listen", t_bind_listen },
	{ "connect_refused", t_connect_refused },
	{ "connect_nonblocking", t_connect_nonblocking },
	{ "names", t_names },
	{ "shutdown", t_shutdown },
	{ "close", t_close },
	{ "ioctls", t_ioctls },
	{ "transfer_sizes", t_transfer_sizes },
	{ "iovecs", t_iovecs },
	{ "sendfile_splice", t_sendfile_splice },
	{ "two_processes", t_two_processes },
	{ "peer_killed", t_peer_killed },
	{ "close_in_flight", t_close_in_flight },
	{ "poll_select", t_poll_select },
	{ "epoll", t_epoll },
	{ "epoll_stream", t_epoll_stream },
	{ "rcvbuf", t_rcvbuf },
	{ "sndbuf", t_sndbuf },
	{ "tcp_options", t_tcp_options },
	{ "last_bind_err", t_last_bind_err },
	{ "reuseaddr", t_reuseaddr },
	{ "keepalive", t_keepalive },
	{ "coalesce_nagle", t_coalesce_nagle },
	{ "coalesce_nodelay", t_coalesce_nodelay },
	{ "coalesce_cork", t_coalesce_cork },
	{ "coalesce_more", t_coalesce_more },
	{ "coalesce_updates", t_coalesce_updates },
	{ "many_connections", t_many_connections },
	{ "frame_loss", t_frame_loss },
	{ "device_removed", t_device_removed },
	{ "teardown", t_teardown },
};

#define NCASES	(sizeof(cases) / sizeof(cases[0]))

static unsigned int current;	/* the case ktap_run() runs now: they run in order */

/* Each case, and how long it took (make check's time budget is the sum). */
static bool timed(void)
{
	int64_t t = now_ms();
	bool ok = cases[current].run();

	diag("%s: %lld ms", cases[current++].name, (long long)(now_ms() - t));
	return ok;
}

int main(void)
{
	struct ktap_case run[NCASES];
	unsigned int i;

	for (i = 0; i < NCASES; i++)
		run[i] = (struct ktap_case){ cases[i].name, timed };
	signal(SIGPIPE, SIG_IGN);
	alarm(480);	/* a case that hangs ends the suite short: its failures counted */
	return ktap_run("oib_sdp_user", run, NCASES);
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libsdp's policy: which of a program's TCP sockets go over SDP.  A policy file holds rules in
 * OFED libsdp's grammar, one a line ('#' starts a comment):
 *
 *   use sdp|tcp|both server|client|both PROGRAM ADDRESS[/BITS]:PORT[-PORT]
 *
 * "server" rules apply to listen(), "client" rules to connect(); PROGRAM is a shell pattern of
 * the program's name; ADDRESS is an IPv4 address, an IPv6 one in brackets ([fd00::]/8) or *; PORT
 * a port, a range or *.  The first rule that matches decides; none: TCP.
 */
#ifndef SDP_POLICY_H
#define SDP_POLICY_H

#include <stdbool.h>
#include <sys/socket.h>

enum sdp_use {
	SDP_USE_TCP,		/* leave the socket as it is */
	SDP_USE_SDP,		/* SDP only */
	SDP_USE_BOTH,		/* client: SDP, else TCP where SDP has no path; server: both */
};

enum sdp_role {
	SDP_ROLE_SERVER = 1,
	SDP_ROLE_CLIENT = 2,
};

/* Parse a policy file's text; rules replace any before.  -1 and *@line set on a bad line. */
int sdp_policy_parse(const char *text, int *line);
/* The rules: every socket @use in both roles (the environment's simple mode). */
void sdp_policy_all(enum sdp_use server, enum sdp_use client);
/* What @prog's @role on @addr (sockaddr_in or sockaddr_in6) should use. */
enum sdp_use sdp_policy_match(enum sdp_role role, const char *prog, const struct sockaddr *addr);
const char *sdp_use_name(enum sdp_use use);

#endif /* SDP_POLICY_H */

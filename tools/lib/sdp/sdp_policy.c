// SPDX-License-Identifier: GPL-2.0-only
/* libsdp's policy file: its rules parsed and matched (sdp_policy.h has the grammar). */
#include <arpa/inet.h>
#include <fnmatch.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sdp_policy.h"

#define MAX_RULES	256

struct rule {
	enum sdp_use use;
	int roles;			/* enum sdp_role bits */
	char prog[64];			/* a shell pattern */
	int family;			/* AF_INET, AF_INET6, or 0: any address */
	unsigned char addr[16];
	int bits;
	unsigned int port_lo, port_hi;
};

static struct rule rules[MAX_RULES];
static int nrules;

const char *sdp_use_name(enum sdp_use use)
{
	return use == SDP_USE_SDP ? "sdp" : use == SDP_USE_BOTH ? "both" : "tcp";
}

void sdp_policy_all(enum sdp_use server, enum sdp_use client)
{
	rules[0] = (struct rule){ .use = server, .roles = SDP_ROLE_SERVER, .prog = "*",
				  .port_hi = 65535 };
	rules[1] = (struct rule){ .use = client, .roles = SDP_ROLE_CLIENT, .prog = "*",
				  .port_hi = 65535 };
	nrules = 2;
}

/* PORT, LO-HI or *: 0 or -1. */
static int parse_ports(const char *s, struct rule *r)
{
	char *end;
	long lo, hi;

	if (!strcmp(s, "*")) {
		r->port_lo = 0;
		r->port_hi = 65535;
		return 0;
	}
	lo = strtol(s, &end, 10);
	hi = lo;
	if (*end == '-')
		hi = strtol(end + 1, &end, 10);
	if (end == s || *end || lo < 0 || hi > 65535 || lo > hi)
		return -1;
	r->port_lo = lo;
	r->port_hi = hi;
	return 0;
}

/* ADDRESS[/BITS] (IPv6 in brackets) or *: 0 or -1. */
static int parse_addr(char *s, struct rule *r)
{
	char *bits = NULL, *end;
	int max;

	r->family = 0;
	if (!strcmp(s, "*"))
		return 0;
	if (*s == '[') {
		end = strchr(s, ']');
		if (!end || (end[1] && end[1] != '/'))
			return -1;
		*end = '\0';
		bits = end[1] ? end + 2 : NULL;
		s++;
		r->family = AF_INET6;
	} else {
		end = strchr(s, '/');
		if (end) {
			*end = '\0';
			bits = end + 1;
		}
		r->family = AF_INET;
	}
	max = r->family == AF_INET ? 32 : 128;
	if (inet_pton(r->family, s, r->addr) != 1)
		return -1;
	r->bits = max;
	if (bits) {
		r->bits = strtol(bits, &end, 10);
		if (end == bits || *end || r->bits < 0 || r->bits > max)
			return -1;
	}
	return 0;
}

/* One rule's words after "use": 0 or -1. */
static int parse_rule(char **w, struct rule *r)
{
	char *colon;

	if (!strcmp(w[0], "sdp"))
		r->use = SDP_USE_SDP;
	else if (!strcmp(w[0], "tcp"))
		r->use = SDP_USE_TCP;
	else if (!strcmp(w[0], "both"))
		r->use = SDP_USE_BOTH;
	else
		return -1;
	if (!strcmp(w[1], "server"))
		r->roles = SDP_ROLE_SERVER;
	else if (!strcmp(w[1], "client"))
		r->roles = SDP_ROLE_CLIENT;
	else if (!strcmp(w[1], "both"))
		r->roles = SDP_ROLE_SERVER | SDP_ROLE_CLIENT;
	else
		return -1;
	if (snprintf(r->prog, sizeof(r->prog), "%s", w[2]) >= (int)sizeof(r->prog))
		return -1;
	colon = strrchr(w[3], ':');	/* an IPv6 address's own are inside its brackets */
	if (!colon)
		return -1;
	*colon = '\0';
	return parse_addr(w[3], r) || parse_ports(colon + 1, r) ? -1 : 0;
}

int sdp_policy_parse(const char *text, int *line)
{
	char *copy = strdup(text), *l, *next, *w[6];
	int n = 0, nw;

	nrules = 0;
	for (l = copy, *line = 1; l && *l; l = next, (*line)++) {
		next = strchr(l, '\n');
		if (next)
			*next++ = '\0';
		if (strchr(l, '#'))
			*strchr(l, '#') = '\0';
		for (nw = 0; nw < 6 && (w[nw] = strtok(nw ? NULL : l, " \t\r")); nw++)
			;
		if (!nw)
			continue;
		if (nw != 5 || strcmp(w[0], "use") || n == MAX_RULES ||
		    parse_rule(w + 1, &rules[n])) {
			free(copy);
			nrules = 0;
			return -1;
		}
		n++;
	}
	free(copy);
	nrules = n;
	return 0;
}

static bool prefix_match(const unsigned char *a, const unsigned char *b, int bits)
{
	int full = bits / 8, rest = bits % 8;

	if (memcmp(a, b, full))
		return false;
	return !rest || !((a[full] ^ b[full]) & (0xff00 >> rest));
}

static bool rule_matches(const struct rule *r, enum sdp_role role, const char *prog,
			 const struct sockaddr *addr)
{
	const unsigned char *a;
	unsigned int port;

	if (!(r->roles & role) || fnmatch(r->prog, prog, 0))
		return false;
	if (addr->sa_family == AF_INET) {
		a = (const unsigned char *)&((const struct sockaddr_in *)addr)->sin_addr;
		port = ntohs(((const struct sockaddr_in *)addr)->sin_port);
	} else {
		a = ((const struct sockaddr_in6 *)addr)->sin6_addr.s6_addr;
		port = ntohs(((const struct sockaddr_in6 *)addr)->sin6_port);
	}
	if (port < r->port_lo || port > r->port_hi)
		return false;
	return !r->family || (r->family == addr->sa_family && prefix_match(a, r->addr, r->bits));
}

enum sdp_use sdp_policy_match(enum sdp_role role, const char *prog, const struct sockaddr *addr)
{
	int i;

	for (i = 0; i < nrules; i++)
		if (rule_matches(&rules[i], role, prog, addr))
			return rules[i].use;
	return SDP_USE_TCP;
}

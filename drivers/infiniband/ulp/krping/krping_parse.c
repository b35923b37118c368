// SPDX-License-Identifier: GPL-2.0-only
/*
 * The command string of a test, classic krping's: comma-separated words, each a flag or
 * key=value (Documentation/krping.md has the table).  Everything is checked here: a test only
 * starts with options that make sense.
 */
#include <linux/inet.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "krping.h"

static const char *const krping_modes[KRPING_NMODES] = {
	[KRPING_PING] = "ping", [KRPING_WLAT] = "wlat", [KRPING_BW] = "bw",
	[KRPING_RBW] = "rbw", [KRPING_CONN] = "conn",
};

const char *krping_mode_name(enum krping_mode mode)
{
	return mode < KRPING_NMODES ? krping_modes[mode] : "?";
}

/* An IPv4 or IPv6 address: -EINVAL if it is neither, or already given. */
static int krping_parse_addr(const char *val, struct krping_opts *o)
{
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&o->addr;
	struct sockaddr_in *sin = (struct sockaddr_in *)&o->addr;

	if (o->addr.ss_family)
		return -EINVAL;
	if (in4_pton(val, -1, (u8 *)&sin->sin_addr.s_addr, '\0', NULL)) {
		sin->sin_family = AF_INET;
		return 0;
	}
	if (in6_pton(val, -1, sin6->sin6_addr.s6_addr, '\0', NULL)) {
		sin6->sin6_family = AF_INET6;
		return 0;
	}
	return -EINVAL;
}

/* A u32 option within [@min, @max]: -EINVAL (not a number), -ERANGE (outside). */
static int krping_parse_u32(const char *val, u32 min, u32 max, u32 *out)
{
	int ret;

	if (!val)
		return -EINVAL;
	ret = kstrtou32(val, 0, out);
	if (ret)
		return ret;
	return *out < min || *out > max ? -ERANGE : 0;
}

static int krping_parse_flag(const char *key, struct krping_opts *o, bool *role)
{
	int m;

	if (!strcmp(key, "server") || !strcmp(key, "client")) {
		if (*role)
			return -EINVAL;
		*role = true;
		o->server = key[0] == 's';
		return 0;
	}
	if (!strcmp(key, "validate")) {
		o->validate = true;
		return 0;
	}
	if (!strcmp(key, "verbose")) {
		o->verbose = true;
		return 0;
	}
	if (!strcmp(key, "poll")) {
		o->poll = true;
		return 0;
	}
	m = match_string(krping_modes, KRPING_NMODES, key);
	if (m < 0 || o->mode != KRPING_PING)
		return -EINVAL;		/* unknown, or a second mode */
	o->mode = m;
	return 0;
}

static int krping_parse_word(char *word, struct krping_opts *o, bool *role)
{
	char *val = strchr(word, '=');
	u32 port;
	int ret;

	if (!val)
		return krping_parse_flag(word, o, role);
	*val++ = '\0';
	if (!strcmp(word, "addr") || !strcmp(word, "addr6"))
		return krping_parse_addr(val, o);
	if (!strcmp(word, "port")) {
		ret = krping_parse_u32(val, 1, 65535, &port);
		o->port = port;
		return ret;
	}
	if (!strcmp(word, "count"))
		return krping_parse_u32(val, 0, INT_MAX, &o->count);
	if (!strcmp(word, "size"))
		return krping_parse_u32(val, KRPING_MIN_SIZE, KRPING_MAX_SIZE, &o->size);
	if (!strcmp(word, "txdepth"))
		return krping_parse_u32(val, 1, KRPING_MAX_TXDEPTH, &o->txdepth);
	return -EINVAL;
}

/*
 * Parse @cmd (modified) into @o: -EINVAL for an unknown word, a bad or repeated value, no role,
 * no address; -ERANGE for a number outside its range.
 */
int krping_parse(char *cmd, struct krping_opts *o)
{
	bool role = false;
	char *word;
	int ret;

	*o = (struct krping_opts){
		.port = KRPING_PORT, .size = KRPING_SIZE, .txdepth = KRPING_TXDEPTH,
	};
	while ((word = strsep(&cmd, ",")) != NULL) {
		word = strim(word);
		if (!*word)
			continue;
		ret = krping_parse_word(word, o, &role);
		if (ret)
			return ret;
	}
	if (!role || !o->addr.ss_family)
		return -EINVAL;
	if (o->mode == KRPING_CONN && !o->count)
		return -EINVAL;		/* a connection rate needs a number of connections */
	if (o->mode != KRPING_PING && !o->count)
		o->count = 1000;
	return 0;
}

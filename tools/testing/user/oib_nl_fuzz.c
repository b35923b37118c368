// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_nl_fuzz: oib_core's netlink family against what it must refuse, then a seeded fuzz.
 *
 * First the refusals, checked one by one: each required attribute missing (-EINVAL, the missing
 * attribute named in the ack; RES_GET's kind too), a kind out of range, a dump-only command asked
 * for one object, the RDMA CM ids' dump (of every device, of one that is not there), an attribute
 * the command does not take (an answer's among them: RES_LISTEN, RES_SRC_ADDR), a string without
 * its NUL, an unknown command, an unknown device, a taken name, a bad netdev.  Then random and
 * mutated messages: well-formed requests for every command with attributes drawn from small pools
 * (names fz0..fz3 and the devices there, types, netdevs, ports, addresses), then mutated (bytes
 * flipped, attributes cut, lengths and types bent, flags and the genetlink header changed).  Every
 * message must be answered (an ack, an error, a dump), the answers well formed; at the end the
 * devices it made are deleted and the device list is what it was.  The kernel log's findings
 * (KASAN, lockdep, leaks) are make check's to count.
 *
 * Environment: OIB_FUZZ_SEED (default: from the clock; printed), OIB_NLFUZZ_MSGS (200000),
 * OIB_NLFUZZ_SECONDS (30): whichever ends first.  The seed fixes the messages.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <oib/netlink.h>
#include "ktap.h"

#define BUF 65536

static int fd;
static uint16_t family;
static uint32_t seq;
static char rbuf[BUF];

struct msg {
	union {
		struct nlmsghdr nlh;
		char raw[1024];
	};
};

/* The last answer: its error (0 or -errno), the attribute the kernel said is missing. */
static int last_err;
static int last_miss;
static int last_msgs;	/* family messages in it */

static uint64_t rng;

static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return n ? (uint32_t)(rng >> 32) % n : 0;
}

static uint64_t env_u64(const char *name, uint64_t def)
{
	const char *v = getenv(name);

	return v && *v ? strtoull(v, NULL, 0) : def;
}

static void msg_init(struct msg *m, uint16_t type, uint8_t cmd, uint16_t flags)
{
	struct genlmsghdr *g = (void *)(m->raw + NLMSG_HDRLEN);

	memset(m->raw, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	m->nlh.nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN;
	m->nlh.nlmsg_type = type;
	m->nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	m->nlh.nlmsg_seq = ++seq;
	g->cmd = cmd;
	g->version = OIB_NL_FAMILY_VERSION;
}

static void put(struct msg *m, uint16_t type, const void *data, size_t len)
{
	struct nlattr *a = (void *)(m->raw + NLMSG_ALIGN(m->nlh.nlmsg_len));

	if (NLMSG_ALIGN(m->nlh.nlmsg_len) + NLA_HDRLEN + NLA_ALIGN(len) > sizeof(m->raw))
		return;
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memcpy((char *)a + NLA_HDRLEN, data, len);
	memset((char *)a + NLA_HDRLEN + len, 0, NLA_ALIGN(len) - len);
	m->nlh.nlmsg_len = NLMSG_ALIGN(m->nlh.nlmsg_len) + NLA_ALIGN(a->nla_len);
}

static void put_str(struct msg *m, uint16_t type, const char *s)
{
	put(m, type, s, strlen(s) + 1);
}

static void put_u32(struct msg *m, uint16_t type, uint32_t v)
{
	put(m, type, &v, sizeof(v));
}

/*
 * The attribute an ack or a dump's end says is missing (NLMSGERR_ATTR_MISS_TYPE), or 0; its
 * attributes start at @off.
 */
static int ack_miss(const struct nlmsghdr *nlh, size_t off)
{
	const struct nlattr *a;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return 0;
	while (off + NLA_HDRLEN <= nlh->nlmsg_len) {
		a = (const void *)((const char *)nlh + off);
		if (a->nla_len < NLA_HDRLEN || off + a->nla_len > nlh->nlmsg_len)
			return -1;
		if ((a->nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_MISS_TYPE)
			return *(const uint32_t *)((const char *)a + NLA_HDRLEN);
		off += NLA_ALIGN(a->nla_len);
	}
	return 0;
}

#define BATCH 16

/* The answers of a batch: each request's error, and family messages seen (dumps). */
struct answers {
	uint32_t first;		/* the first request's sequence number */
	int n;			/* requests */
	int err[BATCH];
	int miss[BATCH];
	bool done[BATCH];
	int msgs;
};

/* One message of an answer: 1 when it ends a request's answer, 0 when not, -EPROTO. */
static int answer(const struct nlmsghdr *nlh, struct answers *ans)
{
	uint32_t i = nlh->nlmsg_seq - ans->first;

	if (i >= (uint32_t)ans->n)
		return 0;	/* an earlier request's, or a notification */
	if (nlh->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = NLMSG_DATA(nlh);

		if (nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(*e) || e->error > 0 || ans->done[i])
			return -EPROTO;
		ans->err[i] = e->error;
		ans->miss[i] = ack_miss(nlh, NLMSG_HDRLEN + sizeof(*e) +
				   (nlh->nlmsg_flags & NLM_F_CAPPED ? 0 :
				    e->msg.nlmsg_len - NLMSG_HDRLEN));
		ans->done[i] = true;
		return ans->miss[i] < 0 ? -EPROTO : 1;
	}
	if (nlh->nlmsg_type == NLMSG_DONE) {
		if (nlh->nlmsg_len >= NLMSG_HDRLEN + sizeof(int))
			memcpy(&ans->err[i], NLMSG_DATA(nlh), sizeof(int));
		if (ans->err[i] > 0 || ans->done[i])
			return -EPROTO;
		ans->miss[i] = ack_miss(nlh, NLMSG_HDRLEN + sizeof(int));
		ans->done[i] = true;
		return ans->miss[i] < 0 ? -EPROTO : 1;
	}
	if (nlh->nlmsg_type != family || nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return -EPROTO;
	ans->msgs++;
	return 0;
}

/*
 * Send @len bytes of @buf, @ans->n requests from sequence number @ans->first, and read until
 * each is answered: 0, -ETIMEDOUT (one was not, in time), -EPROTO (an answer was malformed).
 */
static int talk_batch(const void *buf, size_t len, struct answers *ans)
{
	const struct nlmsghdr *nlh;
	int left = ans->n, n, ret;

	memset(ans->err, 0, sizeof(ans->err));
	memset(ans->miss, 0, sizeof(ans->miss));
	memset(ans->done, 0, sizeof(ans->done));
	ans->msgs = 0;
	if (send(fd, buf, len, 0) < 0)
		return -errno;
	while (left) {
		n = recv(fd, rbuf, sizeof(rbuf), 0);
		if (n < 0)
			return errno == EAGAIN ? -ETIMEDOUT : -errno;
		for (nlh = (void *)rbuf; NLMSG_OK(nlh, n); nlh = NLMSG_NEXT(nlh, n)) {
			ret = answer(nlh, ans);
			if (ret < 0)
				return ret;
			left -= ret;
		}
		if (n)
			return -EPROTO;	/* a message cut short */
	}
	return 0;
}

/* One request of @len bytes: its error in last_err, the attribute it missed in last_miss. */
static int talk(struct msg *m, size_t len)
{
	struct answers ans = { .first = m->nlh.nlmsg_seq, .n = 1 };
	int ret = talk_batch(m->raw, len, &ans);

	last_err = ans.err[0];
	last_miss = ans.miss[0];
	last_msgs = ans.msgs;
	return ret;
}

static int request(struct msg *m)
{
	return talk(m, m->nlh.nlmsg_len);
}

/* ---- Setup: the socket and the family's id ---- */

static bool open_family(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct timeval tv = { .tv_sec = 5 };
	const struct nlmsghdr *nlh;
	struct msg m;
	int one = 1, n;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (!CHECK(fd >= 0) || !CHECK(!bind(fd, (void *)&sa, sizeof(sa))))
		return false;
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	msg_init(&m, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0);
	((struct genlmsghdr *)(m.raw + NLMSG_HDRLEN))->version = 1;
	put_str(&m, CTRL_ATTR_FAMILY_NAME, OIB_NL_FAMILY_NAME);
	if (!CHECK(send(fd, m.raw, m.nlh.nlmsg_len, 0) > 0))
		return false;
	n = recv(fd, rbuf, sizeof(rbuf), 0);
	for (nlh = (void *)rbuf; NLMSG_OK(nlh, n); nlh = NLMSG_NEXT(nlh, n)) {
		const struct nlattr *a = (void *)((char *)NLMSG_DATA(nlh) + GENL_HDRLEN);
		int left = nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;

		if (nlh->nlmsg_type != GENL_ID_CTRL)
			continue;
		for (; left >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= left;
		     left -= NLA_ALIGN(a->nla_len), a = (void *)((char *)a + NLA_ALIGN(a->nla_len)))
			if (a->nla_type == CTRL_ATTR_FAMILY_ID)
				family = *(uint16_t *)((char *)a + NLA_HDRLEN);
	}
	recv(fd, rbuf, sizeof(rbuf), MSG_DONTWAIT);	/* the ack */
	return CHECK(family != 0);
}

/* ---- The refusals ---- */

static bool expect(struct msg *m, int err, int miss, const char *what)
{
	int ret = request(m);

	if (ret || last_err != err || (miss && last_miss != miss)) {
		diag("%s: talk %d, error %d (want %d), missing %d (want %d)", what, ret, last_err,
		     err, last_miss, miss);
		return false;
	}
	return true;
}

static bool refusals(void)
{
	static const uint8_t addr[16] = { [10] = 0xff, [11] = 0xff, 10, 99, 0, 1 };
	bool ok = true;
	struct msg m;

	/* each required attribute missing */
	msg_init(&m, family, OIB_NL_CMD_DEV_GET, 0);
	ok &= expect(&m, -EINVAL, OIB_NL_ATTR_DEV_NAME, "DEV_GET without a name");
	msg_init(&m, family, OIB_NL_CMD_PORT_GET, 0);
	put_str(&m, OIB_NL_ATTR_DEV_NAME, "fz0");
	ok &= expect(&m, -EINVAL, OIB_NL_ATTR_PORT, "PORT_GET without a port");
	msg_init(&m, family, OIB_NL_CMD_LINK_NEW, 0);
	put_str(&m, OIB_NL_ATTR_LINK_TYPE, "rxe");
	ok &= expect(&m, -EINVAL, OIB_NL_ATTR_DEV_NAME, "LINK_NEW without a name");
	msg_init(&m, family, OIB_NL_CMD_LINK_NEW, 0);
	put_str(&m, OIB_NL_ATTR_DEV_NAME, "fz0");
	ok &= expect(&m, -EINVAL, OIB_NL_ATTR_LINK_TYPE, "LINK_NEW without a type");
	msg_init(&m, family, OIB_NL_CMD_LINK_DEL, 0);
	ok &= expect(&m, -EINVAL, OIB_NL_ATTR_DEV_NAME, "LINK_DEL without a name");
	msg_init(&m, family, OIB_NL_CMD_ADDR_NEW, 0);
	put_str(&m, OIB_NL_ATTR_DEV_NAME, "fz0");
	put(&m, OIB_NL_ATTR_ADDR, addr, sizeof(addr));
	ok &= expect(&m, -EINVAL, OIB_NL_ATTR_PORT, "ADDR_NEW without a port");
	msg_init(&m, family, OIB_NL_CMD_ADDR_DEL, 0);
	put_str(&m, OIB_NL_ATTR_DEV_NAME, "fz0");
	put_u32(&m, OIB_NL_ATTR_PORT, 1);
	ok &= expect(&m, -EINVAL, OIB_NL_ATTR_ADDR, "ADDR_DEL without an address");
	msg_init(&m, family, OIB_NL_CMD_RES_GET, NLM_F_DUMP);
	ok &= expect(&m, -EINVAL, OIB_NL_ATTR_RES_TYPE, "RES_GET without a kind");
	msg_init(&m, family, OIB_NL_CMD_RES_GET, NLM_F_DUMP);
	put(&m, OIB_NL_ATTR_RES_TYPE, &(uint8_t){ OIB_NL_RES_MAX }, 1);
	ok &= expect(&m, -ERANGE, 0, "RES_GET of an unknown kind");
	msg_init(&m, family, OIB_NL_CMD_RES_GET, 0);
	put(&m, OIB_NL_ATTR_RES_TYPE, &(uint8_t){ OIB_NL_RES_QP }, 1);
	ok &= expect(&m, -EOPNOTSUPP, 0, "RES_GET not as a dump");
	msg_init(&m, family, OIB_NL_CMD_RES_GET, NLM_F_DUMP);
	put(&m, OIB_NL_ATTR_RES_TYPE, &(uint8_t){ OIB_NL_RES_CM_ID }, 1);
	ok &= expect(&m, 0, 0, "RES_GET of the RDMA CM ids");
	put_str(&m, OIB_NL_ATTR_DEV_NAME, "fz-none");
	ok &= expect(&m, -ENODEV, 0, "RES_GET of an unknown device's RDMA CM ids");
	msg_init(&m, family, OIB_NL_CMD_RES_GET, NLM_F_DUMP);
	put(&m, OIB_NL_ATTR_RES_TYPE, &(uint8_t){ OIB_NL_RES_CM_ID }, 1);
	put(&m, OIB_NL_ATTR_RES_LISTEN, addr, 0);
	ok &= expect(&m, -EINVAL, 0, "RES_GET with an answer's flag (RES_LISTEN)");
	msg_init(&m, family, OIB_NL_CMD_RES_GET, NLM_F_DUMP);
	put(&m, OIB_NL_ATTR_RES_TYPE, &(uint8_t){ OIB_NL_RES_CM_ID }, 1);
	put(&m, OIB_NL_ATTR_RES_SRC_ADDR, addr, sizeof(addr));
	ok &= expect(&m, -EINVAL, 0, "RES_GET with an answer's address (RES_SRC_ADDR)");

	/* what the policies refuse */
	msg_init(&m, family, OIB_NL_CMD_DEV_GET, NLM_F_DUMP);
	put(&m, OIB_NL_ATTR_ADDR, addr, sizeof(addr));
	ok &= expect(&m, -EINVAL, 0, "DEV_GET with an address");
	msg_init(&m, family, OIB_NL_CMD_LINK_DEL, 0);
	put(&m, OIB_NL_ATTR_DEV_NAME, "fz0", 3);
	ok &= expect(&m, -EINVAL, 0, "a name without its NUL");
	msg_init(&m, family, OIB_NL_CMD_ADDR_NEW, 0);
	put_str(&m, OIB_NL_ATTR_DEV_NAME, "fz0");
	put_u32(&m, OIB_NL_ATTR_PORT, 1);
	put(&m, OIB_NL_ATTR_ADDR, addr, 4);
	ok &= expect(&m, -ERANGE, 0, "a 4-byte address");
	msg_init(&m, family, OIB_NL_CMD_PORT_GET, 0);
	put_str(&m, OIB_NL_ATTR_DEV_NAME, "fz0");
	put_u32(&m, OIB_NL_ATTR_PORT, 0);
	ok &= expect(&m, -ERANGE, 0, "port 0");
	msg_init(&m, family, OIB_NL_CMD_PORT_CHANGE, 0);
	ok &= expect(&m, -EOPNOTSUPP, 0, "a notification's command as a request");
	msg_init(&m, family, 200, 0);
	ok &= expect(&m, -EOPNOTSUPP, 0, "an unknown command");

	/* the handlers' refusals */
	msg_init(&m, family, OIB_NL_CMD_DEV_GET, 0);
	put_str(&m, OIB_NL_ATTR_DEV_NAME, "fz-none");
	ok &= expect(&m, -ENODEV, 0, "an unknown device");
	msg_init(&m, family, OIB_NL_CMD_LINK_NEW, 0);
	put_str(&m, OIB_NL_ATTR_DEV_NAME, "fz0");
	put_str(&m, OIB_NL_ATTR_LINK_TYPE, "rxe");
	put_str(&m, OIB_NL_ATTR_NETDEV, "fz-nonet");
	ok &= expect(&m, -ENODEV, 0, "a bad netdev");
	msg_init(&m, family, OIB_NL_CMD_LINK_NEW, 0);
	put_str(&m, OIB_NL_ATTR_DEV_NAME, "fz0");
	put_str(&m, OIB_NL_ATTR_LINK_TYPE, "rxe");
	ok &= expect(&m, 0, 0, "fz0 made");
	ok &= expect(&m, -EEXIST, 0, "a taken name");
	msg_init(&m, family, OIB_NL_CMD_LINK_DEL, 0);
	put_str(&m, OIB_NL_ATTR_DEV_NAME, "fz0");
	ok &= expect(&m, 0, 0, "fz0 deleted");
	ok &= expect(&m, -ENODEV, 0, "fz0 deleted twice");
	return ok;
}

/* ---- The fuzz ---- */

static const char *const names[] = { "fz0", "fz1", "fz2", "fz3", "", "fz/x", "%d", "fz0 ",
	"a-name-of-sixty-three-bytes-which-is-the-longest-one-there-is-x" };
static const char *const types[] = { "rxe", "siw", "", "rx", "rxe\xff" };
static const char *const netdevs[] = { "lo", "fz-nonet", "", "sit0" };
static const uint32_t ports[] = { 0, 1, 2, 3, 8, 9, 255, 256, 0xffffffff };

static void rnd_attr(struct msg *m)
{
	uint8_t addr[16];
	int i;

	switch (rnd(9)) {
	case 8:
		put(m, OIB_NL_ATTR_RES_TYPE, &(uint8_t){ rnd(OIB_NL_RES_MAX + 2) }, 1);
		break;
	case 0:
	case 1:
		put_str(m, OIB_NL_ATTR_DEV_NAME, names[rnd(4 + 5 * !rnd(8))]);
		break;
	case 2:
		put_str(m, OIB_NL_ATTR_LINK_TYPE, types[rnd(2 + 3 * !rnd(4))]);
		break;
	case 3:
		put_str(m, OIB_NL_ATTR_NETDEV, netdevs[rnd(4)]);
		break;
	case 4:
		put_u32(m, OIB_NL_ATTR_PORT, ports[rnd(9)]);
		break;
	case 5:
		put_u32(m, OIB_NL_ATTR_PORT_COUNT, ports[rnd(9)]);
		break;
	case 6:
		for (i = 0; i < 16; i++)
			addr[i] = rnd(256);
		if (rnd(2))
			memset(addr, 0, 10), addr[10] = addr[11] = 0xff;
		put(m, OIB_NL_ATTR_ADDR, addr, rnd(8) ? 16 : rnd(17));
		break;
	default:
		for (i = 0; i < 16; i++)
			addr[i] = rnd(256);
		put(m, rnd(OIB_NL_ATTR_MAX + 3) | (rnd(8) ? 0 : NLA_F_NESTED), addr, rnd(17));
		break;
	}
}

/* Bend @m, now @len bytes: return its new length. */
static size_t mutate(struct msg *m, size_t len)
{
	size_t at;

	switch (rnd(6)) {
	case 0:		/* flip bytes of the payload */
		for (int i = rnd(4) + 1; i && len > NLMSG_HDRLEN; i--)
			m->raw[NLMSG_HDRLEN + rnd(len - NLMSG_HDRLEN)] ^= 1 << rnd(8);
		break;
	case 1:		/* cut it */
		len = NLMSG_HDRLEN + rnd(len - NLMSG_HDRLEN + 1);
		break;
	case 2:		/* an attribute's length */
		at = NLMSG_HDRLEN + GENL_HDRLEN;
		if (len >= at + NLA_HDRLEN)
			((struct nlattr *)(m->raw + at))->nla_len = rnd(64);
		break;
	case 3:		/* the genetlink header: version, reserved */
		m->raw[NLMSG_HDRLEN + 1 + rnd(3)] = rnd(256);
		break;
	case 4:		/* the flags */
		m->nlh.nlmsg_flags ^= 1 << rnd(12);
		m->nlh.nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
		break;
	default:	/* garbage after it */
		for (int i = rnd(32); i && len < sizeof(m->raw); i--)
			m->raw[len++] = rnd(256);
		break;
	}
	m->nlh.nlmsg_len = len;
	return len;
}

struct stats {
	uint64_t sent, acked, errors, dumps;
	uint64_t errno_count[140];
};

/* A random request, maybe mutated, at @m: its length. */
static size_t generate(struct msg *m)
{
	static const uint8_t cmds[] = {
		OIB_NL_CMD_DEV_GET, OIB_NL_CMD_PORT_GET, OIB_NL_CMD_LINK_NEW,
		OIB_NL_CMD_LINK_DEL, OIB_NL_CMD_ADDR_NEW, OIB_NL_CMD_ADDR_DEL, OIB_NL_CMD_RES_GET,
		OIB_NL_CMD_STAT_GET,
	};
	uint8_t cmd = rnd(16) ? cmds[rnd(8)] : rnd(256);
	size_t len;
	int n;

	msg_init(m, family, cmd, rnd(3) ? 0 : NLM_F_DUMP);
	for (n = rnd(5); n; n--)
		rnd_attr(m);
	len = m->nlh.nlmsg_len;
	if (rnd(3))
		len = mutate(m, len);
	return len;
}

/*
 * Up to BATCH requests in one send (a dump goes alone: a socket runs one dump at a time), each
 * padded to the netlink alignment.
 */
static bool batch(struct stats *st)
{
	static char buf[BATCH * sizeof(struct msg)];
	struct answers ans = { .first = seq + 1 };
	size_t used = 0, len;
	struct msg m;
	int i, ret;

	while (ans.n < BATCH) {
		len = generate(&m);
		if ((m.nlh.nlmsg_flags & NLM_F_DUMP) && ans.n) {
			seq--;		/* the next batch's first */
			break;
		}
		memcpy(buf + used, m.raw, len);
		memset(buf + used + len, 0, NLMSG_ALIGN(len) - len);
		used += NLMSG_ALIGN(len);
		ans.n++;
		if (m.nlh.nlmsg_flags & NLM_F_DUMP)
			break;
	}
	ret = talk_batch(buf, used, &ans);
	if (ret) {
		diag("%d requests from message %llu: %s", ans.n, (unsigned long long)st->sent,
		     ret == -ETIMEDOUT ? "a request not answered" : "a malformed answer");
		return false;
	}
	for (i = 0; i < ans.n; i++) {
		st->sent++;
		st->errors += !!ans.err[i];
		st->acked += !ans.err[i];
		if (-ans.err[i] < 140)
			st->errno_count[-ans.err[i]]++;
	}
	st->dumps += ans.msgs > 0;
	return true;
}

/* The devices there, as "name\n" lines into @out. */
static bool dev_names(char *out, size_t size)
{
	const struct nlmsghdr *nlh;
	struct msg m;
	size_t used = 0;
	int n;

	*out = '\0';
	msg_init(&m, family, OIB_NL_CMD_DEV_GET, NLM_F_DUMP);
	if (send(fd, m.raw, m.nlh.nlmsg_len, 0) < 0)
		return false;
	for (;;) {
		n = recv(fd, rbuf, sizeof(rbuf), 0);
		if (n <= 0)
			return false;
		for (nlh = (void *)rbuf; NLMSG_OK(nlh, n); nlh = NLMSG_NEXT(nlh, n)) {
			const struct nlattr *a = (void *)((char *)NLMSG_DATA(nlh) + GENL_HDRLEN);
			int left = nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;

			if (nlh->nlmsg_seq != m.nlh.nlmsg_seq)
				continue;
			if (nlh->nlmsg_type == NLMSG_DONE || nlh->nlmsg_type == NLMSG_ERROR)
				return true;
			for (; left >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= left;
			     left -= NLA_ALIGN(a->nla_len),
			     a = (void *)((char *)a + NLA_ALIGN(a->nla_len)))
				if (a->nla_type == OIB_NL_ATTR_DEV_NAME && used < size)
					used += snprintf(out + used, size - used, "%s\n",
							 (char *)a + NLA_HDRLEN);
		}
	}
}

/* Delete each device of @now that @before does not name. */
static void delete_new(const char *before, const char *now)
{
	char copy[4096], old[4100], want[80], *name, *save;
	struct msg m;

	snprintf(copy, sizeof(copy), "%s", now);
	snprintf(old, sizeof(old), "\n%s", before);
	for (name = strtok_r(copy, "\n", &save); name; name = strtok_r(NULL, "\n", &save)) {
		snprintf(want, sizeof(want), "\n%s\n", name);
		if (strstr(old, want))
			continue;
		msg_init(&m, family, OIB_NL_CMD_LINK_DEL, 0);
		put_str(&m, OIB_NL_ATTR_DEV_NAME, name);
		request(&m);
	}
}

static bool fuzz(void)
{
	uint64_t seed = env_u64("OIB_FUZZ_SEED", time(NULL) ^ (uint64_t)getpid() << 32);
	uint64_t max = env_u64("OIB_NLFUZZ_MSGS", 200000);
	uint64_t seconds = env_u64("OIB_NLFUZZ_SECONDS", 30);
	char before[4096], after[4096];
	struct stats st = {};
	time_t start, end = time(NULL) + seconds;
	bool ok = true;
	int e;

	rng = seed ?: 1;
	diag("seed: %#llx (OIB_FUZZ_SEED)", (unsigned long long)seed);
	if (!CHECK(dev_names(before, sizeof(before))))
		return false;
	start = time(NULL);
	while (st.sent < max && ok && time(NULL) < end)
		ok = batch(&st);
	diag("messages: %llu in %llu s (acked %llu, refused %llu, dumps answered %llu)",
	     (unsigned long long)st.sent, (unsigned long long)(time(NULL) - start),
	     (unsigned long long)st.acked, (unsigned long long)st.errors,
	     (unsigned long long)st.dumps);
	fuzz_inputs("oib_nl_fuzz", st.sent);
	for (e = 1; e < 140; e++)
		if (st.errno_count[e])
			diag("  -%d (%s): %llu", e, strerror(e),
			     (unsigned long long)st.errno_count[e]);
	if (!CHECK(dev_names(after, sizeof(after))))
		return false;
	delete_new(before, after);
	if (!CHECK(dev_names(after, sizeof(after))))
		return false;
	if (strcmp(before, after)) {
		diag("devices before: %s; after: %s", before, after);
		ok = false;
	}
	return ok;
}

int main(void)
{
	static const struct ktap_case cases[] = {
		{ "family", open_family },
		{ "refusals", refusals },
		{ "fuzz", fuzz },
	};

	return ktap_run("oib_nl_fuzz", cases, 3);
}

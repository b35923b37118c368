// SPDX-License-Identifier: GPL-2.0-only
/*
 * RES_GET: a dump of the live objects of one kind (restrack.c, and the upper modules' kinds of
 * restrack_ulp.c), of every device or of the one a request names, each with its owner and
 * numbers; then, when no device is named, an upper module's objects bound to no device.  It walks
 * devices by index and each device's table by id, holding a device user and, while it copies an
 * object, the table's lock, so objects and devices come and go freely meanwhile.
 */
#include <net/genetlink.h>
#include "core_priv.h"
#include "netlink.h"
#include "restrack.h"

static int oib_nl_res_owner(struct sk_buff *skb, const struct oib_res *res)
{
	char owner[MODULE_NAME_LEN];

	if (!oib_res_owner(res->caller, owner, sizeof(owner)))
		return nla_put_string(skb, OIB_NL_ATTR_RES_OWNER, owner);
	if (nla_put_u32(skb, OIB_NL_ATTR_RES_PID, res->pid) ||
	    nla_put_string(skb, OIB_NL_ATTR_RES_COMM, res->comm))
		return -EMSGSIZE;
	return 0;
}

static int oib_nl_res_fields(struct sk_buff *skb, u8 type, const struct oib_res_snap *s)
{
	switch (type) {
	case OIB_NL_RES_PD:
		return nla_put_u32(skb, OIB_NL_ATTR_RES_USERS, s->users) ?:
		       nla_put_u32(skb, OIB_NL_ATTR_RES_LKEY, s->lkey);
	case OIB_NL_RES_CQ:
		if (s->poll_ctx >= 0 && nla_put_u8(skb, OIB_NL_ATTR_RES_POLL_CTX, s->poll_ctx))
			return -EMSGSIZE;
		return nla_put_u32(skb, OIB_NL_ATTR_RES_USERS, s->users) ?:
		       nla_put_u32(skb, OIB_NL_ATTR_RES_CQE, s->cqe) ?:
		       nla_put_u32(skb, OIB_NL_ATTR_RES_COMP_VECTOR, s->comp_vector);
	case OIB_NL_RES_QP:
		if (s->port && nla_put_u32(skb, OIB_NL_ATTR_PORT, s->port))
			return -EMSGSIZE;
		return nla_put_u32(skb, OIB_NL_ATTR_RES_QPN, s->qpn) ?:
		       nla_put_u8(skb, OIB_NL_ATTR_RES_QP_TYPE, s->qp_type) ?:
		       nla_put_u8(skb, OIB_NL_ATTR_RES_STATE, s->state);
	case OIB_NL_RES_SRQ:
		if (s->srq_type && nla_put_u32(skb, OIB_NL_ATTR_RES_SRQN, s->srqn))
			return -EMSGSIZE;
		return nla_put_u32(skb, OIB_NL_ATTR_RES_USERS, s->users) ?:
		       nla_put_u8(skb, OIB_NL_ATTR_RES_SRQ_TYPE, s->srq_type);
	case OIB_NL_RES_MR:
		return nla_put_u32(skb, OIB_NL_ATTR_RES_LKEY, s->lkey) ?:
		       nla_put_u32(skb, OIB_NL_ATTR_RES_RKEY, s->rkey) ?:
		       nla_put_u64_64bit(skb, OIB_NL_ATTR_RES_IOVA, s->iova, OIB_NL_ATTR_PAD) ?:
		       nla_put_u64_64bit(skb, OIB_NL_ATTR_RES_LENGTH, s->length, OIB_NL_ATTR_PAD);
	}
	return 0;
}

static int oib_nl_res_one(struct sk_buff *skb, struct netlink_callback *cb,
			  struct oib_device *device, u8 type, const struct oib_res_snap *s)
{
	void *hdr;

	hdr = oib_nl_put_hdr(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq, NLM_F_MULTI,
			     OIB_NL_CMD_RES_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, OIB_NL_ATTR_DEV_INDEX, device->index) ||
	    nla_put_string(skb, OIB_NL_ATTR_DEV_NAME, oib_dev_name(device)) ||
	    nla_put_u8(skb, OIB_NL_ATTR_RES_TYPE, type) ||
	    nla_put_u32(skb, OIB_NL_ATTR_RES_ID, s->res.id) ||
	    (s->pd != U32_MAX && nla_put_u32(skb, OIB_NL_ATTR_RES_PD, s->pd)) ||
	    oib_nl_res_owner(skb, &s->res) || oib_nl_res_fields(skb, type, s)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* A struct sockaddr_in or sockaddr_in6 as it is; nothing for a family that is neither. */
static int oib_nl_res_addr(struct sk_buff *skb, int attr, const struct sockaddr_storage *ss)
{
	size_t len = ss->ss_family == AF_INET ? sizeof(struct sockaddr_in) :
		     ss->ss_family == AF_INET6 ? sizeof(struct sockaddr_in6) : 0;

	return len ? nla_put(skb, attr, len, ss) : 0;
}

static int oib_nl_res_cm_id(struct sk_buff *skb, const struct oib_res_cm_id_snap *c)
{
	if ((c->port && nla_put_u32(skb, OIB_NL_ATTR_PORT, c->port)) ||
	    (c->qpn && nla_put_u32(skb, OIB_NL_ATTR_RES_QPN, c->qpn)) ||
	    (c->listening && nla_put_flag(skb, OIB_NL_ATTR_RES_LISTEN)))
		return -EMSGSIZE;
	return nla_put_string(skb, OIB_NL_ATTR_RES_CM_STATE, c->state ?: "?") ?:
	       nla_put_u32(skb, OIB_NL_ATTR_RES_PS, c->ps) ?:
	       nla_put_u8(skb, OIB_NL_ATTR_RES_QP_TYPE, c->qp_type) ?:
	       oib_nl_res_addr(skb, OIB_NL_ATTR_RES_SRC_ADDR, &c->src) ?:
	       oib_nl_res_addr(skb, OIB_NL_ATTR_RES_DST_ADDR, &c->dst);
}

/* An upper module's object: of @device, or (NULL) bound to none, without DEV_*. */
static int oib_nl_res_ulp_one(struct sk_buff *skb, struct netlink_callback *cb,
			      struct oib_device *device, u8 type, const struct oib_res *res,
			      const union oib_res_ulp_snap *s)
{
	void *hdr;

	hdr = oib_nl_put_hdr(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq, NLM_F_MULTI,
			     OIB_NL_CMD_RES_GET);
	if (!hdr)
		return -EMSGSIZE;
	if ((device && (nla_put_u32(skb, OIB_NL_ATTR_DEV_INDEX, device->index) ||
			nla_put_string(skb, OIB_NL_ATTR_DEV_NAME, oib_dev_name(device)))) ||
	    nla_put_u8(skb, OIB_NL_ATTR_RES_TYPE, type) ||
	    nla_put_u32(skb, OIB_NL_ATTR_RES_ID, res->id) ||
	    oib_nl_res_owner(skb, res) || oib_nl_res_cm_id(skb, &s->cm_id)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* The upper module's kind of a RES_TYPE, or OIB_RES_ULP_MAX for one of oib_core's own. */
static enum oib_res_ulp_kind oib_nl_res_ulp_kind(u8 type)
{
	return type == OIB_NL_RES_CM_ID ? OIB_RES_CM_ID : OIB_RES_ULP_MAX;
}

/*
 * The objects of @device (NULL: an upper module's bound to none) from id *@id on: 0 when all
 * are in, -EMSGSIZE (*@id the next).
 */
static int oib_nl_res_dev(struct sk_buff *skb, struct netlink_callback *cb,
			  struct oib_device *device, u8 type, unsigned long *id)
{
	enum oib_res_ulp_kind kind = oib_nl_res_ulp_kind(type);
	union oib_res_ulp_snap us;
	struct oib_res_snap s;
	struct oib_res res;
	int ret;

	for (;;) {
		if (kind == OIB_RES_ULP_MAX) {
			if (!oib_res_next(device, type, id, &s))
				return 0;
			ret = oib_nl_res_one(skb, cb, device, type, &s);
		} else {
			if (!oib_res_ulp_next(device, kind, id, &res, &us))
				return 0;
			ret = oib_nl_res_ulp_one(skb, cb, device, type, &res, &us);
		}
		if (ret)
			return ret;
		(*id)++;
	}
}

/*
 * The objects of an upper module's kind bound to no device, after every device (args[3] set),
 * unless the request names one.
 */
static int oib_nl_res_unbound(struct sk_buff *skb, struct netlink_callback *cb, u8 type,
			      bool only)
{
	unsigned long id = cb->args[1];
	int ret;

	if (only || oib_nl_res_ulp_kind(type) == OIB_RES_ULP_MAX)
		return 0;
	ret = oib_nl_res_dev(skb, cb, NULL, type, &id);
	cb->args[1] = id;
	return ret;
}

/*
 * cb->args: [0] the device's index, [1] the next object id in it (or among the unbound), [2] the
 * named device found, [3] every device done.
 */
int oib_nl_res_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr *tb[OIB_NL_ATTR_MAX + 1];
	unsigned long index = cb->args[0], id = cb->args[1];
	struct oib_device *device = NULL;
	const char *only = NULL;
	int ret;
	u8 type;

	ret = nlmsg_parse(cb->nlh, GENL_HDRLEN, tb, OIB_NL_ATTR_MAX, oib_nl_res_policy, cb->extack);
	if (ret)
		return ret;
	if (!tb[OIB_NL_ATTR_RES_TYPE]) {
		NL_SET_ERR_ATTR_MISS(cb->extack, NULL, OIB_NL_ATTR_RES_TYPE);
		return -EINVAL;
	}
	type = nla_get_u8(tb[OIB_NL_ATTR_RES_TYPE]);
	if (tb[OIB_NL_ATTR_DEV_NAME])
		only = nla_data(tb[OIB_NL_ATTR_DEV_NAME]);
	if (cb->args[3])
		goto unbound;
	while ((device = oib_device_next(&index))) {
		if (index != cb->args[0])	/* not the device the last pass stopped in */
			id = 0;
		ret = 0;
		if (!only || !strcmp(only, oib_dev_name(device))) {
			cb->args[2] |= !!only;
			ret = oib_nl_res_dev(skb, cb, device, type, &id);
		}
		oib_device_put(device);
		if (ret)
			break;
		index++;
		id = 0;
	}
	cb->args[0] = index;
	cb->args[1] = id;
	if (!device && only && !cb->args[2]) {
		NL_SET_ERR_MSG_ATTR(cb->extack, tb[OIB_NL_ATTR_DEV_NAME], "no such device");
		return -ENODEV;
	}
	if (device || ret)
		goto out;
	cb->args[3] = 1;
	cb->args[1] = 0;
unbound:
	ret = oib_nl_res_unbound(skb, cb, type, only);
out:
	return ret == -EMSGSIZE && skb->len ? skb->len : ret ?: skb->len;
}

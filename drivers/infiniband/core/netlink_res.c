// SPDX-License-Identifier: GPL-2.0-only
/*
 * RES_GET: a dump of the live objects of one kind (restrack.c), of every device or of the one a
 * request names, each with its owner and numbers.  It walks devices by index and each device's
 * table by id, holding a device user and, while it copies an object, the table's lock, so objects
 * and devices come and go freely meanwhile.
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

/* The objects of @device from id *@id on: 0 when all are in, -EMSGSIZE (*@id the next). */
static int oib_nl_res_dev(struct sk_buff *skb, struct netlink_callback *cb,
			  struct oib_device *device, u8 type, unsigned long *id)
{
	struct oib_res_snap s;
	int ret;

	while (oib_res_next(device, type, id, &s)) {
		ret = oib_nl_res_one(skb, cb, device, type, &s);
		if (ret)
			return ret;
		(*id)++;
	}
	return 0;
}

/* cb->args: [0] the device's index, [1] the next object id in it, [2] the named device found. */
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
	return ret == -EMSGSIZE && skb->len ? skb->len : ret ?: skb->len;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * MAD agents: registration by (port, QP type, class, class version, methods, OUI), refusing
 * conflicts; the lookup of the agent a request goes to; address handles on the MAD QP; and
 * synchronous unregistration.
 */
#include <linux/slab.h>
#include <kunit/visibility.h>
#include "mad_priv.h"

static atomic_t mad_next_hi_tid = ATOMIC_INIT(0);

static bool mad_class_has_oui(u8 mgmt_class)
{
	return mgmt_class >= OIB_MGMT_CLASS_OUI_START && mgmt_class <= OIB_MGMT_CLASS_OUI_END;
}

/* Do @a and @b claim the same requests? */
static bool mad_reg_conflicts(const struct oib_mad_reg_req *a, const struct oib_mad_reg_req *b)
{
	if (a->mgmt_class != b->mgmt_class || a->class_version != b->class_version)
		return false;
	if (mad_class_has_oui(a->mgmt_class) && memcmp(a->oui, b->oui, sizeof(a->oui)))
		return false;
	return bitmap_intersects(a->method_mask, b->method_mask, OIB_MGMT_MAX_METHODS);
}

/* A vendor range 2 class's OUI: any but 0. */
static bool mad_oui_valid(const u8 *oui)
{
	return oui[0] || oui[1] || oui[2];
}

/* The methods an agent takes: some, all requests (a response is matched by its TID). */
static bool mad_methods_valid(const unsigned long *mask)
{
	return !bitmap_empty(mask, OIB_MGMT_MAX_METHODS) && !test_bit(0, mask) &&
	       !test_bit(OIB_MGMT_METHOD_TRAP_REPRESS, mask);
}

static int mad_check_reg(const struct oib_mad_reg_req *req, oib_mad_recv_handler recv_handler)
{
	if (!req)
		return 0;	/* send-only */
	if (req->rmpp_version && req->rmpp_version != OIB_RMPP_VERSION)
		return -EINVAL;
	if (!req->rmpp_version && req->rmpp_max_bytes)
		return -EINVAL;
	if (!req->mgmt_class)	/* send-only: takes no requests */
		return bitmap_empty(req->method_mask, OIB_MGMT_MAX_METHODS) ? 0 : -EINVAL;
	if (!recv_handler || !mad_class_on_gsi(req->mgmt_class) || !req->class_version ||
	    !mad_methods_valid(req->method_mask))
		return -EINVAL;
	if (mad_class_has_oui(req->mgmt_class) && !mad_oui_valid(req->oui))
		return -EINVAL;
	if (req->rmpp_version && !oib_mad_class_uses_rmpp(req->mgmt_class))
		return -EINVAL;
	return 0;
}

struct oib_mad_agent *oib_register_mad_agent(struct oib_device *device, u32 port_num,
					     enum oib_qp_type qp_type,
					     const struct oib_mad_reg_req *req,
					     oib_mad_send_handler send_handler,
					     oib_mad_recv_handler recv_handler, void *context)
{
	struct mad_agent *ma, *other;
	struct mad_port *port;
	int ret;

	if (!device || !oib_port_valid(device, port_num) || !send_handler)
		return ERR_PTR(-EINVAL);
	if (qp_type == OIB_QPT_SMI)
		return ERR_PTR(-EOPNOTSUPP);	/* no QP0 on a RoCE port */
	if (qp_type != OIB_QPT_GSI)
		return ERR_PTR(-EINVAL);
	ret = mad_check_reg(req, recv_handler);
	if (ret)
		return ERR_PTR(ret);
	port = mad_port_get(device, port_num);
	if (!port)
		return ERR_PTR(-ENODEV);

	ma = kzalloc(sizeof(*ma), GFP_KERNEL);
	if (!ma)
		return ERR_PTR(-ENOMEM);
	ma->agent.device = device;
	ma->agent.port_num = port_num;
	ma->agent.send_handler = send_handler;
	ma->agent.recv_handler = recv_handler;
	ma->agent.context = context;
	ma->port = port;
	if (req && req->mgmt_class) {
		ma->reg = *req;
		ma->has_class = true;
	}
	ma->rmpp = req && req->rmpp_version;
	ma->rmpp_max = req && req->rmpp_max_bytes ? req->rmpp_max_bytes : OIB_MAD_RMPP_DEFAULT_MAX;
	INIT_LIST_HEAD(&ma->sends);
	INIT_DELAYED_WORK(&ma->timeout_work, mad_timeout_work);
	refcount_set(&ma->refs, 1);
	init_completion(&ma->done);
	do {
		ma->agent.hi_tid = atomic_inc_return(&mad_next_hi_tid);
	} while (!ma->agent.hi_tid);

	spin_lock_irq(&port->lock);
	ret = port->dying ? -ENODEV : 0;
	list_for_each_entry(other, &port->agents, port_link) {
		if (ret)
			break;
		if (ma->has_class && other->has_class && !other->dead &&
		    mad_reg_conflicts(&ma->reg, &other->reg))
			ret = -EBUSY;
	}
	if (!ret) {
		list_add_tail(&ma->port_link, &port->agents);
		kref_get(&port->ref);
	}
	spin_unlock_irq(&port->lock);
	if (ret) {
		kfree(ma);
		return ERR_PTR(ret);
	}
	return &ma->agent;
}
EXPORT_SYMBOL(oib_register_mad_agent);

/* Unregister has waited long: say for what (a lost work completion, or a handler that blocks). */
static void mad_agent_report_stuck(struct mad_agent *ma)
{
	struct mad_port *port = ma->port;
	struct mad_send *ms;

	spin_lock_irq(&port->lock);
	dev_warn(&port->device->dev,
		 "oib_mad: port %u: unregistering agent %08x still waits: %u references, %u WRs posted on the port\n",
		 port->port_num, ma->agent.hi_tid, refcount_read(&ma->refs), port->outstanding);
	list_for_each_entry(ms, &ma->sends, agent_link)
		dev_warn(&port->device->dev, "oib_mad:   mad %p state %s refs %u\n", ms,
			 mad_state_name(ms->state), ms->refs);
	spin_unlock_irq(&port->lock);
}

/*
 * Flush the agent's MADs (their send handlers run with OIB_MAD_SEND_FLUSHED before this returns),
 * stop its timeouts, wait for the work requests still on the QP and for every handler call in
 * progress.  Must not be called from a handler of an agent on the same port.
 */
void oib_unregister_mad_agent(struct oib_mad_agent *agent)
{
	struct mad_agent *ma;
	struct mad_port *port;

	if (!agent)
		return;
	might_sleep();
	ma = to_magent(agent);
	port = ma->port;

	spin_lock_irq(&port->lock);
	ma->dead = true;
	mad_flush_agent_locked(ma, OIB_MAD_SEND_FLUSHED);
	spin_unlock_irq(&port->lock);
	cancel_delayed_work_sync(&ma->timeout_work);
	mad_port_expire_reasm(port);	/* its messages being received go, with their references */

	mad_agent_put(ma);
	while (!wait_for_completion_timeout(&ma->done, MAD_UNREGISTER_REPORT))
		mad_agent_report_stuck(ma);

	spin_lock_irq(&port->lock);
	list_del(&ma->port_link);
	spin_unlock_irq(&port->lock);
	mad_port_put(port);
	kfree(ma);
}
EXPORT_SYMBOL(oib_unregister_mad_agent);

/*
 * The agent that takes this request, with a reference the caller drops; NULL if none.
 * *class_known says whether anyone takes the class and version at all.
 */
struct mad_agent *mad_agent_find_request(struct mad_port *port, const struct oib_mad_hdr *hdr,
					 bool *class_known)
{
	const u8 *oui = (const u8 *)hdr + OIB_MAD_OUI_OFFSET;
	struct mad_agent *ma, *found = NULL;

	*class_known = false;
	spin_lock_irq(&port->lock);
	list_for_each_entry(ma, &port->agents, port_link) {
		if (ma->dead || !ma->has_class || ma->reg.mgmt_class != hdr->mgmt_class ||
		    ma->reg.class_version != hdr->class_version)
			continue;
		if (mad_class_has_oui(hdr->mgmt_class) && memcmp(ma->reg.oui, oui, 3))
			continue;
		*class_known = true;
		if (test_bit(hdr->method & ~OIB_MGMT_METHOD_RESP, ma->reg.method_mask)) {
			refcount_inc(&ma->refs);
			found = ma;
			break;
		}
	}
	spin_unlock_irq(&port->lock);
	return found;
}

struct oib_ah *oib_mad_create_ah(struct oib_mad_agent *agent, const struct oib_ah_attr *attr)
{
	struct mad_port *port;

	if (!agent || !attr)
		return ERR_PTR(-EINVAL);
	port = to_magent(agent)->port;
	if (READ_ONCE(port->dying))
		return ERR_PTR(-ENODEV);
	return oib_create_ah(port->pd, attr);
}
EXPORT_SYMBOL(oib_mad_create_ah);

struct oib_ah *oib_mad_create_resp_ah(struct oib_mad_agent *agent, const struct oib_mad_recv *recv)
{
	struct oib_ah_attr attr;
	int ret;

	if (!agent || !recv || !recv->grh)
		return ERR_PTR(-EINVAL);
	ret = mad_ah_attr_from_grh(to_magent(agent)->port, recv->grh, &attr);
	if (ret)
		return ERR_PTR(ret);
	return oib_mad_create_ah(agent, &attr);
}
EXPORT_SYMBOL(oib_mad_create_resp_ah);

u64 oib_mad_agent_stat(struct oib_mad_agent *agent, enum oib_mad_agent_stat stat)
{
	if (!agent || stat >= OIB_MAD_AGENT_NSTATS)
		return 0;
	return atomic64_read(&to_magent(agent)->stats[stat]);
}
EXPORT_SYMBOL_IF_KUNIT(oib_mad_agent_stat);

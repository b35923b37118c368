// SPDX-License-Identifier: GPL-2.0-only
/*
 * The port's own agent: a send-only agent that sends the layer's own MADs, each with an address
 * handle of its own: the answers to requests nobody takes, and RMPP ACK, STOP and ABORT.  It
 * registers when its device is added (after the port's service is reachable) and unregisters
 * before the port is torn down.
 */
#include "mad_priv.h"

/* Its only MADs are the layer's own, each with its own AH: both go. */
static void mad_self_send_handler(struct oib_mad_agent *agent, struct oib_mad_send_wc *wc)
{
	struct oib_ah *ah = wc->send_buf->ah;

	oib_free_send_mad(wc->send_buf);
	oib_destroy_ah(ah);
}

int mad_self_start(struct mad_port *port)
{
	struct oib_mad_agent *self;

	self = oib_register_mad_agent(port->device, port->port_num, OIB_QPT_GSI, NULL,
				      mad_self_send_handler, NULL, NULL);
	if (IS_ERR(self))
		return PTR_ERR(self);
	port->self = to_magent(self);
	return 0;
}

void mad_self_stop(struct mad_port *port)
{
	struct mad_agent *self = port->self;

	/*
	 * No new MADs of its own from the port work, and the one it may be building finishes first:
	 * such a MAD holds no reference on the agent until it is posted.
	 */
	WRITE_ONCE(port->self, NULL);
	flush_work(&port->work);
	if (self)
		oib_unregister_mad_agent(&self->agent);
}

/*
 * A send buffer of the port's own agent, with an address handle of its own, for the layer's own
 * MADs; NULL if the port is going away or memory is short.  Port work only (that is what keeps
 * port->self alive while it is used).
 */
struct oib_mad_send_buf *mad_self_buf(struct mad_port *port, const struct oib_ah_attr *attr,
				      u32 remote_qpn, u16 pkey_index)
{
	struct mad_agent *self = READ_ONCE(port->self);
	struct oib_mad_send_buf *sb;
	struct oib_ah *ah;

	if (!self)
		return NULL;
	ah = oib_mad_create_ah(&self->agent, attr);
	if (IS_ERR(ah))
		return NULL;
	sb = oib_create_send_mad(&self->agent, ah, GFP_KERNEL);
	if (IS_ERR(sb)) {
		oib_destroy_ah(ah);
		return NULL;
	}
	sb->remote_qpn = remote_qpn;
	sb->pkey_index = pkey_index;
	return sb;
}

/* Post it; mad_self_send_handler() frees it, or this does if the post fails. */
void mad_self_post(struct oib_mad_send_buf *sb)
{
	struct oib_ah *ah = sb->ah;

	if (oib_post_send_mad(sb)) {
		oib_free_send_mad(sb);
		oib_destroy_ah(ah);
	}
}

/* Answer the request in @buf (GRH, then the MAD), which nobody takes, with @status. */
void mad_self_answer(struct mad_port *port, const u8 *buf, const struct oib_mad_recv *recv,
		     u16 status)
{
	struct oib_mad_send_buf *sb;
	struct oib_ah_attr attr;
	struct oib_mad_hdr *hdr;

	if (mad_ah_attr_from_grh(port, buf, &attr))
		return;
	sb = mad_self_buf(port, &attr, recv->src_qp, recv->pkey_index);
	if (!sb)
		return;
	memcpy(sb->mad, buf + OIB_MAD_GRH_SIZE, OIB_MAD_SIZE);
	hdr = sb->mad;
	hdr->method = hdr->method == OIB_MGMT_METHOD_SET ? OIB_MGMT_METHOD_GET_RESP :
			hdr->method | OIB_MGMT_METHOD_RESP;
	hdr->status = cpu_to_be16(status);
	mad_self_post(sb);
}

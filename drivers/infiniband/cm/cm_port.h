/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The CM on a port (cm_port.c): its MAD agent on QP1 for class 0x07, how CM MADs are sent from
 * it, and its counters.
 */
#ifndef OIB_CM_PORT_H
#define OIB_CM_PORT_H

#include <linux/kref.h>
#include <linux/rwsem.h>
#include <oib/cm.h>
#include <oib/mad.h>
#include <oib/kunit/cm_wire.h>

struct dentry;
struct cm_id_priv;

/*
 * One port of a device the CM serves.  The refcount story: the device's client data holds one
 * reference from add to remove, every cm_id using the port one (cm_id_priv.port); the last put
 * frees it.  At remove the agent goes (no MAD is sent or received through the port after), the
 * struct stays for the cm_ids that still point at it.
 */
struct cm_port {
	struct kref ref;
	struct oib_device *device;	/* for names; valid while @agent is */
	u32 port_num;
	u64 ca_guid;			/* the device's node GUID, CPU order */

	/* Protects @agent: read-held while sending, write-held to take it away. */
	struct rw_semaphore rwsem;
	struct oib_mad_agent *agent;	/* NULL once the port is removed */

	atomic64_t stats[OIB_CM_STAT_NTYPES][CM_NMSGS];
	atomic64_t drops[OIB_CM_NDROPS];
	struct dentry *debugfs;
};

void cm_port_get(struct cm_port *port);
void cm_port_put(struct cm_port *port);
struct cm_port *cm_port_find(struct oib_device *device, u32 port_num);	/* with a reference */

/*
 * Send @msg to @av from @port.  @owner NULL: once, nothing awaited.  Else @msg awaits its
 * answer: resent every @timeout_ms up to @retries times, @owner's reference held until its send
 * handler, which runs the table's timeout event unless the owner dropped it (cm_id_priv.msg).
 * Returns the send buffer, or ERR_PTR (-ENODEV: the port is gone).
 */
struct oib_mad_send_buf *cm_port_send(struct cm_port *port, const struct oib_ah_attr *av,
				      const struct cm_msg *msg, struct cm_id_priv *owner,
				      unsigned int timeout_ms, unsigned int retries);
/* Send the 256 bytes at @mad again, once; counted as a resend. */
int cm_port_resend(struct cm_port *port, const struct oib_ah_attr *av, const void *mad);
/* The address back to the sender of @recv; -EHOSTUNREACH without one. */
int cm_port_resp_av(struct cm_port *port, const struct oib_mad_recv *recv,
		    struct oib_ah_attr *av);

static inline void cm_port_count(struct cm_port *port, enum oib_cm_port_stat stat,
				 enum cm_msg_type type)
{
	atomic64_inc(&port->stats[stat][type]);
}

static inline void cm_port_drop(struct cm_port *port, enum oib_cm_drop why)
{
	atomic64_inc(&port->drops[why]);
}

int cm_port_init(struct dentry *root);
void cm_port_exit(void);

#endif /* OIB_CM_PORT_H */

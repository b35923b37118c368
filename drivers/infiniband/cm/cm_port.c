// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CM on each port: an oib client that gives every port with OIB_CORE_CAP_IB_CM a MAD agent
 * for class 0x07, version 2, method SEND on QP1.  Received MADs go to cm_recv(); every MAD the
 * CM sends carries its own address handle, destroyed when its send completes, so nothing of a
 * port outlives its agent but the counters.
 */
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <kunit/visibility.h>
#include "cm_id.h"
#include "cm_port.h"

/* The ports of one device, as the client's data. */
struct cm_device {
	struct list_head entry;		/* in cm_devices, under cm_devices_lock */
	struct oib_device *device;
	struct dentry *debugfs;
	u32 nports;
	struct cm_port *ports[];	/* NULL: no CM on that port */
};

static DEFINE_SPINLOCK(cm_devices_lock);	/* protects cm_devices */
static LIST_HEAD(cm_devices);
static struct dentry *cm_debugfs_root;
static struct oib_client cm_client;

static void cm_port_release(struct kref *ref)
{
	kfree(container_of(ref, struct cm_port, ref));
}

void cm_port_get(struct cm_port *port)
{
	kref_get(&port->ref);
}

void cm_port_put(struct cm_port *port)
{
	kref_put(&port->ref, cm_port_release);
}

struct cm_port *cm_port_find(struct oib_device *device, u32 port_num)
{
	struct cm_port *port = NULL;
	struct cm_device *cmd;

	spin_lock(&cm_devices_lock);
	list_for_each_entry(cmd, &cm_devices, entry) {
		if (cmd->device != device)
			continue;
		if (port_num >= 1 && port_num <= cmd->nports)
			port = cmd->ports[port_num - 1];
		if (port)
			cm_port_get(port);
		break;
	}
	spin_unlock(&cm_devices_lock);
	return port;
}

/* ---- Sending ---- */

static struct oib_mad_send_buf *cm_port_buf(struct cm_port *port, const struct oib_ah_attr *av)
{
	struct oib_mad_send_buf *sb;
	struct oib_ah *ah;

	lockdep_assert_held(&port->rwsem);
	if (!port->agent)
		return ERR_PTR(-ENODEV);
	ah = oib_mad_create_ah(port->agent, av);
	if (IS_ERR(ah))
		return ERR_CAST(ah);
	sb = oib_create_send_mad(port->agent, ah, GFP_KERNEL);
	if (IS_ERR(sb))
		oib_destroy_ah(ah);
	return sb;
}

static void cm_port_buf_free(struct oib_mad_send_buf *sb)
{
	struct oib_ah *ah = sb->ah;

	oib_free_send_mad(sb);
	oib_destroy_ah(ah);
}

struct oib_mad_send_buf *cm_port_send(struct cm_port *port, const struct oib_ah_attr *av,
				      const struct cm_msg *msg, struct cm_id_priv *owner,
				      unsigned int timeout_ms, unsigned int retries)
{
	struct oib_mad_send_buf *sb;
	enum cm_wire_err why;
	int ret;

	down_read(&port->rwsem);
	sb = cm_port_buf(port, av);
	if (IS_ERR(sb))
		goto out;
	ret = oib_cm_wire_pack(msg, sb->mad, OIB_MAD_SIZE, &why);
	if (!ret && owner) {
		sb->timeout_ms = timeout_ms;
		sb->retries = retries;
		sb->context[0] = owner;
		cm_id_get(owner);
	}
	if (!ret)
		ret = oib_post_send_mad(sb);
	if (ret) {
		if (sb->context[0])
			cm_id_put(owner);
		cm_port_buf_free(sb);
		sb = ERR_PTR(ret);
		goto out;
	}
	cm_port_count(port, OIB_CM_STAT_SENT, msg->type);
out:
	up_read(&port->rwsem);
	return sb;
}

int cm_port_resend(struct cm_port *port, const struct oib_ah_attr *av, const void *mad)
{
	const struct oib_mad_hdr *hdr = mad;
	struct oib_mad_send_buf *sb;
	int ret;

	down_read(&port->rwsem);
	sb = cm_port_buf(port, av);
	ret = PTR_ERR_OR_ZERO(sb);
	if (ret)
		goto out;
	memcpy(sb->mad, mad, OIB_MAD_SIZE);
	ret = oib_post_send_mad(sb);
	if (ret) {
		cm_port_buf_free(sb);
		goto out;
	}
	cm_port_count(port, OIB_CM_STAT_RESENT, be16_to_cpu(hdr->attr_id) - CM_ATTR_REQ);
out:
	up_read(&port->rwsem);
	return ret;
}

int cm_port_resp_av(struct cm_port *port, const struct oib_mad_recv *recv,
		    struct oib_ah_attr *av)
{
	struct oib_ah *ah;
	int ret = -ENODEV;

	down_read(&port->rwsem);
	if (port->agent) {
		ah = oib_mad_create_resp_ah(port->agent, recv);
		ret = PTR_ERR_OR_ZERO(ah);
		if (!ret) {
			*av = ah->attr;
			oib_destroy_ah(ah);
		}
	}
	up_read(&port->rwsem);
	return ret ? -EHOSTUNREACH : 0;
}

/* ---- The agent's handlers (the port's MAD work) ---- */

static void cm_send_handler(struct oib_mad_agent *agent, struct oib_mad_send_wc *wc)
{
	struct oib_mad_send_buf *sb = wc->send_buf;
	struct cm_id_priv *owner = sb->context[0];

	if (owner) {
		cm_msg_done(owner, sb, wc->status);
		cm_id_put(owner);
	}
	cm_port_buf_free(sb);
}

static void cm_recv_handler(struct oib_mad_agent *agent, struct oib_mad_send_buf *send_buf,
			    const struct oib_mad_recv *recv)
{
	cm_recv(agent->context, recv);
}

/* ---- Counters ---- */

u64 oib_cm_port_stat(struct oib_device *device, u32 port_num, enum oib_cm_port_stat stat,
		     u16 attr_id)
{
	struct cm_port *port;
	u64 v = 0;

	if (stat >= OIB_CM_STAT_NTYPES || attr_id < CM_ATTR_REQ ||
	    attr_id >= CM_ATTR_REQ + CM_NMSGS)
		return 0;
	port = cm_port_find(device, port_num);
	if (port) {
		v = atomic64_read(&port->stats[stat][attr_id - CM_ATTR_REQ]);
		cm_port_put(port);
	}
	return v;
}
EXPORT_SYMBOL(oib_cm_port_stat);

u64 oib_cm_port_drops(struct oib_device *device, u32 port_num, enum oib_cm_drop why)
{
	struct cm_port *port;
	u64 v = 0;

	if (why >= OIB_CM_NDROPS)
		return 0;
	port = cm_port_find(device, port_num);
	if (port) {
		v = atomic64_read(&port->drops[why]);
		cm_port_put(port);
	}
	return v;
}
EXPORT_SYMBOL(oib_cm_port_drops);

static const char * const cm_stat_names[OIB_CM_STAT_NTYPES] = {
	[OIB_CM_STAT_SENT] = "sent", [OIB_CM_STAT_RESENT] = "resent",
	[OIB_CM_STAT_RECEIVED] = "received", [OIB_CM_STAT_DUPLICATES] = "duplicates",
};

static const char * const cm_drop_names[OIB_CM_NDROPS] = {
	[OIB_CM_DROP_MALFORMED] = "malformed", [OIB_CM_DROP_UNKNOWN_ID] = "unknown_id",
	[OIB_CM_DROP_PROTOCOL] = "protocol", [OIB_CM_DROP_NO_ROUTE] = "no_route",
	[OIB_CM_DROP_NOMEM] = "nomem",
};

static int cm_port_show(struct seq_file *m, void *unused)
{
	struct cm_port *port = m->private;
	int s, t;

	seq_printf(m, "%-10s", "");
	for (s = 0; s < OIB_CM_STAT_NTYPES; s++)
		seq_printf(m, " %10s", cm_stat_names[s]);
	seq_putc(m, '\n');
	for (t = 0; t < CM_NMSGS; t++) {
		seq_printf(m, "%-10s", oib_cm_wire_msg_name(t));
		for (s = 0; s < OIB_CM_STAT_NTYPES; s++)
			seq_printf(m, " %10lld", atomic64_read(&port->stats[s][t]));
		seq_putc(m, '\n');
	}
	for (t = 0; t < OIB_CM_NDROPS; t++)
		seq_printf(m, "drop_%s %lld\n", cm_drop_names[t], atomic64_read(&port->drops[t]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cm_port);

/* ---- The client ---- */

static struct cm_port *cm_port_add(struct cm_device *cmd, u32 port_num)
{
	struct oib_mad_reg_req req = { .mgmt_class = OIB_MGMT_CLASS_CM,
				       .class_version = CM_CLASS_VERSION };
	struct cm_port *port;
	char name[16];

	port = kzalloc(sizeof(*port), GFP_KERNEL);
	if (!port)
		return ERR_PTR(-ENOMEM);
	kref_init(&port->ref);
	init_rwsem(&port->rwsem);
	port->device = cmd->device;
	port->port_num = port_num;
	port->ca_guid = be64_to_cpu(cmd->device->node_guid);
	__set_bit(OIB_MGMT_METHOD_SEND, req.method_mask);
	port->agent = oib_register_mad_agent(cmd->device, port_num, OIB_QPT_GSI, &req,
					     cm_send_handler, cm_recv_handler, port);
	if (IS_ERR(port->agent)) {
		int ret = PTR_ERR(port->agent);

		kfree(port);
		return ERR_PTR(ret);
	}
	snprintf(name, sizeof(name), "port%u", port_num);
	port->debugfs = debugfs_create_file(name, 0444, cmd->debugfs, port, &cm_port_fops);
	return port;
}

static void cm_port_remove(struct cm_port *port)
{
	struct oib_mad_agent *agent;

	debugfs_remove(port->debugfs);
	down_write(&port->rwsem);
	agent = port->agent;
	port->agent = NULL;
	up_write(&port->rwsem);
	oib_unregister_mad_agent(agent);	/* flushes our MADs: their handlers ran */
	cm_port_put(port);
}

static int cm_add_device(struct oib_device *device)
{
	struct cm_device *cmd;
	struct cm_port *port;
	u32 p, served = 0;
	int ret;

	cmd = kzalloc(struct_size(cmd, ports, device->phys_port_cnt), GFP_KERNEL);
	if (!cmd)
		return -ENOMEM;
	cmd->device = device;
	cmd->nports = device->phys_port_cnt;
	cmd->debugfs = debugfs_create_dir(oib_dev_name(device), cm_debugfs_root);
	for (p = 1; p <= cmd->nports; p++) {
		if (!(oib_port_immutable(device, p)->core_cap_flags & OIB_CORE_CAP_IB_CM))
			continue;
		port = cm_port_add(cmd, p);
		if (IS_ERR(port)) {
			ret = PTR_ERR(port);
			goto err;
		}
		cmd->ports[p - 1] = port;
		served++;
	}
	ret = -EOPNOTSUPP;
	if (!served)
		goto err;
	ret = oib_set_client_data(device, &cm_client, cmd);
	if (ret)
		goto err;
	spin_lock(&cm_devices_lock);
	list_add_tail(&cmd->entry, &cm_devices);
	spin_unlock(&cm_devices_lock);
	return 0;
err:
	while (p-- > 1)
		if (cmd->ports[p - 1])
			cm_port_remove(cmd->ports[p - 1]);
	debugfs_remove(cmd->debugfs);
	kfree(cmd);
	return ret;
}

static void cm_remove_device(struct oib_device *device, void *client_data)
{
	struct cm_device *cmd = client_data;
	u32 p;

	spin_lock(&cm_devices_lock);
	list_del(&cmd->entry);
	spin_unlock(&cm_devices_lock);
	for (p = 0; p < cmd->nports; p++)
		if (cmd->ports[p])
			cm_port_remove(cmd->ports[p]);
	debugfs_remove(cmd->debugfs);
	kfree(cmd);
}

static struct oib_client cm_client = {
	.name = "oib_cm",
	.add = cm_add_device,
	.remove = cm_remove_device,
};

int cm_port_init(struct dentry *root)
{
	cm_debugfs_root = root;
	return oib_register_client(&cm_client);
}

void cm_port_exit(void)
{
	oib_unregister_client(&cm_client);
}

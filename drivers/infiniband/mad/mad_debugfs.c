// SPDX-License-Identifier: GPL-2.0-only
/*
 * debugfs: /sys/kernel/debug/oib_mad/<device>/port<N>: the port's counters, its window and
 * backlogs, its send list, and each agent with its counters and send list (state, TID, class,
 * method, references).
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include "mad_priv.h"

static struct dentry *mad_debugfs_root;

static const char * const mad_port_stat_names[OIB_MAD_PORT_NSTATS] = {
	[OIB_MAD_PORT_SENT] = "sent", [OIB_MAD_PORT_SEND_ERRORS] = "send_errors",
	[OIB_MAD_PORT_RECEIVED] = "received", [OIB_MAD_PORT_DISPATCHED] = "dispatched",
	[OIB_MAD_PORT_RESPONSES] = "responses", [OIB_MAD_PORT_ANSWERED] = "answered",
	[OIB_MAD_PORT_DROP_MALFORMED] = "drop_malformed",
	[OIB_MAD_PORT_DROP_UNMATCHED] = "drop_unmatched",
	[OIB_MAD_PORT_DROP_NO_AGENT] = "drop_no_agent", [OIB_MAD_PORT_TIMEOUTS] = "timeouts",
	[OIB_MAD_PORT_RETRIES] = "retries", [OIB_MAD_PORT_RECOVERIES] = "recoveries",
	[OIB_MAD_PORT_MAX_OUTSTANDING] = "max_outstanding",
	[OIB_MAD_PORT_HELD] = "held",
	[OIB_MAD_PORT_MAX_AWAITING] = "max_awaiting",
	[OIB_MAD_PORT_RMPP] = "rmpp",
	[OIB_MAD_PORT_RMPP_SEGS_SENT] = "rmpp_segs_sent",
	[OIB_MAD_PORT_RMPP_SEGS_RECV] = "rmpp_segs_recv",
	[OIB_MAD_PORT_RMPP_DUPLICATES] = "rmpp_duplicates",
	[OIB_MAD_PORT_RMPP_OUT_OF_WINDOW] = "rmpp_out_of_window",
	[OIB_MAD_PORT_RMPP_ACKS_SENT] = "rmpp_acks_sent",
	[OIB_MAD_PORT_RMPP_ACKS_RECV] = "rmpp_acks_recv",
	[OIB_MAD_PORT_RMPP_STOPS_SENT] = "rmpp_stops_sent",
	[OIB_MAD_PORT_RMPP_STOPS_RECV] = "rmpp_stops_recv",
	[OIB_MAD_PORT_RMPP_REASSEMBLED] = "rmpp_reassembled",
	[OIB_MAD_PORT_RMPP_DISCARDED] = "rmpp_discarded",
};

static const char * const mad_agent_stat_names[OIB_MAD_AGENT_NSTATS] = {
	[OIB_MAD_AGENT_SENT] = "sent", [OIB_MAD_AGENT_COMPLETED] = "completed",
	[OIB_MAD_AGENT_RECEIVED] = "received", [OIB_MAD_AGENT_TIMEOUTS] = "timeouts",
	[OIB_MAD_AGENT_RETRIES] = "retries",
};

static void mad_show_send(struct seq_file *m, const struct mad_send *ms)
{
	const struct oib_mad_hdr *hdr = ms->buf.mad;

	seq_printf(m, "    %-10s tid %016llx class %#04x method %#04x refs %u retries_left %u",
		   mad_state_name(ms->state), be64_to_cpu(hdr->tid), hdr->mgmt_class,
		   hdr->method, ms->refs, ms->retries_left);
	if (ms->rmpp)
		seq_printf(m, " rmpp segs %u next %u acked %u window %u",
			   ms->seg_count, ms->seg_next, ms->last_ack, ms->win_last);
	seq_putc(m, '\n');
}

static int mad_port_show(struct seq_file *m, void *v)
{
	struct mad_port *port = m->private;
	const struct mad_send *ms;
	const struct mad_agent *ma;
	unsigned int resp = 0, req = 0, held = 0;
	int i;

	for (i = 0; i < OIB_MAD_PORT_NSTATS; i++)
		seq_printf(m, "%-20s %llu\n", mad_port_stat_names[i],
			   (u64)atomic64_read(&port->stats[i]));

	spin_lock_irq(&port->lock);
	list_for_each_entry(ms, &port->resp_backlog, port_link)
		resp++;
	list_for_each_entry(ms, &port->req_backlog, port_link)
		req++;
	list_for_each_entry(ms, &port->held, port_link)
		held++;
	seq_printf(m, "outstanding %u/%u backlog responses %u requests %u awaiting %u/%u held %u%s%s\n",
		   port->outstanding, MAD_MAX_OUTSTANDING, resp, req, port->awaiting,
		   MAD_MAX_AWAITING, held,
		   port->dying ? " dying" : "", port->recovering ? " recovering" : "");
	seq_puts(m, "port send list:\n");
	list_for_each_entry(ms, &port->send_list, port_link)
		mad_show_send(m, ms);
	list_for_each_entry(ma, &port->agents, port_link) {
		seq_printf(m, "agent hi_tid %08x class %#04x version %u%s%s:", ma->agent.hi_tid,
			   ma->reg.mgmt_class, ma->reg.class_version,
			   ma == port->self ? " (port)" : "", ma->dead ? " dead" : "");
		for (i = 0; i < OIB_MAD_AGENT_NSTATS; i++)
			seq_printf(m, " %s %llu", mad_agent_stat_names[i],
				   (u64)atomic64_read(&ma->stats[i]));
		seq_puts(m, "\n  agent send list:\n");
		list_for_each_entry(ms, &ma->sends, agent_link)
			mad_show_send(m, ms);
	}
	spin_unlock_irq(&port->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mad_port);

void mad_debugfs_add_port(struct mad_port *port)
{
	struct dentry *dir;
	char name[16];

	dir = debugfs_lookup(oib_dev_name(port->device), mad_debugfs_root);
	if (!dir)
		dir = debugfs_create_dir(oib_dev_name(port->device), mad_debugfs_root);
	else
		dput(dir);
	snprintf(name, sizeof(name), "port%u", port->port_num);
	port->debugfs = debugfs_create_file(name, 0444, dir, port, &mad_port_fops);
}

void mad_debugfs_remove_port(struct mad_port *port)
{
	debugfs_remove(port->debugfs);
	port->debugfs = NULL;
}

void mad_debugfs_remove_device(struct oib_device *device)
{
	debugfs_lookup_and_remove(oib_dev_name(device), mad_debugfs_root);
}

void mad_debugfs_init(void)
{
	mad_debugfs_root = debugfs_create_dir("oib_mad", NULL);
}

void mad_debugfs_exit(void)
{
	debugfs_remove_recursive(mad_debugfs_root);
}

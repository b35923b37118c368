/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_rxe, the software RDMA device: what tests and tools call to make and break devices.
 * Users reach the same from sysfs: /sys/module/oib_rxe/parameters/{add,remove}.
 */
#ifndef OIB_RXE_H
#define OIB_RXE_H

#include <oib/device.h>

/* Zero in any limit means the default. */
struct oib_rxe_params {
	u32 num_ports;		/* 1..OIB_RXE_MAX_PORTS */
	u32 max_pd, max_cq, max_qp, max_srq, max_mr, max_ah;
	u32 max_cqe, max_qp_wr, max_srq_wr;
};

#define OIB_RXE_MAX_PORTS 8

/* Create and register a device named oib_rxe<N>, its ports ACTIVE. */
struct oib_device *oib_rxe_add(const struct oib_rxe_params *params);
/* Unregister (waiting for its users) and free a device made by oib_rxe_add(). */
int oib_rxe_remove(struct oib_device *device);
/* Take a port's link down or up, raising PORT_ERR or PORT_ACTIVE. */
int oib_rxe_set_port_state(struct oib_device *device, u32 port, bool up);

#endif /* OIB_RXE_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/* What oib_ucma_user's cases share: the ioctls, two oib_rxe devices, waiting for events. */
#ifndef OIB_UCMA_USER_H
#define OIB_UCMA_USER_H

#include <stdbool.h>
#include <stdint.h>
#include <oib/ucma.h>
#include "oibv.h"

#define DEV "/dev/oib_rdma_cm"
#define ADDR_A "10.38.0.1"
#define ADDR_B "10.38.0.2"

extern char dev_a[32], dev_b[32];		/* oib_rxe<N>, with ADDR_A and ADDR_B */
extern struct oibv_context *ctx_a, *ctx_b;	/* their verbs contexts */

int ucma_open(void);
/* ioctl(@fd, @cmd, @arg): 0 or errno */
int call(int fd, unsigned long cmd, void *arg);
/* a TCP/RC id of @fd, or 0 */
uint32_t create_id(int fd, uint64_t uid);
int destroy_id(int fd, uint32_t id, uint32_t *reported);
void ip4(struct __kernel_sockaddr_storage *ss, const char *ip, uint16_t port);
/* the next event within 20 s: 0 or errno */
int get_event(int fd, struct oib_ucma_event *e);
/* the next event is @type of @id (copied to @e if not NULL) */
bool expect(int fd, uint32_t id, uint32_t type, struct oib_ucma_event *e);
/* the cm_ids oib_ucma made (oib res show cm_id), or -1 */
int ucma_ids(void);
/* until there are none (20 s at most) */
bool no_ids_left(void);
/* an RC QP in RESET on @ctx */
struct oibv_qp *reset_qp(struct oibv_context *ctx);
int attach(int fd, uint32_t id, struct oibv_qp *qp);
bool resolve(int cf, uint32_t c, uint16_t port);
bool listen_on(int sf, uint32_t s, uint16_t port);
bool connect_with(int cf, uint32_t c, const char *pdata);

bool t_refusals(void);
bool t_wrong_states(void);
bool t_connection(void);
bool t_listener_destroyed(void);
bool t_file_closed(void);
bool t_qp_destroyed(void);
bool t_uverbs_closed(void);

#endif /* OIB_UCMA_USER_H */

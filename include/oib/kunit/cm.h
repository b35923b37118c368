/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_cm internals for its KUnit suites only: exported with EXPORT_SYMBOL_IF_KUNIT (namespace
 * EXPORTED_FOR_KUNIT_TESTING) when the kernel has KUnit, absent otherwise.  Never for ULPs.
 *
 * The wire format (cm_wire.h) and the state table (cm_fsm.h) live next to this header, as the
 * module's own files and these suites share them: the unpacked messages, pack/unpack and the
 * table lookup.  Below: the cm_id tables (cm_id.c).  Lookups return the id with a reference,
 * dropped with oib_cm_id_put().
 */
#ifndef OIB_KUNIT_CM_H
#define OIB_KUNIT_CM_H

#include <oib/cm.h>
#include <oib/kunit/cm_fsm.h>
#include <oib/kunit/cm_wire.h>

/* The id whose wire local comm ID is @local_id, or NULL. */
struct oib_cm_id *oib_cm_id_find_local(u32 local_id);

/* Record @id's peer; NULL, or the id that already has (@remote_id, @remote_gid). */
struct oib_cm_id *oib_cm_id_insert_remote(struct oib_cm_id *id, u32 remote_id,
					  const union oib_gid *remote_gid);

/* Record @id's peer QP; NULL, or the id whose connection already has it (a stale REQ). */
struct oib_cm_id *oib_cm_id_insert_remote_qpn(struct oib_cm_id *id, u64 remote_ca_guid,
					      u32 remote_qpn);

/* The listener a REQ to @service_id on @device goes to, or NULL. */
struct oib_cm_id *oib_cm_id_find_listener(struct oib_device *device, u64 service_id);

void oib_cm_id_put(struct oib_cm_id *id);

/* Call @id's handler with @event now, as its work does; a non-zero return destroys @id. */
void oib_cm_id_deliver(struct oib_cm_id *id, const struct oib_cm_event *event);

/* Wait for the CM's work (event delivery, timewait) queued so far. */
void oib_cm_id_flush(void);

/*
 * Have the CM's QP watches ignore COMM_EST (or take it again), so that a test can see a passive
 * side established by the first receive completion alone.
 */
void oib_cm_ignore_comm_est(bool ignore);

#endif /* OIB_KUNIT_CM_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_siw's internals for its KUnit suites only (EXPORT_SYMBOL_IF_KUNIT, namespace
 * EXPORTED_FOR_KUNIT_TESTING).  Never for ULPs or tools: they have <oib/siw.h>.
 */
#ifndef OIB_KUNIT_SIW_H
#define OIB_KUNIT_SIW_H

#include <linux/types.h>

/* The mpa_crc parameter (ask for CRCs when connecting): set it, return what it was. */
bool oib_siw_set_mpa_crc(bool on);
/* The mpa_timeout_ms parameter (the wait for the peer's MPA frame): set it, return what it was. */
unsigned int oib_siw_set_mpa_timeout_ms(unsigned int ms);

#endif /* OIB_KUNIT_SIW_H */

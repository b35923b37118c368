/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* liboibv internals shared between its files. */
#ifndef OIBV_PRIV_H
#define OIBV_PRIV_H

#include <stddef.h>

int oibv_cmd(int fd, unsigned int nr, void *cmd, size_t size);

#endif /* OIBV_PRIV_H */

/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* liboibv internals shared between its files. */
#ifndef OIBV_PRIV_H
#define OIBV_PRIV_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

int oibv_cmd(int fd, unsigned int nr, void *cmd, size_t size);

/*
 * An object's events acknowledged (oibv_cq.c): @n more in *@completed, under @mutex; its destroy
 * waits until *@completed is what the kernel says was read, then the mutex and cond go.
 */
void oibv_events_ack(pthread_mutex_t *mutex, pthread_cond_t *cond, uint32_t *completed,
		     uint32_t n);
void oibv_events_wait_done(pthread_mutex_t *mutex, pthread_cond_t *cond,
			   const uint32_t *completed, uint32_t reported);

#endif /* OIBV_PRIV_H */

// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The devices ids are on: the drop-in libibverbs's devices, each opened once on first use and
 * kept open for the process's life (as librdmacm keeps its own), with a PD made on first
 * demand for the calls that are given none (rdma_create_ep(), rdma_create_qp() with NULL).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "rdmacm.h"

struct cma_device {
	struct ibv_context *verbs;
	struct ibv_pd *pd;		/* the default PD, or NULL until asked */
};

static pthread_mutex_t cma_dev_lock = PTHREAD_MUTEX_INITIALIZER;	/* all below */
static struct cma_device *cma_devs;
static int cma_ndevs = -1;	/* -1: not listed yet */

static int cma_devices_list_locked(void)
{
	struct ibv_device **list;
	int i, n;

	if (cma_ndevs >= 0)
		return 0;
	list = ibv_get_device_list(&n);
	if (!list)
		return -1;
	cma_devs = calloc(n ? n : 1, sizeof(*cma_devs));
	if (!cma_devs) {
		ibv_free_device_list(list);
		return cma_err(ENOMEM);
	}
	cma_ndevs = 0;
	for (i = 0; i < n; i++) {
		cma_devs[cma_ndevs].verbs = ibv_open_device(list[i]);
		if (cma_devs[cma_ndevs].verbs)
			cma_ndevs++;
	}
	ibv_free_device_list(list);
	return 0;
}

/* The open context of the device @name, or NULL (ENODEV). */
struct ibv_context *cma_device_context(const char *name)
{
	struct ibv_context *verbs = NULL;
	int i;

	pthread_mutex_lock(&cma_dev_lock);
	if (!cma_devices_list_locked())
		for (i = 0; i < cma_ndevs && !verbs; i++)
			if (!strcmp(ibv_get_device_name(cma_devs[i].verbs->device), name))
				verbs = cma_devs[i].verbs;
	pthread_mutex_unlock(&cma_dev_lock);
	if (!verbs)
		errno = ENODEV;
	return verbs;
}

struct ibv_pd *cma_device_pd(struct ibv_context *verbs)
{
	struct ibv_pd *pd = NULL;
	int i;

	pthread_mutex_lock(&cma_dev_lock);
	for (i = 0; i < cma_ndevs; i++) {
		if (cma_devs[i].verbs != verbs)
			continue;
		if (!cma_devs[i].pd)
			cma_devs[i].pd = ibv_alloc_pd(verbs);
		pd = cma_devs[i].pd;
	}
	pthread_mutex_unlock(&cma_dev_lock);
	return pd;
}

/* A NULL-terminated copy of the contexts (rdma_get_devices()). */
struct ibv_context **cma_device_all(int *num)
{
	struct ibv_context **all = NULL;
	int i;

	pthread_mutex_lock(&cma_dev_lock);
	if (!cma_devices_list_locked())
		all = calloc(cma_ndevs + 1, sizeof(*all));
	for (i = 0; all && i < cma_ndevs; i++)
		all[i] = cma_devs[i].verbs;
	if (all && num)
		*num = cma_ndevs;
	pthread_mutex_unlock(&cma_dev_lock);
	return all;
}

// SPDX-License-Identifier: GPL-2.0-only
/* The toolkit's bounded waits on conditions; see oib_toolkit.h. */
#include <linux/iopoll.h>
#include <linux/module.h>
#include "oib_toolkit.h"

/* Poll @cq for what is still missing of @n; the number come so far. */
static int oib_test_poll_more(struct oib_cq *cq, struct oib_wc *wc, int n, int *got)
{
	int ret = oib_poll_cq(cq, n - *got, wc + *got);

	if (ret > 0)
		*got += ret;
	return *got;
}

int oib_test_poll_cq_ms(struct oib_cq *cq, struct oib_wc *wc, int n, unsigned int ms)
{
	int got = 0, now;

	read_poll_timeout(oib_test_poll_more, now, now >= n, 200, ms * USEC_PER_MSEC, false,
			  cq, wc, n, &got);
	return got;
}
EXPORT_SYMBOL(oib_test_poll_cq_ms);

int oib_test_poll_cq(struct oib_cq *cq, struct oib_wc *wc, int n)
{
	return oib_test_poll_cq_ms(cq, wc, n, OIB_TEST_WAIT_MS);
}
EXPORT_SYMBOL(oib_test_poll_cq);

bool oib_test_wait_rxe_stat(struct oib_device *device, u32 port, enum oib_rxe_port_stat stat,
			    u64 n)
{
	u64 v;

	return !read_poll_timeout(oib_rxe_port_stat, v, v >= n, 500,
				  OIB_TEST_WAIT_MS * USEC_PER_MSEC, false, device, port, stat);
}
EXPORT_SYMBOL(oib_test_wait_rxe_stat);

bool oib_test_wait_count(wait_queue_head_t *wq, atomic_t *v, int n)
{
	return wait_event_timeout(*wq, atomic_read(v) >= n, msecs_to_jiffies(OIB_TEST_WAIT_MS));
}
EXPORT_SYMBOL(oib_test_wait_count);

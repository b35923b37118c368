// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_srpt: an SRP target over oib_cma serving memory LUNs (Documentation/srp.md).  One target
 * is controlled through /sys/module/oib_srpt/parameters/target:
 *   echo "PORT NLUNS MIB" > target	listen on every address's PORT with NLUNS LUNs of MIB MiB
 *   echo "" > target			stop it
 * Logins must name the target port ID "oib_srpt" (ASCII, zero padded to 16 bytes).
 */
#include <linux/in.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include "srpt_priv.h"

static DEFINE_MUTEX(srpt_param_mutex);	/* srpt_the_target, srpt_the_spec */
static struct srpt_target *srpt_the_target;
static char srpt_the_spec[64];

static const u8 srpt_port_id[16] = "oib_srpt";

static int srpt_target_set(const char *val, const struct kernel_param *kp)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct srpt_target *t = NULL;
	u32 port, nluns, mib;

	if (sysfs_streq(val, "")) {
		port = 0;
	} else if (sscanf(val, "%u %u %u", &port, &nluns, &mib) != 3 || !port ||
		   port > 65535 || mib > 4096) {
		return -EINVAL;
	}
	if (port) {
		sin.sin_port = htons(port);
		t = srpt_target_create((struct sockaddr *)&sin, srpt_port_id, nluns,
				       (u64)mib << 20);
		if (IS_ERR(t))
			return PTR_ERR(t);
	}
	mutex_lock(&srpt_param_mutex);
	swap(t, srpt_the_target);
	if (port)
		snprintf(srpt_the_spec, sizeof(srpt_the_spec), "%u %u %u", port, nluns, mib);
	else
		srpt_the_spec[0] = 0;
	mutex_unlock(&srpt_param_mutex);
	srpt_target_destroy(t);
	return 0;
}

static int srpt_target_get(char *buf, const struct kernel_param *kp)
{
	int n;

	mutex_lock(&srpt_param_mutex);
	n = sysfs_emit(buf, "%s\n", srpt_the_spec);
	mutex_unlock(&srpt_param_mutex);
	return n;
}

static const struct kernel_param_ops srpt_target_ops = {
	.set = srpt_target_set,
	.get = srpt_target_get,
};
module_param_cb(target, &srpt_target_ops, NULL, 0644);
MODULE_PARM_DESC(target, "\"PORT NLUNS MIB\": serve NLUNS memory LUNs of MIB MiB on PORT; \"\": stop");

static int __init srpt_init(void)
{
	return 0;
}

static void __exit srpt_exit(void)
{
	srpt_target_destroy(srpt_the_target);
}

module_init(srpt_init);
module_exit(srpt_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("oib SRP target: memory LUNs over oib_cma");

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The toolkit's RDMA CM part, compiled as an object of this folder: the suites of kunit/cma,
 * kunit/srp and kunit/srpt link ../toolkit/toolkit_cma.o, which each of their folders compiles
 * again (its own module name), and one more folder doing so in the same parallel build makes
 * their races over that one object file likelier.
 */
#include "../toolkit/toolkit_cma.c"

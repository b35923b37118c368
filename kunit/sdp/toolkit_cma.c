// SPDX-License-Identifier: GPL-2.0-only
/*
 * The toolkit's cma part, compiled in this folder: an object listed by the Kbuild of two
 * folders is built by both at once under make -j, and one of them then links a half-written file.
 */
#include "../toolkit/toolkit_cma.c"

// SPDX-License-Identifier: GPL-2.0-only
/* The toolkit's oib_siw part, compiled in this folder (see toolkit_cma.c here). */
#include "../toolkit/toolkit_siw.c"

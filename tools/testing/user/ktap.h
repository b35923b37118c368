/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * KTAP output for the guest's userspace tests: one suite per program (its name), a case per
 * test function, diagnostics as "# " lines; tools/ktap.sh counts them with the KUnit suites.
 */
#ifndef OIB_USER_KTAP_H
#define OIB_USER_KTAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

struct ktap_case {
	const char *name;
	bool (*run)(void);
};

/* A diagnostic line inside the running case. */
static inline void diag(const char *fmt, ...)
{
	va_list ap;

	printf("    # ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/*
 * A fuzzer's count of inputs, for make check's total (tools/check.sh): one line per fuzz with
 * the inputs it made (calls, commands, rounds), under a name of its own.
 */
static inline void fuzz_inputs(const char *name, unsigned long long n)
{
	diag("OIB-FUZZ-INPUTS %s %llu", name, n);
}

/* A check: prints what failed and where; evaluates to the condition. */
#define CHECK(cond) ((cond) ? true : (diag("%s:%d: %s failed", __FILE__, __LINE__, #cond), false))
/* A check that a call failed with -1/errno or a positive errno value @err. */
#define CHECK_ERR(expr, err) ({							\
	int __r = (expr);							\
	int __e = __r == -1 ? errno : __r;					\
	__e == (err) ? true : (diag("%s:%d: %s gave %d, want %d", __FILE__, __LINE__,	\
				    #expr, __e, (err)), false);			\
})

static inline int ktap_run(const char *suite, const struct ktap_case *cases, int n)
{
	int i, failed = 0;

	printf("KTAP version 1\n1..1\n    KTAP version 1\n");
	printf("    # Subtest: %s\n    1..%d\n", suite, n);
	fflush(stdout);
	for (i = 0; i < n; i++) {
		bool ok = cases[i].run();

		printf("    %sok %d %s\n", ok ? "" : "not ", i + 1, cases[i].name);
		fflush(stdout);
		failed += !ok;
	}
	printf("%sok 1 %s\n", failed ? "not " : "", suite);
	fflush(stdout);
	return failed ? 1 : 0;
}

#endif /* OIB_USER_KTAP_H */

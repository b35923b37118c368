// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_uverbs_fuzz: the stateful fuzzer of the user ABI (fuzz.h; Documentation/testing.md).
 * Programs are generated, or mutated from a corpus of those that reached new kernel coverage
 * (fuzz_cover.c) or a new (command, errno, state) triple, and run against a fresh device with a
 * peer on a second one (a program that removed the fuzzed device gets a new one after it); after
 * each, the kernel log (/dev/kmsg) is read: a BUG, KASAN, WARNING, Oops or lockdep line prints the
 * program and fails the run.
 *
 * Environment: OIB_FUZZ_SEED (default: from the clock), OIB_FUZZ_CALLS (system calls to
 * make, default FZ_DEFAULT_CALLS), OIB_FUZZ_SECONDS (a limit on the time as well, default
 * FZ_DEFAULT_SECONDS; 0: none),
 * OIB_FUZZ_REPLAY=<seed>,<seed>... (run the one program those seeds make, OIB_FUZZ_REPEAT
 * times, default 200).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "fuzz.h"
#include "ktap.h"
#include "uverbs_util.h"

/*
 * make check's budget: 60 s of the guest, what make check's 20 minutes on a slow host leave it;
 * the time ends a run long before the calls do (under TCG a call costs about half a millisecond
 * and more, Documentation/testing.md): 1,000,000 calls is make fuzz's to do.
 */
#define FZ_DEFAULT_CALLS	1000000
#define FZ_DEFAULT_SECONDS	60
#define CORPUS			512
#define SIG_BITS		(1024 * 1024)

static struct oibv_device *peer_dev;
static char peer_ibdev[64];
static int kmsg = -1;

static struct fz_prog corpus[CORPUS];
static int ncorpus;
static uint8_t signal_seen[SIG_BITS / 8];
static unsigned int nsignal;

static uint64_t env_u64(const char *name, uint64_t def, int base)
{
	const char *v = getenv(name);

	return v && *v ? strtoull(v, NULL, base) : def;
}

/* Kernel log lines since the last call that show a kernel finding; printed.  How many. */
static int kmsg_findings(void)
{
	static const char *const bad[] = {
		"BUG:", "KASAN", "WARNING:", "Oops", "lockdep", "possible circular",
		"possible recursive", "UBSAN", "general protection", "list_add corruption",
		"list_del corruption", "kernel BUG", "pagealloc: memory corruption",
	};
	char rec[2048];
	int n = 0, i;
	ssize_t r;

	for (;;) {
		r = read(kmsg, rec, sizeof(rec) - 1);
		if (r < 0 && errno == EPIPE)
			continue;	/* overwritten records: read on */
		if (r <= 0)
			break;
		rec[r] = 0;
		for (i = 0; i < (int)(sizeof(bad) / sizeof(bad[0])); i++)
			if (strstr(rec, bad[i])) {
				rec[strcspn(rec, "\n")] = 0;
				diag("kernel: %s", strchr(rec, ';') ? strchr(rec, ';') + 1 : rec);
				n++;
				break;
			}
	}
	return n;
}

static bool kmsg_open(void)
{
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg < 0)
		return false;
	lseek(kmsg, 0, SEEK_END);
	return true;
}

static unsigned int nremoved;	/* programs that removed the fuzzed device */

/* The fuzzed device's node and GID, in fz_env, from test_dev. */
static bool fuzzed_device(void)
{
	struct oibv_context *c = oibv_open_device(test_dev);
	union oibv_gid g;
	bool ok;

	snprintf(fz_env.dev_path, sizeof(fz_env.dev_path), "%s", test_dev->dev_path);
	ok = CHECK(c) && CHECK(!oibv_query_gid(c, 1, 0, &g));
	if (ok)
		memcpy(fz_env.own_gid, g.raw, 16);
	if (c)
		oibv_close_device(c);
	return ok;
}

/* After a program that removed the fuzzed device (or whose child did): a new one. */
static bool fuzzed_device_again(void)
{
	if (!access(fz_env.dev_path, F_OK))
		return true;
	nremoved++;
	return CHECK(setup_device()) && fuzzed_device();
}

static bool t_devices(void)
{
	char path[160];

	if (!CHECK(setup_device()))
		return false;
	peer_dev = test_dev;
	snprintf(peer_ibdev, sizeof(peer_ibdev), "%s", test_ibdev);
	if (!CHECK(setup_device()) || !fuzzed_device())
		return false;
	snprintf(path, sizeof(path), "/tmp/oib_fuzz_domain.%d", getpid());
	fz_env.file_rw = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	fz_env.file_ro = open(path, O_RDONLY | O_CLOEXEC);
	diag("fuzzing %s, peer %s, %s", test_ibdev, peer_ibdev,
	     fz_cover_init() ? "guided by KCOV" : "without KCOV (no coverage guidance)");
	return CHECK(fz_env.file_rw >= 0 && fz_env.file_ro >= 0) && CHECK(fz_exec_init()) &&
	       CHECK(fz_peer_init(peer_dev)) && CHECK(kmsg_open());
}

/* Note what program @p reached; true if anything new. */
static bool feedback(const struct fz_prog *p, const int *errs, const uint8_t *sig)
{
	bool fresh = false;
	uint32_t key;
	int i;

	for (i = 0; i < p->n; i++) {
		key = (p->c[i].cmd & 0x3f) << 14 | (errs[i] & 0xff) << 6 | (sig[i] & 0x3f);
		if (!(signal_seen[key / 8] & (1 << key % 8))) {
			signal_seen[key / 8] |= 1 << key % 8;
			nsignal++;
			fresh = true;
		}
	}
	return fresh;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int errs[FZ_MAXCALLS];
static uint8_t sig[FZ_MAXCALLS];
static const struct fz_prog *running;
static unsigned long long nrun;		/* programs started */

#define HANG_S	120

/* A program that does not end within HANG_S is a finding too: print it and stop. */
static void *watchdog(void *arg)
{
	unsigned long long last = 0, same = 0;

	for (;;) {
		sleep(1);
		same = __atomic_load_n(&nrun, __ATOMIC_RELAXED) == last ? same + 1 : 0;
		last = __atomic_load_n(&nrun, __ATOMIC_RELAXED);
		if (same < HANG_S)
			continue;
		diag("a program has not ended in %d s", HANG_S);
		kmsg_findings();
		fz_print(running, errs);
		_exit(1);
	}
	return arg;
}

/* One program run; false (and the program printed) if the kernel reported anything. */
static unsigned int fresh;	/* the last program's new edges */

/* Where the run's time went: programs (their calls, then their cleanup), the log, new devices. */
static double t_exec, t_log, t_dev;

static bool run_one(const struct fz_prog *p)
{
	double t0 = now_s(), t1, t2;
	bool ok;

	running = p;
	__atomic_add_fetch(&nrun, 1, __ATOMIC_RELAXED);
	fresh = fz_exec(p, errs, sig);
	t1 = now_s();
	if (!kmsg_findings()) {
		t2 = now_s();
		ok = fuzzed_device_again();
		t_exec += t1 - t0;
		t_log += t2 - t1;
		t_dev += now_s() - t2;
		return ok;
	}
	usleep(100000);		/* the rest of the report */
	kmsg_findings();
	fz_print(p, errs);
	return false;
}

/* A program's seeds from "<seed>,<seed>..." (hex, as fz_print() and corpus_save() write them). */
static int seeds_parse(const char *s, uint64_t *seeds)
{
	int n = 0;

	while (*s && *s != '\n' && n < FZ_MAXSEEDS) {
		seeds[n++] = strtoull(s, NULL, 16);
		s = strchr(s, ',') ? strchr(s, ',') + 1 : "";
	}
	return n;
}

/*
 * The corpus kept from earlier runs on this machine: make check puts it in the guest
 * (CORPUS_FILE, a program's seeds a line) and keeps what corpus_save() prints for the next run.
 */
#define CORPUS_FILE	"/oib/fuzz-corpus"

static void corpus_load(void)
{
	uint64_t seeds[FZ_MAXSEEDS];
	FILE *f = fopen(CORPUS_FILE, "r");
	char line[FZ_MAXSEEDS * 18 + 2];
	int n;

	if (!f) {
		diag("corpus: none kept (%s)", CORPUS_FILE);
		return;
	}
	while (ncorpus < CORPUS && fgets(line, sizeof(line), f)) {
		n = seeds_parse(line, seeds);
		if (n && fz_rebuild(&corpus[ncorpus], seeds, n))
			ncorpus++;
	}
	fclose(f);
	diag("corpus: %d programs kept from earlier runs (%s)", ncorpus, CORPUS_FILE);
}

static void corpus_save(void)
{
	char line[FZ_MAXSEEDS * 18 + 1];
	int i, k, n;

	for (i = 0; i < ncorpus; i++) {
		for (k = 0, n = 0; k < corpus[i].nseeds; k++)
			n += snprintf(line + n, sizeof(line) - n, "%s%llx", k ? "," : "",
				      (unsigned long long)corpus[i].seeds[k]);
		diag("OIB-FUZZ-CORPUS %s", line);
	}
}

static bool replay(const char *list)
{
	uint64_t seeds[FZ_MAXSEEDS];
	int n = seeds_parse(list, seeds), i, repeat = env_u64("OIB_FUZZ_REPEAT", 200, 10);
	struct fz_prog p;

	if (!CHECK(fz_rebuild(&p, seeds, n)))
		return false;
	fz_print(&p, NULL);
	for (i = 0; i < repeat; i++)
		if (!run_one(&p)) {
			diag("kernel finding in run %d of the program", i + 1);
			return false;
		}
	diag("calls: %llu (%d runs of the program)", fz_calls, repeat);
	return true;
}

/* The commands that took most of the programs' time, and what a call of each cost. */
static void cmd_profile(void)
{
	bool shown[FZ_MAXDESCS] = {};
	int k, i, top;

	for (k = 0; k < 12; k++) {
		for (i = 0, top = -1; i < fz_ndescs; i++)
			if (!shown[i] && fz_cmd_runs[i] &&
			    (top < 0 || fz_cmd_ns[i] > fz_cmd_ns[top]))
				top = i;
		if (top < 0)
			break;
		shown[top] = true;
		diag("  %-20s %8llu calls %7.1f s %8.0f us a call", fz_descs[top].name,
		     (unsigned long long)fz_cmd_runs[top], fz_cmd_ns[top] / 1e9,
		     fz_cmd_ns[top] / 1e3 / fz_cmd_runs[top]);
	}
}

static bool t_fuzz(void)
{
	uint64_t seed = env_u64("OIB_FUZZ_SEED", time(NULL) ^ (uint64_t)getpid() << 32, 0);
	unsigned long long want = env_u64("OIB_FUZZ_CALLS", FZ_DEFAULT_CALLS, 10), progs = 0;
	double limit = env_u64("OIB_FUZZ_SECONDS", FZ_DEFAULT_SECONDS, 10), t0 = now_s(), t;
	static struct fz_prog p;
	double shown = t0;
	pthread_t wd;
	uint64_t s;
	bool ok = true;

	if (!CHECK(!pthread_create(&wd, NULL, watchdog, NULL)))
		return false;

	if (getenv("OIB_FUZZ_REPLAY"))
		return replay(getenv("OIB_FUZZ_REPLAY"));
	/* the programs of a seed are the same but where a kernel answer changed the corpus */
	diag("seed: %#llx (OIB_FUZZ_SEED)", (unsigned long long)seed);
	if (!CHECK(!kmsg_findings()))
		return false;
	corpus_load();
	while (fz_calls < want && (!limit || now_s() - t0 < limit)) {
		s = seed ^ (progs + 1) * 0x9e3779b97f4a7c15ull;
		s = fz_rand(&s);
		if (ncorpus && (s & 0xff) < 180) {
			p = corpus[(s >> 8) % ncorpus];
			if (p.nseeds < FZ_MAXSEEDS)
				fz_mutate(&p, s);
			else
				fz_generate(&p, s);
		} else {
			fz_generate(&p, s);
		}
		progs++;
		if (!run_one(&p)) {
			ok = false;
			break;
		}
		if (feedback(&p, errs, sig) | !!fresh)
			corpus[ncorpus < CORPUS ? ncorpus++ : (s >> 16) % CORPUS] = p;
		if (now_s() - shown >= 30) {
			shown = now_s();
			diag("%.0f s: %llu calls, %llu programs, corpus %d, signal %u, edges %ld",
			     shown - t0, fz_calls, progs, ncorpus, nsignal, fz_cover_edges());
		}
	}
	t = now_s() - t0;
	diag("calls: %llu", fz_calls);
	fuzz_inputs("uverbs_programs_calls", fz_calls);
	diag("programs: %llu, corpus %d, signal %u, edges %ld, %.0f s, %.0f calls/s", progs,
	     ncorpus, nsignal, fz_cover_edges(), t, fz_calls / (t > 0 ? t : 1));
	diag("devices removed under programs: %u", nremoved);
	diag("time: programs %.1f s (their cleanup %.1f s), kernel log %.1f s, new devices %.1f s",
	     t_exec, fz_cleanup_s, t_log, t_dev);
	cmd_profile();
	corpus_save();
	return ok;
}

static bool t_cleanup(void)
{
	bool ok;

	fz_peer_fini();
	ok = CHECK(objects_back_to(base_objects));
	ok = CHECK(remove_device()) && ok;
	snprintf(test_ibdev, sizeof(test_ibdev), "%s", peer_ibdev);
	return CHECK(remove_device()) && ok;
}

static const struct ktap_case cases[] = {
	{ "devices", t_devices },
	{ "fuzz", t_fuzz },
	{ "cleanup", t_cleanup },
};

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	return ktap_run("oib_uverbs_fuzz", cases, sizeof(cases) / sizeof(cases[0]));
}

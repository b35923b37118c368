# oib: builds the modules out of tree and runs the test platform (see README.md).
#   make [modules]  build against KDIR (default: the cached test kernel from tools/kernel.sh)
#   make install    the modules (modules_install into extra/oib), the oib tool and oib.8, libsdp.so,
#                   the drop-in libibverbs.so.1
#   make check      W=1 builds, KUnit and integration tests under QEMU, stock-kernel smoke
#   make run        the demo under QEMU
#   make bench      RC rate, RDMA bandwidth and latency of oib vs the in-tree rxe vs memcpy, under QEMU;
#                   then two guests over a virtio-net wire (ONLY=wire: that alone)
#   make fuzz       a soak of the user ABI's fuzzer (oib_uverbs_fuzz) alone: OIB_FUZZ_SECONDS (3600)
#   make bench-doc  the tables of the last make bench (build/bench.results) into Documentation/benchmarks.md
#   make w1         W=1 build in a copy, build/w1 (tools/build.sh), fails on any warning
#   make checkpatch | sparse | clean
# Variables: KDIR=<kernel build dir>, SUITE=<KUnit glob>, TIMEOUT=<s>, SMOKE=0, V=1, OIB_KVM=1,
#   ROUNDS=<n> and BENCH_ARGS=<module parameters> for make bench.
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c

# Evaluated at most once, and only by the targets that need a kernel.
KDIR ?= $(eval KDIR := $$(shell $(CURDIR)/tools/kernel.sh))$(KDIR)
kdir = $(or $(KDIR),$(error KDIR is empty: tools/kernel.sh failed))
KSRC ?= $(or $(OIB_CACHE),$(HOME)/.cache/oib)/src/linux-source-6.12
export SUITE TIMEOUT SMOKE V OIB_KVM ROUNDS BENCH_ARGS OIB_FUZZ_SEED OIB_FUZZ_CALLS OIB_FUZZ_SECONDS \
	OIB_FUZZ_REPLAY OIB_FUZZ_REPEAT OIB_USER_TIMEOUT

.PHONY: all modules install clean check run fuzz bench bench-doc w1 checkpatch sparse
all: modules

modules:
	$(MAKE) -C $(kdir) M=$(CURDIR) modules

# the modules into /lib/modules/<KDIR's release>/extra/oib (then depmod), the oib tool and its
# man page, SDP's preload library libsdp.so and its sample policy into $(DESTDIR)$(PREFIX)
# (/usr/local), the drop-in libibverbs.so.1 and librdmacm.so.1 into $(DESTDIR)/usr/local/lib/oib
install: modules
	$(MAKE) -C $(kdir) M=$(CURDIR) INSTALL_MOD_DIR=extra/oib modules_install
	$(MAKE) -C tools/oib install
	$(MAKE) -C tools/lib/sdp install
	$(MAKE) -C tools/lib/ibverbs install
	$(MAKE) -C tools/lib/rdmacm install

check:
	tools/check.sh

run:
	tools/run.sh

fuzz:
	tools/fuzz.sh

bench:
	tools/bench.sh

bench-doc:
	tools/bench-doc.sh

w1:
	tools/build.sh $(kdir) build/w1

checkpatch:
	test -x $(KSRC)/scripts/checkpatch.pl || tools/kernel.sh >/dev/null
	@# CAMELCASE: the kernel's own struct Scsi_Host (SRP), which --no-tree cannot look up
	$(KSRC)/scripts/checkpatch.pl --strict --no-tree --ignore SPDX_LICENSE_TAG,FILE_PATH_CHANGES,CAMELCASE \
		--quiet --show-types -f $$(find drivers include kunit tools/bench tools/testing/interop -name '*.[ch]' ! -name '*.mod.c' | sort)
	@# userspace (liboibv, the guest's tests): libibverbs returns positive errno values, no kernel macros
	$(KSRC)/scripts/checkpatch.pl --strict --no-tree --quiet --show-types \
		--ignore SPDX_LICENSE_TAG,FILE_PATH_CHANGES,USE_NEGATIVE_ERRNO,PREFER_DEFINED_ATTRIBUTE_MACRO,ARRAY_SIZE,CAMELCASE,MACRO_ARG_REUSE,SSCANF_TO_KSTRTO \
		-f $$(find tools/lib tools/testing/user tools/examples tools/oib -name '*.[ch]' | sort)

sparse:
	@if ! command -v sparse >/dev/null; then echo "sparse: not installed, skipped (apt-get install sparse)"; exit 0; fi; \
	mkdir -p build; \
	$(MAKE) -C $(kdir) M=$(CURDIR) C=2 modules 2>&1 | tee build/sparse.log; \
	! grep -q 'warning:\|error:' build/sparse.log

clean:
	git clean -fdXq 2>/dev/null || find . \( -name '*.o' -o -name '*.ko' -o -name '*.mod' -o -name '*.mod.c' \
		-o -name '.*.cmd' -o -name Module.symvers \) -delete
	rm -rf build

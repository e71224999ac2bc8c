# kubectl-gpu — build, test, install.  See README.md.
VERSION  := 0.1.0
PREFIX   ?= /usr/local
DESTDIR  ?=
CC       ?= cc
PKGS     := libcurl libcjson yaml-0.1 ncursesw zlib
SHELL    := /bin/bash

# On a fresh machine, install the -dev packages when pkg-config misses one of them.
ifeq ($(filter clean help deps,$(MAKECMDGOALS)),)
ifneq ($(shell pkg-config --exists $(PKGS) 2>/dev/null && echo ok),ok)
$(info kubectl-gpu: pkg-config misses one of: $(PKGS); running scripts/install-deps.sh build)
DEPS_RC := $(shell scripts/install-deps.sh build 1>&2; echo $$?)
ifneq ($(DEPS_RC),0)
$(error build dependencies missing; see the message above)
endif
endif
endif

# Build identity, shown by `kubectl gpu version`: the commit, whether the tree differed from it
# (plugins/gpu.yaml aside: `make dist` rewrites it), and the build date, which is
# SOURCE_DATE_EPOCH (reproducible-builds.org) and by default the last commit's time, so the
# same sources give the same bytes.  Each can be given on the command line or, for
# SOURCE_DATE_EPOCH, in the environment; outside a git checkout they read "unknown".
ifeq ($(origin GIT_COMMIT),undefined)
GIT_COMMIT := $(shell git rev-parse -q --short=12 --verify HEAD 2>/dev/null || echo unknown)
endif
ifeq ($(origin GIT_TREE_STATE),undefined)
GIT_TREE_STATE := $(shell if git rev-parse -q --verify HEAD >/dev/null 2>&1; then \
  git diff --quiet HEAD -- . ':(exclude)plugins/gpu.yaml' 2>/dev/null && echo clean || echo dirty; \
  else echo unknown; fi)
endif
ifeq ($(origin SOURCE_DATE_EPOCH),undefined)
SOURCE_DATE_EPOCH := $(shell git log -1 --format=%ct 2>/dev/null || echo 0)
endif
VERSION_DEFS := -DKGPU_GIT_COMMIT='"$(GIT_COMMIT)"' -DKGPU_GIT_TREE_STATE='"$(GIT_TREE_STATE)"' \
                -DKGPU_BUILD_EPOCH=$(SOURCE_DATE_EPOCH)LL

# macOS: Homebrew's curl and ncurses are keg-only; their pkg-config files are found here.
ifeq ($(shell uname -s),Darwin)
BREW_PREFIX := $(shell brew --prefix 2>/dev/null)
ifneq ($(BREW_PREFIX),)
export PKG_CONFIG_PATH := $(BREW_PREFIX)/opt/curl/lib/pkgconfig:$(BREW_PREFIX)/opt/ncurses/lib/pkgconfig$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH))
endif
DARWIN_DEFS := -D_DARWIN_C_SOURCE
endif

# Intel ISA-L (libisal, optional: scripts/install-deps.sh installs it): gzip answers are decoded
# with its igzip, several times faster than zlib (src/sources/http_inflate.c); without it, zlib.
# KGPU_NO_ISAL=1 builds without it where it is installed.
ISAL_PKG   := $(if $(KGPU_NO_ISAL),,$(shell pkg-config --exists libisal 2>/dev/null && echo libisal))
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) $(ISAL_PKG) 2>/dev/null) $(if $(ISAL_PKG),-DKGPU_HAVE_ISAL)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) $(ISAL_PKG) 2>/dev/null) -lm -lpthread
WARN       := -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter -Wstrict-prototypes -Wformat=2
STD_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(DARWIN_DEFS) -DKGPU_VERSION='"$(VERSION)"' \
              -Iinclude $(WARN) -MMD -MP
BASE_CFLAGS := $(STD_CFLAGS) $(PKG_CFLAGS)
CFLAGS     ?= -O2 -g
ASAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

SRCS      := $(shell find src -name '*.c' | sort)
LIB_SRCS  := $(filter-out src/main.c,$(SRCS))
UNIT_SRCS := $(wildcard tests/unit/test_*.c)

# Two build variants: rel (the installed binary) and asan (AddressSanitizer + UBSan).
REL_OBJS  := $(LIB_SRCS:%.c=build/rel/%.o)
ASAN_OBJS := $(LIB_SRCS:%.c=build/asan/%.o)
REL_UNITS := $(UNIT_SRCS:tests/unit/%.c=build/rel/unit/%)
ASAN_UNITS:= $(UNIT_SRCS:tests/unit/%.c=build/asan/unit/%)

.PHONY: all check check-layers check-calls check-objects test test-asan test-dist demo install uninstall clean deps deps-test bench bench-huge bench-watch bench-fleet fuzz valgrind dist dist-deps lint-man help FORCE
all: kubectl-gpu

build/rel/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"; $(CC) $(BASE_CFLAGS) $(CFLAGS) $(OBJ_DEFS) -c $< -o $@
build/asan/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC asan $<"; $(CC) $(BASE_CFLAGS) $(ASAN_FLAGS) $(OBJ_DEFS) -c $< -o $@

# Only cmd_version.o sees the build identity; it is rebuilt when the identity changes.
VERSION_OBJS := build/rel/src/cmd/cmd_version.o build/asan/src/cmd/cmd_version.o
$(VERSION_OBJS): OBJ_DEFS = $(VERSION_DEFS)
$(VERSION_OBJS): build/version.stamp
# (a temporary file of its own per make: make check's two suites run this at once)
build/version.stamp: FORCE
	@mkdir -p build; t=$@.tmp.$$$$; echo '$(VERSION_DEFS)' >$$t; \
	 if cmp -s $$t $@; then rm -f $$t; else mv -f $$t $@; fi
FORCE:

build/rel/libkgpu.a: $(REL_OBJS)
	@rm -f $@; ar rcs $@ $^
build/asan/libkgpu.a: $(ASAN_OBJS)
	@rm -f $@; ar rcs $@ $^

kubectl-gpu: build/rel/src/main.o build/rel/libkgpu.a
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS)
build/asan/kubectl-gpu: build/asan/src/main.o build/asan/libkgpu.a
	$(CC) $(ASAN_FLAGS) -o $@ $^ $(PKG_LIBS)

CMOCKA_LIBS = $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka)
build/rel/unit/%: tests/unit/%.c build/rel/libkgpu.a
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) -Itests/unit $< -o $@ build/rel/libkgpu.a $(PKG_LIBS) $(CMOCKA_LIBS)
build/asan/unit/%: tests/unit/%.c build/asan/libkgpu.a
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(ASAN_FLAGS) -Itests/unit $< -o $@ build/asan/libkgpu.a $(PKG_LIBS) $(CMOCKA_LIBS)

deps:
	scripts/install-deps.sh build
deps-test:
	@scripts/install-deps.sh test dist

# make check: the include arrows between layers (scripts/check-layers.py) and no .c over 800
# lines (scripts/check-sizes.py), then, once both
# builds are made (one job per core), the call arrows between the layers' objects (make
# check-calls: the same script over build/rel with nm) and the floors inside a folder (make
# check-objects: scripts/check-objects.py, no call loops between its files, and every external
# name with its module's prefix), every test against the normal build and,
# at the same time, under ASan + UBSan (scripts/check-suites.sh), then the release archives
# (make test-dist).
CHECK_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
check: deps-test check-layers
	@$(MAKE) --no-print-directory -j$(CHECK_JOBS) kubectl-gpu build/asan/kubectl-gpu $(REL_UNITS) $(ASAN_UNITS)
	@$(MAKE) --no-print-directory check-calls check-objects
	@scripts/check-suites.sh $(MAKE)
	@$(MAKE) --no-print-directory test-dist
check-layers:
	@python3 scripts/check-layers.py
	@python3 scripts/check-sizes.py
check-calls: kubectl-gpu
	@python3 scripts/check-layers.py --calls build/rel
check-objects: kubectl-gpu
	@python3 scripts/check-objects.py --loops build/rel
	@python3 scripts/check-objects.py --names build/rel
test: kubectl-gpu $(REL_UNITS)
	@tests/run-all.sh --bin $(CURDIR)/kubectl-gpu --units build/rel/unit --label rel
test-asan: build/asan/kubectl-gpu $(ASAN_UNITS)
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	 tests/run-all.sh --bin $(CURDIR)/build/asan/kubectl-gpu --units build/asan/unit --label asan

demo: kubectl-gpu
	./kubectl-gpu status --snapshot examples/clusters/gpu-week.json.gz
	@echo
	./kubectl-gpu status --snapshot examples/clusters/gpu-week.json.gz --by workload --price A100-SXM4-80GB=2.5,H100-80GB-HBM3=4,L4=0.8
	@echo
	./kubectl-gpu plan --snapshot examples/clusters/gpu-week.json.gz

valgrind: kubectl-gpu $(REL_UNITS)
	@KGPU_VALGRIND=1 tests/run-all.sh --bin $(CURDIR)/kubectl-gpu --units build/rel/unit --label valgrind

# ARGS: options of tests/bench/run.sh (make bench ARGS="--huge --finished")
bench: kubectl-gpu
	@r=0; tests/bench/run.sh $(ARGS) || r=1; tests/bench/watch.sh || r=1; exit $$r

# issue 35's clusters larger than the largest alone: 20,000 nodes / 600,000 pods, and the
# default cluster without and with 200,000 finished pods (the fake server needs about 3 GB)
bench-huge: kubectl-gpu
	tests/bench/run.sh --pods 0 --no-queue --no-kubectl --huge --finished $(ARGS)

bench-watch: kubectl-gpu
	tests/bench/watch.sh

bench-fleet: kubectl-gpu
	tests/bench/fleet.sh

fuzz:
	scripts/install-deps.sh fuzz
	tests/fuzz/run.sh

install: kubectl-gpu
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
	  $(DESTDIR)$(PREFIX)/share/zsh/site-functions $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 755 kubectl-gpu $(DESTDIR)$(PREFIX)/bin/kubectl-gpu
	install -m 755 completions/kubectl_complete-gpu $(DESTDIR)$(PREFIX)/bin/kubectl_complete-gpu
	install -m 644 man/kubectl-gpu.1 $(DESTDIR)$(PREFIX)/share/man/man1/kubectl-gpu.1
	install -m 644 completions/kubectl-gpu.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/kubectl-gpu
	install -m 644 completions/_kubectl-gpu $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_kubectl-gpu
	install -m 644 completions/kubectl-gpu.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/kubectl-gpu.fish
uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/kubectl-gpu $(DESTDIR)$(PREFIX)/bin/kubectl_complete-gpu \
	  $(DESTDIR)$(PREFIX)/share/man/man1/kubectl-gpu.1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions/kubectl-gpu \
	  $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_kubectl-gpu \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/kubectl-gpu.fish

# ---- release archives ------------------------------------------------------------------------
# make dist: build/kubectl-gpu-VERSION-linux-{amd64,arm64}.tar.gz and plugins/gpu.yaml (the krew
# manifest, with each archive's sha256).  Linux only, on a Debian amd64 host: the arm64 binary is
# cross-compiled with Debian's aarch64-linux-gnu toolchain against the arm64 -dev packages
# (dpkg multiarch); scripts/install-deps.sh dist installs them.  Each binary is built from
# its own objects (no debug info, build path mapped away, stripped); the libraries outside
# glibc travel in the archive's lib/, found through the binary's $$ORIGIN/lib rpath (see
# scripts/dist.sh).  Same sources, commit and SOURCE_DATE_EPOCH: same bytes.
DIST_ARCHES   := amd64 arm64
TRIPLET_amd64 := x86_64-linux-gnu
TRIPLET_arm64 := aarch64-linux-gnu
DIST_CFLAGS   := -O2 -ffile-prefix-map=$(CURDIR)=. -fstack-protector-strong -D_FORTIFY_SOURCE=2
# DT_RPATH (not RUNPATH): it also serves the bundled libraries' own dependencies
DIST_LDFLAGS  := -Wl,-rpath,'$$ORIGIN/lib' -Wl,--disable-new-dtags -Wl,-z,relro,-z,now -Wl,--build-id=sha1
DIST_ARCHIVES := $(DIST_ARCHES:%=build/kubectl-gpu-$(VERSION)-linux-%.tar.gz)
# the project's home: origin's GitHub repository when there is one; override with HOMEPAGE=
ifeq ($(origin HOMEPAGE),undefined)
HOMEPAGE := $(shell git remote get-url origin 2>/dev/null | sed -n 's,^\(git@github\.com:\|https://github\.com/\)\([^/]*/[^/]*\)$$,https://github.com/\2,p' | sed 's,\.git$$,,')
HOMEPAGE := $(or $(HOMEPAGE),https://github.com/kubectl-gpu/kubectl-gpu)
endif
RELEASE_URL   ?= $(HOMEPAGE)/releases/download/v$(VERSION)
KREW_MANIFEST ?= plugins/gpu.yaml
dist_pkgconfig = PKG_CONFIG_LIBDIR=/usr/lib/$(TRIPLET_$(1))/pkgconfig:/usr/share/pkgconfig pkg-config
# libisal for ARCH when its -dev package is there (the archive then carries libisal.so)
dist_isal = $(if $(KGPU_NO_ISAL),,$(shell $(call dist_pkgconfig,$(1)) --exists libisal 2>/dev/null && echo libisal))

# dist_arch ARCH: objects, stripped binary and archive of one architecture
define dist_arch
DIST_OBJS_$(1) := $$(SRCS:%.c=build/dist/$(1)/%.o)
build/dist/$(1)/%.o: %.c | dist-deps
	@mkdir -p $$(dir $$@)
	@echo "  CC $(1) $$<"; $(TRIPLET_$(1))-gcc $$(STD_CFLAGS) $$(shell $$(call dist_pkgconfig,$(1)) --cflags $$(PKGS) $$(call dist_isal,$(1))) \
	  $$(if $$(call dist_isal,$(1)),-DKGPU_HAVE_ISAL) $$(DIST_CFLAGS) $$(OBJ_DEFS) -c $$< -o $$@
build/dist/$(1)/src/cmd/cmd_version.o: OBJ_DEFS = $$(VERSION_DEFS)
build/dist/$(1)/src/cmd/cmd_version.o: build/version.stamp
build/dist/$(1)/kubectl-gpu: $$(DIST_OBJS_$(1))
	$(TRIPLET_$(1))-gcc $$(DIST_LDFLAGS) -o $$@ $$^ $$(shell $$(call dist_pkgconfig,$(1)) --libs $$(PKGS) $$(call dist_isal,$(1))) -lm -lpthread
	$(TRIPLET_$(1))-strip --strip-all $$@
build/kubectl-gpu-$(VERSION)-linux-$(1).tar.gz: build/dist/$(1)/kubectl-gpu scripts/dist.sh LICENSE README.md \
    man/kubectl-gpu.1 $$(wildcard completions/*) build/version.stamp
	SOURCE_DATE_EPOCH=$$(SOURCE_DATE_EPOCH) scripts/dist.sh $(1) $(TRIPLET_$(1)) $(VERSION) $$< $$@
-include $$(DIST_OBJS_$(1):.o=.d)
endef
$(foreach a,$(DIST_ARCHES),$(eval $(call dist_arch,$(a))))

dist: $(DIST_ARCHIVES)
	@mkdir -p $(dir $(KREW_MANIFEST))
	scripts/krew-manifest.sh $(VERSION) $(HOMEPAGE) $(RELEASE_URL) $(KREW_MANIFEST) $(DIST_ARCHIVES)
	@cd build && sha256sum $(notdir $(DIST_ARCHIVES))
dist-deps:
	@scripts/install-deps.sh dist

# make test-dist: the archives on machines without the build's libraries (a chroot holding only
# glibc; arm64 under qemu-user), reproducibility, the krew manifest.  Part of make check.
# (The manifest it checks is written under build/, so the committed plugins/gpu.yaml stays.)
test-dist:
	@$(MAKE) --no-print-directory dist KREW_MANIFEST=build/krew/gpu.yaml
	@mkdir -p tests/tmp/dist; log=tests/tmp/dist/test_dist.log; \
	 TEST_TMP_ROOT=$(CURDIR)/tests/tmp/dist bash tests/dist/test_dist.sh >$$log 2>&1; \
	 grep -v '^ok - ' $$log | sed 's/^/    | /'; \
	 echo "dist: $$(sed -n 's/^# RESULT passed=\([0-9]*\) failed=\([0-9]*\)/\1 passed, \2 failed/p' $$log)"; \
	 grep -q '^# RESULT passed=[1-9][0-9]* failed=0$$' $$log

lint-man:
	mandoc -T lint man/kubectl-gpu.1

clean:
	rm -rf build kubectl-gpu tests/tmp

-include $(REL_OBJS:.o=.d) $(ASAN_OBJS:.o=.d) build/rel/src/main.d build/asan/src/main.d

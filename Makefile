# kubectl-gpu — build, test, install.  See README.md.
VERSION  := 0.1.0
PREFIX   ?= /usr/local
DESTDIR  ?=
CC       ?= cc
PKGS     := libcurl libcjson yaml-0.1 ncursesw
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
# SOURCE_DATE_EPOCH, in the environment; outside a git checkout they read "unknown" / 0.
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

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lm -lpthread
WARN       := -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter -Wstrict-prototypes -Wformat=2
BASE_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(DARWIN_DEFS) -DKGPU_VERSION='"$(VERSION)"' \
               -Iinclude $(WARN) $(PKG_CFLAGS) -MMD -MP
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

.PHONY: all check test test-asan demo install uninstall clean deps deps-test bench fuzz valgrind dist lint-man help
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
build/version.stamp: FORCE
	@mkdir -p build; echo '$(VERSION_DEFS)' >$@.tmp; \
	 if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi
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
	@scripts/install-deps.sh test

# make check: every test against the normal build, then again under ASan + UBSan.
check: deps-test
	@$(MAKE) --no-print-directory test
	@$(MAKE) --no-print-directory test-asan
test: kubectl-gpu $(REL_UNITS)
	@tests/run-all.sh --bin $(CURDIR)/kubectl-gpu --units build/rel/unit --label rel
test-asan: build/asan/kubectl-gpu $(ASAN_UNITS)
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	 tests/run-all.sh --bin $(CURDIR)/build/asan/kubectl-gpu --units build/asan/unit --label asan

demo: kubectl-gpu
	./kubectl-gpu status --snapshot examples/clusters/mixed-fleet.json

valgrind: kubectl-gpu $(REL_UNITS)
	@KGPU_VALGRIND=1 tests/run-all.sh --bin $(CURDIR)/kubectl-gpu --units build/rel/unit --label valgrind

bench: kubectl-gpu
	tests/bench/run.sh

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

dist: kubectl-gpu
	@rm -rf build/dist; mkdir -p build/dist/kubectl-gpu-$(VERSION)
	cp kubectl-gpu README.md LICENSE man/kubectl-gpu.1 build/dist/kubectl-gpu-$(VERSION)/
	cp -r completions build/dist/kubectl-gpu-$(VERSION)/
	tar -C build/dist -czf build/kubectl-gpu-$(VERSION)-linux-amd64.tar.gz kubectl-gpu-$(VERSION)
	@sha256sum build/kubectl-gpu-$(VERSION)-linux-amd64.tar.gz

lint-man:
	mandoc -T lint man/kubectl-gpu.1

clean:
	rm -rf build kubectl-gpu tests/tmp

-include $(REL_OBJS:.o=.d) $(ASAN_OBJS:.o=.d) build/rel/src/main.d build/asan/src/main.d

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

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lm -lpthread
WARN       := -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter -Wstrict-prototypes -Wformat=2
BASE_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -DKGPU_VERSION='"$(VERSION)"' \
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
	@echo "  CC      $<"; $(CC) $(BASE_CFLAGS) $(CFLAGS) -c $< -o $@
build/asan/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC asan $<"; $(CC) $(BASE_CFLAGS) $(ASAN_FLAGS) -c $< -o $@

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

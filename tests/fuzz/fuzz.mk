# tests/fuzz/fuzz.mk — builds the libFuzzer targets (called by tests/fuzz/run.sh, not by hand):
#   make -f tests/fuzz/fuzz.mk -j2 [TARGETS="fuzz_x fuzz_y"]
# Every library source (src/**/*.c but main.c) is compiled with clang and coverage
# instrumentation into build/fuzz/obj, archived, and linked with each tests/fuzz/fuzz_*.c.
# Sanitizers: AddressSanitizer (leaks too) and UBSan, any UB report aborts.
FUZZ_CC    ?= clang
PKGS       := libcurl libcjson yaml-0.1 ncursesw zlib
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS))
PKG_LIBS   := $(shell pkg-config --libs $(PKGS)) -lm -lpthread
SAN        := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
CFLAGS_F   := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -DKGPU_VERSION='"0.1.0-fuzz"' \
              -Iinclude -Isrc/sources -g -O1 $(SAN) -Wall -Wextra -Wno-unused-parameter $(PKG_CFLAGS) -MMD -MP
OUT        := build/fuzz
LIB_SRCS   := $(filter-out src/main.c,$(shell find src -name '*.c' | sort))
LIB_OBJS   := $(LIB_SRCS:%.c=$(OUT)/obj/%.o)
TARGETS    ?= $(basename $(notdir $(wildcard tests/fuzz/fuzz_*.c)))

.PHONY: all
all: $(TARGETS:%=$(OUT)/%)

$(OUT)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC fuzz $<"; $(FUZZ_CC) $(CFLAGS_F) -fsanitize=fuzzer-no-link -c $< -o $@

$(OUT)/libkgpu.a: $(LIB_OBJS)
	@rm -f $@; ar rcs $@ $^

$(OUT)/%: tests/fuzz/%.c $(OUT)/libkgpu.a
	@echo "  LD fuzz $@"; $(FUZZ_CC) $(CFLAGS_F) -fsanitize=fuzzer $< -o $@ $(OUT)/libkgpu.a $(PKG_LIBS)

-include $(LIB_OBJS:.o=.d) $(TARGETS:%=$(OUT)/%.d)

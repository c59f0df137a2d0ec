# warplab -- plain Makefile: settings first, then rules.

MODE ?= release
CC ?= cc
PREFIX ?= /usr/local
BUILD := build/$(MODE)

WARN := -Wall -Wextra -Wpedantic -Werror -Wshadow -Wstrict-prototypes \
        -Wmissing-prototypes
BASE := -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) -MMD -MP
ifeq ($(MODE),release)
  OPT := -O2 -g
else ifeq ($(MODE),debug)
  OPT := -O0 -g
else ifeq ($(MODE),asan)
  OPT := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
         -fno-sanitize-recover=all
else ifeq ($(MODE),ubsan)
  OPT := -O1 -g -fsanitize=undefined -fno-sanitize-recover=all
else
  $(error MODE must be release, debug, asan or ubsan)
endif
ALL_CFLAGS := $(BASE) $(OPT) $(CFLAGS)
ALL_LDFLAGS := $(OPT) $(LDFLAGS)

PKG_CMOCKA = $(shell pkg-config --cflags --libs cmocka 2>/dev/null || echo -lcmocka)

ENGINE_SRC := $(wildcard engine/*/*.c)
ENGINE_OBJ := $(ENGINE_SRC:%.c=$(BUILD)/%.o)
LIB := $(BUILD)/libwarplab.a
BIN := $(BUILD)/warplab
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all deps test check bench demo install clean fuzz

all: $(BIN)

deps:
	@sh scripts/deps.sh

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(LIB): $(ENGINE_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(BIN): $(BUILD)/bindings/main.o $(LIB)
	$(CC) $(ALL_LDFLAGS) $^ -o $@

$(BUILD)/tests/%: tests/unit/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< $(LIB) $(ALL_LDFLAGS) $(PKG_CMOCKA) -o $@

$(BUILD)/tests/conformance: tests/conformance.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< $(LIB) $(ALL_LDFLAGS) -o $@

# The test command: unit tests, the command-line tests, the conformance
# run over ../shared/conformance.  The last line is "N passed, N failed".
test: deps $(BIN) $(UNIT_BIN) $(BUILD)/tests/conformance
	@sh tests/run.sh $(BUILD)

# Sanitizer builds, valgrind, and the layering check.
check:
	WARPLAB_DEPS="valgrind" sh scripts/deps.sh
	$(MAKE) MODE=asan test
	$(MAKE) MODE=release all $(UNIT_BIN) build/release/tests/conformance
	@sh tests/check.sh

$(BUILD)/bench/%: bench/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< $(LIB) $(ALL_LDFLAGS) -o $@

bench: deps $(BIN) $(BUILD)/bench/litmus_bench
	@sh bench/run.sh $(BUILD)

demo: deps $(BIN)
	@sh scripts/demo.sh $(BUILD)

fuzz:
	WARPLAB_DEPS="clang" sh scripts/deps.sh
	@sh tests/fuzz/run.sh

install: $(BIN) $(LIB)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib \
	  $(DESTDIR)$(PREFIX)/include
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/warplab
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/libwarplab.a
	install -m 644 engine/warplab.h $(DESTDIR)$(PREFIX)/include/warplab.h

clean:
	rm -rf build

-include $(ENGINE_OBJ:.o=.d) $(BUILD)/bindings/main.d

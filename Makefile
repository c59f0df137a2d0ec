# warplab -- plain Makefile: settings first, then rules.

MODE ?= release
CC ?= cc
PREFIX ?= /usr/local
BUILD := build/$(MODE)

WARN := -Wall -Wextra -Wpedantic -Werror -Wshadow -Wstrict-prototypes \
        -Wmissing-prototypes
BASE := -std=c11 -D_POSIX_C_SOURCE=200809L -fPIC $(WARN) -MMD -MP
# The engine's assertions (wl_assert, engine/common/internal.h) are on
# in every build but release.
ifeq ($(MODE),release)
  OPT := -O3 -g
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
ASSERTS := $(if $(filter release,$(MODE)),,-DWL_ASSERTS)
ALL_CFLAGS := $(BASE) $(ASSERTS) $(OPT) $(CFLAGS)
ALL_LDFLAGS := $(OPT) $(LDFLAGS)

PKG_CMOCKA = $(shell pkg-config --cflags --libs cmocka 2>/dev/null || echo -lcmocka)
# Lua flags go to bindings/ only; the engine gets none.
LUA_CFLAGS := $(shell pkg-config --cflags lua5.4 2>/dev/null || \
                echo -I/usr/include/lua5.4)
LUA_LIBS := $(shell pkg-config --libs lua5.4 2>/dev/null || echo -llua5.4)
# Where make install puts things: under PREFIX (and DESTDIR), the Lua
# module too (PREFIX=/usr/local: where Debian's lua5.4 looks); each can
# be set on the command line (the rockspec sets LUA_CMOD and LUA_LMOD).
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
LUA_CMOD ?= $(PREFIX)/lib/lua/5.4
LUA_LMOD ?= $(PREFIX)/share/lua/5.4
# libuv: only the schedulers (bindings/lsched.c: sampling; lpool.c: units
# of work in order) and main.c include uv.h.
UV_CFLAGS := $(shell pkg-config --cflags libuv 2>/dev/null)
UV_LIBS := $(shell pkg-config --libs libuv 2>/dev/null || echo -luv)

# The engine: engine/'s C files, and the CUDA harness's text generated
# from engine/emit/harness_*.cu (HARNESS below; an engine/emit/harness.c
# left from a checkout that had it committed is not compiled).
ENGINE_SRC := $(filter-out engine/emit/harness.c,\
                $(wildcard engine/*/*.c engine/*/*/*.c))
HARNESS := $(BUILD)/gen/harness.c
ENGINE_OBJ := $(ENGINE_SRC:%.c=$(BUILD)/%.o) $(HARNESS:.c=.o)
LIB := $(BUILD)/libwarplab.a
BIN := $(BUILD)/warplab
SO := $(BUILD)/warplab.so
# The Lua module: bindings/l*.c, plus scripts/warplab/*.lua embedded.
BIND_SRC := $(wildcard bindings/l*.c)
BIND_OBJ := $(BIND_SRC:%.c=$(BUILD)/%.o)
LUA_LIB_SRC := $(sort $(wildcard scripts/warplab/*.lua))
EMBED := $(BUILD)/gen/lua_embed.c
MOD_OBJ := $(BIND_OBJ) $(EMBED:.c=.o)
# The warplab command: main.c and one bindings/cmd_*.c per command (not
# part of the Lua module).
CMD_SRC := bindings/main.c $(wildcard bindings/cmd_*.c)
CMD_OBJ := $(CMD_SRC:%.c=$(BUILD)/%.o)
# The ranks a command splits its work over (bindings/ranks.h): this one
# process in warplab; the ranks of an MPI job in warplab-mpi, built by
# make MPI=1 (or by naming it) with Open MPI (libopenmpi-dev; sh
# scripts/deps.sh installs it with WARPLAB_DEPS=mpi).  make test builds
# and tests it when Open MPI is installed.  Only ranks_mpi.c includes
# mpi.h; the engine and the Lua module never see MPI.
RANKS_ONE_OBJ := $(BUILD)/bindings/ranks_one.o
RANKS_MPI_OBJ := $(BUILD)/bindings/ranks_mpi.o
MPI_BIN := $(BUILD)/warplab-mpi
MPI_CFLAGS = $(shell pkg-config --cflags ompi-c 2>/dev/null)
MPI_LIBS = $(shell pkg-config --libs ompi-c 2>/dev/null || echo -lmpi)
MPI_HAVE := $(shell pkg-config --exists ompi-c 2>/dev/null && \
              command -v mpirun >/dev/null 2>&1 && echo yes)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all deps test check bench demo install install-lua clean fuzz verify

all: $(BIN) $(SO) $(if $(filter 1,$(MPI)),$(MPI_BIN))

deps:
	@sh scripts/deps.sh

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/bindings/%.o: bindings/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LUA_CFLAGS) -c $< -o $@

$(BUILD)/bindings/lsched.o $(BUILD)/bindings/lpool.o \
  $(BUILD)/bindings/main.o: \
  ALL_CFLAGS += $(UV_CFLAGS)

# Where an installed warplab finds its shipped models (models/) when not
# beside its binary (bindings/lmodel.c).
$(BUILD)/bindings/lmodel.o: ALL_CFLAGS += \
  -DWL_MODELDIR='"$(PREFIX)/share/warplab/models"'

$(EMBED): $(LUA_LIB_SRC) scripts/embed.sh
	@mkdir -p $(dir $@)
	sh scripts/embed.sh $@ $(LUA_LIB_SRC)

# The CUDA harness's fixed text (engine/emit/harness_*.cu) as C strings
# for engine/emit/cuda.c, generated into the build (emit.h declares them).
HARNESS_CU := head=engine/emit/harness_head.cu \
  check=engine/emit/harness_check.cu \
  body=engine/emit/harness_body.cu \
  host=engine/emit/harness_host.cu \
  two_head=engine/emit/harness_two_head.cu \
  two_body=engine/emit/harness_two.cu \
  stream=engine/emit/harness_stream.cu
$(HARNESS): $(foreach h,$(HARNESS_CU),$(lastword $(subst =, ,$(h)))) \
  scripts/embed_cuda.sh
	@mkdir -p $(dir $@)
	sh scripts/embed_cuda.sh $@ $(HARNESS_CU)

$(HARNESS:.c=.o): $(HARNESS)
	$(CC) $(ALL_CFLAGS) -Iengine/emit -c $< -o $@

$(EMBED:.c=.o): $(EMBED)
	$(CC) $(ALL_CFLAGS) $(LUA_CFLAGS) -Ibindings -c $< -o $@

$(LIB): $(ENGINE_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(BIN): $(CMD_OBJ) $(RANKS_ONE_OBJ) $(MOD_OBJ) $(LIB)
	$(CC) $(ALL_LDFLAGS) $^ $(LUA_LIBS) $(UV_LIBS) -lm -o $@

$(RANKS_MPI_OBJ): ALL_CFLAGS += $(MPI_CFLAGS)
$(RANKS_MPI_OBJ): | mpi-check
$(MPI_BIN): $(CMD_OBJ) $(RANKS_MPI_OBJ) $(MOD_OBJ) $(LIB)
	$(CC) $(ALL_LDFLAGS) $^ $(LUA_LIBS) $(UV_LIBS) $(MPI_LIBS) -lm -o $@

.PHONY: mpi-check
mpi-check:
	@pkg-config --exists ompi-c 2>/dev/null || { echo \
	  "warplab-mpi needs Open MPI: WARPLAB_DEPS=mpi sh scripts/deps.sh" \
	  "(as root) installs libopenmpi-dev and openmpi-bin" >&2; exit 1; }

# The C module for the system lua5.4: Lua's symbols come from the host.
# It exports luaopen_warplab alone (bindings/warplab.map).
$(SO): $(MOD_OBJ) $(LIB) bindings/warplab.map
	$(CC) -shared $(ALL_LDFLAGS) -Wl,--version-script=bindings/warplab.map \
	  $(MOD_OBJ) $(LIB) $(UV_LIBS) -lm -o $@

$(BUILD)/tests/%: tests/unit/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< $(LIB) $(ALL_LDFLAGS) $(PKG_CMOCKA) -o $@

# lplace.c is plain C and the OS (no Lua, no libuv): its test links it alone
$(BUILD)/tests/test_place: tests/unit/test_place.c $(BUILD)/bindings/lplace.o
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< $(BUILD)/bindings/lplace.o $(ALL_LDFLAGS) \
	  $(PKG_CMOCKA) -o $@

$(BUILD)/tests/soundness: tests/soundness.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< $(LIB) $(ALL_LDFLAGS) -o $@

$(BUILD)/tests/conformance: tests/conformance.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< $(LIB) $(ALL_LDFLAGS) -o $@

$(BUILD)/tests/props: tests/props.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< $(LIB) $(ALL_LDFLAGS) -o $@

# One exploration split into units and merged (tests/split.c: the
# split property against wl_explore); its mutants (tests/cli/
# split_mutants.sh) link engine/model/split.c built with
# WL_MUTANT_SPLITDROP (the last unit left out) or WL_MUTANT_SPLITWIT (a
# state found again keeps the later unit's witness).
$(BUILD)/tests/props_split: tests/split.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< $(LIB) $(ALL_LDFLAGS) -o $@
SPLIT_MUTANTS := splitdrop splitwit
SPLIT_MUTANT_BINS := $(SPLIT_MUTANTS:%=$(BUILD)/tests/props_split_%)
$(BUILD)/mutant/split_%/engine/model/split.o: engine/model/split.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DWL_MUTANT_$(shell echo $* | tr a-z A-Z) -c $< -o $@
.PRECIOUS: $(BUILD)/mutant/split_%/engine/model/split.o
$(BUILD)/tests/props_split_%: tests/split.c \
  $(BUILD)/mutant/split_%/engine/model/split.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< $(BUILD)/mutant/split_$*/engine/model/split.o \
	  $(LIB) $(ALL_LDFLAGS) -o $@

# A warplab whose split launches always join (engine/sim/split.c built
# with WL_MUTANT_SPLITJOIN): tests/cli/launch_split.sh checks that
# tests/lua/kernel_split.lua's property fails with it.
$(BUILD)/mutant/splitjoin/engine/sim/split.o: engine/sim/split.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DWL_MUTANT_SPLITJOIN -c $< -o $@
$(BUILD)/tests/warplab_splitjoin: $(CMD_OBJ) $(RANKS_ONE_OBJ) $(MOD_OBJ) \
  $(BUILD)/mutant/splitjoin/engine/sim/split.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) $^ $(LUA_LIBS) $(UV_LIBS) -lm -o $@
# ... and one whose joins keep each part's own L2 hits and misses
# (WL_MUTANT_L2REPLAY: no replay of the parts' lookups in part order)
$(BUILD)/mutant/l2replay/engine/sim/split.o: engine/sim/split.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DWL_MUTANT_L2REPLAY -c $< -o $@
$(BUILD)/tests/warplab_l2replay: $(CMD_OBJ) $(RANKS_ONE_OBJ) $(MOD_OBJ) \
  $(BUILD)/mutant/l2replay/engine/sim/split.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) $^ $(LUA_LIBS) $(UV_LIBS) -lm -o $@

# The chunked bits of what a split launch's part touched, tested against
# a plain bitmap (tests/unit/test_touchbits.c); its mutants (tests/cli/
# touchbits_mutants.sh) link engine/sim/touchbits.c built with
# WL_MUTANT_TBCHUNK (a chunk never made skips the next one too) or
# WL_MUTANT_TBWORD (an empty word skips a byte too many).
TB_MUTANTS := tbchunk tbword
TB_MUTANT_BINS := $(TB_MUTANTS:%=$(BUILD)/tests/touchbits_%)
$(BUILD)/mutant/tb_%/engine/sim/touchbits.o: engine/sim/touchbits.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DWL_MUTANT_$(shell echo $* | tr a-z A-Z) -c $< -o $@
.PRECIOUS: $(BUILD)/mutant/tb_%/engine/sim/touchbits.o
$(BUILD)/tests/touchbits_%: tests/unit/test_touchbits.c \
  engine/sim/touchbits.h $(BUILD)/mutant/tb_%/engine/sim/touchbits.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< $(BUILD)/mutant/tb_$*/engine/sim/touchbits.o \
	  $(LIB) $(ALL_LDFLAGS) $(PKG_CMOCKA) -o $@

# props with the h100 profile's rare in-SM events (engine/mem/machine.h,
# mm_st_sm, inlined into engine/sim/sample.c's runs) at 1/4 each instead of ~1e-4 and ~1e-6, so that the sample
# property meets them often: its own copy of sample.c is linked ahead
# of the library's.
RARE_DEFS := -DSM_OTFWD=1073741824u -DSM_OTLD=1073741824u
$(BUILD)/tests/sample_rare.o: engine/sim/sample.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(RARE_DEFS) -c $< -o $@
# The exact law (engine/sim/exact.c, which compiles sample.c's steps
# again) gets the same knobs in its own copy.
$(BUILD)/tests/exact_rare.o: engine/sim/exact.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(RARE_DEFS) -c $< -o $@
$(BUILD)/tests/props_rare: tests/props.c $(BUILD)/tests/sample_rare.o \
  $(BUILD)/tests/exact_rare.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< $(BUILD)/tests/sample_rare.o \
	  $(BUILD)/tests/exact_rare.o $(LIB) $(ALL_LDFLAGS) -o $@

# props with the link's rare events (engine/mem/machine.h: a remote load
# deferred, a gpu-fenced store passed on a busy link) at 1/4 each, the
# same way.
LINK_DEFS := -DLK_RDEFER=1073741824u -DLK_GSWAP=1073741824u
$(BUILD)/tests/sample_link.o: engine/sim/sample.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LINK_DEFS) -c $< -o $@
$(BUILD)/tests/exact_link.o: engine/sim/exact.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LINK_DEFS) -c $< -o $@
$(BUILD)/tests/props_link: tests/props.c $(BUILD)/tests/sample_link.o \
  $(BUILD)/tests/exact_link.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< $(BUILD)/tests/sample_link.o \
	  $(BUILD)/tests/exact_link.o $(LIB) $(ALL_LDFLAGS) -o $@

# The mutation checks (tests/cli/mutants.sh): props linked with one
# engine file built with a WL_MUTANT_* macro that breaks one reduction,
# ahead of the library; props's reduce property must fail on each.
#   images   results.c: a state counts as known when it is, its images
#            under the symmetry of interchangeable threads not looked up
#            (the bug symmetry with observed-only pruning once had);
#   twins    rfsearch.c: a twin touched by reads-from already is taken
#            for an untouched one;
#   commute  rfsearch.c: inert RMWs commute whatever their decisions.
#   lawknob  exact.c (exact.h): the exact law's knob and chance draws
#            with their two alternatives' weights swapped (law property);
#   lawl1    exact.c: a state's encoding without its SMs' L1 lines.
#   lawharn  exact.c: a state's encoding without the harness's waits.
MUTANTS := images twins commute lawknob lawl1 lawharn linklone
MUTANT_images := engine/model/results.c
MUTANT_twins := engine/model/rfsearch.c
MUTANT_commute := engine/model/rfsearch.c
MUTANT_lawknob := engine/sim/exact.c
MUTANT_lawl1 := engine/sim/exact.c
MUTANT_lawharn := engine/sim/exact.c
MUTANT_linklone := engine/sim/sample.c engine/sim/exact.c
MUTANT_BINS := $(MUTANTS:%=$(BUILD)/tests/props_mutant_%)
MUTANT_OBJ := $(foreach m,$(MUTANTS),$(MUTANT_$(m):%.c=$(BUILD)/mutant/$(m)/%.o))
define mutant_rules
$(BUILD)/mutant/$(1)/%.o: %.c
	@mkdir -p $$(dir $$@)
	$$(CC) $$(ALL_CFLAGS) -DWL_MUTANT_$(shell echo $(1) | tr a-z A-Z) -c $$< -o $$@
$(BUILD)/tests/props_mutant_$(1): tests/props.c $(MUTANT_$(1):%.c=$(BUILD)/mutant/$(1)/%.o) $$(LIB)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(ALL_CFLAGS) $$< $(MUTANT_$(1):%.c=$(BUILD)/mutant/$(1)/%.o) $$(LIB) $$(ALL_LDFLAGS) -o $$@
endef
$(foreach m,$(MUTANTS),$(eval $(call mutant_rules,$(m))))

# The Lua-level allocation-failure sweep of the bindings (tests/cli/
# lalloc.sh runs it): the module's objects with the system Lua.
$(BUILD)/tests/lalloc: tests/lalloc.c $(MOD_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LUA_CFLAGS) -Itests -c $< -o $@.o
	$(CC) $(ALL_LDFLAGS) $@.o $(MOD_OBJ) $(LIB) $(LUA_LIBS) $(UV_LIBS) -lm \
	  -o $@

# The fuzz harnesses without libFuzzer (tests/fuzz/replay.c): they run
# the reproducers of tests/fuzz/regress/ (tests/cli/fuzz_regress.sh).
REPLAY_CFLAGS := $(filter-out -MMD -MP,$(ALL_CFLAGS))
REPLAY := $(BUILD)/tests/replay_litmus $(BUILD)/tests/replay_insn \
          $(BUILD)/tests/replay_cat $(BUILD)/tests/replay_lua \
          $(BUILD)/tests/replay_cuda
$(BUILD)/tests/replay_lua: tests/fuzz/fuzz_lua.c tests/fuzz/replay.c \
                           $(MOD_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(REPLAY_CFLAGS) $(LUA_CFLAGS) tests/fuzz/fuzz_lua.c \
	  tests/fuzz/replay.c $(MOD_OBJ) $(LIB) $(ALL_LDFLAGS) $(LUA_LIBS) \
	  $(UV_LIBS) -lm -o $@
$(BUILD)/tests/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(REPLAY_CFLAGS) tests/fuzz/fuzz_$*.c tests/fuzz/replay.c $(LIB) \
	  $(ALL_LDFLAGS) -o $@

# The test command: unit tests, the command-line tests, the conformance
# run over ../shared/conformance.  The last line is "N passed, N failed".
test: deps $(BIN) $(SO) $(UNIT_BIN) $(BUILD)/tests/conformance \
      $(BUILD)/tests/soundness $(BUILD)/tests/props $(BUILD)/tests/props_rare \
      $(BUILD)/tests/props_link $(MUTANT_BINS) \
      $(BUILD)/tests/props_split $(SPLIT_MUTANT_BINS) \
      $(BUILD)/tests/warplab_splitjoin $(BUILD)/tests/warplab_l2replay \
      $(TB_MUTANT_BINS) $(BUILD)/tests/lalloc $(REPLAY) $(if $(MPI_HAVE),$(MPI_BIN))
	@sh tests/run.sh $(BUILD)

# The properties of tests/props.c on 50,000 generated tests (make test
# runs them on 2,000), and the Lua-function form of 2,000 more.
VERIFY_COUNT ?= 50000
verify: deps $(BIN) $(BUILD)/tests/props
	@sh tests/verify.sh $(BUILD) $(VERIFY_COUNT)

# Sanitizer builds, valgrind, and the layering check.
check:
	WARPLAB_DEPS="valgrind" sh scripts/deps.sh
	$(MAKE) MODE=asan test
	$(MAKE) MODE=release all $(UNIT_BIN) build/release/tests/conformance \
	  build/release/tests/lalloc
	@sh tests/check.sh

$(BUILD)/bench/%: bench/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< $(LIB) $(ALL_LDFLAGS) -o $@

bench: deps $(BIN) $(BUILD)/bench/litmus_bench $(if $(MPI_HAVE),$(MPI_BIN))
	@sh bench/run.sh $(BUILD)

demo: deps $(BIN)
	@sh scripts/demo.sh $(BUILD)

fuzz:
	WARPLAB_DEPS="clang" sh scripts/deps.sh
	@sh tests/fuzz/run.sh

# make install [PREFIX=/usr/local] [DESTDIR=staging]: the command, the
# library with its header and pkg-config file, the Lua module, the man
# page, the bash completion and the shipped models (share/warplab/models,
# where both the command and the module find them).  install-lua: the Lua
# module and the models alone (the rockspec's install target).
# The pkg-config file is written with this install's directories,
# relative to ${prefix} where they are under PREFIX.
PC_SED := -e 's|@PREFIX@|$(PREFIX)|' \
  -e 's|@LIBDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(LIBDIR))|' \
  -e 's|@INCLUDEDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(INCLUDEDIR))|'
install: $(BIN) $(LIB) $(SO) install-lua
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) \
	  $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PKGCONFIGDIR) \
	  $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR)
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/warplab
	install -m 644 $(LIB) $(DESTDIR)$(LIBDIR)/libwarplab.a
	install -m 644 engine/warplab.h $(DESTDIR)$(INCLUDEDIR)/warplab.h
	sed $(PC_SED) -e "s|@VERSION@|$$(sed -n \
	  's/^#define WL_VERSION "\(.*\)"/\1/p' engine/warplab.h)|" \
	  warplab.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/warplab.pc
	chmod 644 $(DESTDIR)$(PKGCONFIGDIR)/warplab.pc
	install -m 644 man/warplab.1 $(DESTDIR)$(MANDIR)/man1/warplab.1
	install -m 644 completions/warplab.bash $(DESTDIR)$(BASHCOMPDIR)/warplab

install-lua: $(SO)
	install -d $(DESTDIR)$(LUA_CMOD) $(DESTDIR)$(LUA_LMOD)/warplab
	install -m 755 $(SO) $(DESTDIR)$(LUA_CMOD)/warplab.so
	install -m 644 $(LUA_LIB_SRC) $(DESTDIR)$(LUA_LMOD)/warplab/
	install -d $(DESTDIR)$(PREFIX)/share/warplab/models
	install -m 644 models/*.cat models/LICENCE.dat3m models/README.md \
	  $(DESTDIR)$(PREFIX)/share/warplab/models/

clean:
	rm -rf build

-include $(ENGINE_OBJ:.o=.d) $(BIND_OBJ:.o=.d) $(BUILD)/bindings/main.d \
  $(CMD_OBJ:.o=.d) $(RANKS_ONE_OBJ:.o=.d) $(RANKS_MPI_OBJ:.o=.d) \
  $(EMBED:.c=.d)
-include $(UNIT_BIN:=.d) $(BUILD)/tests/conformance.d \
  $(BUILD)/tests/soundness.d $(BUILD)/tests/props.d $(BUILD)/tests/lalloc.d \
  $(BUILD)/tests/props_split.d \
  $(BUILD)/tests/sample_rare.d $(BUILD)/tests/exact_rare.d \
  $(BUILD)/tests/props_rare.d $(BUILD)/tests/props_link.d \
  $(MUTANT_BINS:=.d) $(MUTANT_OBJ:.o=.d) \
  $(SPLIT_MUTANTS:%=$(BUILD)/mutant/split_%/engine/model/split.d) \
  $(TB_MUTANTS:%=$(BUILD)/mutant/tb_%/engine/sim/touchbits.d) \
  $(BUILD)/mutant/splitjoin/engine/sim/split.d \
  $(BUILD)/mutant/l2replay/engine/sim/split.d \
  $(BUILD)/bench/litmus_bench.d

# parcheck - the only build entry point (plain GNU make).
#
#   make / make all     library, build/bin/parcheck, helper binaries
#   make check          bootstrap, build, run every Check suite (summary line last)
#   make report         run every implementation on the default inputs -> report/index.html
#   make bench          timing sweeps -> report/bench.csv and plots
#   make install PREFIX=/usr/local DESTDIR=   binaries, libparcheck.{a,so}, include/parcheck/, parcheck.pc
#   make uninstall PREFIX=/usr/local DESTDIR= removes exactly what install put
#   make clean
#
# Optional parts are detected, never assumed: CUDA (nvcc; CUDA=0 turns it
# off), OpenCL (headers + ICD loader), MPI (mpicc), libdivsufsort, librsb.

.DEFAULT_GOAL := all
SHELL := /bin/bash

BUILD   ?= build
PREFIX  ?= /usr/local
DESTDIR ?=
ifeq ($(origin CC),default)
CC := gcc
endif
OPT     ?= -O3 -march=x86-64-v2
WERROR  ?= -Werror

# ---- detection (evaluated once per make invocation) -----------------------
CUDA      ?= 1
CUDA_HOME ?= /usr/local/cuda
NVCC      ?= $(shell command -v nvcc 2>/dev/null || echo $(CUDA_HOME)/bin/nvcc)
ifeq ($(CUDA),0)
  HAVE_CUDA := 0
  CUDA_WHY  := built with CUDA=0
else ifeq ($(wildcard src/*/cuda/*.cu),)
  HAVE_CUDA := 0
  CUDA_WHY  := no CUDA sources in this tree
else ifeq ($(shell test -x $(NVCC) && echo 1),1)
  HAVE_CUDA := 1
  CUDA_WHY  :=
  CUDA_LIBDIR := $(shell d=$$(dirname $$(dirname $(NVCC))); for l in lib64 lib targets/x86_64-linux/lib; do test -e $$d/$$l/libcudart.so && echo $$d/$$l && break; done)
else
  HAVE_CUDA := 0
  CUDA_WHY  := nvcc not found (set NVCC= or CUDA_HOME=)
endif
# PC_HAVE_CUDA is global, but a domain's CUDA sources may not be in this
# tree yet (the SpMM table names spmm_cuda_* only when they are): its host
# side is then built as without CUDA, with this reason.
ifeq ($(HAVE_CUDA),1)
ifeq ($(wildcard src/spmm/cuda/*.cu),)
  CUDA_WHY := no SpMM CUDA sources (src/spmm/cuda/*.cu) in this tree
$(BUILD)/obj/src/spmm/spmm_impls.o $(BUILD)/pic/src/spmm/spmm_impls.o: DEFS += -UPC_HAVE_CUDA -DPC_HAVE_CUDA=0
endif
endif

OPENCL ?= 1
ifeq ($(OPENCL),0)
  HAVE_OPENCL := 0
  OPENCL_WHY  := built with OPENCL=0
else
  HAVE_OPENCL := $(shell $(CC) ci/probe-opencl.c -lOpenCL -o /dev/null 2>/dev/null && echo 1 || echo 0)
  OPENCL_WHY  := $(if $(filter 0,$(HAVE_OPENCL)),OpenCL headers or ICD loader missing (apt-get install ocl-icd-opencl-dev opencl-headers),)
endif

MPICC ?= $(shell command -v mpicc 2>/dev/null)
HAVE_MPI := $(if $(MPICC),1,0)
MPI_WHY  := $(if $(MPICC),,mpicc not found (apt-get install libopenmpi-dev openmpi-bin))

HAVE_DIVSUFSORT := $(shell pkg-config --exists libdivsufsort 2>/dev/null && echo 1 || echo 0)
DIVSUFSORT_WHY  := $(if $(filter 0,$(HAVE_DIVSUFSORT)),libdivsufsort not installed (apt-get install libdivsufsort-dev),)

# librsb: the external CPU reference of the SpMM table.
HAVE_LIBRSB := $(shell pkg-config --exists librsb 2>/dev/null && echo 1 || echo 0)
LIBRSB_WHY  := $(if $(filter 0,$(HAVE_LIBRSB)),librsb not installed at build time (apt-get install librsb-dev),)
ifeq ($(HAVE_LIBRSB),1)
$(BUILD)/obj/src/spmm/spmm_librsb.o $(BUILD)/pic/src/spmm/spmm_librsb.o: DEFS += $(shell pkg-config --cflags librsb)
endif

CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null)

# ---- flags -------------------------------------------------------------------
SRC_DIRS := src/common src/mm src/spmm src/sa src/pets src/plugin src/api src/cli
INCLUDES := -Iinclude $(addprefix -I,$(SRC_DIRS)) -Ioracles -I$(BUILD)/gen
DEFS     := -D_GNU_SOURCE -DCL_TARGET_OPENCL_VERSION=120 \
            -DPC_HAVE_CUDA=$(HAVE_CUDA) -DPC_HAVE_OPENCL=$(HAVE_OPENCL) \
            -DPC_HAVE_MPI=$(HAVE_MPI) -DPC_HAVE_DIVSUFSORT=$(HAVE_DIVSUFSORT) \
            -DPC_HAVE_LIBRSB=$(HAVE_LIBRSB)
WARN     := -Wall -Wextra $(WERROR) -Wno-unknown-pragmas
CFLAGS   ?= $(OPT) -g
# OPENMP=0 builds without OpenMP, as a compiler without it would: the
# pragmas are ignored and src/common/pc_omp.h answers for the run-time
# calls. The progress line's thread needs -pthread either way.
OPENMP   ?= 1
OMP_FLAG := $(if $(filter 0,$(OPENMP)),,-fopenmp)
ALL_CFLAGS = -std=c11 $(OMP_FLAG) -pthread $(WARN) $(DEFS) $(INCLUDES) $(CFLAGS) $(EXTRA_CFLAGS)
LDLIBS_ALL = $(OMP_FLAG) -pthread -lm $(EXTRA_LDLIBS)
ifeq ($(HAVE_OPENCL),1)
LDLIBS_ALL += -lOpenCL
endif
ifeq ($(HAVE_DIVSUFSORT),1)
LDLIBS_ALL += $(shell pkg-config --libs libdivsufsort)
endif
ifeq ($(HAVE_LIBRSB),1)
LDLIBS_ALL += $(shell pkg-config --libs librsb)
endif

NVCC_ARCH  ?= -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90
NVCC_FLAGS ?= -O3 -std=c++17 $(NVCC_ARCH) -Werror all-warnings \
              -Xcompiler -Wall,-Wextra,-Werror,-fPIC $(DEFS) $(INCLUDES)
ifeq ($(HAVE_CUDA),1)
LDLIBS_ALL += -L$(CUDA_LIBDIR) -Wl,-rpath,$(CUDA_LIBDIR) -lcusparse -lcudart -lstdc++ -ldl -lpthread
endif

# ---- sources (auto-discovered: a new file needs no Makefile edit) -----------
LIB_SRC    := $(wildcard src/common/*.c src/mm/*.c src/spmm/*.c src/sa/*.c src/pets/*.c src/plugin/*.c src/api/*.c)
CLI_SRC    := $(wildcard src/cli/*.c)
ORACLE_SRC := $(wildcard oracles/*/*.c)
CU_SRC     := $(if $(filter 1,$(HAVE_CUDA)),$(wildcard src/*/cuda/*.cu))
TESTLIB_SRC:= $(wildcard tests/common/*.c)
TEST_SRC   := $(wildcard tests/*/test_*.c)

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
LIB_OBJ    := $(call obj,$(LIB_SRC)) $(patsubst %.cu,$(BUILD)/obj/%.o,$(CU_SRC))
CLI_OBJ    := $(call obj,$(CLI_SRC))
ORACLE_OBJ := $(call obj,$(ORACLE_SRC))
TESTLIB_OBJ:= $(call obj,$(TESTLIB_SRC))
TEST_BIN   := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRC))

LIB     := $(BUILD)/lib/libparcheck.a
# The shared library: the objects of LIB again, position-independent and
# with hidden visibility, so that it exports the public interface
# (include/parcheck/parcheck.h) and nothing else. The version is the
# header's, the soname carries the major.
VERSION := $(shell sed -n 's/^\#define PARCHECK_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$$/\2/p' include/parcheck/parcheck.h | paste -sd.)
SONAME  := libparcheck.so.$(firstword $(subst ., ,$(VERSION)))
SO      := $(BUILD)/lib/libparcheck.so.$(VERSION)
PIC_OBJ := $(patsubst %.c,$(BUILD)/pic/%.o,$(LIB_SRC) $(ORACLE_SRC)) $(patsubst %.cu,$(BUILD)/obj/%.o,$(CU_SRC))
PC_FILE := $(BUILD)/lib/pkgconfig/parcheck.pc
PUBLIC_H:= $(wildcard include/parcheck/*.h)
ORACLES := $(BUILD)/lib/liboracles.a
PARCHECK:= $(BUILD)/bin/parcheck
CONFIG  := $(BUILD)/gen/pc_config.h
# The man page, made from the help text by help2man when it is installed.
MAN     := $(if $(shell command -v help2man 2>/dev/null),$(BUILD)/man/parcheck.1)

# `make V=1` shows full command lines.
ifeq ($(V),1)
Q :=
say = @true
else
Q := @
say = @echo "  $(1) $(2)"
endif

# Domain fragments add helper binaries (EXTRA_BINS) and rules.
EXTRA_BINS :=
-include $(sort $(wildcard src/*/module.mk src/*/*/module.mk tests/*/module.mk fuzz/module.mk ci/module.mk examples/module.mk))

.PHONY: all help tests check check-run report report-run report-env bench bench-run install uninstall clean \
        bootstrap list-config FORCE
all: $(PARCHECK) $(EXTRA_BINS) $(SO) $(PC_FILE) $(MAN)
tests: $(TEST_BIN)

# The configuration header is rewritten only when detection changes.
$(CONFIG): FORCE
	@mkdir -p $(@D)
	@{ echo '/* generated by make: what this build has */'; \
	   echo '#define PC_CUDA_WHY "$(CUDA_WHY)"'; \
	   echo '#define PC_OPENCL_WHY "$(OPENCL_WHY)"'; \
	   echo '#define PC_MPI_WHY "$(MPI_WHY)"'; \
	   echo '#define PC_DIVSUFSORT_WHY "$(DIVSUFSORT_WHY)"'; \
	   echo '#define PC_LIBRSB_WHY "$(LIBRSB_WHY)"'; \
	   echo '#define PC_BUILD_BINDIR "$(abspath $(BUILD)/bin)"'; \
	   echo '#define PC_INSTALL_BINDIR "$(PREFIX)/bin"'; \
	 } > $@.tmp; cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp

$(BUILD)/obj/%.o: %.c $(CONFIG)
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

# The same, for the shared library. Ordered after the plain object, so
# that what a domain generates for it (headers) exists first.
$(BUILD)/pic/%.o: %.c $(CONFIG) | $(BUILD)/obj/%.o
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -fPIC -fvisibility=hidden -MMD -MP -c $< -o $@

$(BUILD)/obj/%.o: %.cu $(CONFIG)
	@mkdir -p $(@D)
	$(call say,NVCC,$<)
	$(Q)$(NVCC) $(NVCC_FLAGS) -MMD -MP -c $< -o $@

# libparcheck.a carries the oracles too (the public checks call them);
# liboracles.a stays for the links that name it.
$(LIB): $(LIB_OBJ) $(ORACLE_OBJ)
	@mkdir -p $(@D)
	$(call say,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

# CUDA objects are already position-independent (NVCC_FLAGS); the version
# script hides their symbols as -fvisibility=hidden does the others'.
$(SO): $(PIC_OBJ) src/api/libparcheck.map
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(CC) $(CFLAGS) $(EXTRA_LDFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,--no-undefined \
	    -Wl,--version-script,src/api/libparcheck.map -o $@ $(PIC_OBJ) $(LDLIBS_ALL)
	$(Q)ln -sf $(notdir $@) $(@D)/$(SONAME) && ln -sf $(SONAME) $(@D)/libparcheck.so

# pkg-config file for PREFIX, rewritten only when it changes. Libs.private
# is what a static link (pkg-config --static) needs besides the archive.
$(PC_FILE): FORCE
	@mkdir -p $(@D)
	@{ echo 'prefix=$(PREFIX)'; echo 'libdir=$${prefix}/lib'; echo 'includedir=$${prefix}/include'; \
	   echo; echo 'Name: parcheck'; \
	   echo 'Description: oracles that judge SpMM products, suffix arrays and task schedules'; \
	   echo 'Version: $(VERSION)'; echo 'Cflags: -I$${includedir}'; \
	   echo 'Libs: -L$${libdir} -lparcheck'; echo 'Libs.private: $(strip $(LDLIBS_ALL))'; \
	 } > $@.tmp; cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp

$(ORACLES): $(ORACLE_OBJ)
	@mkdir -p $(@D)
	$(call say,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $(ORACLE_OBJ)

$(PARCHECK): $(CLI_OBJ) $(ORACLES) $(LIB)
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(CC) $(CFLAGS) $(EXTRA_LDFLAGS) -o $@ $(CLI_OBJ) $(ORACLES) $(LIB) $(LDLIBS_ALL)

$(BUILD)/man/parcheck.1: $(PARCHECK) ci/man_include.sh
	@mkdir -p $(@D)
	$(call say,MAN,$@)
	$(Q)bash ci/man_include.sh $(PARCHECK) >$(@D)/commands.h2m
	$(Q)help2man --no-info --section=1 --name='run parallel kernels against independent oracles' \
	    --include=$(@D)/commands.h2m --output=$@ $(PARCHECK)

$(BUILD)/tests/%: tests/%.c $(TESTLIB_OBJ) $(ORACLES) $(LIB) $(CONFIG)
	@mkdir -p $(@D)
	$(call say,TEST,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -Itests/common $(CHECK_CFLAGS) $(EXTRA_LDFLAGS) -o $@ $< $(TESTLIB_OBJ) $(ORACLES) $(LIB) $(CHECK_LIBS) $(LDLIBS_ALL)

$(BUILD)/obj/tests/%.o: tests/%.c $(CONFIG)
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(CC) $(ALL_CFLAGS) -Itests/common $(CHECK_CFLAGS) -MMD -MP -c $< -o $@

# ---- top-level jobs: each installs what is missing, then re-enters make so
# that detection sees the freshly installed packages.
bootstrap:
	@bash ci/bootstrap

check: bootstrap
	@$(MAKE) --no-print-directory check-run

check-run: all tests
	@bash ci/run-tests.sh $(BUILD)

report: bootstrap
	@$(MAKE) --no-print-directory report-run

# REPORT_SIZE=small is the report's tiny variant (seconds).
report-run: all
	@REPORT_SIZE='$(REPORT_SIZE)' bash ci/report.sh $(BUILD)

# The compiler and the flags of this build, two lines, for the report's
# header (ci/report_machine.sh).
report-env:
	@echo '$(shell $(CC) --version 2>/dev/null | head -n 1)'
	@echo '$(strip $(filter-out -I% -D%,$(ALL_CFLAGS)))'

bench: bootstrap
	@$(MAKE) --no-print-directory bench-run

bench-run: all
	@bash ci/bench.sh $(BUILD)

list-config:
	@echo "CUDA=$(HAVE_CUDA) $(CUDA_WHY)"; echo "OpenCL=$(HAVE_OPENCL) $(OPENCL_WHY)"; \
	 echo "MPI=$(HAVE_MPI) $(MPI_WHY)"; echo "divsufsort=$(HAVE_DIVSUFSORT) $(DIVSUFSORT_WHY)"; \
	 echo "librsb=$(HAVE_LIBRSB) $(LIBRSB_WHY)"

# Only include/parcheck/ is public: no internal header is installed.
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/include/parcheck $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 755 $(PARCHECK) $(EXTRA_BINS) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(SO) $(DESTDIR)$(PREFIX)/lib/
	ln -sf $(notdir $(SO)) $(DESTDIR)$(PREFIX)/lib/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(PREFIX)/lib/libparcheck.so
	install -m 644 $(PUBLIC_H) $(DESTDIR)$(PREFIX)/include/parcheck/
	install -m 644 $(PC_FILE) $(DESTDIR)$(PREFIX)/lib/pkgconfig/
ifneq ($(MAN),)
	install -d $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 $(MAN) $(DESTDIR)$(PREFIX)/share/man/man1/
else
	@echo "install: no man page (help2man not found: apt-get install help2man)"
endif

uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/bin/,$(notdir $(PARCHECK) $(EXTRA_BINS))) \
	      $(addprefix $(DESTDIR)$(PREFIX)/lib/,$(notdir $(LIB) $(SO)) $(SONAME) libparcheck.so) \
	      $(addprefix $(DESTDIR)$(PREFIX)/include/parcheck/,$(notdir $(PUBLIC_H))) \
	      $(DESTDIR)$(PREFIX)/lib/pkgconfig/parcheck.pc \
	      $(DESTDIR)$(PREFIX)/share/man/man1/parcheck.1
	@rmdir $(DESTDIR)$(PREFIX)/include/parcheck 2>/dev/null || true

# The targets a user runs, one line each.
help:
	@echo 'make [all]          build/bin/parcheck, helpers, libparcheck.{a,so}, parcheck.pc, the man page'
	@echo 'make check          install what is missing (ci/bootstrap), build, run every suite'
	@echo 'make report         every implementation on seeded inputs -> report/index.html'
	@echo '                    (REPORT_SIZE=small: the tiny variant; inputs cached in $(BUILD)/inputs)'
	@echo 'make bench          timing sweeps -> report/bench.csv, report/bench.html'
	@echo 'make memreport      massif peak of each CPU implementation against its memory model'
	@echo 'make coverage       line coverage of the suites -> coverage/html'
	@echo 'make check-sanitize / check-valgrind   the suites under ASan+UBSan / memcheck'
	@echo 'make fuzz / fuzz-afl                   the fuzz targets (docs/README-harness.md)'
	@echo 'make mutate         mutation score of the CPU sources -> report/mutation.html (days for all; resumable;'
	@echo '                    MUTATE_SAMPLE=N MUTATE_SEED=S, MUTATE_FILES=..., MUTATE_JOBS=N)'
	@echo 'make install PREFIX=/usr/local DESTDIR=   binaries, libraries, public headers, parcheck.pc, man page'
	@echo 'make uninstall PREFIX=/usr/local DESTDIR= removes exactly what install put'
	@echo 'make clean          removes $(BUILD) (with the inputs cache), report/, coverage output'
	@echo 'make list-config    which optional parts (CUDA, OpenCL, MPI, divsufsort) this build has'
	@echo 'options: OPENMP=0 (no OpenMP), CUDA=0, OPENCL=0, V=1 (command lines), PLUGINS="a.so ..."'

clean:
	rm -rf $(BUILD) report coverage/html coverage/*.info

FORCE:

# Test helper objects are shared by every suite: keep them.
.SECONDARY: $(TESTLIB_OBJ)

-include $(shell find $(BUILD)/obj $(BUILD)/pic -name '*.d' 2>/dev/null)

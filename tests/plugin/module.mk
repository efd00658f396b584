# tests/plugin/module.mk - what the plugin suite needs before it runs: the
# examples (make examples) and one test-only plugin per misbehaviour, all
# from tests/plugin/plugins/tp_misc.c with a TP_<VARIANT> macro, as
# $(BUILD)/tests/plugin/tp_<variant>.so (the suite finds them next to
# itself); a C++ translation unit proving the public header compiles as
# C++; and bench_plugin, the isolation-cost benchmark (not a test: it is
# not named test_*, so ci/run-tests.sh leaves it alone).

PLUGIN_TP_VARIANTS := ok hang exit3 abort fail past_end write_input guard unavail clash badname \
                      small_entry badflags nullrun dup nullentry abi2 noinit initfail initsegv inithang \
                      ell fp32 nowrite
PLUGIN_TP_SO := $(patsubst %,$(BUILD)/tests/plugin/tp_%.so,$(PLUGIN_TP_VARIANTS))
PLUGIN_CXX   := $(BUILD)/tests/plugin/plugin_header_cxx.o
CXX_FOR_TESTS ?= g++

$(BUILD)/tests/plugin/tp_%.so: tests/plugin/plugins/tp_misc.c include/parcheck/plugin.h
	@mkdir -p $(@D)
	$(call say,SO,$@)
	$(Q)$(CC) $(EXAMPLE_CFLAGS) -DTP_$(shell echo $* | tr a-z A-Z) -o $@ $<

# The public header alone, as C99 with -pedantic and as C++11.
$(PLUGIN_CXX): tests/plugin/plugin_header_cxx.cpp include/parcheck/plugin.h
	@mkdir -p $(@D)
	$(call say,CXX,$<)
	$(Q)$(CC) -std=c99 -pedantic -Wall -Wextra $(WERROR) -Iinclude -fsyntax-only -x c include/parcheck/plugin.h
	$(Q)$(CXX_FOR_TESTS) -std=c++11 -Wall -Wextra $(WERROR) -Iinclude -c $< -o $@

$(BUILD)/tests/plugin/test_plugin: $(PLUGIN_TP_SO) $(EXAMPLE_SO) $(PLUGIN_CXX)

PLUGIN_BENCH := $(BUILD)/tests/plugin/bench_plugin
$(PLUGIN_BENCH): tests/plugin/bench_plugin.c examples/plugins/spmm_omp_ok/spmm_omp_ok.c \
                 $(ORACLES) $(LIB) $(CONFIG) $(EXAMPLE_DIR)/spmm_omp_ok.so
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(EXTRA_LDFLAGS) -o $@ $< $(ORACLES) $(LIB) $(LDLIBS_ALL)
tests: $(PLUGIN_BENCH)

# The command-line suite runs parcheck itself on the examples and test plugins.
$(BUILD)/tests/plugin/test_plugin_cli: $(PLUGIN_TP_SO) $(EXAMPLE_SO) $(PARCHECK)

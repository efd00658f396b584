# tests/zoo/module.mk - the zoo of known bugs (tests/zoo/zoo.h): one binary,
# $(BUILD)/tests/zoo/zoo, built with `make tests` and run by
# ci/tests.d/zoo.sh. Not named test_*, so that the runner's loop over Check
# suites leaves it to that script (which prints its `zoo:` line).
ZOO_SRC := $(wildcard tests/zoo/*.c)
ZOO_OBJ := $(call obj,$(ZOO_SRC))
ZOO_BIN := $(BUILD)/tests/zoo/zoo

tests: $(ZOO_BIN)

$(ZOO_BIN): $(ZOO_OBJ) $(ORACLES) $(LIB)
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(CC) $(CFLAGS) $(EXTRA_LDFLAGS) -o $@ $(ZOO_OBJ) $(ORACLES) $(LIB) $(LDLIBS_ALL)

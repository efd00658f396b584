# tests/api/module.mk - the public header include/parcheck/parcheck.h
# alone (C99 and C11 with -pedantic; C++11 through a translation unit that
# test_api links and calls, proving the C linkage), and test_api's link.

API_CXX := $(BUILD)/tests/api/api_header_cxx.o
CXX_FOR_TESTS ?= g++

$(API_CXX): tests/api/api_header_cxx.cpp include/parcheck/parcheck.h include/parcheck/plugin.h
	@mkdir -p $(@D)
	$(call say,CXX,$<)
	$(Q)$(CC) -std=c99 -pedantic -Wall -Wextra $(WERROR) -Iinclude -fsyntax-only -x c include/parcheck/parcheck.h
	$(Q)$(CC) -std=c11 -pedantic -Wall -Wextra $(WERROR) -Iinclude -fsyntax-only -x c include/parcheck/parcheck.h
	$(Q)$(CXX_FOR_TESTS) -std=c++11 -pedantic -Wall -Wextra $(WERROR) -fno-exceptions -fno-rtti \
	    -Iinclude -c $< -o $@

# The generic test rule links one source: this suite adds the C++ object.
$(BUILD)/tests/api/test_api: tests/api/test_api.c $(API_CXX) $(TESTLIB_OBJ) $(LIB) $(CONFIG)
	@mkdir -p $(@D)
	$(call say,TEST,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -Itests/common $(CHECK_CFLAGS) $(EXTRA_LDFLAGS) -o $@ $< $(API_CXX) \
	    $(TESTLIB_OBJ) $(LIB) $(CHECK_LIBS) $(LDLIBS_ALL)

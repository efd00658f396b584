# examples/module.mk - `make examples`: each examples/plugins/<name>/<name>.c
# becomes $(BUILD)/examples/<name>.so, compiled as a user would: against the
# public header alone (-Iinclude), nothing else of parcheck. An example whose
# library is missing here is left out with the reason (make examples says so).

EXAMPLE_CFLAGS = -std=c11 -O3 -g -fPIC -shared -fopenmp -Wall -Wextra $(WERROR) -Iinclude
EXAMPLE_DIR    := $(BUILD)/examples

# Extra flags of one example, and why it cannot be built here (empty: it can).
EXAMPLE_LIBS_sa_divsufsort := $(if $(filter 1,$(HAVE_DIVSUFSORT)),$(shell pkg-config --cflags --libs libdivsufsort))
EXAMPLE_WHY_sa_divsufsort  := $(DIVSUFSORT_WHY)

EXAMPLE_ALL  := $(sort $(notdir $(wildcard examples/plugins/*)))
EXAMPLE_C    := $(foreach e,$(EXAMPLE_ALL),$(if $(wildcard examples/plugins/$(e)/$(e).c),$(e)))
EXAMPLE_CU   := $(foreach e,$(EXAMPLE_ALL),$(if $(wildcard examples/plugins/$(e)/$(e).cu),$(e)))
$(foreach e,$(EXAMPLE_CU),$(eval EXAMPLE_WHY_$(e) := $(if $(filter 1,$(HAVE_CUDA)),,$(CUDA_WHY))))
EXAMPLE_OK   := $(foreach e,$(EXAMPLE_C) $(EXAMPLE_CU),$(if $(EXAMPLE_WHY_$(e)),,$(e)))
EXAMPLE_SO   := $(patsubst %,$(EXAMPLE_DIR)/%.so,$(EXAMPLE_OK))

# CUDA examples: the shared runtime (the worker loads the same one for the
# device copies), found through an rpath.
EXAMPLE_NVCC_FLAGS = -O3 -std=c++17 $(NVCC_ARCH) -shared -Xcompiler -fPIC,-Wall,-Wextra,$(WERROR) \
                     -Iinclude --cudart shared -Xlinker -rpath,$(CUDA_LIBDIR)

define example_rule
$(EXAMPLE_DIR)/$(1).so: examples/plugins/$(1)/$(1).c include/parcheck/plugin.h
	@mkdir -p $$(@D)
	$$(call say,SO,$$@)
	$$(Q)$$(CC) $$(EXAMPLE_CFLAGS) -o $$@ $$< $$(EXAMPLE_LIBS_$(1))
endef
define example_cu_rule
$(EXAMPLE_DIR)/$(1).so: examples/plugins/$(1)/$(1).cu include/parcheck/plugin.h
	@mkdir -p $$(@D)
	$$(call say,NVCC,$$@)
	$$(Q)$$(NVCC) $$(EXAMPLE_NVCC_FLAGS) -o $$@ $$<
endef
$(foreach e,$(filter $(EXAMPLE_C),$(EXAMPLE_OK)),$(eval $(call example_rule,$(e))))
$(foreach e,$(filter $(EXAMPLE_CU),$(EXAMPLE_OK)),$(eval $(call example_cu_rule,$(e))))

.PHONY: examples
examples: $(EXAMPLE_SO)
	@$(foreach e,$(filter-out $(EXAMPLE_OK),$(EXAMPLE_C) $(EXAMPLE_CU)),echo "  SKIP $(e): $(EXAMPLE_WHY_$(e))";)

# src/spmm/module.mk - extra binaries of the SpMM domain.
#
# spmm-cuda-bench: the CUDA timing sweep behind ci/bench.d/spmm_cuda.sh
# (generates the large matrices in memory). Built in every configuration;
# without CUDA it only prints SKIPPED.
SPMM_CUDA_BENCH := $(BUILD)/bin/spmm-cuda-bench
EXTRA_BINS += $(SPMM_CUDA_BENCH)

$(SPMM_CUDA_BENCH): src/spmm/cuda/spmm_cuda_bench.c $(ORACLES) $(LIB) $(CONFIG)
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -Isrc/spmm/cuda $(EXTRA_LDFLAGS) -o $@ $< $(ORACLES) $(LIB) $(LDLIBS_ALL)

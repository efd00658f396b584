# src/sa/cuda/module.mk - the GPU suffix-array timing driver behind
# ci/bench.d/sa_cuda.sh. Built in every configuration; without CUDA (or
# without a device) it prints SKIPPED.
SA_CUDA_BENCH := $(BUILD)/bin/sa-cuda-bench
EXTRA_BINS += $(SA_CUDA_BENCH)

$(SA_CUDA_BENCH): src/sa/cuda/sa_cuda_bench.c $(ORACLES) $(LIB) $(CONFIG)
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(ORACLES) $(LIB) $(LDLIBS_ALL)

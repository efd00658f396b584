# src/sa/module.mk - what the suffix-array domain adds to the build.
# libdivsufsort's header lives under the multiarch include directory.
ifeq ($(HAVE_DIVSUFSORT),1)
EXTRA_CFLAGS += $(shell pkg-config --cflags libdivsufsort)
endif
# The CUDA slice plugs in by adding src/sa/cuda/*.cu (sa_build_cuda,
# sa_build_cuda_ms, sa_cuda_available); the table then points at them.
ifeq ($(HAVE_CUDA),1)
ifneq ($(wildcard src/sa/cuda/*.cu),)
EXTRA_CFLAGS += -DSA_WITH_CUDA=1
endif
endif

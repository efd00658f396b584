# src/pets/module.mk - PETS: optional importer libraries (jansson for
# WfCommons JSON, libxml2 for Pegasus DAX), detected with pkg-config, and
# the OpenCL kernels embedded into the binary at build time.

PETS_HAVE_JANSSON := $(shell pkg-config --exists jansson 2>/dev/null && echo 1 || echo 0)
PETS_HAVE_LIBXML2 := $(shell pkg-config --exists libxml-2.0 2>/dev/null && echo 1 || echo 0)
EXTRA_CFLAGS += -DPC_HAVE_JANSSON=$(PETS_HAVE_JANSSON) -DPC_HAVE_LIBXML2=$(PETS_HAVE_LIBXML2)
ifeq ($(PETS_HAVE_JANSSON),1)
EXTRA_CFLAGS += $(shell pkg-config --cflags jansson)
EXTRA_LDLIBS += $(shell pkg-config --libs jansson)
endif
ifeq ($(PETS_HAVE_LIBXML2),1)
EXTRA_CFLAGS += $(shell pkg-config --cflags libxml-2.0)
EXTRA_LDLIBS += $(shell pkg-config --libs libxml-2.0)
endif

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

# The .cl sources become one C string in $(BUILD)/gen/pets_kernels.h, so the
# binary carries its kernels wherever it is installed.
PETS_CL := $(sort $(wildcard src/pets/kernels/*.cl))
$(BUILD)/gen/pets_kernels.h: $(PETS_CL) src/pets/module.mk
	@mkdir -p $(@D)
	@{ echo '/* generated from src/pets/kernels by src/pets/module.mk */'; \
	   echo 'static const char pets_cl_source[] ='; \
	   cat $(PETS_CL) | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/'; \
	   echo ';'; } > $@.tmp && mv $@.tmp $@
$(BUILD)/obj/src/pets/pets_ocl.o: $(BUILD)/gen/pets_kernels.h

# Fuzz targets of this domain (fuzz/fuzz_{dag,stg,wfcommons,dax}.c) share
# their checks and the memory-file import helper.
FUZZ_EXTRA_SRC_dag       := fuzz/pets_check.c
FUZZ_EXTRA_SRC_stg       := fuzz/pets_check.c
FUZZ_EXTRA_SRC_wfcommons := fuzz/pets_check.c
FUZZ_EXTRA_SRC_dax       := fuzz/pets_check.c

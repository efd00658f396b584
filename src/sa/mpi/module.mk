# src/sa/mpi/module.mk - parcheck-sa-mpi, the distributed suffix-array
# program behind the mpi and mpi-omp implementations. Built with
# mpicc when MPI was detected; links libparcheck.a for pc_alloc, pc_time.
ifeq ($(HAVE_MPI),1)
SA_MPI_BIN := $(BUILD)/bin/parcheck-sa-mpi
SA_MPI_OBJ := $(patsubst %.c,$(BUILD)/obj-mpi/%.o,$(wildcard src/sa/mpi/*.c))
EXTRA_BINS += $(SA_MPI_BIN)

$(BUILD)/obj-mpi/%.o: %.c $(CONFIG)
	@mkdir -p $(@D)
	$(call say,MPICC,$<)
	$(Q)OMPI_CC=$(CC) $(MPICC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(SA_MPI_BIN): $(SA_MPI_OBJ) $(LIB)
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)OMPI_CC=$(CC) $(MPICC) $(CFLAGS) $(EXTRA_LDFLAGS) -o $@ $(SA_MPI_OBJ) $(LIB) $(LDLIBS_ALL)
endif

-include $(wildcard $(BUILD)/obj-mpi/src/sa/mpi/*.d)

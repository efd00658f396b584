# src/plugin/module.mk - users' kernels as shared objects (include/parcheck/plugin.h).
# The loader needs dlopen (in libc from glibc 2.34 on; -ldl keeps older ones working).
EXTRA_LDLIBS += -ldl

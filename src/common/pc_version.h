/* pc_version.h - parcheck's version, as the command line and the JSON
 * print it: the public header's (include/parcheck/parcheck.h), so that
 * the library, the binary and the header cannot disagree. */
#ifndef PC_VERSION_H
#define PC_VERSION_H
#include "parcheck/parcheck.h"
#define PC_VERSION PARCHECK_VERSION_STRING
#endif

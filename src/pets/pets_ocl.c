/* stub */
#include "pets_priv.h"
int pets_ocl_available(const pets_options *o, char *why, size_t whylen) { (void)o; snprintf(why, whylen, "not yet"); return 0; }
int pets_ocl_run(const pets_dag *dag, const pets_options *o, pets_solution *s, pets_times *t, pc_error *err) { (void)dag; (void)o; (void)s; (void)t; return pc_error_set(err, PC_EUNAVAIL, NULL, 0, "not yet"); }
int pets_ocl_vec8_run(const pets_dag *dag, const pets_options *o, pets_solution *s, pets_times *t, pc_error *err) { (void)dag; (void)o; (void)s; (void)t; return pc_error_set(err, PC_EUNAVAIL, NULL, 0, "not yet"); }
void pets_ocl_release(void) {}
void pets_ocl_list(FILE *f) { (void)f; }

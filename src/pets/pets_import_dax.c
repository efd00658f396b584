#include "pets_priv.h"
int pets_import_dax(const char *path, const pets_import_params *ip, pets_dag *dag, pc_error *err) { (void)ip; (void)dag; return pc_error_set(err, PC_EUNAVAIL, path, 0, "not yet"); }

/* Error classes, codes and strings (MPI-1 classes and MPI-2 user codes). */
#ifndef FTMPI_CORE_ERRORS_H
#define FTMPI_CORE_ERRORS_H

#include "mpi.h"

int err_module_init(void);
void err_module_fini(void);
/* Class of an error code, or -1 if the code is not valid. */
int err_class_of(int code);
/* Description of a code (never NULL for a valid code). */
const char *err_string(int code);
int err_add_class(int *cls);
int err_add_code(int cls, int *code);
int err_set_string(int code, const char *s); /* MPI_ERR_ARG if not user code */
int err_last_used(void);
/* Make a fresh code of class cls with a fixed string (FTMPI_ERROR_FAILURE). */
int err_make_code(int cls, const char *s);

#endif

#ifndef FTMPI_RUNTIME_INIT_H
#define FTMPI_RUNTIME_INIT_H

#include "core/proc.h"

int ft_lib_init(int required, int *provided);
int ft_lib_finalize(void);

#endif

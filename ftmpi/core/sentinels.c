/* Objects whose addresses are sentinel values of mpi.h. */
#include "mpi.h"

int ftmpi_unweighted_sentinel, ftmpi_weights_empty_sentinel;

/* Objects whose addresses are sentinel values of mpi.h. */
int ftmpi_unweighted_sentinel, ftmpi_weights_empty_sentinel;

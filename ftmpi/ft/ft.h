/*
 * Fault tolerance: failure state, notification handling, recovery and the
 * FT-MPI modes (FTMPI-SPEC.md). Runs above p2p and coll.
 */
#ifndef FTMPI_FT_H
#define FTMPI_FT_H

/* Called at the end of MPI_Init: installs the event handler; in a
 * replacement process joins the recovery under way and returns
 * MPI_INIT_RESTARTED_NODE. */
int ft_after_init(void);

#endif

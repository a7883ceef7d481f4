/* FTMPI_Clock_offset: this process's clock against the head's, for tools
 * that put several hosts' times on one line (libftmpi_trace, ftmpi-trace
 * merge; docs/tools.md, "Traces"). */
#include "api/api.h"

#include "core/proc.h"
#include "runtime/monrank/monrank.h"

int PFTMPI_Clock_offset(double *offset_us, double *error_us)
{
    if (!offset_us || !error_us)
        return MPI_ERR_ARG;
    if (!ftg.initialized || ftg.finalized)
        return MPI_ERR_OTHER;
    if (ftg.singleton) {
        *offset_us = *error_us = 0; /* this process is its own head */
        return MPI_SUCCESS;
    }
    return monrank_clock_offset(offset_us, error_us) < 0 ? MPI_ERR_OTHER : MPI_SUCCESS;
}
API_ALIAS(FTMPI_Clock_offset, PFTMPI_Clock_offset)

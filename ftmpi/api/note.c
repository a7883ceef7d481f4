/* FTMPI_Note: an event of the program's (a checkpoint, ...) for ftmpirun's
 * event log and live monitor (docs/tools.md). */
#include "api/api.h"

#include "runtime/init.h"
#include "runtime/monrank/monrank.h"
#include "runtime/rtc.h"

int PFTMPI_Note(const char *name, int n, const char *const keys[],
                const double values[])
{
    if (!name || n < 0 || n > 16 || (n > 0 && (!keys || !values)))
        return MPI_ERR_ARG;
    monrank_event(name, n, keys, values); /* the trace library's observer */
    if (ftg.singleton || !ftg.initialized)
        return MPI_SUCCESS;
    return rtc_note(name, n, keys, values) < 0 ? MPI_ERR_OTHER : MPI_SUCCESS;
}
API_ALIAS(FTMPI_Note, PFTMPI_Note)

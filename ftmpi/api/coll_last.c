/* FTMPI_Coll_last_algorithm: which algorithm the collectives chose last,
 * for tools (libftmpi_trace; docs/tools.md, "Traces"). */
#include "api/api.h"

#include <string.h>

#include "coll/coll_select.h"

int PFTMPI_Coll_last_algorithm(const char *kind, char *alg, int len, unsigned long *count)
{
    if (!kind || !alg || len < 1 || !count)
        return MPI_ERR_ARG;
    int k = coll_kind_by_name(kind);
    if (k < 0)
        return MPI_ERR_ARG;
    /* A tool may ask from any thread: read under the library lock
     * (MPI_THREAD_MULTIPLE), as the collectives write it. */
    api_lock();
    const char *name = coll_last((coll_kind_t)k, count);
    size_t n = strlen(name);
    if (n > (size_t)len - 1)
        n = (size_t)len - 1;
    memcpy(alg, name, n);
    alg[n] = '\0';
    api_unlock();
    return MPI_SUCCESS;
}
API_ALIAS(FTMPI_Coll_last_algorithm, PFTMPI_Coll_last_algorithm)

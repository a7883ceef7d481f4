/* FTMPI_Observe and FTMPI_Msg_counts: what happens inside this process,
 * and what it sent, for tools (libftmpi_trace; docs/tools.md, "Traces"). */
#include "api/api.h"

#include "runtime/monrank/monrank.h"

int PFTMPI_Observe(FTMPI_Observer_fn *fn)
{
    __atomic_store_n(&monrank_observer, (monrank_observer_fn *)fn, __ATOMIC_RELEASE);
    return MPI_SUCCESS;
}
API_ALIAS(FTMPI_Observe, PFTMPI_Observe)

int PFTMPI_Msg_counts(int n, unsigned long long msgs[], unsigned long long bytes[],
                      int *size)
{
    if (n < 0 || (n > 0 && (!msgs || !bytes)) || !size)
        return MPI_ERR_ARG;
    _Static_assert(sizeof(unsigned long long) == sizeof(uint64_t), "64-bit counters");
    int rc = monrank_counts_read((uint64_t *)msgs, (uint64_t *)bytes, n);
    if (rc < 0)
        return MPI_ERR_OTHER;
    *size = rc;
    return MPI_SUCCESS;
}
API_ALIAS(FTMPI_Msg_counts, PFTMPI_Msg_counts)

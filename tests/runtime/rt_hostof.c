/* FTMPI_Host_of (docs/ftmpi.md, "Hosts"): every rank prints the host of
 * every rank, now and at launch, and checks the argument errors. Run by
 * rt_driver.sh "hostof" on two hosts. */
#include <mpi.h>
#include <ftmpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, h, bad = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    char line[512];
    int k = snprintf(line, sizeof line, "hostof rank %d:", rank);
    for (int r = 0; r < size; r++) {
        int launch;
        bad |= FTMPI_Host_of(MPI_COMM_WORLD, r, FTMPI_HOST_NOW, &h) != MPI_SUCCESS;
        bad |= FTMPI_Host_of(MPI_COMM_WORLD, r, FTMPI_HOST_AT_LAUNCH, &launch) != MPI_SUCCESS;
        k += snprintf(line + k, sizeof line - (size_t)k, " %d/%d", h, launch);
    }
    int e1 = FTMPI_Host_of(MPI_COMM_WORLD, size, FTMPI_HOST_NOW, &h);
    int e2 = FTMPI_Host_of(MPI_COMM_WORLD, 0, 7, &h);
    int e3 = FTMPI_Host_of(MPI_COMM_WORLD, 0, FTMPI_HOST_NOW, NULL);
    int e4 = FTMPI_Host_of(MPI_COMM_NULL, 0, FTMPI_HOST_NOW, &h);
    int c1, c2, c3, c4;
    MPI_Error_class(e1, &c1);
    MPI_Error_class(e2, &c2);
    MPI_Error_class(e3, &c3);
    MPI_Error_class(e4, &c4);
    printf("%s errors %s\n", line,
           !bad && c1 == MPI_ERR_RANK && c2 == MPI_ERR_ARG && c3 == MPI_ERR_ARG &&
                   c4 == MPI_ERR_COMM ? "ok" : "WRONG");
    fflush(stdout);
    MPI_Finalize();
    return 0;
}

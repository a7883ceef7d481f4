#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("findmpi: C ok, Comm_c2f(MPI_COMM_WORLD) %d\n", (int)MPI_Comm_c2f(MPI_COMM_WORLD));
    MPI_Finalize();
    return 0;
}

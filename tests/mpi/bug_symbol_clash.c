/*
 * bug_symbol_clash: regression test (issue 11, "Symbols").
 *
 * libftmpi.so used to export every internal name (its process state `ftg`,
 * the FT state `ft`, functions such as `xmit` and `comm_get`). A program
 * that defined a global of the same name took the library's place: with
 * `int ftg = 7;` below, MPI_Init read the program's int as the library's
 * state and reported "MPI_Init called twice", and every later call failed
 * or computed garbage. The library now exports only the MPI interface
 * (tests/lint/check_exports.sh), so these names are the program's own.
 *
 * Expected: prints "passed" and exits 0.
 */
#include <mpi.h>
#include <stdio.h>

/* Names the library used internally, and exported. */
int ftg = 7;
int ft = 11;
int xmit(void) { return 3; }
int comm_get(int h) { return h + 1; }
int p2p_init(void) { return 5; }

int main(int argc, char **argv)
{
    int rank = -1, size = -1, sum = -1, errors = 0;
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
        printf("bug_symbol_clash: MPI_Init failed\n");
        return 1;
    }
    if (MPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS ||
        MPI_Comm_size(MPI_COMM_WORLD, &size) != MPI_SUCCESS || size < 1 || rank < 0) {
        printf("bug_symbol_clash: rank %d size %d\n", rank, size);
        errors++;
    }
    int one = rank + 1;
    if (MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS ||
        sum != size * (size + 1) / 2) {
        printf("bug_symbol_clash: rank %d: sum %d, expected %d\n", rank, sum, size * (size + 1) / 2);
        errors++;
    }
    if (ftg != 7 || ft != 11 || xmit() != 3 || comm_get(1) != 2 || p2p_init() != 5) {
        printf("bug_symbol_clash: the library changed the program's own globals\n");
        errors++;
    }
    if (MPI_Finalize() != MPI_SUCCESS)
        errors++;
    if (errors)
        return 1;
    if (rank == 0)
        printf("bug_symbol_clash: passed\n");
    return 0;
}

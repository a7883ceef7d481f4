/*
 * sw_main.c - pstswm: a parallel spectral-transform shallow water model
 * whose restart routines, redirected to memory, make it survive killed
 * ranks. See docs/pstswm.md.
 *
 *   ftmpirun --comm-mode=rebuild -np 5 pstswm --case 6 --trunc 42 --days 5 \
 *            --ckpt-interval 20 --encoding xor
 *   ftmpirun -np 4 pstswm --case 2 --checksums 0          (the plain model)
 *
 * Exit statuses: SW_EXIT_ in pstswm.h.
 */
#include "pstswm.h"

#include <string.h>

int main(int argc, char **argv)
{
    sw_opts_t o;
    /* every process parses the same arguments (a replacement too) */
    int prc = sw_opts_parse(argc, argv, &o, 0);
    int init_rc = MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (prc != 0) {
        if (rank == 0)
            sw_opts_parse(argc, argv, &o, 1); /* the message, once */
        MPI_Finalize();
        return prc > 0 ? SW_EXIT_OK : SW_EXIT_USAGE;
    }
    sw_result_t r;
    memset(&r, 0, sizeof r);
    int status = o.m == 0 ? sw_run_plain(&o, &r) : sw_run_ft(&o, init_rc, &r);
    MPI_Finalize();
    return status;
}

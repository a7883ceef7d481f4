/*
 * rel_lastack: a rendezvous send whose receiver has everything but whose
 * ACKs never arrive must still complete (docs/network.md, "The finalize
 * hang"). Rank 0 sends LEN bytes to rank 1 with MPI_Send (a stream of the
 * reliability layer: its send completes on the last fragment's ACK), rank
 * 1 checks them and goes straight into MPI_Finalize, where it no longer
 * reads the network. Run with FTMPI_TRANSPORT=tcp and FTMPI_REL_DROP_ACKS
 * set high (every ACK frame dropped): without the layer's rule (a stream
 * sent whole whose timer runs out is copied and its send completes) rank
 * 0's MPI_Send never returns and mpirun --timeout fails the test.
 */
#include "mpitest.h"

#define LEN (1 << 20)

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    t_need(2);
    char *b = t_malloc(LEN);
    if (t_rank == 0) {
        t_fill(b, LEN, 7);
        T_MPI(MPI_Send(b, LEN, MPI_BYTE, 1, 3, MPI_COMM_WORLD));
        printf("rel_lastack: the send completed\n");
        fflush(stdout);
    } else if (t_rank == 1) {
        T_MPI(MPI_Recv(b, LEN, MPI_BYTE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        T_CHECK(t_verify(b, LEN, 7) < 0, "the message arrived damaged");
    }
    free(b);
    MPI_Finalize();
    return t_errors ? 1 : 0;
}

/*
 * chaos_shim.c - fault points for the chaos campaign (docs/chaos.md) in
 * places the library and the programs do not name themselves, without
 * changing either: loaded into the ranks with
 * `ftmpirun -x LD_PRELOAD=libchaos_shim.so`, it interposes a few MPI
 * functions (every MPI_ function is a weak alias of its PMPI_ twin) and calls
 *
 *   FTMPI_Fault_point("encode_send", n)  the n-th diskless_ckpt chunk this rank sends while encoding
 *   FTMPI_Fault_point("encode_recv", n)  the n-th chunk receive it posts while encoding
 *   FTMPI_Fault_point("decode_send", n)  the n-th chunk it sends while decoding (a restore)
 *   FTMPI_Fault_point("recover", n)      its n-th recovering MPI_Comm_dup(MPI_COMM_WORLD)
 *                                        (the new communicator preset to FT_MPI_CHECK_RECOVER)
 *   FTMPI_Fault_point("finalize", 0)     on entering MPI_Finalize
 *
 * so that `ftmpirun --kill-at recover=1@3` kills rank 3 as it enters its
 * first recovery and `--kill-at finalize@2` kills rank 2 as the job ends.
 * Counts run over the life of the process (a replacement starts again at 0).
 *
 * With CHAOS_SHIM_COUNTS=DIR in the environment, each process writes its
 * final counts to DIR/counts.<rank>.<pid> in MPI_Finalize, so the campaign
 * learns from a failure-free run how far each count goes.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* the tags of diskless_ckpt/dckpt_internal.h */
#define CHAOS_TAG_ENCODE 0x5ec0
#define CHAOS_TAG_DECODE 0x5ec1

static long n_enc_send, n_enc_recv, n_dec_send, n_recover;

int MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
              MPI_Comm comm, MPI_Request *request)
{
    if (tag == CHAOS_TAG_ENCODE)
        FTMPI_Fault_point("encode_send", ++n_enc_send);
    else if (tag == CHAOS_TAG_DECODE)
        FTMPI_Fault_point("decode_send", ++n_dec_send);
    return PMPI_Isend(buf, count, datatype, dest, tag, comm, request);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Request *request)
{
    if (tag == CHAOS_TAG_ENCODE)
        FTMPI_Fault_point("encode_recv", ++n_enc_recv);
    return PMPI_Irecv(buf, count, datatype, source, tag, comm, request);
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    if (comm == MPI_COMM_WORLD && newcomm && *newcomm == FT_MPI_CHECK_RECOVER)
        FTMPI_Fault_point("recover", ++n_recover);
    return PMPI_Comm_dup(comm, newcomm);
}

static void write_counts(void)
{
    const char *dir = getenv("CHAOS_SHIM_COUNTS");
    const char *rank = getenv("FTMPI_RANK");
    if (!dir || !rank)
        return;
    char path[4096];
    snprintf(path, sizeof path, "%s/counts.%s.%ld", dir, rank, (long)getpid());
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fprintf(f, "encode_send %ld\nencode_recv %ld\ndecode_send %ld\nrecover %ld\n", n_enc_send,
            n_enc_recv, n_dec_send, n_recover);
    fclose(f);
}

int MPI_Finalize(void)
{
    FTMPI_Fault_point("finalize", 0);
    write_counts();
    return PMPI_Finalize();
}

/*
 * ckpt_fault_shim.c - puts fault points INSIDE the checkpoint library's
 * streams, without touching the library or the application: loaded into
 * the ranks with `ftmpirun -x LD_PRELOAD=libckpt_fault_shim.so`, it
 * interposes MPI_Isend/MPI_Irecv (every MPI_ function is a weak alias of
 * its PMPI_ twin) and, for the messages of diskless_ckpt's pipelines, calls
 *
 *   FTMPI_Fault_point("encode_send", n)  the n-th chunk this rank sends while encoding
 *   FTMPI_Fault_point("encode_recv", n)  the n-th chunk receive it posts while encoding
 *   FTMPI_Fault_point("decode_send", n)  the n-th chunk it sends while decoding (a restore)
 *   FTMPI_Fault_point("encode_done", n)  the n-th checkpoint step 3 it completed (below)
 *   FTMPI_Fault_point("overlap_send", n) the n-th message it sends in an overlapped checkpoint
 *   FTMPI_Fault_point("overlap_recv", n) the n-th receive it posts in an overlapped checkpoint
 *
 * so that `ftmpirun --kill-at encode_send=12@3` kills rank 3 in the middle
 * of a checkpoint, and `--kill-at decode_send=1@4` kills rank 4 in the
 * middle of a restore. Counts run over the whole life of the process.
 */
#include <mpi.h>

/* the tags of diskless_ckpt/dckpt_internal.h */
#define SHIM_TAG_ENCODE 0x5ec0
#define SHIM_TAG_DECODE 0x5ec1
#define SHIM_TAG_OVERLAP 0x5ec2

static long shim_enc_send, shim_enc_recv, shim_dec_send, shim_ovl_send, shim_ovl_recv;

int MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
              MPI_Comm comm, MPI_Request *request)
{
    if (tag == SHIM_TAG_ENCODE)
        FTMPI_Fault_point("encode_send", ++shim_enc_send);
    else if (tag == SHIM_TAG_DECODE)
        FTMPI_Fault_point("decode_send", ++shim_dec_send);
    else if (tag == SHIM_TAG_OVERLAP)
        FTMPI_Fault_point("overlap_send", ++shim_ovl_send);
    return PMPI_Isend(buf, count, datatype, dest, tag, comm, request);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Request *request)
{
    if (tag == SHIM_TAG_ENCODE)
        FTMPI_Fault_point("encode_recv", ++shim_enc_recv);
    else if (tag == SHIM_TAG_OVERLAP)
        FTMPI_Fault_point("overlap_recv", ++shim_ovl_recv);
    return PMPI_Irecv(buf, count, datatype, source, tag, comm, request);
}

/*
 * FTMPI_Fault_point("encode_done", n): the n-th time this rank returns from
 * a checkpoint's step 3 (the group's exchange of CRCs and statuses: an
 * MPI_Allgather of 2 MPI_INT per rank, the only one in the library), i.e.
 * when its part of the epoch is complete and the commit has not begun.
 * Whether the other members' exchange completes too is up to the timing.
 */
static long shim_enc_done;

int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    int rc = PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    if (rc == MPI_SUCCESS && sendcount == 2 && sendtype == MPI_INT)
        FTMPI_Fault_point("encode_done", ++shim_enc_done);
    return rc;
}

/*
 * MPI_Comm_join (docs/dynamic.md): two processes of one job, joined by a
 * connected socket, get an intercommunicator (one process on each side).
 * Over the socket each sends its job id string and its job-wide id; the
 * process with the lower id also sends the tag that both then use on the
 * bridge to build the intercommunicator (api/dyn_proc.c).
 */
#include "api/dyn.h"
#include "runtime/rtc.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

/* All n bytes written (out) or read: 0, or -1 (errno set; 0 at EOF). */
static int move_all(int fd, void *p, size_t n, int out)
{
    char *c = p;
    while (n > 0) {
        ssize_t k = out ? write(fd, c, n) : read(fd, c, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        c += k;
        n -= (size_t)k;
    }
    return 0;
}

/* The socket part: the peer's id and the tag. */
static int handshake(int fd, int *peer, int *tag)
{
    struct {
        char jobid[32];
        int32_t id;
    } mine, theirs;
    memset(&mine, 0, sizeof(mine));
    memcpy(mine.jobid, ftg.rt.jobid, sizeof(mine.jobid)); /* both char[32] */
    mine.jobid[sizeof(mine.jobid) - 1] = 0;
    mine.id = ftg.world_rank;
    if (move_all(fd, &mine, sizeof(mine), 1) || move_all(fd, &theirs, sizeof(theirs), 0))
        return err_cause(MPI_ERR_OTHER, "MPI_Comm_join: the socket failed: %s", strerror(errno));
    theirs.jobid[sizeof(theirs.jobid) - 1] = 0;
    if (strcmp(mine.jobid, theirs.jobid) != 0)
        return err_cause(MPI_ERR_OTHER, "MPI_Comm_join: the peer is in another job (%s)",
                         theirs.jobid);
    if (theirs.id == mine.id || theirs.id < 0 || theirs.id >= ftg.world_size)
        return err_cause(MPI_ERR_OTHER, "MPI_Comm_join: the peer sent a bad id %d",
                         (int)theirs.id);
    *peer = theirs.id;
    int32_t t = dyn_next_tag();
    if (move_all(fd, &t, sizeof(t), mine.id < theirs.id))
        return err_cause(MPI_ERR_OTHER, "MPI_Comm_join: the socket failed");
    *tag = t;
    return MPI_SUCCESS;
}

API_WEAK(Comm_join)
int PMPI_Comm_join(int fd, MPI_Comm *intercomm)
{
    API_BEGIN("MPI_Comm_join");
    CHECK_PTR(intercomm);
    *intercomm = MPI_COMM_NULL;
    if (fd < 0)
        API_FAIL(err_cause(MPI_ERR_ARG, "MPI_Comm_join: fd %d is not a socket", fd));
    if (!dyn_bridge())
        API_FAIL(err_cause(MPI_ERR_OTHER, "MPI_Comm_join: no room for other processes in "
                                          "this job (ftmpirun --universe N)"));
    int peer = -1, tag = 0;
    comm_t *n = NULL;
    rc = handshake(fd, &peer, &tag);
    if (rc == MPI_SUCCESS)
        rc = dyn_connect_groups(comm_self(), 0, peer, tag, &n);
    if (rc == MPI_SUCCESS)
        *intercomm = n->handle;
    API_END();
}

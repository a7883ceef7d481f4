/* The shared file pointer: a 64-bit counter (etypes of the view) in a
 * hidden file next to the data file, read and moved under an fcntl write
 * lock. It is correct across hosts that share the file system, and a
 * process that dies holding the lock releases it. Once every member holds
 * the counter open, rank 0 unlinks its name: the counter lives on in the
 * open descriptors and goes away with the last of them, so a job killed
 * with the file open leaves nothing behind (only a death inside the open,
 * between the creation and the unlink, can). */
#include "io/io.h"

#include <stdio.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll/coll.h"
#include "core/err_cause.h"

/* dir/.base.sfp-PID-N: unique for the job and the open */
static int counter_name(io_file_t *f, char *out, size_t cap)
{
    static unsigned opens;
    const char *slash = strrchr(f->path, '/');
    int dlen = slash ? (int)(slash - f->path + 1) : 0;
    const char *base = slash ? slash + 1 : f->path;
    int n = snprintf(out, cap, "%.*s.%s.sfp-%ld-%u", dlen, f->path, base, (long)getpid(),
                     opens++);
    return n > 0 && (size_t)n < cap ? MPI_SUCCESS
                                    : err_cause(MPI_ERR_BAD_FILE, "the file name is too long");
}

static int store(io_file_t *f, MPI_Offset v)
{
    int64_t x = v;
    if (pwrite(f->sfp_fd, &x, sizeof(x), 0) != (ssize_t)sizeof(x))
        return io_errno_class(errno ? errno : EIO, "write the shared pointer of", f->path);
    return MPI_SUCCESS;
}

int io_shared_open(io_file_t *f, MPI_Offset start)
{
    char name[PATH_MAX];
    int err = 0, rc = MPI_SUCCESS;
    if (f->comm->rank == 0) {
        rc = counter_name(f, name, sizeof(name));
        if (rc == MPI_SUCCESS) {
            f->sfp_fd = open(name, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
            err = f->sfp_fd < 0 ? errno : 0;
            if (!err && store(f, start) != MPI_SUCCESS)
                err = EIO;
        } else {
            err = ENAMETOOLONG;
        }
    }
    rc = coll_bcast(f->comm, &err, 1, dt_get(MPI_INT), 0);
    if (rc == MPI_SUCCESS && !err)
        rc = coll_bcast(f->comm, name, (int)sizeof(name), dt_get(MPI_CHAR), 0);
    if (rc != MPI_SUCCESS || err) {
        if (f->comm->rank == 0 && f->sfp_fd >= 0) {
            unlink(name);
            close(f->sfp_fd);
            f->sfp_fd = -1;
        }
        /* err: no counter (a directory this process may not write), no shared pointer */
        return rc;
    }
    if (f->comm->rank != 0 && (f->sfp_fd = open(name, O_RDWR | O_CLOEXEC)) < 0)
        err = errno;
    int any = 0;
    rc = coll_allreduce(f->comm, &err, &any, 1, dt_get(MPI_INT), op_get(MPI_MAX));
    /* every member has tried its open (or failed with the group): the
     * name is no longer needed */
    if (f->comm->rank == 0)
        unlink(name);
    if (rc == MPI_SUCCESS && any)
        rc = io_errno_class(any, "open the shared pointer of", f->path);
    return rc;
}

void io_shared_close(io_file_t *f)
{
    if (f->sfp_fd >= 0)
        close(f->sfp_fd);
    f->sfp_fd = -1;
}

static int lock(io_file_t *f, short type)
{
    if (f->sfp_fd < 0)
        return err_cause(MPI_ERR_ACCESS, "no shared file pointer: its counter file could not "
                                         "be made next to %s", f->path);
    struct flock fl = {.l_type = type, .l_whence = SEEK_SET, .l_start = 0, .l_len = 8};
    while (fcntl(f->sfp_fd, F_SETLKW, &fl) != 0)
        if (errno != EINTR)
            return io_errno_class(errno, "lock the shared pointer of", f->path);
    return MPI_SUCCESS;
}

int io_shared_fetch_add(io_file_t *f, MPI_Offset delta, MPI_Offset *old)
{
    int rc = lock(f, delta ? F_WRLCK : F_RDLCK);
    if (rc != MPI_SUCCESS)
        return rc;
    int64_t x = 0;
    if (pread(f->sfp_fd, &x, sizeof(x), 0) != (ssize_t)sizeof(x))
        rc = io_errno_class(errno ? errno : EIO, "read the shared pointer of", f->path);
    if (rc == MPI_SUCCESS && delta)
        rc = store(f, x + delta);
    lock(f, F_UNLCK);
    *old = x;
    return rc;
}

int io_shared_set(io_file_t *f, MPI_Offset v)
{
    int rc = lock(f, F_WRLCK);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = store(f, v);
    lock(f, F_UNLCK);
    return rc;
}

int io_shared_ordered(io_file_t *f, MPI_Offset mine, MPI_Offset *start)
{
    if (!io_healthy(f))
        return err_cause(MPI_ERR_OTHER, "a process of the file's group failed");
    int n = f->comm->size;
    int64_t *all = malloc((size_t)n * sizeof(*all)), me = mine, base[2] = {0, MPI_SUCCESS};
    if (!all)
        return MPI_ERR_NO_MEM;
    dt_t *i64 = dt_get(MPI_INT64_T);
    int rc = coll_allgather(f->comm, &me, 1, i64, all, 1, i64);
    int64_t before = 0, total = 0;
    for (int r = 0; rc == MPI_SUCCESS && r < n; r++) {
        if (r < f->comm->rank)
            before += all[r];
        total += all[r];
    }
    free(all);
    if (rc == MPI_SUCCESS && f->comm->rank == 0) {
        MPI_Offset old = 0;
        base[1] = io_shared_fetch_add(f, total, &old);
        base[0] = old;
    }
    if (rc == MPI_SUCCESS)
        rc = coll_bcast(f->comm, base, 2, i64, 0);
    if (rc == MPI_SUCCESS)
        rc = (int)base[1];
    *start = base[0] + before;
    return rc;
}

int io_shared_seek(io_file_t *f, MPI_Offset offset, int whence)
{
    int rc = io_same(f, offset, "offsets");
    if (rc == MPI_SUCCESS)
        rc = io_same(f, whence, "whence values");
    if (rc == MPI_SUCCESS)
        rc = io_barrier(f); /* every access before the seek is done */
    if (rc != MPI_SUCCESS)
        return rc;
    int res = MPI_SUCCESS;
    if (f->comm->rank == 0) {
        MPI_Offset cur = 0, to;
        if (whence == MPI_SEEK_CUR)
            res = io_shared_fetch_add(f, 0, &cur);
        if (res == MPI_SUCCESS)
            res = io_seek(f, cur, offset, whence, &to);
        if (res == MPI_SUCCESS)
            res = io_shared_set(f, to);
    }
    rc = coll_bcast(f->comm, &res, 1, dt_get(MPI_INT), 0);
    return rc != MPI_SUCCESS ? rc : res;
}

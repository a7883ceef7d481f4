/* Files: the handle table, open, close, delete, errno classes. */
#include "io/io.h"

#include <stdio.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll/coll.h"
#include "coll/ctxid.h"
#include "core/err_cause.h"
#include "core/proc.h"
#include "util/handle.h"

static handle_table_t table;
static int table_ready;
static errh_t *null_errh;

static void table_init(void)
{
    if (!table_ready) {
        handle_table_init(&table, FTMPI_KIND_FILE, 1);
        table_ready = 1;
    }
}

io_file_t *io_file_get(MPI_File h)
{
    if (!table_ready)
        return NULL;
    return handle_get(&table, h);
}

errh_t **io_null_errh(void)
{
    if (!null_errh) {
        null_errh = errh_get(MPI_ERRORS_RETURN);
        errh_retain(null_errh);
    }
    return &null_errh;
}

int io_errno_class(int err, const char *what, const char *path)
{
    int cls;
    switch (err) {
    case EACCES: case EPERM: cls = MPI_ERR_ACCESS; break;
    case ENOENT: case ENOTDIR: cls = MPI_ERR_NO_SUCH_FILE; break;
    case EEXIST: cls = MPI_ERR_FILE_EXISTS; break;
    case ENOSPC: cls = MPI_ERR_NO_SPACE; break;
    case EDQUOT: cls = MPI_ERR_QUOTA; break;
    case EROFS: cls = MPI_ERR_READ_ONLY; break;
    case ETXTBSY: case EBUSY: cls = MPI_ERR_FILE_IN_USE; break;
    case ENAMETOOLONG: case EISDIR: case ELOOP: case EINVAL: cls = MPI_ERR_BAD_FILE; break;
    case ENOMEM: cls = MPI_ERR_NO_MEM; break;
    default: cls = MPI_ERR_IO; break;
    }
    return err_cause(cls, "%s %s: %s", what, path ? path : "", strerror(err));
}

int io_comm_whole(const comm_t *c)
{
    for (int r = 0; r < c->size; r++)
        if (ftg.peer_dead && ftg.peer_dead[comm_peer_world(c, r)])
            return 0;
    return 1;
}

int io_healthy(const io_file_t *f)
{
    comm_t *c = f->comm;
    return c && (c->state == COMM_OK || c->state == COMM_RECOVERED) && io_comm_whole(c);
}

static int dead_member(void)
{
    return err_cause(MPI_ERR_OTHER, "a process of the file's group failed");
}

int io_barrier(io_file_t *f)
{
    if (!io_healthy(f))
        return dead_member();
    return coll_barrier(f->comm);
}

int io_same(io_file_t *f, int64_t v, const char *what)
{
    if (!io_healthy(f))
        return dead_member();
    int64_t in[2] = {v, -v}, out[2];
    int rc = coll_allreduce(f->comm, in, out, 2, dt_get(MPI_INT64_T), op_get(MPI_MAX));
    if (rc != MPI_SUCCESS)
        return rc;
    if (out[0] != v || -out[1] != v)
        return err_cause(MPI_ERR_NOT_SAME, "the processes gave different %s", what);
    return MPI_SUCCESS;
}

static void file_free(io_file_t *f)
{
    if (f->fd >= 0)
        close(f->fd);
    io_shared_close(f);
    io_view_free(f);
    if (f->handle)
        handle_release(&table, f->handle);
    if (f->comm)
        comm_release(f->comm);
    if (f->info)
        info_release(f->info);
    if (f->errh)
        errh_release(f->errh);
    free(f->path);
    free(f);
}

/* The hidden communicator of a file: c's group, a context of its own. */
static int hidden_comm(comm_t *c, comm_t **out)
{
    ctx_party_t pt;
    uint32_t ctx;
    ctx_party_of(c, &pt);
    int rc = ctx_agree(&pt, 1, &ctx);
    if (rc != MPI_SUCCESS)
        return rc;
    comm_t *n = comm_new(c->group, NULL, ctx);
    if (!n) {
        comm_ctx_release(ctx);
        return MPI_ERR_NO_MEM;
    }
    n->hidden = 1;
    n->generation = c->generation;
    snprintf(n->name, sizeof(n->name), "file communicator");
    comm_register_hidden(n);
    *out = n;
    return MPI_SUCCESS;
}

static int posix_flags(int amode)
{
    int fl = (amode & MPI_MODE_RDONLY) ? O_RDONLY : (amode & MPI_MODE_WRONLY) ? O_WRONLY : O_RDWR;
    if (amode & MPI_MODE_CREATE)
        fl |= O_CREAT;
    if (amode & MPI_MODE_EXCL)
        fl |= O_EXCL;
    return fl | O_CLOEXEC;
}

/* Rank 0 opens first (creating, exclusively if asked), then the others;
 * all succeed or all fail with the first failing rank's class. */
static int open_fd(io_file_t *f)
{
    int fl = posix_flags(f->amode), err = 0;
    dt_t *i32 = dt_get(MPI_INT);
    if (f->comm->rank == 0) {
        f->fd = open(f->path, fl, 0666);
        err = f->fd < 0 ? errno : 0;
    }
    int rc = coll_bcast(f->comm, &err, 1, i32, 0);
    if (rc != MPI_SUCCESS)
        return rc;
    if (err)
        return io_errno_class(err, "open", f->path);
    if (f->comm->rank != 0) {
        f->fd = open(f->path, fl & ~(O_EXCL | O_CREAT), 0666);
        err = f->fd < 0 ? errno : 0;
    }
    int bad = err ? f->comm->rank + 1 : 0, first = 0;
    int inv = bad ? -bad : INT_MIN; /* the lowest failing rank */
    rc = coll_allreduce(f->comm, &inv, &first, 1, i32, op_get(MPI_MAX));
    if (rc != MPI_SUCCESS)
        return rc;
    if (first != INT_MIN) {
        int who = -first - 1;
        rc = coll_bcast(f->comm, &err, 1, i32, who);
        return rc != MPI_SUCCESS ? rc : io_errno_class(err, "open", f->path);
    }
    return MPI_SUCCESS;
}

int io_open(comm_t *c, const char *path, int amode, info_t *info, io_file_t **out)
{
    table_init();
    if (!io_comm_whole(c))
        return dead_member();
    io_file_t *f = calloc(1, sizeof(*f));
    if (!f)
        return MPI_ERR_NO_MEM;
    f->fd = f->sfp_fd = -1;
    f->amode = amode;
    f->path = strdup(path);
    f->errh = *io_null_errh();
    errh_retain(f->errh);
    if (!f->path || (info && !(f->info = info_dup(info)))) {
        file_free(f);
        return MPI_ERR_NO_MEM;
    }
    int rc = hidden_comm(c, &f->comm);
    if (rc == MPI_SUCCESS)
        rc = io_same(f, amode, "access modes");
    if (rc == MPI_SUCCESS)
        rc = io_view_default(f);
    if (rc == MPI_SUCCESS)
        rc = open_fd(f);
    MPI_Offset start = 0;
    if (rc == MPI_SUCCESS && (amode & MPI_MODE_APPEND))
        rc = io_get_size(f, &start);
    if (rc == MPI_SUCCESS)
        rc = io_shared_open(f, start);
    f->pos = start;
    if (rc == MPI_SUCCESS && (f->handle = handle_alloc(&table, f)) < 0) {
        f->handle = 0;
        rc = MPI_ERR_NO_MEM;
    }
    if (rc != MPI_SUCCESS) {
        file_free(f);
        return rc;
    }
    *out = f;
    return MPI_SUCCESS;
}

int io_close(io_file_t *f)
{
    int alive = io_healthy(f);
    int rc = alive ? coll_barrier(f->comm) : dead_member();
    int root = f->comm && f->comm->rank == 0;
    io_shared_close(f);
    if (root && (f->amode & MPI_MODE_DELETE_ON_CLOSE) && unlink(f->path) != 0 &&
        rc == MPI_SUCCESS)
        rc = io_errno_class(errno, "delete on close", f->path);
    file_free(f);
    return rc;
}

int io_delete(const char *path)
{
    if (table_ready)
        for (size_t i = 1; i < table.cap; i++) {
            io_file_t *f = table.slots[i];
            if (f && !strcmp(f->path, path))
                return err_cause(MPI_ERR_FILE_IN_USE, "%s is open", path);
        }
    if (unlink(path) != 0)
        return io_errno_class(errno, "delete", path);
    return MPI_SUCCESS;
}

int io_get_size(io_file_t *f, MPI_Offset *size)
{
    off_t end = lseek(f->fd, 0, SEEK_END);
    if (end < 0)
        return io_errno_class(errno, "size of", f->path);
    *size = (MPI_Offset)end;
    return MPI_SUCCESS;
}

/* Rank 0 changes the size, the others learn its result. */
static int size_op(io_file_t *f, MPI_Offset size, int grow_only)
{
    int rc = io_same(f, size, "sizes");
    if (rc != MPI_SUCCESS)
        return rc;
    int err = 0;
    if (f->comm->rank == 0) {
        if (grow_only && size > 0)
            err = posix_fallocate(f->fd, 0, (off_t)size);
        else if (!grow_only && ftruncate(f->fd, (off_t)size) != 0)
            err = errno;
    }
    rc = coll_bcast(f->comm, &err, 1, dt_get(MPI_INT), 0);
    if (rc != MPI_SUCCESS)
        return rc;
    return err ? io_errno_class(err, grow_only ? "preallocate" : "resize", f->path) : MPI_SUCCESS;
}

int io_set_size(io_file_t *f, MPI_Offset size) { return size_op(f, size, 0); }
int io_preallocate(io_file_t *f, MPI_Offset size) { return size_op(f, size, 1); }

int io_sync(io_file_t *f)
{
    int rc = MPI_SUCCESS;
    if (fsync(f->fd) != 0 && errno != EINVAL && errno != EROFS)
        rc = io_errno_class(errno, "sync", f->path);
    int rc2 = io_barrier(f);
    return rc != MPI_SUCCESS ? rc : rc2;
}

/*
 * MPI-IO (MPI-4.0 chapter 14): files, views, data access (docs/io.md).
 *
 * A file is a POSIX file descriptor per process plus a hidden
 * communicator over the group that opened it. Data moves with
 * pread/pwrite over the byte runs the view selects:
 *
 *   view      disp + etype + filetype tiled from disp (extent apart); the
 *             data of the view is the concatenation of the filetype's runs
 *             of every tile; offsets count etypes of that data
 *   datarep   "native" and "internal" store memory bytes, "external32"
 *             converts with dt_pack_external, a registered one calls the
 *             user's conversion functions; the view's layout in the file
 *             uses the representation's sizes (io_drep_layout)
 *   pointers  the individual pointer is this process's (io_file_t.pos);
 *             the shared pointer is a 64-bit counter in a small hidden
 *             file next to the data file, updated under an fcntl lock
 *             (any host that sees the file sees the counter; the lock
 *             goes with a process that dies)
 *
 * The collective steps (open, close, set_view, ordered access, ...) run
 * over the hidden communicator with coll/; a file whose group lost a
 * member fails them with MPI_ERR_OTHER (the FT-MPI failure class) at
 * once. Results are MPI error classes, with err_cause() recording why.
 */
#ifndef FTMPI_IO_IO_H
#define FTMPI_IO_IO_H

#include <stdint.h>
#include <sys/types.h>

#include "mpi.h"
#include "core/comm.h"
#include "core/datatype.h"
#include "core/errhandler.h"
#include "core/info.h"

/* A data representation (io_datarep.c). */
typedef struct io_drep {
    char name[MPI_MAX_DATAREP_STRING];
    int kind;                               /* IO_DREP_* */
    MPI_Datarep_conversion_function *rd, *wr;
    MPI_Datarep_conversion_function_c *rd_c, *wr_c;
    MPI_Datarep_extent_function *extent;
    void *extra;
    struct io_drep *next;
} io_drep_t;
enum { IO_DREP_NATIVE = 0, IO_DREP_EXTERNAL32, IO_DREP_USER };

/* One byte run of the filetype (relative to its tile's start). */
typedef struct {
    MPI_Offset disp;
    MPI_Offset len;
    MPI_Offset before;  /* data bytes of the tile before this run */
} io_run_t;

typedef struct io_file {
    int handle;
    comm_t *comm;        /* hidden duplicate of the opening communicator */
    int fd;
    int amode;
    char *path;
    info_t *info;        /* hints given (open, set_view, set_info) */
    errh_t *errh;
    /* the view */
    MPI_Offset disp;
    dt_t *etype, *filetype;
    io_drep_t *drep;
    io_run_t *runs;      /* the filetype's runs in one tile */
    size_t nruns;
    MPI_Offset tile_data;  /* data bytes of one tile (filetype size in the file) */
    MPI_Offset tile_ext;   /* bytes a tile spans (filetype extent) */
    MPI_Offset esize;      /* bytes of one etype in the file */
    /* pointers, in etypes of the view */
    MPI_Offset pos;
    int sfp_fd;
    int atomic;
    /* split collective in progress */
    int split;           /* 0: none; else the kind that began (IO_SPLIT_*) */
    const void *split_buf;
    MPI_Status split_status;
    int split_rc;
} io_file_t;

enum { IO_SPLIT_READ_AT = 1, IO_SPLIT_WRITE_AT, IO_SPLIT_READ, IO_SPLIT_WRITE,
       IO_SPLIT_READ_ORDERED, IO_SPLIT_WRITE_ORDERED };

/* ---- files (io_file.c) ---- */
io_file_t *io_file_get(MPI_File h);
/* The handler errors about no file (open, delete, a bad handle) go to:
 * the one set on MPI_FILE_NULL (MPI_ERRORS_RETURN at first). */
errh_t **io_null_errh(void);
/* The class of an errno value from a file operation. */
int io_errno_class(int err, const char *what, const char *path);
/* Collective over c (an intracommunicator, checked by the caller):
 * open path with amode; c's members must agree on amode
 * (MPI_ERR_NOT_SAME). *out gets a new file with a handle. */
int io_open(comm_t *c, const char *path, int amode, info_t *info, io_file_t **out);
/* Collective close: f is gone afterwards, also when rc reports an error
 * (a group that lost a member closes locally). */
int io_close(io_file_t *f);
int io_delete(const char *path);
/* Is every member of c's group alive? Of f's (and its communicator not
 * invalidated by a recovery)? */
int io_comm_whole(const comm_t *c);
int io_healthy(const io_file_t *f);
/* A collective step over f's group: MPI_ERR_OTHER at once when a member
 * is dead, else the barrier's result. */
int io_barrier(io_file_t *f);
/* Collective: do all members pass the same value? MPI_ERR_NOT_SAME if not. */
int io_same(io_file_t *f, int64_t v, const char *what);
int io_set_size(io_file_t *f, MPI_Offset size);
int io_preallocate(io_file_t *f, MPI_Offset size);
int io_get_size(io_file_t *f, MPI_Offset *size);
int io_sync(io_file_t *f);

/* ---- views (io_view.c) ---- */
/* Collective: the new view (arguments checked but the datarep name);
 * both pointers go to 0. */
int io_set_view(io_file_t *f, MPI_Offset disp, dt_t *etype, dt_t *filetype,
                const char *datarep, info_t *info);
/* The view before any set_view: disp 0, etype = filetype = MPI_BYTE, native. */
int io_view_default(io_file_t *f);
void io_view_free(io_file_t *f);
/* The absolute byte of data byte b of the view. */
MPI_Offset io_view_byte(const io_file_t *f, MPI_Offset b);
/* Data bytes of the view stored before absolute byte `abs`. */
MPI_Offset io_view_data_before(const io_file_t *f, MPI_Offset abs);
/* Call fn for each file byte run of data bytes [b, b+len) of the view, in
 * order; stops at the first non-zero return. */
typedef int io_piece_fn(void *arg, MPI_Offset file_off, MPI_Offset len, MPI_Offset data_off);
int io_view_pieces(const io_file_t *f, MPI_Offset b, MPI_Offset len, io_piece_fn *fn, void *arg);
/* Where a pointer now at `cur` goes (whence MPI_SEEK_*); MPI_ERR_ARG
 * before 0. */
int io_seek(io_file_t *f, MPI_Offset cur, MPI_Offset offset, int whence, MPI_Offset *out);

/* ---- data representations (io_datarep.c) ---- */
io_drep_t *io_drep_find(const char *name);
int io_drep_register(const char *name, MPI_Datarep_conversion_function *rd,
                     MPI_Datarep_conversion_function *wr,
                     MPI_Datarep_conversion_function_c *rd_c,
                     MPI_Datarep_conversion_function_c *wr_c,
                     MPI_Datarep_extent_function *extent, void *extra);
/* Bytes (count, dt) take in the file in representation d. */
int io_drep_bytes(const io_drep_t *d, const dt_t *dt, size_t count, MPI_Offset *bytes);
/* Extent of dt in the file (MPI_File_get_type_extent). */
int io_drep_extent(const io_drep_t *d, const dt_t *dt, MPI_Aint *extent);
/* The layout of dt in d's file (MPI-4.0 14.5.1): fn(arg, disp, len) for
 * each byte run, in order (a non-zero return stops the walk and is put in
 * *fn_rc); *lb and *extent get its bounds in the file. A portable type is scaled
 * to the file's sizes; the byte displacements of the others are file
 * bytes as given. MPI_SUCCESS or the error of a unit size. */
int io_drep_layout(const io_drep_t *d, const dt_t *dt, dt_block_fn *fn, void *arg,
                   MPI_Aint *lb, MPI_Aint *extent, int *fn_rc);
/* Memory (buf, count, dt) to file bytes out (io_drep_bytes long), and back
 * (n file bytes in: the whole elements they hold are stored; *elems gets
 * how many). */
int io_drep_to_file(const io_drep_t *d, const dt_t *dt, size_t count, const void *buf,
                    void *out);
int io_drep_from_file(const io_drep_t *d, const dt_t *dt, size_t count, void *buf,
                      const void *in, MPI_Offset n, size_t *elems);

/* ---- data access (io_access.c) ---- */
/* Read or write (buf, count, dt) at etype offset `off` of the view. The
 * status gets the bytes moved (memory bytes; a read stops at the end of
 * the file); *etypes the etypes of the view it covered. */
int io_access(io_file_t *f, int write, MPI_Offset off, void *buf, size_t count, dt_t *dt,
              MPI_Status *st, MPI_Offset *etypes);
/* Etypes of the view that (count, dt) covers. */
int io_access_etypes(const io_file_t *f, size_t count, const dt_t *dt, MPI_Offset *etypes);

/* ---- the shared file pointer (io_shared.c) ---- */
/* Collective (open): rank 0 makes the counter file with value `start`. */
int io_shared_open(io_file_t *f, MPI_Offset start);
void io_shared_close(io_file_t *f);
/* Atomically: *old = pointer; pointer += delta. */
int io_shared_fetch_add(io_file_t *f, MPI_Offset delta, MPI_Offset *old);
int io_shared_set(io_file_t *f, MPI_Offset v);
/* Collective MPI_File_seek_shared (the same arguments everywhere). */
int io_shared_seek(io_file_t *f, MPI_Offset offset, int whence);
/* Collective: where each member's `mine` etypes start, in rank order,
 * from the shared pointer, which moves past all of them. */
int io_shared_ordered(io_file_t *f, MPI_Offset mine, MPI_Offset *start);

#endif

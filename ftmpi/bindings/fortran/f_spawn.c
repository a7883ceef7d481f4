/*
 * f_spawn.c: the Fortran entries of MPI_Comm_spawn and
 * MPI_Comm_spawn_multiple (mpi.api marks them @custom): their arguments are
 * arrays of Fortran strings, which the generator does not convert.
 *
 * A Fortran argv is CHARACTER*(*) argv(*), ended by a blank string;
 * array_of_argv(count, *) holds command i's arguments in row i, each row
 * ended by a blank string. gfortran passes each CHARACTER dummy's element
 * length after every other argument, in order. MPI_ARGV_NULL,
 * MPI_ARGVS_NULL and MPI_ERRCODES_IGNORE are the addresses of their common
 * blocks. The strings matter at the root only (MPI-4.0 11.8.2), so only
 * the root reads them: the others may pass anything, unterminated too.
 */
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "f_support.h"

static int is_blank(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] != ' ')
            return 0;
    return 1;
}

static void argv_free(char **a)
{
    for (char **p = a; p && *p; p++)
        free(*p);
    free(a);
}

/* Strings base[k * stride] (k = 0, 1, ...) of length len, up to the first
 * blank one, as a NULL-terminated C argv. 0: out of memory. */
static int argv_in(const char *base, size_t stride, size_t len, char ***out)
{
    size_t n = 0;
    while (!is_blank(base + n * stride, len))
        n++;
    char **a = calloc(n + 1, sizeof *a);
    if (!a)
        return 0;
    for (size_t k = 0; k < n; k++) {
        if (!(a[k] = ftmpi_f_str_in(base + k * stride, len))) {
            argv_free(a);
            return 0;
        }
    }
    *out = a;
    return 1;
}

/* Is this process the spawn's root? Only then are the strings read. A
 * null communicator goes to the C function, which reports it. */
static int at_root(MPI_Fint comm, MPI_Fint root, int *rc)
{
    int r = -1;
    *rc = MPI_SUCCESS;
    if (MPI_Comm_f2c(comm) == MPI_COMM_NULL)
        return 0;
    *rc = MPI_Comm_rank(MPI_Comm_f2c(comm), &r);
    return *rc == MPI_SUCCESS && r == root;
}

void pmpi_comm_spawn_(const char *command, const char *argv, MPI_Fint *maxprocs, MPI_Fint *info,
                      MPI_Fint *root, MPI_Fint *comm, MPI_Fint *intercomm, MPI_Fint *errcodes,
                      MPI_Fint *ierror, size_t command_len, size_t argv_len)
{
    char *cmd = NULL, **args = NULL;
    int nomem = 0, rc;
    if (at_root(*comm, *root, &rc)) {
        nomem = !(cmd = ftmpi_f_str_in(command, command_len));
        if (!nomem && !ftmpi_f_is_argv_null(argv))
            nomem = !argv_in(argv, argv_len, argv_len, &args);
    }
    if (rc != MPI_SUCCESS) {
        /* MPI_Comm_rank failed on comm: its handler already ran */
    } else if (nomem) {
        rc = ftmpi_f_nomem("MPI_Comm_spawn");
    } else {
        MPI_Comm c = MPI_COMM_NULL;
        rc = MPI_Comm_spawn(cmd ? cmd : "", args, *maxprocs, MPI_Info_f2c(*info), *root,
                            MPI_Comm_f2c(*comm), &c, ftmpi_f_errcodes(errcodes));
        *intercomm = MPI_Comm_c2f(c);
    }
    free(cmd);
    argv_free(args);
    if (ierror)
        *ierror = rc;
}
FTMPI_F_NAMES_F08(mpi_comm_spawn)

static void cmds_free(char **cmds, char ***argvs, int n)
{
    for (int i = 0; i < n; i++) {
        if (cmds)
            free(cmds[i]);
        if (argvs)
            argv_free(argvs[i]);
    }
    free(cmds);
    free(argvs);
}

/* The root's commands and argv rows as C arrays. 0: out of memory. */
static int cmds_in(int n, const char *commands, size_t cmd_len, const char *argv,
                   size_t argv_len, char ***cmds_p, char ****argvs_p)
{
    char **cmds = calloc((size_t)n, sizeof *cmds);
    char ***argvs = ftmpi_f_is_argvs_null(argv) ? NULL : calloc((size_t)n, sizeof *argvs);
    int ok = cmds && (argvs || ftmpi_f_is_argvs_null(argv));
    for (int i = 0; ok && i < n; i++) {
        ok = (cmds[i] = ftmpi_f_str_in(commands + (size_t)i * cmd_len, cmd_len)) != NULL;
        if (ok && argvs)
            ok = argv_in(argv + (size_t)i * argv_len, (size_t)n * argv_len, argv_len,
                         &argvs[i]);
    }
    if (!ok) {
        cmds_free(cmds, argvs, n);
        return 0;
    }
    *cmds_p = cmds;
    *argvs_p = argvs;
    return 1;
}

void pmpi_comm_spawn_multiple_(MPI_Fint *count, const char *commands, const char *argv,
                               MPI_Fint *maxprocs, MPI_Fint *infos, MPI_Fint *root,
                               MPI_Fint *comm, MPI_Fint *intercomm, MPI_Fint *errcodes,
                               MPI_Fint *ierror, size_t commands_len, size_t argv_len)
{
    char **cmds = NULL, ***argvs = NULL;
    int nomem = 0, rc, n = *count;
    if (at_root(*comm, *root, &rc) && n > 0)
        nomem = !cmds_in(n, commands, commands_len, argv, argv_len, &cmds, &argvs);
    if (rc != MPI_SUCCESS) {
        /* MPI_Comm_rank failed on comm: its handler already ran */
    } else if (nomem) {
        rc = ftmpi_f_nomem("MPI_Comm_spawn_multiple");
    } else {
        /* MPI_Info and MPI_Fint are both ints: infos is passed as it is */
        MPI_Comm c = MPI_COMM_NULL;
        rc = MPI_Comm_spawn_multiple(n, cmds, argvs, maxprocs, (MPI_Info *)infos, *root,
                                     MPI_Comm_f2c(*comm), &c, ftmpi_f_errcodes(errcodes));
        *intercomm = MPI_Comm_c2f(c);
    }
    if (cmds)
        cmds_free(cmds, argvs, n);
    if (ierror)
        *ierror = rc;
}
FTMPI_F_NAMES_F08(mpi_comm_spawn_multiple)

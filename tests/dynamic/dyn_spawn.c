/*
 * Dynamic processes (docs/dynamic.md): one program that is both the
 * parent and the child it spawns. argv[1] names the case; a spawned copy
 * gets "child" and the case as its arguments.
 *
 *   one N       spawn N children; parent and children exchange over the
 *               intercommunicator, merge it, allreduce on the merged
 *               communicator, and disconnect
 *   multiple    spawn_multiple of two commands (appnum 0 and 1, one
 *               MPI_COMM_WORLD of 3)
 *   port        the parents open a port and publish it; the children look
 *               it up and connect; accept/connect make a second
 *               intercommunicator
 *   badexe      spawning a program that does not exist fails with
 *               MPI_ERR_SPAWN in errcodes, and a spawn after it works
 *   nouniverse  no --universe: MPI_ERR_SPAWN with a message
 *   join        ranks 0 and 1 connect a TCP socket and MPI_Comm_join over it
 *   path        spawn the program by its bare name, found through the "path"
 *               info key: "." with "wdir" its directory, then the directory
 *               itself (not on the launcher's PATH: glibc's execvpe would
 *               not look there)
 *
 * Every process that finishes prints "<who> N: ok".
 */
#include <ftmpi.h>
#include <mpi.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *who = "parent";
static int me;

#define CHECK(c)                                                                    \
    do {                                                                            \
        if (!(c)) {                                                                 \
            printf("%s %d: check failed: %s (line %d)\n", who, me, #c, __LINE__);  \
            fflush(stdout);                                                         \
            MPI_Abort(MPI_COMM_WORLD, 1);                                           \
        }                                                                           \
    } while (0)

static void exchange(MPI_Comm inter, int parent_side)
{
    int lsize, rsize, lrank;
    MPI_Comm_size(inter, &lsize);
    MPI_Comm_remote_size(inter, &rsize);
    MPI_Comm_rank(inter, &lrank);
    /* local rank 0 of each side sends 1000+k to every remote rank k */
    if (lrank == 0)
        for (int k = 0; k < rsize; k++) {
            int v = 1000 * (parent_side + 1) + k;
            CHECK(MPI_Send(&v, 1, MPI_INT, k, 7, inter) == MPI_SUCCESS);
        }
    int got = -1;
    CHECK(MPI_Recv(&got, 1, MPI_INT, 0, 7, inter, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(got == 1000 * (!parent_side + 1) + lrank);
    /* merged: parents first (high = 0 on the parent side) */
    MPI_Comm merged;
    CHECK(MPI_Intercomm_merge(inter, !parent_side, &merged) == MPI_SUCCESS);
    int msize, mrank;
    MPI_Comm_size(merged, &msize);
    MPI_Comm_rank(merged, &mrank);
    CHECK(msize == lsize + rsize);
    CHECK(mrank == (parent_side ? lrank : rsize + lrank));
    int sum = 0, one = mrank;
    CHECK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, merged) == MPI_SUCCESS);
    CHECK(sum == msize * (msize - 1) / 2);
    MPI_Comm_free(&merged);
}

static void child(int argc, char **argv)
{
    who = "child";
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    CHECK(parent != MPI_COMM_NULL);
    int size, *appnum, flag;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag);
    CHECK(flag);
    const char *c = argc > 2 ? argv[2] : "";
    if (strcmp(c, "multiple") == 0) {
        CHECK(size == 3);
        /* command 0 started one process with "a", command 1 two with "b" */
        CHECK(argc > 3 && strcmp(argv[3], *appnum == 0 ? "a" : "b") == 0);
        CHECK(*appnum == (me == 0 ? 0 : 1));
    } else {
        CHECK(*appnum == 0);
    }
    if (strcmp(c, "port") == 0) {
        char port[MPI_MAX_PORT_NAME];
        CHECK(MPI_Lookup_name("dyn-test-service", MPI_INFO_NULL, port) == MPI_SUCCESS);
        MPI_Comm other;
        CHECK(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &other) == MPI_SUCCESS);
        exchange(other, 0);
        CHECK(MPI_Comm_disconnect(&other) == MPI_SUCCESS);
    }
    exchange(parent, 0);
    CHECK(MPI_Comm_disconnect(&parent) == MPI_SUCCESS);
    MPI_Comm_get_parent(&parent);
    CHECK(parent == MPI_COMM_NULL);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    const char *c = argc > 1 ? argv[1] : "one";
    if (strcmp(c, "child") == 0) {
        child(argc, argv);
        printf("child %d: ok\n", me);
        MPI_Finalize();
        return 0;
    }
    MPI_Comm parent, inter = MPI_COMM_NULL;
    MPI_Comm_get_parent(&parent);
    CHECK(parent == MPI_COMM_NULL);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int *usize, flag;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &usize, &flag);
    CHECK(flag);
    if (strcmp(c, "one") == 0) {
        int n = argc > 2 ? atoi(argv[2]) : 1;
        int errs[16];
        CHECK(MPI_Comm_spawn(argv[0], (char *[]){"child", "one", NULL}, n, MPI_INFO_NULL, 0,
                             MPI_COMM_WORLD, &inter, errs) == MPI_SUCCESS);
        for (int i = 0; i < n; i++)
            CHECK(errs[i] == MPI_SUCCESS);
        int rsize;
        MPI_Comm_remote_size(inter, &rsize);
        CHECK(rsize == n);
    } else if (strcmp(c, "multiple") == 0) {
        char *cmds[2] = {argv[0], argv[0]};
        char *a0[] = {"child", "multiple", "a", NULL}, *a1[] = {"child", "multiple", "b", NULL};
        char **argvs[2] = {a0, a1};
        int np[2] = {1, 2};
        MPI_Info infos[2] = {MPI_INFO_NULL, MPI_INFO_NULL};
        CHECK(MPI_Comm_spawn_multiple(2, cmds, argvs, np, infos, 0, MPI_COMM_WORLD, &inter,
                                      MPI_ERRCODES_IGNORE) == MPI_SUCCESS);
    } else if (strcmp(c, "port") == 0) {
        char port[MPI_MAX_PORT_NAME] = "";
        if (me == 0) {
            CHECK(MPI_Open_port(MPI_INFO_NULL, port) == MPI_SUCCESS);
            CHECK(MPI_Publish_name("dyn-test-service", MPI_INFO_NULL, port) == MPI_SUCCESS);
        }
        CHECK(MPI_Comm_spawn(argv[0], (char *[]){"child", "port", NULL}, 2, MPI_INFO_NULL, 0,
                             MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE) == MPI_SUCCESS);
        MPI_Comm other;
        CHECK(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &other) == MPI_SUCCESS);
        exchange(other, 1);
        CHECK(MPI_Comm_disconnect(&other) == MPI_SUCCESS);
        if (me == 0) {
            CHECK(MPI_Unpublish_name("dyn-test-service", MPI_INFO_NULL, port) == MPI_SUCCESS);
            char again[MPI_MAX_PORT_NAME];
            CHECK(MPI_Lookup_name("dyn-test-service", MPI_INFO_NULL, again) == MPI_ERR_NAME);
            CHECK(MPI_Close_port(port) == MPI_SUCCESS);
        }
    } else if (strcmp(c, "badexe") == 0) {
        int errs[2] = {-1, -1};
        int rc = MPI_Comm_spawn("/nonexistent/ftmpi-no-such-program", MPI_ARGV_NULL, 2,
                                MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, errs);
        int cls;
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_SPAWN);
        CHECK(inter == MPI_COMM_NULL);
        CHECK(errs[0] == MPI_ERR_SPAWN && errs[1] == MPI_ERR_SPAWN);
        /* a working spawn after the failed one */
        CHECK(MPI_Comm_spawn(argv[0], (char *[]){"child", "one", NULL}, 1, MPI_INFO_NULL, 0,
                             MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE) == MPI_SUCCESS);
    } else if (strcmp(c, "path") == 0) {
        char dir[4096];
        CHECK(realpath(argv[0], dir) != NULL);
        char *slash = strrchr(dir, '/');
        CHECK(slash != NULL);
        *slash = '\0';
        const char *name = slash + 1;
        MPI_Info info;
        MPI_Info_create(&info);
        MPI_Info_set(info, "path", ".");
        MPI_Info_set(info, "wdir", dir);
        CHECK(MPI_Comm_spawn(name, (char *[]){"child", "one", NULL}, 1, info, 0, MPI_COMM_WORLD,
                             &inter, MPI_ERRCODES_IGNORE) == MPI_SUCCESS);
        exchange(inter, 1);
        CHECK(MPI_Comm_disconnect(&inter) == MPI_SUCCESS);
        MPI_Info_delete(info, "wdir");
        MPI_Info_set(info, "path", dir);
        CHECK(MPI_Comm_spawn(name, (char *[]){"child", "one", NULL}, 1, info, 0, MPI_COMM_WORLD,
                             &inter, MPI_ERRCODES_IGNORE) == MPI_SUCCESS);
        MPI_Info_free(&info);
    } else if (strcmp(c, "join") == 0) {
        /* rank 0 listens on the loopback, rank 1 connects: a socket each */
        int fd = -1, port = 0;
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
        socklen_t len = sizeof a;
        if (me == 0) {
            int l = socket(AF_INET, SOCK_STREAM, 0);
            CHECK(l >= 0 && bind(l, (struct sockaddr *)&a, sizeof a) == 0 && listen(l, 1) == 0);
            CHECK(getsockname(l, (struct sockaddr *)&a, &len) == 0);
            port = ntohs(a.sin_port);
            MPI_Send(&port, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
            CHECK((fd = accept(l, NULL, NULL)) >= 0);
            close(l);
        } else {
            MPI_Recv(&port, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            a.sin_port = htons((unsigned short)port);
            CHECK((fd = socket(AF_INET, SOCK_STREAM, 0)) >= 0);
            CHECK(connect(fd, (struct sockaddr *)&a, sizeof a) == 0);
        }
        CHECK(MPI_Comm_join(fd, &inter) == MPI_SUCCESS);
        close(fd);
        int rsize;
        MPI_Comm_remote_size(inter, &rsize);
        CHECK(rsize == 1);
        exchange(inter, me == 0);
        CHECK(MPI_Comm_disconnect(&inter) == MPI_SUCCESS);
        printf("parent %d: ok\n", me);
        MPI_Finalize();
        return 0;
    } else if (strcmp(c, "nouniverse") == 0) {
        int wsize;
        MPI_Comm_size(MPI_COMM_WORLD, &wsize);
        CHECK(*usize == wsize);
        int rc = MPI_Comm_spawn(argv[0], (char *[]){"child", "one", NULL}, 1, MPI_INFO_NULL, 0,
                                MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE);
        int cls;
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_SPAWN);
        if (me == 0) {
            char msg[MPI_MAX_ERROR_STRING];
            int len;
            FTMPI_Error_cause(msg, &len); /* the cause names the option */
            CHECK(strstr(msg, "--universe") != NULL);
        }
        printf("parent %d: ok\n", me);
        MPI_Finalize();
        return 0;
    } else {
        CHECK(!"unknown case");
    }
    exchange(inter, 1);
    CHECK(MPI_Comm_disconnect(&inter) == MPI_SUCCESS);
    printf("parent %d: ok\n", me);
    MPI_Finalize();
    return 0;
}

/*
 * Ports, names and disconnection (docs/dynamic.md): MPI_Open_port,
 * MPI_Close_port, MPI_Comm_accept, MPI_Comm_connect, MPI_Publish_name,
 * MPI_Lookup_name, MPI_Unpublish_name, MPI_Comm_disconnect.
 *
 * A port is "ftmpi-port:<job-wide id of its owner>:<number>". The
 * connecting root sends its id to the port's owner over the bridge with
 * the port's tag; the accepting root (the owner) receives it from any
 * source; both then build the intercommunicator over the bridge with a
 * tag the acceptor chose and sent back. Names live in the runtime's
 * key-value store ("ftmpi.name.<service>"); an unpublished name holds "".
 */
#include "api/dyn.h"
#include "core/attr.h"
#include "p2p/p2p.h"
#include "p2p/progress.h"
#include "runtime/rtc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int port_parse(const char *port, int *owner, int *num)
{
    char tail;
    if (!port || sscanf(port, "ftmpi-port:%d:%d%c", owner, num, &tail) != 2 || *owner < 0 ||
        *owner >= ftg.world_size || *num < 0)
        return err_cause(MPI_ERR_PORT, "'%.64s' is not a port name of this job",
                         port ? port : "(null)");
    return MPI_SUCCESS;
}

/* The tag of port number num's requests on the bridge (the owner's own
 * dyn_next_tag space has the high bit clear). */
static int port_tag(int num) { return 0x40000000 | (num & 0x3fffffff); }

API_WEAK(Open_port)
int PMPI_Open_port(MPI_Info info, char *port_name)
{
    API_BEGIN("MPI_Open_port");
    static int next_port;
    CHECK_PTR(port_name);
    (void)info; /* no info keys are used */
    if (!dyn_bridge())
        API_FAIL(err_cause(MPI_ERR_PORT, "no room for other processes in this job "
                                         "(ftmpirun --universe N)"));
    snprintf(port_name, MPI_MAX_PORT_NAME, "ftmpi-port:%d:%d", ftg.world_rank, next_port++);
    API_END();
}

API_WEAK(Close_port)
int PMPI_Close_port(const char *port_name)
{
    API_BEGIN("MPI_Close_port");
    int owner, num;
    rc = port_parse(port_name, &owner, &num);
    if (rc == MPI_SUCCESS && owner != ftg.world_rank)
        rc = err_cause(MPI_ERR_PORT, "port %s was not opened by this process", port_name);
    API_END();
}

/* Root's side of the rendezvous; then everyone builds the
 * intercommunicator. `peer` and `tag` go to all through a broadcast. */
static int rendezvous(comm_t *c, int root, int root_rc, int peer, int tag, comm_t **out)
{
    int v[3] = {root_rc, peer, tag};
    int rc = coll_bcast(c, v, 3, dt_get(MPI_INT), root);
    if (rc != MPI_SUCCESS)
        return rc;
    if (v[0] != MPI_SUCCESS)
        return c->rank == root ? v[0] : err_cause(MPI_ERR_PORT, "the root could not connect");
    return dyn_connect_groups(c, root, v[1], v[2], out);
}

static int accept_root(const char *port, int *peer, int *tag)
{
    int owner, num;
    int rc = port_parse(port, &owner, &num);
    if (rc == MPI_SUCCESS && owner != ftg.world_rank)
        rc = err_cause(MPI_ERR_PORT, "port %s belongs to process %d, not to this root", port,
                       owner);
    comm_t *b = dyn_bridge();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!b)
        return err_cause(MPI_ERR_PORT, "no room for other processes in this job");
    int who = -1;
    dt_t *ints = dt_get(MPI_INT);
    MPI_Status st;
    rc = api_sendrecv(b, NULL, 0, ints, MPI_PROC_NULL, 0, &who, 1, ints, MPI_ANY_SOURCE,
                      port_tag(num), &st);
    if (rc != MPI_SUCCESS)
        return rc;
    *peer = who;
    *tag = dyn_next_tag();
    rc = dyn_learn(&who, 1);
    if (rc == MPI_SUCCESS)
        rc = api_sendrecv(b, tag, 1, ints, who, port_tag(num), NULL, 0, ints, MPI_PROC_NULL, 0,
                          NULL);
    return rc;
}

static int connect_root(const char *port, int *peer, int *tag)
{
    int owner, num;
    int rc = port_parse(port, &owner, &num);
    comm_t *b = dyn_bridge();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!b)
        return err_cause(MPI_ERR_PORT, "no room for other processes in this job");
    rc = dyn_learn(&owner, 1);
    if (rc != MPI_SUCCESS)
        return rc;
    dt_t *ints = dt_get(MPI_INT);
    int me = ftg.world_rank;
    *peer = owner;
    return api_sendrecv(b, &me, 1, ints, owner, port_tag(num), tag, 1, ints, owner,
                        port_tag(num), NULL);
}

/* MPI_Comm_accept (is_accept) and MPI_Comm_connect, between API_BEGIN
 * and API_END. */
static int accept_or_connect(const char *port, int root, MPI_Comm comm, MPI_Comm *newcomm,
                             int is_accept)
{
    comm_t *c = comm_get(comm), *n = NULL;
    if (!newcomm)
        return MPI_ERR_ARG;
    if (!c)
        return err_cause(MPI_ERR_COMM, "%d is not a communicator handle", (int)comm);
    if (c->is_inter)
        return MPI_ERR_COMM;
    if (root < 0 || root >= c->size)
        return MPI_ERR_ROOT;
    int peer = -1, tag = 0, rc = MPI_SUCCESS;
    if (c->rank == root)
        rc = is_accept ? accept_root(port, &peer, &tag) : connect_root(port, &peer, &tag);
    rc = rendezvous(c, root, rc, peer, tag, &n);
    *newcomm = rc == MPI_SUCCESS ? n->handle : MPI_COMM_NULL;
    return rc;
}

/* No info keys are used by either call. */
API_WEAK(Comm_accept)
int PMPI_Comm_accept(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                     MPI_Comm *newcomm)
{
    API_BEGIN("MPI_Comm_accept");
    (void)info;
    err_comm = comm_get(comm);
    rc = accept_or_connect(port_name, root, comm, newcomm, 1);
    API_END();
}

API_WEAK(Comm_connect)
int PMPI_Comm_connect(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                      MPI_Comm *newcomm)
{
    API_BEGIN("MPI_Comm_connect");
    (void)info;
    err_comm = comm_get(comm);
    rc = accept_or_connect(port_name, root, comm, newcomm, 0);
    API_END();
}

static int name_key(const char *service, char *key, size_t cap)
{
    if (!service || !*service || strlen(service) + 12 >= cap)
        return err_cause(MPI_ERR_NAME, "bad service name");
    snprintf(key, cap, "ftmpi.name.%s", service);
    return MPI_SUCCESS;
}

API_WEAK(Publish_name)
int PMPI_Publish_name(const char *service_name, MPI_Info info, const char *port_name)
{
    API_BEGIN("MPI_Publish_name");
    char key[256];
    (void)info;
    int owner, num;
    rc = name_key(service_name, key, sizeof(key));
    if (rc == MPI_SUCCESS)
        rc = port_parse(port_name, &owner, &num);
    if (rc == MPI_SUCCESS && rtc_kv_put(key, port_name, strlen(port_name) + 1) < 0)
        rc = err_cause(MPI_ERR_SERVICE, "the runtime did not take the name");
    API_END();
}

API_WEAK(Unpublish_name)
int PMPI_Unpublish_name(const char *service_name, MPI_Info info, const char *port_name)
{
    API_BEGIN("MPI_Unpublish_name");
    char key[256], cur[MPI_MAX_PORT_NAME];
    size_t len = 0;
    (void)info;
    (void)port_name;
    rc = name_key(service_name, key, sizeof(key));
    /* the name must be published now (a get does not block then) */
    if (rc == MPI_SUCCESS && (rtc_kv_get(key, cur, sizeof(cur), &len) < 0 || len <= 1))
        rc = err_cause(MPI_ERR_SERVICE, "service %s is not published", service_name);
    if (rc == MPI_SUCCESS && rtc_kv_put(key, "", 1) < 0)
        rc = MPI_ERR_SERVICE;
    API_END();
}

API_WEAK(Lookup_name)
int PMPI_Lookup_name(const char *service_name, MPI_Info info, char *port_name)
{
    API_BEGIN("MPI_Lookup_name");
    char key[256];
    size_t len = 0;
    (void)info;
    CHECK_PTR(port_name);
    rc = name_key(service_name, key, sizeof(key));
    /* Waits until the name is published (the store's get blocks):
     * docs/dynamic.md. An unpublished name is MPI_ERR_NAME. */
    if (rc == MPI_SUCCESS && (rtc_kv_get(key, port_name, MPI_MAX_PORT_NAME, &len) < 0 ||
                              len <= 1))
        rc = err_cause(MPI_ERR_NAME, "service %s is not published", service_name);
    API_END();
}

static int nothing_pending(void *arg)
{
    (void)arg;
    return !p2p_outbound_busy();
}

API_WEAK(Comm_disconnect)
int PMPI_Comm_disconnect(MPI_Comm *comm)
{
    API_BEGIN("MPI_Comm_disconnect");
    CHECK_PTR(comm);
    comm_t *c = comm_get(*comm);
    if (!c || c->predefined)
        API_FAIL(MPI_ERR_COMM);
    err_comm = c;
    /* What this process sent leaves first; the barrier then says every
     * member got here, so nothing is in flight on c (the standard's
     * "waits for all pending communication"). */
    progress_wait(nothing_pending, NULL);
    rc = coll_barrier(c);
    int rc2 = attr_clear(KV_COMM, &c->attrs, c->handle);
    c->freed = 1;
    *comm = MPI_COMM_NULL;
    comm_release(c);
    err_comm = NULL;
    if (rc == MPI_SUCCESS)
        rc = rc2;
    API_END();
}
